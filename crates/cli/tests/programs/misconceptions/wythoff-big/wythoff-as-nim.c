#include <stdio.h>

int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long a, b;
        scanf("%lld %lld", &a, &b);
        puts((a ^ b) != 0 ? "A" : "B");
    }
    return 0;
}
