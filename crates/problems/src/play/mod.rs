//! Games played against the reference: the referee of an interactive problem and the same game,
//! position by position, for a person at a page or a terminal.
//!
//! A referee knows nothing of processes or pipes: the judge hands it each line the program wrote
//! and writes back what it answers. It validates every move of the program against the rules and
//! the exact value of the position, and stops at the program's first mistake.

pub use grundy_verdict::transcript::{GameRecord, MoveRecord, Mover, Side, Transcript, Value};

use crate::strict::ValidationError;

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
    /// The games so far.
    fn transcript(&self) -> &Transcript;
}

/// What a family that can be played offers.
pub trait Play: Send + Sync {
    /// A referee for one test, from the test's input (its start positions) and a seed that
    /// varies the referee's own moves.
    fn referee(&self, input: &str, seed: u64) -> Result<Box<dyn Referee>, ValidationError>;
}
