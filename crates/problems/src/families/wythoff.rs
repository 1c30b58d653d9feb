//! Wythoff's game in two formats: POJ 1067 (`a b` lines to the end of the file, `0 ≤ a, b ≤ 10⁹`,
//! answers `1`/`0`) and 51Nod 1185 (`T`, then `T` lines, `1 ≤ a, b ≤ 10¹⁸`, answers `A`/`B`).

use super::wythoff_play::WythoffPlay;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, wythoff};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Deserialize;

/// One of the two public formats.
pub struct Wythoff {
    /// Whether the input starts with the number of lines (51Nod) or runs to the end (POJ).
    counted: bool,
    max_lines: u32,
    min_value: u64,
    max_value: u64,
    words: [&'static str; 2],
}

impl Wythoff {
    pub const POJ_1067: Wythoff = Wythoff {
        counted: false,
        max_lines: 100_000,
        min_value: 0,
        max_value: 1_000_000_000,
        words: ["1", "0"],
    };
    pub const NOD_1185: Wythoff = Wythoff {
        counted: true,
        max_lines: 10_000,
        min_value: 1,
        max_value: 1_000_000_000_000_000_000,
        words: ["A", "B"],
    };

    fn word(&self, first_wins: bool) -> &'static str {
        self.words[usize::from(!first_wins)]
    }

    fn pair(&self, line: &crate::strict::Line<'_>) -> Result<(u64, u64), ValidationError> {
        line.expect_len(2, "a b")?;
        let range = self.min_value..=self.max_value;
        Ok((line.int(0, "a", range.clone())?, line.int(1, "b", range)?))
    }

    /// The pairs that break wrong solutions, within `low..=high`: the losing pairs at Fibonacci
    /// `k` (where floating point fails first) and their neighbours in both orders, the largest
    /// losing pairs, and the corners.
    fn traps(&self, low: u64, high: u64) -> Vec<(u64, u64)> {
        let mut pairs = Vec::new();
        let mut push = |a: u128, b: u128| {
            if (low as u128..=high as u128).contains(&a)
                && (low as u128..=high as u128).contains(&b)
            {
                pairs.push((a as u64, b as u64));
            }
        };
        let largest = largest_k(high);
        let mut ks: Vec<u64> = wythoff::fibonacci_up_to(largest);
        ks.extend(largest.saturating_sub(3)..=largest);
        for k in ks {
            let (a, b) = wythoff::losing_position(k);
            for (da, db) in [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1)] {
                let (a, b) = (a as i128 + da, b as i128 + db);
                if a >= 0 && b >= 0 {
                    push(a as u128, b as u128);
                    push(b as u128, a as u128);
                }
            }
        }
        for (a, b) in [
            (0, 0),
            (0, 1),
            (1, 1),
            (1, 2),
            (2, 1),
            (high, high),
            (low, high),
            (high, low),
        ] {
            push(a as u128, b as u128);
        }
        pairs
    }

    fn random_losing(&self, rng: &mut TestRng, high: u64) -> Option<(u64, u64)> {
        let k = rng.random_range(0..=largest_k(high));
        let (a, b) = wythoff::losing_position(k);
        let (a, b) = (a as u64, b as u64);
        (a >= self.min_value).then(|| if rng.random_bool(0.5) { (a, b) } else { (b, a) })
    }
}

/// The largest `k` whose losing pair fits under `high`.
pub(super) fn largest_k(high: u64) -> u64 {
    let (mut low, mut top) = (0u64, high);
    while low < top {
        let mid = low + (top - low).div_ceil(2);
        if wythoff::losing_position(mid).1 <= u128::from(high) {
            low = mid;
        } else {
            top = mid - 1;
        }
    }
    low
}

#[derive(Debug)]
pub struct Input {
    pub pairs: Vec<(u64, u64)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_lines: u32,
    pub max_value: u64,
}

impl Family for Wythoff {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut pairs = Vec::new();
        if self.counted {
            let first = reader.line("the line \"T\"")?;
            first.expect_len(1, "T")?;
            let count: u32 = first.int(0, "T", 1..=self.max_lines)?;
            for _ in 0..count {
                pairs.push(self.pair(&reader.line("a line \"a b\"")?)?);
            }
            reader.expect_eof()?;
        } else {
            while !reader.at_eof() {
                let line = reader.line("a line \"a b\"")?;
                if pairs.len() == self.max_lines as usize {
                    return Err(line.error(format!("at most {} lines are allowed", self.max_lines)));
                }
                pairs.push(self.pair(&line)?);
            }
        }
        Ok(Input { pairs })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        if self.counted {
            push_line(&mut out, [input.pairs.len()]);
        }
        for &(a, b) in &input.pairs {
            push_line(&mut out, [a, b]);
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_lines", p.max_lines.into(), 1, self.max_lines.into())?;
        within(
            "max_value",
            p.max_value,
            self.min_value.max(2),
            self.max_value,
        )
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of pairs",
            input.pairs.len() as u64,
            p.max_lines.into(),
        )?;
        for &(a, b) in &input.pairs {
            at_most("a", a, p.max_value)?;
            at_most("b", b, p.max_value)?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let count = p.max_lines as usize;
        let (low, high) = (self.min_value, p.max_value);
        let mut pairs = match index {
            0 => {
                let mut traps = self.traps(low, high);
                traps.truncate(count);
                traps
            }
            // Losing pairs only.
            1 => (0..count)
                .filter_map(|_| self.random_losing(rng, high))
                .collect(),
            // Near the diagonal and near the top.
            2 => (0..count)
                .map(|_| {
                    let a = rng.random_range(high.saturating_sub(1000).max(low)..=high);
                    (a, a.saturating_sub(rng.random_range(0..=3)).max(low))
                })
                .collect(),
            // Half losing, half uniform.
            _ => (0..count)
                .map(|i| {
                    match (i % 2 == 0)
                        .then(|| self.random_losing(rng, high))
                        .flatten()
                    {
                        Some(pair) => pair,
                        None => (rng.random_range(low..=high), rng.random_range(low..=high)),
                    }
                })
                .collect(),
        };
        if pairs.is_empty() {
            pairs.push((low, low));
        }
        if index != 0 {
            pairs.shuffle(rng);
        }
        Input { pairs }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .pairs
                .iter()
                .map(|&(a, b)| self.word(wythoff::first_wins(a, b))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let largest = input
            .pairs
            .iter()
            .map(|&(a, b)| a.max(b))
            .max()
            .unwrap_or(0);
        let table = (largest <= 2_000).then(|| {
            let table = wythoff::winning_table(largest as usize);
            lines(
                input
                    .pairs
                    .iter()
                    .map(|&(a, b)| self.word(table[a as usize][b as usize])),
            )
        });
        let brute = (largest <= 30).then(|| {
            lines(input.pairs.iter().map(|&(a, b)| {
                self.word(
                    implicit::outcome(&wythoff::WythoffRules, (a, b), 1_000)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![
            CrossCheck::new("dynamic programme", table),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let low = self.min_value;
        let pairs: Vec<(u64, u64)> = (low..=30)
            .flat_map(|a| (low..=30).map(move |b| (a, b)))
            .collect();
        vec![Input { pairs }]
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// Wythoff's game on a page: the interactive problem's game.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(WythoffPlay))
    }
}

const WYTHOFF_AS_NIM: Misconception = Misconception {
    id: "wythoff-as-nim",
    title: "Nim's rule for Wythoff's game",
    text: "The program answers as in Nim: the first player wins iff a xor b is not 0. Wythoff's \
           game has one more kind of move, the same number from both piles, and that changes the \
           losing positions: with piles (1, 1) the first player takes one from each and wins, \
           and from (1, 2) every move leaves a position the opponent empties at once. The losing \
           positions are (⌊kφ⌋, ⌊kφ⌋ + k) for k = 0, 1, 2, …, with φ the golden ratio.",
};

const FLOAT_GOLDEN_RATIO: Misconception = Misconception {
    id: "float-golden-ratio",
    title: "The golden ratio in floating point",
    text: "The program uses the right rule, a ≤ b loses iff a = ⌊kφ⌋ with k = b − a, but computes \
           kφ in double precision. A double holds about 16 significant digits, and for some k, \
           Fibonacci numbers above all, kφ lies so close to an integer that the rounding of φ and \
           of the product puts the floor on the wrong side. Its counterexamples are large: every \
           small position is answered right, and the first failures are near 10⁸ (k = \
           102334155, where the double gives one too many). Compute ⌊kφ⌋ = (k + ⌊√(5k²)⌋) / 2 \
           with integers only (128-bit ones for piles up to 10¹⁸).",
};

/// The `k` of losing pairs within POJ 1067's limit (b ≤ 10⁹) on which double precision fails:
/// every such `k` there is, found by scanning them all (the test checks each one fails).
const DOUBLE_FAILS_BELOW_A_BILLION: [u64; 14] = [
    102_334_155,
    141_422_324,
    180_510_493,
    204_668_310,
    219_598_662,
    243_756_479,
    267_914_296,
    282_844_648,
    307_002_465,
    321_932_817,
    336_863_169,
    346_090_634,
    361_020_986,
    370_248_451,
];

/// How many witnesses a format gets at most.
const WITNESSES: usize = 12;

/// The losing pairs in order, written out for a certificate.
const FIRST_LOSING: &str = "(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13), …";

/// The index `j` of the losing pair whose smaller number is `x`, if `x` is one.
pub(super) fn index_of_smaller(x: u64) -> Option<u64> {
    // a_j ≥ j, so j ≤ x; a_j increases with j.
    let (mut low, mut high) = (0u64, x);
    while low < high {
        let mid = low + (high - low) / 2;
        if wythoff::losing_position(mid).0 < u128::from(x) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    (wythoff::losing_position(low).0 == u128::from(x)).then_some(low)
}

/// The index `j` of the losing pair whose larger number is `x`, if `x` is one.
pub(super) fn index_of_larger(x: u64) -> Option<u64> {
    let (mut low, mut high) = (0u64, x);
    while low < high {
        let mid = low + (high - low) / 2;
        if wythoff::losing_position(mid).1 < u128::from(x) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    (wythoff::losing_position(low).1 == u128::from(x)).then_some(low)
}

/// A move from a winning position `(a, b)` to a losing pair: `(from_a, from_b)` stones taken.
fn winning_move(a: u64, b: u64) -> (u64, u64) {
    let (low, high) = (a.min(b), a.max(b));
    let (lose_low, _) = wythoff::losing_position(high - low);
    let lose_low = lose_low as u64;
    // Returns the amounts taken from (low, high), then puts them back in the input's order.
    let (from_low, from_high) = if low > lose_low {
        // Keep the difference: take from both down to the losing pair of this difference.
        (low - lose_low, low - lose_low)
    } else if let Some(j) = index_of_smaller(low) {
        // `low` is a_j with j < high − low: bring the other pile down to b_j = low + j.
        (0, high - (low + j))
    } else {
        // Every number is some a_j or some b_j: `low` is b_j, bring the other pile to a_j.
        let j = index_of_larger(low).expect("a number is in one losing pair");
        (0, high - wythoff::losing_position(j).0 as u64)
    };
    if a <= b {
        (from_low, from_high)
    } else {
        (from_high, from_low)
    }
}

impl Explain for Wythoff {
    type Game = (u64, u64);

    fn small_games(&self) -> Vec<(u64, u64)> {
        let low = self.min_value;
        let mut games: Vec<(u64, u64)> = (low..=10)
            .flat_map(|a| (low..=10).map(move |b| (a, b)))
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> (u64, u64) {
        let losing = rng
            .random_bool(0.5)
            .then(|| self.random_losing(rng, 100))
            .flatten();
        losing.unwrap_or_else(|| {
            (
                rng.random_range(self.min_value..=60),
                rng.random_range(self.min_value..=60),
            )
        })
    }

    /// Losing pairs near the format's largest values on which double precision fails.
    fn witnesses(&self) -> Vec<(u64, u64)> {
        let ks: Vec<u64> = if self.max_value <= 1_000_000_000 {
            DOUBLE_FAILS_BELOW_A_BILLION[..WITNESSES].to_vec()
        } else {
            // For k a Fibonacci number, kφ lies within 1/(√5·k) of an integer: closer than the
            // rounding error of any floating type near the limits, so doubles and long doubles
            // (from k ≈ 4.8·10⁹) both miss ⌊kφ⌋ there. The largest such k.
            let (mut fibonacci, mut next) = (1u64, 2u64);
            let mut ks = Vec::new();
            while next <= largest_k(self.max_value) {
                (fibonacci, next) = (next, fibonacci + next);
                ks.push(fibonacci);
            }
            ks.into_iter()
                .rev()
                .filter(|&k| {
                    let (a, b) = wythoff::losing_position(k);
                    wythoff::first_wins_in_floating_point(a as u64, b as u64)
                })
                .take(WITNESSES)
                .collect()
        };
        let mut games: Vec<(u64, u64)> = ks
            .into_iter()
            .map(|k| {
                let (a, b) = wythoff::losing_position(k);
                (a as u64, b as u64)
            })
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn games_per_input(&self) -> usize {
        self.max_lines as usize
    }

    fn input_of(&self, games: &[(u64, u64)]) -> Input {
        Input {
            pairs: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<(u64, u64)> {
        input.pairs.clone()
    }

    fn answer(&self, &(a, b): &(u64, u64)) -> String {
        self.word(wythoff::first_wins(a, b)).to_owned()
    }

    fn size(&self, &(a, b): &(u64, u64)) -> u64 {
        a.saturating_add(b)
    }

    fn shrink(&self, &(a, b): &(u64, u64)) -> Vec<(u64, u64)> {
        let low = self.min_value;
        let mut smaller: Vec<(u64, u64)> = [
            (a / 2, b),
            (a, b / 2),
            (a.saturating_sub(1), b.saturating_sub(1)),
            (a.saturating_sub(1), b),
            (a, b.saturating_sub(1)),
        ]
        .into_iter()
        .filter(|&(x, y)| x >= low && y >= low && x + y < a + b)
        .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, &(a, b): &(u64, u64)) -> Certificate {
        let (low, high) = (a.min(b), a.max(b));
        let k = high - low;
        let (lose_low, lose_high) = wythoff::losing_position(k);
        let rule_en = format!(
            "The losing positions (P-positions) are (⌊kφ⌋, ⌊kφ⌋ + k) for k = 0, 1, 2, …, with \
             φ = (1 + √5) / 2: {FIRST_LOSING}; in either order, since the piles play alike. \
             Every number is in exactly one of them and no two have the same difference k."
        );
        let rule_vi = format!(
            "Các thế thua (thế P) là (⌊kφ⌋, ⌊kφ⌋ + k) với k = 0, 1, 2, …, φ = (1 + √5) / 2: \
             {FIRST_LOSING}; theo thứ tự nào cũng được, vì hai đống như nhau. Mỗi số nằm trong \
             đúng một thế P và không có hai thế P nào cùng hiệu k."
        );
        if !wythoff::first_wins(a, b) {
            return Certificate {
                en: format!(
                    "The first player loses: ({a}, {b}) is a P-position, the one for \
                     k = {high} − {low} = {k}, where ⌊{k}φ⌋ = {low}. {rule_en} A move changes \
                     one pile, keeping the other number, or takes from both, keeping the \
                     difference, so it never leads from one P-position to another; from the \
                     position it leaves, the second player moves back to a P-position, until \
                     the first player faces (0, 0)."
                ),
                vi: format!(
                    "Người đi trước thua: ({a}, {b}) là thế P, ứng với k = {high} − {low} = {k}, \
                     vì ⌊{k}φ⌋ = {low}. {rule_vi} Một nước đi hoặc thay đổi một đống, giữ \
                     nguyên số kia, hoặc lấy ở cả hai đống, giữ nguyên hiệu, nên không bao giờ \
                     đi từ thế P này sang thế P khác; từ thế mới, người đi sau lại đưa về một \
                     thế P, cho đến khi người đi trước gặp (0, 0)."
                ),
            };
        }
        let (from_a, from_b) = winning_move(a, b);
        let (left_a, left_b) = (a - from_a, b - from_b);
        let (take_en, take_vi) = match (from_a, from_b) {
            (t, u) if t == u => (
                format!("Taking {t} from both piles"),
                format!("Lấy {t} viên ở cả hai đống"),
            ),
            (t, 0) => (
                format!("Taking {t} from the first pile"),
                format!("Lấy {t} viên ở đống thứ nhất"),
            ),
            (_, u) => (
                format!("Taking {u} from the second pile"),
                format!("Lấy {u} viên ở đống thứ hai"),
            ),
        };
        let j = left_a.abs_diff(left_b);
        Certificate {
            en: format!(
                "The first player wins: ({a}, {b}) is not a P-position (the one with difference \
                 k = {k} is ({lose_low}, {lose_high})). {rule_en} {take_en} leaves \
                 ({left_a}, {left_b}), the P-position for k = {j}: every move from it leaves a \
                 position that is not one, and the first player moves back to one each time, \
                 until the second player faces (0, 0)."
            ),
            vi: format!(
                "Người đi trước thắng: ({a}, {b}) không phải thế P (thế P có hiệu k = {k} là \
                 ({lose_low}, {lose_high})). {rule_vi} {take_vi} để lại ({left_a}, {left_b}), \
                 thế P ứng với k = {j}: mọi nước đi từ đó đều rời khỏi thế P, và người đi \
                 trước lại đưa về thế P, cho đến khi người đi sau gặp (0, 0)."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[WYTHOFF_AS_NIM, FLOAT_GOLDEN_RATIO]
    }

    fn misconceived(&self, id: &str, &(a, b): &(u64, u64)) -> Option<String> {
        let first_wins = match id {
            "wythoff-as-nim" => a ^ b != 0,
            "float-golden-ratio" => wythoff::first_wins_in_floating_point(a, b),
            _ => return None,
        };
        Some(self.word(first_wins).to_owned())
    }

    /// Doubles are the worst case: a long double misses ⌊kφ⌋ on fewer games, always the same way.
    fn named_where_wrong(&self, id: &str) -> bool {
        id == "float-golden-ratio"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// A program for either format, answering each line `a b` by `first_wins`.
    fn program(family: &'static str, first_wins: fn(u64, u64) -> bool) -> impl Fn(&str) -> String {
        let (counted, words) = match family {
            "wythoff" => (false, ["1\n", "0\n"]),
            _ => (true, ["A\n", "B\n"]),
        };
        move |input: &str| {
            input
                .lines()
                .skip(usize::from(counted))
                .map(|line| {
                    let (a, b) = line.split_once(' ').unwrap();
                    let wins = first_wins(a.parse().unwrap(), b.parse().unwrap());
                    words[usize::from(!wins)]
                })
                .collect()
        }
    }

    /// ⌊kφ⌋ exactly: the largest `a` with 2a − k ≤ √5·k, found by bisection on squares.
    fn floor_k_phi(k: u64) -> u64 {
        let k = u128::from(k);
        let fits = |a: u128| 2 * a <= k || (2 * a - k) * (2 * a - k) <= 5 * k * k;
        let (mut low, mut high) = (k, 2 * k + 1);
        while low + 1 < high {
            let mid = (low + high) / 2;
            if fits(mid) { low = mid } else { high = mid }
        }
        low as u64
    }

    fn exact(a: u64, b: u64) -> bool {
        let (low, high) = (a.min(b), a.max(b));
        floor_k_phi(high - low) != low
    }

    fn as_nim(a: u64, b: u64) -> bool {
        a ^ b != 0
    }

    fn in_doubles(a: u64, b: u64) -> bool {
        let (low, high) = (a.min(b), a.max(b));
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        ((high - low) as f64 * phi).floor() as u64 != low
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("wythoff").assert_sound();
        Problem::new("wythoff-big").assert_sound();
    }

    #[test]
    fn exact_arithmetic_is_right() {
        for family in ["wythoff", "wythoff-big"] {
            Problem::new(family).assert_right(&program(family, exact));
        }
    }

    #[test]
    fn nim_is_named_with_one_stone_in_each_pile() {
        let found =
            Problem::new("wythoff").assert_named("wythoff-as-nim", &program("wythoff", as_nim));
        assert_eq!(found.position, "1 1\n");
        let found = Problem::new("wythoff-big")
            .assert_named("wythoff-as-nim", &program("wythoff-big", as_nim));
        assert_eq!(found.position, "1\n1 1\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("A", "B"));
    }

    #[test]
    fn doubles_are_named_on_a_large_losing_pair() {
        let found = Problem::new("wythoff")
            .assert_named_large("float-golden-ratio", &program("wythoff", in_doubles));
        // The first witness: k = F(40), where the double gives ⌊kφ⌋ one too many.
        assert_eq!(found.position, "165580140 267914295\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("0", "1"));
        assert!(
            found
                .certificate
                .en
                .contains("where ⌊102334155φ⌋ = 165580140")
        );
        let found = Problem::new("wythoff-big")
            .assert_named_large("float-golden-ratio", &program("wythoff-big", in_doubles));
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("B", "A"));
    }

    #[test]
    fn witnesses_are_losing_pairs_that_doubles_get_wrong() {
        for format in [&Wythoff::POJ_1067, &Wythoff::NOD_1185] {
            let witnesses = format.witnesses();
            assert_eq!(witnesses.len(), WITNESSES);
            for &(a, b) in &witnesses {
                assert!(format.min_value <= a && a <= b && b <= format.max_value);
                assert!(!exact(a, b), "({a}, {b}) is losing");
                assert!(in_doubles(a, b), "a double gets ({a}, {b}) wrong");
            }
        }
        for k in DOUBLE_FAILS_BELOW_A_BILLION {
            let a = floor_k_phi(k);
            assert!(a + k <= 1_000_000_000 && in_doubles(a, a + k), "k = {k}");
        }
    }

    #[test]
    fn certificates_name_the_move_to_a_losing_pair() {
        let poj = &Wythoff::POJ_1067;
        // The statement's example: (8, 4) → (7, 4), the losing pair for k = 3.
        let win = poj.certificate(&(8, 4));
        assert!(
            win.en
                .contains("Taking 1 from the first pile leaves (7, 4)"),
            "{}",
            win.en
        );
        assert!(win.en.contains("the P-position for k = 3"), "{}", win.en);
        assert!(win.en.contains("k = 4 is (6, 10)"), "{}", win.en);
        // Difference 1, whose losing pair is (1, 2): take 2 from both.
        let both = poj.certificate(&(3, 4));
        assert!(
            both.en.contains("Taking 2 from both piles leaves (1, 2)"),
            "{}",
            both.en
        );
        // 2 is the larger number of (1, 2): the other pile goes down to 1.
        let larger = poj.certificate(&(6, 2));
        assert!(
            larger
                .en
                .contains("Taking 5 from the first pile leaves (1, 2)"),
            "{}",
            larger.en
        );
        let empty = poj.certificate(&(0, 5));
        assert!(
            empty
                .en
                .contains("Taking 5 from the second pile leaves (0, 0)"),
            "{}",
            empty.en
        );
        let lose = poj.certificate(&(5, 3));
        assert!(lose.en.contains("The first player loses"), "{}", lose.en);
        assert!(
            lose.en.contains("k = 5 − 3 = 2, where ⌊2φ⌋ = 3"),
            "{}",
            lose.en
        );
        assert!(lose.vi.contains("Người đi trước thua"), "{}", lose.vi);
    }

    #[test]
    fn winning_moves_reach_losing_pairs() {
        for a in 0..=60 {
            for b in 0..=60 {
                if exact(a, b) {
                    let (from_a, from_b) = winning_move(a, b);
                    assert!(from_a <= a && from_b <= b && from_a + from_b > 0);
                    assert!(from_a == from_b || from_a == 0 || from_b == 0);
                    assert!(!exact(a - from_a, b - from_b), "({a}, {b})");
                }
            }
        }
        let (a, b) = Wythoff::NOD_1185.witnesses()[0];
        // a is the smaller number of its pair: the larger pile goes back down to b.
        assert_eq!(winning_move(a, b + 7), (0, 7));
        assert_eq!(winning_move(b + 7, a), (7, 0));
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        assert_eq!(
            Wythoff::POJ_1067.shrink(&(3, 4)),
            vec![(1, 4), (3, 2), (2, 3), (2, 4), (3, 3)]
        );
        assert_eq!(Wythoff::NOD_1185.shrink(&(1, 2)), vec![(1, 1)]);
        assert!(Wythoff::POJ_1067.shrink(&(0, 0)).is_empty());
    }

    #[test]
    fn validator_rules_poj() {
        let poj = &Wythoff::POJ_1067;
        assert_eq!(poj.parse("2 1\n8 4\n4 7\n").unwrap().pairs.len(), 3);
        assert_eq!(poj.parse("0 0\n").unwrap().pairs, vec![(0, 0)]);
        let rule = |t: &str| poj.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1000000001 1\n"),
            "line 1: a = 1000000001 is outside 0..=1000000000"
        );
        assert_eq!(rule("1 -1\n"), "line 1: b = -1 is outside 0..=1000000000");
        assert_eq!(rule("1 2\n3\n"), "line 2: expected 2 tokens (a b), found 1");
        assert_eq!(
            rule("1 2\n0 0"),
            "line 2: the last line must end with a newline"
        );
        assert_eq!(
            rule(&"1 1\n".repeat(100_001)),
            "line 100001: at most 100000 lines are allowed"
        );
    }

    #[test]
    fn validator_rules_51nod() {
        let nod = &Wythoff::NOD_1185;
        assert_eq!(nod.parse("3\n3 5\n3 4\n1 9\n").unwrap().pairs.len(), 3);
        let rule = |t: &str| nod.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n0 5\n"),
            "line 2: a = 0 is outside 1..=1000000000000000000"
        );
        assert_eq!(
            rule("1\n1 1000000000000000001\n"),
            "line 2: b = 1000000000000000001 is outside 1..=1000000000000000000"
        );
        assert_eq!(
            rule("2\n1 1\n"),
            "line 3: expected a line \"a b\", found the end of the input"
        );
        assert_eq!(
            rule("1\n1 1\n1 1\n"),
            "line 3: expected the end of the input, found another line"
        );
        assert_eq!(rule("10001\n"), "line 1: T = 10001 is outside 1..=10000");
    }

    #[test]
    fn traps_include_the_floating_point_failures() {
        let traps = Wythoff::POJ_1067.traps(0, 1_000_000_000);
        assert!(traps.contains(&(0, 0)));
        let failing: Vec<_> = traps
            .iter()
            .filter(|&&(a, b)| {
                wythoff::first_wins(a, b) != wythoff::first_wins_in_floating_point(a, b)
            })
            .collect();
        assert!(
            !failing.is_empty(),
            "no trap catches a double-precision solution"
        );
        assert!(traps.len() <= 100_000);
    }

    #[test]
    fn largest_k_is_the_last_fitting_pair() {
        for high in [0, 1, 2, 3, 10, 1_000_000_000, 1_000_000_000_000_000_000] {
            let k = largest_k(high);
            assert!(wythoff::losing_position(k).1 <= u128::from(high));
            assert!(wythoff::losing_position(k + 1).1 > u128::from(high));
        }
    }
}
