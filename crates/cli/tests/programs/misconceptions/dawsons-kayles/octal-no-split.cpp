#include <bits/stdc++.h>
using namespace std;

// Each move takes exactly 2 counters from a heap (all of it when it has 2).
// Grundy values by the mex rule, then xor over the heaps. The values repeat
// with period 4, so a heap counts as its size mod 4.
int main() {
    vector<int> g(8, 0);
    for (int n = 2; n < 8; n++) g[n] = g[n - 2] == 0 ? 1 : 0;
    int t;
    scanf("%d", &t);
    while (t--) {
        int k;
        scanf("%d", &k);
        int x = 0;
        for (int i = 0; i < k; i++) {
            long long h;
            scanf("%lld", &h);
            x ^= g[h % 4];
        }
        puts(x ? "First" : "Second");
    }
}
