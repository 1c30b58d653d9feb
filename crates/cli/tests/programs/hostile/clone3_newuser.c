// WHY: clone3 passes flags in memory seccomp cannot inspect, so it must fail with ENOSYS (glibc then falls back to clone).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
struct clone_args_v0 {  // CLONE_ARGS_SIZE_VER0 = 64 bytes
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};
int main(void) {
    struct clone_args_v0 args;
    memset(&args, 0, sizeof args);
    args.flags = 0x10000000 | 0x00020000;  // CLONE_NEWUSER | CLONE_NEWNS
    args.exit_signal = 17;                 // SIGCHLD
    long r = syscall(SYS_clone3, &args, sizeof args);
    if (r == 0) _exit(0);  // child of a successful clone3
    if (r < 0 && errno == ENOSYS) printf("clone3 enosys\n");
    else if (r < 0) printf("clone3 failed: %s\n", strerror(errno));
    else printf("ESCAPED clone3 child %ld\n", r);
    return 0;
}
