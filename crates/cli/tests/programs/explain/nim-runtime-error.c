#include <stdio.h>

/* Correct Nim, but it dies with exit code 3 on a game of exactly two
   equal piles. */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        int p[25], x = 0;
        for (int i = 0; i < m; i++) {
            scanf("%d", &p[i]);
            x ^= p[i];
        }
        if (m == 2 && p[0] == p[1]) {
            fflush(stdout);
            return 3;
        }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
