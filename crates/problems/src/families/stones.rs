//! Stones (AtCoder Educational DP Contest K): `N K`, then the move set `a_1 < … < a_N`.

use super::{at_most, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct Stones;

const MAX_N: u32 = 100;
const MAX_K: u32 = 100_000;

#[derive(Debug)]
pub struct Input {
    pub moves: Vec<u32>,
    pub pile: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_k: u32,
}

fn answer(first_wins: bool) -> String {
    if first_wins { "First\n" } else { "Second\n" }.to_string()
}

fn sizes(moves: &[u32]) -> Vec<usize> {
    moves.iter().map(|&m| m as usize).collect()
}

/// `count` distinct values from `1..=high`, sorted.
fn distinct(rng: &mut TestRng, count: u32, high: u32) -> Vec<u32> {
    let mut values: Vec<u32> = rand::seq::index::sample(rng, high as usize, count as usize)
        .into_iter()
        .map(|v| v as u32 + 1)
        .collect();
    values.sort_unstable();
    values
}

impl Family for Stones {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, pile): (u32, u32) = reader.pair(("N", 1..=MAX_N), ("K", 1..=MAX_K))?;
        let second = reader.line("the line of a_1 … a_N")?;
        second.expect_len(n as usize, "a_1 … a_N")?;
        let moves: Vec<u32> = second.ints("a", 1..=pile)?;
        if let Some(i) = (1..moves.len()).find(|&i| moves[i] <= moves[i - 1]) {
            return Err(second.error(format!(
                "a_{} = {} must be greater than a_{} = {} (the values are strictly increasing)",
                i + 1,
                moves[i],
                i,
                moves[i - 1]
            )));
        }
        reader.expect_eof()?;
        Ok(Input { moves, pile })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.moves.len() as u32, input.pile]);
        push_line(&mut out, &input.moves);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_k", p.max_k.into(), 1, MAX_K.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.moves.len() as u64, p.max_n.into())?;
        at_most("K", input.pile.into(), p.max_k.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let k = p.max_k;
        let n = p.max_n.min(k);
        match index {
            // The largest input: every limit at once.
            0 => Input {
                moves: distinct(rng, n, k),
                pile: k,
            },
            // One move of one stone: pure parity.
            1 => Input {
                moves: vec![1],
                pile: k,
            },
            // The only move takes the whole pile.
            2 => Input {
                moves: vec![k],
                pile: k,
            },
            // Bash's game: every amount from 1 to N.
            3 => Input {
                moves: (1..=n).collect(),
                pile: k,
            },
            // The largest moves only.
            4 => Input {
                moves: (k - n + 1..=k).collect(),
                pile: k,
            },
            // The smallest input.
            5 => Input {
                moves: vec![1],
                pile: 1,
            },
            // Random move sets: from small moves only (long, irregular periods) at index 6, from
            // anywhere later. Every other test aims at a losing pile, which random piles rarely
            // hit: without them "print First" would pass.
            _ => {
                let high = if index == 6 {
                    (2 * n).min(k)
                } else {
                    rng.random_range(1..=k)
                };
                let count = rng.random_range(1..=n.min(high));
                let moves = distinct(rng, count, high);
                let largest_move = *moves.last().expect("at least one move");
                let losing: Vec<u32> = if index.is_multiple_of(2) {
                    let wins = subtraction::winning_table(k as usize, &sizes(&moves));
                    (largest_move..=k)
                        .filter(|&pile| !wins[pile as usize])
                        .collect()
                } else {
                    Vec::new()
                };
                let pile = if losing.is_empty() {
                    rng.random_range(largest_move..=k)
                } else {
                    losing[rng.random_range(0..losing.len())]
                };
                Input { moves, pile }
            }
        }
    }

    fn solve(&self, input: &Input) -> String {
        answer(subtraction::first_wins(
            input.pile as usize,
            &sizes(&input.moves),
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let moves = sizes(&input.moves);
        let pile = input.pile as usize;
        let sprague_grundy = subtraction::grundy_table(pile, &moves)[pile] != 0;
        let brute = (pile <= 5_000).then(|| {
            let rules = subtraction::SubtractionRules { moves };
            implicit::outcome(&rules, pile, pile + 1)
                .expect("within the bound")
                .is_win()
        });
        vec![
            CrossCheck::new("Sprague-Grundy values", Some(answer(sprague_grundy))),
            CrossCheck::new("brute force", brute.map(answer)),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every move set within {1, …, 5} and every pile up to 15 that the set allows.
        let mut inputs = Vec::new();
        for mask in 1u32..32 {
            let moves: Vec<u32> = (1..=5).filter(|b| mask & (1 << (b - 1)) != 0).collect();
            for pile in *moves.last().expect("non-empty")..=15 {
                inputs.push(Input {
                    moves: moves.clone(),
                    pile,
                });
            }
        }
        inputs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> String {
        Stones.parse(text).unwrap_err().to_string()
    }

    #[test]
    fn validator_rules() {
        assert!(Stones.parse("2 4\n2 3\n").is_ok());
        assert_eq!(rule("0 4\n\n"), "line 1: N = 0 is outside 1..=100");
        assert_eq!(
            rule("1 100001\n1\n"),
            "line 1: K = 100001 is outside 1..=100000"
        );
        assert_eq!(
            rule("2 4\n2\n"),
            "line 2: expected 2 tokens (a_1 … a_N), found 1"
        );
        assert_eq!(
            rule("2 4\n3 3\n"),
            "line 2: a_2 = 3 must be greater than a_1 = 3 (the values are strictly increasing)"
        );
        assert_eq!(rule("2 4\n2 5\n"), "line 2: a_2 = 5 is outside 1..=4");
        assert_eq!(rule("2 4\n0 3\n"), "line 2: a_1 = 0 is outside 1..=4");
        assert_eq!(
            rule("2 4\n2 3\n\n"),
            "line 3: expected the end of the input, found another line"
        );
        assert_eq!(
            rule("2 4\n"),
            "line 2: expected the line of a_1 … a_N, found the end of the input"
        );
        assert_eq!(
            rule("2 4 5\n2 3\n"),
            "line 1: expected 2 tokens (N K), found 3"
        );
    }
}
