//! BZOJ 1443's token game on a page (`bipartite-game`): A places a token on a free cell of a
//! grid, then the players, B first, slide it to a free neighbouring cell it has not visited; who
//! cannot move loses. A position is the grid `n m` and its rows, where `.` is free, `#` blocked,
//! `x` visited and `@` the token; without `@` the token is still to be placed. A move is `r c`:
//! the cell the token is placed on or slides to. Only who wins counts (it is no sum of games).
//!
//! Every move puts the token on a cell w of the free cells, and the player who moves next starts
//! from w on them: as B does after A placed it there. So a move wins exactly when its cell is one
//! A wins on among the free cells, the family's cells that some maximum matching leaves out.

use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::geography;
use rand::RngExt;
use rand::seq::IndexedRandom;

#[derive(Debug, Clone, Copy)]
pub struct BipartitePlay;

/// A page shows the grid whole.
const MAX_SIDE: u32 = 6;
/// The most winning moves a hint lists (a placement may win on many cells).
const MAX_LISTED: usize = 12;

const FREE: u8 = b'.';
const BLOCKED: u8 = b'#';
const VISITED: u8 = b'x';
const TOKEN: u8 = b'@';

type Cell = (usize, usize);

/// The grid's rows as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    rows: Vec<Vec<u8>>,
}

impl Grid {
    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.rows.len()).flat_map(move |r| (0..self.rows[r].len()).map(move |c| (r, c)))
    }

    fn at(&self, (r, c): Cell) -> u8 {
        self.rows[r][c]
    }

    fn token(&self) -> Option<Cell> {
        self.cells().find(|&cell| self.at(cell) == TOKEN)
    }

    fn neighbours(&self, (r, c): Cell) -> impl Iterator<Item = Cell> + '_ {
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .filter_map(move |(dr, dc)| {
                let cell = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
                (cell.0 < self.rows.len() && cell.1 < self.rows[0].len()).then_some(cell)
            })
    }

    /// The cells a move may take the token to: any free cell for the placement, then the free
    /// neighbours of the token.
    fn moves(&self) -> Vec<Cell> {
        match self.token() {
            None => self.cells().filter(|&cell| self.at(cell) == FREE).collect(),
            Some(token) => self
                .neighbours(token)
                .filter(|&cell| self.at(cell) == FREE)
                .collect(),
        }
    }

    /// The moves that win: to a cell the placer wins on among the free cells.
    fn winning(&self) -> Vec<Cell> {
        let free: Vec<Vec<bool>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(|&ch| ch == FREE).collect())
            .collect();
        let good = geography::placer_winning_cells(&free);
        self.moves()
            .into_iter()
            .filter(|cell| good.contains(cell))
            .collect()
    }

    fn free_neighbours(&self, cell: Cell) -> usize {
        self.neighbours(cell)
            .filter(|&n| self.at(n) == FREE)
            .count()
    }
}

/// `(2, 3)`: a cell, 1-based as the statement numbers them.
fn name((r, c): Cell) -> String {
    format!("({}, {})", r + 1, c + 1)
}

impl Rules for BipartitePlay {
    type Position = Grid;
    type Move = Cell;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Grid, ValidationError> {
        let (n, m): (u32, u32) = reader.pair(("n", 1..=MAX_SIDE), ("m", 1..=MAX_SIDE))?;
        let mut rows = Vec::with_capacity(n as usize);
        let mut token = None;
        let mut visited = None;
        for r in 1..=n {
            let line = reader.line("a row of the grid")?;
            line.expect_len(1, "a row of ., #, x and @")?;
            let row = line.token(0).as_bytes();
            if row.len() != m as usize || row.iter().any(|ch| !b".#x@".contains(ch)) {
                return Err(line.error(format!(
                    "a row must be {m} characters, each . (free), # (blocked), x (visited) or \
                     @ (the token)"
                )));
            }
            for (c, &ch) in (1..).zip(row) {
                match ch {
                    TOKEN if token.is_some() => {
                        return Err(line.error("the grid has a second token @; there is one"));
                    }
                    TOKEN => token = Some(line.number),
                    VISITED => visited = visited.or(Some((line.number, (r, c)))),
                    _ => {}
                }
            }
            rows.push(row.to_vec());
        }
        if let (Some((number, (r, c))), None) = (visited, token) {
            return Err(ValidationError::new(
                number,
                format!(
                    "cell ({r}, {c}) is visited but the token (@) is not on the grid: a token \
                     still to be placed has visited nothing"
                ),
            ));
        }
        Ok(Grid { rows })
    }

    fn write_position(&self, grid: &Grid, out: &mut String) {
        super::push_line(out, [grid.rows.len(), grid.rows[0].len()]);
        for row in &grid.rows {
            out.extend(row.iter().map(|&ch| char::from(ch)));
            out.push('\n');
        }
    }

    fn start_rule(&self, grid: &Grid) -> Result<(), String> {
        match (self.is_over(grid), grid.token()) {
            (false, _) => Ok(()),
            (true, None) => Err("the grid has no free cell to place the token on".into()),
            (true, Some(token)) => Err(format!(
                "the token on {} has no free neighbour; a game starts with a move to make",
                name(token)
            )),
        }
    }

    fn words(&self, grid: &Grid) -> String {
        let size = format!("{} × {} grid", grid.rows.len(), grid.rows[0].len());
        match grid.token() {
            None => format!("the {size}, the token still to be placed"),
            Some(token) => {
                let visited = grid.cells().filter(|&c| grid.at(c) == VISITED).count() + 1;
                let cells = if visited == 1 { "cell" } else { "cells" };
                format!(
                    "the {size}, the token on {} ({visited} {cells} visited)",
                    name(token)
                )
            }
        }
    }

    fn is_over(&self, grid: &Grid) -> bool {
        grid.moves().is_empty()
    }

    fn value(&self, grid: &Grid) -> Value {
        Value {
            win: !grid.winning().is_empty(),
            grundy: None,
        }
    }

    fn read_move(&self, grid: &Grid, text: &str) -> Result<Cell, String> {
        let numbers: Option<Vec<i128>> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().ok())
            .collect();
        let Some(&[r, c]) = numbers.as_deref() else {
            return Err(
                "a move is `r c`: the row and column of the cell the token goes to".to_owned(),
            );
        };
        let (n, m) = (grid.rows.len() as i128, grid.rows[0].len() as i128);
        if !(1..=n).contains(&r) || !(1..=m).contains(&c) {
            return Err(format!(
                "there is no cell ({r}, {c}): the rows are 1 to {n}, the columns 1 to {m}"
            ));
        }
        let cell = ((r - 1) as usize, (c - 1) as usize);
        match grid.at(cell) {
            BLOCKED => return Err(format!("{} is blocked", name(cell))),
            VISITED | TOKEN => return Err(format!("the token has already visited {}", name(cell))),
            _ => {}
        }
        match grid.token() {
            Some(token) if !grid.neighbours(token).any(|n| n == cell) => Err(format!(
                "{} does not share a side with the token's cell {}",
                name(cell),
                name(token)
            )),
            _ => Ok(cell),
        }
    }

    fn write_move(&self, &(r, c): &Cell) -> String {
        format!("{} {}", r + 1, c + 1)
    }

    fn move_words(&self, grid: &Grid, &cell: &Cell) -> String {
        match grid.token() {
            None => format!("placing the token on {}", name(cell)),
            Some(_) => format!("the token to {}", name(cell)),
        }
    }

    fn move_done(&self, grid: &Grid, &cell: &Cell) -> String {
        match grid.token() {
            None => format!("placed the token on {}", name(cell)),
            Some(_) => format!("moved the token to {}", name(cell)),
        }
    }

    fn apply(&self, grid: &Grid, &(r, c): &Cell) -> Grid {
        let mut after = grid.clone();
        if let Some((tr, tc)) = grid.token() {
            after.rows[tr][tc] = VISITED;
        }
        after.rows[r][c] = TOKEN;
        after
    }

    fn winning_moves(&self, grid: &Grid) -> Vec<Cell> {
        let mut moves = grid.winning();
        moves.truncate(MAX_LISTED);
        moves
    }

    fn referee_move(&self, grid: &Grid, played: usize, rng: &mut TestRng) -> Cell {
        if let Some(&cell) = grid.winning().choose(rng) {
            return cell;
        }
        let moves = grid.moves();
        if played < 4 && rng.random_bool(0.4) {
            return *moves.choose(rng).expect("the game is not over");
        }
        // Lost: the cell with the fewest ways on ends the game soonest.
        let fewest = moves
            .iter()
            .map(|&cell| grid.free_neighbours(cell))
            .min()
            .expect("the game is not over");
        let tight: Vec<Cell> = moves
            .into_iter()
            .filter(|&cell| grid.free_neighbours(cell) == fewest)
            .collect();
        *tight.choose(rng).expect("one cell has the fewest ways on")
    }

    fn random_start(&self, rng: &mut TestRng) -> Grid {
        let won = rng.random_bool(0.5);
        for _ in 0..100 {
            let (n, m) = (rng.random_range(2..=6), rng.random_range(2..=6));
            let density = rng.random_range(0.5..=1.0);
            let rows = (0..n)
                .map(|_| {
                    (0..m)
                        .map(|_| {
                            if rng.random_bool(density) {
                                FREE
                            } else {
                                BLOCKED
                            }
                        })
                        .collect()
                })
                .collect();
            let start = Grid { rows };
            if !self.is_over(&start) && self.value(&start).win == won {
                return start;
            }
        }
        Grid {
            rows: vec![vec![FREE]],
        }
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`n m`, then the n rows of the grid: `.` free, `#` blocked, `x` visited, `@` \
                     the token (none before it is placed): `2 3`, `.#.`, `...` is a grid to \
                     place the token on, `2 3`, `x#.`, `@..` the token on (2, 1) after a move \
                     down. At most 6 × 6.",
                vi: "`n m`, rồi n hàng của lưới: `.` ô trống, `#` ô bị chặn, `x` ô đã đi qua, \
                     `@` quân cờ (chưa có khi quân chưa được đặt): `2 3`, `.#.`, `...` là lưới \
                     chờ đặt quân, `2 3`, `x#.`, `@..` là quân ở ô (2, 1) sau một nước đi \
                     xuống. Tối đa 6 × 6.",
            },
            moves: Words {
                en: "`r c` (row from the top, column from the left, from 1): the first move \
                     places the token on that free cell, each later one slides it there from a \
                     cell sharing a side: `2 1`.",
                vi: "`r c` (hàng tính từ trên, cột tính từ trái, đánh số từ 1): nước đầu tiên \
                     đặt quân vào ô trống đó, mỗi nước sau trượt quân tới đó từ một ô chung \
                     cạnh: `2 1`.",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{Board, Played};
    use std::collections::{HashMap, HashSet};

    const BOARD: Played<BipartitePlay> = Played(BipartitePlay);

    type Rows = Vec<Vec<u8>>;

    /// The literal rules on the rows: the placement on any `.`, then a slide to a `.` sharing a
    /// side with `@`, which leaves an `x` behind. Every legal move with the rows it leaves.
    fn moves(rows: &[Vec<u8>]) -> Vec<(Cell, Rows)> {
        let (n, m) = (rows.len(), rows[0].len());
        let token = (0..n)
            .flat_map(|r| (0..m).map(move |c| (r, c)))
            .find(|&(r, c)| rows[r][c] == b'@');
        let mut found = Vec::new();
        for r in 0..n {
            for c in 0..m {
                let next_to = token.is_none_or(|(tr, tc)| tr.abs_diff(r) + tc.abs_diff(c) == 1);
                if rows[r][c] == b'.' && next_to {
                    let mut after = rows.to_vec();
                    if let Some((tr, tc)) = token {
                        after[tr][tc] = b'x';
                    }
                    after[r][c] = b'@';
                    found.push(((r, c), after));
                }
            }
        }
        found
    }

    fn wins(rows: &[Vec<u8>], memo: &mut HashMap<Rows, bool>) -> bool {
        if let Some(&known) = memo.get(rows) {
            return known;
        }
        let win = moves(rows).iter().any(|(_, after)| !wins(after, memo));
        memo.insert(rows.to_vec(), win);
        win
    }

    fn text(rows: &[Vec<u8>]) -> String {
        let mut out = format!("{} {}\n", rows.len(), rows[0].len());
        for row in rows {
            out += std::str::from_utf8(row).unwrap();
            out.push('\n');
        }
        out
    }

    /// Checks a position against the search and every move against the rules, then every
    /// position the game can reach.
    fn check_all_game_long(rows: Rows, memo: &mut HashMap<Rows, bool>, seen: &mut HashSet<Rows>) {
        if !seen.insert(rows.clone()) {
            return;
        }
        let position = text(&rows);
        let win = wins(&rows, memo);
        let value = BOARD.value(&position).unwrap();
        assert_eq!((value.win, value.grundy), (win, None), "{position}");
        let mut winning = HashSet::new();
        for ((r, c), after) in moves(&rows) {
            let mv = format!("{} {}", r + 1, c + 1);
            assert_eq!(
                BOARD.play(&position, &mv).unwrap().after,
                text(&after),
                "{position}{mv}"
            );
            if !wins(&after, memo) {
                winning.insert(mv);
            }
            check_all_game_long(after, memo, seen);
        }
        let hints = BOARD.winning_moves(&position).unwrap();
        assert_eq!(hints.is_empty(), !win, "{position}");
        for mv in &hints {
            assert!(winning.contains(&mv.text), "{position}{mv:?}");
            assert!(!mv.value.win);
        }
        if hints.len() < MAX_LISTED {
            let listed: HashSet<String> = hints.into_iter().map(|m| m.text).collect();
            assert_eq!(listed, winning, "{position}");
        }
    }

    fn grid(n: usize, m: usize, mask: u32) -> Rows {
        (0..n)
            .map(|r| {
                (0..m)
                    .map(|c| {
                        if mask >> (r * m + c) & 1 == 1 {
                            b'.'
                        } else {
                            b'#'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn values_and_hints_agree_with_a_search_of_the_rules() {
        // Every grid up to 3 × 3 and 2 × 4, from the placement to the end of every game.
        let mut memo = HashMap::new();
        let mut seen = HashSet::new();
        for (n, m) in [
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 1),
            (3, 2),
            (3, 3),
            (2, 4),
            (4, 2),
        ] {
            for mask in 0..1u32 << (n * m) {
                check_all_game_long(grid(n, m, mask), &mut memo, &mut seen);
            }
        }
        assert!(seen.len() > 10_000, "{} positions", seen.len());
    }

    #[test]
    fn four_by_four_grids_agree_with_the_search_down_the_referee_s_games() {
        use rand::SeedableRng;
        let mut rng = TestRng::seed_from_u64(1443);
        let mut memo = HashMap::new();
        let mut lost = 0;
        for seed in 0..30 {
            let mask = rng.random_range(0..1u32 << 16) | rng.random_range(0..1u32 << 16);
            let mut position = text(&grid(4, 4, mask));
            lost += usize::from(!BOARD.value(&position).unwrap().win);
            for step in 0.. {
                let rows: Rows = position
                    .lines()
                    .skip(1)
                    .map(|l| l.as_bytes().to_vec())
                    .collect();
                assert_eq!(
                    BOARD.value(&position).unwrap().win,
                    wins(&rows, &mut memo),
                    "{position}"
                );
                for mv in BOARD.winning_moves(&position).unwrap() {
                    let after: Rows = mv
                        .after
                        .lines()
                        .skip(1)
                        .map(|l| l.as_bytes().to_vec())
                        .collect();
                    assert!(!wins(&after, &mut memo), "{position}{mv:?}");
                }
                match BOARD.reply(&position, seed + step).unwrap() {
                    Some(mv) => position = mv.after,
                    None => break,
                }
            }
        }
        assert!((3..=27).contains(&lost), "{lost} of 30 grids are lost");
    }

    #[test]
    fn random_starts_are_a_mix_of_won_and_lost_grids() {
        let won = (0..40)
            .filter(|&seed| {
                let start = BOARD.random_start(seed);
                assert_eq!(BOARD.check_start(&start).unwrap(), start);
                assert!(!start.contains('@'), "{start}");
                BOARD.value(&start).unwrap().win
            })
            .count();
        assert!((8..=32).contains(&won), "{won} of 40 starts are won");
    }

    #[test]
    fn moves_and_positions_are_refused_with_the_rule() {
        // The statement's example grid: A wins on (2, 3) and (3, 2).
        let example = "3 3\n.##\n...\n#.#\n";
        let hints: Vec<String> = BOARD
            .winning_moves(example)
            .unwrap()
            .into_iter()
            .map(|m| m.text)
            .collect();
        assert_eq!(hints, ["2 3", "3 2"]);
        let placed = BOARD.play(example, "2 2").unwrap();
        assert_eq!(placed.after, "3 3\n.##\n.@.\n#.#\n");
        assert_eq!(placed.words, "placing the token on (2, 2)");
        assert_eq!(
            placed.after_words,
            "the 3 × 3 grid, the token on (2, 2) (1 cell visited)"
        );
        let refused = |position: &str, mv: &str| BOARD.play(position, mv).unwrap_err().to_string();
        assert_eq!(refused(example, "1 2"), "(1, 2) is blocked");
        assert_eq!(
            refused(example, "4 1"),
            "there is no cell (4, 1): the rows are 1 to 3, the columns 1 to 3"
        );
        assert_eq!(
            refused(&placed.after, "2 2"),
            "the token has already visited (2, 2)"
        );
        assert_eq!(
            refused(&placed.after, "1 1"),
            "(1, 1) does not share a side with the token's cell (2, 2)"
        );
        let slid = BOARD.play(&placed.after, "2 1").unwrap();
        assert_eq!(slid.after, "3 3\n.##\n@x.\n#.#\n");
        assert_eq!(slid.words, "the token to (2, 1)");
        let not = |text: &str| BOARD.check(text).unwrap_err().to_string();
        assert!(not("1 2\n@@\n").contains("a second token"));
        assert!(not("1 2\nx.\n").contains("the token (@) is not on the grid"));
        assert!(not("1 2\n.o\n").contains("each . (free), # (blocked), x (visited) or @"));
        assert!(not("7 1\n").contains("n = 7 is outside 1..=6"));
        let over = BOARD.check_start("1 2\nx@\n").unwrap_err().to_string();
        assert!(over.contains("has no free neighbour"), "{over}");
        assert!(
            BOARD
                .check_start("1 1\n#\n")
                .unwrap_err()
                .to_string()
                .contains("no free cell")
        );
    }
}
