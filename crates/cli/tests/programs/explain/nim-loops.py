import sys

# Correct Nim, but it spins forever on a game that has a pile of size 3.
for line in sys.stdin:
    parts = list(map(int, line.split()))
    if not parts:
        continue
    piles = parts[1:1 + parts[0]]
    if 3 in piles:
        n = 0
        while True:
            n += 1
    x = 0
    for p in piles:
        x ^= p
    print("Yes" if x else "No")
