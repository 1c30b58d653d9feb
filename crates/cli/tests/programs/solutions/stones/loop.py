# Loops on every input: what a student's unfinished program often does.
while True:
    pass
