// WRONG on purpose: guesses the answer from K mod (min + max), which matches
// the samples but is not the real Sprague-Grundy pattern for general sets.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, k;
    cin >> n >> k;
    vector<int> a(n);
    for (auto &x : a) cin >> x;
    int lo = a.front(), hi = a.back();
    cout << (k % (lo + hi) >= lo ? "First" : "Second") << '\n';
}
