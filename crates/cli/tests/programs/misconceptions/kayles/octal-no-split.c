#include <stdio.h>

/* A move removes 1 or 2 counters from a heap: a subtraction game with the
   moves {1, 2}, so a heap of n is worth n mod 3 and the heaps are xored. */
int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        int k;
        long long x = 0;
        scanf("%d", &k);
        for (int i = 0; i < k; i++) {
            long long h;
            scanf("%lld", &h);
            x ^= h % 3;
        }
        puts(x ? "First" : "Second");
    }
    return 0;
}
