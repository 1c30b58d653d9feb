//! Nim (POJ 2234 "Matches Game"): lines `M p_1 … p_M` until the end of the file.

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, nim};
use rand::RngExt;
use serde::Deserialize;

pub struct Nim;

const MAX_LINES: u32 = 10_000;
const MAX_PILES: u32 = 20;
const MAX_PILE: u32 = 10_000_000;

#[derive(Debug)]
pub struct Input {
    pub games: Vec<Vec<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_lines: u32,
    pub max_piles: u32,
    pub max_pile: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "Yes" } else { "No" }
}

fn xor_wins(piles: &[u32]) -> bool {
    nim::nim_sum(piles.iter().map(|&p| u64::from(p))) != 0
}

impl Family for Nim {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut games = Vec::new();
        while !reader.at_eof() {
            let line = reader.line("a game")?;
            if games.len() == MAX_LINES as usize {
                return Err(line.error(format!("at most {MAX_LINES} lines are allowed")));
            }
            let m: u32 = line.int(0, "M", 1..=MAX_PILES)?;
            line.expect_len(m as usize + 1, "M followed by M pile sizes")?;
            let piles = (1..=m as usize)
                .map(|i| line.int(i, &format!("p_{i}"), 1..=MAX_PILE))
                .collect::<Result<Vec<u32>, _>>()?;
            games.push(piles);
        }
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        for piles in &input.games {
            push_line(
                &mut out,
                std::iter::once(piles.len() as u32).chain(piles.iter().copied()),
            );
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_lines", p.max_lines.into(), 1, MAX_LINES.into())?;
        within("max_piles", p.max_piles.into(), 1, MAX_PILES.into())?;
        within("max_pile", p.max_pile.into(), 1, MAX_PILE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of lines",
            input.games.len() as u64,
            p.max_lines.into(),
        )?;
        for piles in &input.games {
            at_most("M", piles.len() as u64, p.max_piles.into())?;
            at_most(
                "a pile",
                (*piles.iter().max().expect("M ≥ 1")).into(),
                p.max_pile.into(),
            )?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let count = p.max_lines as usize;
        let random_piles = |rng: &mut TestRng, m: u32| -> Vec<u32> {
            (0..m).map(|_| rng.random_range(1..=p.max_pile)).collect()
        };
        let games = (0..count)
            // Tests 1–5 each hold one theme; later tests mix them line by line.
            .map(|line| if index <= 4 { index } else { 1 + line % 5 })
            .map(|theme| match theme {
                // The largest lines: every pile at or near the limit.
                0 => (0..p.max_piles)
                    .map(|_| p.max_pile - rng.random_range(0..p.max_pile.min(3)))
                    .collect(),
                // Losing lines: the last pile cancels the others when it can.
                1 => {
                    let m = rng.random_range(2..=p.max_piles.max(2)).min(p.max_piles);
                    let mut piles = random_piles(rng, m);
                    let rest = piles[..piles.len() - 1].iter().fold(0, |a, &b| a ^ b);
                    if (1..=p.max_pile).contains(&rest) {
                        *piles.last_mut().expect("m ≥ 1") = rest;
                    }
                    piles
                }
                // Equal piles: an even number loses, an odd number wins.
                2 => {
                    let m = rng.random_range(1..=p.max_piles);
                    vec![rng.random_range(1..=p.max_pile); m as usize]
                }
                // One pile: always a win.
                3 => vec![rng.random_range(1..=p.max_pile)],
                // Powers of two and their neighbours.
                4 => (0..rng.random_range(1..=p.max_piles))
                    .map(|_| {
                        let power = 1u32 << rng.random_range(0..=p.max_pile.ilog2());
                        (power + rng.random_range(0..=1)).min(p.max_pile)
                    })
                    .collect(),
                _ => {
                    let m = rng.random_range(1..=p.max_piles);
                    random_piles(rng, m)
                }
            })
            .collect();
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.games.iter().map(|piles| word(xor_wins(piles))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input
            .games
            .iter()
            .all(|piles| piles.len() <= 4 && piles.iter().all(|&p| p <= 6));
        let brute = small.then(|| {
            lines(input.games.iter().map(|piles| {
                let mut position: Vec<u64> = piles.iter().map(|&p| p.into()).collect();
                position.sort_unstable();
                word(
                    implicit::outcome(&nim::NimRules, position, 10_000)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every multiset of one to four piles of sizes 1..=6.
        let mut games = Vec::new();
        let mut piles = Vec::new();
        fn extend(piles: &mut Vec<u32>, games: &mut Vec<Vec<u32>>) {
            if !piles.is_empty() {
                games.push(piles.clone());
            }
            if piles.len() == 4 {
                return;
            }
            let from = piles.last().copied().unwrap_or(1);
            for size in from..=6 {
                piles.push(size);
                extend(piles, games);
                piles.pop();
            }
        }
        extend(&mut piles, &mut games);
        vec![Input { games }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> String {
        Nim.parse(text).unwrap_err().to_string()
    }

    #[test]
    fn validator_rules() {
        assert_eq!(Nim.parse("2 45 45\n3 3 6 9\n").unwrap().games.len(), 2);
        assert_eq!(
            rule("2 45\n"),
            "line 1: expected 3 tokens (M followed by M pile sizes), found 2"
        );
        assert_eq!(rule("21 1\n"), "line 1: M = 21 is outside 1..=20");
        assert_eq!(
            rule("1 1\n1 0\n"),
            "line 2: p_1 = 0 is outside 1..=10000000"
        );
        assert_eq!(
            rule("1 10000001\n"),
            "line 1: p_1 = 10000001 is outside 1..=10000000"
        );
        assert_eq!(rule("1 1\n\n"), "line 2: empty lines are not allowed");
        assert_eq!(rule("0\n"), "line 1: M = 0 is outside 1..=20");
        let too_many = "1 1\n".repeat(MAX_LINES as usize + 1);
        assert_eq!(
            rule(&too_many),
            "line 10001: at most 10000 lines are allowed"
        );
    }
}
