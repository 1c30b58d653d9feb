#include <bits/stdc++.h>
using namespace std;

// Sticks go one at a time, so whoever faces an odd heap takes the last one.
int main() {
    int n, k;
    cin >> n >> k;
    vector<int> p(k);
    for (int &x : p) cin >> x;
    string s;
    for (int i = 1; i <= n; i++) s += (i % 2 == 1) ? 'W' : 'L';
    cout << s << "\n";
    return 0;
}
