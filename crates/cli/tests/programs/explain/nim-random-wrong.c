#include <stdio.h>

/* Nim, but with a "lucky number" tweak that has nothing to do with the game. */
int main(void) {
    int m;
    while (scanf("%d", &m) == 1) {
        int x = 0;
        long long sum = 0;
        for (int i = 0; i < m; i++) {
            int p;
            scanf("%d", &p);
            x ^= p;
            sum += p;
        }
        int win = x != 0;
        if ((sum * 7 + m) % 11 == 3) win = !win;
        puts(win ? "Yes" : "No");
    }
    return 0;
}
