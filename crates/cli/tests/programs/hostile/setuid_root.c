// WHY: the unprivileged uid must not regain root via setuid/setgid/setgroups.
#include <grp.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    printf(setgroups(0, NULL) == 0 ? "ESCAPED setgroups\n" : "blocked setgroups\n");
    printf(setgid(0) == 0 ? "ESCAPED setgid\n" : "blocked setgid\n");
    printf(setuid(0) == 0 ? "ESCAPED setuid\n" : "blocked setuid\n");
    printf("uid=%d euid=%d gid=%d\n", (int)getuid(), (int)geteuid(), (int)getgid());
    return 0;
}
