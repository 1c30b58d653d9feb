#include <bits/stdc++.h>
using namespace std;

// Moore's Nim: write the piles in binary; the position is lost for the
// player to move iff every bit column has a count divisible by k.
int main() {
    int t;
    cin >> t;
    while (t--) {
        int n, k;
        cin >> n >> k;
        int cnt[31] = {0};
        for (int i = 0; i < n; i++) {
            long long a;
            cin >> a;
            for (int b = 0; b < 31; b++)
                if (a >> b & 1) cnt[b]++;
        }
        bool lose = true;
        for (int b = 0; b < 31; b++)
            if (cnt[b] % k != 0) lose = false;
        cout << (lose ? "Second" : "First") << '\n';
    }
    return 0;
}
