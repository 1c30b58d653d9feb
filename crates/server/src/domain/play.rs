//! A person playing a game against the reference. Nothing is stored: the whole game (its start,
//! the side the person took and every move so far) travels with each request, and each request
//! replays it (see [`Session`]), checking every move and valuing every position again.

use grundy_problems::play::{BoardError, BoardMove, Mover, Session, Side, Step, Value};
use grundy_store::User;

use super::{Domain, Error, Result, problems};

/// The longest game replayed: far more moves than any game of the catalogue needs on a page.
pub const MAX_MOVES: usize = 2_000;

/// One request: the game so far and what the person does now.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The start as the protocol writes a game; a random one (from `seed`) when absent.
    pub start: Option<String>,
    pub seed: Option<u64>,
    pub side: Side,
    /// Every move so far, both players', as the protocol writes them.
    pub moves: Vec<String>,
    /// The person's move now, if any.
    pub play: Option<String>,
    /// Also list the winning moves of the position reached.
    pub hint: bool,
}

/// The game after a request.
#[derive(Debug, Clone)]
pub struct Game {
    pub slug: String,
    pub start: String,
    pub start_words: String,
    pub start_value: Value,
    pub side: Side,
    pub steps: Vec<Step>,
    pub position: String,
    pub words: String,
    /// For the player to move.
    pub value: Value,
    pub over: bool,
    /// The person is to move.
    pub your_turn: bool,
    /// Who made the last move of a finished game (normal play: that player won).
    pub winner: Option<Mover>,
    /// The index in `steps` of the person's first mistake.
    pub first_mistake: Option<usize>,
    /// The winning moves of `position`, when asked for and the person is to move.
    pub hint: Option<Vec<BoardMove>>,
}

/// The problems a person can play: the interactive ones, and the catalogue's games whose
/// positions fit on a page.
pub fn playable(domain: &Domain, slug: &str) -> bool {
    problems::find(domain, slug)
        .ok()
        .is_some_and(|entry| entry.problem.board().is_some())
}

/// Replays the game of `turn` on `slug` (a problem `viewer` may see), plays the person's move,
/// and the referee's answer when it is the referee's turn.
pub async fn turn(domain: &Domain, viewer: Option<&User>, slug: &str, turn: Turn) -> Result<Game> {
    let entry = problems::visible(domain, viewer, slug).await?;
    let board = entry
        .problem
        .board()
        .ok_or_else(|| Error::NotFound(format!("a game to play in problem {slug:?}")))?;
    if turn.moves.len() > MAX_MOVES {
        return Err(Error::Invalid(format!(
            "a game of more than {MAX_MOVES} moves"
        )));
    }
    let seed = turn.seed.unwrap_or_else(rand::random);
    let mut session =
        Session::new(board, turn.start.as_deref(), seed, turn.side).map_err(refused)?;
    for (n, text) in turn.moves.iter().enumerate() {
        session
            .play(text)
            .map_err(|e| Error::Invalid(format!("move {}: {e}", n + 1)))?;
    }
    if let Some(text) = &turn.play {
        if session.is_over().map_err(refused)? {
            return Err(Error::Invalid("the game is over".into()));
        }
        if session.to_move() != Mover::Program {
            return Err(Error::Invalid("it is the referee's turn".into()));
        }
        session.play(text).map_err(refused)?;
    }
    session.referee_moves().map_err(refused)?;
    let your_turn = session.persons_turn().map_err(refused)?;
    Ok(Game {
        slug: slug.to_owned(),
        words: session.words().map_err(refused)?,
        value: session.value().map_err(refused)?,
        over: session.is_over().map_err(refused)?,
        your_turn,
        winner: session.winner().map_err(refused)?,
        first_mistake: session.first_mistake(),
        hint: if turn.hint && your_turn {
            Some(session.hint().map_err(refused)?)
        } else {
            None
        },
        start: session.start,
        start_words: session.start_words,
        start_value: session.start_value,
        side: session.side,
        steps: session.steps,
        position: session.position,
    })
}

fn refused(error: BoardError) -> Error {
    Error::Invalid(error.to_string())
}
