/* Chomp by the smallest bite: always eat the last piece of the bottom row. */
#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int r, c;
        scanf("%d %d", &r, &c);
        int last_row = 0, last_len = 0;
        for (int i = 1; i <= r; i++) {
            char row[16];
            scanf("%15s", row);
            int len = 0;
            while (len < c && row[len] == 'o') len++;
            if (len > 0) {
                last_row = i;
                last_len = len;
            }
        }
        if (last_row == 1 && last_len == 1)
            printf("LOSE\n");
        else
            printf("WIN %d %d\n", last_row, last_len);
    }
    return 0;
}
