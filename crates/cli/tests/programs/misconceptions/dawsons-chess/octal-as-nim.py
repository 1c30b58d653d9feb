import sys

# One heap changes per move, like Nim: xor the heap sizes.
def main():
    data = sys.stdin.read().split()
    t, pos, out = int(data[0]), 1, []
    for _ in range(t):
        k = int(data[pos])
        x = 0
        for h in data[pos + 1:pos + 1 + k]:
            x ^= int(h)
        pos += 1 + k
        out.append("First" if x else "Second")
    print("\n".join(out))

main()
