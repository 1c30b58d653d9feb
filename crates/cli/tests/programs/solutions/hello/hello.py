# Hello world (Python 3): prints exactly "hello\n".
print("hello")
