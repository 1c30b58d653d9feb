// Stones: dp[k] = 1 iff some a_i <= k has dp[k - a_i] == 0. O(N*K).
#include <stdio.h>
static char win[100001];
int main(void) {
    int n, k, a[100];
    if (scanf("%d %d", &n, &k) != 2) return 0;
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int x = 1; x <= k; x++)
        for (int i = 0; i < n && a[i] <= x; i++)
            if (!win[x - a[i]]) { win[x] = 1; break; }
    puts(win[k] ? "First" : "Second");
    return 0;
}
