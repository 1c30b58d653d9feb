//! SPC4, "addition cards": cards in a row are taken from the right end; the mover must take one
//! and may take `y` more by spending `y` of their own tokens. Scores are the sums taken.

use crate::implicit::{Game, ScoredGame};
use std::cmp::Ordering;

/// Result for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Lose,
}

impl Verdict {
    fn from_difference(difference: i64) -> Self {
        match difference.cmp(&0) {
            Ordering::Greater => Verdict::Win,
            Ordering::Equal => Verdict::Draw,
            Ordering::Less => Verdict::Lose,
        }
    }
}

/// The tutorial's dynamic programme: `best[i][a][b]` is the most the mover can score from the
/// first `i` cards when the mover holds `a` tokens and the opponent `b`. Taking `x + 1` cards
/// leaves the first `i - x - 1`, with the roles swapped.
///
/// Tokens beyond `n - 1` can never be spent, so both counts are capped there first; that bounds
/// the table by `n³` whatever the input's token counts.
pub fn first_player_score(values: &[i64], first_tokens: usize, second_tokens: usize) -> i64 {
    let n = values.len();
    let cap = n.saturating_sub(1);
    let (k, t) = (first_tokens.min(cap), second_tokens.min(cap));
    let tokens = k.max(t) + 1;
    let mut prefix = vec![0i64; n + 1];
    for (i, &v) in values.iter().enumerate() {
        prefix[i + 1] = prefix[i] + v;
    }
    let at = |i: usize, a: usize, b: usize| (i * tokens + a) * tokens + b;
    let mut best = vec![0i64; (n + 1) * tokens * tokens];
    for i in 1..=n {
        for a in 0..tokens {
            for b in 0..tokens {
                let extra_max = a.min(i - 1);
                best[at(i, a, b)] = (0..=extra_max)
                    .map(|x| prefix[i] - best[at(i - x - 1, b, a - x)])
                    .max()
                    .expect("taking one card is always possible");
            }
        }
    }
    best[at(n, k, t)]
}

/// The verdict from the dynamic programme: compare the first player's score with the rest.
pub fn verdict(values: &[i64], first_tokens: usize, second_tokens: usize) -> Verdict {
    let total: i64 = values.iter().sum();
    let first = first_player_score(values, first_tokens, second_tokens);
    Verdict::from_difference(first - (total - first))
}

/// Literal rules for brute force. The position carries both scores so that the search compares
/// only final outcomes (win, draw, loss) and shares nothing with the score-maximising programme.
#[derive(Debug, Clone)]
pub struct CardRules<'a> {
    pub values: &'a [i64],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardPosition {
    pub remaining: usize,
    pub tokens: [usize; 2],
    pub scores: [i64; 2],
    pub to_move: usize,
}

impl Game for CardRules<'_> {
    type Position = CardPosition;
    fn moves(&self, p: &CardPosition) -> Vec<CardPosition> {
        let mover = p.to_move;
        let mut moves = Vec::new();
        for extra in 0..=p.tokens[mover] {
            let taken = extra + 1;
            if taken > p.remaining {
                break;
            }
            let mut next = p.clone();
            next.remaining -= taken;
            next.tokens[mover] -= extra;
            next.scores[mover] += self.values[next.remaining..p.remaining].iter().sum::<i64>();
            next.to_move = 1 - mover;
            moves.push(next);
        }
        moves
    }
}

impl ScoredGame for CardRules<'_> {
    fn terminal_score(&self, p: &CardPosition) -> i64 {
        (p.scores[0] - p.scores[1]).signum()
    }
    fn maximiser_to_move(&self, p: &CardPosition) -> bool {
        p.to_move == 0
    }
}

/// Brute force over the game tree; `None` when it has more than `limit` positions.
pub fn brute_force_verdict(
    values: &[i64],
    first_tokens: usize,
    second_tokens: usize,
    limit: usize,
) -> Option<Verdict> {
    let start = CardPosition {
        remaining: values.len(),
        tokens: [first_tokens, second_tokens],
        scores: [0, 0],
        to_move: 0,
    };
    let outcome = crate::implicit::minimax(&CardRules { values }, start, limit).ok()?;
    Some(Verdict::from_difference(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_checked_positions() {
        // No tokens: players alternate single cards from the right.
        assert_eq!(verdict(&[5, 5], 0, 0), Verdict::Draw);
        assert_eq!(first_player_score(&[1, 2, 3], 0, 0), 3 + 1);
        // One token: the first player takes both cards.
        assert_eq!(first_player_score(&[4, 6], 1, 0), 10);
        // Must take a card even when every card is negative.
        assert_eq!(first_player_score(&[-1, -2], 5, 5), -2);
    }

    proptest! {
        #[test]
        fn dp_matches_game_tree(
            values in prop::collection::vec(-6i64..7, 1..7),
            k in 0usize..4,
            t in 0usize..4,
        ) {
            let brute = brute_force_verdict(&values, k, t, 1_000_000).unwrap();
            prop_assert_eq!(verdict(&values, k, t), brute);
        }
    }
}
