import sys
from functools import lru_cache

# Cards are picked up from the front of the row: a turn takes a[i], and with
# tokens the cards right after it too.
def main():
    data = sys.stdin.read().split()
    n, k, t = int(data[0]), int(data[1]), int(data[2])
    a = [int(x) for x in data[3:3 + n]]

    @lru_cache(maxsize=None)
    def best(i, mine, theirs):
        # (my score - opponent's score) from card i on, me to move
        if i == n:
            return 0
        res = None
        taken = 0
        for extra in range(0, min(mine, n - i - 1) + 1):
            taken += a[i + extra]
            v = taken - best(i + extra + 1, theirs, mine - extra)
            if res is None or v > res:
                res = v
        return res

    sys.setrecursionlimit(10000)
    d = best(0, min(k, n), min(t, n))
    print("Win" if d > 0 else ("Draw" if d == 0 else "Lose"))

main()
