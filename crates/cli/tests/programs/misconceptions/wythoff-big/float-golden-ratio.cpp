#include <bits/stdc++.h>
using namespace std;

// Wythoff: (a, b), a <= b, is lost iff a == floor((b - a) * phi).
// long double has 64 bits of mantissa, which should be enough for 1e18.
int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long a, b;
        scanf("%lld %lld", &a, &b);
        if (a > b) swap(a, b);
        long long k = b - a;
        long long ak = (long long)floorl(k * (1 + sqrtl(5.0L)) / 2);
        puts(a == ak ? "B" : "A");
    }
    return 0;
}
