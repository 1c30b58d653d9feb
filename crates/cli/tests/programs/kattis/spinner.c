/* Reads n, then computes without end. */
#include <stdio.h>

int main(void) {
    long n;
    volatile unsigned long x = 0;
    if (scanf("%ld", &n) != 1) return 1;
    for (;;) x++;
}
