// WHY: the 32-bit int 0x80 entry uses i386 numbers (20 = getpid); seccomp must check the arch and kill (security_violation).
#include <stdio.h>
int main(void) {
    long r = 20;  // __NR_getpid on i386
    __asm__ volatile("int $0x80" : "+a"(r) : : "r8", "r9", "r10", "r11", "memory");
    printf("int 0x80 getpid returned %ld (ESCAPED)\n", r);
    return 0;
}
