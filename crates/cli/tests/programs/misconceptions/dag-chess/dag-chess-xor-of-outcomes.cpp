#include <bits/stdc++.h>
using namespace std;

// A token on a winning square counts 1, on a losing square 0; as in Nim the
// position is won when these xor to 1.
int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        vector<vector<int>> to(n);
        for (int i = 0; i < n; i++) {
            int k;
            scanf("%d", &k);
            to[i].resize(k);
            for (int &c : to[i]) scanf("%d", &c);
        }
        // win[v]: some move reaches a losing vertex; decided once all successors are.
        vector<int> win(n, -1);
        function<int(int)> decide = [&](int v) {
            if (win[v] >= 0) return win[v];
            int w = 0;
            for (int c : to[v])
                if (!decide(c)) w = 1;
            return win[v] = w;
        };
        int m;
        while (scanf("%d", &m) == 1 && m != 0) {
            int x = 0;
            for (int i = 0; i < m; i++) {
                int p;
                scanf("%d", &p);
                x ^= decide(p);
            }
            puts(x ? "WIN" : "LOSE");
        }
    }
}
