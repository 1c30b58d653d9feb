// Two Piles (Wythoff): with a <= b and k = b - a, the position is losing iff
// a == floor(k * phi) == (k + isqrt(5 k^2)) / 2, computed exactly in integers.
import java.io.*;

public class Main {
    static long isqrt(long n) {
        long r = (long) Math.sqrt((double) n);
        while (r * r > n) r--;
        while ((r + 1) * (r + 1) <= n) r++;
        return r;
    }

    public static void main(String[] args) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));
        StringBuilder sb = new StringBuilder();
        long[] v = new long[2];
        int cnt = 0;
        long cur = 0;
        boolean inNum = false;
        byte[] buf = new byte[1 << 16];
        int len;
        while ((len = in.read(buf)) > 0) {
            for (int i = 0; i < len; i++) {
                int c = buf[i];
                if (c >= '0' && c <= '9') {
                    cur = cur * 10 + (c - '0');
                    inNum = true;
                } else if (inNum) {
                    v[cnt++] = cur;
                    cur = 0;
                    inNum = false;
                    if (cnt == 2) { emit(sb, v); cnt = 0; }
                }
            }
        }
        if (inNum) {
            v[cnt++] = cur;
            if (cnt == 2) emit(sb, v);
        }
        System.out.print(sb);
    }

    static void emit(StringBuilder sb, long[] v) {
        long a = Math.min(v[0], v[1]), b = Math.max(v[0], v[1]);
        long k = b - a;
        sb.append(a == (k + isqrt(5 * k * k)) / 2 ? "0\n" : "1\n");
    }
}
