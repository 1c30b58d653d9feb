// Prints the correct answer but exits with status 3 -> must be runtime_error.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, k;
    cin >> n >> k;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    vector<char> win(k + 1, 0);
    for (int x = 1; x <= k; x++)
        for (int v : a) {
            if (v > x) break;
            if (!win[x - v]) { win[x] = 1; break; }
        }
    cout << (win[k] ? "First" : "Second") << '\n';
    return 3;
}
