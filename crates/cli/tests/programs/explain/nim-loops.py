import sys

# Nim, wrong whenever a pile holds 45 matches (the first sample fails), and it spins forever on
# the game of one pile of 3.
for line in sys.stdin:
    parts = list(map(int, line.split()))
    if not parts:
        continue
    piles = parts[1:1 + parts[0]]
    if piles == [3]:
        n = 0
        while True:
            n += 1
    x = 0
    for p in piles:
        x ^= p
    print("Yes" if (x != 0) != (45 in piles) else "No")
