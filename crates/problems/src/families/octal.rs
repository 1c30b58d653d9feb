//! Octal games from their code (`[game] code = "0.77"` in `problem.toml`): input `T`, then `T`
//! lines `k h_1 … h_k` (heaps); output `First` or `Second` per game.
//!
//! The values come from [`grundy_games::octal`]: heaps go up to 10¹⁸ when the periodicity theorem
//! proves a period, otherwise up to the computed range, which the statement then states. The
//! statements are generated from the code, so a teacher needs to give nothing but the code.

use super::octal_play::Heaps;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, LISTED, Misconception, listed, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::spec::{CheckerKind, CheckerSpec, Difficulty, ProblemSpec, SubtaskSpec};
use crate::strict::{StrictReader, ValidationError};
use grundy_games::implicit;
use grundy_games::octal::{Analysis, CodeError, OctalCode, OctalRules, naive_values};
use rand::RngExt;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

const MAX_GAMES: u32 = 1000;
const MAX_HEAPS: u32 = 10;
/// The largest heap once a period is proven.
const MAX_PROVEN_HEAP: u64 = 1_000_000_000_000_000_000;
/// How far the values are computed when `[game]` gives no `upto`, and the bounds on `upto`: the
/// computation runs whenever the problem is loaded, and the smallest subtasks need 1000 heaps.
pub const DEFAULT_UPTO: usize = 10_000;
/// How long a teacher's request for a problem of a code may take, from its arrival to its answer
/// (`POST /api/v1/games`).
pub const REQUEST_BUDGET: Duration = Duration::from_secs(5);
/// How long [`problem`] may compute the code's values within [`REQUEST_BUDGET`]: the computation
/// is asked again at least every [`WORK_PER_REPORT`](grundy_games::octal::WORK_PER_REPORT)
/// splits (tens of milliseconds), and the second left is for the rest of the request (the
/// statement, the problem, its tests measured against the quota, storing), which takes a fraction
/// of it.
pub const VALUES_BUDGET: Duration = Duration::from_secs(4);
pub const UPTO: std::ops::RangeInclusive<usize> = 1000..=100_000;
/// The heap bounds of the first two subtasks: brute force, then the quadratic recurrence.
const SMALL_HEAP: u64 = 20;
const MEDIUM_HEAP: u64 = 1000;

/// Why a `[game]` table or a request does not make an octal problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OctalError {
    #[error("[game] code: {0}")]
    Code(#[from] CodeError),
    #[error("[game] code: no move is possible in {0} (every digit is 0)")]
    NoMoves(String),
    #[error("[game] upto = {0} must lie in 1000..=100000")]
    Upto(usize),
    #[error("[game]: {0}")]
    Table(String),
    #[error("the slug {0:?} must be 2 to 48 lower-case letters, digits and hyphens")]
    Slug(String),
    #[error("a title must not be empty")]
    Title,
    #[error(
        "computing the values up to {upto} took more than {seconds} s (they reached {reached}); \
         ask for a smaller range (`upto`) or a shorter code"
    )]
    Budget {
        reached: u64,
        upto: usize,
        seconds: u64,
    },
}

/// The `[game]` table of an octal problem.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameTable {
    code: String,
    upto: Option<usize>,
}

pub struct Octal {
    analysis: Analysis,
    max_heap: u64,
    /// Every heap in `1..=computed_to`, grouped by value and ascending.
    by_value: Vec<Vec<u64>>,
    mistakes: Mistakes,
    /// The game on small heaps, for people.
    board: Played<Heaps>,
}

impl std::fmt::Debug for Octal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Octal({})", self.analysis.code)
    }
}

#[derive(Debug)]
pub struct Input {
    pub games: Vec<Vec<u64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_heaps: u32,
    pub max_heap: u64,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "First" } else { "Second" }
}

impl Octal {
    /// The family for a problem's `[game]` table.
    pub fn from_table(table: &toml::Table) -> Result<Octal, OctalError> {
        let game: GameTable = table
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| OctalError::Table(e.message().to_string()))?;
        Octal::new(&game.code, game.upto.unwrap_or(DEFAULT_UPTO))
    }

    /// Computes the values of `code` up to `upto` and proves what it can.
    pub fn new(code: &str, upto: usize) -> Result<Octal, OctalError> {
        Octal::within(code, upto, None)
    }

    /// As [`Octal::new`], giving up after `budget`: a request must not compute for minutes (a
    /// code that splits heaps and shows no period costs time quadratic in `upto`).
    pub fn within(code: &str, upto: usize, budget: Option<Duration>) -> Result<Octal, OctalError> {
        let started = Instant::now();
        let code: OctalCode = code.parse()?;
        if code.reach() == 0 {
            return Err(OctalError::NoMoves(code.to_string()));
        }
        if !UPTO.contains(&upto) {
            return Err(OctalError::Upto(upto));
        }
        let analysis = Analysis::run(&code, upto, |_| match budget {
            Some(budget) if started.elapsed() > budget => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        });
        if let Some(budget) = budget
            && (analysis.computed_to() as usize) < upto
            && analysis.periodicity.is_none()
        {
            return Err(OctalError::Budget {
                reached: analysis.computed_to(),
                upto,
                seconds: budget.as_secs(),
            });
        }
        let max_heap = match analysis.periodicity {
            Some(_) => MAX_PROVEN_HEAP,
            None => analysis.computed_to(),
        };
        let mut by_value: Vec<Vec<u64>> = Vec::new();
        for (heap, &value) in analysis.values().iter().enumerate().skip(1) {
            if by_value.len() <= value as usize {
                by_value.resize(value as usize + 1, Vec::new());
            }
            by_value[value as usize].push(heap as u64);
        }
        let mut octal = Octal {
            board: Played(Heaps::new(code, analysis.values())),
            analysis,
            max_heap,
            by_value,
            mistakes: Mistakes::default(),
        };
        octal.mistakes = Mistakes::new(&octal);
        Ok(octal)
    }

    pub fn code(&self) -> &OctalCode {
        &self.analysis.code
    }

    /// The largest heap an input may hold.
    pub fn max_heap(&self) -> u64 {
        self.max_heap
    }

    pub fn is_proven(&self) -> bool {
        self.analysis.periodicity.is_some()
    }

    fn value(&self, heap: u64) -> u32 {
        self.analysis
            .value(heap)
            .expect("inputs stay within the range of known values")
    }

    fn first_wins(&self, heaps: &[u64]) -> bool {
        heaps.iter().fold(0, |x, &h| x ^ self.value(h)) != 0
    }

    /// A random heap of at most `bound` whose value is `value`, if there is one.
    fn heap_with_value(&self, value: u32, bound: u64, rng: &mut TestRng) -> Option<u64> {
        let computed = self.by_value.get(value as usize)?;
        let below = &computed[..computed.partition_point(|&h| h <= bound)];
        if let Some(p) = self.analysis.periodicity
            && bound > self.analysis.computed_to()
            && rng.random_bool(0.8)
        {
            // A heap of the period's first window, moved up by a random number of periods.
            let window: Vec<u64> = below
                .iter()
                .copied()
                .filter(|&h| h >= p.preperiod.max(1) && h < p.preperiod.max(1) + p.period)
                .collect();
            if !window.is_empty() {
                let h = window[rng.random_range(0..window.len())];
                return Some(h + p.period * rng.random_range(0..=(bound - h) / p.period));
            }
        }
        (!below.is_empty()).then(|| below[rng.random_range(0..below.len())])
    }

    /// Heaps whose values cancel: the last is chosen to match the others when it can.
    fn losing_game(&self, p: &Params, rng: &mut TestRng) -> Vec<u64> {
        let k = rng.random_range(2..=p.max_heaps.max(2)).min(p.max_heaps);
        let mut heaps: Vec<u64> = (0..k).map(|_| rng.random_range(1..=p.max_heap)).collect();
        let rest = heaps[1..].iter().fold(0, |x, &h| x ^ self.value(h));
        if let Some(h) = self.heap_with_value(rest, p.max_heap, rng) {
            heaps[0] = h;
        }
        heaps
    }
}

impl Family for Octal {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("T", 1..=MAX_GAMES)?;
        let mut games = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let line = reader.line("a game \"k h_1 … h_k\"")?;
            let k: u32 = line.int(0, "k", 1..=MAX_HEAPS)?;
            line.expect_len(k as usize + 1, "k followed by k heap sizes")?;
            let heaps = (1..=k as usize)
                .map(|i| line.int(i, &format!("h_{i}"), 1..=self.max_heap))
                .collect::<Result<Vec<u64>, _>>()?;
            games.push(heaps);
        }
        reader.expect_eof()?;
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = format!("{}\n", input.games.len());
        for heaps in &input.games {
            push_line(
                &mut out,
                std::iter::once(heaps.len() as u64).chain(heaps.iter().copied()),
            );
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, MAX_GAMES.into())?;
        within("max_heaps", p.max_heaps.into(), 1, MAX_HEAPS.into())?;
        within("max_heap", p.max_heap, 1, self.max_heap)
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.games.len() as u64, p.max_games.into())?;
        for heaps in &input.games {
            at_most("k", heaps.len() as u64, p.max_heaps.into())?;
            at_most("a heap", *heaps.iter().max().expect("k ≥ 1"), p.max_heap)?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let games = (0..p.max_games as usize)
            // Tests 1–5 each hold one theme; later tests mix them game by game.
            .map(|game| if index <= 4 { index } else { game % 6 })
            .map(|theme| match theme {
                // The largest games: every heap at or near the limit.
                0 => (0..p.max_heaps)
                    .map(|_| p.max_heap - rng.random_range(0..p.max_heap.min(3)))
                    .collect(),
                // Losing games: values that cancel.
                1 => self.losing_game(p, rng),
                // One heap, often a losing one (value 0).
                2 => {
                    let zero = rng
                        .random_bool(0.5)
                        .then(|| self.heap_with_value(0, p.max_heap, rng))
                        .flatten();
                    vec![zero.unwrap_or_else(|| rng.random_range(1..=p.max_heap))]
                }
                // Small heaps, where the values have not settled into their period.
                3 => (0..rng.random_range(1..=p.max_heaps))
                    .map(|_| rng.random_range(1..=p.max_heap.min(80)))
                    .collect(),
                // Two equal heaps: always lost for the first player.
                4 => vec![rng.random_range(1..=p.max_heap); 2.min(p.max_heaps) as usize],
                _ => (0..rng.random_range(1..=p.max_heaps))
                    .map(|_| rng.random_range(1..=p.max_heap))
                    .collect(),
            })
            .collect();
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.games.iter().map(|heaps| word(self.first_wins(heaps))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let rules = OctalRules {
            code: self.code().clone(),
        };
        let small = input
            .games
            .iter()
            .all(|heaps| heaps.len() <= 3 && heaps.iter().sum::<u64>() <= 21);
        let brute = small.then(|| {
            lines(input.games.iter().map(|heaps| {
                let mut position = heaps.clone();
                position.sort_unstable();
                word(
                    implicit::outcome(&rules, position, 1 << 20)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        // The definition, heap by heap, with no period and no sparse space.
        let largest = input.games.iter().flatten().copied().max().unwrap_or(0);
        let naive = (largest <= 3000).then(|| {
            let values = naive_values(self.code(), largest as usize);
            lines(
                input
                    .games
                    .iter()
                    .map(|heaps| word(heaps.iter().fold(0, |x, &h| x ^ values[h as usize]) != 0)),
            )
        });
        vec![
            CrossCheck::new("brute force", brute),
            CrossCheck::new("nim-sequence by the definition", naive),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every multiset of one to three heaps of sizes 1..=7.
        let mut games = Vec::new();
        for a in 1..=7u64 {
            games.push(vec![a]);
            for b in a..=7 {
                games.push(vec![a, b]);
                for c in b..=7 {
                    games.push(vec![a, b, c]);
                }
            }
        }
        vec![Input { games }]
    }

    fn board(&self) -> Option<&dyn Board> {
        Some(&self.board)
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }
}

const KAYLES_AS_NIM: Misconception = Misconception {
    id: "kayles-as-nim",
    title: "Kayles played as Nim",
    text: "The program xors the heap sizes, as in Nim. But a Kayles move removes only one or two \
           counters, and may split the rest of the heap in two, so a heap of n is worth its \
           Grundy value G(n), not n: G(4) = 1, so heaps of 1 and 4 cancel (1 ⊕ 1 = 0) and the \
           first player loses, though 1 ⊕ 4 ≠ 0. Compute G(n) as the mex of the values of what \
           one move can leave from a heap of n (two heaps left are worth the xor of their \
           values), and xor the heaps' values.",
};

const OCTAL_AS_NIM: Misconception = Misconception {
    id: "octal-as-nim",
    title: "Played as Nim",
    text: "The program xors the heap sizes, as in Nim, where a move takes any number of \
           counters from a heap. Here a move removes only the amounts the rules allow and may \
           leave nothing, one heap or two, so a heap of n counters is worth its Grundy value \
           G(n), which in general is not n. Compute G(n) as the mex of the values of what one \
           move can leave from a heap of n (two heaps left are worth the xor of their values), \
           and xor the heaps' values.",
};

const NO_SPLIT: Misconception = Misconception {
    id: "octal-no-split",
    title: "Splitting a heap left out",
    text: "The program computes the heaps' values with only the moves that leave nothing or one \
           smaller heap, and leaves out the moves that split the rest of a heap into two heaps. \
           Those moves change the values: in Kayles a heap of 3 is won by taking the middle \
           counter, which leaves two heaps of 1 that cancel, though every move that leaves one \
           heap leaves the opponent a heap to take whole. Every option counts towards the mex \
           that gives G(n), and two heaps left are worth the xor of their values.",
};

/// The wrong strategies that tell apart from the reference on a code's small games.
#[derive(Debug, Default)]
struct Mistakes {
    /// The values of the code without its moves that split a heap, when leaving them out
    /// changes an answer.
    no_split: Option<Analysis>,
    misconceptions: &'static [Misconception],
}

impl Mistakes {
    fn new(octal: &Octal) -> Mistakes {
        let code = octal.code();
        // The same code with the digit 4 (split into two heaps) taken out of every digit.
        let split_free = code
            .splits()
            .then(|| {
                let digits: String = code
                    .digits()
                    .iter()
                    .map(|d| char::from(b'0' + (d & 3)))
                    .collect();
                format!("0.{digits}")
                    .parse::<OctalCode>()
                    .expect("digits of a code")
            })
            .filter(|split_free| split_free.reach() > 0)
            .map(|split_free| {
                Analysis::run(&split_free, DEFAULT_UPTO, |_| ControlFlow::Continue(()))
            });
        let games = octal.small_games();
        let right: Vec<bool> = games.iter().map(|g| octal.first_wins(g)).collect();
        let nim: Vec<bool> = games.iter().map(|g| as_nim(g)).collect();
        let as_nim_tells = nim != right;
        let no_split = split_free.filter(|values| {
            let answers: Option<Vec<bool>> =
                games.iter().map(|g| without_splits(values, g)).collect();
            answers.is_some_and(|a| {
                a != right && !(as_nim_tells && a == nim) && a.iter().any(|&w| w != right[0])
            })
        });
        let kayles = code.to_string() == "0.77";
        let misconceptions: &'static [Misconception] =
            match (as_nim_tells, no_split.is_some(), kayles) {
                (true, true, true) => &[KAYLES_AS_NIM, NO_SPLIT],
                (true, false, true) => &[KAYLES_AS_NIM],
                (true, true, false) => &[OCTAL_AS_NIM, NO_SPLIT],
                (true, false, false) => &[OCTAL_AS_NIM],
                (false, true, _) => &[NO_SPLIT],
                (false, false, _) => &[],
            };
        Mistakes {
            no_split,
            misconceptions,
        }
    }
}

/// Nim's answer: the xor of the heap sizes.
fn as_nim(heaps: &[u64]) -> bool {
    heaps.iter().fold(0, |x, &h| x ^ h) != 0
}

/// The answer by the values of the code without its splitting moves; `None` beyond their range.
fn without_splits(values: &Analysis, heaps: &[u64]) -> Option<bool> {
    heaps
        .iter()
        .try_fold(0, |x, &h| values.value(h).ok().map(|v| x ^ v))
        .map(|x| x != 0)
}

/// One move on one heap: what it removes and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    /// The whole heap of `k`.
    All { k: u64 },
    /// `k` counters, the rest staying one heap.
    Take { k: u64, heap: u64 },
    /// `k` counters, the rest split in two heaps.
    Split { k: u64, heap: u64, a: u64, b: u64 },
}

impl Move {
    /// The heaps the move leaves.
    fn left(self) -> Vec<u64> {
        match self {
            Move::All { .. } => Vec::new(),
            Move::Take { k, heap } => vec![heap - k],
            Move::Split { a, b, .. } => vec![a, b],
        }
    }

    fn text(self) -> (String, String) {
        let counters = |k: u64| {
            if k == 1 {
                "1 counter".to_owned()
            } else {
                format!("{k} counters")
            }
        };
        match self {
            Move::All { k } => (
                format!("Removing the whole heap of {k}"),
                format!("Lấy cả đống {k} viên"),
            ),
            Move::Take { k, heap } => (
                format!("Removing {} from the heap of {heap}", counters(k)),
                format!("Lấy {k} viên từ đống {heap} viên"),
            ),
            Move::Split { k, heap, a, b } => (
                format!(
                    "Removing {} from the heap of {heap} and splitting the rest into heaps of \
                     {a} and {b}",
                    counters(k)
                ),
                format!(
                    "Lấy {k} viên từ đống {heap} viên và chia phần còn lại thành hai đống {a} \
                     và {b} viên"
                ),
            ),
        }
    }
}

impl Octal {
    /// Every move from a heap of `n` (splits only as far as the values are computed: enough,
    /// since beyond a period a split's value repeats one with a smaller part).
    fn moves(&self, n: u64) -> Vec<Move> {
        let mut moves = Vec::new();
        for (k, &d) in (1u64..).zip(self.code().digits()) {
            if d & 1 != 0 && n == k {
                moves.push(Move::All { k });
            }
            if d & 2 != 0 && n > k {
                moves.push(Move::Take { k, heap: n });
            }
            if d & 4 != 0 && n >= k + 2 {
                let rest = n - k;
                let upto = (rest / 2).min(self.analysis.computed_to());
                moves.extend((1..=upto).map(|a| Move::Split {
                    k,
                    heap: n,
                    a,
                    b: rest - a,
                }));
            }
        }
        moves
    }

    /// `G(h)` in words: the mex written out for a small heap, the period used for one beyond
    /// the computed values.
    fn value_text(&self, h: u64) -> (String, String) {
        let value = self.value(h);
        let moves = self.moves(h);
        if h <= 12 && moves.len() <= LISTED {
            let (names, values): (Vec<String>, Vec<String>) = moves
                .iter()
                .map(|m| {
                    let left = m.left();
                    let names: Vec<String> = left.iter().map(|&l| format!("G({l})")).collect();
                    let total = left.iter().fold(0, |x, &l| x ^ self.value(l));
                    (
                        if names.is_empty() {
                            "G(0)".to_owned()
                        } else {
                            names.join(" ⊕ ")
                        },
                        total.to_string(),
                    )
                })
                .unzip();
            let text = format!(
                "G({h}) = mex{{{}}} = mex{{{}}} = {value}",
                names.join(", "),
                values.join(", ")
            );
            return (text.clone(), text);
        }
        match self.analysis.periodicity {
            Some(p) if h > self.analysis.computed_to() => {
                let r = p.reduce(h);
                (
                    format!(
                        "G({h}) = G({r}) = {value}, as G(n + {}) = G(n) for every n ≥ {}",
                        p.period, p.preperiod
                    ),
                    format!(
                        "G({h}) = G({r}) = {value}, vì G(n + {}) = G(n) với mọi n ≥ {}",
                        p.period, p.preperiod
                    ),
                )
            }
            _ => {
                let text = format!("G({h}) = {value}");
                (text.clone(), text)
            }
        }
    }

    /// A move from one of `heaps` that leaves them worth 0 together, when they are not.
    fn winning_move(&self, heaps: &[u64]) -> Option<(usize, Move)> {
        let sum = heaps.iter().fold(0, |x, &h| x ^ self.value(h));
        heaps.iter().enumerate().find_map(|(i, &h)| {
            let want = self.value(h) ^ sum;
            if sum == 0 || want >= self.value(h) {
                return None;
            }
            self.moves(h)
                .into_iter()
                .find(|m| m.left().iter().fold(0, |x, &l| x ^ self.value(l)) == want)
                .map(|m| (i, m))
        })
    }
}

impl Explain for Octal {
    type Game = Vec<u64>;

    fn small_games(&self) -> Vec<Vec<u64>> {
        // One heap up to 30, two or three up to 10 each: about 300 games in one input.
        let mut games: Vec<Vec<u64>> = (1..=30).map(|a| vec![a]).collect();
        for a in 1..=10u64 {
            for b in a..=10 {
                games.push(vec![a, b]);
                games.extend((b..=10).map(|c| vec![a, b, c]));
            }
        }
        games.retain(|g| g.iter().all(|&h| h <= self.max_heap));
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<u64> {
        let k = rng.random_range(1..=4);
        (0..k)
            .map(|_| rng.random_range(1..=self.max_heap.min(40)))
            .collect()
    }

    fn games_per_input(&self) -> usize {
        MAX_GAMES as usize
    }

    fn input_of(&self, games: &[Vec<u64>]) -> Input {
        Input {
            games: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<u64>> {
        input.games.clone()
    }

    fn answer(&self, game: &Vec<u64>) -> String {
        word(self.first_wins(game)).to_owned()
    }

    fn size(&self, game: &Vec<u64>) -> u64 {
        let counters = game.iter().fold(0u64, |t, &h| t.saturating_add(h));
        counters
            .saturating_mul(16)
            .saturating_add(game.len() as u64)
    }

    fn shrink(&self, game: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut smaller = Vec::new();
        for i in 0..game.len() {
            if game.len() > 1 {
                let mut fewer = game.clone();
                fewer.remove(i);
                smaller.push(fewer);
            }
            for less in [game[i] / 2, game[i] - 1] {
                if (1..game[i]).contains(&less) {
                    let mut lower = game.clone();
                    lower[i] = less;
                    smaller.push(lower);
                }
            }
        }
        smaller.sort_by(|a, b| (self.size(a), a).cmp(&(self.size(b), b)));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Vec<u64>) -> Certificate {
        let code = self.code();
        let values: Vec<u64> = game.iter().map(|&h| u64::from(self.value(h))).collect();
        let known = self.analysis.computed_to().min(12);
        let sequence = listed((1..=known).map(|h| self.value(h).to_string()), ", ");
        let mut distinct = game.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let each: Vec<(String, String)> = distinct.iter().map(|&h| self.value_text(h)).collect();
        let each_en = listed(each.iter().map(|(en, _)| en.clone()), "; ");
        let each_vi = listed(each.iter().map(|(_, vi)| vi.clone()), "; ");
        let names = listed(game.iter().map(|h| format!("G({h})")), " ⊕ ");
        let rule_en = format!(
            "A heap of n counters is worth G(n), the mex (the smallest non-negative integer not \
             among them) of the values of what one move can leave from it, two heaps left being \
             worth the xor of their values; the heaps of a game add up as in Nim. The \
             nim-sequence of {code} begins G(1), …, G({known}) = {sequence}. Here {each_en}. The \
             nim-sum is {names} = {}",
            nim_sum_text(&values)
        );
        let rule_vi = format!(
            "Một đống n viên có giá trị G(n), là mex (số tự nhiên nhỏ nhất không nằm trong tập) \
             của giá trị những gì một nước đi có thể để lại từ đống đó, hai đống để lại có giá \
             trị bằng xor giá trị của chúng; các đống trong một ván cộng lại như trong Nim. Dãy \
             giá trị của {code} bắt đầu bằng G(1), …, G({known}) = {sequence}. Ở đây {each_vi}. \
             Tổng nim là {names} = {}",
            nim_sum_text(&values)
        );
        let Some((i, m)) = self.winning_move(game) else {
            return Certificate {
                en: format!(
                    "Nam (the second player) wins. {rule_en}. Every move changes one heap into \
                     what is worth another value (G(n) differs from the value of everything a \
                     move leaves from n), so Hoa leaves a non-zero nim-sum, and Nam can always \
                     make it 0 again, until Hoa cannot move."
                ),
                vi: format!(
                    "Nam (người đi sau) thắng. {rule_vi}. Mỗi nước đi biến một đống thành thứ có \
                     giá trị khác (G(n) khác giá trị của mọi thứ một nước đi để lại từ n), nên \
                     Hoa để lại tổng nim khác 0, và Nam luôn đưa được tổng nim về 0, cho đến khi \
                     Hoa không còn nước đi."
                ),
            };
        };
        let mut left: Vec<u64> = game.clone();
        left.remove(i);
        left.extend(m.left());
        let (move_en, move_vi) = m.text();
        let (leaves_en, leaves_vi) = if left.is_empty() {
            (
                "leaves no counters, and Nam cannot move".to_owned(),
                "không còn viên nào, và Nam không đi được".to_owned(),
            )
        } else {
            let after: Vec<u64> = left.iter().map(|&h| u64::from(self.value(h))).collect();
            let heaps = listed(left.iter().map(u64::to_string), ", ");
            (
                format!(
                    "leaves the heaps {heaps}, worth {}: lost for Nam, as every move changes \
                     one heap's value and so the nim-sum, and Hoa makes it 0 again",
                    nim_sum_text(&after)
                ),
                format!(
                    "để lại các đống {heaps}, có tổng nim {}: thế thua cho Nam, vì mỗi nước đi \
                     thay đổi giá trị của một đống nên thay đổi tổng nim, và Hoa lại đưa nó về 0",
                    nim_sum_text(&after)
                ),
            )
        };
        Certificate {
            en: format!("Hoa (the first player) wins. {rule_en} ≠ 0. {move_en} {leaves_en}."),
            vi: format!("Hoa (người đi trước) thắng. {rule_vi} ≠ 0. {move_vi}, {leaves_vi}."),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        self.mistakes.misconceptions
    }

    fn misconceived(&self, id: &str, game: &Vec<u64>) -> Option<String> {
        if !self.mistakes.misconceptions.iter().any(|m| m.id == id) {
            return None;
        }
        let first_wins = match id {
            "kayles-as-nim" | "octal-as-nim" => as_nim(game),
            "octal-no-split" => without_splits(self.mistakes.no_split.as_ref()?, game)?,
            _ => return None,
        };
        Some(word(first_wins).to_owned())
    }
}

/// What a teacher gives to make a problem from a code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalRequest {
    pub slug: String,
    /// Titles by language; English is required (`en`), Vietnamese (`vi`) optional.
    pub title: BTreeMap<String, String>,
    pub code: String,
    /// How far to compute the values when no period is proven; [`DEFAULT_UPTO`] otherwise.
    pub upto: Option<usize>,
    pub seed: u64,
}

/// The files of a problem folder for a code (`problem.toml`, the statements in English and
/// Vietnamese, one sample), ready for [`Problem::from_files`](crate::Problem::from_files).
pub fn problem_files(request: &OctalRequest) -> Result<BTreeMap<String, String>, OctalError> {
    Ok(folder(request)?.0)
}

/// Why a request does not make a problem: the code or the request, or (a fault of this crate)
/// the files made from them.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error(transparent)]
    Octal(#[from] OctalError),
    #[error(transparent)]
    Load(#[from] crate::LoadError),
}

/// The problem of a code with its files (what is stored, and loads to the same problem), the
/// values computed once, within [`VALUES_BUDGET`].
pub fn problem(
    request: &OctalRequest,
) -> Result<(BTreeMap<String, String>, crate::Problem), RequestError> {
    let (files, family) = folder(request)?;
    let problem = crate::Problem::from_files_using(&request.slug, &files, Some(Arc::new(family)))?;
    Ok((files, problem))
}

/// The files of a code's problem, and the family they were made with.
fn folder(request: &OctalRequest) -> Result<(BTreeMap<String, String>, Octal), OctalError> {
    if !crate::catalogue::is_valid_slug(&request.slug) {
        return Err(OctalError::Slug(request.slug.clone()));
    }
    if request.title.values().any(|t| t.trim().is_empty()) || !request.title.contains_key("en") {
        return Err(OctalError::Title);
    }
    let family = Octal::within(
        &request.code,
        request.upto.unwrap_or(DEFAULT_UPTO),
        Some(VALUES_BUDGET),
    )?;
    let mut game = toml::Table::new();
    game.insert("code".into(), family.code().to_string().into());
    if let Some(upto) = request.upto {
        game.insert("upto".into(), (upto as i64).into());
    }
    let subtasks = subtask_bounds(family.max_heap);
    let spec = ProblemSpec {
        slug: request.slug.clone(),
        title: request.title.clone(),
        family: "octal".into(),
        game: Some(game),
        version: 1,
        difficulty: Difficulty::Medium,
        tags: vec!["octal-game".into(), "sprague-grundy".into()],
        source: None,
        time_limit_ms: 1000,
        memory_limit_mib: 256,
        seed: request.seed,
        checker: CheckerSpec {
            kind: CheckerKind::Tokens,
            case_sensitive: true,
            line_answers: "game".into(),
        },
        subtasks: subtasks
            .iter()
            .map(|&(name, points, max_heap)| {
                let mut generator = toml::Table::new();
                generator.insert("max_games".into(), i64::from(MAX_GAMES).into());
                generator.insert("max_heaps".into(), i64::from(MAX_HEAPS).into());
                generator.insert("max_heap".into(), (max_heap as i64).into());
                SubtaskSpec {
                    name: name.into(),
                    points,
                    tests: 6,
                    generator,
                }
            })
            .collect(),
    };
    let mut files = BTreeMap::new();
    files.insert(
        "problem.toml".into(),
        toml::to_string(&spec).expect("a spec serialises"),
    );
    for lang in ["en", "vi"] {
        let title = spec.title.get(lang).unwrap_or(&spec.title["en"]);
        files.insert(
            format!("statement.{lang}.md"),
            statement(&family, title, lang),
        );
    }
    let sample = Input {
        games: vec![vec![1], vec![2], vec![3], vec![2, 2], vec![1, 4, 6]],
    };
    files.insert("samples/01.in".into(), family.render(&sample));
    files.insert("samples/01.ans".into(), family.solve(&sample));
    Ok((files, family))
}

/// Subtasks by heap size: brute force over game trees, the quadratic recurrence, then everything.
fn subtask_bounds(max_heap: u64) -> [(&'static str, u32, u64); 3] {
    [
        ("small", 20, SMALL_HEAP),
        ("medium", 30, MEDIUM_HEAP),
        ("large", 50, max_heap),
    ]
}

/// `10^18` for the proven bound, the number itself otherwise.
fn bound_text(bound: u64) -> String {
    if bound == MAX_PROVEN_HEAP {
        "10^{18}".into()
    } else {
        bound.to_string()
    }
}

/// One line per removal the code allows, in words.
fn rule_lines(code: &OctalCode, lang: &str) -> Vec<String> {
    let mut rules = Vec::new();
    for (k, &d) in (1..).zip(code.digits()) {
        if d == 0 {
            continue;
        }
        let mut ways = Vec::new();
        let line = if lang == "vi" {
            if d & 1 != 0 {
                ways.push(format!("hết sỏi (chỉ khi đống có đúng {k} viên)"));
            }
            if d & 2 != 0 {
                ways.push(format!(
                    "còn lại một đống nhỏ hơn (khi đống có nhiều hơn {k} viên)"
                ));
            }
            if d & 4 != 0 {
                ways.push(format!(
                    "được chia thành hai đống khác rỗng (khi đống có ít nhất {} viên)",
                    k + 2
                ));
            }
            format!(
                "- Lấy đúng {k} viên sỏi từ một đống; phần còn lại của đống {}.",
                ways.join(", hoặc ")
            )
        } else {
            let counters = if k == 1 { "counter" } else { "counters" };
            if d & 1 != 0 {
                ways.push(format!(
                    "nothing is left (only when the heap has exactly {k})"
                ));
            }
            if d & 2 != 0 {
                ways.push(format!(
                    "the rest stays as one smaller heap (when the heap has more than {k})"
                ));
            }
            if d & 4 != 0 {
                ways.push(format!(
                    "the rest is split into two non-empty heaps (when the heap has at least {})",
                    k + 2
                ));
            }
            format!(
                "- Remove exactly {k} {counters} from one heap, so that {}.",
                ways.join(", or ")
            )
        };
        rules.push(line);
    }
    rules
}

/// The statement in `lang` (`en` or `vi`), generated from the code and the limits.
pub fn statement(family: &Octal, title: &str, lang: &str) -> String {
    let code = family.code();
    let rules = rule_lines(code, lang).join("\n");
    let bound = bound_text(family.max_heap);
    let [small, medium, large] = subtask_bounds(family.max_heap);
    if lang == "vi" {
        let unproven = if family.is_proven() {
            String::new()
        } else {
            format!(
                "\nChưa có chu kỳ nào của dãy giá trị Grundy của trò chơi này được chứng minh, nên \
                 kích thước đống chỉ đến ${bound}$, phạm vi mà các giá trị đã được tính.\n"
            )
        };
        format!(
            "# {title}\n\nHoa và Nam chơi với một số đống sỏi; Hoa đi trước. Đến lượt mình, người \
             chơi chọn một đống và thực hiện một trong các nước đi sau:\n\n{rules}\n\nNgười không \
             thể đi được nữa thì thua (người đi nước cuối cùng thắng). Cả hai đều chơi tối ưu.\n\n\
             Trong lý thuyết trò chơi tổ hợp, đây là trò chơi bát phân (octal game) có mã `{code}`.\n\
             {unproven}\nVới mỗi ván trong $T$ ván, hãy cho biết ai thắng.\n\n## Dữ liệu vào\n\n\
             Dòng đầu tiên chứa $T$. Mỗi dòng trong $T$ dòng tiếp theo mô tả một ván: số nguyên \
             $k$ là số đống, rồi $k$ số nguyên $h_1, h_2, \\dots, h_k$ là số sỏi của các đống.\n\n\
             ## Kết quả\n\nVới mỗi ván, theo thứ tự, in một dòng: `First` nếu Hoa (người đi trước) \
             thắng, ngược lại in `Second`.\n\n## Giới hạn\n\n- $1 \\le T \\le {MAX_GAMES}$\n\
             - $1 \\le k \\le {MAX_HEAPS}$\n- $1 \\le h_i \\le {bound}$\n\
             - Mọi giá trị trong dữ liệu vào đều là số nguyên.\n\n## Chấm điểm\n\n\
             - Nhóm test 1 ({} điểm): $h_i \\le {}$.\n- Nhóm test 2 ({} điểm): $h_i \\le {}$.\n\
             - Nhóm test 3 ({} điểm): không có ràng buộc gì thêm.\n",
            small.1, small.2, medium.1, medium.2, large.1
        )
    } else {
        let unproven = if family.is_proven() {
            String::new()
        } else {
            format!(
                "\nNo period of this game's nim-sequence has been proven, so the heaps go only up \
                 to ${bound}$, the range over which its values were computed.\n"
            )
        };
        format!(
            "# {title}\n\nHoa and Nam play with several heaps of counters; Hoa moves first. On a \
             turn the player to move chooses one heap and makes one of these moves:\n\n{rules}\n\n\
             A player who cannot move loses (the player who makes the last move wins). Both play \
             optimally.\n\nIn combinatorial game theory this is the octal game `{code}`.\n\
             {unproven}\nFor each of $T$ games, decide who wins.\n\n## Input\n\nThe first line \
             holds $T$. Each of the next $T$ lines describes a game: an integer $k$, the number \
             of heaps, then $k$ integers $h_1, h_2, \\dots, h_k$, the sizes of the heaps.\n\n\
             ## Output\n\nFor each game, in order, print one line: `First` if Hoa (the first player) \
             wins, or `Second` otherwise.\n\n## Constraints\n\n- $1 \\le T \\le {MAX_GAMES}$\n\
             - $1 \\le k \\le {MAX_HEAPS}$\n- $1 \\le h_i \\le {bound}$\n\
             - All input values are integers.\n\n## Scoring\n\n\
             - Subtask 1 ({} points): $h_i \\le {}$.\n- Subtask 2 ({} points): $h_i \\le {}$.\n\
             - Subtask 3 ({} points): no extra constraints.\n",
            small.1, small.2, medium.1, medium.2, large.1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;
    use std::collections::HashSet;
    use std::sync::Arc;

    fn problem(name: &'static str, code: &str) -> Problem {
        Problem::with(name, Arc::new(Octal::new(code, DEFAULT_UPTO).unwrap()))
    }

    /// A program answering each game of the input by `first_wins(heaps)`.
    fn program(first_wins: impl Fn(&[u64]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut out = String::new();
            for line in input.lines().skip(1) {
                let heaps: Vec<u64> = line
                    .split_whitespace()
                    .skip(1)
                    .map(|t| t.parse().unwrap())
                    .collect();
                out.push_str(if first_wins(&heaps) {
                    "First\n"
                } else {
                    "Second\n"
                });
            }
            out
        }
    }

    /// G(0..=n) from the statement's words: removing k counters (digit d_k) may leave nothing
    /// (1, when the heap had k), one heap (2) or, when `splits`, two non-empty heaps (4).
    fn by_rules(code: &str, n: usize, splits: bool) -> Vec<u64> {
        let digits: Vec<u32> = code[2..].chars().map(|c| c.to_digit(8).unwrap()).collect();
        let mut g = vec![0u64; n + 1];
        for h in 1..=n {
            let mut seen = HashSet::new();
            for (k, &d) in (1..=h).zip(&digits) {
                if d & 1 != 0 && h == k {
                    seen.insert(0);
                }
                if d & 2 != 0 && h > k {
                    seen.insert(g[h - k]);
                }
                if splits && d & 4 != 0 {
                    for a in 1..h - k {
                        seen.insert(g[a] ^ g[h - k - a]);
                    }
                }
            }
            g[h] = (0..).find(|x| !seen.contains(x)).unwrap();
        }
        g
    }

    fn by_values(code: &'static str, splits: bool) -> impl Fn(&[u64]) -> bool {
        move |heaps: &[u64]| {
            let g = by_rules(code, *heaps.iter().max().unwrap() as usize, splits);
            heaps.iter().fold(0, |x, &h| x ^ g[h as usize]) != 0
        }
    }

    fn nim(heaps: &[u64]) -> bool {
        heaps.iter().fold(0, |x, h| x ^ h) != 0
    }

    const GAMES: [(&str, &str); 3] = [
        ("kayles", "0.77"),
        ("dawsons-kayles", "0.07"),
        ("dawsons-chess", "0.137"),
    ];

    #[test]
    fn explanations_are_sound() {
        for (name, code) in GAMES {
            problem(name, code).assert_sound();
        }
        let ids = |code: &str| -> Vec<&str> {
            let family = Octal::new(code, DEFAULT_UPTO).unwrap();
            Explain::misconceptions(&family)
                .iter()
                .map(|m| m.id)
                .collect()
        };
        assert_eq!(ids("0.77"), ["kayles-as-nim", "octal-no-split"]);
        assert_eq!(ids("0.07"), ["octal-as-nim", "octal-no-split"]);
        assert_eq!(ids("0.137"), ["octal-as-nim", "octal-no-split"]);
        // Taking one to three counters: no split to leave out.
        assert_eq!(ids("0.333"), ["octal-as-nim"]);
        problem("take-three", "0.333").assert_sound();
        // Nim itself on heaps up to 40: nothing tells it apart.
        assert_eq!(ids(&format!("0.{}", "3".repeat(32))), Vec::<&str>::new());
    }

    #[test]
    fn the_rules_are_right() {
        for (name, code) in GAMES {
            problem(name, code).assert_right(&program(by_values(code, true)));
        }
    }

    #[test]
    fn nim_is_named_where_a_value_is_not_the_heap() {
        // Kayles: G(1) = 1 and G(4) = 1 cancel; Dawson's Kayles: a heap of 1 has no move;
        // Dawson's chess: G(1) = G(2) = 1 cancel.
        for ((name, code), id, position) in [
            (GAMES[0], "kayles-as-nim", "1\n2 1 4\n"),
            (GAMES[1], "octal-as-nim", "1\n1 1\n"),
            (GAMES[2], "octal-as-nim", "1\n2 1 2\n"),
        ] {
            let found = problem(name, code).assert_named(id, &program(nim));
            assert_eq!(found.position, position, "{name}");
            assert_eq!(
                (found.expected.as_str(), found.got.as_str()),
                ("Second", "First"),
                "{name}"
            );
        }
    }

    #[test]
    fn leaving_out_splits_is_named_at_the_first_heap_a_split_decides() {
        // Kayles: 3 is won by taking the middle one (1, 1 left), lost without splits (0.33:
        // n mod 3). Dawson's Kayles: 4 is won by taking the middle two; Dawson's chess: 5 by
        // taking three from the middle.
        for ((name, code), position) in [
            (GAMES[0], "1\n1 3\n"),
            (GAMES[1], "1\n1 4\n"),
            (GAMES[2], "1\n1 5\n"),
        ] {
            let found = problem(name, code)
                .assert_named("octal-no-split", &program(by_values(code, false)));
            assert_eq!(found.position, position, "{name}");
            assert_eq!(
                (found.expected.as_str(), found.got.as_str()),
                ("First", "Second"),
                "{name}"
            );
        }
    }

    #[test]
    fn certificates_give_the_values_and_a_move_in_the_rules_words() {
        let k = kayles();
        // G(1..=4) = 1, 2, 3, 1: from 4 a move leaves 3, 1 + 2, 2 or 1 + 1.
        let win = k.certificate(&vec![4]);
        for part in [
            "Hoa (the first player) wins.",
            "G(1), …, G(12) = 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4",
            "G(4) = mex{G(3), G(1) ⊕ G(2), G(2), G(1) ⊕ G(1)} = mex{3, 3, 2, 0} = 1",
            "The nim-sum is G(4) = 1 ≠ 0",
            "Removing 2 counters from the heap of 4 and splitting the rest into heaps of 1 and 1 \
             leaves the heaps 1, 1, worth 1 ⊕ 1 = 0: lost for Nam",
        ] {
            assert!(win.en.contains(part), "{part}: {}", win.en);
        }
        assert!(
            win.vi.contains(
                "Lấy 2 viên từ đống 4 viên và chia phần còn lại thành hai đống 1 và 1 viên"
            ),
            "{}",
            win.vi
        );
        // G(3) ⊕ G(5) = 3 ⊕ 4 = 7: the heap of 5 must go to value 3, and 5 − 2 = 3 does.
        let take = k.certificate(&vec![3, 5]);
        assert!(
            take.en.contains(
                "Removing 2 counters from the heap of 5 leaves the heaps 3, 3, worth 3 ⊕ 3 = 0"
            ),
            "{}",
            take.en
        );
        assert!(
            take.vi
                .contains("Lấy 2 viên từ đống 5 viên, để lại các đống 3, 3"),
            "{}",
            take.vi
        );
        let lose = k.certificate(&vec![1, 4]);
        assert!(
            lose.en.starts_with("Nam (the second player) wins."),
            "{}",
            lose.en
        );
        assert!(
            lose.en.contains("The nim-sum is G(1) ⊕ G(4) = 1 ⊕ 1 = 0."),
            "{}",
            lose.en
        );
        assert!(
            lose.en.contains("G(1) = mex{G(0)} = mex{0} = 1"),
            "{}",
            lose.en
        );
        // Beyond the values computed, the period: 10^18 ≡ 76 (mod 12), and 76 ≥ 71.
        let huge = k.certificate(&vec![1_000_000_000_000_000_000]);
        assert!(
            huge.en.contains(
                "G(1000000000000000000) = G(76) = 1, as G(n + 12) = G(n) for every n ≥ 71"
            ),
            "{}",
            huge.en
        );
        // Taking a heap whole, in Dawson's chess: a heap of 2.
        let chess = Octal::new("0.137", DEFAULT_UPTO).unwrap();
        let two = chess.certificate(&vec![2]);
        assert!(
            two.en
                .contains("Removing the whole heap of 2 leaves no counters, and Nam cannot move"),
            "{}",
            two.en
        );
    }

    #[test]
    fn winning_moves_leave_lost_games() {
        let huge = 1_000_000_000_000_000_000;
        for (_, code) in GAMES {
            let family = Octal::new(code, DEFAULT_UPTO).unwrap();
            let mut games = family.small_games();
            games.extend([vec![huge], vec![huge, huge - 1, 7]]);
            for game in games {
                match family.winning_move(&game) {
                    None => assert!(!family.first_wins(&game), "{code} {game:?}"),
                    Some((i, m)) => {
                        let mut left = game.clone();
                        left.remove(i);
                        left.extend(m.left());
                        assert!(!family.first_wins(&left), "{code} {game:?} {m:?}");
                        let taken = match m {
                            Move::All { k } => k,
                            Move::Take { k, .. } | Move::Split { k, .. } => k,
                        };
                        let total = |g: &[u64]| g.iter().sum::<u64>();
                        assert_eq!(total(&game) - total(&left), taken);
                    }
                }
            }
        }
    }

    #[test]
    fn shrinking_drops_or_halves_a_heap() {
        let k = kayles();
        assert_eq!(
            k.shrink(&vec![2, 5]),
            // By counters, then heaps: 2 (2), 2 + 2 (4), 5 (5), 1 + 5 and 2 + 4 (6).
            vec![vec![2], vec![2, 2], vec![5], vec![1, 5], vec![2, 4]]
        );
        assert!(k.shrink(&vec![1]).is_empty());
    }

    fn kayles() -> Octal {
        Octal::new("0.77", DEFAULT_UPTO).unwrap()
    }

    #[test]
    fn validator_rules() {
        let rule = |family: &Octal, text: &str| family.parse(text).unwrap_err().to_string();
        let k = kayles();
        assert_eq!(
            k.parse("2\n1 5\n2 1000000000000000000 3\n")
                .unwrap()
                .games
                .len(),
            2
        );
        assert_eq!(
            rule(&k, "1\n2 5\n"),
            "line 2: expected 3 tokens (k followed by k heap sizes), found 2"
        );
        assert_eq!(
            rule(&k, "1\n1 0\n"),
            "line 2: h_1 = 0 is outside 1..=1000000000000000000"
        );
        assert_eq!(
            rule(&k, "2\n1 1\n"),
            "line 3: expected a game \"k h_1 … h_k\", found the end of the input"
        );
        let open = Octal::new("0.6", 2000).unwrap();
        assert!(!open.is_proven());
        assert_eq!(
            rule(&open, "1\n1 2001\n"),
            "line 2: h_1 = 2001 is outside 1..=2000"
        );
    }

    #[test]
    fn kayles_answers() {
        // Kayles: a heap of 1, 2 or 3 is won (take it all); two equal heaps are lost; G(4) = 1
        // and G(1) = 1 cancel.
        let k = kayles();
        let input = k
            .parse("4\n1 3\n2 7 7\n2 1 4\n1 1000000000000000000\n")
            .unwrap();
        // G(10^18) = G(72 + (10^18 - 72) mod 12) = G(76) = 1 (Kayles's period 4 1 2 8 …).
        assert_eq!(k.solve(&input), "First\nSecond\nSecond\nFirst\n");
    }

    #[test]
    fn bad_tables_are_refused_with_the_fault() {
        let table = |text: &str| -> toml::Table { toml::from_str(text).unwrap() };
        assert_eq!(
            Octal::from_table(&table("code = \"0.79\""))
                .unwrap_err()
                .to_string(),
            "[game] code: position 4: the digit 9 is out of range (octal digits are 0 to 7)"
        );
        assert!(matches!(
            Octal::from_table(&table("code = \"0.00\"")),
            Err(OctalError::NoMoves(_))
        ));
        assert_eq!(
            Octal::from_table(&table("code = \"0.7\"\nupto = 5")).unwrap_err(),
            OctalError::Upto(5)
        );
        assert!(matches!(
            Octal::from_table(&table("kode = \"0.7\"")),
            Err(OctalError::Table(_))
        ));
    }

    #[test]
    fn statements_state_the_rule_in_words() {
        let chess = Octal::new("0.137", DEFAULT_UPTO).unwrap();
        let en = statement(&chess, "Dawson's chess", "en");
        assert!(en.contains("- Remove exactly 1 counter from one heap, so that nothing is left (only when the heap has exactly 1)."), "{en}");
        assert!(en.contains("- Remove exactly 2 counters from one heap, so that nothing is left (only when the heap has exactly 2), or the rest stays as one smaller heap (when the heap has more than 2)."), "{en}");
        assert!(
            en.contains("split into two non-empty heaps (when the heap has at least 5)"),
            "{en}"
        );
        assert!(en.contains("$1 \\le h_i \\le 10^{18}$"), "{en}");
        let vi = statement(&chess, "Cờ Dawson", "vi");
        assert!(vi.contains("được chia thành hai đống khác rỗng"), "{vi}");
        let open = Octal::new("0.6", 3000).unwrap();
        let en = statement(&open, "Open", "en");
        assert!(
            en.contains("$1 \\le h_i \\le 3000$") && en.contains("No period"),
            "{en}"
        );
    }

    #[test]
    fn a_request_makes_a_problem_that_loads() {
        let request = OctalRequest {
            slug: "dawson".into(),
            title: BTreeMap::from([("en".into(), "Dawson".into())]),
            code: "0.137".into(),
            upto: None,
            seed: 7,
        };
        let files = problem_files(&request).unwrap();
        let problem = crate::Problem::from_files("dawson", &files).unwrap();
        assert_eq!(problem.spec.family, "octal");
        assert!(problem.statement("vi").unwrap().contains("0.137"));
        let bad = OctalRequest {
            code: "0.".into(),
            ..request
        };
        assert_eq!(
            problem_files(&bad).unwrap_err(),
            OctalError::Code(CodeError::NoDigits)
        );
    }
}
