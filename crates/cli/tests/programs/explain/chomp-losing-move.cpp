// Chomp by memoised search, except that on boards of three rows or more whose top row has
// two pieces or more it always bites (1, 2), which loses on some of them.
#include <cstdio>
#include <map>
#include <string>
#include <vector>
using namespace std;

typedef vector<int> Rows;
map<Rows, bool> memo;

Rows bite(const Rows& rows, int r, int c) {
    Rows next = rows;
    for (size_t i = r; i < next.size(); i++)
        if (next[i] > c) next[i] = c;
    while (!next.empty() && next.back() == 0) next.pop_back();
    return next;
}

bool wins(const Rows& rows) {
    auto it = memo.find(rows);
    if (it != memo.end()) return it->second;
    bool result = false;
    for (int r = 0; r < (int)rows.size() && !result; r++)
        for (int c = 0; c < rows[r] && !result; c++)
            if ((r || c) && !wins(bite(rows, r, c))) result = true;
    memo[rows] = result;
    return result;
}

// Where the program bites (1, 2) whatever the board.
bool twisted(const Rows& rows) { return rows.size() >= 3 && rows[0] >= 2; }

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int r, c;
        scanf("%d %d", &r, &c);
        Rows rows;
        for (int i = 0; i < r; i++) {
            char line[16];
            scanf("%15s", line);
            int len = 0;
            while (len < c && line[len] == 'o') len++;
            if (len > 0) rows.push_back(len);
        }
        int best_r = -1, best_c = -1;
        for (int i = (int)rows.size() - 1; i >= 0 && best_r < 0; i--)
            for (int j = rows[i] - 1; j >= 0 && best_r < 0; j--)
                if ((i || j) && !wins(bite(rows, i, j))) best_r = i, best_c = j;
        if (twisted(rows)) best_r = 0, best_c = 1;
        if (best_r < 0)
            printf("LOSE\n");
        else
            printf("WIN %d %d\n", best_r + 1, best_c + 1);
    }
    return 0;
}
