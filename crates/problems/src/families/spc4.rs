//! SPC4, "addition cards": `N K T`, then `a_1 … a_N`; cards are taken from the right end.

use super::{at_most, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::cards::{self, Verdict};
use rand::RngExt;
use serde::Deserialize;

pub struct Spc4;

const MAX_N: u32 = 100;
const MAX_TOKENS: u32 = 100;
const MAX_ABS: i64 = 1_000_000_000;
/// Game trees up to this many positions are searched exhaustively.
const BRUTE_FORCE_POSITIONS: usize = 2_000_000;

#[derive(Debug)]
pub struct Input {
    pub values: Vec<i64>,
    pub first_tokens: u32,
    pub second_tokens: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_tokens: u32,
    pub max_abs: i64,
}

fn word(verdict: Verdict) -> String {
    match verdict {
        Verdict::Win => "Win\n",
        Verdict::Draw => "Draw\n",
        Verdict::Lose => "Lose\n",
    }
    .to_string()
}

impl Family for Spc4 {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"N K T\"")?;
        first.expect_len(3, "N K T")?;
        let n: u32 = first.int(0, "N", 1..=MAX_N)?;
        let first_tokens = first.int(1, "K", 0..=MAX_TOKENS)?;
        let second_tokens = first.int(2, "T", 0..=MAX_TOKENS)?;
        let second = reader.line("the line of a_1 … a_N")?;
        second.expect_len(n as usize, "a_1 … a_N")?;
        let values = second.ints("a", -MAX_ABS..=MAX_ABS)?;
        reader.expect_eof()?;
        Ok(Input {
            values,
            first_tokens,
            second_tokens,
        })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(
            &mut out,
            [
                input.values.len() as u32,
                input.first_tokens,
                input.second_tokens,
            ],
        );
        push_line(&mut out, &input.values);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_tokens", p.max_tokens.into(), 0, MAX_TOKENS.into())?;
        if !(1..=MAX_ABS).contains(&p.max_abs) {
            return Err(format!("max_abs = {} must lie in 1..={MAX_ABS}", p.max_abs));
        }
        Ok(())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.values.len() as u64, p.max_n.into())?;
        at_most("K", input.first_tokens.into(), p.max_tokens.into())?;
        at_most("T", input.second_tokens.into(), p.max_tokens.into())?;
        let largest = input
            .values
            .iter()
            .map(|v| v.unsigned_abs())
            .max()
            .unwrap_or(0);
        at_most("|a_i|", largest, p.max_abs.unsigned_abs())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let (n, tokens, abs) = (p.max_n, p.max_tokens, p.max_abs);
        let random_values = |rng: &mut TestRng, count: u32, low: i64, high: i64| -> Vec<i64> {
            (0..count).map(|_| rng.random_range(low..=high)).collect()
        };
        let (values, k, t) = match index {
            // Everything at the limit.
            0 => (random_values(rng, n, -abs, abs), tokens, tokens),
            // All values equal, an even count and no tokens: a draw (a win when only one card fits).
            1 => (vec![abs; (n - n % 2).max(1) as usize], 0, 0),
            // All negative: taking a card always hurts, yet one must be taken.
            2 => (random_values(rng, n, -abs, -1), tokens, tokens / 2),
            // No tokens: strict alternation.
            3 => (random_values(rng, n, -abs, abs), 0, 0),
            // A single card.
            4 => (random_values(rng, 1, -abs, abs), tokens, tokens),
            // Only the first player has tokens; and only the second.
            5 => (random_values(rng, n, 0, abs), tokens, 0),
            6 => (random_values(rng, n, -abs, abs), 0, tokens),
            // Small values: many draws.
            7 => (
                random_values(rng, n, -1, 1),
                rng.random_range(0..=tokens),
                rng.random_range(0..=tokens),
            ),
            // A draw with tokens in play, found by trying small random rows.
            8 => (0..1000)
                .map(|_| {
                    let count = rng.random_range(1..=n.min(12));
                    let values = random_values(rng, count, -2, 2);
                    (
                        values,
                        rng.random_range(0..=tokens.min(4)),
                        rng.random_range(0..=tokens.min(4)),
                    )
                })
                .find(|(v, k, t)| {
                    cards::verdict(v, *k as usize, *t as usize) == Verdict::Draw && *k + *t > 0
                })
                .unwrap_or_else(|| (vec![0], 0, 0)),
            _ => {
                let count = rng.random_range(1..=n);
                (
                    random_values(rng, count, -abs, abs),
                    rng.random_range(0..=tokens),
                    rng.random_range(0..=tokens),
                )
            }
        };
        Input {
            values,
            first_tokens: k,
            second_tokens: t,
        }
    }

    fn solve(&self, input: &Input) -> String {
        word(cards::verdict(
            &input.values,
            input.first_tokens as usize,
            input.second_tokens as usize,
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let feasible = input.values.len() <= 9;
        let brute = feasible
            .then(|| {
                cards::brute_force_verdict(
                    &input.values,
                    input.first_tokens as usize,
                    input.second_tokens as usize,
                    BRUTE_FORCE_POSITIONS,
                )
            })
            .flatten();
        vec![CrossCheck::new("brute force", brute.map(word))]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every row of up to four cards over {-2, 0, 1, 3}, every token count up to 2 each.
        let alphabet = [-2i64, 0, 1, 3];
        let mut inputs = Vec::new();
        for n in 1..=4u32 {
            for code in 0..4usize.pow(n) {
                let values: Vec<i64> = (0..n).map(|i| alphabet[code / 4usize.pow(i) % 4]).collect();
                for k in 0..=2 {
                    for t in 0..=2 {
                        inputs.push(Input {
                            values: values.clone(),
                            first_tokens: k,
                            second_tokens: t,
                        });
                    }
                }
            }
        }
        inputs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Spc4.parse("4 1 2\n-3 7 -2 6\n").is_ok());
        let rule = |t: &str| Spc4.parse(t).unwrap_err().to_string();
        assert_eq!(rule("0 1 1\n\n"), "line 1: N = 0 is outside 1..=100");
        assert_eq!(rule("1 101 0\n5\n"), "line 1: K = 101 is outside 0..=100");
        assert_eq!(rule("1 0 -1\n5\n"), "line 1: T = -1 is outside 0..=100");
        assert_eq!(
            rule("2 0 0\n1000000001 0\n"),
            "line 2: a_1 = 1000000001 is outside -1000000000..=1000000000"
        );
        assert_eq!(
            rule("2 0 0\n1 -0\n"),
            "line 2: a_2 = \"-0\" is not an integer written in canonical form"
        );
        assert_eq!(
            rule("2 0 0\n1 2 3\n"),
            "line 2: expected 2 tokens (a_1 … a_N), found 3"
        );
    }
}
