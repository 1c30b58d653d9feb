#include <stdio.h>

/* Matches, solved with the rule I remember for Nim:
   if every pile has at most one match, the first player wins iff the
   xor is 0; otherwise the first player wins iff the xor is non-zero. */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        int x = 0, big = 0;
        for (int i = 0; i < m; i++) {
            int p;
            scanf("%d", &p);
            x ^= p;
            if (p > 1) big = 1;
        }
        int win = big ? (x != 0) : (x == 0);
        puts(win ? "Yes" : "No");
    }
    return 0;
}
