#include <stdio.h>

/* Matches: I think the player to move wins iff the total number of
   matches is odd (each move takes matches away, so parity decides). */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        long long sum = 0;
        for (int i = 0; i < m; i++) {
            long long p;
            scanf("%lld", &p);
            sum += p;
        }
        puts(sum % 2 == 1 ? "Yes" : "No");
    }
    return 0;
}
