// Matches (Nim): first player wins iff the xor of all piles is non-zero.
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        StringBuilder sb = new StringBuilder();
        while (st.nextToken() != StreamTokenizer.TT_EOF) {
            int m = (int) st.nval;
            long x = 0;
            for (int i = 0; i < m; i++) {
                st.nextToken();
                x ^= (long) st.nval;
            }
            sb.append(x != 0 ? "Yes\n" : "No\n");
        }
        System.out.print(sb);
    }
}
