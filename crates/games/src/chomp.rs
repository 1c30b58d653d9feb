//! Chomp: a bar with the poisoned piece at the top left; a move eats a piece and everything below
//! and to the right of it. A position is its row lengths, non-increasing from the top.

use crate::Outcome;
use crate::graph;
use crate::implicit::{self, Game};

/// Row lengths of a position; the first row is non-empty (the poisoned piece is present).
pub type Rows = Vec<u8>;

/// The position after eating piece (`row`, `col`), both 0-based.
pub fn eat(rows: &[u8], row: usize, col: usize) -> Rows {
    let mut next: Rows = rows
        .iter()
        .enumerate()
        .map(|(i, &len)| if i >= row { len.min(col as u8) } else { len })
        .collect();
    while next.last() == Some(&0) {
        next.pop();
    }
    next
}

/// Every legal move as (row, col): present pieces other than the poisoned one, row-major.
pub fn moves(rows: &[u8]) -> Vec<(usize, usize)> {
    rows.iter()
        .enumerate()
        .flat_map(|(r, &len)| (0..len as usize).map(move |c| (r, c)))
        .filter(|&cell| cell != (0, 0))
        .collect()
}

#[derive(Debug, Clone, Copy, Default)]
pub struct ChompRules;

impl Game for ChompRules {
    type Position = Rows;
    fn moves(&self, rows: &Rows) -> Vec<Rows> {
        moves(rows)
            .into_iter()
            .map(|(r, c)| eat(rows, r, c))
            .collect()
    }
}

/// Outcome for the player to move, by the dynamic programme over every position reachable.
pub fn outcome(rows: &[u8]) -> Outcome {
    // At most C(16, 8) = 12 870 positions fit an 8 × 8 bar.
    implicit::outcome(&ChompRules, rows.to_vec(), 20_000).expect("an 8 × 8 bar has few positions")
}

/// `None` if the mover loses, else the first winning move in row-major order.
pub fn winning_move(rows: &[u8]) -> Option<(usize, usize)> {
    let explored = implicit::explore(&ChompRules, rows.to_vec(), 20_000)
        .expect("an 8 × 8 bar has few positions");
    let labels = graph::outcomes(&explored.graph);
    let index: std::collections::HashMap<&Rows, usize> = explored
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
    moves(rows)
        .into_iter()
        .find(|&(r, c)| labels[index[&eat(rows, r, c)]] == Outcome::Lose)
}

/// Closed forms known for some shapes: every rectangle but 1 × 1 is a first-player win
/// (strategy stealing); two rows lose iff the top is one longer; an L (one row and one column)
/// loses iff its arms are equal.
pub fn closed_form_wins(rows: &[u8]) -> Option<bool> {
    let height = rows.len();
    let width = rows[0] as usize;
    if rows.iter().all(|&len| len == rows[0]) {
        return Some(height * width > 1);
    }
    if height == 2 {
        return Some(rows[0] != rows[1] + 1);
    }
    if rows[1..].iter().all(|&len| len == 1) {
        return Some(width != height);
    }
    None
}

/// Brute force on the literal bar, as a bit mask of present pieces (8 × 8 at most).
#[derive(Debug, Clone, Copy)]
pub struct BarRules {
    pub columns: usize,
}

impl Game for BarRules {
    type Position = u64;
    fn moves(&self, &bar: &u64) -> Vec<u64> {
        let mut moves = Vec::new();
        for cell in 1..64 {
            if bar >> cell & 1 == 1 {
                let (r, c) = (cell / self.columns, cell % self.columns);
                let mut next = bar;
                for other in 0..64 {
                    if other / self.columns >= r && other % self.columns >= c {
                        next &= !(1u64 << other);
                    }
                }
                moves.push(next);
            }
        }
        moves
    }
}

pub fn brute_force_outcome(rows: &[u8]) -> Outcome {
    let columns = 8;
    let bar = rows
        .iter()
        .enumerate()
        .flat_map(|(r, &len)| (0..len as usize).map(move |c| r * columns + c))
        .fold(0u64, |bar, cell| bar | 1 << cell);
    implicit::outcome(&BarRules { columns }, bar, 100_000).expect("small")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every non-increasing row-length vector fitting `height × width` with a non-empty first row.
    fn positions(height: usize, width: u8) -> Vec<Rows> {
        let mut all = vec![Vec::new()];
        for _ in 0..height {
            let mut next = Vec::new();
            for rows in &all {
                let cap = rows.last().copied().unwrap_or(width);
                for len in 0..=cap {
                    let mut r = rows.clone();
                    r.push(len);
                    next.push(r);
                }
            }
            all = next;
        }
        all.into_iter()
            .filter(|r| r[0] > 0)
            .map(|mut r| {
                while r.last() == Some(&0) {
                    r.pop();
                }
                r
            })
            .collect()
    }

    #[test]
    fn dp_matches_bar_search_and_closed_forms_on_every_position_up_to_4_by_4() {
        for rows in positions(4, 4) {
            let dp = outcome(&rows);
            assert_eq!(dp, brute_force_outcome(&rows), "{rows:?}");
            if let Some(wins) = closed_form_wins(&rows) {
                assert_eq!(dp.is_win(), wins, "{rows:?}");
            }
            match winning_move(&rows) {
                Some((r, c)) => assert_eq!(outcome(&eat(&rows, r, c)), Outcome::Lose),
                None => assert_eq!(dp, Outcome::Lose),
            }
        }
    }

    #[test]
    fn full_bars_are_first_player_wins() {
        assert_eq!(winning_move(&[1]), None);
        for h in 1..=8u8 {
            for w in 1..=8u8 {
                let rows = vec![w; h as usize];
                assert_eq!(winning_move(&rows).is_some(), h * w > 1, "{h} × {w}");
            }
        }
    }
}
