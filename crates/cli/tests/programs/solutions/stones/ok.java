// Stones: dp[k] = true iff some a_i <= k has dp[k - a_i] == false. O(N*K).
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        StreamTokenizer st = new StreamTokenizer(new BufferedReader(new InputStreamReader(System.in)));
        st.nextToken();
        int n = (int) st.nval;
        st.nextToken();
        int k = (int) st.nval;
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            st.nextToken();
            a[i] = (int) st.nval;
        }
        boolean[] win = new boolean[k + 1];
        for (int x = 1; x <= k; x++) {
            for (int v : a) {
                if (v > x) break;
                if (!win[x - v]) {
                    win[x] = true;
                    break;
                }
            }
        }
        System.out.println(win[k] ? "First" : "Second");
    }
}
