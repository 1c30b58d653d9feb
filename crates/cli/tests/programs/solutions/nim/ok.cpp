// Matches (Nim): first player wins iff the xor of all piles is non-zero.
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int m;
    string out;
    while (cin >> m) {
        unsigned x = 0, p;
        for (int i = 0; i < m; i++) { cin >> p; x ^= p; }
        out += x ? "Yes\n" : "No\n";
    }
    cout << out;
}
