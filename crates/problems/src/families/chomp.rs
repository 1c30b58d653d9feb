//! Chomp (own format): `T` boards of `r c` and rows of `o` (present) and `.` (eaten). The answer
//! is `LOSE`, or `WIN r c` with any winning move: the checker plays the move and asks the
//! reference whether the position left is lost.

use super::{at_most, lines, push_line, within};
use crate::check::{CheckOutcome, Mismatch};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{Outcome, chomp};
use rand::RngExt;
use serde::Deserialize;

pub struct Chomp;

const MAX_T: u32 = 20;
const MAX_SIDE: u32 = 8;

#[derive(Debug, Clone)]
pub struct Board {
    pub rows: u32,
    pub cols: u32,
    /// Row lengths of the pieces present (non-increasing; trailing empty rows dropped).
    pub lengths: Vec<u8>,
}

#[derive(Debug)]
pub struct Input {
    pub boards: Vec<Board>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_boards: u32,
    pub max_rows: u32,
    pub max_cols: u32,
}

fn answer(board: &Board) -> String {
    match chomp::winning_move(&board.lengths) {
        None => "LOSE".into(),
        Some((r, c)) => format!("WIN {} {}", r + 1, c + 1),
    }
}

impl Family for Chomp {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("T", 1..=MAX_T)?;
        let mut boards = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let (rows, cols): (u32, u32) = reader.pair(("r", 1..=MAX_SIDE), ("c", 1..=MAX_SIDE))?;
            let mut lengths = Vec::new();
            for r in 0..rows {
                let line = reader.line("a row of the bar")?;
                line.expect_len(1, "a row of o and .")?;
                let row = line.token(0);
                if row.len() != cols as usize || row.chars().any(|ch| ch != 'o' && ch != '.') {
                    return Err(line.error(format!("a row must be {cols} characters, each o or .")));
                }
                let length = row.find('.').unwrap_or(row.len());
                if row[length..].contains('o') {
                    return Err(line.error("a present piece lies right of an eaten one"));
                }
                if r == 0 && length == 0 {
                    return Err(line.error("the poisoned piece (1, 1) must be present"));
                }
                if lengths.last().is_some_and(|&above| length > above as usize) {
                    return Err(line.error("a present piece lies below an eaten one"));
                }
                lengths.push(length as u8);
            }
            while lengths.last() == Some(&0) {
                lengths.pop();
            }
            boards.push(Board {
                rows,
                cols,
                lengths,
            });
        }
        reader.expect_eof()?;
        Ok(Input { boards })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.boards.len()]);
        for b in &input.boards {
            push_line(&mut out, [b.rows, b.cols]);
            for r in 0..b.rows as usize {
                let len = b.lengths.get(r).copied().unwrap_or(0) as usize;
                out.extend((0..b.cols as usize).map(|c| if c < len { 'o' } else { '.' }));
                out.push('\n');
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_boards", p.max_boards.into(), 1, MAX_T.into())?;
        within("max_rows", p.max_rows.into(), 1, MAX_SIDE.into())?;
        within("max_cols", p.max_cols.into(), 1, MAX_SIDE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.boards.len() as u64, p.max_boards.into())?;
        for b in &input.boards {
            at_most("r", b.rows.into(), p.max_rows.into())?;
            at_most("c", b.cols.into(), p.max_cols.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let boards = (0..p.max_boards as usize)
            .map(|b| {
                let (rows, cols) = match index {
                    // Full bars of every size near the largest.
                    0 => (
                        p.max_rows.saturating_sub((b % 3) as u32).max(1),
                        p.max_cols.saturating_sub((b / 3 % 3) as u32).max(1),
                    ),
                    _ => (
                        rng.random_range(1..=p.max_rows),
                        rng.random_range(1..=p.max_cols),
                    ),
                };
                let lengths: Vec<u8> = match (index, b % 4) {
                    // Full bars, the 1 × 1 bar, and L shapes.
                    (0, _) | (1, 0) => vec![cols as u8; rows as usize],
                    (1, 1) => vec![1],
                    (1, 2) => {
                        let mut l = vec![cols as u8];
                        l.extend(std::iter::repeat_n(1, rows as usize - 1));
                        l
                    }
                    _ => {
                        // A random staircase: non-increasing lengths, first row non-empty.
                        let mut l: Vec<u8> = (0..rows)
                            .map(|_| rng.random_range(0..=cols) as u8)
                            .collect();
                        l.sort_unstable_by(|a, b| b.cmp(a));
                        l[0] = l[0].max(1);
                        l
                    }
                };
                let mut lengths = lengths;
                while lengths.last() == Some(&0) {
                    lengths.pop();
                }
                Board {
                    rows,
                    cols,
                    lengths,
                }
            })
            .collect();
        Input { boards }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .boards
                .iter()
                .map(answer)
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        // The bar search finds the first winning move in the same row-major order as the
        // reference, on its own representation of the bar.
        let brute = input.boards.iter().all(|b| b.rows * b.cols <= 20).then(|| {
            let answers: Vec<String> = input
                .boards
                .iter()
                .map(|b| {
                    let first_win = chomp::moves(&b.lengths).into_iter().find(|&(r, c)| {
                        chomp::brute_force_outcome(&chomp::eat(&b.lengths, r, c)) == Outcome::Lose
                    });
                    match first_win {
                        None => "LOSE".to_string(),
                        Some((r, c)) => format!("WIN {} {}", r + 1, c + 1),
                    }
                })
                .collect();
            lines(answers.iter().map(String::as_str))
        });
        // The closed forms decide only who wins: where they apply and agree on the winner they
        // vouch for the reference's answer, and a disagreement shows as a different answer.
        let closed = input
            .boards
            .iter()
            .map(|b| {
                chomp::closed_form_wins(&b.lengths).map(|wins| {
                    let reference = answer(b);
                    if wins == reference.starts_with("WIN") {
                        reference
                    } else {
                        "the closed form disagrees".into()
                    }
                })
            })
            .collect::<Option<Vec<String>>>()
            .map(|answers| lines(answers.iter().map(String::as_str)));
        vec![
            CrossCheck::new("bar search", brute),
            CrossCheck::new("closed form (winner only)", closed),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let mut boards = Vec::new();
        for rows in 1..=3u32 {
            for cols in 1..=4u32 {
                let count = (cols as usize + 1).pow(rows);
                for code in 0..count {
                    let mut lengths: Vec<u8> = (0..rows as usize)
                        .map(|i| {
                            (code / (cols as usize + 1).pow(i as u32) % (cols as usize + 1)) as u8
                        })
                        .collect();
                    if lengths[0] == 0 || lengths.windows(2).any(|w| w[1] > w[0]) {
                        continue;
                    }
                    while lengths.last() == Some(&0) {
                        lengths.pop();
                    }
                    boards.push(Board {
                        rows,
                        cols,
                        lengths,
                    });
                }
            }
        }
        boards
            .chunks(MAX_T as usize)
            .map(|c| Input { boards: c.to_vec() })
            .collect()
    }

    fn has_reference_checker(&self) -> bool {
        true
    }

    fn check_answer(&self, input: &Input, output: &str) -> Option<CheckOutcome> {
        let mut lines_out = output.lines().filter(|l| !l.trim().is_empty());
        for (i, board) in input.boards.iter().enumerate() {
            let Some(line) = lines_out.next() else {
                return Some(CheckOutcome::WrongAnswer(Mismatch::new(format!(
                    "board {}: no answer",
                    i + 1
                ))));
            };
            let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
            let first_wins = chomp::outcome(&board.lengths) == Outcome::Win;
            let board_no = i + 1;
            let not_a_piece = || {
                Mismatch::quoting(
                    format!("board {board_no}: not a piece that may be eaten"),
                    line,
                )
            };
            let verdict = match tokens.as_slice() {
                ["LOSE"] if !first_wins => Ok(()),
                ["LOSE"] => Err(Mismatch::new(format!(
                    "board {board_no}: the first player can win"
                ))),
                ["WIN", r, c] if !r.bytes().chain(c.bytes()).all(|b| b.is_ascii_digit()) => {
                    Err(not_a_piece())
                }
                ["WIN", r, c] => match (r.parse::<usize>(), c.parse::<usize>()) {
                    (Ok(r), Ok(c))
                        if r >= 1
                            && c >= 1
                            && r <= board.lengths.len()
                            && c <= board.lengths[r - 1] as usize
                            && (r, c) != (1, 1) =>
                    {
                        if chomp::outcome(&chomp::eat(&board.lengths, r - 1, c - 1))
                            == Outcome::Lose
                        {
                            Ok(())
                        } else {
                            Err(Mismatch::quoting(
                                format!(
                                    "board {board_no}: that bite leaves a position the opponent \
                                     wins"
                                ),
                                line,
                            ))
                        }
                    }
                    _ => Err(not_a_piece()),
                },
                _ => Err(Mismatch::new(format!(
                    "board {board_no}: expected LOSE or WIN r c"
                ))),
            };
            if let Err(why) = verdict {
                return Some(CheckOutcome::WrongAnswer(why));
            }
        }
        if lines_out.next().is_some() {
            return Some(CheckOutcome::WrongAnswer(Mismatch::new(
                "the output goes on after the last board",
            )));
        }
        Some(CheckOutcome::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(Chomp.parse("1\n2 3\nooo\noo.\n").is_ok());
        let rule = |t: &str| Chomp.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n2 3\no.o\nooo\n"),
            "line 3: a present piece lies right of an eaten one"
        );
        assert_eq!(
            rule("1\n2 3\noo.\nooo\n"),
            "line 4: a present piece lies below an eaten one"
        );
        assert_eq!(
            rule("1\n1 2\n..\n"),
            "line 3: the poisoned piece (1, 1) must be present"
        );
        assert_eq!(
            rule("1\n1 2\nox\n"),
            "line 3: a row must be 2 characters, each o or ."
        );
        assert_eq!(rule("1\n9 1\n"), "line 2: r = 9 is outside 1..=8");
    }

    #[test]
    fn checker_accepts_any_winning_move_and_nothing_else() {
        // 3 × 3 bar: the only winning move is (2, 2), leaving an L with equal arms.
        let input = Chomp.parse("2\n3 3\nooo\nooo\nooo\n1 1\no\n").unwrap();
        assert_eq!(
            Chomp.check_answer(&input, "WIN 2 2\nLOSE\n"),
            Some(CheckOutcome::Accepted)
        );
        assert_eq!(
            Chomp.check_answer(&input, "  win 2 2\nLOSE"),
            Some(CheckOutcome::WrongAnswer(Mismatch::new(
                "board 1: expected LOSE or WIN r c"
            )))
        );
        assert!(
            matches!(Chomp.check_answer(&input, "WIN 1 2\nLOSE\n"), Some(CheckOutcome::WrongAnswer(m)) if m.to_string().contains("leaves a position the opponent wins"))
        );
        assert!(
            matches!(Chomp.check_answer(&input, "WIN 1 1\nLOSE\n"), Some(CheckOutcome::WrongAnswer(m)) if m.to_string().contains("not a piece"))
        );
        assert!(matches!(
            Chomp.check_answer(&input, "WIN 4 1\nLOSE\n"),
            Some(CheckOutcome::WrongAnswer(_))
        ));
        assert!(
            matches!(Chomp.check_answer(&input, "LOSE\nLOSE\n"), Some(CheckOutcome::WrongAnswer(m)) if m.to_string().contains("can win"))
        );
        assert!(
            matches!(Chomp.check_answer(&input, "WIN 2 2\n"), Some(CheckOutcome::WrongAnswer(m)) if m.to_string().contains("board 2: no answer"))
        );
        assert!(matches!(
            Chomp.check_answer(&input, "WIN 2 2\nLOSE\nLOSE\n"),
            Some(CheckOutcome::WrongAnswer(_))
        ));
        // A 2 × 3 bar has one winning move; the 2-row rule says leave rows (a, a − 1).
        let two = Chomp.parse("1\n2 3\nooo\nooo\n").unwrap();
        assert_eq!(
            Chomp.check_answer(&two, "WIN 2 3\n"),
            Some(CheckOutcome::Accepted)
        );
    }
}
