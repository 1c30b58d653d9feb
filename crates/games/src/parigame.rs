//! Parigame (VOI 2011): erase the last row or the last column of a square table when the sum of
//! that row or column, in what is left of the table, is even.

use crate::implicit::Game;

/// The tutorial's dynamic programme over the table's `i × j` top-left corners. Sums reach 5·10¹¹,
/// but only their parity matters, so prefix parities of rows and columns suffice.
pub fn first_wins(table: &[Vec<u64>]) -> bool {
    let n = table.len();
    corner_wins(table)[n][n]
}

/// `wins[i][j]`: the player to move wins on the top-left `i × j` corner (an empty corner has no
/// move, so it is lost).
pub fn corner_wins(table: &[Vec<u64>]) -> Vec<Vec<bool>> {
    let n = table.len();
    // row_odd[i][j]: the first j entries of row i have an odd sum; col_odd[j][i] likewise.
    let mut row_odd = vec![vec![false; n + 1]; n];
    let mut col_odd = vec![vec![false; n + 1]; n];
    for i in 0..n {
        for j in 0..n {
            let odd = table[i][j] % 2 == 1;
            row_odd[i][j + 1] = row_odd[i][j] ^ odd;
            col_odd[j][i + 1] = col_odd[j][i] ^ odd;
        }
    }
    let mut wins = vec![vec![false; n + 1]; n + 1];
    for i in 1..=n {
        for j in 1..=n {
            let erase_row = !row_odd[i - 1][j] && !wins[i - 1][j];
            let erase_column = !col_odd[j - 1][i] && !wins[i][j - 1];
            wins[i][j] = erase_row || erase_column;
        }
    }
    wins
}

/// Literal rules for brute force: a position is the shape `(rows, columns)` left of `table`, and
/// the sums are added up afresh for every move.
#[derive(Debug, Clone)]
pub struct ParigameRules<'a> {
    pub table: &'a [Vec<u64>],
}

impl Game for ParigameRules<'_> {
    type Position = (usize, usize);
    fn moves(&self, &(rows, cols): &(usize, usize)) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        if rows == 0 || cols == 0 {
            return moves;
        }
        let last_row: u64 = self.table[rows - 1][..cols].iter().sum();
        if last_row.is_multiple_of(2) {
            moves.push((rows - 1, cols));
        }
        let last_col: u64 = self.table[..rows].iter().map(|row| row[cols - 1]).sum();
        if last_col.is_multiple_of(2) {
            moves.push((rows, cols - 1));
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implicit;
    use proptest::prelude::*;

    #[test]
    fn official_sample() {
        assert!(first_wins(&[vec![1, 2, 2], vec![1, 2, 3], vec![2, 3, 1]]));
        assert!(!first_wins(&vec![vec![2; 4]; 4]));
    }

    fn table() -> impl Strategy<Value = Vec<Vec<u64>>> {
        (1usize..7).prop_flat_map(|n| prop::collection::vec(prop::collection::vec(1u64..5, n), n))
    }

    proptest! {
        #[test]
        fn dp_matches_game_tree(table in table()) {
            let n = table.len();
            let brute = implicit::outcome(&ParigameRules { table: &table }, (n, n), 1000).unwrap();
            prop_assert_eq!(first_wins(&table), brute.is_win());
        }
    }
}
