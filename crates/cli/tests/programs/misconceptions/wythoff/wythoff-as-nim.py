import sys

# two piles: the usual Nim xor rule
for line in sys.stdin:
    parts = line.split()
    if not parts:
        continue
    a, b = int(parts[0]), int(parts[1])
    print(1 if a ^ b else 0)
