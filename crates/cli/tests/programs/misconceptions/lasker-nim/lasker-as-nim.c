#include <stdio.h>

/* Splitting a pile never helps, so this is just Nim. */
static char buf[1 << 16];
static int len = 0, at = 0;

static int next_char(void) {
    if (at == len) {
        len = (int)fread(buf, 1, sizeof buf, stdin);
        at = 0;
        if (len <= 0) return -1;
    }
    return buf[at++];
}

static long long read_int(void) {
    int c = next_char();
    while (c != -1 && (c < '0' || c > '9')) c = next_char();
    long long x = 0;
    while (c >= '0' && c <= '9') {
        x = x * 10 + (c - '0');
        c = next_char();
    }
    return x;
}

int main(void) {
    int t = (int)read_int();
    while (t--) {
        int n = (int)read_int();
        long long x = 0;
        for (int i = 0; i < n; i++) x ^= read_int();
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}
