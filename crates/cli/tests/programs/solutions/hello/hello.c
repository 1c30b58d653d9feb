// Hello world (C): prints exactly "hello\n".
#include <stdio.h>
int main(void) {
    puts("hello");
    return 0;
}
