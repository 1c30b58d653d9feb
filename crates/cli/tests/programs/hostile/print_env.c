// WHY: the environment must be clean; nothing from the judge (CARGO_*, HOME, tokens) may leak in.
#include <stdio.h>
extern char **environ;
int main(void) {
    for (char **e = environ; *e; e++) printf("%s\n", *e);
    printf("env-end\n");
    return 0;
}
