// WHY: AF_UNIX socketpair is harmless and must keep working (not a false security_violation).
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int sv[2];
    char buf[8] = "";
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) { perror("socketpair"); return 1; }
    if (write(sv[0], "ping", 4) != 4 || read(sv[1], buf, 4) != 4 || memcmp(buf, "ping", 4) != 0) {
        printf("socketpair broken\n");
        return 1;
    }
    printf("socketpair ok\n");
    return 0;
}
