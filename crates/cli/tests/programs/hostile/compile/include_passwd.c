// WHY: the compiler must not see host files; /etc/passwd is absent in the box, so this fails with "No such file"
// and the error log must not quote host account lines (root:x:0:0...).
#include "/etc/passwd"
int main(void) { return 0; }
