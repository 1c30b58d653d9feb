import sys

def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        x = 0
        for v in data[pos + 1:pos + 1 + n]:
            x ^= int(v)
        pos += 1 + n
        out.append("First" if x else "Second")
    print("\n".join(out))

main()
