// WHY: the submission must not be able to kill its supervisor, the namespace init, or anything else.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void report(const char *what, int r) {
    printf("%s: %s\n", what, r == 0 ? "sent" : strerror(errno));
}
int main(void) {
    pid_t pp = getppid();  // 0 when the parent is outside our pid namespace
    if (pp > 0) report("kill(ppid)", kill(pp, SIGKILL));  // never kill(0): that is our own group
    else printf("kill(ppid): no visible parent\n");
    report("kill(1)", kill(1, SIGKILL));
    report("kill(-1)", kill(-1, SIGKILL));
    printf("survived\n");
    return 0;
}
