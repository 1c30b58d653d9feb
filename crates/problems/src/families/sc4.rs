//! SC4, "chestnut bowls": one line `N M`; the answer is what the first player eats.

use super::{at_most, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::chestnuts;
use rand::RngExt;
use serde::Deserialize;

pub struct Sc4;

const MAX_N: u32 = 100;
const MAX_M: u32 = 100;
/// Game trees up to this many positions are searched exhaustively (n = 30 has about 60 000).
const BRUTE_FORCE_POSITIONS: usize = 4_000_000;

#[derive(Debug)]
pub struct Input {
    pub n: u32,
    pub m: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_m: u32,
}

fn answer(eaten: u32) -> String {
    format!("{eaten}\n")
}

impl Family for Sc4 {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, m) = reader.pair(("N", 1..=MAX_N), ("M", 1..=MAX_M))?;
        reader.expect_eof()?;
        Ok(Input { n, m })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.n, input.m]);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_m", p.max_m.into(), 1, MAX_M.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.n.into(), p.max_n.into())?;
        at_most("M", input.m.into(), p.max_m.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let (n, m) = (p.max_n, p.max_m);
        let half = (n / 2).clamp(1, m);
        let (n, m) = match index {
            0 => (n, 1),
            1 => (n, m),
            // Half the pile (the tutorial's false special case), and small M against a big pile.
            2 => (n, half),
            3 => (n, 3.min(m)),
            4 => (n, (n / 3).clamp(1, m)),
            5 => (1, 1),
            6 => (n, 2.min(m)),
            // Mostly 3 ≤ M < N/2: for M ≥ N/2 the answer is simply min(M, N), which a guess
            // would pass.
            _ => {
                let n = rng.random_range(1..=n);
                let m = if n >= 8 && m >= 3 && rng.random_bool(0.8) {
                    rng.random_range(3..=(n / 2 - 1).min(m))
                } else {
                    rng.random_range(1..=m)
                };
                (n, m)
            }
        };
        Input { n, m }
    }

    fn solve(&self, input: &Input) -> String {
        answer(chestnuts::first_player_eats(
            input.n as usize,
            input.m as usize,
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let (n, m) = (input.n as usize, input.m as usize);
        let brute = (n <= 30)
            .then(|| chestnuts::brute_force_eats(n, m, BRUTE_FORCE_POSITIONS))
            .flatten();
        vec![
            CrossCheck::new("closed form", chestnuts::closed_form(n, m).map(answer)),
            CrossCheck::new("brute force", brute.map(answer)),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        (1..=14)
            .flat_map(|n| (1..=n + 1).map(move |m| Input { n, m }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Sc4.parse("5 2\n").is_ok());
        let rule = |t: &str| Sc4.parse(t).unwrap_err().to_string();
        assert_eq!(rule("101 2\n"), "line 1: N = 101 is outside 1..=100");
        assert_eq!(rule("5 0\n"), "line 1: M = 0 is outside 1..=100");
        assert_eq!(rule("5\n"), "line 1: expected 2 tokens (N M), found 1");
        assert_eq!(
            rule("5 2\n5 2\n"),
            "line 2: expected the end of the input, found another line"
        );
    }
}
