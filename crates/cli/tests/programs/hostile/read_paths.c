// WHY: host files (passwd, shadow, /root, init's environ, the judge's temp files) must be invisible or unreadable.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[4096], self[32];
    snprintf(self, sizeof self, "/proc/%d/", (int)getpid());
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\r\n")] = 0;
        if (!path[0]) continue;
        int fd = open(path, O_RDONLY);
        if (fd < 0) { printf("blocked %s\n", path); continue; }
        if (strncmp(path, self, strlen(self)) == 0) {  // e.g. we are pid 1: our own clean environ
            printf("self %s\n", path);
            close(fd);
            continue;
        }
        char buf[65];
        ssize_t r = read(fd, buf, 64);
        if (r < 0) r = 0;  // directory (EISDIR): its mere existence is the leak
        for (ssize_t i = 0; i < r; i++)
            if (buf[i] < 32 || buf[i] > 126) buf[i] = '.';
        buf[r] = 0;
        printf("ESCAPED %s %s\n", path, buf);
        close(fd);
    }
    return 0;
}
