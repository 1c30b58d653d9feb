import sys

data = sys.stdin.read().split()
t = int(data[0])
pos = 1
for _ in range(t):
    n, k = int(data[pos]), int(data[pos + 1])
    pos += 2
    x = 0
    for v in data[pos:pos + n]:
        x ^= int(v)
    pos += n
    print("First" if x else "Second")
