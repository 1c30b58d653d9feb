//! BZOJ 1443 "Game": a grid of `.` and `#`; the placer wins on the cells some maximum matching
//! leaves free. Output `WIN` and those cells row-major, or `LOSE`.

use super::bipartite_play::BipartitePlay;
use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::geography;
use grundy_games::matching::{Bipartite, maximum_matching};
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// The game itself on a page, placement first: grids up to 6 × 6.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(BipartitePlay))
    }
}

type Cell = (usize, usize);

const PLACER_AS_MOVER: Misconception = Misconception {
    id: "bipartite-placer-as-mover",
    title: "The placer taken for the first mover",
    text: "The program lists the cells from which the player who moves first wins: those in \
           every maximum matching of the free cells. That is undirected vertex geography's rule \
           for the mover, but here A only places the token and B moves first, so A wins exactly \
           where B, the mover, loses: on the cells some maximum matching leaves free. On a \
           single free cell B cannot move at all, and A wins.",
};

/// A cell, 1-based as the statement numbers them.
fn cell((r, c): Cell) -> String {
    format!("({}, {})", r + 1, c + 1)
}

/// A maximum matching of the free cells' grid graph, as pairs of neighbouring cells.
fn maximum_pairs(free: &[Vec<bool>]) -> Vec<(Cell, Cell)> {
    let cells: Vec<Cell> = (0..free.len())
        .flat_map(|r| (0..free[r].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| free[r][c])
        .collect();
    // Cells of even r + c on the left, odd on the right: neighbours differ in colour.
    let (black, white): (Vec<Cell>, Vec<Cell>) =
        cells.iter().partition(|&&(r, c)| (r + c) % 2 == 0);
    let adjacency = black
        .iter()
        .map(|&(r, c)| {
            white
                .iter()
                .enumerate()
                .filter(|&(_, &(wr, wc))| r.abs_diff(wr) + c.abs_diff(wc) == 1)
                .map(|(i, _)| i as u32)
                .collect()
        })
        .collect();
    let matching = maximum_matching(&Bipartite {
        right: white.len(),
        adjacency,
    });
    black
        .iter()
        .zip(&matching.left)
        .filter_map(|(&b, w)| Some((b, white[(*w)? as usize])))
        .collect()
}

/// `free` with `at` blocked.
fn without(free: &[Vec<bool>], (r, c): Cell) -> Vec<Vec<bool>> {
    let mut less = free.to_vec();
    less[r][c] = false;
    less
}

/// The pairs of a matching in words: listed when there are few.
fn pairs_text(pairs: &[(Cell, Cell)]) -> String {
    if pairs.len() > 12 {
        return format!("{} pairs", pairs.len());
    }
    let listed: Vec<String> = pairs
        .iter()
        .map(|&(a, b)| format!("{}–{}", cell(a), cell(b)))
        .collect();
    format!("{} pair(s): {}", pairs.len(), listed.join(", "))
}

/// The cells an output lists as A's wins, `None` when it is not `LOSE` or `WIN` and cells.
fn claimed(got: &str) -> Option<Vec<Cell>> {
    let mut tokens = got.split_ascii_whitespace();
    match tokens.next()? {
        "LOSE" => tokens.next().is_none().then(Vec::new),
        "WIN" => {
            let numbers: Vec<usize> = tokens.map(|t| t.parse().ok()).collect::<Option<_>>()?;
            if !numbers.len().is_multiple_of(2) {
                return None;
            }
            numbers
                .chunks(2)
                .map(|rc| Some((rc[0].checked_sub(1)?, rc[1].checked_sub(1)?)))
                .collect()
        }
        _ => None,
    }
}

/// Why A wins from `at` (English, Vietnamese): a maximum matching leaves it out.
fn why_wins(free: &[Vec<bool>], at: Cell) -> (String, String) {
    if free_neighbours(free, at) == 0 {
        return (
            format!(
                "A wins on {}: it has no free neighbour, so B cannot move",
                cell(at)
            ),
            format!(
                "A thắng tại {}: ô này không có ô trống kề, nên B không đi được",
                cell(at)
            ),
        );
    }
    let text = pairs_text(&maximum_pairs(&without(free, at)));
    (
        format!(
            "A wins on {at}: the free cells other than {at} have a matching of {text}, as \
             large as any matching of the whole grid, so some maximum matching leaves {at} out. \
             Every cell B moves to is matched in it (else the matching could grow by one), and A \
             answers by moving to its partner, so B runs out of moves first",
            at = cell(at)
        ),
        format!(
            "A thắng tại {at}: các ô trống khác {at} có một cặp ghép gồm {text}, lớn bằng \
             cặp ghép lớn nhất của cả lưới, nên có cặp ghép cực đại không chứa {at}. Mỗi ô B \
             đi tới đều đã được ghép (nếu không cặp ghép sẽ lớn thêm được), và A đáp bằng cách \
             đi tới ô ghép với nó, nên B hết nước đi trước",
            at = cell(at)
        ),
    )
}

fn free_neighbours(free: &[Vec<bool>], (r, c): Cell) -> usize {
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .iter()
        .filter(|&&(dr, dc)| {
            let (Some(nr), Some(nc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                return false;
            };
            free.get(nr).and_then(|row| row.get(nc)) == Some(&true)
        })
        .count()
}

/// Why A loses from `at` (English, Vietnamese): it lies in every maximum matching.
fn why_loses(free: &[Vec<bool>], at: Cell) -> (String, String) {
    let pairs = maximum_pairs(free);
    let smaller = maximum_pairs(&without(free, at)).len();
    // A maximum matching that uses `at`: every one does.
    let partner = pairs
        .iter()
        .find_map(|&(a, b)| (a == at).then_some(b).or((b == at).then_some(a)))
        .expect("a cell in every maximum matching is matched");
    let text = pairs_text(&pairs);
    (
        format!(
            "A loses on {at}: the whole grid has a matching of {text}, and without {at} the \
             largest has {smaller}, one fewer, so {at} lies in every maximum matching. B moves \
             to {partner}, its partner, and then always to the partner of the cell A moved to \
             (an unmatched one would give a maximum matching without {at}), so A runs out of \
             moves first",
            at = cell(at),
            partner = cell(partner)
        ),
        format!(
            "A thua tại {at}: cả lưới có một cặp ghép gồm {text}, còn bỏ {at} đi thì cặp ghép \
             lớn nhất chỉ có {smaller}, ít hơn một, nên {at} nằm trong mọi cặp ghép cực đại. B \
             đi tới {partner}, ô ghép với nó, rồi luôn đi tới ô ghép với ô A vừa tới (một ô \
             chưa ghép sẽ cho cặp ghép cực đại không chứa {at}), nên A hết nước đi trước",
            at = cell(at),
            partner = cell(partner)
        ),
    )
}

/// Every grid of `rows` × `cols` whose free cells are connected and touch all four sides.
fn connected_grids(rows: usize, cols: usize) -> impl Iterator<Item = Vec<Vec<bool>>> {
    (1u32..1 << (rows * cols)).filter_map(move |mask| {
        let free: Vec<Vec<bool>> = (0..rows)
            .map(|r| (0..cols).map(|c| mask >> (r * cols + c) & 1 == 1).collect())
            .collect();
        let tight = free[0].contains(&true)
            && free[rows - 1].contains(&true)
            && free.iter().any(|row| row[0])
            && free.iter().any(|row| row[cols - 1]);
        let count = mask.count_ones() as usize;
        // Connected: a flood from the first free cell reaches them all.
        let first = (0..rows * cols).find(|i| mask >> i & 1 == 1)?;
        let mut seen = vec![first];
        let mut next = 0;
        while next < seen.len() {
            let (r, c) = (seen[next] / cols, seen[next] % cols);
            next += 1;
            for (nr, nc) in [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ] {
                if nr < rows && nc < cols && free[nr][nc] && !seen.contains(&(nr * cols + nc)) {
                    seen.push(nr * cols + nc);
                }
            }
        }
        (tight && seen.len() == count).then_some(free)
    })
}

/// `free` without the blocked rows and columns at its edges (the game is the same).
fn trimmed(free: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let rows: Vec<usize> = (0..free.len())
        .filter(|&r| free[r].contains(&true))
        .collect();
    let cols: Vec<usize> = (0..free[0].len())
        .filter(|&c| free.iter().any(|row| row[c]))
        .collect();
    let (r0, r1) = (rows[0], rows[rows.len() - 1]);
    let (c0, c1) = (cols[0], cols[cols.len() - 1]);
    free[r0..=r1]
        .iter()
        .map(|row| row[c0..=c1].to_vec())
        .collect()
}

impl Explain for BipartiteGame {
    type Game = Vec<Vec<bool>>;

    fn small_games(&self) -> Vec<Vec<Vec<bool>>> {
        // One game per input: only connected grids (a token never leaves its component), up
        // to 3 × 3, fewest free cells first.
        let mut games: Vec<Vec<Vec<bool>>> = (1..=3)
            .flat_map(|rows| (1..=3).flat_map(move |cols| connected_grids(rows, cols)))
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<Vec<bool>> {
        let (rows, cols) = (rng.random_range(1..=4), rng.random_range(1..=4));
        let density = rng.random_range(0.4..=1.0);
        let mut free: Vec<Vec<bool>> = (0..rows)
            .map(|_| (0..cols).map(|_| rng.random_bool(density)).collect())
            .collect();
        free[rng.random_range(0..rows)][rng.random_range(0..cols)] = true;
        free
    }

    fn games_per_input(&self) -> usize {
        1
    }

    fn input_of(&self, games: &[Vec<Vec<bool>>]) -> Input {
        Input {
            free: games[0].clone(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<Vec<bool>>> {
        vec![input.free.clone()]
    }

    fn split_output(&self, _games: &[Vec<Vec<bool>>], output: &str) -> Vec<Option<String>> {
        // One game to an input: the whole output is its answer, however many cells it lists.
        vec![Some(output.trim_end().to_owned())]
    }

    fn size(&self, game: &Vec<Vec<bool>>) -> u64 {
        let free = game.iter().flatten().filter(|&&f| f).count() as u64;
        let area = (game.len() * game[0].len()) as u64;
        // Free cells first; the area (at most 100 × 100) breaks ties.
        free * 10_001 + area
    }

    fn shrink(&self, game: &Vec<Vec<bool>>) -> Vec<Vec<Vec<bool>>> {
        let cells: Vec<Cell> = (0..game.len())
            .flat_map(|r| (0..game[r].len()).map(move |c| (r, c)))
            .filter(|&(r, c)| game[r][c])
            .collect();
        let mut smaller: Vec<Vec<Vec<bool>>> = if cells.len() > 1 {
            cells
                .iter()
                .map(|&at| trimmed(&without(game, at)))
                .collect()
        } else {
            Vec::new()
        };
        let tight = trimmed(game);
        if tight != *game {
            smaller.push(tight);
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Vec<Vec<bool>>) -> Certificate {
        self.certificate_for(game, None)
    }

    fn certificate_for(&self, game: &Vec<Vec<bool>>, got: Option<&str>) -> Certificate {
        let winning = geography::placer_winning_cells(game);
        let listed: Vec<String> = winning.iter().map(|&c| cell(c)).collect();
        let (summary_en, summary_vi) = if winning.is_empty() {
            (
                "A loses on every free cell, so the answer is LOSE".to_owned(),
                "A thua ở mọi ô trống, nên đáp án là LOSE".to_owned(),
            )
        } else {
            (
                format!("A wins exactly on {}", listed.join(", ")),
                format!("A thắng đúng tại các ô {}", listed.join(", ")),
            )
        };
        // The first cell, row-major, where the program's list and the right one differ; the
        // first winning cell (or the first free one) when its output lists nothing readable.
        let free_cells = (0..game.len())
            .flat_map(|r| (0..game[r].len()).map(move |c| (r, c)))
            .filter(|&(r, c)| game[r][c]);
        let at = match got.and_then(claimed) {
            Some(claimed) => free_cells
                .clone()
                .find(|c| winning.contains(c) != claimed.contains(c)),
            None => None,
        }
        .or_else(|| winning.first().copied())
        .or_else(|| free_cells.clone().next())
        .expect("a grid has a free cell");
        let (why_en, why_vi) = if winning.contains(&at) {
            why_wins(game, at)
        } else {
            why_loses(game, at)
        };
        Certificate {
            en: format!("{summary_en}. {why_en}."),
            vi: format!("{summary_vi}. {why_vi}."),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[PLACER_AS_MOVER]
    }

    fn misconceived(&self, id: &str, game: &Vec<Vec<bool>>) -> Option<String> {
        match id {
            "bipartite-placer-as-mover" => {
                let winning = geography::placer_winning_cells(game);
                let mover_wins: Vec<Cell> = (0..game.len())
                    .flat_map(|r| (0..game[r].len()).map(move |c| (r, c)))
                    .filter(|&(r, c)| game[r][c] && !winning.contains(&(r, c)))
                    .collect();
                Some(answer(&mover_wins).trim_end().to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;
    use grundy_games::geography::GeographyRules;

    /// A program printing `cells(grid)` as the statement asks.
    fn program(cells: fn(&[Vec<bool>]) -> Vec<Cell>) -> impl Fn(&str) -> String {
        move |input: &str| {
            let free: Vec<Vec<bool>> = input
                .lines()
                .skip(1)
                .map(|row| row.bytes().map(|b| b == b'.').collect())
                .collect();
            answer(&cells(&free))
        }
    }

    /// The placer's winning cells by playing the game out on the literal grid.
    fn by_search(free: &[Vec<bool>]) -> Vec<Cell> {
        GeographyRules::new(free)
            .placer_winning_cells(1_000_000)
            .unwrap()
    }

    /// The cells from which the player to move wins, by playing the game out: the placer
    /// taken for the mover.
    fn mover_wins(free: &[Vec<bool>]) -> Vec<Cell> {
        let placer = by_search(free);
        (0..free.len())
            .flat_map(|r| (0..free[r].len()).map(move |c| (r, c)))
            .filter(|&(r, c)| free[r][c] && !placer.contains(&(r, c)))
            .collect()
    }

    /// Right except on grids with a free cell whose four neighbours are all free.
    fn wrong_on_a_plus(free: &[Vec<bool>]) -> Vec<Cell> {
        let inner = (1..free.len().saturating_sub(1)).any(|r| {
            (1..free[r].len().saturating_sub(1)).any(|c| {
                free[r][c] && free[r - 1][c] && free[r + 1][c] && free[r][c - 1] && free[r][c + 1]
            })
        });
        let mut cells = by_search(free);
        if inner {
            cells.pop();
        }
        cells
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("bipartite-game").assert_sound();
    }

    #[test]
    fn the_placer_as_mover_is_named_on_one_cell() {
        let found = Problem::new("bipartite-game")
            .assert_named("bipartite-placer-as-mover", &program(mover_wins));
        assert_eq!(found.position, "1 1\n.\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("WIN\n1 1", "LOSE")
        );
        assert!(
            found.certificate.en.contains("B cannot move"),
            "{}",
            found.certificate.en
        );
    }

    #[test]
    fn playing_the_game_out_is_right() {
        Problem::new("bipartite-game").assert_right(&program(by_search));
    }

    #[test]
    fn an_arbitrary_mistake_is_shrunk_to_the_plus() {
        let problem = Problem::new("bipartite-game");
        let found = problem.search(&program(wrong_on_a_plus)).unwrap();
        // The plus of five cells is the only grid of at most five free cells it gets wrong.
        let smallest = problem
            .brute_force_smallest(&program(wrong_on_a_plus))
            .unwrap();
        assert_eq!(smallest, "3 3\n#.#\n...\n#.#\n");
        assert_eq!(found.position, smallest);
        assert_eq!(found.misconception, None);
        // The plus: the centre is matched in every maximum matching, the arms are not.
        assert_eq!(found.expected, "WIN\n1 2\n2 1\n2 3\n3 2");
        assert!(
            found.certificate.en.contains("A wins on (3, 2)"),
            "{}",
            found.certificate.en
        );
    }

    #[test]
    fn certificates_argue_from_a_maximum_matching() {
        // A row of three: A wins on the ends (a matching of the other two leaves them out)
        // and loses in the middle, which every maximum matching uses.
        let row = vec![vec![true, true, true]];
        let listed_middle = BipartiteGame.certificate_for(&row, Some("WIN\n1 1\n1 2\n1 3\n"));
        assert!(
            listed_middle
                .en
                .contains("A wins exactly on (1, 1), (1, 3)"),
            "{}",
            listed_middle.en
        );
        assert!(
            listed_middle.en.contains("A loses on (1, 2)"),
            "{}",
            listed_middle.en
        );
        assert!(
            listed_middle.en.contains("B moves to (1, 1)")
                || listed_middle.en.contains("B moves to (1, 3)"),
            "{}",
            listed_middle.en
        );
        let said_lose = BipartiteGame.certificate_for(&row, Some("LOSE"));
        assert!(
            said_lose.en.contains("A wins on (1, 1)"),
            "{}",
            said_lose.en
        );
        assert!(said_lose.en.contains("(1, 3)–(1, 2)"), "{}", said_lose.en);
        assert!(
            said_lose.vi.contains("A thắng tại (1, 1)"),
            "{}",
            said_lose.vi
        );
        // A 2 × 2 board has a perfect matching: A loses everywhere.
        let square = vec![vec![true; 2]; 2];
        let lost = BipartiteGame.certificate_for(&square, Some("WIN\n1 1\n"));
        assert!(
            lost.en.contains("A loses on every free cell"),
            "{}",
            lost.en
        );
        assert!(lost.en.contains("A loses on (1, 1)"), "{}", lost.en);
        let alone = BipartiteGame.certificate(&vec![vec![true]]);
        assert!(alone.en.contains("B cannot move"), "{}", alone.en);
    }

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
