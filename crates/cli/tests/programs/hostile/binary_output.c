// WHY: stdout must be captured byte-exactly (NULs, 0xff, no newline translation), not as text.
#include <stdio.h>
int main(void) {
    for (int i = 0; i < 256; i++) putchar(i);
    return 0;
}
