// WHY: /sys (kernel and hardware details) must not be mounted in the box.
#include <dirent.h>
#include <stdio.h>
int main(void) {
    DIR *d = opendir("/sys/kernel");
    if (!d) { printf("blocked /sys/kernel\n"); return 0; }
    struct dirent *e;
    printf("ESCAPED /sys/kernel:");
    while ((e = readdir(d))) printf(" %s", e->d_name);
    printf("\n");
    closedir(d);
    return 0;
}
