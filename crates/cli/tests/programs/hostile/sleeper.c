// WHY: a process using no CPU must still be stopped by the wall-clock limit.
#include <unistd.h>
int main(void) {
    sleep(100);
    return 0;
}
