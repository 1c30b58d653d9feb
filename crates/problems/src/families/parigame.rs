//! Parigame (VOI 2011): `k` games, each `n` and an `n × n` table; erase the last row or column
//! when its sum is even.

use super::parigame_play::ParigamePlay;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, parigame};
use rand::RngExt;
use serde::Deserialize;

pub struct Parigame;

const MAX_GAMES: u32 = 10;
const MAX_N: u32 = 500;
const MAX_VALUE: u64 = 1_000_000_000;

#[derive(Debug)]
pub struct Input {
    pub tables: Vec<Vec<Vec<u64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_n: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "YES" } else { "NO" }
}

/// A table whose entries are odd with the given probability.
fn table(rng: &mut TestRng, n: u32, odd: f64, big: bool) -> Vec<Vec<u64>> {
    let high = if big { MAX_VALUE } else { 9 };
    (0..n)
        .map(|_| {
            (0..n)
                .map(|_| {
                    let v = rng.random_range(1..=high);
                    let want_odd = rng.random_bool(odd);
                    if (v % 2 == 1) == want_odd {
                        v
                    } else if v == high {
                        v - 1
                    } else {
                        v + 1
                    }
                })
                .collect()
        })
        .collect()
}

impl Family for Parigame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"k\"")?;
        first.expect_len(1, "k")?;
        let games: u32 = first.int(0, "k", 1..=MAX_GAMES)?;
        let mut tables = Vec::with_capacity(games as usize);
        for _ in 0..games {
            let size = reader.line("a line \"n\"")?;
            size.expect_len(1, "n")?;
            let n: u32 = size.int(0, "n", 1..=MAX_N)?;
            let mut rows = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let row = reader.line("a row of the table")?;
                row.expect_len(n as usize, "a row of n numbers")?;
                rows.push(row.ints("value", 1..=MAX_VALUE)?);
            }
            tables.push(rows);
        }
        reader.expect_eof()?;
        Ok(Input { tables })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.tables.len()]);
        for table in &input.tables {
            push_line(&mut out, [table.len()]);
            for row in table {
                push_line(&mut out, row);
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, MAX_GAMES.into())?;
        within("max_n", p.max_n.into(), 1, MAX_N.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("k", input.tables.len() as u64, p.max_games.into())?;
        for table in &input.tables {
            at_most("n", table.len() as u64, p.max_n.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let games = p.max_games;
        let n = p.max_n;
        let tables = (0..games)
            .map(|game| match (index, game) {
                // Every game at full size with full-size values.
                (0, _) => table(rng, n, 0.5, true),
                // All entries even (every move always allowed) and all odd, at full size.
                (1, g) => table(
                    rng,
                    (n - (g % 2)).max(1),
                    if g < games / 2 { 0.0 } else { 1.0 },
                    false,
                ),
                // Single cells, and rare odd entries.
                (2, 0) => table(rng, 1, 0.0, false),
                (2, 1) => table(rng, 1, 1.0, false),
                (2, _) => {
                    let size = rng.random_range(1..=n);
                    table(rng, size, 0.05, true)
                }
                _ => {
                    let size = rng.random_range(1..=n);
                    let odd = rng.random_range(0.0..=1.0);
                    let big = rng.random_bool(0.5);
                    table(rng, size, odd, big)
                }
            })
            .collect();
        Input { tables }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.tables.iter().map(|t| word(parigame::first_wins(t))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input.tables.iter().all(|t| t.len() <= 60);
        let brute = small.then(|| {
            lines(input.tables.iter().map(|t| {
                let rules = parigame::ParigameRules { table: t };
                let n = t.len();
                word(
                    implicit::outcome(&rules, (n, n), (n + 1) * (n + 1))
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every parity pattern of 1×1, 2×2 and 3×3 tables (entries 1 and 2), ten games per input.
        let mut tables = Vec::new();
        for n in 1..=3usize {
            for mask in 0u32..(1 << (n * n)) {
                tables.push(
                    (0..n)
                        .map(|i| {
                            (0..n)
                                .map(|j| 1 + u64::from(mask >> (i * n + j) & 1))
                                .collect()
                        })
                        .collect(),
                );
            }
        }
        tables
            .chunks(MAX_GAMES as usize)
            .map(|c| Input { tables: c.to_vec() })
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// One table on a page, shrinking as rows and columns are erased: up to 8 × 8.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(ParigamePlay))
    }
}

const WHOLE_ROW_SUMS: Misconception = Misconception {
    id: "parigame-whole-row-sums",
    title: "The sums of the whole rows and columns",
    text: "The program decides whether a row or a column may be erased by the sum of all n \
           numbers it held at the start. Once a row has been erased, the last column holds only \
           its first r numbers, and it is their sum that must be even (likewise for a row once \
           columns are erased). With rows 2 1 and 1 1, Lan erases the last row (1 + 1 = 2) and \
           leaves the single row 2 1: its last column now holds just the 1, an odd sum, and the \
           row sums to 3, odd too, so Minh cannot move and Lan wins; the program counts the \
           whole column 1, 1 (sum 2) and lets him move. Sum only the part of a row or column \
           still on the table, with prefix sums (only their parity matters).",
};

/// A table's top-left `rows × cols` part.
pub(super) type Part = (usize, usize);

/// The numbers of the last row of the part `(rows, cols)`, or of its last column.
fn last_row(table: &[Vec<u64>], (rows, cols): Part) -> Vec<u64> {
    table[rows - 1][..cols].to_vec()
}

fn last_column(table: &[Vec<u64>], (rows, cols): Part) -> Vec<u64> {
    table[..rows].iter().map(|row| row[cols - 1]).collect()
}

/// `2 + 3 + 1 = 6`, or the first three terms and the last around "…" when there are many.
pub(super) fn sum_text(values: &[u64]) -> String {
    let sum: u64 = values.iter().sum();
    let terms: Vec<String> = values.iter().map(u64::to_string).collect();
    match terms.len() {
        1 => format!("{sum}"),
        2..=6 => format!("{} = {sum}", terms.join(" + ")),
        len => format!(
            "{} + … + {} = {sum}",
            terms[..3].join(" + "),
            terms[len - 1]
        ),
    }
}

/// A move from a part: erasing its last row, or its last column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erase {
    Row,
    Column,
}

impl Erase {
    pub(super) fn numbers(self, table: &[Vec<u64>], part: Part) -> Vec<u64> {
        match self {
            Erase::Row => last_row(table, part),
            Erase::Column => last_column(table, part),
        }
    }

    pub(super) fn allowed(self, table: &[Vec<u64>], part: Part) -> bool {
        self.numbers(table, part)
            .iter()
            .sum::<u64>()
            .is_multiple_of(2)
    }

    pub(super) fn after(self, (rows, cols): Part) -> Part {
        match self {
            Erase::Row => (rows - 1, cols),
            Erase::Column => (rows, cols - 1),
        }
    }

    pub(super) fn en(self) -> &'static str {
        match self {
            Erase::Row => "the last row",
            Erase::Column => "the last column",
        }
    }

    fn vi(self) -> &'static str {
        match self {
            Erase::Row => "hàng cuối",
            Erase::Column => "cột cuối",
        }
    }
}

/// Who moves and who answers in a part of the explanation.
struct Players {
    mover: &'static str,
    other: &'static str,
}

fn part_en((rows, cols): Part) -> String {
    if rows == 0 || cols == 0 {
        "an empty table".to_owned()
    } else {
        format!("the {rows}×{cols} part")
    }
}

fn part_vi((rows, cols): Part) -> String {
    if rows == 0 || cols == 0 {
        "bảng rỗng".to_owned()
    } else {
        format!("phần {rows}×{cols}")
    }
}

impl Parigame {
    /// Why the part is lost for `players.mover`: no move, or every move answered by a move of
    /// `players.other` to a part lost for the mover again.
    fn lost_reason(
        &self,
        table: &[Vec<u64>],
        wins: &[Vec<bool>],
        part: Part,
        players: &Players,
    ) -> (String, String) {
        let Players { mover, other } = *players;
        if part.0 == 0 || part.1 == 0 {
            return (
                format!("the table is empty and {mover} cannot move"),
                format!("bảng đã rỗng và {mover} không đi được"),
            );
        }
        let sums = |erase: Erase| sum_text(&erase.numbers(table, part));
        let moves: Vec<Erase> = [Erase::Row, Erase::Column]
            .into_iter()
            .filter(|e| e.allowed(table, part))
            .collect();
        if moves.is_empty() {
            return (
                format!(
                    "the last row, sum {}, and the last column, sum {}, are both odd, so \
                     {mover} cannot move",
                    sums(Erase::Row),
                    sums(Erase::Column)
                ),
                format!(
                    "hàng cuối có tổng {} và cột cuối có tổng {}, đều lẻ, nên {mover} không đi \
                     được",
                    sums(Erase::Row),
                    sums(Erase::Column)
                ),
            );
        }
        let mut en = Vec::new();
        let mut vi = Vec::new();
        for erase in [Erase::Row, Erase::Column] {
            if !erase.allowed(table, part) {
                en.push(format!(
                    "{} (sum {}) is odd and may not be erased",
                    erase.en(),
                    sums(erase)
                ));
                vi.push(format!(
                    "{} (tổng {}) lẻ nên không được xoá",
                    erase.vi(),
                    sums(erase)
                ));
                continue;
            }
            let after = erase.after(part);
            let reply = winning_move(table, wins, after).expect("a move to a lost part wins");
            let answered = reply.after(after);
            en.push(format!(
                "erasing {} (sum {}) leaves {}, where {other} erases {} (sum {}) and leaves {}",
                erase.en(),
                sums(erase),
                part_en(after),
                reply.en(),
                sum_text(&reply.numbers(table, after)),
                part_en(answered)
            ));
            vi.push(format!(
                "xoá {} (tổng {}) còn {}, {other} xoá {} (tổng {}) và để lại {}",
                erase.vi(),
                sums(erase),
                part_vi(after),
                reply.vi(),
                sum_text(&reply.numbers(table, after)),
                part_vi(answered)
            ));
        }
        (
            format!("every move {mover} has is answered: {}", en.join("; ")),
            format!("mọi nước đi của {mover} đều bị đáp trả: {}", vi.join("; ")),
        )
    }
}

/// A move from `part` to a part lost for the player to move there, the last row first.
fn winning_move(table: &[Vec<u64>], wins: &[Vec<bool>], part: Part) -> Option<Erase> {
    if part.0 == 0 || part.1 == 0 {
        return None;
    }
    [Erase::Row, Erase::Column].into_iter().find(|&erase| {
        let (rows, cols) = erase.after(part);
        erase.allowed(table, part) && !wins[rows][cols]
    })
}

impl Explain for Parigame {
    type Game = Vec<Vec<u64>>;

    fn small_games(&self) -> Vec<Vec<Vec<u64>>> {
        // Every parity pattern of the 1×1, 2×2 and 3×3 tables, with entries 1 and 2.
        let mut games: Vec<Vec<Vec<u64>>> = self
            .small_positions()
            .into_iter()
            .flat_map(|input| input.tables)
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<Vec<u64>> {
        let n = rng.random_range(1..=6);
        let odd = rng.random_range(0.0..=1.0);
        table(rng, n, odd, false)
    }

    fn games_per_input(&self) -> usize {
        MAX_GAMES as usize
    }

    fn input_of(&self, games: &[Vec<Vec<u64>>]) -> Input {
        Input {
            tables: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<Vec<u64>>> {
        input.tables.clone()
    }

    fn answer(&self, table: &Vec<Vec<u64>>) -> String {
        word(parigame::first_wins(table)).to_owned()
    }

    fn size(&self, table: &Vec<Vec<u64>>) -> u64 {
        // The side first, then the numbers: their sum is below 500² · 10⁹ < 2⁴⁸.
        let sum: u64 = table.iter().flatten().sum();
        (table.len() as u64) << 48 | sum
    }

    fn shrink(&self, table: &Vec<Vec<u64>>) -> Vec<Vec<Vec<u64>>> {
        let n = table.len();
        let mut smaller = Vec::new();
        // A row and a column taken out: a square table again.
        if n > 1 {
            for r in 0..n {
                for c in 0..n {
                    smaller.push(
                        (0..n)
                            .filter(|&i| i != r)
                            .map(|i| (0..n).filter(|&j| j != c).map(|j| table[i][j]).collect())
                            .collect(),
                    );
                }
            }
        }
        // Numbers made 1 or 2, keeping their parity: all at once, then one at a time.
        let least = |v: u64| 2 - v % 2;
        smaller.push(
            table
                .iter()
                .map(|row| row.iter().map(|&v| least(v)).collect())
                .collect(),
        );
        for i in 0..n {
            for j in 0..n {
                if table[i][j] > 2 {
                    let mut lower = table.clone();
                    lower[i][j] = least(table[i][j]);
                    smaller.push(lower);
                }
            }
        }
        let size = self.size(table);
        smaller.retain(|t| self.size(t) < size);
        smaller.sort_by_key(|t| self.size(t));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, table: &Vec<Vec<u64>>) -> Certificate {
        let n = table.len();
        let wins = parigame::corner_wins(table);
        let lost: Vec<String> = (1..=n)
            .flat_map(|r| (1..=n).map(move |c| (r, c)))
            .filter(|&(r, c)| !wins[r][c])
            .map(|(r, c)| format!("{r}×{c}"))
            .collect();
        let (lost_en, lost_vi) = if lost.is_empty() {
            ("none".to_owned(), "không có".to_owned())
        } else {
            (listed(lost.iter().cloned(), ", "), listed(lost, ", "))
        };
        let table_en = format!(
            "A top-left part is lost for the player to move when every allowed move leads to a \
             won part (an empty table is lost: no move is left), and won when some allowed move \
             leads to a lost part. Here the lost parts, rows×columns, are: {lost_en}."
        );
        let table_vi = format!(
            "Phần bảng ở góc trên bên trái là thế thua cho người phải đi khi mọi nước đi hợp lệ \
             đều dẫn đến thế thắng (bảng rỗng là thế thua: không còn nước đi), và là thế thắng \
             khi có nước đi hợp lệ dẫn đến thế thua. Ở đây các phần thua (hàng×cột) là: \
             {lost_vi}."
        );
        let whole = (n, n);
        if let Some(erase) = winning_move(table, &wins, whole) {
            let after = erase.after(whole);
            let minh = Players {
                mover: "Minh",
                other: "Lan",
            };
            let (why_en, why_vi) = self.lost_reason(table, &wins, after, &minh);
            let sum = sum_text(&erase.numbers(table, whole));
            return Certificate {
                en: format!(
                    "Lan wins: she erases {}, sum {sum}, even, and leaves {}, lost for Minh: \
                     {why_en}. {table_en}",
                    erase.en(),
                    part_en(after)
                ),
                vi: format!(
                    "Lan thắng: Lan xoá {}, có tổng {sum} là số chẵn, và để lại {} ở góc trên \
                     bên trái, là thế thua cho Minh: {why_vi}. {table_vi}",
                    erase.vi(),
                    part_vi(after)
                ),
            };
        }
        let lan = Players {
            mover: "Lan",
            other: "Minh",
        };
        let (why_en, why_vi) = self.lost_reason(table, &wins, whole, &lan);
        Certificate {
            en: format!("Minh wins: {why_en}. {table_en}"),
            vi: format!("Minh thắng: {why_vi}. {table_vi}"),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[WHOLE_ROW_SUMS]
    }

    fn misconceived(&self, id: &str, table: &Vec<Vec<u64>>) -> Option<String> {
        match id {
            "parigame-whole-row-sums" => {
                let n = table.len();
                let even_row: Vec<bool> = table
                    .iter()
                    .map(|row| row.iter().sum::<u64>().is_multiple_of(2))
                    .collect();
                let even_column: Vec<bool> = (0..n)
                    .map(|j| {
                        table
                            .iter()
                            .map(|row| row[j])
                            .sum::<u64>()
                            .is_multiple_of(2)
                    })
                    .collect();
                let mut wins = vec![vec![false; n + 1]; n + 1];
                for r in 1..=n {
                    for c in 1..=n {
                        wins[r][c] = (even_row[r - 1] && !wins[r - 1][c])
                            || (even_column[c - 1] && !wins[r][c - 1]);
                    }
                }
                Some(word(wins[n][n]).to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// A program for the whole input, each table answered by `first_wins`.
    fn program(first_wins: fn(&[Vec<u64>]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut numbers = input.split_whitespace().map(|t| t.parse::<u64>().unwrap());
            let mut next = || numbers.next().unwrap();
            let mut out = String::new();
            for _ in 0..next() {
                let n = next() as usize;
                let table: Vec<Vec<u64>> =
                    (0..n).map(|_| (0..n).map(|_| next()).collect()).collect();
                out.push_str(if first_wins(&table) { "YES\n" } else { "NO\n" });
            }
            out
        }
    }

    /// The rules searched: the player to move on the top-left `rows × cols` part wins when an
    /// allowed erasure, its numbers summed afresh, leaves a part lost for the other.
    fn by_rules(table: &[Vec<u64>], rows: usize, cols: usize) -> bool {
        if rows == 0 || cols == 0 {
            return false;
        }
        let row: u64 = table[rows - 1][..cols].iter().sum();
        let column: u64 = table[..rows].iter().map(|r| r[cols - 1]).sum();
        (row.is_multiple_of(2) && !by_rules(table, rows - 1, cols))
            || (column.is_multiple_of(2) && !by_rules(table, rows, cols - 1))
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("parigame").assert_sound();
    }

    #[test]
    fn the_rules_searched_are_right() {
        Problem::new("parigame").assert_right(&program(|t| by_rules(t, t.len(), t.len())));
    }

    #[test]
    fn whole_row_sums_are_named_with_a_two_by_two_table() {
        // Sums of the rows and columns as they were at the start, in the same search.
        fn whole(table: &[Vec<u64>], rows: usize, cols: usize) -> bool {
            if rows == 0 || cols == 0 {
                return false;
            }
            let row: u64 = table[rows - 1].iter().sum();
            let column: u64 = table.iter().map(|r| r[cols - 1]).sum();
            (row.is_multiple_of(2) && !whole(table, rows - 1, cols))
                || (column.is_multiple_of(2) && !whole(table, rows, cols - 1))
        }
        let found = Problem::new("parigame").assert_named(
            "parigame-whole-row-sums",
            &program(|t| whole(t, t.len(), t.len())),
        );
        // Erasing the row 1 1 leaves 2 1, whose last column is the 1 alone: odd, Minh is stuck.
        assert_eq!(found.position, "1\n2\n2 1\n1 1\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("YES", "NO"));
        assert!(
            found.certificate.en.starts_with(
                "Lan wins: she erases the last row, sum 1 + 1 = 2, even, and leaves the 1×2 \
                 part, lost for Minh: the last row, sum 2 + 1 = 3, and the last column, sum 1, \
                 are both odd"
            ),
            "{}",
            found.certificate.en
        );
    }

    #[test]
    fn certificates_follow_the_statement_examples() {
        // Game 1: erasing the last column (2, 3, 1) leaves rows 1 2 / 1 2 / 2 3, stuck.
        let first = Parigame.certificate(&vec![vec![1, 2, 2], vec![1, 2, 3], vec![2, 3, 1]]);
        assert!(
            first.en.starts_with(
                "Lan wins: she erases the last column, sum 2 + 3 + 1 = 6, even, and leaves the \
                 3×2 part, lost for Minh: the last row, sum 2 + 3 = 5, and the last column, sum \
                 2 + 2 + 3 = 7, are both odd, so Minh cannot move."
            ),
            "{}",
            first.en
        );
        assert!(
            first
                .vi
                .starts_with("Lan thắng: Lan xoá cột cuối, có tổng 2 + 3 + 1 = 6"),
            "{}",
            first.vi
        );
        // Game 2, all 2s: with every move allowed, a square of side 2 or more is lost, and so
        // is 2×4 (both its moves lead to won parts: 1×4 and 2×3).
        let second = Parigame.certificate(&vec![vec![2; 4]; 4]);
        for part in [
            "Minh wins: every move Lan has is answered",
            "erasing the last row (sum 2 + 2 + 2 + 2 = 8) leaves the 3×4 part, where Minh \
             erases the last row (sum 2 + 2 + 2 + 2 = 8) and leaves the 2×4 part",
            "erasing the last column (sum 2 + 2 + 2 + 2 = 8) leaves the 4×3 part, where Minh \
             erases the last row (sum 2 + 2 + 2 = 6) and leaves the 3×3 part",
            "the lost parts, rows×columns, are: 2×2, 2×4, 3×3, 4×2, 4×4.",
        ] {
            assert!(second.en.contains(part), "{part}: {}", second.en);
        }
        assert!(
            second.vi.starts_with("Minh thắng: mọi nước đi của Lan"),
            "{}",
            second.vi
        );
        // One odd number: Lan cannot move at all.
        let stuck = Parigame.certificate(&vec![vec![3]]);
        assert!(
            stuck.en.starts_with(
                "Minh wins: the last row, sum 3, and the last column, sum 3, are both odd"
            ),
            "{}",
            stuck.en
        );
    }

    #[test]
    fn certificates_name_winning_moves_the_rules_confirm() {
        for table in Parigame.small_games() {
            let n = table.len();
            let wins = parigame::corner_wins(&table);
            if let Some(erase) = winning_move(&table, &wins, (n, n)) {
                let (rows, cols) = erase.after((n, n));
                assert!(erase.allowed(&table, (n, n)));
                assert!(!by_rules(&table, rows, cols), "{table:?}");
            } else {
                assert!(!by_rules(&table, n, n), "{table:?}");
            }
        }
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Parigame.shrink(&vec![vec![1, 4], vec![3, 2]]);
        assert_eq!(
            smaller,
            vec![
                vec![vec![1]],
                vec![vec![2]],
                vec![vec![3]],
                vec![vec![4]],
                vec![vec![1, 2], vec![1, 2]],
                vec![vec![1, 2], vec![3, 2]],
                vec![vec![1, 4], vec![1, 2]],
            ]
        );
        assert!(Parigame.shrink(&vec![vec![2]]).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Parigame.parse("1\n2\n1 2\n3 4\n").is_ok());
        let rule = |t: &str| Parigame.parse(t).unwrap_err().to_string();
        assert_eq!(rule("11\n"), "line 1: k = 11 is outside 1..=10");
        assert_eq!(rule("1\n501\n"), "line 2: n = 501 is outside 1..=500");
        assert_eq!(
            rule("1\n2\n1 2\n3\n"),
            "line 4: expected 2 tokens (a row of n numbers), found 1"
        );
        assert_eq!(
            rule("1\n2\n1 2\n3 0\n"),
            "line 4: value_2 = 0 is outside 1..=1000000000"
        );
        assert_eq!(
            rule("1\n1\n1000000001\n"),
            "line 3: value_1 = 1000000001 is outside 1..=1000000000"
        );
        assert_eq!(
            rule("2\n1\n1\n"),
            "line 4: expected a line \"n\", found the end of the input"
        );
    }
}
