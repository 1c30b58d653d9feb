// WHY: UDP to the outside world (DNS exfiltration) must be killed by seccomp at socket(AF_INET).
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
int main(void) {
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0) { printf("blocked socket: %s\n", strerror(errno)); return 0; }
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    inet_pton(AF_INET, "8.8.8.8", &a.sin_addr);
    // minimal DNS query header + "a." A IN
    static const unsigned char q[] = {0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 'a', 0, 0, 1, 0, 1};
    if (sendto(s, q, sizeof q, 0, (struct sockaddr *)&a, sizeof a) == (ssize_t)sizeof q)
        printf("ESCAPED sent UDP to 8.8.8.8:53\n");
    else printf("blocked sendto: %s\n", strerror(errno));
    return 0;
}
