/* Guesses 1, 2, 3, …: right only when the number is small. */
#include <stdio.h>
#include <string.h>

int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    for (long guess = 1; guess <= n; guess++) {
        char reply[16];
        printf("%ld\n", guess);
        fflush(stdout);
        if (scanf("%15s", reply) != 1 || strcmp(reply, "correct") == 0) return 0;
    }
    return 0;
}
