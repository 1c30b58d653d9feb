import sys

data = sys.stdin.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n = int(data[pos])
    p = sorted(map(int, data[pos + 1:pos + 1 + n]))
    pos += 1 + n
    # chessman i can move left over the p_i - i free cells before it
    x = 0
    for i, v in enumerate(p, 1):
        x ^= v - i
    print("Georgia will win" if x else "Bob will win")
