/* Reads n and fails with exit code 3 before a guess. */
#include <stdio.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    return 3;
}
