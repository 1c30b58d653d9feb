/* Reads n and exits without a guess. */
#include <stdio.h>

int main(void) {
    long n;
    return scanf("%ld", &n) == 1 ? 0 : 1;
}
