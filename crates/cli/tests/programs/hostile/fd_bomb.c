// WHY: RLIMIT_NOFILE must stop descriptor hoarding with EMFILE.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    long n = 0;
    while (open("/dev/null", O_RDONLY) >= 0) n++;
    printf("stopped after %ld fds: %s\n", n, strerror(errno));
    return 0;
}
