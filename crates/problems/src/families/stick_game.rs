//! CSES 1729 "Stick Game": `n k`, then `p_1 … p_k`; print W/L for every heap size 1..=n.

use super::{at_most, first_duplicate, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct StickGame;

const MAX_N: u32 = 1_000_000;
const MAX_K: u32 = 100;

#[derive(Debug)]
pub struct Input {
    pub n: u32,
    pub moves: Vec<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_k: u32,
}

fn letters(wins: impl Iterator<Item = bool>) -> String {
    let mut out: String = wins.map(|w| if w { 'W' } else { 'L' }).collect();
    out.push('\n');
    out
}

impl Family for StickGame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, k): (u32, u32) = reader.pair(("n", 1..=MAX_N), ("k", 1..=MAX_K))?;
        let moves: Vec<u32> = reader.values("p", k as usize, 1..=n)?;
        if let Some(twice) = first_duplicate(&moves) {
            return Err(ValidationError::new(
                2,
                format!("the value {} appears twice (the p_i are distinct)", twice),
            ));
        }
        reader.expect_eof()?;
        Ok(Input { n, moves })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.n, input.moves.len() as u32]);
        push_line(&mut out, &input.moves);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_k", p.max_k.into(), 1, MAX_K.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("n", input.n.into(), p.max_n.into())?;
        at_most("k", input.moves.len() as u64, p.max_k.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let n = if index < 4 {
            p.max_n
        } else {
            rng.random_range(1..=p.max_n)
        };
        let k = p.max_k.min(n);
        let sample = |rng: &mut TestRng, count: u32, high: u32| -> Vec<u32> {
            rand::seq::index::sample(rng, high as usize, count.min(high) as usize)
                .into_iter()
                .map(|v| v as u32 + 1)
                .collect()
        };
        let moves = match index {
            // The most moves, all small: the slowest programme for a naive solution.
            0 => sample(rng, k, (2 * k).min(n)),
            // Only 1: alternating W and L.
            1 => vec![1],
            // Only large moves, 1 among them (CSES always has 1).
            2 => {
                let mut m = sample(rng, k.saturating_sub(1).max(1), n);
                m.retain(|&v| v != 1);
                m.insert(0, 1);
                m.truncate(k as usize);
                m
            }
            // One move equal to n.
            3 => vec![n],
            _ => {
                let count = rng.random_range(1..=k);
                let high = if rng.random_bool(0.5) {
                    n.min(3 * count)
                } else {
                    n
                };
                sample(rng, count, high)
            }
        };
        Input { n, moves }
    }

    fn solve(&self, input: &Input) -> String {
        let moves: Vec<usize> = input.moves.iter().map(|&m| m as usize).collect();
        letters(
            subtraction::winning_table(input.n as usize, &moves)
                .into_iter()
                .skip(1),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let moves: Vec<usize> = input.moves.iter().map(|&m| m as usize).collect();
        let n = input.n as usize;
        let grundy = letters(
            subtraction::grundy_table(n, &moves)
                .into_iter()
                .skip(1)
                .map(|g| g != 0),
        );
        let brute = (n <= 300).then(|| {
            let rules = subtraction::SubtractionRules { moves };
            letters((1..=n).map(|pile| {
                implicit::outcome(&rules, pile, n + 1)
                    .expect("bounded")
                    .is_win()
            }))
        });
        vec![
            CrossCheck::new("Sprague-Grundy values", Some(grundy)),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        (1u32..64)
            .map(|mask| Input {
                n: 30,
                moves: (1..=6).filter(|b| mask >> (b - 1) & 1 == 1).collect(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(StickGame.parse("10 3\n1 3 4\n").is_ok());
        assert!(
            StickGame.parse("10 2\n4 1\n").is_ok(),
            "the values need not be sorted"
        );
        let rule = |t: &str| StickGame.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("10 2\n4 4\n"),
            "line 2: the value 4 appears twice (the p_i are distinct)"
        );
        assert_eq!(rule("10 1\n11\n"), "line 2: p_1 = 11 is outside 1..=10");
        assert_eq!(rule("10 101\n"), "line 1: k = 101 is outside 1..=100");
        assert_eq!(
            rule("1000001 1\n1\n"),
            "line 1: n = 1000001 is outside 1..=1000000"
        );
    }
}
