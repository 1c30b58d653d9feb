//! Wythoff's game in two formats: POJ 1067 (`a b` lines to the end of the file, `0 ≤ a, b ≤ 10⁹`,
//! answers `1`/`0`) and 51Nod 1185 (`T`, then `T` lines, `1 ≤ a, b ≤ 10¹⁸`, answers `A`/`B`).

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
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
fn largest_k(high: u64) -> u64 {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
