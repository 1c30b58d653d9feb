// WHY: unshare with a namespace flag must be killed by seccomp (security_violation).
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    if (unshare(CLONE_NEWNS) == 0) printf("ESCAPED unshare\n");
    else printf("blocked unshare: %s\n", strerror(errno));
    return 0;
}
