//! Coin turning, Mock Turtles (own format): `T` tests of `n` and a row of `H`/`T`.

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::coins;
use rand::RngExt;
use serde::Deserialize;

pub struct Coins;

const MAX_T: u32 = 10;
const MAX_N: u32 = 100_000;

#[derive(Debug)]
pub struct Input {
    /// Each row: true for heads.
    pub rows: Vec<Vec<bool>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_tests: u32,
    pub max_n: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "First" } else { "Second" }
}

impl Family for Coins {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("T", 1..=MAX_T)?;
        let mut rows = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let n: u32 = reader.single("n", 1..=MAX_N)?;
            let line = reader.line("the row of coins")?;
            line.expect_len(1, "a string of H and T")?;
            let row = line.token(0);
            if row.len() != n as usize {
                return Err(line.error(format!("the row has {} coins, not n = {n}", row.len())));
            }
            if let Some(bad) = row.chars().find(|c| !matches!(c, 'H' | 'T')) {
                return Err(line.error(format!("'{bad}' is not a coin face (H or T)")));
            }
            rows.push(row.chars().map(|c| c == 'H').collect());
        }
        reader.expect_eof()?;
        Ok(Input { rows })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.rows.len()]);
        for row in &input.rows {
            push_line(&mut out, [row.len()]);
            out.extend(row.iter().map(|&h| if h { 'H' } else { 'T' }));
            out.push('\n');
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_tests", p.max_tests.into(), 1, MAX_T.into())?;
        within("max_n", p.max_n.into(), 1, MAX_N.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.rows.len() as u64, p.max_tests.into())?;
        input
            .rows
            .iter()
            .try_for_each(|r| at_most("n", r.len() as u64, p.max_n.into()))
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let rows = (0..p.max_tests as usize)
            .map(|r| {
                let n = if index == 0 {
                    p.max_n
                } else {
                    rng.random_range(1..=p.max_n)
                } as usize;
                match (index, r % 4) {
                    (1, 0) => vec![false; n],
                    (1, 1) => vec![true; n],
                    (1, 2) => (0..n).map(|i| i + 1 == n).collect(),
                    _ => {
                        let density = rng.random_range(0.0..=1.0);
                        let mut row: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
                        // Every other row made losing by turning the coin worth the row's value
                        // (first turning coin 1 when that value is evil, not odious); every fourth
                        // row then gets coin 1 turned, leaving a value of exactly 1.
                        if r % 2 == 1 {
                            let mut value = (0..n)
                                .filter(|&i| row[i])
                                .fold(0, |a, i| a ^ coins::odious(i as u64 + 1));
                            if value != 0 && value.count_ones().is_multiple_of(2) {
                                row[0] ^= true;
                                value ^= 1;
                            }
                            let position = value / 2 + 1;
                            if value != 0 && position <= n as u64 {
                                row[position as usize - 1] ^= true;
                            }
                            if r % 4 == 3 {
                                row[0] ^= true;
                            }
                        }
                        row
                    }
                }
            })
            .collect();
        Input { rows }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.rows.iter().map(|r| word(coins::first_wins(r))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let longest = input.rows.iter().map(Vec::len).max().unwrap_or(0);
        let by_definition = (longest <= 150).then(|| {
            let values = coins::head_values(longest);
            lines(input.rows.iter().map(|r| {
                word(
                    r.iter()
                        .zip(&values)
                        .filter(|(h, _)| **h)
                        .fold(0, |a, (_, v)| a ^ v)
                        != 0,
                )
            }))
        });
        let brute = input
            .rows
            .iter()
            .map(|r| {
                (r.len() <= 10)
                    .then(|| coins::brute_force_first_wins(r, 10_000))
                    .flatten()
            })
            .collect::<Option<Vec<bool>>>()
            .map(|w| lines(w.into_iter().map(word)));
        vec![
            CrossCheck::new("head values by definition", by_definition),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let rows: Vec<Vec<bool>> = (1..=8usize)
            .flat_map(|n| {
                (0u32..1 << n).map(move |mask| (0..n).map(|i| mask >> i & 1 == 1).collect())
            })
            .collect();
        rows.chunks(MAX_T as usize)
            .map(|c| Input { rows: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Coins.parse("1\n3\nHTH\n").is_ok());
        let rule = |t: &str| Coins.parse(t).unwrap_err().to_string();
        assert_eq!(rule("1\n3\nHT\n"), "line 3: the row has 2 coins, not n = 3");
        assert_eq!(
            rule("1\n3\nHxH\n"),
            "line 3: 'x' is not a coin face (H or T)"
        );
        assert_eq!(
            rule("1\n3\nH T H\n"),
            "line 3: expected 1 token (a string of H and T), found 3"
        );
        assert_eq!(rule("11\n"), "line 1: T = 11 is outside 1..=10");
    }
}
