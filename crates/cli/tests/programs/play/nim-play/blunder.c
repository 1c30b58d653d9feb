/* Plays perfectly except once: from the second game on, at its first chance it takes one match
   from a pile where that loses. It says on stderr which game and move. */
#include <stdio.h>

int main(void) {
    int t, blundered = 0, move = 0;
    if (scanf("%d", &t) != 1) return 1;
    for (int g = 0; g < t; g++) {
        int n;
        long long a[10];
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
        long long x = 0;
        for (int i = 0; i < n; i++) x ^= a[i];
        int mine = x != 0;
        move = 0;
        puts(mine ? "first" : "second");
        fflush(stdout);
        for (;;) {
            long long left = 0;
            for (int i = 0; i < n; i++) left += a[i];
            if (left == 0) break;
            move++;
            if (mine && g >= 1 && !blundered) {
                x = 0;
                for (int i = 0; i < n; i++) x ^= a[i];
                for (int i = 0; i < n && !blundered; i++) {
                    if (a[i] > 0 && ((x ^ a[i] ^ (a[i] - 1)) != 0)) {
                        printf("%d 1\n", i + 1);
                        fflush(stdout);
                        fprintf(stderr, "blunder at game %d, move %d\n", g + 1, move);
                        blundered = 1;
                    }
                }
                if (blundered) {
                    /* The referee answers -1 and stops; wait for it. */
                    int stop;
                    return scanf("%d", &stop) == 1 ? 0 : 1;
                }
            }
            if (mine) {
                x = 0;
                for (int i = 0; i < n; i++) x ^= a[i];
                for (int i = 0; i < n; i++) {
                    if ((a[i] ^ x) < a[i]) {
                        long long k = a[i] - (a[i] ^ x);
                        printf("%d %lld\n", i + 1, k);
                        fflush(stdout);
                        a[i] -= k;
                        break;
                    }
                }
            } else {
                int i;
                long long k;
                if (scanf("%d", &i) != 1 || i == -1) return 0;
                if (scanf("%lld", &k) != 1) return 1;
                a[i - 1] -= k;
            }
            mine = !mine;
        }
    }
    return 0;
}
