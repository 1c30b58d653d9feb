// WHY: the uts namespace must hide the host name and the pid namespace/hidepid the host's processes.
#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    printf("hostname: %s\n", host);
    printf("pid: %d\n", (int)getpid());
    printf("proc:");
    DIR *d = opendir("/proc");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) printf(" %s", e->d_name);
        closedir(d);
    } else {
        printf(" (unreadable)");
    }
    printf("\n");
    return 0;
}
