// Matches (Nim): first player wins iff the xor of all piles is non-zero.
#include <stdio.h>
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        unsigned x = 0, p;
        for (int i = 0; i < m; i++) { scanf("%u", &p); x ^= p; }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
