/* Never reads and never writes: it waits for something that never comes. */
#include <unistd.h>

int main(void) {
    for (;;) pause();
}
