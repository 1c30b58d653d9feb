# Like Bash's game: a player can take up to the largest amount, so the
# losing heaps are the multiples of (largest + 1).
n, k = map(int, input().split())
p = list(map(int, input().split()))
m = max(p)
print("".join("L" if i % (m + 1) == 0 else "W" for i in range(1, n + 1)))
