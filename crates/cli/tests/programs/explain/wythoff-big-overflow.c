#include <stdio.h>

typedef long long ll;

/* largest r in [0, lim] with r * r <= n */
static ll isqrt(__int128 n, ll lim) {
    ll lo = 0, hi = lim;
    while (lo < hi) {
        ll mid = lo + (hi - lo + 1) / 2;
        if ((__int128)mid * mid <= n) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* (a, b), a <= b, is lost iff a == a_k = floor(k * phi) with k = b - a,
   and a_k = (k + isqrt(5 k^2)) / 2 exactly. */
int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        ll a, b;
        scanf("%lld %lld", &a, &b);
        if (a > b) { ll tmp = a; a = b; b = tmp; }
        ll k = b - a;
        /* sqrt(5) * k < 3 * k <= 10 * b: a safe upper bound.  10 * b does not
           fit into a ll once b > 9.2e18 / 10; stored into a ll it wraps. */
        ll s = isqrt((__int128)5 * k * k, 10ULL * b);
        ll ak = (ll)(((__int128)k + s) / 2);
        puts(a == ak ? "B" : "A");
    }
    return 0;
}
