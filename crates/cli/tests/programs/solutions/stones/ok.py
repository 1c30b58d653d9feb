# Stones: bitset DP on a Python int. Bit x of W is set once position x is
# known to be winning; when x turns out losing, every x + a_i becomes winning.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, k = int(data[0]), int(data[1])
    a = [int(t) for t in data[2:2 + n]]
    amask = 0
    for v in a:
        amask |= 1 << v
    full = (1 << (k + 1)) - 1
    W = 0
    # Process in blocks of size B = min(a): inside a block no position can
    # reach another, so the whole block is decided from bits below it.
    step = a[0]
    x = 0
    while x <= k:
        hi = min(x + step, k + 1)
        width = hi - x
        block = (W >> x) & ((1 << width) - 1)
        lose = ((1 << width) - 1) ^ block  # losing positions in [x, hi)
        if lose:
            if bin(lose).count("1") <= n:
                while lose:
                    low = lose & -lose
                    p = low.bit_length() - 1
                    W |= (amask << (x + p)) & full
                    lose ^= low
            else:
                sh = lose << x
                for v in a:
                    if x + v > k:
                        break
                    W |= (sh << v) & full
        x = hi
    print("First" if (W >> k) & 1 else "Second")


main()
