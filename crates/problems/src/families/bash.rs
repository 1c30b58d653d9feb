//! Bash's game (HDU 1846 "Brave Game"): `C`, then `C` lines `n m`; take 1..=m, last taker wins.

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct Bash;

const MAX_C: u32 = 1000;
const MAX_VALUE: u32 = 1000;

#[derive(Debug)]
pub struct Input {
    pub games: Vec<(u32, u32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_n: u32,
    pub max_m: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "first" } else { "second" }
}

impl Family for Bash {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"C\"")?;
        first.expect_len(1, "C")?;
        let count: u32 = first.int(0, "C", 1..=MAX_C)?;
        let mut games = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let line = reader.line("a line \"n m\"")?;
            line.expect_len(2, "n m")?;
            games.push((
                line.int(0, "n", 1..=MAX_VALUE)?,
                line.int(1, "m", 1..=MAX_VALUE)?,
            ));
        }
        reader.expect_eof()?;
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.games.len()]);
        for &(n, m) in &input.games {
            push_line(&mut out, [n, m]);
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, MAX_C.into())?;
        within("max_n", p.max_n.into(), 1, MAX_VALUE.into())?;
        within("max_m", p.max_m.into(), 1, MAX_VALUE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("C", input.games.len() as u64, p.max_games.into())?;
        for &(n, m) in &input.games {
            at_most("n", n.into(), p.max_n.into())?;
            at_most("m", m.into(), p.max_m.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let count = p.max_games as usize;
        let (max_n, max_m) = (p.max_n, p.max_m);
        let games = match index {
            // Losing positions: n a multiple of m + 1, including n = m + 1 ((1, 1) where none fits).
            0 => (0..count)
                .map(|_| {
                    let m = rng.random_range(1..=max_m.min(max_n.saturating_sub(1)).max(1));
                    let multiples = (max_n / (m + 1)).max(1);
                    let n = (m + 1) * rng.random_range(1..=multiples);
                    if n <= max_n { (n, m) } else { (1, 1) }
                })
                .collect(),
            // m ≥ n: the first player takes everything.
            1 => (0..count)
                .map(|_| {
                    let n = rng.random_range(1..=max_n.min(max_m));
                    (n, rng.random_range(n..=max_m))
                })
                .collect(),
            // The corners: smallest, largest, m = 1 parity, n = m and n = m + 1.
            2 => {
                let corners = [
                    (1, 1),
                    (max_n, max_m),
                    (max_n, 1),
                    (max_n.min(max_m), max_n.min(max_m)),
                    (2, 1),
                    (1, max_m),
                ];
                corners.into_iter().cycle().take(count.max(1)).collect()
            }
            _ => (0..count)
                .map(|_| (rng.random_range(1..=max_n), rng.random_range(1..=max_m)))
                .collect(),
        };
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .games
                .iter()
                .map(|&(n, m)| word(subtraction::bash_first_wins(n.into(), m.into()))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let dp = lines(input.games.iter().map(|&(n, m)| {
            let moves: Vec<usize> = (1..=m as usize).collect();
            word(subtraction::first_wins(n as usize, &moves))
        }));
        let brute = input.games.iter().all(|&(n, _)| n <= 200).then(|| {
            lines(input.games.iter().map(|&(n, m)| {
                let rules = subtraction::SubtractionRules {
                    moves: (1..=m as usize).collect(),
                };
                word(
                    implicit::outcome(&rules, n as usize, 201)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![
            CrossCheck::new("dynamic programme", Some(dp)),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let games = (1..=20)
            .flat_map(|n| (1..=20).map(move |m| (n, m)))
            .collect::<Vec<_>>();
        games
            .chunks(MAX_C as usize)
            .map(|c| Input { games: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> String {
        Bash.parse(text).unwrap_err().to_string()
    }

    #[test]
    fn validator_rules() {
        assert!(Bash.parse("2\n23 2\n4 3\n").is_ok());
        assert_eq!(rule("0\n"), "line 1: C = 0 is outside 1..=1000");
        assert_eq!(
            rule("2\n23 2\n"),
            "line 3: expected a line \"n m\", found the end of the input"
        );
        assert_eq!(rule("1\n1001 2\n"), "line 2: n = 1001 is outside 1..=1000");
        assert_eq!(rule("1\n5 0\n"), "line 2: m = 0 is outside 1..=1000");
        assert_eq!(rule("1\n5\n"), "line 2: expected 2 tokens (n m), found 1");
    }
}
