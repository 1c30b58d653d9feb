import sys

# If one of the tokens stands where a lone token would win, play that token
# the winning way and the first player wins.
def main():
    data = sys.stdin.read().split()
    pos = 0
    out = []
    while pos < len(data):
        n = int(data[pos]); pos += 1
        succ = []
        for _ in range(n):
            k = int(data[pos]); pos += 1
            succ.append([int(x) for x in data[pos:pos + k]]); pos += k
        # vertices ordered so every edge goes to an earlier one
        state = [0] * n
        order = []
        for s in range(n):
            if state[s]:
                continue
            stack = [(s, 0)]
            state[s] = 1
            while stack:
                v, i = stack.pop()
                if i < len(succ[v]):
                    stack.append((v, i + 1))
                    c = succ[v][i]
                    if not state[c]:
                        state[c] = 1
                        stack.append((c, 0))
                else:
                    order.append(v)
        win = [False] * n
        for v in order:
            win[v] = any(not win[c] for c in succ[v])
        while True:
            m = int(data[pos]); pos += 1
            if m == 0:
                break
            tokens = [int(x) for x in data[pos:pos + m]]; pos += m
            out.append("WIN" if any(win[t] for t in tokens) else "LOSE")
    print("\n".join(out))

main()
