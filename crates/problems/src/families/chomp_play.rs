//! Chomp played against the reference (`chomp-play`): the referee writes `r c` and the `r` rows
//! of the bar (`o` present, `.` eaten), the program takes a side, then each player in turn writes
//! `x y` (eat piece (x, y) and every piece below and to the right of it). Stop line `-1 -1`.

use super::within;
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::chomp::BarRules;
use grundy_games::implicit;
use grundy_games::mex::Mex;
use rand::RngExt;
use rand::seq::IndexedRandom;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy)]
pub struct ChompPlay;

const MAX_GAMES: u32 = 100;
const MAX_SIDE: u8 = 8;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_rows: u8,
    pub max_cols: u8,
}

/// A bar of `height × width` places, of which row `i` (0-based from the top) keeps its first
/// `rows[i]` pieces; the lengths do not increase downwards and the poisoned piece is present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bar {
    height: u8,
    width: u8,
    rows: [u8; 8],
}

/// A piece, 0-based (row, column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    row: u8,
    col: u8,
}

/// Row lengths as eight nibbles: the key of the table of values.
fn key(rows: &[u8; 8]) -> u32 {
    rows.iter()
        .rev()
        .fold(0, |key, &len| key << 4 | u32::from(len))
}

fn eaten(rows: &[u8; 8], piece: Piece) -> [u8; 8] {
    let mut after = *rows;
    for len in &mut after[piece.row as usize..] {
        *len = (*len).min(piece.col);
    }
    after
}

fn pieces(rows: &[u8; 8]) -> impl Iterator<Item = Piece> + '_ {
    (0..8u8)
        .flat_map(move |row| (0..rows[row as usize]).map(move |col| Piece { row, col }))
        .filter(|&p| p != Piece { row: 0, col: 0 })
}

/// Every staircase within 8 × 8 with the poisoned piece, smallest first.
fn staircases() -> Vec<[u8; 8]> {
    let mut all = vec![Vec::new()];
    for _ in 0..8 {
        all = all
            .into_iter()
            .flat_map(|rows: Vec<u8>| {
                let cap = rows.last().copied().unwrap_or(MAX_SIDE);
                (0..=cap).map(move |len| {
                    let mut next = rows.clone();
                    next.push(len);
                    next
                })
            })
            .collect();
    }
    let mut all: Vec<[u8; 8]> = all
        .into_iter()
        .filter(|rows| rows[0] > 0)
        .map(|rows| rows.try_into().expect("eight rows"))
        .collect();
    all.sort_by_key(|rows| rows.iter().map(|&l| u32::from(l)).sum::<u32>());
    all
}

/// The Grundy value of every Chomp position within 8 × 8 (C(16, 8) − 1 = 12 869 of them),
/// computed once: the referee's move at 8 × 8 is then a few dozen look-ups.
fn table() -> &'static HashMap<u32, u8> {
    static TABLE: OnceLock<HashMap<u32, u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = HashMap::new();
        let mut mex = Mex::default();
        // Smallest first: every move leads to a position with fewer pieces, already valued.
        for rows in staircases() {
            let value = mex.of(pieces(&rows).map(|p| u32::from(table[&key(&eaten(&rows, p))])));
            table.insert(key(&rows), value as u8);
        }
        table
    })
}

impl Bar {
    fn grundy(&self) -> u8 {
        table()[&key(&self.rows)]
    }

    fn after(&self, piece: Piece) -> Bar {
        Bar {
            rows: eaten(&self.rows, piece),
            ..*self
        }
    }

    fn count(&self) -> u32 {
        self.rows.iter().map(|&l| u32::from(l)).sum()
    }

    fn full(height: u8, width: u8) -> Bar {
        Self::with_rows(height, width, &vec![width; height as usize])
    }

    fn with_rows(height: u8, width: u8, lengths: &[u8]) -> Bar {
        let mut rows = [0; 8];
        rows[..lengths.len()].copy_from_slice(lengths);
        Bar {
            height,
            width,
            rows,
        }
    }
}

impl ChompPlay {
    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> Bar {
        let height = rng.random_range(1..=p.max_rows);
        let width = rng.random_range(1..=p.max_cols);
        let fitting = |rows: &&[u8; 8]| {
            rows[0] <= p.max_cols
                && rows[p.max_rows as usize..].iter().all(|&l| l == 0)
                && rows.iter().map(|&l| u32::from(l)).sum::<u32>() > 1
        };
        let bar = |rows: &[u8; 8]| Bar {
            height: p.max_rows,
            width: p.max_cols,
            rows: *rows,
        };
        match theme {
            // Lost for the player to move, anywhere in the bar.
            0 | 3 => {
                let all = staircases();
                let lost: Vec<&[u8; 8]> = all
                    .iter()
                    .filter(fitting)
                    .filter(|rows| table()[&key(rows)] == 0)
                    .collect();
                bar(lost.choose(rng).expect("a lost position fits"))
            }
            // Two rows: lost exactly when the top one is one piece longer.
            1 if p.max_rows >= 2 && p.max_cols >= 2 => {
                let top = rng.random_range(2..=p.max_cols);
                let bottom = if rng.random_bool(0.5) {
                    top - 1
                } else {
                    rng.random_range(1..=top)
                };
                Bar::with_rows(2.max(height), top.max(width), &[top, bottom])
            }
            // A full bar: won, by strategy stealing.
            2 if height * width > 1 => Bar::full(height, width),
            _ => {
                let all = staircases();
                let any: Vec<&[u8; 8]> = all.iter().filter(fitting).collect();
                bar(any.choose(rng).expect("a position fits"))
            }
        }
    }
}

impl Rules for ChompPlay {
    type Position = Bar;
    type Move = Piece;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Bar, ValidationError> {
        let (height, width): (u8, u8) = reader.pair(("r", 1..=MAX_SIDE), ("c", 1..=MAX_SIDE))?;
        let mut rows = [0u8; 8];
        for i in 0..height as usize {
            let line = reader.line("a row of the bar")?;
            line.expect_len(1, "a row of c characters `o` or `.`")?;
            let text = line.token(0);
            if text.len() != width as usize || text.bytes().any(|b| b != b'o' && b != b'.') {
                return Err(line.error(format!(
                    "a row is exactly {width} characters, each `o` (present) or `.` (eaten)"
                )));
            }
            let len = text.bytes().take_while(|&b| b == b'o').count();
            if text[len..].contains('o') {
                return Err(line.error(
                    "a present piece right of an eaten one (everything right of an eaten piece is \
                     eaten)",
                ));
            }
            if i == 0 && len == 0 {
                return Err(line.error("the poisoned piece (1, 1) must be present"));
            }
            if i > 0 && len > rows[i - 1] as usize {
                return Err(line.error(
                    "a present piece below an eaten one (everything below an eaten piece is eaten)",
                ));
            }
            rows[i] = len as u8;
        }
        Ok(Bar {
            height,
            width,
            rows,
        })
    }

    fn write_position(&self, bar: &Bar, out: &mut String) {
        super::push_line(out, [bar.height, bar.width]);
        for &len in &bar.rows[..bar.height as usize] {
            out.extend((0..bar.width).map(|c| if c < len { 'o' } else { '.' }));
            out.push('\n');
        }
    }

    fn start_rule(&self, bar: &Bar) -> Result<(), String> {
        if bar.count() > 1 {
            Ok(())
        } else {
            Err("only the poisoned piece is left; a game starts with a move to make".into())
        }
    }

    fn words(&self, bar: &Bar) -> String {
        let lengths: Vec<String> = bar
            .rows
            .iter()
            .take_while(|&&l| l > 0)
            .map(u8::to_string)
            .collect();
        format!("rows ({})", lengths.join(", "))
    }

    fn is_over(&self, bar: &Bar) -> bool {
        bar.count() == 1
    }

    fn value(&self, bar: &Bar) -> Value {
        let grundy = bar.grundy();
        Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        }
    }

    fn read_move(&self, bar: &Bar, text: &str) -> Result<Piece, String> {
        let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
        let numbers: Option<Vec<i128>> = tokens.iter().map(|t| t.parse().ok()).collect();
        let (x, y) = match numbers.as_deref() {
            Some(&[x, y]) => (x, y),
            _ => {
                return Err(
                    "a move is two integers `x y` (eat the piece in row x, column y)".into(),
                );
            }
        };
        let (r, c) = (bar.height, bar.width);
        if !(1..=i128::from(r)).contains(&x) || !(1..=i128::from(c)).contains(&y) {
            return Err(format!(
                "({x}, {y}) is off the bar (rows 1 to {r}, columns 1 to {c})"
            ));
        }
        if (x, y) == (1, 1) {
            return Err("(1, 1) is the poisoned piece, which no move eats".into());
        }
        let piece = Piece {
            row: (x - 1) as u8,
            col: (y - 1) as u8,
        };
        if piece.col >= bar.rows[piece.row as usize] {
            return Err(format!("the piece ({x}, {y}) is already eaten"));
        }
        Ok(piece)
    }

    fn write_move(&self, p: &Piece) -> String {
        format!("{} {}", p.row + 1, p.col + 1)
    }

    fn move_words(&self, _: &Bar, p: &Piece) -> String {
        format!("to eat ({}, {})", p.row + 1, p.col + 1)
    }

    fn move_done(&self, _: &Bar, p: &Piece) -> String {
        format!("ate ({}, {})", p.row + 1, p.col + 1)
    }

    fn apply(&self, bar: &Bar, &piece: &Piece) -> Bar {
        bar.after(piece)
    }

    fn winning_moves(&self, bar: &Bar) -> Vec<Piece> {
        pieces(&bar.rows)
            .filter(|&p| bar.after(p).grundy() == 0)
            .collect()
    }

    fn referee_move(&self, bar: &Bar, played: usize, rng: &mut TestRng) -> Piece {
        if let Some(&piece) = self.winning_moves(bar).choose(rng) {
            return piece;
        }
        let all: Vec<Piece> = pieces(&bar.rows).collect();
        if played < 4 && rng.random_bool(0.4) {
            return *all.choose(rng).expect("the game is not over");
        }
        // Eating the most pieces ends the game soonest.
        let least = all
            .iter()
            .map(|&p| bar.after(p).count())
            .min()
            .expect("the game is not over");
        let biggest: Vec<Piece> = all
            .into_iter()
            .filter(|&p| bar.after(p).count() == least)
            .collect();
        *biggest.choose(rng).expect("one move eats most")
    }

    fn random_start(&self, rng: &mut TestRng) -> Bar {
        let params = Params {
            games: 1,
            max_rows: 5,
            max_cols: 6,
        };
        let theme = rng.random_range(0..5);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`r c`, then the r rows of the bar, `o` for a piece and `.` for one eaten: `2 3`, `ooo`, `oo.`.",
                vi: "`r c`, rồi r hàng của thanh sô-cô-la, `o` là miếng còn, `.` là miếng đã ăn: `2 3`, `ooo`, `oo.`.",
            },
            moves: Words {
                en: "`x y` eats the piece in row x, column y and every piece below and to the right of it: `1 2`. No move eats the poisoned piece `1 1`: whoever cannot move loses.",
                vi: "`x y` ăn miếng ở hàng x, cột y cùng mọi miếng ở phía dưới và bên phải nó: `1 2`. Không nước nào được ăn miếng độc `1 1`: ai hết nước đi thì thua.",
            },
        }
    }
}

impl Game for ChompPlay {
    type Params = Params;
    const STOP: &'static str = "-1 -1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_rows", p.max_rows.into(), 2, MAX_SIDE.into())?;
        within("max_cols", p.max_cols.into(), 2, MAX_SIDE.into())
    }

    fn fits(&self, games: &[Bar], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for bar in games {
            super::at_most("r", bar.height.into(), p.max_rows.into())?;
            super::at_most("c", bar.width.into(), p.max_cols.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<Bar> {
        let mut games = Vec::new();
        let (r, c) = (p.max_rows, p.max_cols);
        if index == 0 {
            // Square bars, won by eating (2, 2) and mirroring; the full bar; a single row, won
            // by eating all but the poison; two rows, lost when the top is one longer; an L with
            // equal arms, lost to the mirror.
            games.extend((2..=r.min(c)).map(|k| Bar::full(k, k)));
            games.push(Bar::full(r, c));
            games.push(Bar::full(1, c));
            games.push(Bar::with_rows(2, c, &[c, c - 1]));
            games.push(Bar::full(2, c));
            let arm = r.min(c);
            let mut l = vec![1; arm as usize];
            l[0] = arm;
            games.push(Bar::with_rows(r, c, &l));
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 5;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<Bar> {
        staircases()
            .into_iter()
            .filter(|rows| rows[0] <= 4 && rows[4] == 0)
            .map(|rows| Bar {
                height: 4,
                width: 4,
                rows,
            })
            .filter(|bar| bar.count() > 1)
            .collect()
    }

    fn brute_value(&self, bar: &Bar) -> Option<Value> {
        if bar.count() > 16 {
            return None;
        }
        let columns = 8;
        let mask = pieces(&bar.rows)
            .chain([Piece { row: 0, col: 0 }])
            .fold(0u64, |mask, p| {
                mask | 1 << (p.row as usize * columns + p.col as usize)
            });
        let grundy = implicit::grundy(&BarRules { columns }, mask, 100_000).ok()?;
        Some(Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        })
    }
}
