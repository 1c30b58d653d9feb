// Correct but exponential: plain recursion over game states without memo,
// so the big tests take far longer than the 2 s limit.
#include <bits/stdc++.h>
using namespace std;
static vector<int> a;
static bool win(int k) {
    for (int v : a) {
        if (v > k) break;
        if (!win(k - v)) return true;
    }
    return false;
}
int main() {
    int n, k;
    cin >> n >> k;
    a.resize(n);
    for (auto &x : a) cin >> x;
    cout << (win(k) ? "First" : "Second") << '\n';
}
