/* Binary search: at most 20 guesses for n up to 10^6. */
#include <stdio.h>
#include <string.h>

int main(void) {
    long n, lo = 1, hi;
    if (scanf("%ld", &n) != 1) return 1;
    hi = n;
    for (;;) {
        long mid = lo + (hi - lo) / 2;
        char reply[16];
        printf("%ld\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 1;
        if (strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "lower") == 0) hi = mid - 1; else lo = mid + 1;
    }
}
