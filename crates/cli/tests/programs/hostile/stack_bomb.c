// WHY: unbounded recursion must die cleanly: SIGSEGV at the stack rlimit (= memory limit) or the cgroup OOM, whichever comes first.
#include <stdio.h>
volatile int never = -1;  // opaque stop condition, keeps -Winfinite-recursion quiet
static int depth(int d) {
    volatile char frame[1024];  // 1 KiB frames, touched so the pages are really used
    if (d == never) return 0;
    frame[0] = (char)d;
    frame[1023] = (char)d;
    return depth(d + 1) + frame[0] + frame[1023];  // not a tail call
}
int main(void) {
    printf("%d\n", depth(0));
    return 0;
}
