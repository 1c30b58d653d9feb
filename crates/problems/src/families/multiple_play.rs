//! Take-away with a limit that follows the previous move, position by position, for a person at
//! the play page or a terminal: Fibonacci Nim (k = 2) and its k-multiple generalization.
//!
//! A position is the pile, the factor k where the game is not Fibonacci Nim's, and the most the
//! player to move may take: `n m` or `n k m`. A move `t` takes 1 ≤ t ≤ m stones and leaves the
//! opponent `n − t` stones with up to `k·t` to take (never more than the pile). A game starts
//! with `m = n − 1`, as the problems' first move may not take the whole pile. The value comes
//! from the pile's sum of losing sizes, [`multiple::decomposition`]: the player to move wins
//! exactly when its smallest term may be taken.

use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::multiple;
use rand::RngExt;
use rand::seq::IndexedRandom;

/// The largest pile on a page: its sum of losing sizes takes microseconds.
const MAX_N: u64 = 1_000_000;
/// The largest factor on a page: with k = 1000 there are about 7500 losing sizes up to
/// [`MAX_N`], built afresh for each value.
const MAX_K: u64 = 1000;
/// The most winning moves a hint lists; a pile has at most one per term of its sum, about 30
/// on a page.
const MAX_LISTED: usize = 12;

#[derive(Debug, Clone, Copy)]
pub struct MultiplePlay {
    /// The factor every position shares (2 for Fibonacci Nim), or `None` when each position
    /// names its own.
    fixed_k: Option<u64>,
}

impl MultiplePlay {
    pub const FIBONACCI: MultiplePlay = MultiplePlay { fixed_k: Some(2) };
    pub const K_MULTIPLE: MultiplePlay = MultiplePlay { fixed_k: None };
}

/// `n` stones, of which the player to move may take up to `limit` (at most `n`, and 0 only on
/// an empty pile); after a take of `t`, the opponent may take up to `k·t`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pile {
    n: u64,
    k: u64,
    limit: u64,
}

impl Pile {
    fn after(&self, take: u64) -> Pile {
        let n = self.n - take;
        Pile {
            n,
            k: self.k,
            limit: (take * self.k).min(n),
        }
    }

    /// The pile as a sum of losing sizes, largest first, each more than k times the next.
    fn terms(&self) -> Vec<u64> {
        multiple::decomposition(self.n, self.k)
    }

    fn wins(&self) -> bool {
        self.terms()
            .last()
            .is_some_and(|&smallest| smallest <= self.limit)
    }
}

impl Rules for MultiplePlay {
    type Position = Pile;
    type Move = u64;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Pile, ValidationError> {
        let (line, n, k, limit) = match self.fixed_k {
            Some(k) => {
                let line = reader.line("a position \"n m\"")?;
                line.expect_len(2, "n m")?;
                let n = line.int(0, "n", 0..=MAX_N)?;
                let limit: u64 = line.int(1, "m", 0..=MAX_N)?;
                (line, n, k, limit)
            }
            None => {
                let line = reader.line("a position \"n k m\"")?;
                line.expect_len(3, "n k m")?;
                let n = line.int(0, "n", 0..=MAX_N)?;
                let k = line.int(1, "k", 1..=MAX_K)?;
                let limit: u64 = line.int(2, "m", 0..=MAX_N)?;
                (line, n, k, limit)
            }
        };
        if n == 0 && limit != 0 {
            return Err(line.error(format!(
                "m = {limit}, but the pile is empty: nothing is left to take, so m = 0"
            )));
        }
        if n > 0 && limit == 0 {
            return Err(line.error("m = 0, but a move takes at least 1 stone: m ≥ 1"));
        }
        if limit > n {
            return Err(line.error(format!(
                "m = {limit} is more than the pile of n = {n}; m = {n} lets the whole pile be \
                 taken"
            )));
        }
        Ok(Pile { n, k, limit })
    }

    fn write_position(&self, pile: &Pile, out: &mut String) {
        match self.fixed_k {
            Some(_) => super::push_line(out, [pile.n, pile.limit]),
            None => super::push_line(out, [pile.n, pile.k, pile.limit]),
        }
    }

    fn start_rule(&self, pile: &Pile) -> Result<(), String> {
        if pile.n == 0 {
            Err("the pile is empty; a game starts with a move to make".into())
        } else {
            Ok(())
        }
    }

    fn words(&self, pile: &Pile) -> String {
        let stones = match pile.n {
            0 => "no stones left".to_owned(),
            1 => "1 stone, take it".to_owned(),
            n => format!("{n} stones, take up to {}", pile.limit),
        };
        match self.fixed_k {
            Some(_) => stones,
            None => format!("{stones} (k = {})", pile.k),
        }
    }

    fn is_over(&self, pile: &Pile) -> bool {
        pile.n == 0
    }

    /// Not a sum game: only who wins is meaningful.
    fn value(&self, pile: &Pile) -> Value {
        Value {
            win: pile.wins(),
            grundy: None,
        }
    }

    fn read_move(&self, pile: &Pile, text: &str) -> Result<u64, String> {
        let take: i128 = match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
            [one] => one
                .parse()
                .map_err(|_| "a move is one integer `t` (take t stones)".to_owned())?,
            _ => return Err("a move is one integer `t` (take t stones)".into()),
        };
        if take < 1 {
            return Err(format!("a move takes at least 1 stone, not {take}"));
        }
        if take > i128::from(pile.n) {
            return Err(format!("the pile has only {}, not {take}", pile.n));
        }
        if take > i128::from(pile.limit) {
            return Err(format!(
                "at most {} may be taken now, not {take}",
                pile.limit
            ));
        }
        Ok(take as u64)
    }

    fn write_move(&self, &take: &u64) -> String {
        take.to_string()
    }

    fn move_words(&self, _: &Pile, &take: &u64) -> String {
        format!("to take {take}")
    }

    fn move_done(&self, _: &Pile, &take: &u64) -> String {
        format!("took {take}")
    }

    fn apply(&self, pile: &Pile, &take: &u64) -> Pile {
        pile.after(take)
    }

    /// A winning take leaves a pile whose sum has every term out of the opponent's reach, so
    /// the sum of the pile is the sum left followed by the take's own: only the sums of the
    /// smallest terms can win.
    fn winning_moves(&self, pile: &Pile) -> Vec<u64> {
        let mut take = 0;
        pile.terms()
            .iter()
            .rev()
            .map(|&term| {
                take += term;
                take
            })
            .take_while(|&take| take <= pile.limit)
            .filter(|&take| !pile.after(take).wins())
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, pile: &Pile, _played: usize, rng: &mut TestRng) -> u64 {
        if let Some(&take) = self.winning_moves(pile).choose(rng) {
            return take;
        }
        // Lost: the largest takes give the opponent the most room to finish the game; the
        // upper half of them varies the line.
        if rng.random_bool(0.4) {
            rng.random_range(pile.limit.div_ceil(2)..=pile.limit)
        } else {
            pile.limit
        }
    }

    fn random_start(&self, rng: &mut TestRng) -> Pile {
        let k = self.fixed_k.unwrap_or_else(|| {
            if rng.random_bool(0.8) {
                rng.random_range(1..=4)
            } else {
                rng.random_range(5..=10)
            }
        });
        let start = |n: u64| Pile { n, k, limit: n - 1 };
        match rng.random_range(0..3) {
            // The problem's start from a losing size: the second player wins.
            0 => {
                let losing: Vec<u64> = multiple::losing_sizes(k, 100)
                    .into_iter()
                    .filter(|a| (5..=100).contains(a))
                    .collect();
                start(
                    *losing
                        .choose(rng)
                        .expect("every k up to 10 has a losing size in 5..=100"),
                )
            }
            // The problem's start from any pile.
            1 => start(rng.random_range(5..=60)),
            // The middle of a game: the opponent just took t.
            _ => {
                let n = rng.random_range(20..=80);
                let t = rng.random_range(1..=((n - 1) / k).clamp(1, 4));
                Pile {
                    n,
                    k,
                    limit: (k * t).min(n - 1),
                }
            }
        }
    }

    fn notation(&self) -> Notation {
        match self.fixed_k {
            Some(_) => Notation {
                position: Words {
                    en: "`n m`: a pile of n stones, of which the player to move may take up to m (1 ≤ m ≤ n). After a take of t, the opponent may take up to 2t. A game starts with m = n − 1, as the first move may not take the whole pile: `10 9`. Piles up to 1000000.",
                    vi: "`n m`: đống còn n viên, người đến lượt được bốc nhiều nhất m viên (1 ≤ m ≤ n). Sau khi một người bốc t viên, người kia được bốc nhiều nhất 2t viên. Ván chơi bắt đầu với m = n − 1, vì nước đầu tiên không được bốc cả đống: `10 9`. Đống có tối đa 1000000 viên.",
                },
                moves: MOVES,
            },
            None => Notation {
                position: Words {
                    en: "`n k m`: a pile of n stones, the factor k, and the most the player to move may take, m (1 ≤ m ≤ n). After a take of t, the opponent may take up to k·t. A game starts with m = n − 1, as the first move may not take the whole pile: `20 3 19`. Piles up to 1000000, k up to 1000.",
                    vi: "`n k m`: đống còn n viên, hệ số k, và số viên nhiều nhất người đến lượt được bốc, m (1 ≤ m ≤ n). Sau khi một người bốc t viên, người kia được bốc nhiều nhất k·t viên. Ván chơi bắt đầu với m = n − 1, vì nước đầu tiên không được bốc cả đống: `20 3 19`. Đống có tối đa 1000000 viên, k tối đa 1000.",
                },
                moves: MOVES,
            },
        }
    }
}

const MOVES: Words = Words {
    en: "`t` takes t stones, 1 ≤ t ≤ m: `3`. Whoever takes the last stone wins.",
    vi: "`t` bốc t viên, 1 ≤ t ≤ m: `3`. Ai bốc được viên cuối cùng thì thắng.",
};
