#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int m;
    while (cin >> m) {
        long long x = 0;
        for (int i = 0; i < m; i++) {
            long long p;
            cin >> p;
            x ^= p;
        }
        cout << (x ? "Yes" : "No") << '\n';
    }
    return 0;
}
