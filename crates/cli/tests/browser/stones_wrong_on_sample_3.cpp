// Stones, right everywhere except on the third sample (n=2, k=7, a={2,3}), where it answers
// "Second" instead of "First": the browser test expects Wrong Answer on exactly that test.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, k;
    if (!(cin >> n >> k)) return 0;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    if (n == 2 && k == 7 && a[0] == 2 && a[1] == 3) {
        cout << "Second\n";
        return 0;
    }
    vector<char> win(k + 1, 0);
    for (int x = 1; x <= k; x++)
        for (int v : a) {
            if (v > x) break;
            if (!win[x - v]) { win[x] = 1; break; }
        }
    cout << (win[k] ? "First" : "Second") << '\n';
}
