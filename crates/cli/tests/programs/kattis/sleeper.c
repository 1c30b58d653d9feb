/* Reads n, then waits for nothing and says nothing. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    for (;;) pause();
}
