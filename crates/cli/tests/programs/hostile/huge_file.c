// WHY: a growing file in /box must hit RLIMIT_FSIZE (SIGXFSZ) -> output_limit, before filling the box.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'z', sizeof buf);
    int fd = open("/box/big", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { perror("open /box/big"); return 1; }
    for (;;)
        if (write(fd, buf, sizeof buf) < 0) { perror("write"); return 1; }  // no SIGXFSZ: fail loudly
}
