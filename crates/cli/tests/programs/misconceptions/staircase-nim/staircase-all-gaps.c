#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Each gap between neighbouring chessmen is a Nim pile. */
int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n, p[1005];
        scanf("%d", &n);
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        qsort(p, n, sizeof p[0], cmp);
        int x = 0, prev = 0;
        for (int i = 0; i < n; i++) {
            x ^= p[i] - prev - 1;
            prev = p[i];
        }
        puts(x ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
