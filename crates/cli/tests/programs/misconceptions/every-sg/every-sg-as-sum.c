#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each token is its own game on the graph, so by Sprague-Grundy the tokens
   add up: Lan wins when the xor of the tokens' Grundy values is not 0. */
int main(void) {
    int n, m;
    if (scanf("%d %d", &n, &m) != 2) return 0;
    int *eu = malloc(sizeof(int) * (m + 1)), *ev = malloc(sizeof(int) * (m + 1));
    int *start = calloc(n + 2, sizeof(int)), *outdeg = calloc(n + 1, sizeof(int));
    int *rstart = calloc(n + 2, sizeof(int));
    for (int i = 0; i < m; i++) {
        scanf("%d %d", &eu[i], &ev[i]);
        start[eu[i] + 1]++;
        rstart[ev[i] + 1]++;
        outdeg[eu[i]]++;
    }
    for (int v = 1; v <= n + 1; v++) {
        start[v] += start[v - 1];
        rstart[v] += rstart[v - 1];
    }
    int *succ = malloc(sizeof(int) * (m + 1)), *pred = malloc(sizeof(int) * (m + 1));
    int *a = malloc(sizeof(int) * (n + 2)), *b = malloc(sizeof(int) * (n + 2));
    memcpy(a, start, sizeof(int) * (n + 2));
    memcpy(b, rstart, sizeof(int) * (n + 2));
    for (int i = 0; i < m; i++) {
        succ[a[eu[i]]++] = ev[i];
        pred[b[ev[i]]++] = eu[i];
    }
    int *g = calloc(n + 1, sizeof(int)), *queue = malloc(sizeof(int) * (n + 1));
    int *seen = calloc(m + 2, sizeof(int)), stamp = 0;
    int head = 0, tail = 0;
    for (int v = 1; v <= n; v++)
        if (outdeg[v] == 0) queue[tail++] = v;
    while (head < tail) {
        int v = queue[head++];
        stamp++;
        for (int j = start[v]; j < start[v + 1]; j++)
            if (g[succ[j]] <= m) seen[g[succ[j]]] = stamp;
        int mex = 0;
        while (seen[mex] == stamp) mex++;
        g[v] = mex;
        for (int j = rstart[v]; j < rstart[v + 1]; j++)
            if (--outdeg[pred[j]] == 0) queue[tail++] = pred[j];
    }
    int q;
    scanf("%d", &q);
    while (q--) {
        int c, x = 0;
        scanf("%d", &c);
        for (int i = 0; i < c; i++) {
            int v;
            scanf("%d", &v);
            x ^= g[v];
        }
        puts(x ? "First" : "Second");
    }
    return 0;
}
