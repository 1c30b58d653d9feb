// WHY: x32 ABI syscall numbers (nr | 0x40000000) bypass naive filters; seccomp must kill (SIGSYS -> security_violation).
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    long r = syscall(0x40000000L | 39);  // x32 getpid
    printf("x32 getpid returned %ld (%s)\n", r, r < 0 ? strerror(errno) : "ESCAPED");
    return 0;
}
