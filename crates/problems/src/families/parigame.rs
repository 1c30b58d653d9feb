//! Parigame (VOI 2011): `k` games, each `n` and an `n × n` table; erase the last row or column
//! when its sum is even.

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, parigame};
use rand::RngExt;
use serde::Deserialize;

pub struct Parigame;

const MAX_GAMES: u32 = 10;
const MAX_N: u32 = 500;
const MAX_VALUE: u64 = 1_000_000_000;

#[derive(Debug)]
pub struct Input {
    pub tables: Vec<Vec<Vec<u64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_n: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "YES" } else { "NO" }
}

/// A table whose entries are odd with the given probability.
fn table(rng: &mut TestRng, n: u32, odd: f64, big: bool) -> Vec<Vec<u64>> {
    let high = if big { MAX_VALUE } else { 9 };
    (0..n)
        .map(|_| {
            (0..n)
                .map(|_| {
                    let v = rng.random_range(1..=high);
                    let want_odd = rng.random_bool(odd);
                    if (v % 2 == 1) == want_odd {
                        v
                    } else if v == high {
                        v - 1
                    } else {
                        v + 1
                    }
                })
                .collect()
        })
        .collect()
}

impl Family for Parigame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"k\"")?;
        first.expect_len(1, "k")?;
        let games: u32 = first.int(0, "k", 1..=MAX_GAMES)?;
        let mut tables = Vec::with_capacity(games as usize);
        for _ in 0..games {
            let size = reader.line("a line \"n\"")?;
            size.expect_len(1, "n")?;
            let n: u32 = size.int(0, "n", 1..=MAX_N)?;
            let mut rows = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let row = reader.line("a row of the table")?;
                row.expect_len(n as usize, "a row of n numbers")?;
                rows.push(row.ints("value", 1..=MAX_VALUE)?);
            }
            tables.push(rows);
        }
        reader.expect_eof()?;
        Ok(Input { tables })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.tables.len()]);
        for table in &input.tables {
            push_line(&mut out, [table.len()]);
            for row in table {
                push_line(&mut out, row);
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, MAX_GAMES.into())?;
        within("max_n", p.max_n.into(), 1, MAX_N.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("k", input.tables.len() as u64, p.max_games.into())?;
        for table in &input.tables {
            at_most("n", table.len() as u64, p.max_n.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let games = p.max_games;
        let n = p.max_n;
        let tables = (0..games)
            .map(|game| match (index, game) {
                // Every game at full size with full-size values.
                (0, _) => table(rng, n, 0.5, true),
                // All entries even (every move always allowed) and all odd, at full size.
                (1, g) => table(
                    rng,
                    (n - (g % 2)).max(1),
                    if g < games / 2 { 0.0 } else { 1.0 },
                    false,
                ),
                // Single cells, and rare odd entries.
                (2, 0) => table(rng, 1, 0.0, false),
                (2, 1) => table(rng, 1, 1.0, false),
                (2, _) => {
                    let size = rng.random_range(1..=n);
                    table(rng, size, 0.05, true)
                }
                _ => {
                    let size = rng.random_range(1..=n);
                    let odd = rng.random_range(0.0..=1.0);
                    let big = rng.random_bool(0.5);
                    table(rng, size, odd, big)
                }
            })
            .collect();
        Input { tables }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.tables.iter().map(|t| word(parigame::first_wins(t))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input.tables.iter().all(|t| t.len() <= 60);
        let brute = small.then(|| {
            lines(input.tables.iter().map(|t| {
                let rules = parigame::ParigameRules { table: t };
                let n = t.len();
                word(
                    implicit::outcome(&rules, (n, n), (n + 1) * (n + 1))
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every parity pattern of 1×1, 2×2 and 3×3 tables (entries 1 and 2), ten games per input.
        let mut tables = Vec::new();
        for n in 1..=3usize {
            for mask in 0u32..(1 << (n * n)) {
                tables.push(
                    (0..n)
                        .map(|i| {
                            (0..n)
                                .map(|j| 1 + u64::from(mask >> (i * n + j) & 1))
                                .collect()
                        })
                        .collect(),
                );
            }
        }
        tables
            .chunks(MAX_GAMES as usize)
            .map(|c| Input { tables: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Parigame.parse("1\n2\n1 2\n3 4\n").is_ok());
        let rule = |t: &str| Parigame.parse(t).unwrap_err().to_string();
        assert_eq!(rule("11\n"), "line 1: k = 11 is outside 1..=10");
        assert_eq!(rule("1\n501\n"), "line 2: n = 501 is outside 1..=500");
        assert_eq!(
            rule("1\n2\n1 2\n3\n"),
            "line 4: expected 2 tokens (a row of n numbers), found 1"
        );
        assert_eq!(
            rule("1\n2\n1 2\n3 0\n"),
            "line 4: value_2 = 0 is outside 1..=1000000000"
        );
        assert_eq!(
            rule("1\n1\n1000000001\n"),
            "line 3: value_1 = 1000000001 is outside 1..=1000000000"
        );
        assert_eq!(
            rule("2\n1\n1\n"),
            "line 4: expected a line \"n\", found the end of the input"
        );
    }
}
