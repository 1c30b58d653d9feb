// WHY: the pids cgroup must stop the fork storm; every process spins, so the CPU/wall limit ends it.
#include <unistd.h>
int main(void) {
    for (;;) fork();
}
