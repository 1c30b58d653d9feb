#include <bits/stdc++.h>
using namespace std;

// The last token to stop decides. A player who is winning a token's game
// finishes it at once (fewest moves), a player who is losing it stalls as long
// as possible: step = 1 + min over losing successors at a winning vertex,
// 1 + max over all successors at a losing one. Lan wins iff the largest step
// among the tokens is odd.
int main() {
    int n, m;
    scanf("%d %d", &n, &m);
    vector<vector<int>> out(n + 1), in(n + 1);
    for (int i = 0; i < m; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        out[u].push_back(v);
        in[v].push_back(u);
    }
    vector<int> left(n + 1), order;
    for (int v = 1; v <= n; v++) {
        left[v] = out[v].size();
        if (left[v] == 0) order.push_back(v);
    }
    for (size_t i = 0; i < order.size(); i++)
        for (int u : in[order[i]])
            if (--left[u] == 0) order.push_back(u);
    vector<bool> wins(n + 1, false);
    vector<long long> step(n + 1, 0);
    for (int v : order) {
        if (out[v].empty()) continue;
        for (int w : out[v])
            if (!wins[w]) wins[v] = true;
        long long best = wins[v] ? LLONG_MAX : -1;
        for (int w : out[v]) {
            if (wins[v] && !wins[w]) best = min(best, step[w]);
            if (!wins[v]) best = max(best, step[w]);
        }
        step[v] = best + 1;
    }
    int q;
    scanf("%d", &q);
    while (q--) {
        int c;
        scanf("%d", &c);
        long long top = 0;
        for (int i = 0; i < c; i++) {
            int v;
            scanf("%d", &v);
            top = max(top, step[v]);
        }
        puts(top % 2 == 1 ? "First" : "Second");
    }
}
