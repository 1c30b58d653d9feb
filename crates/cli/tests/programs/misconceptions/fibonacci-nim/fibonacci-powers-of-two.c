#include <stdio.h>

/* The second player wins exactly when n is a power of two:
   2 -> second wins, and doubling keeps the pattern. */
int main(void) {
    long long n;
    while (scanf("%lld", &n) == 1 && n != 0) {
        if ((n & (n - 1)) == 0)
            puts("Second win");
        else
            puts("First win");
    }
    return 0;
}
