#include <stdio.h>
#include <stdlib.h>

/* The coin keeps moving until it reaches a vertex with no way out, so the
   game from s lasts as long as the longest path from s: Lan wins when that
   path has an odd number of edges. */
int main(void) {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2) return 0;
    int *from = malloc(sizeof(int) * (m + 1)), *to = malloc(sizeof(int) * (m + 1));
    int *out = calloc(n + 1, sizeof(int)), *in_count = calloc(n + 2, sizeof(int));
    for (int i = 0; i < m; i++) {
        scanf("%d %d", &from[i], &to[i]);
        out[from[i]]++;
        in_count[to[i] + 1]++;
    }
    /* predecessors of each vertex, grouped */
    for (int v = 1; v <= n + 1; v++) in_count[v] += in_count[v - 1];
    int *pred = malloc(sizeof(int) * (m + 1)), *fill = malloc(sizeof(int) * (n + 2));
    for (int v = 0; v <= n + 1; v++) fill[v] = in_count[v];
    for (int i = 0; i < m; i++) pred[fill[to[i]]++] = from[i];
    int *longest = calloc(n + 1, sizeof(int)), *queue = malloc(sizeof(int) * (n + 1));
    int head = 0, tail = 0;
    for (int v = 1; v <= n; v++)
        if (out[v] == 0) queue[tail++] = v;
    while (head < tail) {
        int v = queue[head++];
        for (int j = in_count[v]; j < in_count[v + 1]; j++) {
            int u = pred[j];
            if (longest[v] + 1 > longest[u]) longest[u] = longest[v] + 1;
            if (--out[u] == 0) queue[tail++] = u;
        }
    }
    int count = 0;
    for (int v = 1; v <= n; v++) count += longest[v] % 2;
    printf("%d\n", count);
    return 0;
}
