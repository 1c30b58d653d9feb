// WHY: /dev/shm must be absent or bounded (tmpfs pages are charged to the cgroup); 256 KiB files avoid RLIMIT_FSIZE.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 's', sizeof buf);
    char name[64];
    for (long n = 0;; n++) {
        snprintf(name, sizeof name, "/dev/shm/x%ld", n);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) { printf("stopped (open %s: %s)\n", name, strerror(errno)); return 0; }
        for (int i = 0; i < 4; i++)
            if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
                printf("stopped (write %s: %s)\n", name, strerror(errno));
                return 0;
            }
        close(fd);
    }
}
