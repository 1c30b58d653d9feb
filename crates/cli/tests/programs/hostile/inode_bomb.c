// WHY: /tmp must have an inode/size cap; creating empty files must fail (ENOSPC) long before memory/time run out.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char name[64];
    long n = 0;
    for (;; n++) {
        snprintf(name, sizeof name, "/tmp/f%ld", n);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) break;
        close(fd);
    }
    printf("stopped after %ld files: %s\n", n, strerror(errno));
    return 0;
}
