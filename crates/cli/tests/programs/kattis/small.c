/* Binary search that believes the number is at most 100, and guesses 0 when its range is empty. */
#include <stdio.h>
#include <string.h>

int main(void) {
    long n, lo = 1, hi = 100;
    if (scanf("%ld", &n) != 1) return 1;
    for (;;) {
        long mid = lo <= hi ? lo + (hi - lo) / 2 : 0;
        char reply[16];
        printf("%ld\n", mid);
        fflush(stdout);
        if (scanf("%15s", reply) != 1) return 0;
        if (strcmp(reply, "correct") == 0) return 0;
        if (strcmp(reply, "lower") == 0) hi = mid - 1; else lo = mid + 1;
    }
}
