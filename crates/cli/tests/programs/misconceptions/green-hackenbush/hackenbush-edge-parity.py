import sys

def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    edges = [(int(data[1 + 2 * i]), int(data[2 + 2 * i])) for i in range(n - 1)]
    # every move removes at least one edge; count them
    print("Alice" if len(edges) % 2 == 1 else "Bob")

main()
