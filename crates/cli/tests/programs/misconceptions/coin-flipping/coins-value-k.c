#include <stdio.h>

/* A head at position k is like a Nim pile of size k. */
static char s[100005];

int main(void) {
    int t;
    scanf("%d", &t);
    while (t--) {
        int n;
        scanf("%d %s", &n, s);
        int x = 0;
        for (int i = 0; i < n; i++)
            if (s[i] == 'H') x ^= i + 1;
        puts(x ? "First" : "Second");
    }
    return 0;
}
