#include <bits/stdc++.h>
using namespace std;

int M;
int memo[101][101][101];
bool seen[101][101][101];

// Most chestnuts the player to move still eats, with `pile` on the table,
// `mine` in his bowl and `his` in the opponent's bowl.
int best(int pile, int mine, int his) {
    if (seen[pile][mine][his]) return memo[pile][mine][his];
    int total = pile + mine + his, res = 0;
    for (int t = 1; t <= min(M, pile); t++) {
        int got;
        if (t < pile) {
            got = total - best(pile - t, his, mine + t);
        } else {
            // last chestnut: I eat my bowl, he pours his back and moves
            got = mine + t + (his > 0 ? his - best(his, 0, 0) : 0);
        }
        res = max(res, got);
    }
    seen[pile][mine][his] = true;
    return memo[pile][mine][his] = res;
}

int main() {
    int n;
    cin >> n >> M;
    // If I can take at least half, I can always eat everything.
    if (M >= n / 2) {
        cout << n << endl;
        return 0;
    }
    cout << best(n, 0, 0) << endl;
    return 0;
}
