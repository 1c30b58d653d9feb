// WHY: risky kernel interfaces (io_uring, bpf, perf, userfaultfd, keyctl) must fail with ENOSYS, not kill or succeed.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static int check(const char *name, long r) {
    if (r < 0 && errno == ENOSYS) { printf("%s enosys\n", name); return 1; }
    printf("%s NOT enosys: r=%ld %s\n", name, r, r < 0 ? strerror(errno) : "success");
    return 0;
}
int main(void) {
    static char params[256];  // io_uring_params / bpf_attr / perf_event_attr, zeroed
    int ok = 1;
    ok &= check("io_uring_setup", syscall(SYS_io_uring_setup, 1, params));
    ok &= check("bpf", syscall(SYS_bpf, 0, params, 64));
    ok &= check("perf_event_open", syscall(SYS_perf_event_open, params, 0, -1, -1, 0));
    ok &= check("userfaultfd", syscall(SYS_userfaultfd, 0));
    ok &= check("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));  // KEYCTL_GET_KEYRING_ID
    if (ok) printf("all enosys\n");
    return 0;
}
