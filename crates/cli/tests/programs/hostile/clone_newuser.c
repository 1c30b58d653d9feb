// WHY: raw clone with a namespace flag must be killed by seccomp (security_violation).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    long r = syscall(SYS_clone, 0x10000000 | 17, 0, 0, 0, 0);  // CLONE_NEWUSER | SIGCHLD
    if (r == 0) _exit(0);
    if (r < 0) printf("blocked clone: %s\n", strerror(errno));
    else printf("ESCAPED clone(CLONE_NEWUSER) child %ld\n", r);
    return 0;
}
