//! An interactive test's games, move by move: what the referee records, the store keeps and the
//! pages show (where the test is the contestant's to see).

use serde::{Deserialize, Serialize};

/// Which side a player takes in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    First,
    Second,
}

/// Who made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mover {
    Program,
    Referee,
}

/// The value of a position for the player about to move from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Value {
    /// The player to move wins with perfect play.
    pub win: bool,
    /// The Grundy value, where the game has one (normal-play impartial games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grundy: Option<u64>,
}

/// One move of a game, as written in the protocol, with the position it left and that
/// position's value for the player who moves next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub by: Mover,
    /// The move as written (`2 3`).
    pub text: String,
    /// The position after the move, in the game's words (`(3, 3, 6)`).
    pub after: String,
    pub value: Value,
}

/// One game of a test: its start, the side the program took, the moves, and the mistake that
/// ended it, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The start position in the game's words.
    pub start: String,
    pub start_value: Value,
    pub side: Option<Side>,
    pub moves: Vec<MoveRecord>,
    /// Why the referee stopped the game: the program's first mistake, in the problem's terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mistake: Option<String>,
}

/// Everything that happened in one test, game by game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transcript {
    pub games: Vec<GameRecord>,
}
