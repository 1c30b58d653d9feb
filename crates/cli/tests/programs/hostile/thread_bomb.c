// WHY: threads count against the pids cgroup; creation must fail softly, then the sleeping main hits the wall limit.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *sleeper(void *arg) {
    (void)arg;
    for (;;) sleep(1000);
    return NULL;
}
int main(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);  // small stacks: hit the pids limit, not memory
    int n = 0;
    pthread_t t;
    while (pthread_create(&t, &attr, sleeper, NULL) == 0) n++;
    printf("created %d threads\n", n);
    fflush(stdout);
    for (;;) sleep(1000);
}
