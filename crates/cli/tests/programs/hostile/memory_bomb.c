// WHY: touched anonymous memory must be capped by the memory cgroup and reported as memory_limit.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    const size_t chunk = 16u << 20;
    for (size_t total = 0;; total += chunk) {
        char *p = malloc(chunk);
        if (!p) {  // an address-space rlimit instead of the cgroup stopped us
            fprintf(stderr, "malloc failed after %zu MiB\n", total >> 20);
            abort();
        }
        memset(p, 1, chunk);  // touch every page so it is really charged
    }
}
