// WHY: mount(2) must be killed by seccomp (security_violation).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
int main(void) {
    if (mount("none", "/box", "tmpfs", 0, NULL) == 0) printf("ESCAPED mount\n");
    else printf("blocked mount: %s\n", strerror(errno));
    return 0;
}
