//! Several-pile games read as `T` tests of a size line and a line of piles: misère Nim (POJ 3480),
//! Lasker's Nim (HDU 3032), Moore's Nim (own format, `n k`), subtract-a-square Nim (own format)
//! and staircase Nim (POJ 1704, chessmen positions in any order).

use super::piles_play::{LaskerNim, MisereNim, MooreNim, SquareNim, StaircaseNim};
use super::{at_most, first_duplicate, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
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
    /// The game on small piles, for people: built once, for subtract-a-square Nim from the
    /// values above.
    board: OnceLock<Box<dyn Board>>,
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
            board: OnceLock::new(),
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
    fn shaped_game(&self, rng: &mut TestRng, n: u32, max_value: u64, shape: usize) -> Game {
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

#[derive(Debug, Clone, PartialEq, Eq)]
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
                    self.shaped_game(rng, p.max_n, p.max_value, shape)
                }
                // Single piles and all-ones rows (the misère and parity traps).
                // Staircase: positions where the classic mistakes (xor of every gap, xor of
                // p_i − i) go wrong.
                1 if self.variant == Variant::Staircase => {
                    let n = rng.random_range(2..=p.max_n.max(2)).min(p.max_n);
                    let mut game = self.shaped_game(rng, n, p.max_value, 2);
                    for _ in 0..200 {
                        if staircase_mistakes_err(&game.piles) {
                            break;
                        }
                        game = self.shaped_game(rng, n, p.max_value, 2);
                    }
                    game
                }
                1 => {
                    let n = if g % 2 == 0 {
                        1
                    } else {
                        rng.random_range(1..=p.max_n)
                    };
                    self.shaped_game(rng, n, p.max_value, g)
                }
                _ => {
                    // Aim each game at a chosen answer, so both answers are common: random games
                    // mostly win, so losing ones are built on purpose.
                    let want = g % 2 == 0;
                    let n =
                        rng.random_range(1..=p.max_n.min(if index == 2 { p.max_n } else { 50 }));
                    let shape = rng.random_range(0..5);
                    let mut game = self.shaped_game(rng, n, p.max_value, shape);
                    for _ in 0..40 {
                        if n > 1000 || self.first_wins(&game) == want {
                            break;
                        }
                        let shape = rng.random_range(0..5);
                        game = self.shaped_game(rng, n, p.max_value, shape);
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// The game on a page: at most 8 piles of at most 100 (8 chessmen on cells 1 to 100).
    fn board(&self) -> Option<&dyn Board> {
        let board = self.board.get_or_init(|| match self.variant {
            Variant::Misere => Box::new(Played(MisereNim)),
            Variant::Lasker => Box::new(Played(LaskerNim)),
            Variant::Moore => Box::new(Played(MooreNim)),
            Variant::Square => Box::new(Played(SquareNim::new(self.square_values()))),
            Variant::Staircase => Box::new(Played(StaircaseNim)),
        });
        Some(board.as_ref())
    }
}

const SUM_PARITY: Misconception = Misconception {
    id: "sum-parity",
    title: "The parity of the total",
    text: "The program says John wins exactly when the total number of candies is odd. But a move \
           may eat any number of candies from a box, so that parity does not say who is forced \
           to eat the last candy: with one box of 2 candies John eats one and Brother must eat \
           the last, and with one box of a single candy John must eat it and loses. The rule: \
           when every box holds one candy, John wins iff the number of boxes is even; otherwise \
           he wins iff the nim-sum (the xor of the box sizes) is not 0.",
};

const MISERE_AS_NORMAL: Misconception = Misconception {
    id: "misere-as-normal",
    title: "Ordinary Nim's rule in the misère game",
    text: "The program uses the rule of ordinary Nim: John wins iff the nim-sum (the xor of the \
           box sizes) is not 0. Here the player who eats the last candy loses, and that changes \
           the answer when every box holds a single candy: the boxes are then eaten one per \
           move, and John wins exactly when their number is even. With one box of one candy the \
           nim-sum is 1, yet John must eat it and loses. As long as some box holds two candies \
           or more, the nim-sum rule is right.",
};

const LASKER_AS_NIM: Misconception = Misconception {
    id: "lasker-as-nim",
    title: "Nim without the split",
    text: "The program takes the xor of the pile sizes, as in ordinary Nim, and forgets that a \
           pile may also be split in two. The split changes the Grundy values of the piles: \
           g(4k+1) = 4k+1 and g(4k+2) = 4k+2, but g(4k+3) = 4k+4 and g(4k+4) = 4k+3, and the \
           first player loses iff the xor of these values is 0. With piles of 1, 2 and 3 the \
           xor of the sizes is 0, yet Alice wins by splitting the pile of 3 into 1 and 2 and \
           then copying every move of Bob on the twin pile.",
};

const NIM_K_MOD_K: Misconception = Misconception {
    id: "nim-k-mod-k",
    title: "Divisible by k instead of k + 1",
    text: "The program says Lan loses when, for every bit, the number of piles having that bit \
           is divisible by k. The right modulus is k + 1: a move lowers at most k piles, so when \
           every count is a multiple of k + 1 no move keeps them all multiples, and from any \
           other position some move makes them so. (Counts divisible by k are the rule of the \
           game where a move takes from at most k − 1 piles.) With k = 1 the program even says \
           every position is lost, yet Lan wins one pile by taking it whole.",
};

const NIM_K_AS_NIM: Misconception = Misconception {
    id: "nim-k-as-nim",
    title: "Ordinary Nim's rule, ignoring k",
    text: "The program takes the xor of the piles, that is, the count of every bit modulo 2, \
           which is the rule only for k = 1. When a move may take from up to k piles, the count \
           of each bit must be taken modulo k + 1, and Lan loses iff every count is divisible \
           by k + 1. With k = 2 and two piles of 1 the xor is 0, yet Lan empties both piles in \
           one move.",
};

const SQUARE_NIM_AS_NIM: Misconception = Misconception {
    id: "square-nim-as-nim",
    title: "Nim's xor of the pile sizes",
    text: "The program takes the xor of the pile sizes, as if any number of stones could be \
           removed. Only squares may be removed, so a pile counts by its Grundy value under that \
           rule, the smallest number that is not the value of a pile reachable in one move \
           (g(0) = 0, g(1) = 1, g(2) = 0, g(3) = 1, g(4) = 2, …), and Lan loses iff the xor of \
           these values is 0. With one pile of 2 stones Lan must take 1 and Minh takes the \
           last one.",
};

const STAIRCASE_ALL_GAPS: Misconception = Misconception {
    id: "staircase-all-gaps",
    title: "The xor of every gap",
    text: "The program sorts the cells and takes the xor of every gap p_i − p_{i−1} − 1 (with \
           p_0 = 0). But moving a chessman to the left shrinks its own gap and widens the gap of \
           the next chessman by as much, so the gaps are not independent Nim piles. Counted \
           from the right end, only every other gap is a pile (g_n, g_{n−2}, …): a move that \
           shrinks one of them is a Nim move, and a move that widens one is undone by moving \
           the next chessman left by as much. With chessmen on 2 and 3 the gaps 1 and 0 have \
           xor 1, yet Georgia's only move takes the chessman of 2 to 1, Bob moves the other \
           one to 2, and Georgia is stuck.",
};

const STAIRCASE_P_MINUS_I: Misconception = Misconception {
    id: "staircase-p-minus-i",
    title: "The xor of p_i − i",
    text: "The program sorts the cells and takes the xor of p_i − i, the number of free cells to \
           the left of the i-th chessman. Those numbers are not independent Nim piles: a \
           chessman cannot pass the one to its left, so p_i − i never drops below \
           p_{i−1} − (i − 1). The Nim piles are the gaps p_i − p_{i−1} − 1 (p_0 = 0), every \
           other one counted from the right end (g_n, g_{n−2}, …). With chessmen on 2, 3 and 5 the program's xor is 1 ⊕ 1 ⊕ 2 = 2, \
           but the counted gaps are g_3 = 1 and g_1 = 1, of xor 0: Bob wins.",
};

/// The gaps `p_i − p_{i−1} − 1` of sorted cells, with `p_0 = 0`.
pub(super) fn gaps(sorted: &[u64]) -> Vec<u64> {
    (0..sorted.len())
        .map(|i| sorted[i] - if i == 0 { 0 } else { sorted[i - 1] } - 1)
        .collect()
}

/// For every bit up to the highest one set, how many of `piles` have it.
fn bit_counts(piles: &[u64]) -> Vec<usize> {
    let top = piles
        .iter()
        .map(|&p| 64 - p.leading_zeros())
        .max()
        .unwrap_or(0);
    (0..top)
        .map(|bit| piles.iter().filter(|&&p| p >> bit & 1 == 1).count())
        .collect()
}

/// `n candies` with the right number.
fn candies(n: u64) -> String {
    if n == 1 {
        "1 candy".to_owned()
    } else {
        format!("{n} candies")
    }
}

/// `n stones` with the right number.
fn stones(n: u64) -> String {
    if n == 1 {
        "1 stone".to_owned()
    } else {
        format!("{n} stones")
    }
}

/// `g(a) = v` for every distinct pile of `piles`, in order of first appearance.
fn values_text(piles: &[u64], value: impl Fn(u64) -> u64) -> String {
    let mut seen = Vec::new();
    for &p in piles {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    let terms: Vec<String> = seen
        .iter()
        .map(|&p| format!("g({p}) = {}", value(p)))
        .collect();
    terms.join(", ")
}

impl Piles {
    fn square_value(&self, pile: u64) -> u64 {
        self.square_values()[pile as usize].into()
    }

    fn misere_certificate(&self, piles: &[u64]) -> Certificate {
        let n = piles.len();
        if piles.iter().all(|&p| p == 1) {
            return if n.is_multiple_of(2) {
                Certificate {
                    en: format!(
                        "John wins: every box holds a single candy, so every move empties \
                         exactly one box. The number of boxes, {n}, is even: they are emptied \
                         in turn, and Brother empties the last one, eating the last candy."
                    ),
                    vi: format!(
                        "John thắng: mỗi hộp chỉ có một viên kẹo, nên mỗi nước đi ăn hết đúng \
                         một hộp. Số hộp là {n}, một số chẵn: hai người lần lượt ăn từng hộp, và \
                         người anh (Brother) phải ăn hộp cuối cùng, tức là viên kẹo cuối cùng."
                    ),
                }
            } else {
                Certificate {
                    en: format!(
                        "Brother wins: every box holds a single candy, so every move empties \
                         exactly one box. The number of boxes, {n}, is odd: they are emptied in \
                         turn, and John empties the last one, eating the last candy."
                    ),
                    vi: format!(
                        "Người anh (Brother) thắng: mỗi hộp chỉ có một viên kẹo, nên mỗi nước \
                         đi ăn hết đúng một hộp. Số hộp là {n}, một số lẻ: hai người lần lượt \
                         ăn từng hộp, và John phải ăn hộp cuối cùng, tức là viên kẹo cuối cùng."
                    ),
                }
            };
        }
        let sum = nim::nim_sum(piles.iter().copied());
        let text = nim_sum_text(piles);
        if sum == 0 {
            return Certificate {
                en: format!(
                    "Brother wins: some box holds more than one candy and the nim-sum (the xor \
                     of the box sizes) is {text}, so at least two boxes hold more than one \
                     candy. Every move of John makes the nim-sum non-zero. Brother answers as in \
                     ordinary Nim, making it 0 again, until John leaves a single box with more \
                     than one candy; then Brother empties that box or leaves one candy in it, \
                     whichever leaves an odd number of boxes of one candy. From there every \
                     move empties one box, and John eats the last candy."
                ),
                vi: format!(
                    "Người anh (Brother) thắng: có hộp nhiều hơn một viên kẹo và tổng nim (xor \
                     số kẹo của các hộp) là {text}, nên có ít nhất hai hộp nhiều hơn một viên. \
                     Mọi nước đi của John đều làm tổng nim khác 0. Người anh đáp trả như trong \
                     Nim thông thường, đưa tổng nim về 0, cho đến khi John để lại đúng một hộp \
                     nhiều hơn một viên; khi đó người anh ăn hết hộp đó hoặc để lại trong đó \
                     một viên, sao cho số hộp chỉ có một viên là số lẻ. Từ đó mỗi nước đi ăn \
                     hết một hộp, và John phải ăn viên kẹo cuối cùng."
                ),
            };
        }
        let big: Vec<u64> = piles.iter().copied().filter(|&p| p > 1).collect();
        if let [from] = big[..] {
            // Leave an odd number of boxes of one candy.
            let ones = n as u64 - 1;
            let (take, left) = if ones % 2 == 1 {
                (from, ones)
            } else {
                (from - 1, ones + 1)
            };
            let (left_en, left_vi) = if left == 1 {
                (
                    "a single box of one candy, which Brother must eat: it is the last candy"
                        .to_owned(),
                    "đúng một hộp có một viên kẹo, và người anh buộc phải ăn nó: đó là viên kẹo \
                     cuối cùng"
                        .to_owned(),
                )
            } else {
                (
                    format!(
                        "{left} boxes of one candy each, an odd number: from then on every move \
                         empties one box, and Brother eats the last candy"
                    ),
                    format!(
                        "{left} hộp, mỗi hộp một viên, một số lẻ: từ đó mỗi nước đi ăn hết một \
                         hộp, và người anh phải ăn viên kẹo cuối cùng"
                    ),
                )
            };
            return Certificate {
                en: format!(
                    "John wins: only the box of {} holds more than one candy. Eating {} from it \
                     leaves {left_en}.",
                    candies(from),
                    candies(take)
                ),
                vi: format!(
                    "John thắng: chỉ có hộp {from} viên là có nhiều hơn một viên kẹo. Ăn {take} \
                     viên từ hộp đó để lại {left_vi}."
                ),
            };
        }
        let (i, &from) = piles
            .iter()
            .enumerate()
            .find(|&(_, &p)| p ^ sum < p)
            .expect("a pile holds the nim-sum's highest bit");
        let mut after = piles.to_vec();
        after[i] = from ^ sum;
        let left: Vec<u64> = after.iter().copied().filter(|&p| p > 0).collect();
        let take = from - after[i];
        let left = nim_sum_text(&left);
        Certificate {
            en: format!(
                "John wins: at least two boxes hold more than one candy and the nim-sum (the \
                 xor of the box sizes) is {text} ≠ 0. Eating {} from the box of {} leaves \
                 boxes of nim-sum {left}, still with at least two boxes of more than one candy. \
                 That is lost for Brother: John answers every move as in ordinary Nim until a \
                 single box with more than one candy is left, then empties it or leaves one \
                 candy in it, so that an odd number of boxes of one candy remain.",
                candies(take),
                candies(from)
            ),
            vi: format!(
                "John thắng: có ít nhất hai hộp nhiều hơn một viên kẹo và tổng nim (xor số kẹo \
                 của các hộp) là {text} ≠ 0. Ăn {take} viên từ hộp {from} viên để lại các hộp \
                 có tổng nim {left}, vẫn có ít nhất hai hộp nhiều hơn một viên. Đó là thế thua \
                 cho người anh: John đáp trả mọi nước đi như trong Nim thông thường cho đến khi \
                 chỉ còn một hộp nhiều hơn một viên, rồi ăn hết hộp đó hoặc để lại trong đó một \
                 viên, sao cho số hộp chỉ có một viên là số lẻ."
            ),
        }
    }

    fn lasker_certificate(&self, piles: &[u64]) -> Certificate {
        let g = nim::lasker_grundy;
        let values: Vec<u64> = piles.iter().map(|&p| g(p)).collect();
        let sum = nim::nim_sum(values.iter().copied());
        let text = nim_sum_text(&values);
        let list = values_text(piles, g);
        let rule_en = format!(
            "The Grundy values of piles in this game are g(4k+1) = 4k+1, g(4k+2) = 4k+2, \
             g(4k+3) = 4k+4 and g(4k+4) = 4k+3; here {list}."
        );
        let rule_vi = format!(
            "Giá trị Grundy của một đống trong trò chơi này là g(4k+1) = 4k+1, g(4k+2) = 4k+2, \
             g(4k+3) = 4k+4 và g(4k+4) = 4k+3; ở đây {list}."
        );
        if sum == 0 {
            return Certificate {
                en: format!(
                    "Bob wins. {rule_en} Their xor is {text}. Every move replaces the value of \
                     one pile by another one (a removal by the value of the smaller pile, a \
                     split by the xor of the values of the two new piles), so it makes the xor \
                     non-zero, and Bob can always make it 0 again, until Alice has no move left."
                ),
                vi: format!(
                    "Bob thắng. {rule_vi} Xor của chúng là {text}. Mỗi nước đi thay giá trị của \
                     một đống bằng một giá trị khác (bốc đá: giá trị của đống nhỏ hơn; tách \
                     đống: xor giá trị của hai đống mới), nên làm xor khác 0, và Bob luôn đưa \
                     được xor về 0, cho đến khi Alice không còn nước đi."
                ),
            };
        }
        let (i, &from) = piles
            .iter()
            .enumerate()
            .find(|&(i, _)| values[i] ^ sum < values[i])
            .expect("a pile's value holds the xor's highest bit");
        let target = values[i] ^ sum;
        // The pile of value `target`, if it is smaller: g is a bijection of the positive numbers.
        let rest = match target % 4 {
            0 if target == 0 => 0,
            0 => target - 1,
            3 => target + 1,
            _ => target,
        };
        let mut after: Vec<u64> = values.clone();
        after.remove(i);
        let (move_en, move_vi) = if rest < from {
            if rest > 0 {
                after.insert(i, target);
            }
            if rest == 0 {
                (
                    format!("Removing the whole pile of {from}"),
                    format!("Bốc hết đống {from} viên"),
                )
            } else {
                (
                    format!(
                        "Removing {} from the pile of {from} leaves a pile of {rest}, of value \
                         {target}, and",
                        stones(from - rest)
                    ),
                    format!(
                        "Bốc {} viên từ đống {from} viên, còn lại đống {rest} viên có giá trị \
                         {target}, và",
                        from - rest
                    ),
                )
            }
        } else {
            let a = (1..=from / 2)
                .find(|&a| g(a) ^ g(from - a) == target)
                .expect("a split reaches every smaller value a removal does not");
            let b = from - a;
            after.insert(i, g(b));
            after.insert(i, g(a));
            (
                format!(
                    "Splitting the pile of {from} into piles of {a} and {b}, of values {} ⊕ {} = \
                     {target},",
                    g(a),
                    g(b)
                ),
                format!(
                    "Tách đống {from} viên thành hai đống {a} và {b} viên, có giá trị {} ⊕ {} = \
                     {target},",
                    g(a),
                    g(b)
                ),
            )
        };
        let (result_en, result_vi) = if after.is_empty() {
            (
                "leaves no stones at all, and Bob cannot move".to_owned(),
                "không để lại viên đá nào, và Bob không thể đi".to_owned(),
            )
        } else {
            let after = nim_sum_text(&after);
            (
                format!(
                    "makes the xor of the values {after}, lost for Bob: every move of his makes \
                     the xor non-zero, and Alice makes it 0 again"
                ),
                format!(
                    "làm xor các giá trị bằng {after}, là thế thua cho Bob: mọi nước đi của Bob \
                     làm xor khác 0, và Alice lại đưa nó về 0"
                ),
            )
        };
        Certificate {
            en: format!("Alice wins. {rule_en} Their xor is {text} ≠ 0. {move_en} {result_en}."),
            vi: format!(
                "Alice thắng. {rule_vi} Xor của chúng là {text} ≠ 0. {move_vi} {result_vi}."
            ),
        }
    }

    fn moore_certificate(&self, piles: &[u64], k: u32) -> Certificate {
        let modulus = k as usize + 1;
        let counts = bit_counts(piles);
        let mut distinct = Vec::new();
        for &p in piles {
            if !distinct.contains(&p) {
                distinct.push(p);
            }
        }
        let binary: Vec<String> = distinct.iter().map(|p| format!("{p} → {p:b}")).collect();
        let binary = binary.join(", ");
        let pile_word = |c: usize| if c == 1 { "pile" } else { "piles" };
        let list_en: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(bit, &c)| {
                format!(
                    "bit worth {}: {c} {} ({c} mod {modulus} = {})",
                    1u64 << bit,
                    pile_word(c),
                    c % modulus
                )
            })
            .collect();
        let list_vi: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(bit, &c)| {
                format!(
                    "bit giá trị {}: {c} đống ({c} mod {modulus} = {})",
                    1u64 << bit,
                    c % modulus
                )
            })
            .collect();
        let (list_en, list_vi) = (list_en.join("; "), list_vi.join("; "));
        let (lowers_en, lowers_vi, drop) = if k == 1 {
            (
                "exactly one pile".to_owned(),
                "đúng một đống".to_owned(),
                "1".to_owned(),
            )
        } else {
            (
                format!("from 1 to {k} piles"),
                format!("từ 1 đến {k} đống"),
                format!("1 to {k}"),
            )
        };
        let facts_en = format!(
            "With k = {k} a move lowers {lowers_en}. In binary the piles are {binary}; the \
             number of piles having each bit, modulo k + 1 = {modulus}: {list_en}."
        );
        let facts_vi = format!(
            "Với k = {k}, mỗi nước đi làm giảm {lowers_vi}. Ở hệ nhị phân các đống là {binary}; \
             số đống có từng bit, lấy theo modulo k + 1 = {modulus}: {list_vi}."
        );
        match counts.iter().rposition(|c| c % modulus != 0) {
            None => Certificate {
                en: format!(
                    "Lan, the first player, loses (Second). {facts_en} Every count is divisible \
                     by {modulus}. A move lowers {lowers_en}, and in the highest bit where a \
                     lowered pile changes, every pile that changes there loses that bit: that \
                     count drops by {drop} and is no longer divisible by {modulus}. Minh can \
                     always answer by making every count divisible again, until Lan has no move."
                ),
                vi: format!(
                    "Lan, người đi trước, thua (Second). {facts_vi} Mọi số đếm đều chia hết cho \
                     {modulus}. Mỗi nước đi làm giảm {lowers_vi}, và ở bit cao nhất mà một đống \
                     bị giảm thay đổi, mọi đống thay đổi ở bit đó đều mất bit đó: số đếm của \
                     bit đó giảm đi {drop} nên không còn chia hết cho {modulus}. Minh \
                     luôn đáp trả được để mọi số đếm lại chia hết, cho đến khi Lan không còn \
                     nước đi."
                ),
            },
            Some(bit) => {
                let (worth, c) = (1u64 << bit, counts[bit]);
                Certificate {
                    en: format!(
                        "Lan, the first player, wins (First). {facts_en} The bit worth {worth} \
                         is in {c} {}, not a multiple of {modulus}. Going from that bit down, \
                         Lan can lower at most {k} {} so that every count becomes divisible \
                         by {modulus}, a position lost for Minh: any move of his breaks a \
                         count, and Lan repairs it again.",
                        pile_word(c),
                        pile_word(k as usize)
                    ),
                    vi: format!(
                        "Lan, người đi trước, thắng (First). {facts_vi} Bit giá trị {worth} có \
                         ở {c} đống, không phải bội của {modulus}. Xét từ bit đó xuống các bit \
                         thấp hơn, Lan giảm được không quá {k} đống sao cho mọi số đếm đều chia \
                         hết cho {modulus}, là thế thua cho Minh: mọi nước đi của Minh làm một \
                         số đếm không còn chia hết, và Lan lại sửa được."
                    ),
                }
            }
        }
    }

    fn square_certificate(&self, piles: &[u64]) -> Certificate {
        let values: Vec<u64> = piles.iter().map(|&p| self.square_value(p)).collect();
        let sum = nim::nim_sum(values.iter().copied());
        let text = nim_sum_text(&values);
        let list = values_text(piles, |p| self.square_value(p));
        let rule_en = format!(
            "The Grundy value of a pile under this rule is the smallest number that is not the \
             value of a pile reachable by removing a square: g(0) = 0, g(1) = 1, g(2) = 0, \
             g(3) = 1, g(4) = 2, …; here {list}."
        );
        let rule_vi = format!(
            "Giá trị Grundy của một đống theo luật này là số nhỏ nhất không phải giá trị của \
             một đống đạt được bằng cách bốc một số chính phương: g(0) = 0, g(1) = 1, \
             g(2) = 0, g(3) = 1, g(4) = 2, …; ở đây {list}."
        );
        if sum == 0 {
            return Certificate {
                en: format!(
                    "Lan, the first player, loses (Second). {rule_en} Their xor is {text}. \
                     Every move changes the value of one pile, so it makes the xor non-zero, \
                     and Minh can always make it 0 again, until Lan has no move left."
                ),
                vi: format!(
                    "Lan, người đi trước, thua (Second). {rule_vi} Xor của chúng là {text}. Mỗi \
                     nước đi đổi giá trị của đúng một đống nên làm xor khác 0, và Minh luôn đưa \
                     được xor về 0, cho đến khi Lan không còn nước đi."
                ),
            };
        }
        let (i, &from) = piles
            .iter()
            .enumerate()
            .find(|&(i, _)| values[i] ^ sum < values[i])
            .expect("a pile's value holds the xor's highest bit");
        let target = values[i] ^ sum;
        let square = (1u64..)
            .map(|j| j * j)
            .take_while(|&s| s <= from)
            .find(|&s| self.square_value(from - s) == target)
            .expect("a smaller value is reachable: it is below the mex");
        let rest = from - square;
        let mut after = values.clone();
        after.remove(i);
        if rest > 0 {
            after.insert(i, target);
        }
        let (move_en, move_vi) = if rest == 0 {
            (
                format!("Removing the whole pile of {from} ({from} is a square)"),
                format!("Bốc hết đống {from} viên ({from} là số chính phương)"),
            )
        } else {
            (
                format!(
                    "Removing {} from the pile of {from} leaves a pile of {rest}, of value \
                     g({rest}) = {target}, and",
                    stones(square)
                ),
                format!(
                    "Bốc {square} viên từ đống {from} viên để lại đống {rest} viên có giá trị \
                     g({rest}) = {target}, và"
                ),
            )
        };
        let (result_en, result_vi) = if after.is_empty() {
            (
                "leaves no stones at all, and Minh cannot move".to_owned(),
                "không để lại viên đá nào, và Minh không thể đi".to_owned(),
            )
        } else {
            let after = nim_sum_text(&after);
            (
                format!(
                    "makes the xor {after}, lost for Minh: every move of his makes it non-zero \
                     and Lan makes it 0 again"
                ),
                format!(
                    "làm xor bằng {after}, là thế thua cho Minh: mọi nước đi của Minh làm xor \
                     khác 0 và Lan lại đưa nó về 0"
                ),
            )
        };
        Certificate {
            en: format!(
                "Lan, the first player, wins (First). {rule_en} Their xor is {text} ≠ 0. \
                 {move_en} {result_en}."
            ),
            vi: format!(
                "Lan, người đi trước, thắng (First). {rule_vi} Xor của chúng là {text} ≠ 0. \
                 {move_vi} {result_vi}."
            ),
        }
    }

    fn staircase_certificate(&self, cells: &[u64]) -> Certificate {
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        let gaps = gaps(&sorted);
        let n = sorted.len();
        // 0-based indices of the counted gaps, i = n, n − 2, … in 1-based terms.
        let counted: Vec<usize> = (0..n).rev().step_by(2).collect();
        let counted_values: Vec<u64> = counted.iter().map(|&i| gaps[i]).collect();
        let sum = nim::nim_sum(counted_values.iter().copied());
        let join = |v: &[u64]| {
            let v: Vec<String> = v.iter().map(u64::to_string).collect();
            v.join(", ")
        };
        let counted_list: Vec<String> = counted
            .iter()
            .map(|&i| format!("g_{} = {}", i + 1, gaps[i]))
            .collect();
        let counted_list = counted_list.join(", ");
        let text = nim_sum_text(&counted_values);
        let (cells_en, gaps_en, cells_vi, gaps_vi) = if n == 1 {
            (
                "The chessman stands on cell",
                "The gap",
                "Quân cờ đứng ở ô",
                "Khoảng trống",
            )
        } else {
            (
                "Sorted, the chessmen stand on cells",
                "The gaps",
                "Sắp xếp lại, các quân cờ đứng ở các ô",
                "Các khoảng trống",
            )
        };
        let facts_en = format!(
            "{cells_en} {}. {gaps_en} g_i = p_i − p_{{i−1}} − 1 (the free cells between a \
             chessman and the one to its left, or the start of the row; p_0 = 0): {}. Counted \
             from the right end, every other gap is a Nim pile: {counted_list}, of xor {text}.",
            join(&sorted),
            join(&gaps)
        );
        let facts_vi = format!(
            "{cells_vi} {}. {gaps_vi} g_i = p_i − p_{{i−1}} − 1 (số ô trống giữa một quân cờ và \
             quân ngay bên trái nó, hoặc đầu hàng; p_0 = 0): {}. Tính từ đầu bên phải, cứ cách \
             một khoảng lấy một khoảng, các khoảng được lấy là các đống Nim: {counted_list}, có \
             xor {text}.",
            join(&sorted),
            join(&gaps)
        );
        if sum == 0 {
            return Certificate {
                en: format!(
                    "Bob wins. {facts_en} A move takes a chessman left: its own gap shrinks and \
                     the gap of the next chessman widens by as much. If the move shrinks a \
                     counted gap, the xor becomes non-zero and Bob answers as in Nim; if it \
                     widens a counted gap, Bob moves that next chessman left by as much. Either \
                     way the xor is 0 again, until Georgia has no move."
                ),
                vi: format!(
                    "Bob thắng. {facts_vi} Mỗi nước đi đưa một quân cờ sang trái: khoảng trống \
                     của nó giảm và khoảng trống của quân ngay bên phải tăng đúng bấy nhiêu. \
                     Nếu nước đi làm giảm một khoảng được lấy, xor khác 0 và Bob đáp trả như \
                     trong Nim; nếu nước đi làm tăng một khoảng được lấy, Bob đi quân tiếp theo \
                     đó sang trái đúng bấy nhiêu ô. Cách nào xor cũng lại bằng 0, cho đến khi \
                     Georgia không còn nước đi."
                ),
            };
        }
        let i = counted
            .iter()
            .copied()
            .find(|&i| gaps[i] ^ sum < gaps[i])
            .expect("a counted gap holds the xor's highest bit");
        let (gap, less) = (gaps[i], gaps[i] ^ sum);
        let (from, by) = (sorted[i], gap - less);
        let to = from - by;
        Certificate {
            en: format!(
                "Georgia wins. {facts_en} That xor is not 0. Moving the chessman on cell {from} \
                 left by {by} to cell {to} shrinks g_{} from {gap} to {less} and makes the xor \
                 0, lost for Bob: Georgia answers his moves as in Nim, and a move of his that \
                 widens a counted gap is undone by moving the next chessman left by as much.",
                i + 1
            ),
            vi: format!(
                "Georgia thắng. {facts_vi} Xor đó khác 0. Đi quân cờ ở ô {from} sang trái {by} \
                 ô, tới ô {to}, làm g_{} giảm từ {gap} xuống {less} và đưa xor về 0, là thế \
                 thua cho Bob: Georgia đáp trả như trong Nim, và nếu Bob làm tăng một khoảng \
                 được lấy thì Georgia đi quân tiếp theo đó sang trái đúng bấy nhiêu ô.",
                i + 1
            ),
        }
    }
}

impl Explain for Piles {
    type Game = Game;

    fn small_games(&self) -> Vec<Game> {
        // Every game up to a total of its piles (cells), all of them: a smaller game than one of
        // these is one of these too.
        let (total, distinct) = match self.variant {
            Variant::Misere | Variant::Lasker => (12, false),
            Variant::Square => (11, false),
            Variant::Moore => (8, false),
            Variant::Staircase => (18, true),
        };
        fn extend(piles: &mut Vec<u64>, left: u64, distinct: bool, all: &mut Vec<Vec<u64>>) {
            if !piles.is_empty() {
                all.push(piles.clone());
            }
            let from = piles.last().map_or(1, |&p| p + u64::from(distinct));
            for p in from..=left {
                piles.push(p);
                extend(piles, left - p, distinct, all);
                piles.pop();
            }
        }
        let mut all = Vec::new();
        extend(&mut Vec::new(), total, distinct, &mut all);
        let mut games: Vec<Game> = all
            .into_iter()
            .flat_map(|piles| {
                let ks = if self.variant == Variant::Moore {
                    1..=piles.len() as u32
                } else {
                    0..=0
                };
                ks.map(move |k| Game {
                    k,
                    piles: piles.clone(),
                })
            })
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Game {
        let n = rng.random_range(1..=5u32);
        if self.variant == Variant::Staircase {
            // Distinct cells, in any order, as the statement allows.
            let piles = rand::seq::index::sample(rng, 30, n as usize)
                .into_iter()
                .map(|c| c as u64 + 1)
                .collect();
            return Game { k: 0, piles };
        }
        let k = if self.variant == Variant::Moore {
            rng.random_range(1..=n)
        } else {
            0
        };
        // Small piles now and then: the all-ones rows of misère Nim.
        let top = if rng.random_bool(0.25) { 2 } else { 20 };
        let piles = (0..n).map(|_| rng.random_range(1..=top)).collect();
        Game { k, piles }
    }

    fn games_per_input(&self) -> usize {
        self.max_tests as usize
    }

    fn input_of(&self, games: &[Game]) -> Input {
        debug_assert!(games.len() <= self.max_tests as usize);
        debug_assert!(
            self.max_total
                .is_none_or(|m| { games.iter().map(|g| g.piles.len() as u64).sum::<u64>() <= m })
        );
        Input {
            games: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Game> {
        input.games.clone()
    }

    fn answer(&self, game: &Game) -> String {
        self.word(self.first_wins(game)).to_owned()
    }

    fn size(&self, game: &Game) -> u64 {
        let total: u64 = game.piles.iter().sum();
        let size = total
            .saturating_mul(32)
            .saturating_add(game.piles.len() as u64);
        if self.variant == Variant::Moore {
            size.saturating_mul(128).saturating_add(game.k.into())
        } else {
            size
        }
    }

    fn shrink(&self, game: &Game) -> Vec<Game> {
        let mut smaller: Vec<Game> = Vec::new();
        let mut push = |piles: Vec<u64>, k: u32| {
            let game = Game { k, piles };
            if !smaller.contains(&game) {
                smaller.push(game);
            }
        };
        let n = game.piles.len();
        if self.variant == Variant::Staircase {
            let mut cells = game.piles.clone();
            cells.sort_unstable();
            let gaps = gaps(&cells);
            for i in 0..n {
                if n > 1 {
                    // A chessman fewer, the others where they were…
                    let mut fewer = cells.clone();
                    fewer.remove(i);
                    push(fewer.clone(), 0);
                    // …or with its gap: the chessmen to its right keep their gaps.
                    for cell in &mut fewer[i..] {
                        *cell -= gaps[i] + 1;
                    }
                    push(fewer, 0);
                }
                // A smaller gap: this chessman and those to its right move left together.
                for less in [gaps[i] / 2, gaps[i].saturating_sub(1)] {
                    if less < gaps[i] {
                        let mut closer = cells.clone();
                        for cell in &mut closer[i..] {
                            *cell -= gaps[i] - less;
                        }
                        push(closer, 0);
                    }
                }
            }
        } else {
            for i in 0..n {
                if n > 1 {
                    let mut fewer = game.piles.clone();
                    fewer.remove(i);
                    // Moore's k stays within 1..=n.
                    push(fewer, game.k.min(n as u32 - 1));
                }
                let pile = game.piles[i];
                for less in [pile / 2, pile - 1] {
                    if (1..pile).contains(&less) {
                        let mut lower = game.piles.clone();
                        lower[i] = less;
                        push(lower, game.k);
                    }
                }
            }
            if self.variant == Variant::Moore && game.k > 1 {
                push(game.piles.clone(), game.k - 1);
            }
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller
    }

    fn certificate(&self, game: &Game) -> Certificate {
        match self.variant {
            Variant::Misere => self.misere_certificate(&game.piles),
            Variant::Lasker => self.lasker_certificate(&game.piles),
            Variant::Moore => self.moore_certificate(&game.piles, game.k),
            Variant::Square => self.square_certificate(&game.piles),
            Variant::Staircase => self.staircase_certificate(&game.piles),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        match self.variant {
            Variant::Misere => &[SUM_PARITY, MISERE_AS_NORMAL],
            Variant::Lasker => &[LASKER_AS_NIM],
            Variant::Moore => &[NIM_K_MOD_K, NIM_K_AS_NIM],
            Variant::Square => &[SQUARE_NIM_AS_NIM],
            Variant::Staircase => &[STAIRCASE_ALL_GAPS, STAIRCASE_P_MINUS_I],
        }
    }

    fn misconceived(&self, id: &str, game: &Game) -> Option<String> {
        if !self.misconceptions().iter().any(|m| m.id == id) {
            return None;
        }
        let piles = &game.piles;
        let mut sorted = piles.clone();
        sorted.sort_unstable();
        let first_wins = match id {
            "sum-parity" => piles.iter().sum::<u64>() % 2 == 1,
            "misere-as-normal" | "lasker-as-nim" | "nim-k-as-nim" | "square-nim-as-nim" => {
                nim::nim_sum(piles.iter().copied()) != 0
            }
            "nim-k-mod-k" => bit_counts(piles).iter().any(|&c| c % game.k as usize != 0),
            "staircase-all-gaps" => nim::nim_sum(gaps(&sorted)) != 0,
            "staircase-p-minus-i" => nim::nim_sum(sorted.iter().zip(1..).map(|(&p, i)| p - i)) != 0,
            _ => return None,
        };
        Some(self.word(first_wins).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::{self, Attempt, Bounds, Finding};
    use crate::families;
    use rand::SeedableRng;

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

    /// A rule or a student's strategy: whether the first player wins, from `k` (0 but in Moore's
    /// Nim) and the piles (cells) as the input gives them.
    type Rule = fn(u32, &[u64]) -> bool;

    const SLUGS: [&str; 5] = [
        "misere-nim",
        "lasker-nim",
        "nim-k",
        "square-nim",
        "staircase-nim",
    ];

    fn family(slug: &str) -> Piles {
        match slug {
            "misere-nim" => Piles::misere(),
            "lasker-nim" => Piles::lasker(),
            "nim-k" => Piles::moore(),
            "square-nim" => Piles::square(),
            "staircase-nim" => Piles::staircase(),
            _ => unreachable!("{slug}"),
        }
    }

    fn xor(values: impl IntoIterator<Item = u64>) -> u64 {
        values.into_iter().fold(0, |a, b| a ^ b)
    }

    // The rules of games.md, written out again here.

    /// Misère Nim: first wins iff (every pile ≤ 1 and the xor is 0) or (some pile > 1 and the
    /// xor is non-zero).
    fn misere_rule(_: u32, piles: &[u64]) -> bool {
        let x = xor(piles.iter().copied());
        if piles.iter().all(|&p| p <= 1) {
            x == 0
        } else {
            x != 0
        }
    }

    /// g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3.
    fn lasker_value(s: u64) -> u64 {
        match s % 4 {
            1 | 2 => s,
            3 => s + 1,
            _ => s - 1,
        }
    }

    fn lasker_rule(_: u32, piles: &[u64]) -> bool {
        xor(piles.iter().map(|&s| lasker_value(s))) != 0
    }

    /// Moore's Nim: first loses iff every bit is set in a multiple of k + 1 piles.
    fn moore_rule(k: u32, piles: &[u64]) -> bool {
        (0..64)
            .any(|bit| piles.iter().filter(|&&p| p >> bit & 1 == 1).count() % (k as usize + 1) != 0)
    }

    /// Subtract-a-square Grundy values by their definition (mex over the squares).
    fn square_value(pile: u64) -> u64 {
        let mut values: Vec<u64> = Vec::new();
        for n in 0..=pile {
            let reachable: Vec<u64> = (1..)
                .map(|j| j * j)
                .take_while(|&s| s <= n)
                .map(|s| values[(n - s) as usize])
                .collect();
            values.push((0..).find(|v| !reachable.contains(v)).unwrap());
        }
        values[pile as usize]
    }

    fn square_rule(_: u32, piles: &[u64]) -> bool {
        xor(piles.iter().map(|&p| square_value(p))) != 0
    }

    fn sorted_gaps(cells: &[u64]) -> Vec<u64> {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        let mut previous = 0;
        cells
            .iter()
            .map(|&c| {
                let gap = c - previous - 1;
                previous = c;
                gap
            })
            .collect()
    }

    /// Staircase Nim: sorted, the xor of the gaps p_i − p_{i−1} − 1 for i = n, n − 2, …
    fn staircase_rule(_: u32, cells: &[u64]) -> bool {
        xor(sorted_gaps(cells).into_iter().rev().step_by(2)) != 0
    }

    fn rule_of(slug: &str) -> Rule {
        match slug {
            "misere-nim" => misere_rule,
            "lasker-nim" => lasker_rule,
            "nim-k" => moore_rule,
            "square-nim" => square_rule,
            "staircase-nim" => staircase_rule,
            _ => unreachable!("{slug}"),
        }
    }

    // The misconceptions, from their descriptions.

    fn sum_parity(_: u32, piles: &[u64]) -> bool {
        piles.iter().sum::<u64>() % 2 == 1
    }

    fn plain_xor(_: u32, piles: &[u64]) -> bool {
        xor(piles.iter().copied()) != 0
    }

    fn divisible_by_k(k: u32, piles: &[u64]) -> bool {
        (0..64).any(|bit| piles.iter().filter(|&&p| p >> bit & 1 == 1).count() % k as usize != 0)
    }

    fn all_gaps(_: u32, cells: &[u64]) -> bool {
        xor(sorted_gaps(cells)) != 0
    }

    fn p_minus_i(_: u32, cells: &[u64]) -> bool {
        let mut cells = cells.to_vec();
        cells.sort_unstable();
        xor(cells.iter().enumerate().map(|(i, &p)| p - (i as u64 + 1))) != 0
    }

    /// A program that answers every game of an input by `rule`, reading the input by hand.
    fn program(slug: &str, rule: Rule) -> impl FnMut(&str) -> Attempt {
        let moore = slug == "nim-k";
        let words = match slug {
            "misere-nim" => ["John", "Brother"],
            "lasker-nim" => ["Alice", "Bob"],
            "staircase-nim" => ["Georgia will win", "Bob will win"],
            _ => ["First", "Second"],
        };
        move |input: &str| {
            let mut tokens = input
                .split_ascii_whitespace()
                .map(|t| t.parse::<u64>().unwrap());
            let mut out = String::new();
            for _ in 0..tokens.next().unwrap() {
                let n = tokens.next().unwrap() as usize;
                let k = if moore {
                    tokens.next().unwrap() as u32
                } else {
                    0
                };
                let piles: Vec<u64> = tokens.by_ref().take(n).collect();
                out.push_str(words[usize::from(!rule(k, &piles))]);
                out.push('\n');
            }
            Attempt::Output(out)
        }
    }

    fn explain(slug: &str, rule: Rule) -> Finding {
        let solver = families::by_name(slug).unwrap();
        explain::search(
            solver.explainer().unwrap(),
            true,
            Bounds::default(),
            &mut program(slug, rule),
        )
    }

    /// The input holding `game` alone, written by hand.
    fn one_game(slug: &str, game: &Game) -> String {
        let piles: Vec<String> = game.piles.iter().map(u64::to_string).collect();
        let n = game.piles.len();
        if slug == "nim-k" {
            format!("1\n{n} {}\n{}\n", game.k, piles.join(" "))
        } else {
            format!("1\n{n}\n{}\n", piles.join(" "))
        }
    }

    /// The first of the family's small games (smallest first) on which `strategy` and the rule
    /// disagree.
    fn first_failure(slug: &str, strategy: Rule) -> String {
        let rule = rule_of(slug);
        let game = family(slug)
            .small_games()
            .into_iter()
            .find(|g| strategy(g.k, &g.piles) != rule(g.k, &g.piles))
            .expect("the strategy fails on a small game");
        one_game(slug, &game)
    }

    #[test]
    fn right_programs_get_nothing() {
        for slug in SLUGS {
            let piles = family(slug);
            let finding = explain(slug, rule_of(slug));
            assert_eq!(finding.counterexample, None, "{slug}");
            // Every small game was run, as many to an input as T allows.
            let inputs = piles.small_games().len().div_ceil(piles.games_per_input());
            assert_eq!(finding.runs as usize, inputs, "{slug}");
        }
    }

    fn assert_named(slug: &str, id: &str, strategy: Rule, smallest: &str) {
        let found = explain(slug, strategy)
            .counterexample
            .unwrap_or_else(|| panic!("{id} is found wrong"));
        assert_eq!(found.misconception.map(|m| m.id), Some(id));
        assert_eq!(found.position, first_failure(slug, strategy), "{id}");
        assert_eq!(found.position, smallest, "{id}");
        let rule = rule_of(slug);
        let game = family(slug).parse(smallest).unwrap().games.remove(0);
        let piles = family(slug);
        assert_eq!(found.expected, piles.word(rule(game.k, &game.piles)));
        assert_eq!(found.got, piles.word(strategy(game.k, &game.piles)));
        assert!(!found.large);
    }

    #[test]
    fn misere_misconceptions_are_named() {
        // One box of one candy: John must eat it and loses, while its total 1 is odd and its
        // nim-sum 1 is not 0. It is the smallest game of all.
        assert_named("misere-nim", "sum-parity", sum_parity, "1\n1\n1\n");
        assert_named("misere-nim", "misere-as-normal", plain_xor, "1\n1\n1\n");
    }

    #[test]
    fn lasker_misconception_is_named() {
        // One pile wins either way, and with two piles both xors are 0 exactly when the piles
        // are equal (g is a bijection), so the first failure has three piles: among those of
        // total at most 6, 1 ⊕ 2 ⊕ 3 = 0 while g gives 1 ⊕ 2 ⊕ 4 = 7 (the games before it,
        // 1 1 1, 1 1 2, 1 2 2, 1 1 3, 1 1 4, and four or five piles of 1 and 2, agree).
        assert_named("lasker-nim", "lasker-as-nim", plain_xor, "1\n3\n1 2 3\n");
    }

    #[test]
    fn moore_misconceptions_are_named() {
        // k = 1: every count is divisible by 1, so "Second", but Lan takes the single pile.
        assert_named("nim-k", "nim-k-mod-k", divisible_by_k, "1\n1 1\n1\n");
        // With k = 1 the xor is the right rule; the smallest game with k = 2 is two piles of 1:
        // xor 0, but Lan empties both at once.
        assert_named("nim-k", "nim-k-as-nim", plain_xor, "1\n2 2\n1 1\n");
    }

    #[test]
    fn square_misconception_is_named() {
        // g(1) = 1 agrees with 1; one pile of 2 has xor 2 but g(2) = 0 (Lan takes 1, Minh 1).
        assert_named("square-nim", "square-nim-as-nim", plain_xor, "1\n1\n2\n");
    }

    #[test]
    fn staircase_misconceptions_are_named() {
        // Cells 2 and 3: gaps 1 and 0; every gap xors to 1, the counted one (g_2) is 0. The
        // games before it (one chessman, {1, 2}, {1, 3}, {1, 4}) have g_1 = 0 or one gap only.
        assert_named(
            "staircase-nim",
            "staircase-all-gaps",
            all_gaps,
            "1\n2\n2 3\n",
        );
        // With one or two chessmen xor of p_i − i is 0 exactly when the counted gaps are; cells
        // 2, 3, 5 have p_i − i = 1, 1, 2 (xor 2) but counted gaps g_3 = 1 and g_1 = 1 (xor 0).
        assert_named(
            "staircase-nim",
            "staircase-p-minus-i",
            p_minus_i,
            "1\n3\n2 3 5\n",
        );
    }

    #[test]
    fn misconceptions_differ_from_the_reference_and_from_each_other() {
        for slug in SLUGS {
            let piles = family(slug);
            let games = piles.small_games();
            let ids: Vec<&str> = piles.misconceptions().iter().map(|m| m.id).collect();
            for id in &ids {
                assert!(
                    games
                        .iter()
                        .any(|g| piles.misconceived(id, g) != Some(piles.answer(g))),
                    "{slug}: {id} agrees with the reference"
                );
            }
            for (i, a) in ids.iter().enumerate() {
                for b in &ids[i + 1..] {
                    assert!(
                        games
                            .iter()
                            .any(|g| piles.misconceived(a, g) != piles.misconceived(b, g)),
                        "{slug}: {a} and {b} agree on every small game"
                    );
                }
            }
            let game = &games[0];
            assert_eq!(piles.misconceived("always-first", game), None);
            assert_eq!(piles.misconceived("no-such-mistake", game), None);
            let other = if slug == "misere-nim" {
                "lasker-as-nim"
            } else {
                "sum-parity"
            };
            assert_eq!(piles.misconceived(other, game), None, "{slug}");
        }
    }

    #[test]
    fn misconceived_answers_follow_the_descriptions() {
        let described: [(&str, &str, Rule); 8] = [
            ("misere-nim", "sum-parity", sum_parity),
            ("misere-nim", "misere-as-normal", plain_xor),
            ("lasker-nim", "lasker-as-nim", plain_xor),
            ("nim-k", "nim-k-mod-k", divisible_by_k),
            ("nim-k", "nim-k-as-nim", plain_xor),
            ("square-nim", "square-nim-as-nim", plain_xor),
            ("staircase-nim", "staircase-all-gaps", all_gaps),
            ("staircase-nim", "staircase-p-minus-i", p_minus_i),
        ];
        let mut rng = TestRng::seed_from_u64(0);
        for (slug, id, strategy) in described {
            let piles = family(slug);
            let mut games = piles.small_games();
            games.extend((0..200).map(|_| Explain::random_game(&piles, &mut rng)));
            for g in &games {
                assert_eq!(
                    piles.misconceived(id, g).as_deref(),
                    Some(piles.word(strategy(g.k, &g.piles))),
                    "{id} on {g:?}"
                );
                assert_eq!(
                    piles.answer(g),
                    piles.word(rule_of(slug)(g.k, &g.piles)),
                    "{slug} on {g:?}"
                );
            }
        }
    }

    #[test]
    fn small_games_are_every_small_position_in_order() {
        for slug in SLUGS {
            let piles = family(slug);
            let games = piles.small_games();
            assert!(
                (100..=400).contains(&games.len()),
                "{slug}: {}",
                games.len()
            );
            assert!(
                games
                    .windows(2)
                    .all(|w| piles.size(&w[0]) <= piles.size(&w[1]))
            );
            for chunk in games.chunks(piles.games_per_input()) {
                let text = piles.render(&piles.input_of(chunk));
                assert_eq!(piles.games_of(&piles.parse(&text).unwrap()), chunk);
            }
            // A game smaller than a small game is a small game (the same position, with the
            // piles in another order): the first failure is smallest.
            for g in &games {
                for mut s in piles.shrink(g) {
                    s.piles.sort_unstable();
                    assert!(games.contains(&s), "{slug}: {s:?} from {g:?}");
                }
            }
        }
    }

    #[test]
    fn shrinking_gives_smaller_valid_games() {
        let mut rng = TestRng::seed_from_u64(1);
        for slug in SLUGS {
            let piles = family(slug);
            let mut games = piles.small_games();
            games.extend((0..300).map(|_| Explain::random_game(&piles, &mut rng)));
            for g in &games {
                for s in piles.shrink(g) {
                    assert!(piles.size(&s) < piles.size(g), "{slug}: {s:?} from {g:?}");
                    let text = piles.render(&piles.input_of(std::slice::from_ref(&s)));
                    let back = piles.parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(piles.games_of(&back), [s]);
                }
            }
        }
        let staircase = Piles::staircase();
        let cells = |piles: &[u64]| Game {
            k: 0,
            piles: piles.to_vec(),
        };
        let smaller = staircase.shrink(&cells(&[5, 2, 3]));
        for fewer in [
            &[2, 3][..],
            &[3, 5],
            &[2, 5],
            &[1, 3],
            &[2, 4],
            &[1, 2, 4],
            &[2, 3, 4],
        ] {
            assert!(smaller.contains(&cells(fewer)), "{fewer:?} in {smaller:?}");
        }
        assert!(staircase.shrink(&cells(&[1])).is_empty());
        let moore = Piles::moore();
        let smaller = moore.shrink(&Game {
            k: 2,
            piles: vec![1, 3],
        });
        for (k, piles) in [(1, vec![3]), (1, vec![1]), (2, vec![1, 1]), (1, vec![1, 3])] {
            assert!(smaller.contains(&Game { k, piles }), "{smaller:?}");
        }
        assert!(
            smaller
                .iter()
                .all(|g| (1..=g.piles.len() as u32).contains(&g.k))
        );
    }

    fn certificate(piles: &Piles, k: u32, game: &[u64]) -> Certificate {
        piles.certificate(&Game {
            k,
            piles: game.to_vec(),
        })
    }

    fn assert_contains(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "{part:?} in {text}");
        }
    }

    #[test]
    fn misere_certificates() {
        let misere = Piles::misere();
        // The statement's first game: 3 ⊕ 5 ⊕ 1 = 7; 5 ⊕ 7 = 2, so eat 3 from the box of 5.
        let win = certificate(&misere, 0, &[3, 5, 1]);
        assert_contains(
            &win.en,
            &[
                "John wins",
                "3 ⊕ 5 ⊕ 1 = 7 ≠ 0",
                "Eating 3 candies from the box of 5 candies",
                "3 ⊕ 2 ⊕ 1 = 0",
            ],
        );
        assert_contains(&win.vi, &["John thắng", "Ăn 3 viên từ hộp 5 viên"]);
        let one = certificate(&misere, 0, &[1]);
        assert_contains(&one.en, &["Brother wins", "The number of boxes, 1, is odd"]);
        assert_contains(&one.vi, &["Người anh (Brother) thắng", "một số lẻ"]);
        let two = certificate(&misere, 0, &[1, 1]);
        assert_contains(&two.en, &["John wins", "2, is even"]);
        // One big box beside two boxes of one: leave it one candy, three boxes of one remain.
        let big = certificate(&misere, 0, &[1, 4, 1]);
        assert_contains(
            &big.en,
            &["Eating 3 candies from it leaves 3 boxes of one candy"],
        );
        // Beside one box of one: eat it whole, one box of one remains.
        let big = certificate(&misere, 0, &[4, 1]);
        assert_contains(
            &big.en,
            &["Eating 4 candies from it leaves a single box of one candy"],
        );
        let lose = certificate(&misere, 0, &[2, 2]);
        assert_contains(&lose.en, &["Brother wins", "2 ⊕ 2 = 0"]);
    }

    #[test]
    fn lasker_certificates() {
        let lasker = Piles::lasker();
        // The statement's first game: values 2, 2, 4; taking the pile of 3 leaves 2 ⊕ 2 = 0.
        let take = certificate(&lasker, 0, &[2, 2, 3]);
        assert_contains(
            &take.en,
            &[
                "Alice wins",
                "g(2) = 2, g(3) = 4",
                "2 ⊕ 2 ⊕ 4 = 4 ≠ 0",
                "Removing the whole pile of 3 makes the xor of the values 2 ⊕ 2 = 0",
            ],
        );
        assert_contains(&take.vi, &["Alice thắng", "Bốc hết đống 3 viên"]);
        // Values 1, 2, 4 (xor 7): only the pile of 3 can change, to value 3, which no smaller
        // pile has (g(4) = 3): split it into 1 and 2.
        let split = certificate(&lasker, 0, &[1, 2, 3]);
        assert_contains(
            &split.en,
            &[
                "1 ⊕ 2 ⊕ 4 = 7 ≠ 0",
                "Splitting the pile of 3 into piles of 1 and 2, of values 1 ⊕ 2 = 3",
                "1 ⊕ 2 ⊕ 1 ⊕ 2 = 0",
            ],
        );
        assert_contains(&split.vi, &["Tách đống 3 viên thành hai đống 1 và 2 viên"]);
        // Values 3 (of 4) and 1: 3 ⊕ 2 = 1, a pile of 1 from the pile of 4.
        let lower = certificate(&lasker, 0, &[4, 1]);
        assert_contains(
            &lower.en,
            &[
                "g(4) = 3",
                "Removing 3 stones from the pile of 4 leaves a pile of 1",
            ],
        );
        let whole = certificate(&lasker, 0, &[3]);
        assert!(
            whole.en.ends_with(
                "4 ≠ 0. Removing the whole pile of 3 leaves no stones at all, and Bob cannot move."
            ),
            "{}",
            whole.en
        );
        let lose = certificate(&lasker, 0, &[3, 3]);
        assert_contains(&lose.en, &["Bob wins", "4 ⊕ 4 = 0"]);
        assert_contains(&lose.vi, &["Bob thắng"]);
    }

    #[test]
    fn moore_certificates() {
        let moore = Piles::moore();
        // 1 = 01, 2 = 10, 3 = 11: each bit in two piles.
        let lose = certificate(&moore, 1, &[1, 2, 3]);
        assert_contains(
            &lose.en,
            &[
                "loses (Second)",
                "bit worth 1: 2 piles (2 mod 2 = 0)",
                "bit worth 2: 2 piles (2 mod 2 = 0)",
                "a move lowers exactly one pile",
                "that count drops by 1 and",
            ],
        );
        let win = certificate(&moore, 2, &[1, 2, 3]);
        assert_contains(
            &win.en,
            &[
                "wins (First)",
                "2 mod 3 = 2",
                "The bit worth 2 is in 2 piles, not a multiple of 3",
            ],
        );
        assert_contains(
            &win.vi,
            &["Bit giá trị 2 có ở 2 đống, không phải bội của 3"],
        );
        // 5 = 101, 4 = 100, 1 = 1 (k = 2): bit 4 in two piles, bit 1 in two, bit 2 in none.
        let win = certificate(&moore, 2, &[5, 4, 1]);
        assert_contains(
            &win.en,
            &["bit worth 2: 0 piles", "The bit worth 4 is in 2 piles"],
        );
        let lose = certificate(&moore, 2, &[6, 6, 6]);
        assert_contains(&lose.en, &["bit worth 4: 3 piles (3 mod 3 = 0)", "loses"]);
    }

    #[test]
    fn square_certificates() {
        let square = Piles::square();
        // The statement's examples: g(3) = 1 and g(4) = 2; g(9) = 2.
        let win = certificate(&square, 0, &[3, 4]);
        assert_contains(
            &win.en,
            &[
                "wins (First)",
                "g(3) = 1, g(4) = 2",
                "1 ⊕ 2 = 3 ≠ 0",
                "Removing 1 stone from the pile of 4 leaves a pile of 3, of value g(3) = 1",
                "makes the xor 1 ⊕ 1 = 0",
            ],
        );
        assert_contains(&win.vi, &["Bốc 1 viên từ đống 4 viên"]);
        let lose = certificate(&square, 0, &[4, 9]);
        assert_contains(&lose.en, &["loses (Second)", "g(9) = 2", "2 ⊕ 2 = 0"]);
        let lose = certificate(&square, 0, &[2]);
        assert_contains(&lose.en, &["g(2) = 0", "Their xor is 0."]);
        // g(9) = 2 and g(4) = 2: 9 loses 4 (g(5) = 0) or all 9 (g(0) = 0); the first square
        // that reaches value 0 from 9 is 4.
        let win = certificate(&square, 0, &[9]);
        assert_contains(
            &win.en,
            &["Removing 4 stones from the pile of 9 leaves a pile of 5"],
        );
        let whole = certificate(&square, 0, &[1]);
        assert_contains(
            &whole.en,
            &["Removing the whole pile of 1 (1 is a square) leaves no stones"],
        );
    }

    #[test]
    fn staircase_certificates() {
        let staircase = Piles::staircase();
        // The statement's second game: gaps 0, 3, 0, 0, 1, 2, 1, 2; counted g_8 = 2, g_6 = 2,
        // g_4 = 0, g_2 = 3, xor 3; g_8 = 2 ⊕ 3 = 1: the chessman of 17 moves to 16.
        let win = certificate(&staircase, 0, &[1, 5, 6, 7, 9, 12, 14, 17]);
        assert_contains(
            &win.en,
            &[
                "Georgia wins",
                "p_0 = 0): 0, 3, 0, 0, 1, 2, 1, 2",
                "g_8 = 2, g_6 = 2, g_4 = 0, g_2 = 3, of xor 2 ⊕ 2 ⊕ 0 ⊕ 3 = 3",
                "Moving the chessman on cell 17 left by 1 to cell 16 shrinks g_8 from 2 to 1",
            ],
        );
        assert_contains(
            &win.vi,
            &["Georgia thắng", "Đi quân cờ ở ô 17 sang trái 1 ô, tới ô 16"],
        );
        // Unsorted cells 3 1 2: no gaps at all.
        let lose = certificate(&staircase, 0, &[3, 1, 2]);
        assert_contains(
            &lose.en,
            &["Bob wins", "cells 1, 2, 3", "p_0 = 0): 0, 0, 0"],
        );
        assert_contains(&lose.vi, &["Bob thắng"]);
        let one = certificate(&staircase, 0, &[4]);
        assert_contains(
            &one.en,
            &[
                "The chessman stands on cell 4.",
                "g_1 = 3, of xor 3",
                "to cell 1",
            ],
        );
        assert_contains(&one.vi, &["Quân cờ đứng ở ô 4."]);
        let lose = certificate(&staircase, 0, &[2, 3]);
        assert_contains(&lose.en, &["p_0 = 0): 1, 0", "g_2 = 0, of xor 0"]);
    }
}
