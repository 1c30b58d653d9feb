//! Several-pile games read as `T` tests of a size line and a line of piles: misère Nim (POJ 3480),
//! Lasker's Nim (HDU 3032), Moore's Nim (own format, `n k`), subtract-a-square Nim (own format)
//! and staircase Nim (POJ 1704, chessmen positions in any order).

use super::{at_most, first_duplicate, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, nim, subtraction};
use rand::RngExt;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Misere,
    Lasker,
    Moore,
    Square,
    Staircase,
}

pub struct Piles {
    variant: Variant,
    max_tests: u32,
    max_n: u32,
    max_value: u64,
    /// Bound on the total number of piles over all tests, where the format has one.
    max_total: Option<u64>,
    words: [&'static str; 2],
    /// Subtract-a-square Grundy values up to the largest pile, computed once.
    square_values: OnceLock<Vec<u32>>,
}

const SQUARE_LIMIT: u64 = 100_000;

impl Piles {
    const fn new(
        variant: Variant,
        max_tests: u32,
        max_n: u32,
        max_value: u64,
        max_total: Option<u64>,
        words: [&'static str; 2],
    ) -> Self {
        Piles {
            variant,
            max_tests,
            max_n,
            max_value,
            max_total,
            words,
            square_values: OnceLock::new(),
        }
    }
    pub const fn misere() -> Self {
        Self::new(Variant::Misere, 474, 47, 4747, None, ["John", "Brother"])
    }
    pub const fn lasker() -> Self {
        Self::new(
            Variant::Lasker,
            100,
            1_000_000,
            (1 << 31) - 1,
            None,
            ["Alice", "Bob"],
        )
    }
    pub const fn moore() -> Self {
        Self::new(
            Variant::Moore,
            100,
            100,
            1_000_000_000,
            None,
            ["First", "Second"],
        )
    }
    pub const fn square() -> Self {
        Self::new(
            Variant::Square,
            10,
            100_000,
            SQUARE_LIMIT,
            Some(200_000),
            ["First", "Second"],
        )
    }
    pub const fn staircase() -> Self {
        Self::new(
            Variant::Staircase,
            20,
            1000,
            10_000,
            None,
            ["Georgia will win", "Bob will win"],
        )
    }

    fn square_values(&self) -> &[u32] {
        self.square_values.get_or_init(|| {
            let squares: Vec<usize> = (1..)
                .map(|i| i * i)
                .take_while(|&s| s <= SQUARE_LIMIT as usize)
                .collect();
            subtraction::grundy_table(SQUARE_LIMIT as usize, &squares)
        })
    }

    fn first_wins(&self, game: &Game) -> bool {
        match self.variant {
            Variant::Misere => nim::misere_first_wins(&game.piles),
            Variant::Lasker => {
                game.piles
                    .iter()
                    .fold(0, |acc, &p| acc ^ nim::lasker_grundy(p))
                    != 0
            }
            Variant::Moore => nim::moore_first_wins(&game.piles, game.k as usize),
            Variant::Square => {
                let values = self.square_values();
                game.piles
                    .iter()
                    .fold(0, |acc, &p| acc ^ values[p as usize])
                    != 0
            }
            Variant::Staircase => nim::staircase_first_wins(&game.piles),
        }
    }

    /// The game tree over the literal rules, for small games.
    fn brute_force(&self, game: &Game) -> Option<bool> {
        let small = |n: usize, v: u64| game.piles.len() <= n && game.piles.iter().all(|&p| p <= v);
        let mut sorted = game.piles.clone();
        sorted.sort_unstable();
        let limit = 200_000;
        let outcome = match self.variant {
            Variant::Misere if small(4, 6) => {
                implicit::outcome(&nim::VariantRules::Misere, Some(sorted), limit)
            }
            Variant::Lasker if small(3, 8) => {
                implicit::outcome(&nim::VariantRules::Lasker, Some(sorted), limit)
            }
            Variant::Moore if small(4, 3) => implicit::outcome(
                &nim::VariantRules::Moore { k: game.k as usize },
                Some(sorted),
                limit,
            ),
            Variant::Square if small(3, 20) => implicit::outcome(&SquareRules, sorted, limit),
            Variant::Staircase if small(4, 12) => {
                implicit::outcome(&nim::ChessmenRules, sorted, limit)
            }
            _ => return None,
        };
        outcome.ok().map(|o| o.is_win())
    }

    /// Turns a game into a lost one where the variant's rule allows a simple construction, or
    /// returns it unchanged.
    fn make_losing(&self, game: Game, rng: &mut TestRng, max_value: u64) -> Game {
        let n = game.piles.len();
        let others = &game.piles[..n - 1];
        let candidate = match self.variant {
            Variant::Misere => {
                let x = others.iter().fold(0, |a, &p| a ^ p);
                let mut piles = game.piles.clone();
                piles[n - 1] = x;
                (x >= 1 && x <= max_value && piles.iter().any(|&p| p > 1)).then_some(piles)
            }
            Variant::Lasker => {
                // The last two piles cancel the rest. Only 2³¹ − 1 is worth 2³¹ (bit 31), so it
                // takes that bit when needed; the other pile takes whatever remains.
                let inverse = |v: u64| match v % 4 {
                    0 => v.checked_sub(1),
                    3 => Some(v + 1),
                    _ => Some(v),
                };
                (n >= 2)
                    .then(|| {
                        let x = game.piles[..n - 2]
                            .iter()
                            .fold(0, |a, &p| a ^ nim::lasker_grundy(p));
                        let first = if x >> 31 & 1 == 1 {
                            (1u64 << 31) - 1
                        } else {
                            rng.random_range(1..=max_value)
                        };
                        let second = inverse(x ^ nim::lasker_grundy(first))?;
                        (1..=max_value).contains(&first).then_some(())?;
                        (1..=max_value).contains(&second).then(|| {
                            let mut piles = game.piles.clone();
                            piles[n - 2] = first;
                            piles[n - 1] = second;
                            piles
                        })
                    })
                    .flatten()
            }
            Variant::Moore => {
                // Groups of k + 1 equal piles: every bit is set in a multiple of k + 1 piles.
                let group = game.k as usize + 1;
                (n >= group).then(|| {
                    (0..n / group)
                        .flat_map(|_| std::iter::repeat_n(rng.random_range(1..=max_value), group))
                        .collect()
                })
            }
            Variant::Square => {
                let values = self.square_values();
                let x = others.iter().fold(0, |a, &p| a ^ values[p as usize]);
                (1..=max_value).find(|&s| values[s as usize] == x).map(|s| {
                    let mut piles = game.piles.clone();
                    piles[n - 1] = s;
                    piles
                })
            }
            Variant::Staircase => {
                // Random gaps, then the last counted gap (i = n, n − 2, … from the right end)
                // cancels the others; positions are the running sums, shuffled.
                let spread = (max_value / (2 * n as u64 + 2)).max(1);
                let mut gaps: Vec<u64> = (0..n).map(|_| rng.random_range(0..=spread)).collect();
                let counted_xor = gaps.iter().rev().skip(2).step_by(2).fold(0, |a, &g| a ^ g);
                gaps[n - 1] = counted_xor;
                let mut position = 0;
                let mut cells: Vec<u64> = gaps
                    .iter()
                    .map(|&g| {
                        position += g + 1;
                        position
                    })
                    .collect();
                rand::seq::SliceRandom::shuffle(cells.as_mut_slice(), rng);
                (position <= max_value).then_some(cells)
            }
        };
        // Otherwise every pile twice over: a position equal to its mirror image is lost in every
        // variant here but staircase Nim (and misère Nim when all piles are ones).
        let mirrored = || {
            let half = &game.piles[..n / 2];
            let piles: Vec<u64> = half.iter().flat_map(|&p| [p, p]).collect();
            let ones_only = piles.iter().all(|&p| p <= 1);
            (n >= 2
                && self.variant != Variant::Staircase
                && !(self.variant == Variant::Misere && ones_only))
                .then_some(piles)
        };
        match candidate.or_else(mirrored) {
            Some(piles) => Game { k: game.k, piles },
            None => game,
        }
    }

    fn word(&self, first_wins: bool) -> &'static str {
        self.words[usize::from(!first_wins)]
    }

    /// A random game of `n` piles shaped by `shape`, within `max_value`.
    fn random_game(&self, rng: &mut TestRng, n: u32, max_value: u64, shape: usize) -> Game {
        let k = if self.variant == Variant::Moore {
            rng.random_range(1..=n)
        } else {
            0
        };
        let piles: Vec<u64> = if self.variant == Variant::Staircase {
            // Distinct cells: a random subset of 1..=max_value, or a packed block at the left.
            let n = n.min(max_value as u32);
            match shape % 3 {
                0 => (1..=u64::from(n)).collect(),
                1 => {
                    let start = rng.random_range(1..=max_value - u64::from(n) + 1);
                    (start..start + u64::from(n)).rev().collect()
                }
                _ => rand::seq::index::sample(rng, max_value as usize, n as usize)
                    .into_iter()
                    .map(|c| c as u64 + 1)
                    .collect(),
            }
        } else {
            match shape % 5 {
                0 => vec![1; n as usize],
                1 => vec![rng.random_range(1..=max_value); n as usize],
                2 => (0..n)
                    .map(|_| rng.random_range(1..=max_value.min(8)))
                    .collect(),
                3 => (0..n)
                    .map(|_| max_value - rng.random_range(0..max_value.min(4)))
                    .collect(),
                _ => (0..n).map(|_| rng.random_range(1..=max_value)).collect(),
            }
        };
        Game { k, piles }
    }
}

/// Whether a classic wrong rule for staircase Nim (xor of every gap, or xor of `p_i − i` over
/// the sorted positions) misjudges these positions.
fn staircase_mistakes_err(positions: &[u64]) -> bool {
    let mut sorted = positions.to_vec();
    sorted.sort_unstable();
    let truth = nim::staircase_first_wins(&sorted);
    let all_gaps = (0..sorted.len()).fold(0, |a, i| {
        a ^ (sorted[i] - if i == 0 { 0 } else { sorted[i - 1] } - 1)
    });
    let shifted = sorted
        .iter()
        .enumerate()
        .fold(0, |a, (i, &p)| a ^ (p - i as u64 - 1));
    (all_gaps != 0) != truth || (shifted != 0) != truth
}

/// Subtract-a-square over several piles, literally.
#[derive(Debug, Clone, Copy)]
struct SquareRules;

impl implicit::Game for SquareRules {
    type Position = Vec<u64>;
    fn moves(&self, piles: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut moves = Vec::new();
        for (i, &p) in piles.iter().enumerate() {
            for s in (1..).map(|j: u64| j * j).take_while(|&s| s <= p) {
                let mut next = piles.clone();
                next[i] -= s;
                next.sort_unstable();
                moves.push(next);
            }
        }
        moves
    }
}

#[derive(Debug, Clone)]
pub struct Game {
    /// Moore's Nim only: how many piles a move may take from.
    pub k: u32,
    pub piles: Vec<u64>,
}

#[derive(Debug)]
pub struct Input {
    pub games: Vec<Game>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_tests: u32,
    pub max_n: u32,
    pub max_value: u64,
}

impl Family for Piles {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let tests: u32 = reader.single("T", 1..=self.max_tests)?;
        let mut games = Vec::with_capacity(tests as usize);
        let mut total = 0u64;
        for _ in 0..tests {
            let (n, k) = if self.variant == Variant::Moore {
                let line = reader.line("the line \"n k\"")?;
                line.expect_len(2, "n k")?;
                let n: u32 = line.int(0, "n", 1..=self.max_n)?;
                (n, line.int(1, "k", 1..=n)?)
            } else {
                (reader.single("N", 1..=self.max_n)?, 0)
            };
            total += u64::from(n);
            if let Some(max_total) = self.max_total.filter(|&m| total > m) {
                return Err(ValidationError::new(
                    reader.line_number(),
                    format!("the piles of all tests number more than {max_total}"),
                ));
            }
            let piles: Vec<u64> = reader.values("a", n as usize, 1..=self.max_value)?;
            let twice = (self.variant == Variant::Staircase)
                .then(|| first_duplicate(&piles))
                .flatten();
            if let Some(cell) = twice {
                return Err(ValidationError::new(
                    reader.line_number(),
                    format!("two chessmen stand on cell {cell} (positions are distinct)"),
                ));
            }
            games.push(Game { k, piles });
        }
        reader.expect_eof()?;
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.games.len()]);
        for game in &input.games {
            if self.variant == Variant::Moore {
                push_line(&mut out, [game.piles.len() as u32, game.k]);
            } else {
                push_line(&mut out, [game.piles.len()]);
            }
            push_line(&mut out, &game.piles);
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_tests", p.max_tests.into(), 1, self.max_tests.into())?;
        within("max_n", p.max_n.into(), 1, self.max_n.into())?;
        within("max_value", p.max_value, 1, self.max_value)?;
        if self.variant == Variant::Staircase && u64::from(p.max_n) > p.max_value {
            return Err("max_n distinct positions need max_value ≥ max_n".into());
        }
        if let Some(max_total) = self.max_total {
            at_most(
                "max_tests × max_n",
                u64::from(p.max_tests) * u64::from(p.max_n),
                max_total,
            )?;
        }
        Ok(())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.games.len() as u64, p.max_tests.into())?;
        for game in &input.games {
            at_most("N", game.piles.len() as u64, p.max_n.into())?;
            at_most(
                "a pile",
                game.piles.iter().copied().max().unwrap_or(0),
                p.max_value,
            )?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let games = (0..p.max_tests as usize)
            .map(|g| match index {
                // Every game at the largest size and values.
                // (Staircase: scattered cells; its shape 0 is the packed block.)
                0 => {
                    let shape = if self.variant == Variant::Staircase {
                        2
                    } else {
                        3
                    };
                    self.random_game(rng, p.max_n, p.max_value, shape)
                }
                // Single piles and all-ones rows (the misère and parity traps).
                // Staircase: positions where the classic mistakes (xor of every gap, xor of
                // p_i − i) go wrong.
                1 if self.variant == Variant::Staircase => {
                    let n = rng.random_range(2..=p.max_n.max(2)).min(p.max_n);
                    let mut game = self.random_game(rng, n, p.max_value, 2);
                    for _ in 0..200 {
                        if staircase_mistakes_err(&game.piles) {
                            break;
                        }
                        game = self.random_game(rng, n, p.max_value, 2);
                    }
                    game
                }
                1 => {
                    let n = if g % 2 == 0 {
                        1
                    } else {
                        rng.random_range(1..=p.max_n)
                    };
                    self.random_game(rng, n, p.max_value, g)
                }
                _ => {
                    // Aim each game at a chosen answer, so both answers are common: random games
                    // mostly win, so losing ones are built on purpose.
                    let want = g % 2 == 0;
                    let n =
                        rng.random_range(1..=p.max_n.min(if index == 2 { p.max_n } else { 50 }));
                    let shape = rng.random_range(0..5);
                    let mut game = self.random_game(rng, n, p.max_value, shape);
                    for _ in 0..40 {
                        if n > 1000 || self.first_wins(&game) == want {
                            break;
                        }
                        let shape = rng.random_range(0..5);
                        game = self.random_game(rng, n, p.max_value, shape);
                    }
                    if !want && self.first_wins(&game) {
                        game = self.make_losing(game, rng, p.max_value);
                    }
                    game
                }
            })
            .collect();
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.games.iter().map(|g| self.word(self.first_wins(g))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let brute: Option<Vec<bool>> = input.games.iter().map(|g| self.brute_force(g)).collect();
        let mut checks = vec![CrossCheck::new(
            "brute force",
            brute.map(|b| lines(b.into_iter().map(|w| self.word(w)))),
        )];
        if self.variant == Variant::Lasker {
            let largest = input
                .games
                .iter()
                .flat_map(|g| g.piles.iter().copied())
                .max()
                .unwrap_or(0);
            let table = (largest <= 300).then(|| {
                let values = nim::lasker_grundy_table(largest as usize);
                lines(input.games.iter().map(|g| {
                    self.word(g.piles.iter().fold(0, |a, &p| a ^ values[p as usize]) != 0)
                }))
            });
            checks.push(CrossCheck::new("Grundy values by definition", table));
        }
        checks
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every sorted combination of up to three piles (cells) of size 1..=6, ten games an input.
        let mut games = Vec::new();
        for a in 1..=6u64 {
            games.push(vec![a]);
            for b in a..=6 {
                games.push(vec![a, b]);
                for c in b..=6 {
                    games.push(vec![a, b, c]);
                }
            }
        }
        let games: Vec<Game> = games
            .into_iter()
            .filter(|piles| {
                self.variant != Variant::Staircase || piles.windows(2).all(|w| w[0] < w[1])
            })
            .flat_map(|piles| {
                let ks: Vec<u32> = if self.variant == Variant::Moore {
                    (1..=piles.len() as u32).collect()
                } else {
                    vec![0]
                };
                ks.into_iter().map(move |k| Game {
                    k,
                    piles: piles.clone(),
                })
            })
            .filter(|g| self.variant != Variant::Moore || g.piles.iter().all(|&p| p <= 3))
            .collect();
        games
            .chunks(10)
            .map(|c| Input { games: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        let misere = Piles::misere();
        assert!(misere.parse("2\n3\n3 5 1\n1\n1\n").is_ok());
        assert_eq!(
            misere.parse("1\n48\n").unwrap_err().to_string(),
            "line 2: N = 48 is outside 1..=47"
        );
        assert_eq!(
            misere.parse("1\n2\n1 4748\n").unwrap_err().to_string(),
            "line 3: a_2 = 4748 is outside 1..=4747"
        );
        let moore = Piles::moore();
        assert!(moore.parse("1\n3 2\n1 2 3\n").is_ok());
        assert_eq!(
            moore.parse("1\n3 4\n1 2 3\n").unwrap_err().to_string(),
            "line 2: k = 4 is outside 1..=3"
        );
        let staircase = Piles::staircase();
        assert!(
            staircase.parse("1\n3\n3 1 2\n").is_ok(),
            "positions need not be sorted"
        );
        assert_eq!(
            staircase.parse("1\n3\n3 1 3\n").unwrap_err().to_string(),
            "line 3: two chessmen stand on cell 3 (positions are distinct)"
        );
        let square = Piles::square();
        let row = vec!["1"; 100_000].join(" ");
        let big = format!("3\n100000\n{row}\n100000\n{row}\n1\n1\n");
        assert_eq!(
            square.parse(&big).unwrap_err().to_string(),
            "line 6: the piles of all tests number more than 200000"
        );
        let lasker = Piles::lasker();
        assert!(lasker.parse("1\n1\n2147483647\n").is_ok());
        assert_eq!(
            lasker.parse("1\n1\n2147483648\n").unwrap_err().to_string(),
            "line 3: a_1 = 2147483648 is outside 1..=2147483647"
        );
    }
}
