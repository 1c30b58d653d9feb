//! Parigame, position by position, for a person at the play page or a terminal.
//!
//! A position is what is left of the table: its top-left `r × c` part, written `r c` and its `r`
//! rows, or `0 0` once a whole row or column is gone. A move erases the last row (`row`) or the
//! last column (`col`) when the numbers in it add up to an even sum.

use super::parigame::{Erase, Part, sum_text};
use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::parigame;
use rand::RngExt;
use rand::seq::IndexedRandom;

/// The largest table a person can still read at a glance.
const MAX_SIDE: u32 = 8;
const MAX_VALUE: u64 = 1_000_000_000;

#[derive(Debug, Clone, Copy)]
pub struct ParigamePlay;

/// The rows left, each of the same length; no row at all once the table is empty.
type Table = Vec<Vec<u64>>;

fn part(table: &Table) -> Part {
    (table.len(), table.first().map_or(0, Vec::len))
}

fn legal(table: &Table) -> Vec<Erase> {
    if table.is_empty() {
        return Vec::new();
    }
    [Erase::Row, Erase::Column]
        .into_iter()
        .filter(|e| e.allowed(table, part(table)))
        .collect()
}

fn erased(table: &Table, erase: Erase) -> Table {
    let (rows, cols) = erase.after(part(table));
    if rows == 0 || cols == 0 {
        return Vec::new();
    }
    table[..rows]
        .iter()
        .map(|row| row[..cols].to_vec())
        .collect()
}

/// Whether the player to move wins on each top-left part of the table, by the family's dynamic
/// programme. It takes a square table; a part's value depends only on the numbers inside it, so
/// padding the table to a square changes none of the values asked for.
fn corner_wins(table: &Table) -> Vec<Vec<bool>> {
    let (rows, cols) = part(table);
    let side = rows.max(cols);
    let mut square = vec![vec![2; side]; side];
    for (padded, row) in square.iter_mut().zip(table) {
        padded[..cols].copy_from_slice(row);
    }
    parigame::corner_wins(&square)
}

fn last_sum(table: &Table, erase: Erase) -> String {
    sum_text(&erase.numbers(table, part(table)))
}

impl Rules for ParigamePlay {
    type Position = Table;
    type Move = Erase;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Table, ValidationError> {
        let (rows, cols): (u32, u32) = reader.pair(("r", 0..=MAX_SIDE), ("c", 0..=MAX_SIDE))?;
        if (rows == 0) != (cols == 0) {
            return Err(ValidationError::new(
                reader.line_number(),
                format!(
                    "a table of {rows} rows and {cols} columns holds no number: an empty table \
                     is written `0 0`"
                ),
            ));
        }
        let mut table = Vec::with_capacity(rows as usize);
        for _ in 0..rows {
            let line = reader.line("a row of the table")?;
            line.expect_len(cols as usize, "a row of c numbers")?;
            table.push(line.ints("value", 1..=MAX_VALUE)?);
        }
        Ok(table)
    }

    fn write_position(&self, table: &Table, out: &mut String) {
        let (rows, cols) = part(table);
        super::push_line(out, [rows, cols]);
        for row in table {
            super::push_line(out, row);
        }
    }

    fn start_rule(&self, table: &Table) -> Result<(), String> {
        if self.is_over(table) {
            Err("no row or column may be erased; a game starts with a move to make".into())
        } else {
            Ok(())
        }
    }

    fn words(&self, table: &Table) -> String {
        if table.is_empty() {
            return "the empty table".to_owned();
        }
        let (rows, cols) = part(table);
        format!(
            "{rows} × {cols} table (last row {}, last column {})",
            last_sum(table, Erase::Row),
            last_sum(table, Erase::Column)
        )
    }

    fn is_over(&self, table: &Table) -> bool {
        legal(table).is_empty()
    }

    fn value(&self, table: &Table) -> Value {
        let (rows, cols) = part(table);
        Value {
            win: corner_wins(table)[rows][cols],
            grundy: None,
        }
    }

    fn read_move(&self, table: &Table, text: &str) -> Result<Erase, String> {
        let erase = match text.to_ascii_lowercase().as_str() {
            "row" | "r" => Erase::Row,
            "col" | "column" | "c" => Erase::Column,
            _ => {
                return Err(
                    "a move is `row` (erase the last row) or `col` (erase the last column)".into(),
                );
            }
        };
        if table.is_empty() {
            return Err("the table is empty".into());
        }
        if !erase.allowed(table, part(table)) {
            return Err(format!(
                "{} sums to {}, which is odd: only a row or a column with an even sum may be \
                 erased",
                erase.en(),
                last_sum(table, erase)
            ));
        }
        Ok(erase)
    }

    fn write_move(&self, erase: &Erase) -> String {
        match erase {
            Erase::Row => "row",
            Erase::Column => "col",
        }
        .to_owned()
    }

    fn move_words(&self, table: &Table, &erase: &Erase) -> String {
        format!("to erase {} ({})", erase.en(), last_sum(table, erase))
    }

    fn move_done(&self, table: &Table, &erase: &Erase) -> String {
        format!("erased {} ({})", erase.en(), last_sum(table, erase))
    }

    fn apply(&self, table: &Table, &erase: &Erase) -> Table {
        erased(table, erase)
    }

    fn winning_moves(&self, table: &Table) -> Vec<Erase> {
        let wins = corner_wins(table);
        legal(table)
            .into_iter()
            .filter(|&erase| {
                let (rows, cols) = erase.after(part(table));
                !wins[rows][cols]
            })
            .collect()
    }

    fn referee_move(&self, table: &Table, played: usize, rng: &mut TestRng) -> Erase {
        if let Some(&erase) = self.winning_moves(table).choose(rng) {
            return erase;
        }
        let moves = legal(table);
        if played < 4 && rng.random_bool(0.4) {
            return *moves.choose(rng).expect("the game is not over");
        }
        // Lost: shrinking the shorter side empties the table soonest.
        let (rows, cols) = part(table);
        let shorter = if rows <= cols {
            Erase::Row
        } else {
            Erase::Column
        };
        if moves.contains(&shorter) {
            shorter
        } else {
            moves[0]
        }
    }

    fn random_start(&self, rng: &mut TestRng) -> Table {
        let won = rng.random_bool(0.5);
        for _ in 0..200 {
            let (rows, cols) = (rng.random_range(3..=6), rng.random_range(3..=6));
            let odd = rng.random_range(0.25..=0.75);
            // Small numbers, so that a person adds them up at a glance.
            let table: Table = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| 2 * rng.random_range(1..=9) - u64::from(rng.random_bool(odd)))
                        .collect()
                })
                .collect();
            if !self.is_over(&table) && self.value(&table).win == won {
                return table;
            }
        }
        // Every number even: every move is allowed, and a square is lost.
        vec![vec![2; 3]; 3]
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`r c` (rows and columns), then the r rows of c numbers: `2 3`, `1 2 3`, \
                     `4 5 6` is a table of two rows. Once a whole row or column is gone the \
                     table is empty, written `0 0`. At most 8 × 8, numbers from 1 to 10⁹.",
                vi: "`r c` (số hàng và số cột), rồi r hàng, mỗi hàng c số: `2 3`, `1 2 3`, \
                     `4 5 6` là một bảng hai hàng. Khi đã xoá hết các hàng hoặc các cột, bảng \
                     rỗng được viết là `0 0`. Tối đa 8 × 8, các số từ 1 đến 10⁹.",
            },
            moves: Words {
                en: "`row` erases the last row, `col` the last column (`r`, `c`, `column` and \
                     capitals work too); the numbers erased must add up to an even sum: `col`.",
                vi: "`row` xoá hàng cuối, `col` xoá cột cuối (viết `r`, `c`, `column` hay chữ \
                     hoa cũng được); tổng các số bị xoá phải là số chẵn: `col`.",
            },
        }
    }
}
