import sys

# k = 1 loses on powers of two (f[i] = f[i-1] + f[i-1]), k = 2 on Fibonacci
# numbers (f[i] = f[i-1] + f[i-2]); in general f[i] = f[i-1] + f[i-k].
def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for case in range(1, t + 1):
        n = int(data[2 * case - 1])
        k = int(data[2 * case])
        f = list(range(1, min(k + 1, n) + 1))
        while f[-1] < n:
            f.append(f[-1] + f[len(f) - k])
        if n in f:
            out.append("Case %d: lose" % case)
            continue
        rest, take = n, 0
        for x in reversed(f):
            if x <= rest:
                rest -= x
                take = x
        out.append("Case %d: %d" % (case, take))
    print("\n".join(out))

main()
