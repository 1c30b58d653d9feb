//! The typed side of a played game: one trait a game implements once, and the generic wrapper
//! [`Played`] that turns it into a catalogue family, a referee and a board for people.

use super::{Board, BoardError, BoardMove, Notation, Value};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// The rules and values of one game, position by position: what a person needs to play it on a
/// page or in a terminal ([`Played`] is then a [`Board`]).
///
/// Positions are read and written in the game's text format (for an interactive problem, the
/// lines the referee writes to start a game). The reader accepts every position within the
/// limits, including the ones met in the middle of a game; [`Rules::start_rule`] adds what only a
/// start position must satisfy.
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    type Position: Clone + Debug + PartialEq + Send + Sync + 'static;
    type Move: Clone + Debug + PartialEq + Send + 'static;

    /// One game in the protocol's format, from the reader's next line(s).
    fn read_position(
        &self,
        reader: &mut StrictReader<'_>,
    ) -> Result<Self::Position, ValidationError>;
    /// The game's lines in the protocol's format, each with its line break.
    fn write_position(&self, position: &Self::Position, out: &mut String);
    /// What a start position must satisfy beyond the limits (a move left, piles not empty).
    fn start_rule(&self, position: &Self::Position) -> Result<(), String>;
    /// The position in words for messages and pages: `(3, 5, 6)`.
    fn words(&self, position: &Self::Position) -> String;
    /// Whether the player to move has no move left (and so has lost).
    fn is_over(&self, position: &Self::Position) -> bool;
    /// The exact value for the player to move.
    fn value(&self, position: &Self::Position) -> Value;
    /// The value in the game's terms, as it follows a position's words in a message: `with
    /// nim-value 6 ≠ 0`.
    fn value_words(&self, position: &Self::Position, value: &Value) -> String {
        let _ = position;
        match value.grundy {
            Some(0) => "with Grundy value 0".to_owned(),
            Some(g) => format!("with Grundy value {g} ≠ 0"),
            None if value.win => "a win for the player to move".to_owned(),
            None => "a loss for the player to move".to_owned(),
        }
    }

    /// A move as written by a player, checked for syntax and legality; the error says why not,
    /// in the game's terms.
    fn read_move(&self, position: &Self::Position, text: &str) -> Result<Self::Move, String>;
    /// A move as the protocol writes it (`2 3`), without a line break.
    fn write_move(&self, mv: &Self::Move) -> String;
    /// The move as a noun phrase: `2 from pile 3`.
    fn move_words(&self, position: &Self::Position, mv: &Self::Move) -> String;
    /// The move as a verb phrase in the past: `took 2 from pile 3`.
    fn move_done(&self, position: &Self::Position, mv: &Self::Move) -> String;
    fn apply(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;
    /// Every winning move where there are few, else some of them; empty exactly when the
    /// position is lost.
    fn winning_moves(&self, position: &Self::Position) -> Vec<Self::Move>;
    /// The referee's move from a position that is not over: a winning one when there is one,
    /// else a move that keeps the game short, varied with `rng`. `played` counts the moves of
    /// this game so far, so the variation can stop after a few.
    fn referee_move(
        &self,
        position: &Self::Position,
        played: usize,
        rng: &mut TestRng,
    ) -> Self::Move;
    /// A start position for a person who asks for one.
    fn random_start(&self, rng: &mut TestRng) -> Self::Position;
    /// How positions and moves are written, for a person who types them.
    fn notation(&self) -> Notation;
}

/// A game played against the reference as an interactive problem: its [`Rules`], the protocol's
/// stop line, and the tests.
pub trait Game: Rules {
    type Params: DeserializeOwned + Debug + Send + Sync;

    /// The protocol's stop line, without its line break.
    const STOP: &'static str;
    /// The most games a test may hold.
    const MAX_GAMES: u32;

    fn check_params(&self, params: &Self::Params) -> Result<(), String>;
    /// The subtask's extra constraints on one test.
    fn fits(&self, games: &[Self::Position], params: &Self::Params) -> Result<(), String>;
    /// The start positions of test `index` (0-based) of a subtask: the traps first.
    fn generate(
        &self,
        params: &Self::Params,
        index: usize,
        rng: &mut TestRng,
    ) -> Vec<Self::Position>;
    /// Every small start position, for exhaustive agreement with the brute force.
    fn small_positions(&self) -> Vec<Self::Position>;
    /// The value by brute force over the literal rules, or `None` when the position is too large.
    fn brute_value(&self, position: &Self::Position) -> Option<Value>;
}

/// A [`Game`] as a family of the catalogue and a [`Play`](super::Play); any [`Rules`] as a
/// [`Board`].
#[derive(Debug)]
pub struct Played<G>(pub G);

impl<G: Rules> Played<G> {
    pub fn game(&self) -> &G {
        &self.0
    }

    /// The game text of a position.
    pub fn text(&self, position: &G::Position) -> String {
        let mut out = String::new();
        self.0.write_position(position, &mut out);
        out
    }

    /// Reads one game's text, whole.
    pub fn position(&self, text: &str) -> Result<G::Position, BoardError> {
        let invalid = |e: ValidationError| BoardError::Position(e.to_string());
        let mut reader = StrictReader::new(text).map_err(invalid)?;
        let position = self.0.read_position(&mut reader).map_err(invalid)?;
        reader.expect_eof().map_err(invalid)?;
        Ok(position)
    }

    fn board_move(&self, position: &G::Position, mv: &G::Move) -> BoardMove {
        let after = self.0.apply(position, mv);
        BoardMove {
            text: self.0.write_move(mv),
            words: self.0.move_words(position, mv),
            value: self.0.value(&after),
            after_words: self.0.words(&after),
            after: self.text(&after),
        }
    }
}

impl<G: Rules> Board for Played<G> {
    fn random_start(&self, seed: u64) -> String {
        use rand::SeedableRng;
        self.text(&self.0.random_start(&mut TestRng::seed_from_u64(seed)))
    }

    fn check(&self, position: &str) -> Result<String, BoardError> {
        Ok(self.text(&self.position(position)?))
    }

    fn check_start(&self, position: &str) -> Result<String, BoardError> {
        let start = self.position(position)?;
        self.0.start_rule(&start).map_err(BoardError::Position)?;
        Ok(self.text(&start))
    }

    fn value(&self, position: &str) -> Result<Value, BoardError> {
        Ok(self.0.value(&self.position(position)?))
    }

    fn winning_moves(&self, position: &str) -> Result<Vec<BoardMove>, BoardError> {
        let position = self.position(position)?;
        Ok(self
            .0
            .winning_moves(&position)
            .iter()
            .map(|mv| self.board_move(&position, mv))
            .collect())
    }

    fn play(&self, position: &str, mv: &str) -> Result<BoardMove, BoardError> {
        let position = self.position(position)?;
        if self.0.is_over(&position) {
            return Err(BoardError::Move("the game is over: no move is left".into()));
        }
        let mv = self
            .0
            .read_move(&position, mv.trim())
            .map_err(BoardError::Move)?;
        Ok(self.board_move(&position, &mv))
    }

    fn reply(&self, position: &str, seed: u64) -> Result<Option<BoardMove>, BoardError> {
        use rand::SeedableRng;
        let position = self.position(position)?;
        if self.0.is_over(&position) {
            return Ok(None);
        }
        let mv = self
            .0
            .referee_move(&position, 0, &mut TestRng::seed_from_u64(seed));
        Ok(Some(self.board_move(&position, &mv)))
    }

    fn words(&self, position: &str) -> Result<String, BoardError> {
        Ok(self.0.words(&self.position(position)?))
    }

    fn is_over(&self, position: &str) -> Result<bool, BoardError> {
        Ok(self.0.is_over(&self.position(position)?))
    }

    fn notation(&self) -> Notation {
        self.0.notation()
    }
}

impl<G: Game> Family for Played<G> {
    type Input = Vec<G::Position>;
    type Params = G::Params;

    fn parse(&self, text: &str) -> Result<Vec<G::Position>, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let count: u32 = reader.single("T", 1..=G::MAX_GAMES)?;
        let mut games = Vec::with_capacity(count as usize);
        for number in 1..=count {
            let position = self.0.read_position(&mut reader)?;
            self.0.start_rule(&position).map_err(|rule| {
                ValidationError::new(reader.line_number(), format!("game {number}: {rule}"))
            })?;
            games.push(position);
        }
        reader.expect_eof()?;
        Ok(games)
    }

    fn render(&self, games: &Vec<G::Position>) -> String {
        let mut out = format!("{}\n", games.len());
        for position in games {
            self.0.write_position(position, &mut out);
        }
        out
    }

    fn check_params(&self, params: &G::Params) -> Result<(), String> {
        self.0.check_params(params)
    }

    fn fits(&self, games: &Vec<G::Position>, params: &G::Params) -> Result<(), String> {
        self.0.fits(games, params)
    }

    fn generate(&self, params: &G::Params, index: usize, rng: &mut TestRng) -> Vec<G::Position> {
        self.0.generate(params, index, rng)
    }

    /// The side that wins each game, one per line.
    fn solve(&self, games: &Vec<G::Position>) -> String {
        sides(games.iter().map(|p| self.0.value(p).win))
    }

    fn cross_checks(&self, games: &Vec<G::Position>) -> Vec<CrossCheck> {
        let brute: Option<Vec<bool>> = games
            .iter()
            .map(|p| self.0.brute_value(p).map(|v| v.win))
            .collect();
        vec![CrossCheck::new("brute force", brute.map(sides))]
    }

    fn small_positions(&self) -> Vec<Vec<G::Position>> {
        self.0
            .small_positions()
            .chunks(G::MAX_GAMES as usize)
            .map(<[G::Position]>::to_vec)
            .collect()
    }

    fn play(&self) -> Option<&dyn super::Play> {
        Some(self)
    }
}

/// `first` or `second`, the side that wins, one game per line.
fn sides(first_wins: impl IntoIterator<Item = bool>) -> String {
    let mut out = String::new();
    for win in first_wins {
        out.push_str(if win { "first\n" } else { "second\n" });
    }
    out
}
