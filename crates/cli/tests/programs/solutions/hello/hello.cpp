// Hello world (C++): prints exactly "hello\n".
#include <iostream>
int main() {
    std::cout << "hello\n";
    return 0;
}
