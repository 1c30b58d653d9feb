// WHY: exec of a host tool (/usr/bin/env) works but must still see only the clean environment.
#include <stdio.h>
#include <unistd.h>
extern char **environ;
int main(void) {
    char *argv[] = {"env", NULL};
    execve("/usr/bin/env", argv, environ);
    perror("execve /usr/bin/env");
    return 1;
}
