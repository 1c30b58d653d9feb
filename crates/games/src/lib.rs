//! Pure combinatorial game theory for the Grundy judge. No I/O.
//!
//! The generic machinery (`mex`, Grundy values and win/lose labels on explicit graphs, a bounded
//! memoised solver for implicit games) is used both by the reference solvers and by the
//! brute-force searches that check them. One module per game family holds the dynamic programme the
//! seed tutorials teach, the closed form where one exists, and a brute-force search over the
//! literal rules of the game.

pub mod cards;
pub mod chestnuts;
pub mod chomp;
pub mod coins;
pub mod every;
pub mod geography;
pub mod graph;
pub mod hackenbush;
pub mod implicit;
pub mod matching;
pub mod mex;
pub mod multiple;
pub mod nim;
pub mod octal;
pub mod parigame;
pub mod pursuit;
pub mod subtraction;
pub mod wythoff;

/// Outcome of a position for the player about to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move can force a win.
    Win,
    /// Every move leads to a position won by the opponent (including: no move at all).
    Lose,
    /// Neither side can force a win (only possible when the game graph has cycles).
    Draw,
}

impl Outcome {
    pub fn is_win(self) -> bool {
        self == Outcome::Win
    }
}
