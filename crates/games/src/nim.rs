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

/// Misère Nim (the last taker loses): the mover wins iff some pile exceeds 1 and the nim-sum is
/// non-zero, or every pile is at most 1 and the nim-sum is zero (an even number of single stones).
pub fn misere_first_wins(piles: &[u64]) -> bool {
    let sum = nim_sum(piles.iter().copied());
    if piles.iter().any(|&p| p > 1) {
        sum != 0
    } else {
        sum == 0
    }
}

/// Moore's Nim (a move takes from one to `k` piles): the mover loses iff, for every bit, the
/// number of piles with that bit set is a multiple of `k + 1`. (Seed 001 says `k`, which is the
/// rule for at most `k − 1` piles.)
pub fn moore_first_wins(piles: &[u64], k: usize) -> bool {
    (0..64).any(|bit| {
        !piles
            .iter()
            .filter(|&&p| p >> bit & 1 == 1)
            .count()
            .is_multiple_of(k + 1)
    })
}

/// Staircase Nim in the POJ 1704 form: chessmen on cells 1, 2, …, moving left without passing.
/// Sorted, the gaps `p_i − p_{i−1} − 1` (with `p_0 = 0`) taken at `i = n, n − 2, …` form a Nim
/// position: a move shrinks one of them or moves stones from one to the next, which the other
/// player undoes.
pub fn staircase_first_wins(positions: &[u64]) -> bool {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    let gaps: Vec<u64> = (0..sorted.len())
        .map(|i| sorted[i] - if i == 0 { 0 } else { sorted[i - 1] } - 1)
        .collect();
    gaps.iter().rev().step_by(2).fold(0, |acc, &g| acc ^ g) != 0
}

/// Grundy value of a pile in Lasker's Nim (take any number, or split into two non-empty piles).
/// The value of 2³¹ − 1 is 2³¹, which is why this returns `u64`.
pub fn lasker_grundy(pile: u64) -> u64 {
    match pile % 4 {
        0 if pile == 0 => 0,
        0 => pile - 1,
        3 => pile + 1,
        _ => pile,
    }
}

/// Lasker's Nim Grundy values by definition, for every pile up to `limit`: the mex over taking
/// any positive number and over every split.
pub fn lasker_grundy_table(limit: usize) -> Vec<u32> {
    let mut values = vec![0u32; limit + 1];
    let mut mex = crate::mex::Mex::default();
    for n in 1..=limit {
        let takes = (0..n).map(|rest| values[rest]);
        let splits = (1..=n / 2).map(|a| values[a] ^ values[n - a]);
        let collected: Vec<u32> = takes.chain(splits).collect();
        values[n] = mex.of(collected);
    }
    values
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

/// Literal rules of the variants, for brute force; positions are sorted pile lists, and `None`
/// is the position after a misère game's last stone has been taken by the loser.
#[derive(Debug, Clone, Copy)]
pub enum VariantRules {
    /// Whoever takes the last stone loses.
    Misere,
    /// Take from one to `k` piles at once.
    Moore { k: usize },
    /// Take from a pile, or split one into two non-empty piles.
    Lasker,
}

impl crate::implicit::Game for VariantRules {
    type Position = Option<Vec<u64>>;
    fn moves(&self, position: &Option<Vec<u64>>) -> Vec<Option<Vec<u64>>> {
        let Some(piles) = position else {
            return Vec::new();
        };
        let normalise = |mut v: Vec<u64>| {
            v.retain(|&p| p > 0);
            v.sort_unstable();
            Some(v)
        };
        match *self {
            VariantRules::Misere => {
                if piles.is_empty() {
                    // The previous player took the last stone and lost: the mover has "won" by
                    // having a move into the dead end.
                    return vec![None];
                }
                NimRules.moves(piles).into_iter().map(normalise).collect()
            }
            VariantRules::Lasker => {
                let mut moves: Vec<_> = NimRules.moves(piles).into_iter().map(normalise).collect();
                for (i, &p) in piles.iter().enumerate() {
                    for a in 1..=p / 2 {
                        let mut next = piles.clone();
                        next[i] = a;
                        next.push(p - a);
                        moves.push(normalise(next));
                    }
                }
                moves
            }
            VariantRules::Moore { k } => {
                // Every vector of new sizes with 1..=k piles strictly reduced.
                let mut moves = Vec::new();
                let mut next = piles.clone();
                fn extend(
                    piles: &[u64],
                    next: &mut Vec<u64>,
                    i: usize,
                    changed: usize,
                    k: usize,
                    out: &mut Vec<Option<Vec<u64>>>,
                ) {
                    if i == piles.len() {
                        if changed > 0 {
                            let mut v = next.clone();
                            v.retain(|&p| p > 0);
                            v.sort_unstable();
                            out.push(Some(v));
                        }
                        return;
                    }
                    extend(piles, next, i + 1, changed, k, out);
                    if changed < k {
                        for smaller in 0..piles[i] {
                            next[i] = smaller;
                            extend(piles, next, i + 1, changed + 1, k, out);
                        }
                        next[i] = piles[i];
                    }
                }
                extend(piles, &mut next, 0, 0, k, &mut moves);
                moves
            }
        }
    }
}

/// Literal rules of POJ 1704: chessmen on cells 1, 2, … (sorted), a move shifts one to the left
/// without passing or landing on another.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChessmenRules;

impl crate::implicit::Game for ChessmenRules {
    type Position = Vec<u64>;
    fn moves(&self, cells: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut moves = Vec::new();
        for i in 0..cells.len() {
            let floor = if i == 0 { 1 } else { cells[i - 1] + 1 };
            for to in floor..cells[i] {
                let mut next = cells.clone();
                next[i] = to;
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

    fn brute(rules: VariantRules, piles: &[u64]) -> bool {
        let mut start: Vec<u64> = piles.iter().copied().filter(|&p| p > 0).collect();
        start.sort_unstable();
        implicit::outcome(&rules, Some(start), 1_000_000)
            .unwrap()
            .is_win()
    }

    #[test]
    fn variant_samples() {
        assert!(misere_first_wins(&[3, 5, 1]));
        assert!(!misere_first_wins(&[1]));
        assert!(staircase_first_wins(&[1, 5, 6, 7, 9, 12, 14, 17]));
        assert!(!staircase_first_wins(&[3, 1, 2]));
        assert_eq!(lasker_grundy((1 << 31) - 1), 1 << 31);
        assert_ne!(lasker_grundy(2) ^ lasker_grundy(2) ^ lasker_grundy(3), 0);
        assert_eq!(lasker_grundy(3) ^ lasker_grundy(3), 0);
    }

    #[test]
    fn lasker_closed_form_matches_definition() {
        for (n, &g) in lasker_grundy_table(400).iter().enumerate() {
            assert_eq!(lasker_grundy(n as u64), u64::from(g), "pile {n}");
        }
    }

    #[test]
    fn staircase_rule_matches_chessmen_game_tree() {
        for mask in 1u32..(1 << 9) {
            let cells: Vec<u64> = (1..=9).filter(|c| mask >> (c - 1) & 1 == 1).collect();
            if cells.len() > 4 {
                continue;
            }
            let brute = implicit::outcome(&ChessmenRules, cells.clone(), 100_000)
                .unwrap()
                .is_win();
            let mut reversed = cells.clone();
            reversed.reverse();
            assert_eq!(staircase_first_wins(&reversed), brute, "{cells:?}");
        }
    }

    proptest! {
        #[test]
        fn misere_rule_matches_game_tree(piles in prop::collection::vec(1u64..6, 1..5)) {
            prop_assert_eq!(misere_first_wins(&piles), brute(VariantRules::Misere, &piles));
        }

        #[test]
        fn moore_rule_matches_game_tree(piles in prop::collection::vec(1u64..4, 1..5), k in 1usize..4) {
            let k = k.min(piles.len());
            prop_assert_eq!(moore_first_wins(&piles, k), brute(VariantRules::Moore { k }, &piles));
        }

        #[test]
        fn lasker_rule_matches_game_tree(piles in prop::collection::vec(1u64..8, 1..4)) {
            let sum = piles.iter().fold(0, |acc, &p| acc ^ lasker_grundy(p));
            prop_assert_eq!(sum != 0, brute(VariantRules::Lasker, &piles));
        }

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
