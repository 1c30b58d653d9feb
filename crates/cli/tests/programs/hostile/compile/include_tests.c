// WHY: the judge's own data (expected answers) must be invisible to the compiler. Outside the box this file
// COMPILES (the answer is "First", defined below), so inside it may only fail because the path is not there.
#define First 1
#define Second 0
static const int expected =
#include "/work/main/problems/stones/samples/01.ans"
    ;
int main(void) { return expected; }
