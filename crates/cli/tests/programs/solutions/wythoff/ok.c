// Two Piles (Wythoff): with a <= b and k = b - a, the position is losing iff
// a == floor(k * phi) == (k + isqrt(5 k^2)) / 2, computed exactly in integers.
#include <math.h>
#include <stdio.h>
static unsigned long long isqrt(unsigned long long n) {
    unsigned long long r = (unsigned long long)sqrtl((long double)n);
    while (r * r > n) r--;
    while ((r + 1) * (r + 1) <= n) r++;
    return r;
}
int main(void) {
    unsigned long long a, b;
    while (scanf("%llu %llu", &a, &b) == 2) {
        if (a > b) { unsigned long long t = a; a = b; b = t; }
        unsigned long long k = b - a;
        puts(a == (k + isqrt(5 * k * k)) / 2 ? "0" : "1");
    }
    return 0;
}
