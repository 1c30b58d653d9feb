import sys

# The moves: take 1 counter when the heap has exactly 1, take 2 or take 3
# counters leaving the rest as one heap (or nothing). Grundy values by the mex
# rule, xored over the heaps. The values become periodic, so big heaps are
# folded back into the computed range.
LIMIT = 3000
FROM = 1000

def values():
    g = [0] * (LIMIT + 1)
    for n in range(1, LIMIT + 1):
        options = set()
        if n == 1:
            options.add(0)
        for take in (2, 3):
            if n >= take:
                options.add(g[n - take])
        v = 0
        while v in options:
            v += 1
        g[n] = v
    return g

def main():
    g = values()
    period = next(p for p in range(1, 500)
                  if all(g[i] == g[i + p] for i in range(FROM, LIMIT - p + 1)))
    data = sys.stdin.read().split()
    t, pos, out = int(data[0]), 1, []
    for _ in range(t):
        k = int(data[pos])
        x = 0
        for h in data[pos + 1:pos + 1 + k]:
            h = int(h)
            if h > LIMIT:
                h = FROM + (h - FROM) % period
            x ^= g[h]
        pos += 1 + k
        out.append("First" if x else "Second")
    print("\n".join(out))

main()
