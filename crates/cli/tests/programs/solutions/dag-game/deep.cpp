// Correct, but uses plain recursive DFS (no manual stack): on a path the
// recursion is as deep as the path (up to 1e6 frames), so it relies on the
// judge giving the stack the whole memory limit.
#include <bits/stdc++.h>
using namespace std;

static char buf[1 << 16];
static size_t blen = 0, bpos = 0;
static inline int gc() {
    if (bpos == blen) {
        blen = fread(buf, 1, sizeof buf, stdin);
        bpos = 0;
        if (blen == 0) return -1;
    }
    return buf[bpos++];
}
static inline int readInt() {
    int c = gc();
    while (c != -1 && (c < '0' || c > '9')) c = gc();
    int x = 0;
    while (c >= '0' && c <= '9') { x = x * 10 + (c - '0'); c = gc(); }
    return x;
}

static vector<int> head, adj;
static vector<signed char> state;  // -1 unknown, 0 losing, 1 winning

static bool win(int u) {
    if (state[u] >= 0) return state[u];
    char w = 0;
    for (int e = head[u]; e < head[u + 1]; e++)
        if (!win(adj[e])) { w = 1; break; }
    state[u] = w;
    return w;
}

int main() {
    int n = readInt(), m = readInt();
    vector<int> eu(m), ev(m);
    head.assign(n + 2, 0);
    for (int i = 0; i < m; i++) {
        eu[i] = readInt();
        ev[i] = readInt();
        head[eu[i] + 1]++;
    }
    for (int i = 1; i <= n + 1; i++) head[i] += head[i - 1];
    adj.resize(m);
    vector<int> pos(head.begin(), head.end() - 1);
    for (int i = 0; i < m; i++) adj[pos[eu[i]]++] = ev[i];
    state.assign(n + 1, -1);
    long long cnt = 0;
    for (int s = 1; s <= n; s++) cnt += win(s);
    printf("%lld\n", cnt);
}
