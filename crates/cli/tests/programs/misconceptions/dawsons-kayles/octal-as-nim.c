#include <stdio.h>

/* Several heaps, one heap changed per move: play it as Nim and xor the sizes. */
int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        int k;
        unsigned long long x = 0;
        scanf("%d", &k);
        while (k--) {
            unsigned long long h;
            scanf("%llu", &h);
            x ^= h;
        }
        printf("%s\n", x ? "First" : "Second");
    }
    return 0;
}
