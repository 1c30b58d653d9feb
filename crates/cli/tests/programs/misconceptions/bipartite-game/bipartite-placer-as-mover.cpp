// Token on a grid read as plain undirected vertex geography: the player to move from v wins
// iff v is in every maximum matching (Kuhn's matching, then the cells no alternating path from
// an unmatched cell of their colour reaches), and those cells are printed as A's.
#include <cstdio>
#include <vector>
using namespace std;

int n, m;
vector<vector<char>> g;
vector<int> mate, seen_at;
int stamp = 0;

int id(int r, int c) { return r * m + c; }

vector<int> around(int v) {
    vector<int> out;
    int r = v / m, c = v % m;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int k = 0; k < 4; k++) {
        int nr = r + dr[k], nc = c + dc[k];
        if (nr >= 0 && nr < n && nc >= 0 && nc < m && g[nr][nc] == '.') out.push_back(id(nr, nc));
    }
    return out;
}

bool augment(int v) {
    for (int w : around(v)) {
        if (seen_at[w] == stamp) continue;
        seen_at[w] = stamp;
        if (mate[w] < 0 || augment(mate[w])) {
            mate[w] = v;
            mate[v] = w;
            return true;
        }
    }
    return false;
}

int main() {
    if (scanf("%d %d", &n, &m) != 2) return 0;
    g.assign(n, vector<char>(m));
    for (int r = 0; r < n; r++) {
        char line[128];
        scanf("%127s", line);
        for (int c = 0; c < m; c++) g[r][c] = line[c];
    }
    mate.assign(n * m, -1);
    seen_at.assign(n * m, 0);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m; c++)
            if (g[r][c] == '.' && (r + c) % 2 == 0) {
                stamp++;
                augment(id(r, c));
            }
    // Free cells some maximum matching avoids, searched from every unmatched free cell.
    vector<char> avoidable(n * m, 0);
    vector<int> queue;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m; c++)
            if (g[r][c] == '.' && mate[id(r, c)] < 0) {
                avoidable[id(r, c)] = 1;
                queue.push_back(id(r, c));
            }
    for (size_t i = 0; i < queue.size(); i++)
        for (int w : around(queue[i])) {
            int next = mate[w];
            if (next >= 0 && !avoidable[next]) {
                avoidable[next] = 1;
                queue.push_back(next);
            }
        }
    bool any = false;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < m; c++)
            if (g[r][c] == '.' && !avoidable[id(r, c)]) {
                if (!any) printf("WIN\n");
                any = true;
                printf("%d %d\n", r + 1, c + 1);
            }
    if (!any) printf("LOSE\n");
    return 0;
}
