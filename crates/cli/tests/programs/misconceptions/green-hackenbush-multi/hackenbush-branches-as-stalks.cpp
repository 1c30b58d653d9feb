#include <bits/stdc++.h>
using namespace std;

// Every branch hanging from the root is a separate tree; a tree with e
// edges is worth e (like a stalk of e edges), and the branches are xored.
int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d", &n);
        vector<vector<int>> adj(n + 1);
        for (int i = 0; i < n - 1; i++) {
            int x, y;
            scanf("%d %d", &x, &y);
            adj[x].push_back(y);
            adj[y].push_back(x);
        }
        vector<int> order, par(n + 1, 0), sz(n + 1, 1);
        order.push_back(1);
        par[1] = -1;
        for (size_t i = 0; i < order.size(); i++) {
            int v = order[i];
            for (int u : adj[v])
                if (u != par[v]) {
                    par[u] = v;
                    order.push_back(u);
                }
        }
        for (int i = n - 1; i > 0; i--) sz[par[order[i]]] += sz[order[i]];
        int x = 0;
        for (int c : adj[1]) x ^= sz[c];  // edges of the branch through c
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}
