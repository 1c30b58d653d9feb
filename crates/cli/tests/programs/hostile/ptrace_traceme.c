// WHY: ptrace must be killed by seccomp (security_violation).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
int main(void) {
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0) printf("ESCAPED ptrace\n");
    else printf("blocked ptrace: %s\n", strerror(errno));
    return 0;
}
