/* Plays wythoff-play perfectly, with exact integers: the k-th losing position is
   (floor(k*phi), floor(k*phi) + k), and floor(k*phi) = (k + isqrt(5k^2)) / 2. */
#include <stdio.h>

typedef unsigned long long u64;

static u64 isqrt(u64 n) {
    u64 r = 0;
    for (u64 bit = 1ULL << 62; bit; bit >>= 2) {
        if (n >= r + bit) {
            n -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
    }
    return r;
}

static u64 lower(u64 k) { return (k + isqrt(5 * k * k)) / 2; }

/* The move (x from the first pile, y from the second) to a losing position; 0 0 if there is
   none. */
static void winning(u64 a, u64 b, u64 *x, u64 *y) {
    *x = *y = 0;
    u64 lo = a < b ? a : b, hi = a < b ? b : a, k = hi - lo, t = 0, f = 0;
    u64 ak = lower(k);
    if (lo > ak) { /* both piles down to (a_k, a_k + k) */
        t = f = lo - ak;
    } else if (lo < ak) {
        /* lo is a lower or an upper member of some pair, which fixes the other pile; the
           estimate of its index is within a few of the truth at 10^9 */
        u64 j = lo * 1000000 / 1618034;
        for (u64 c = j > 10 ? j - 10 : 0; c <= j + 10; c++) {
            if (lower(c) == lo && hi > lo + c) { t = 0; f = hi - (lo + c); }
        }
        j = lo * 1000000 / 2618034;
        for (u64 c = j > 10 ? j - 10 : 1; c <= j + 10; c++) {
            if (c > 0 && lower(c) + c == lo && hi > lower(c)) { t = 0; f = hi - lower(c); }
        }
    }
    if (a <= b) { *x = t; *y = f; } else { *x = f; *y = t; }
}

int main(void) {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    while (games--) {
        u64 a, b, x, y;
        if (scanf("%llu %llu", &a, &b) != 2) return 1;
        winning(a, b, &x, &y);
        int mine = x + y > 0;
        puts(mine ? "first" : "second");
        fflush(stdout);
        while (a + b > 0) {
            if (mine) {
                winning(a, b, &x, &y);
                printf("%llu %llu\n", x, y);
                fflush(stdout);
            } else {
                long long rx, ry;
                if (scanf("%lld %lld", &rx, &ry) != 2 || rx < 0) return 0;
                x = (u64)rx;
                y = (u64)ry;
            }
            a -= x;
            b -= y;
            mine = !mine;
        }
    }
    return 0;
}
