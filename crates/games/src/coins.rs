//! Coin turning, the Mock Turtles variant: turn over one, two or three coins, the rightmost of
//! which goes from heads to tails. By the coin-turning theorem a position is worth the xor of the
//! values of its heads, and a head at position k (1-based) is worth the k-th odious number (odd
//! count of ones in binary): 1, 2, 4, 7, 8, 11, 13, 14, 16, …

use crate::implicit::{self, Game};
use crate::mex::Mex;

/// The k-th odious number, k ≥ 1: 2(k − 1), plus one if that has an even number of ones.
pub fn odious(k: u64) -> u64 {
    let x = 2 * (k - 1);
    if x.count_ones().is_multiple_of(2) {
        x + 1
    } else {
        x
    }
}

/// Head values by definition, for positions 1..=n: a move from a lone head at k turns it and up
/// to two coins to its left, so g(k) = mex{0, g(i), g(i) ^ g(j) : i < j < k}.
pub fn head_values(n: usize) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::with_capacity(n);
    let mut mex = Mex::default();
    for k in 0..n {
        let mut options = vec![0u32];
        for i in 0..k {
            options.push(values[i] as u32);
            for j in i + 1..k {
                options.push((values[i] ^ values[j]) as u32);
            }
        }
        values.push(u64::from(mex.of(options)));
    }
    values
}

/// Whether the first player wins, from the heads (true) of coins 1..=n.
pub fn first_wins(heads: &[bool]) -> bool {
    heads
        .iter()
        .enumerate()
        .filter(|(_, h)| **h)
        .fold(0, |acc, (i, _)| acc ^ odious(i as u64 + 1))
        != 0
}

/// Literal rules on a row of at most 64 coins, heads as set bits (bit i = coin i + 1).
#[derive(Debug, Clone, Copy, Default)]
pub struct MockTurtles;

impl Game for MockTurtles {
    type Position = u64;
    fn moves(&self, &heads: &u64) -> Vec<u64> {
        let mut moves = Vec::new();
        for top in 0..64 {
            if heads >> top & 1 == 1 {
                let base = heads ^ (1 << top);
                moves.push(base);
                for i in 0..top {
                    moves.push(base ^ (1 << i));
                    for j in i + 1..top {
                        moves.push(base ^ (1 << i) ^ (1 << j));
                    }
                }
            }
        }
        moves
    }
}

pub fn brute_force_first_wins(heads: &[bool], limit: usize) -> Option<bool> {
    let mask = heads
        .iter()
        .enumerate()
        .fold(0u64, |m, (i, &h)| m | (u64::from(h) << i));
    implicit::outcome(&MockTurtles, mask, limit)
        .ok()
        .map(|o| o.is_win())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odious_numbers() {
        let first: Vec<u64> = (1..=10).map(odious).collect();
        assert_eq!(first, vec![1, 2, 4, 7, 8, 11, 13, 14, 16, 19]);
    }

    #[test]
    fn definition_gives_the_odious_numbers() {
        for (k, &g) in head_values(120).iter().enumerate() {
            assert_eq!(g, odious(k as u64 + 1), "position {}", k + 1);
        }
    }

    #[test]
    fn rule_matches_game_tree_on_every_row_of_eight() {
        for mask in 0u32..256 {
            let heads: Vec<bool> = (0..8).map(|i| mask >> i & 1 == 1).collect();
            assert_eq!(
                Some(first_wins(&heads)),
                brute_force_first_wins(&heads, 1_000),
                "{heads:?}"
            );
        }
    }
}
