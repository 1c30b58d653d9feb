#include <stdio.h>
#include <math.h>

int main(void) {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        long long k = b - a;
        long long ak = (long long)floor(k * (1 + sqrt(5.0)) / 2);
        puts(a == ak ? "0" : "1");
    }
    return 0;
}
