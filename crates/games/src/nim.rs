//! Nim: the nim-sum and the moves that restore it to zero.

/// Xor of all pile sizes; the position is lost for the mover iff it is zero.
pub fn nim_sum<I: IntoIterator<Item = u64>>(piles: I) -> u64 {
    piles.into_iter().fold(0, |acc, p| acc ^ p)
}

/// Every winning move as `(pile index, new size)`: exactly the piles whose size exceeds the size
/// xored with the nim-sum.
pub fn winning_moves(piles: &[u64]) -> Vec<(usize, u64)> {
    let sum = nim_sum(piles.iter().copied());
    piles
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p ^ sum < p)
        .map(|(i, &p)| (i, p ^ sum))
        .collect()
}

/// Literal rules, for the brute-force checks: remove any positive number from one pile. Positions
/// are kept sorted so that equal multisets are one position.
#[derive(Debug, Clone, Copy, Default)]
pub struct NimRules;

impl crate::implicit::Game for NimRules {
    type Position = Vec<u64>;
    fn moves(&self, piles: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut moves = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            for smaller in 0..p {
                let mut next = piles.clone();
                next[i] = smaller;
                next.sort_unstable();
                moves.push(next);
            }
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
    fn known_positions() {
        assert_eq!(nim_sum([45, 45]), 0);
        assert_eq!(nim_sum([3, 6, 9]), 12);
        assert_eq!(winning_moves(&[3, 4, 5]), vec![(0, 1)]);
    }

    proptest! {
        #[test]
        fn xor_rule_matches_game_tree(mut piles in prop::collection::vec(0u64..6, 1..4)) {
            piles.sort_unstable();
            let brute = implicit::outcome(&NimRules, piles.clone(), 100_000).unwrap();
            prop_assert_eq!(brute.is_win(), nim_sum(piles.iter().copied()) != 0);
        }

        #[test]
        fn winning_moves_reach_zero(piles in prop::collection::vec(0u64..1_000_000, 1..10)) {
            for (i, size) in winning_moves(&piles) {
                let mut next = piles.clone();
                next[i] = size;
                prop_assert_eq!(nim_sum(next), 0);
            }
            prop_assert_eq!(winning_moves(&piles).is_empty(), nim_sum(piles.iter().copied()) == 0);
        }
    }
}
