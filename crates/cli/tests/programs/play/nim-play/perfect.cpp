// Plays nim-play perfectly, in C++ with iostreams (std::endl flushes).
#include <iostream>
#include <vector>

int main() {
    int t;
    if (!(std::cin >> t)) return 1;
    while (t--) {
        int n;
        std::cin >> n;
        std::vector<long long> piles(n);
        for (auto& p : piles) std::cin >> p;
        auto nim_sum = [&] {
            long long x = 0;
            for (auto p : piles) x ^= p;
            return x;
        };
        auto empty = [&] {
            for (auto p : piles)
                if (p) return false;
            return true;
        };
        bool my_turn = nim_sum() != 0;
        std::cout << (my_turn ? "first" : "second") << std::endl;
        while (!empty()) {
            if (my_turn) {
                long long x = nim_sum();
                for (int i = 0; i < n; i++) {
                    if ((piles[i] ^ x) < piles[i]) {
                        long long k = piles[i] - (piles[i] ^ x);
                        std::cout << i + 1 << ' ' << k << std::endl;
                        piles[i] -= k;
                        break;
                    }
                }
            } else {
                int i;
                long long k;
                std::cin >> i;
                if (i == -1) return 0;
                std::cin >> k;
                piles[i - 1] -= k;
            }
            my_turn = !my_turn;
        }
    }
}
