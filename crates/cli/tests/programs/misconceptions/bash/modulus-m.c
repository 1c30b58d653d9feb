#include <stdio.h>

int main(void) {
    int c;
    scanf("%d", &c);
    while (c--) {
        int n, m;
        scanf("%d %d", &n, &m);
        /* if n is a multiple of m the second player can mirror */
        puts(n % m != 0 ? "first" : "second");
    }
    return 0;
}
