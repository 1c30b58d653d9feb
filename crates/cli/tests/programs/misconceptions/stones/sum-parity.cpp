#include <bits/stdc++.h>
using namespace std;

// Players alternate, so with an odd pile the first player gets the last move.
int main() {
    int n, k;
    cin >> n >> k;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    cout << (k % 2 == 1 ? "First" : "Second") << endl;
    return 0;
}
