# Plays nim-play perfectly; every line is flushed.
import sys
from functools import reduce


def main():
    read = sys.stdin.readline
    t = int(read())
    for _ in range(t):
        n, *piles = map(int, read().split())
        mine = reduce(lambda a, b: a ^ b, piles) != 0
        print("first" if mine else "second", flush=True)
        while any(piles):
            if mine:
                x = reduce(lambda a, b: a ^ b, piles)
                i = next(i for i, p in enumerate(piles) if p ^ x < p)
                k = piles[i] - (piles[i] ^ x)
                print(i + 1, k, flush=True)
                piles[i] -= k
            else:
                words = read().split()
                if words[0] == "-1":
                    return
                piles[int(words[0]) - 1] -= int(words[1])
            mine = not mine


main()
