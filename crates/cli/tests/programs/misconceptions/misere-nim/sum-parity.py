import sys

data = sys.stdin.read().split()
t = int(data[0])
pos = 1
out = []
for _ in range(t):
    n = int(data[pos])
    a = list(map(int, data[pos + 1:pos + 1 + n]))
    pos += 1 + n
    # odd number of candies in total: John eats the first, Brother the last one
    out.append("John" if sum(a) % 2 == 1 else "Brother")
print("\n".join(out))
