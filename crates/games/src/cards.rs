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

/// The tutorial's dynamic programme: the most the first player can score.
pub fn first_player_score(values: &[i64], first_tokens: usize, second_tokens: usize) -> i64 {
    Scores::new(values, first_tokens, second_tokens).best(values.len(), first_tokens, second_tokens)
}

/// The tutorial's dynamic programme, every state kept: `best[i][a][b]` is the most the mover can
/// score from the first `i` cards when the mover holds `a` tokens and the opponent `b`. Taking
/// `x + 1` cards leaves the first `i - x - 1`, with the roles swapped.
///
/// Tokens beyond `n - 1` can never be spent, so both counts are capped there first; that bounds
/// the table by `n³` whatever the input's token counts.
#[derive(Debug)]
pub struct Scores {
    prefix: Vec<i64>,
    /// Token counts are kept below this.
    tokens: usize,
    best: Vec<i64>,
}

impl Scores {
    pub fn new(values: &[i64], first_tokens: usize, second_tokens: usize) -> Scores {
        let n = values.len();
        let cap = n.saturating_sub(1);
        let tokens = first_tokens.max(second_tokens).min(cap) + 1;
        let mut prefix = vec![0i64; n + 1];
        for (i, &v) in values.iter().enumerate() {
            prefix[i + 1] = prefix[i] + v;
        }
        let mut scores = Scores {
            prefix,
            tokens,
            best: vec![0i64; (n + 1) * tokens * tokens],
        };
        for i in 1..=n {
            for a in 0..tokens {
                for b in 0..tokens {
                    let extra_max = a.min(i - 1);
                    let best = (0..=extra_max)
                        .map(|x| scores.prefix[i] - scores.best(i - x - 1, b, a - x))
                        .max()
                        .expect("taking one card is always possible");
                    let at = scores.at(i, a, b);
                    scores.best[at] = best;
                }
            }
        }
        scores
    }

    fn at(&self, cards: usize, mine: usize, theirs: usize) -> usize {
        let cap = |t: usize| t.min(self.tokens - 1);
        (cards * self.tokens + cap(mine)) * self.tokens + cap(theirs)
    }

    /// The most the mover scores from the first `cards` cards, holding `mine` tokens against
    /// `theirs` (at most the counts the table was built for).
    pub fn best(&self, cards: usize, mine: usize, theirs: usize) -> i64 {
        self.best[self.at(cards, mine, theirs)]
    }

    /// The mover's score minus the opponent's from the first `cards` cards, both playing their
    /// best.
    pub fn lead(&self, cards: usize, mine: usize, theirs: usize) -> i64 {
        2 * self.best(cards, mine, theirs) - self.prefix[cards]
    }

    /// What the mover's lead is when taking `extra + 1` cards from the first `cards` (spending
    /// `extra` of `mine`), both playing their best afterwards.
    pub fn lead_after(&self, cards: usize, mine: usize, theirs: usize, extra: usize) -> i64 {
        let left = cards - extra - 1;
        let taken = self.prefix[cards] - self.prefix[left];
        taken - self.lead(left, theirs, mine - extra)
    }
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
    fn leads_follow_the_moves() {
        // The statement's 3 1 4 1 5, one token for the first player: taking 5, then 4, then 3
        // scores 12 against 1 + 1; spending the token on 4 1 gives 10 against 4, and on 1 5
        // first 7 against 7.
        let scores = Scores::new(&[3, 1, 4, 1, 5], 1, 0);
        assert_eq!(scores.lead(5, 1, 0), 10);
        assert_eq!(scores.lead_after(5, 1, 0, 1), 0);
        // One card left for the mover with no tokens: it is theirs.
        assert_eq!(scores.lead(1, 0, 0), 3);
        // Taking both of 4 6 with a token: 10 to 0.
        assert_eq!(Scores::new(&[4, 6], 1, 0).lead_after(2, 1, 0, 1), 10);
        // Taking only the 6: the opponent gets 4.
        assert_eq!(Scores::new(&[4, 6], 1, 0).lead_after(2, 1, 0, 0), 2);
    }

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
