// WHY: ignoring/blocking every catchable signal (incl. SIGXCPU, SIGTERM) must not defeat the CPU limit.
#include <signal.h>
int main(void) {
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, 0);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_IGN);  // SIGKILL/SIGSTOP just fail
    volatile unsigned long x = 0;
    for (;;) x++;
}
