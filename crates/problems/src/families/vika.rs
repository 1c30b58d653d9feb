//! Codeforces 1848A "Vika and Her Friends": `t` tests of `n m k`, Vika's room, `k` friends' rooms.
//! `YES` if she escapes forever; any letter case is accepted (the checker is case-insensitive).

use super::{at_most, lines, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::pursuit;
use rand::RngExt;
use serde::Deserialize;

pub struct Vika;

const MAX_T: u32 = 100;
const MAX_SIDE: u32 = 100;

#[derive(Debug, Clone)]
pub struct Case {
    pub rows: u32,
    pub cols: u32,
    pub vika: (u32, u32),
    pub friends: Vec<(u32, u32)>,
}

#[derive(Debug)]
pub struct Input {
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_tests: u32,
    pub max_side: u32,
    pub max_friends: u32,
}

fn word(escapes: bool) -> &'static str {
    if escapes { "YES" } else { "NO" }
}

impl Family for Vika {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("t", 1..=MAX_T)?;
        let mut cases = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let head = reader.line("the line \"n m k\"")?;
            head.expect_len(3, "n m k")?;
            let rows: u32 = head.int(0, "n", 1..=MAX_SIDE)?;
            let cols: u32 = head.int(1, "m", 1..=MAX_SIDE)?;
            let k: u32 = head.int(2, "k", 1..=MAX_SIDE)?;
            let mut cell = |what: &str| -> Result<(u32, u32), ValidationError> {
                let line = reader.line(what)?;
                line.expect_len(2, "x y")?;
                Ok((line.int(0, "x", 1..=rows)?, line.int(1, "y", 1..=cols)?))
            };
            let vika = cell("Vika's room \"x y\"")?;
            let mut friends = Vec::with_capacity(k as usize);
            for _ in 0..k {
                let friend = cell("a friend's room \"x y\"")?;
                if friend == vika {
                    return Err(ValidationError::new(
                        reader.line_number(),
                        "a friend starts in Vika's room",
                    ));
                }
                friends.push(friend);
            }
            cases.push(Case {
                rows,
                cols,
                vika,
                friends,
            });
        }
        reader.expect_eof()?;
        Ok(Input { cases })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.cases.len()]);
        for c in &input.cases {
            push_line(&mut out, [c.rows, c.cols, c.friends.len() as u32]);
            push_line(&mut out, [c.vika.0, c.vika.1]);
            for f in &c.friends {
                push_line(&mut out, [f.0, f.1]);
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_tests", p.max_tests.into(), 1, MAX_T.into())?;
        within("max_side", p.max_side.into(), 2, MAX_SIDE.into())?;
        within("max_friends", p.max_friends.into(), 1, MAX_SIDE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("t", input.cases.len() as u64, p.max_tests.into())?;
        for c in &input.cases {
            at_most("n", c.rows.into(), p.max_side.into())?;
            at_most("m", c.cols.into(), p.max_side.into())?;
            at_most("k", c.friends.len() as u64, p.max_friends.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let cases = (0..p.max_tests as usize)
            .map(|case| {
                let (rows, cols) = match index {
                    0 => (p.max_side, p.max_side),
                    1 => (1, rng.random_range(2..=p.max_side)),
                    _ => (
                        rng.random_range(1..=p.max_side),
                        rng.random_range(2..=p.max_side),
                    ),
                };
                let vika = (rng.random_range(1..=rows), rng.random_range(1..=cols));
                let colour = (vika.0 + vika.1) % 2;
                let k = if index == 0 {
                    p.max_friends
                } else {
                    rng.random_range(1..=p.max_friends)
                };
                // Half the cases: every friend on the other colour but maybe one.
                let traitor = case % 2 == 0;
                let cells: Vec<(u32, u32)> = (1..=rows)
                    .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                    .filter(|&c| c != vika)
                    .collect();
                let friends = (0..k)
                    .map(|i| {
                        let want_same = traitor && i == k - 1;
                        let fitting: Vec<&(u32, u32)> = cells
                            .iter()
                            .filter(|c| ((c.0 + c.1) % 2 == colour) == want_same)
                            .collect();
                        // A 1 × 3 corridor has no other room of Vika's colour: take any room then.
                        match fitting.len() {
                            0 => cells[rng.random_range(0..cells.len())],
                            len => *fitting[rng.random_range(0..len)],
                        }
                    })
                    .collect();
                Case {
                    rows,
                    cols,
                    vika,
                    friends,
                }
            })
            .collect();
        Input { cases }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .cases
                .iter()
                .map(|c| word(pursuit::escapes(c.vika, &c.friends))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input
            .cases
            .iter()
            .all(|c| c.rows * c.cols <= 9 && c.friends.len() <= 2);
        let brute = small.then(|| {
            lines(input.cases.iter().map(|c| {
                word(pursuit::brute_force_escapes(
                    c.rows, c.cols, c.vika, &c.friends,
                ))
            }))
        });
        vec![CrossCheck::new("pursuit search", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        let mut cases = Vec::new();
        for (rows, cols) in [(1, 2), (1, 3), (2, 2), (2, 3), (3, 3)] {
            let cells: Vec<(u32, u32)> = (1..=rows)
                .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                .collect();
            for &vika in &cells {
                for &f in cells.iter().filter(|&&f| f != vika) {
                    cases.push(Case {
                        rows,
                        cols,
                        vika,
                        friends: vec![f],
                    });
                }
            }
        }
        cases
            .chunks(MAX_T as usize)
            .map(|c| Input { cases: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Vika.parse("1\n2 2 1\n1 1\n1 2\n").is_ok());
        let rule = |t: &str| Vika.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n2 2 1\n1 1\n1 1\n"),
            "line 4: a friend starts in Vika's room"
        );
        assert_eq!(
            rule("1\n2 2 1\n3 1\n1 1\n"),
            "line 3: x = 3 is outside 1..=2"
        );
        assert_eq!(rule("1\n2 2 0\n"), "line 2: k = 0 is outside 1..=100");
        assert_eq!(
            rule("1\n2 2 2\n1 1\n1 2\n"),
            "line 5: expected a friend's room \"x y\", found the end of the input"
        );
    }
}
