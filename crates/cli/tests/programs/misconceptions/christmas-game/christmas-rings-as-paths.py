import sys

# Walk each decoration depth first from its root like a tree (an edge to a
# vertex already visited is skipped) and value it by the colon principle: a
# vertex is worth the xor of (child's worth + 1) over its children.
def worth(n, edges):
    adj = [[] for _ in range(n + 1)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    seen = [False] * (n + 1)
    value = [0] * (n + 1)
    seen[1] = True
    stack = [(1, 0, 0)]  # vertex, parent, next neighbour to look at
    while stack:
        v, p, i = stack.pop()
        if i < len(adj[v]):
            stack.append((v, p, i + 1))
            u = adj[v][i]
            if not seen[u]:
                seen[u] = True
                stack.append((u, v, 0))
        elif v != 1:
            value[p] ^= value[v] + 1
    return value[1]

def main():
    data = sys.stdin.read().split()
    pos = 0
    out = []
    while pos < len(data):
        graphs = int(data[pos]); pos += 1
        total = 0
        for _ in range(graphs):
            n, k = int(data[pos]), int(data[pos + 1]); pos += 2
            edges = [(int(data[pos + 2 * i]), int(data[pos + 2 * i + 1])) for i in range(k)]
            pos += 2 * k
            total ^= worth(n, edges)
        out.append("Sally" if total else "Harry")
    print("\n".join(out))

main()
