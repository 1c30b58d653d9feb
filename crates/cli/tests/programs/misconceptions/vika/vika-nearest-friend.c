#include <stdio.h>
#include <stdlib.h>

/* The closest friend gets to Vika first, so only that friend matters:
   an odd distance means they can never land on her room. */
int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, m, k, x, y;
        scanf("%d %d %d", &n, &m, &k);
        scanf("%d %d", &x, &y);
        int best = 1000000;
        for (int i = 0; i < k; i++) {
            int a, b;
            scanf("%d %d", &a, &b);
            int d = abs(x - a) + abs(y - b);
            if (d < best) best = d;
        }
        printf("%s\n", best % 2 == 1 ? "Yes" : "No");
    }
    return 0;
}
