// WHY: AF_NETLINK (routing/audit/uevent sockets) must be killed by seccomp (security_violation).
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
int main(void) {
    int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
    if (s >= 0) printf("ESCAPED netlink socket %d\n", s);
    else printf("blocked netlink: %s\n", strerror(errno));
    return 0;
}
