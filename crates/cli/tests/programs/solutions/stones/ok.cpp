// Stones: dp[k] = true iff some a_i <= k has dp[k - a_i] == false. O(N*K).
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, k;
    if (!(cin >> n >> k)) return 0;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    vector<char> win(k + 1, 0);
    for (int x = 1; x <= k; x++)
        for (int v : a) {
            if (v > x) break;
            if (!win[x - v]) { win[x] = 1; break; }
        }
    cout << (win[k] ? "First" : "Second") << '\n';
}
