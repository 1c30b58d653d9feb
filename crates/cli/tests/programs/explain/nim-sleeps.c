#include <stdio.h>
#include <unistd.h>

/* Nim, wrong whenever a pile holds 45 matches (the first sample fails), and it sleeps 10 s on
   the game of one pile of 2. */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        int x = 0, has45 = 0, first = 0;
        for (int i = 0; i < m; i++) {
            int p;
            scanf("%d", &p);
            if (i == 0) first = p;
            x ^= p;
            if (p == 45) has45 = 1;
        }
        if (m == 1 && first == 2) {
            fflush(stdout);
            sleep(10);
        }
        puts((x != 0) != has45 ? "Yes" : "No");
    }
    return 0;
}
