#include <bits/stdc++.h>
using namespace std;

// f[i][j]: the player facing the first i rows and j columns wins.
// Row i may go when its sum is even, column j likewise.
int main() {
    int k;
    cin >> k;
    while (k--) {
        int n;
        cin >> n;
        vector<long long> rowSum(n + 1, 0), colSum(n + 1, 0);
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                long long a;
                cin >> a;
                rowSum[i] += a;
                colSum[j] += a;
            }
        vector<vector<char>> f(n + 1, vector<char>(n + 1, 0));
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= n; j++) {
                if (rowSum[i] % 2 == 0 && !f[i - 1][j]) f[i][j] = 1;
                if (colSum[j] % 2 == 0 && !f[i][j - 1]) f[i][j] = 1;
            }
        cout << (f[n][n] ? "YES" : "NO") << "\n";
    }
    return 0;
}
