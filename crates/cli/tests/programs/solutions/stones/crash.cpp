// Crashes on purpose: reads the input, then writes through a null pointer
// (hidden behind a volatile so the compiler cannot drop it) -> SIGSEGV.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, k;
    cin >> n >> k;
    volatile uintptr_t zero = 0;
    int *p = reinterpret_cast<int *>(zero);
    *p = n + k;
    cout << *p << '\n';
}
