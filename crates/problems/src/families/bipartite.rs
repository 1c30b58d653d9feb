//! BZOJ 1443 "Game": a grid of `.` and `#`; the placer wins on the cells some maximum matching
//! leaves free. Output `WIN` and those cells row-major, or `LOSE`.

use super::{at_most, push_line, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::geography;
use rand::RngExt;
use serde::Deserialize;
use std::fmt::Write;

pub struct BipartiteGame;

const MAX_SIDE: u32 = 100;

#[derive(Debug)]
pub struct Input {
    pub free: Vec<Vec<bool>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_rows: u32,
    pub max_cols: u32,
}

fn answer(cells: &[(usize, usize)]) -> String {
    if cells.is_empty() {
        return "LOSE\n".into();
    }
    let mut out = String::from("WIN\n");
    for (r, c) in cells {
        writeln!(out, "{} {}", r + 1, c + 1).expect("String");
    }
    out
}

impl Family for BipartiteGame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (rows, cols): (u32, u32) = reader.pair(("n", 1..=MAX_SIDE), ("m", 1..=MAX_SIDE))?;
        let mut free = Vec::with_capacity(rows as usize);
        for _ in 0..rows {
            let line = reader.line("a row of the grid")?;
            line.expect_len(1, "a row of . and #")?;
            let row = line.token(0);
            if row.len() != cols as usize || row.chars().any(|c| c != '.' && c != '#') {
                return Err(line.error(format!("a row must be {cols} characters, each . or #")));
            }
            free.push(row.chars().map(|c| c == '.').collect::<Vec<bool>>());
        }
        if !free.iter().flatten().any(|&f| f) {
            return Err(ValidationError::new(
                reader.line_number(),
                "the grid has no free cell",
            ));
        }
        reader.expect_eof()?;
        Ok(Input { free })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.free.len(), input.free[0].len()]);
        for row in &input.free {
            out.extend(row.iter().map(|&f| if f { '.' } else { '#' }));
            out.push('\n');
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_rows", p.max_rows.into(), 1, MAX_SIDE.into())?;
        within("max_cols", p.max_cols.into(), 1, MAX_SIDE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("n", input.free.len() as u64, p.max_rows.into())?;
        at_most("m", input.free[0].len() as u64, p.max_cols.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let odd = |side: u32| if side % 2 == 1 { side } else { side - 1 };
        let (rows, cols) = match index {
            0..=3 => (p.max_rows, p.max_cols),
            // A full board with an odd number of cells: every cell of the larger colour wins.
            5 => (odd(p.max_rows), odd(p.max_cols)),
            _ => (
                rng.random_range(p.max_rows.min(2)..=p.max_rows),
                rng.random_range(p.max_cols.min(2)..=p.max_cols),
            ),
        };
        let density = match index {
            // All free: with an even number of cells a perfect matching exists and A loses.
            0 | 5 => 1.0,
            1 => 0.9,
            2 => 0.5,
            3 => 0.3,
            _ => rng.random_range(0.2..=1.0),
        };
        let mut free: Vec<Vec<bool>> = (0..rows)
            .map(|_| (0..cols).map(|_| rng.random_bool(density)).collect())
            .collect();
        if index == 4 {
            // A single free cell: B cannot move, so A wins there.
            free = vec![vec![false; cols as usize]; rows as usize];
            free[rng.random_range(0..rows) as usize][rng.random_range(0..cols) as usize] = true;
        } else {
            // At least five free cells where the board has room for them.
            let wanted = 5.min(rows * cols) as usize;
            while free.iter().flatten().filter(|&&f| f).count() < wanted {
                free[rng.random_range(0..rows) as usize][rng.random_range(0..cols) as usize] = true;
            }
        }
        Input { free }
    }

    fn solve(&self, input: &Input) -> String {
        answer(&geography::placer_winning_cells(&input.free))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let free_cells = input.free.iter().flatten().filter(|&&f| f).count();
        let brute = (free_cells <= 16)
            .then(|| geography::GeographyRules::new(&input.free).placer_winning_cells(2_000_000))
            .flatten()
            .map(|cells| answer(&cells));
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every pattern of free cells on grids up to 3 × 3.
        let mut inputs = Vec::new();
        for rows in 1..=3usize {
            for cols in 1..=3usize {
                for mask in 1u32..1 << (rows * cols) {
                    let free = (0..rows)
                        .map(|r| (0..cols).map(|c| mask >> (r * cols + c) & 1 == 1).collect())
                        .collect();
                    inputs.push(Input { free });
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
        assert!(BipartiteGame.parse("3 3\n.##\n...\n#.#\n").is_ok());
        let rule = |t: &str| BipartiteGame.parse(t).unwrap_err().to_string();
        assert_eq!(rule("2 2\n##\n##\n"), "line 3: the grid has no free cell");
        assert_eq!(
            rule("2 2\n.#\n.\n"),
            "line 3: a row must be 2 characters, each . or #"
        );
        assert_eq!(
            rule("2 2\n.x\n..\n"),
            "line 2: a row must be 2 characters, each . or #"
        );
        assert_eq!(rule("101 1\n"), "line 1: n = 101 is outside 1..=100");
    }
}
