# Two Piles (Wythoff): with a <= b and k = b - a, the position is losing iff
# a == floor(k * phi) == (k + isqrt(5 k^2)) // 2 (exact integer arithmetic).
import sys
from math import isqrt


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    for i in range(0, len(data) - 1, 2):
        a = int(data[i])
        b = int(data[i + 1])
        if a > b:
            a, b = b, a
        k = b - a
        out.append("0" if a == (k + isqrt(5 * k * k)) // 2 else "1")
    sys.stdout.write("\n".join(out) + "\n")


main()
