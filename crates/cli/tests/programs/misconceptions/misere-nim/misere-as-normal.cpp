#include <bits/stdc++.h>
using namespace std;

// Plain Nim: John wins iff the xor of the boxes is non-zero.
int main() {
    int t;
    cin >> t;
    while (t--) {
        int n;
        cin >> n;
        int x = 0;
        for (int i = 0; i < n; i++) {
            int a;
            cin >> a;
            x ^= a;
        }
        cout << (x != 0 ? "John" : "Brother") << '\n';
    }
    return 0;
}
