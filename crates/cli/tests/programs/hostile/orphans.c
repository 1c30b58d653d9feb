// WHY: detached (setsid) grandchildren that keep stdout open must be reaped when main exits; the verdict is still ok.
#include <stdio.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 4; i++) {
        if (fork() == 0) {
            setsid();
            if (fork() == 0)
                for (;;) sleep(1000);  // grandchild: orphaned, new session, holds stdout
            _exit(0);
        }
    }
    printf("done\n");
    return 0;
}
