/* Plays perfectly but never flushes its output: on a pipe it sits in the buffer. */
#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int g = 0; g < t; g++) {
        int n;
        long long a[10];
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
        long long x = 0;
        for (int i = 0; i < n; i++) x ^= a[i];
        int mine = x != 0;
        puts(mine ? "first" : "second");
        for (;;) {
            long long left = 0;
            for (int i = 0; i < n; i++) left += a[i];
            if (left == 0) break;
            if (mine) {
                x = 0;
                for (int i = 0; i < n; i++) x ^= a[i];
                for (int i = 0; i < n; i++) {
                    if ((a[i] ^ x) < a[i]) {
                        long long k = a[i] - (a[i] ^ x);
                        printf("%d %lld\n", i + 1, k);
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
