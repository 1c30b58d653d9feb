// WHY: socket(AF_INET) must be killed by seccomp (security_violation); e.g. a host database on 127.0.0.1:5432.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
int main(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("blocked socket: %s\n", strerror(errno)); return 0; }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(5432);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) printf("ESCAPED connected to 127.0.0.1:5432\n");
    else printf("blocked connect: %s\n", strerror(errno));
    return 0;
}
