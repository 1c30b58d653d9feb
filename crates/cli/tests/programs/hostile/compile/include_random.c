// WHY: the preprocessor would read an endless device; the compile sandbox must stop it (time/memory/output) -> compilation failure.
#include "/dev/random"
int main(void) { return 0; }
