// WHY: everything outside /box and /tmp must be read-only or invisible, including host temp dirs.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[4096];
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\r\n")] = 0;
        if (!path[0]) continue;
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd < 0 || write(fd, "ESCAPED\n", 8) != 8) printf("blocked %s\n", path);
        else printf("ESCAPED %s\n", path);
        if (fd >= 0) close(fd);
    }
    return 0;
}
