/* Guess the number: the interactor of the Kattis interactive package in tests/kattis.rs.
 * Invoked as Kattis does: interactor input answer feedback_dir/ max_guesses. The input holds
 * "n secret", the answer "secret" (both are read, to show both are there). It writes n, then
 * answers each guess with "lower", "higher" or "correct". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *feedback;

static void say(const char *file, const char *text, long a, long b) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", feedback, file);
    FILE *f = fopen(path, "w");
    if (!f) exit(1);
    fprintf(f, text, a, b);
    fprintf(f, "\n");
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 5) return 1;
    feedback = argv[3];
    long max_guesses = atol(argv[4]);
    long n, secret, answer;
    FILE *in = fopen(argv[1], "r"), *ans = fopen(argv[2], "r");
    if (!in || !ans || fscanf(in, "%ld %ld", &n, &secret) != 2 || fscanf(ans, "%ld", &answer) != 1
        || answer != secret || max_guesses < 1)
        return 1;
    printf("%ld\n", n);
    fflush(stdout);
    for (long guesses = 1;; guesses++) {
        long guess;
        if (scanf("%ld", &guess) != 1) {
            say("judgemessage.txt", "no guess after %ld guesses; the number was %ld", guesses - 1, secret);
            return 43;
        }
        if (guess < 1 || guess > n) {
            say("judgemessage.txt", "guess %ld is out of range; the number was %ld", guess, secret);
            say("teammessage.txt", "a guess out of range (guess %ld of at most %ld)", guesses, max_guesses);
            return 43;
        }
        if (guess == secret) {
            printf("correct\n");
            fflush(stdout);
            return 42;
        }
        if (guesses == max_guesses) {
            say("judgemessage.txt", "%ld wrong guesses; the number was %ld", guesses, secret);
            return 43;
        }
        printf(guess > secret ? "lower\n" : "higher\n");
        fflush(stdout);
    }
}
