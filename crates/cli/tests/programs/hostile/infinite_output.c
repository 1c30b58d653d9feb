// WHY: unbounded stdout must be cut at the output cap and reported as output_limit.
#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 16];
    memset(buf, 'y', sizeof buf);
    for (;;)
        if (write(1, buf, sizeof buf) < 0) return 1;
}
