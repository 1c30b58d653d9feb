// WHY: a pure busy loop must be stopped by the CPU time limit.
int main(void) {
    volatile unsigned long x = 0;
    for (;;) x++;
}
