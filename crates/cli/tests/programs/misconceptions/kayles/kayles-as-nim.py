import sys

# Heaps of counters where a move takes counters from one heap: that is Nim,
# so the first player wins when the xor of the heap sizes is not 0.
def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        k = int(data[pos]); pos += 1
        x = 0
        for h in data[pos:pos + k]:
            x ^= int(h)
        pos += k
        out.append("First" if x else "Second")
    print("\n".join(out))

main()
