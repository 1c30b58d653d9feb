#include <stdio.h>
#include <unistd.h>

/* Correct Nim, but it sleeps 10 s on a game with exactly one pile of size 2. */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        int x = 0, twos = 0;
        for (int i = 0; i < m; i++) {
            int p;
            scanf("%d", &p);
            x ^= p;
            if (p == 2) twos++;
        }
        if (twos == 1) {
            fflush(stdout);
            sleep(10);
        }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
