#include <bits/stdc++.h>
using namespace std;

// Both players head for the nearest dead end, so whoever is to move when the
// coin is an odd number of edges from it gets there first and wins.
int main() {
    int n, m;
    scanf("%d %d", &n, &m);
    vector<vector<int>> back(n + 1);
    vector<int> out(n + 1, 0);
    for (int i = 0; i < m; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        back[v].push_back(u);
        out[u]++;
    }
    vector<int> dist(n + 1, -1);
    deque<int> bfs;
    for (int v = 1; v <= n; v++)
        if (out[v] == 0) {
            dist[v] = 0;
            bfs.push_back(v);
        }
    while (!bfs.empty()) {
        int v = bfs.front();
        bfs.pop_front();
        for (int u : back[v])
            if (dist[u] < 0) {
                dist[u] = dist[v] + 1;
                bfs.push_back(u);
            }
    }
    int winners = 0;
    for (int v = 1; v <= n; v++)
        if (dist[v] % 2 == 1) winners++;
    printf("%d\n", winners);
}
