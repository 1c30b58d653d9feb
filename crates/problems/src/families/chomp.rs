//! Chomp (own format): `T` boards of `r c` and rows of `o` (present) and `.` (eaten). The answer
//! is `LOSE`, or `WIN r c` with any winning move: the checker plays the move and asks the
//! reference whether the position left is lost.

use super::chomp_play::ChompPlay;
use super::{at_most, lines, push_line, within};
use crate::check::{CheckOutcome, Mismatch};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::play::{self, Played};
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
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

    /// Chomp on a page: bars up to 8 × 8, as in the interactive problem.
    fn board(&self) -> Option<&dyn play::Board> {
        Some(&Played(ChompPlay))
    }
}

const SMALLEST_BITE: Misconception = Misconception {
    id: "chomp-smallest-bite",
    title: "Always the smallest bite",
    text: "The program always eats the last piece of the bottom row, the bite that removes the \
           fewest pieces, and calls every board but the poisoned piece alone a win. Eating one \
           piece at a time is no strategy: on a single row of 3 pieces it leaves 2, Minh eats \
           the second and Lan is left with the poisoned piece. Strategy stealing shows that \
           every full rectangle but 1 × 1 is a win without saying which bite wins, and boards \
           with pieces eaten may be lost: the program has to search the positions a board \
           reaches and bite into one that is lost for the opponent.",
};

/// The most squares of a small game: every board of up to this many pieces is tried.
const SMALL_SQUARES: u8 = 12;

/// A piece, 1-based as the statement numbers them.
fn piece((r, c): (usize, usize)) -> String {
    format!("({}, {})", r + 1, c + 1)
}

/// The board `rows` in words (English, Vietnamese).
fn shape(rows: &[u8]) -> (String, String) {
    match rows {
        [1] => (
            "only the poisoned piece".to_owned(),
            "chỉ còn miếng tẩm độc".to_owned(),
        ),
        [len] => (
            format!("a single row of {len} pieces"),
            format!("một hàng {len} miếng"),
        ),
        _ => {
            let lengths: Vec<String> = rows.iter().map(u8::to_string).collect();
            let (last, init) = lengths.split_last().expect("two rows or more");
            (
                format!("rows of {} and {last} pieces", init.join(", ")),
                format!("các hàng dài {} miếng", lengths.join(", ")),
            )
        }
    }
}

/// Why `rows` is lost for the player to move: the closed form where one applies, else each
/// bite with the reply that wins against it (English, Vietnamese).
fn why_lost(rows: &[u8]) -> (String, String) {
    let height = rows.len();
    if rows == [1] {
        return (
            "the player to move has no piece to eat".to_owned(),
            "người phải đi không còn miếng nào để ăn".to_owned(),
        );
    }
    if height > 1 && rows[1..].iter().all(|&len| len == 1) {
        return (
            format!(
                "it is an L whose two arms are equal ({height} pieces each): every bite \
                 shortens one arm, and the reply shortens the other to the same length"
            ),
            format!(
                "đó là hình chữ L có hai cạnh bằng nhau ({height} miếng mỗi cạnh): mỗi nước \
                 cắn làm ngắn một cạnh, và nước đáp làm ngắn cạnh kia cho bằng"
            ),
        );
    }
    if height == 2 && rows[0] == rows[1] + 1 {
        return (
            "its top row is one piece longer than the bottom one: a bite in the bottom row is \
             answered by cutting the top row to one more piece, and a bite in the top row by \
             eating the rest of the bottom row"
                .to_owned(),
            "hàng trên dài hơn hàng dưới đúng một miếng: cắn ở hàng dưới thì đáp bằng cách cắt \
             hàng trên còn hơn một miếng, cắn ở hàng trên thì đáp bằng cách ăn hết phần còn lại \
             của hàng dưới"
                .to_owned(),
        );
    }
    let bites = chomp::moves(rows);
    if bites.len() > 12 {
        return (
            format!(
                "each of its {} bites has a winning reply, as the search over every position \
                 it reaches shows",
                bites.len()
            ),
            format!(
                "mỗi nước trong {} nước cắn đều có nước đáp thắng, theo phép duyệt mọi thế cờ \
                 đạt được",
                bites.len()
            ),
        );
    }
    let replies: Vec<String> = bites
        .iter()
        .map(|&(r, c)| {
            let reply =
                chomp::winning_move(&chomp::eat(rows, r, c)).expect("a lost position's bites win");
            format!("{} → {}", piece((r, c)), piece(reply))
        })
        .collect();
    (
        format!(
            "every bite has a winning reply (bite → reply): {}",
            replies.join(", ")
        ),
        format!(
            "mọi nước cắn đều có nước đáp thắng (nước cắn → nước đáp): {}",
            replies.join(", ")
        ),
    )
}

/// `WIN r c` read as a legal bite of `rows`, 0-based.
fn bite_of(rows: &[u8], got: &str) -> Option<(usize, usize)> {
    let ["WIN", r, c] = got.split_ascii_whitespace().collect::<Vec<_>>()[..] else {
        return None;
    };
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    let bite = (r.checked_sub(1)?, c.checked_sub(1)?);
    chomp::moves(rows).contains(&bite).then_some(bite)
}

impl Explain for Chomp {
    type Game = Vec<u8>;

    fn small_games(&self) -> Vec<Vec<u8>> {
        // Every board (rows non-increasing from the top) of up to SMALL_SQUARES pieces.
        fn extend(rows: &mut Vec<u8>, left: u8, games: &mut Vec<Vec<u8>>) {
            if !rows.is_empty() {
                games.push(rows.clone());
            }
            if rows.len() == MAX_SIDE as usize {
                return;
            }
            let widest = rows.last().copied().unwrap_or(MAX_SIDE as u8).min(left);
            for len in 1..=widest {
                rows.push(len);
                extend(rows, left - len, games);
                rows.pop();
            }
        }
        let mut games = Vec::new();
        extend(&mut Vec::new(), SMALL_SQUARES, &mut games);
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<u8> {
        let height = rng.random_range(1..=4);
        let mut rows: Vec<u8> = (0..height).map(|_| rng.random_range(0..=5)).collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows[0] = rows[0].max(1);
        while rows.last() == Some(&0) {
            rows.pop();
        }
        rows
    }

    fn games_per_input(&self) -> usize {
        MAX_T as usize
    }

    fn input_of(&self, games: &[Vec<u8>]) -> Input {
        let boards = games
            .iter()
            .map(|rows| Board {
                rows: rows.len() as u32,
                cols: rows[0].into(),
                lengths: rows.clone(),
            })
            .collect();
        Input { boards }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<u8>> {
        input.boards.iter().map(|b| b.lengths.clone()).collect()
    }

    fn answer(&self, game: &Vec<u8>) -> String {
        answer(&Board {
            rows: game.len() as u32,
            cols: game[0].into(),
            lengths: game.clone(),
        })
    }

    fn split_output(&self, games: &[Vec<u8>], output: &str) -> Vec<Option<String>> {
        // The checker reads a line per board, and an answer is one word or three.
        let mut lines = output.lines().filter(|l| !l.trim().is_empty());
        let mut answers: Vec<Option<String>> = games
            .iter()
            .map(|_| lines.next().map(str::to_owned))
            .collect();
        let rest: Vec<&str> = lines.collect();
        if let Some(Some(last)) = answers.last_mut()
            && !rest.is_empty()
        {
            // Anything printed after the last answer belongs to it, and makes it wrong.
            *last = format!("{last}\n{}", rest.join("\n"));
        }
        answers
    }

    fn size(&self, game: &Vec<u8>) -> u64 {
        let squares: u64 = game.iter().map(|&len| u64::from(len)).sum();
        squares * 16 + game.len() as u64
    }

    fn shrink(&self, game: &Vec<u8>) -> Vec<Vec<u8>> {
        // Every board one bite leaves: a piece fewer, a row or a column shorter, …
        let mut smaller: Vec<Vec<u8>> = chomp::moves(game)
            .into_iter()
            .map(|(r, c)| chomp::eat(game, r, c))
            .collect();
        smaller.sort_by_key(|g| (self.size(g), g.clone()));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Vec<u8>) -> Certificate {
        self.certificate_for(game, None)
    }

    fn certificate_for(&self, game: &Vec<u8>, got: Option<&str>) -> Certificate {
        let (board_en, board_vi) = shape(game);
        // Why the program's bite loses: the board it leaves and Minh's winning reply there.
        let losing_bite = got.and_then(|got| bite_of(game, got)).and_then(|bite| {
            let left = chomp::eat(game, bite.0, bite.1);
            Some((bite, chomp::winning_move(&left)?, left))
        });
        let (mut en, mut vi) = match losing_bite {
            Some((bite, reply, left)) => {
                let after = chomp::eat(&left, reply.0, reply.1);
                let ((left_en, left_vi), (after_en, after_vi)) = (shape(&left), shape(&after));
                (
                    format!(
                        "The program's bite {} loses: it leaves {left_en}, where Minh eats {} \
                         and leaves Lan {after_en}, lost for the player to move. ",
                        piece(bite),
                        piece(reply)
                    ),
                    format!(
                        "Nước cắn {} của chương trình thua: nó để lại {left_vi}, và Minh ăn {} \
                         để lại cho Lan {after_vi}, là thế thua cho người phải đi. ",
                        piece(bite),
                        piece(reply)
                    ),
                )
            }
            None => (String::new(), String::new()),
        };
        match chomp::winning_move(game) {
            None => {
                let (why_en, why_vi) = why_lost(game);
                en += &format!("Lan loses on {board_en}: {why_en}.");
                vi += &format!("Lan thua với {board_vi}: {why_vi}.");
            }
            Some(bite) => {
                let left = chomp::eat(game, bite.0, bite.1);
                let (left_en, left_vi) = shape(&left);
                let (why_en, why_vi) = why_lost(&left);
                let (r, c) = (bite.0 + 1, bite.1 + 1);
                en += &format!(
                    "Lan wins on {board_en}; a winning move is WIN {r} {c} (any winning move is \
                     accepted): eating {} leaves {left_en}, lost for Minh: {why_en}.",
                    piece(bite)
                );
                vi += &format!(
                    "Lan thắng với {board_vi}; một nước thắng là WIN {r} {c} (nước thắng nào \
                     cũng được chấp nhận): ăn {} để lại {left_vi}, là thế thua cho Minh: \
                     {why_vi}.",
                    piece(bite)
                );
            }
        }
        Certificate { en, vi }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[SMALLEST_BITE]
    }

    fn misconceived(&self, id: &str, game: &Vec<u8>) -> Option<String> {
        match id {
            "chomp-smallest-bite" => Some(match game.as_slice() {
                [1] => "LOSE".to_owned(),
                _ => format!("WIN {} {}", game.len(), game.last().expect("a row")),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;

    /// A program printing `play(board)` for each board, read from the input as the statement
    /// describes it.
    fn program(play: fn(&[u8]) -> String) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut lines = input.lines();
            let t: usize = lines.next().unwrap().parse().unwrap();
            let mut out = String::new();
            for _ in 0..t {
                let r: usize = lines
                    .next()
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let rows: Vec<u8> = (0..r)
                    .map(|_| lines.next().unwrap().bytes().filter(|&b| b == b'o').count() as u8)
                    .filter(|&len| len > 0)
                    .collect();
                out.push_str(&play(&rows));
                out.push('\n');
            }
            out
        }
    }

    /// The last winning bite in row-major order, by the brute force on the literal bar: a
    /// different move from the reference's wherever there are two.
    fn last_winning_bite(rows: &[u8]) -> String {
        let bites = chomp::moves(rows);
        match bites
            .iter()
            .rev()
            .find(|&&(r, c)| chomp::brute_force_outcome(&chomp::eat(rows, r, c)) == Outcome::Lose)
        {
            None => "LOSE".into(),
            Some((r, c)) => format!("WIN {} {}", r + 1, c + 1),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("chomp").assert_sound();
    }

    #[test]
    fn any_winning_move_is_right() {
        // It answers some small boards with another move than the reference's.
        assert!(
            Explain::small_games(&Chomp)
                .iter()
                .any(|rows| last_winning_bite(rows) != Chomp.answer(rows))
        );
        Problem::new("chomp").assert_right(&program(last_winning_bite));
    }

    #[test]
    fn the_smallest_bite_is_named_on_a_row_of_three() {
        let greedy = |rows: &[u8]| match rows {
            [1] => "LOSE".to_string(),
            _ => format!("WIN {} {}", rows.len(), rows[rows.len() - 1]),
        };
        let found = Problem::new("chomp").assert_named("chomp-smallest-bite", &program(greedy));
        assert_eq!(found.position, "1\n1 3\nooo\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("WIN 1 2", "WIN 1 3")
        );
        let en = &found.certificate.en;
        assert!(en.contains("The program's bite (1, 3) loses"), "{en}");
        assert!(en.contains("Minh eats (1, 2)"), "{en}");
        assert!(en.contains("a winning move is WIN 1 2"), "{en}");
        assert!(found.certificate.vi.contains("Nước cắn (1, 3)"));
    }

    #[test]
    fn a_losing_move_on_a_larger_board_is_shrunk_and_explained() {
        // Right everywhere but on boards of three rows or more, where it bites (1, 2).
        let wrong = |rows: &[u8]| {
            if rows.len() >= 3 && rows[0] >= 2 {
                "WIN 1 2".to_string()
            } else {
                last_winning_bite(rows)
            }
        };
        let chomp = Problem::new("chomp");
        let found = chomp.search(&program(wrong)).unwrap();
        // Brute force: rows 2, 1, 1 (an L of arms 2 and 3) is won by (3, 1) and lost after
        // (1, 2), the smallest board of three rows where (1, 2) loses.
        let smallest = chomp.brute_force_smallest(&program(wrong)).unwrap();
        assert_eq!(smallest, "1\n3 2\noo\no.\no.\n");
        assert!(chomp.explainer().size(&found.position) <= chomp.explainer().size(&smallest));
        assert_eq!(found.got, "WIN 1 2");
        assert!(
            found
                .certificate
                .en
                .contains("The program's bite (1, 2) loses")
        );
        assert_eq!(found.misconception, None);
    }

    #[test]
    fn a_lost_board_lists_every_bite_with_its_reply() {
        // An L with arms of 2: every bite leaves a column or a row of 2, which the reply ends.
        let lost = Chomp.certificate_for(&vec![2, 1], Some("WIN 2 1"));
        assert!(
            lost.en.contains("Lan loses on rows of 2 and 1 pieces"),
            "{}",
            lost.en
        );
        assert!(
            lost.en.contains("L whose two arms are equal"),
            "{}",
            lost.en
        );
        assert!(
            lost.en.contains("The program's bite (2, 1) loses"),
            "{}",
            lost.en
        );
        // Rows 4, 2 and 2 fit no closed form: each bite is listed, (1, 2) leaving a column of
        // 3 that the reply (2, 1) cuts to the poisoned piece.
        let listed = Chomp.certificate(&vec![4, 2, 2]);
        assert!(
            listed.en.contains("Lan loses on rows of 4, 2 and 2 pieces"),
            "{}",
            listed.en
        );
        assert!(listed.en.contains("(1, 2) → (2, 1), "), "{}", listed.en);
        assert_eq!(listed.en.matches(") → (").count(), 7, "{}", listed.en);
        let won = Chomp.certificate_for(&vec![3, 3, 3], Some("LOSE"));
        assert!(won.en.contains("a winning move is WIN 2 2"), "{}", won.en);
        assert!(!won.en.contains("The program's bite"), "{}", won.en);
    }

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
