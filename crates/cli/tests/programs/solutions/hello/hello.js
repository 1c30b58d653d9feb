// Hello world (Node.js): prints exactly "hello\n".
process.stdout.write("hello\n");
