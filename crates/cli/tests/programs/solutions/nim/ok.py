# Matches (Nim): first player wins iff the xor of all piles is non-zero.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    out = []
    i = 0
    n = len(data)
    while i < n:
        m = int(data[i])
        x = 0
        for t in data[i + 1:i + 1 + m]:
            x ^= int(t)
        i += 1 + m
        out.append("Yes" if x else "No")
    sys.stdout.write("\n".join(out) + "\n")


main()
