// WHY: compile-time resource exhaustion: ~2*SIZE distinct class template instantiations (hundreds of
// millions, recursion only log2(SIZE) deep so no depth limit stops it) need minutes and many GB;
// the compile sandbox's time/memory limits must end it -> compilation failure.
#ifndef SIZE
#define SIZE 400000000
#endif
template <long L, long R>
struct Sum {
    static constexpr long value = Sum<L, (L + R) / 2>::value + Sum<(L + R) / 2 + 1, R>::value;
};
template <long L>
struct Sum<L, L> {
    static constexpr long value = L;
};
int main() { return Sum<1, SIZE>::value == 0; }
