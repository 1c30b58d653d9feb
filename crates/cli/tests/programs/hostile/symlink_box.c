// WHY: links planted in /box must not make the judge read host files (/etc/passwd) when it collects output.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    if (symlink("/etc/passwd", "/box/out.txt") == 0) printf("symlink made\n");
    else printf("symlink failed: %s\n", strerror(errno));
    if (link("/usr/bin/ls", "/box/hard") == 0) printf("hardlink made\n");  // cross-fs: expect EXDEV
    else printf("hardlink failed: %s\n", strerror(errno));
    printf("done\n");
    return 0;
}
