//! Games played against the reference: the referee of an interactive problem and the same game,
//! position by position, for a person at a page or a terminal.
//!
//! A referee knows nothing of processes or pipes: the judge hands it each line the program wrote
//! and writes back what it answers. It validates every move of the program against the rules and
//! the exact value of the position, and stops at the program's first mistake.

pub use grundy_verdict::transcript::{GameRecord, MoveRecord, Mover, Side, Transcript, Value};
use serde::{Deserialize, Serialize};

use crate::strict::ValidationError;

mod game;
mod perfect;
mod referee;
mod session;

pub use game::{Game, Played, Rules};
pub use perfect::{MOVE_BUDGET, play_perfectly};
pub use session::{Session, Step};

/// What the referee does with a line the program wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// Write this (possibly empty: the program moves again, or waits for nothing) and go on.
    Reply(String),
    /// Every game is over: the program must now exit without writing more.
    Over,
    /// The program's mistake: write `stop` (the protocol's stop line, with its newline) and end
    /// the test with wrong answer and `message` (e.g. `game 3, move 5: from (3, 5, 6) you took 2
    /// from pile 2, leaving (3, 3, 6) with nim-value 6 ≠ 0; a winning move was 1 from pile 3`).
    Mistake { stop: String, message: String },
}

/// The referee of one test. Deterministic given its seed.
pub trait Referee: Send {
    /// What to write before the program speaks: `T` and the first game's line.
    fn open(&mut self) -> String;
    /// The program wrote `line` (without its line break).
    fn hear(&mut self, line: &str) -> Heard;
    /// How many games have started: the one being played is the last.
    fn games_started(&self) -> usize;
    /// The games so far, move by move in words (written on demand: the conversation itself
    /// keeps only the moves).
    fn transcript(&self) -> Transcript;
}

/// What a family that can be played offers.
pub trait Play: Send + Sync {
    /// A referee for one test, from the test's input (its start positions) and a seed that
    /// varies the referee's own moves.
    fn referee(&self, input: &str, seed: u64) -> Result<Box<dyn Referee>, ValidationError>;
    /// The same game position by position, for a person.
    fn board(&self) -> Option<&dyn Board> {
        None
    }
}

/// Why a position or a move given as text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The text is not a position of the game within its limits.
    #[error("not a position: {0}")]
    Position(String),
    /// The move cannot be read or is not legal here; the message says why in the game's terms.
    #[error("{0}")]
    Move(String),
}

/// A move from a position, with where it leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardMove {
    /// The move as the protocol writes it (`2 3`).
    pub text: String,
    /// The move in words (`3 from pile 2`).
    pub words: String,
    /// The position it leaves, as game text (the protocol's game line).
    pub after: String,
    /// The position it leaves in words (`(3, 2, 6)`).
    pub after_words: String,
    /// The value of that position for the player who moves next.
    pub value: Value,
}

/// A game for a person at a page or a terminal, position by position. Positions travel as the
/// protocol's game text (`3 3 5 6\n` for Nim): whatever [`Board::check`] accepts, every other
/// method accepts too. Positions met in the middle of a game (an empty pile) are positions as
/// well; [`Board::check_start`] adds the rules of a start.
pub trait Board: Send + Sync {
    /// A start position drawn from `seed`, as game text.
    fn random_start(&self, seed: u64) -> String;
    /// The canonical game text of a position, or why it is not one.
    fn check(&self, position: &str) -> Result<String, BoardError>;
    /// As [`Board::check`], for a position a game may start from.
    fn check_start(&self, position: &str) -> Result<String, BoardError>;
    /// The value for the player to move.
    fn value(&self, position: &str) -> Result<Value, BoardError>;
    /// The winning moves (for games with many moves, such as Nim, only these, which are few);
    /// empty when the position is lost.
    fn winning_moves(&self, position: &str) -> Result<Vec<BoardMove>, BoardError>;
    /// Plays the move written as the protocol writes it, or says why it is illegal.
    fn play(&self, position: &str, mv: &str) -> Result<BoardMove, BoardError>;
    /// The reference's move, varied with `seed`; `None` when the game is over.
    fn reply(&self, position: &str, seed: u64) -> Result<Option<BoardMove>, BoardError>;
    /// The position in words (`(3, 5, 6)`).
    fn words(&self, position: &str) -> Result<String, BoardError>;
    /// Whether the player to move has no move left, and so has lost.
    fn is_over(&self, position: &str) -> Result<bool, BoardError>;
    /// How a person types positions and moves.
    fn notation(&self) -> Notation;
}

/// How a game's positions and moves are typed, for people: each in English and Vietnamese, with
/// an example in backquotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Notation {
    pub position: Words,
    pub moves: Words,
}

/// One text in the languages of the statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Words {
    pub en: &'static str,
    pub vi: &'static str,
}
