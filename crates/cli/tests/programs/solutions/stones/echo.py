# Prints its input back: wrong everywhere, and a probe for checker messages that quote it.
import sys

sys.stdout.write(sys.stdin.read())
