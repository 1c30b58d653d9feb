// Plays nim-play perfectly in Java: a BufferedReader in, a PrintWriter flushed after each line.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.util.StringTokenizer;

public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(System.out);
        int t = Integer.parseInt(in.readLine().trim());
        for (int g = 0; g < t; g++) {
            StringTokenizer game = new StringTokenizer(in.readLine());
            int n = Integer.parseInt(game.nextToken());
            long[] piles = new long[n];
            for (int i = 0; i < n; i++) piles[i] = Long.parseLong(game.nextToken());
            boolean mine = nimSum(piles) != 0;
            out.println(mine ? "first" : "second");
            out.flush();
            while (!empty(piles)) {
                if (mine) {
                    long x = nimSum(piles);
                    for (int i = 0; i < n; i++) {
                        if ((piles[i] ^ x) < piles[i]) {
                            long k = piles[i] - (piles[i] ^ x);
                            out.println((i + 1) + " " + k);
                            out.flush();
                            piles[i] -= k;
                            break;
                        }
                    }
                } else {
                    StringTokenizer move = new StringTokenizer(in.readLine());
                    int i = Integer.parseInt(move.nextToken());
                    if (i == -1) return;
                    piles[i - 1] -= Long.parseLong(move.nextToken());
                }
                mine = !mine;
            }
        }
    }

    static long nimSum(long[] piles) {
        long x = 0;
        for (long p : piles) x ^= p;
        return x;
    }

    static boolean empty(long[] piles) {
        for (long p : piles) if (p != 0) return false;
        return true;
    }
}
