# Greets the referee instead of choosing a side.
import sys

sys.stdin.readline()
sys.stdin.readline()
print("hello, referee", flush=True)
sys.stdin.readline()
