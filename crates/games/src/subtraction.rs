//! Subtraction games: one pile, a move removes a number of stones taken from a fixed set.
//! Stones (AtCoder DP K) is the general case; Bash's game is the set `{1, …, m}`.

use crate::implicit::Game;
use crate::mex::Mex;

/// The tutorial's dynamic programme: `wins[i]` says whether the player to move with `i` stones
/// wins, for every `i` up to `pile`. A position wins iff some move leads to a losing one.
pub fn winning_table(pile: usize, moves: &[usize]) -> Vec<bool> {
    let mut wins = vec![false; pile + 1];
    for i in 1..=pile {
        wins[i] = moves.iter().any(|&take| take <= i && !wins[i - take]);
    }
    wins
}

/// Whether the first player wins Stones with `pile` stones and the given move set.
pub fn first_wins(pile: usize, moves: &[usize]) -> bool {
    winning_table(pile, moves)[pile]
}

/// Grundy values of the subtraction game for every pile size up to `pile`.
pub fn grundy_table(pile: usize, moves: &[usize]) -> Vec<u32> {
    let mut values = vec![0u32; pile + 1];
    let mut mex = Mex::default();
    for i in 1..=pile {
        values[i] = mex.of(moves
            .iter()
            .filter(|&&take| take <= i)
            .map(|&take| values[i - take]));
    }
    values
}

/// Bash's game (take 1..=m, last taker wins), closed form: the mover loses iff `m + 1` divides `n`.
pub fn bash_first_wins(n: u64, m: u64) -> bool {
    !n.is_multiple_of(m + 1)
}

/// Literal rules of a subtraction game, for brute force.
#[derive(Debug, Clone)]
pub struct SubtractionRules {
    pub moves: Vec<usize>,
}

impl Game for SubtractionRules {
    type Position = usize;
    fn moves(&self, &pile: &usize) -> Vec<usize> {
        self.moves
            .iter()
            .filter(|&&take| take <= pile)
            .map(|&take| pile - take)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implicit;
    use proptest::prelude::*;

    #[test]
    fn atcoder_samples() {
        assert!(first_wins(4, &[2, 3]));
        assert!(!first_wins(5, &[2, 3]));
        assert!(first_wins(7, &[2, 3]));
        assert!(!first_wins(20, &[1, 2, 3]));
        assert!(first_wins(21, &[1, 2, 3]));
        assert!(!first_wins(100_000, &[1]));
    }

    fn move_set() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::btree_set(1usize..8, 1..5).prop_map(|s| s.into_iter().collect())
    }

    proptest! {
        #[test]
        fn dp_matches_game_tree(moves in move_set(), pile in 0usize..40) {
            let rules = SubtractionRules { moves: moves.clone() };
            let brute = implicit::outcome(&rules, pile, 1000).unwrap();
            prop_assert_eq!(first_wins(pile, &moves), brute.is_win());
            prop_assert_eq!(grundy_table(pile, &moves)[pile], implicit::grundy(&rules, pile, 1000).unwrap());
        }

        #[test]
        fn bash_closed_form_matches_dp(n in 1usize..300, m in 1usize..40) {
            let moves: Vec<usize> = (1..=m).collect();
            prop_assert_eq!(bash_first_wins(n as u64, m as u64), first_wins(n, &moves));
        }
    }
}
