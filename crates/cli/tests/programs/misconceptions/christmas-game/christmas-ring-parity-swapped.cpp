#include <bits/stdc++.h>
using namespace std;

// Fusion: a ring shrinks into the vertex it hangs from. I take an even ring
// to leave one edge behind and an odd ring to leave nothing, then the tree
// rule: a vertex is worth the xor of (child + 1) over its children.
int n, k;
vector<vector<pair<int, int>>> adj;
vector<int> depth_, parent_, extra;
vector<bool> on_path, in_ring;
vector<vector<int>> kids;

void dfs(int v, int via) {
    on_path[v] = true;
    for (auto [u, id] : adj[v]) {
        if (id == via) continue;
        if (depth_[u] < 0) {
            depth_[u] = depth_[v] + 1;
            parent_[u] = v;
            kids[v].push_back(u);
            dfs(u, id);
        } else if (on_path[u]) {
            int length = depth_[v] - depth_[u] + 1;
            for (int w = v; w != u; w = parent_[w]) in_ring[w] = true;
            if (length % 2 == 0) extra[u] ^= 1;
        }
    }
    on_path[v] = false;
}

long long worth(int v) {
    long long x = extra[v];
    for (int c : kids[v])
        if (!in_ring[c]) x ^= worth(c) + 1;
    return x;
}

int main() {
    int graphs;
    while (scanf("%d", &graphs) == 1) {
        long long total = 0;
        for (int g = 0; g < graphs; g++) {
            scanf("%d %d", &n, &k);
            adj.assign(n + 1, {});
            for (int i = 0; i < k; i++) {
                int a, b;
                scanf("%d %d", &a, &b);
                adj[a].push_back({b, i});
                adj[b].push_back({a, i});
            }
            depth_.assign(n + 1, -1);
            parent_.assign(n + 1, 0);
            extra.assign(n + 1, 0);
            on_path.assign(n + 1, false);
            in_ring.assign(n + 1, false);
            kids.assign(n + 1, {});
            depth_[1] = 0;
            dfs(1, -1);
            total ^= worth(1);
        }
        puts(total ? "Sally" : "Harry");
    }
}
