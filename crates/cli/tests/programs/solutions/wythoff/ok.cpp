// Two Piles (Wythoff): with a <= b and k = b - a, the position is losing iff
// a == floor(k * phi) == (k + isqrt(5 k^2)) / 2, computed exactly in integers.
#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long ull;
static ull isqrt(ull n) {
    ull r = (ull)sqrtl((long double)n);
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r;
}
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    ull a, b;
    string out;
    while (cin >> a >> b) {
        if (a > b) swap(a, b);
        ull k = b - a;
        out += a == (k + isqrt(5 * k * k)) / 2 ? "0\n" : "1\n";
    }
    cout << out;
}
