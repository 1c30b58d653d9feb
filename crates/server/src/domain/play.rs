//! A person playing a game against the reference. Nothing is stored: the whole game (its start,
//! the side the person took and every move so far) travels with each request, and each request
//! replays it, checking every move and valuing every position again. The referee's moves are
//! drawn from the game so far, so a page loaded twice answers alike.

use grundy_problems::play::{Board, BoardError, BoardMove, Mover, Side, Value};
use grundy_store::User;
use sha2::{Digest, Sha256};

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

/// A move of the game with what it meant.
#[derive(Debug, Clone)]
pub struct Step {
    pub by: Mover,
    pub made: BoardMove,
    /// The value of the position it was made from, for its mover.
    pub before: Value,
    /// The person left a position won for the referee where a win was theirs to keep.
    pub mistake: bool,
    /// At a mistake, the winning moves there were.
    pub better: Vec<BoardMove>,
}

/// The game after a request.
#[derive(Debug, Clone)]
pub struct Game {
    pub slug: String,
    pub title: String,
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
    /// Who made the last move of a finished game (normal play: that player won).
    pub winner: Option<Mover>,
    /// The index in `steps` of the person's first mistake.
    pub first_mistake: Option<usize>,
    /// The winning moves of `position`, when asked for and the person is to move.
    pub hint: Option<Vec<BoardMove>>,
}

impl Game {
    /// Whether the person is to move now.
    pub fn persons_turn(&self) -> bool {
        !self.over && mover(self.side, self.steps.len()) == Mover::Program
    }
}

/// Who makes move `index` (0-based) when the person took `side`; the person is the "program".
fn mover(side: Side, index: usize) -> Mover {
    let first_moves = index % 2 == 0;
    match (side, first_moves) {
        (Side::First, true) | (Side::Second, false) => Mover::Program,
        _ => Mover::Referee,
    }
}

/// The problems a person can play: those whose reference offers a board.
pub fn playable(domain: &Domain, slug: &str) -> bool {
    problems::find(domain, slug)
        .ok()
        .is_some_and(|entry| entry.problem.play().and_then(|p| p.board()).is_some())
}

/// Replays the game of `turn` on `slug` (a problem `viewer` may see), plays the person's move,
/// and the referee's answer when it is the referee's turn.
pub async fn turn(domain: &Domain, viewer: Option<&User>, slug: &str, turn: Turn) -> Result<Game> {
    let entry = problems::visible(domain, viewer, slug).await?;
    let problem = &entry.problem;
    let board = problem
        .play()
        .and_then(|p| p.board())
        .ok_or_else(|| Error::NotFound(format!("a game to play in problem {slug:?}")))?;
    if turn.moves.len() > MAX_MOVES {
        return Err(Error::Invalid(format!(
            "a game of more than {MAX_MOVES} moves"
        )));
    }
    let start = match &turn.start {
        // People type a game without its final line break, and pages may add spaces or CRs.
        Some(text) => {
            let lines: Vec<&str> = text.trim().lines().map(str::trim_end).collect();
            board
                .check_start(&format!("{}\n", lines.join("\n")))
                .map_err(refused)?
        }
        None => board.random_start(turn.seed.unwrap_or_else(rand::random)),
    };
    let mut game = Game {
        slug: slug.to_owned(),
        title: problem.title("en").to_owned(),
        start_words: board.words(&start).map_err(refused)?,
        start_value: board.value(&start).map_err(refused)?,
        start: start.clone(),
        side: turn.side,
        steps: Vec::new(),
        position: start.clone(),
        words: String::new(),
        value: Value {
            win: false,
            grundy: None,
        },
        over: false,
        winner: None,
        first_mistake: None,
        hint: None,
    };
    for (n, text) in turn.moves.iter().enumerate() {
        step(board, &mut game, text).map_err(|e| match e {
            Error::Invalid(why) => Error::Invalid(format!("move {}: {why}", n + 1)),
            other => other,
        })?;
    }
    if let Some(text) = &turn.play {
        if board.is_over(&game.position).map_err(refused)? {
            return Err(Error::Invalid("the game is over".into()));
        }
        if mover(turn.side, game.steps.len()) != Mover::Program {
            return Err(Error::Invalid("it is the referee's turn".into()));
        }
        step(board, &mut game, text)?;
    }
    if !board.is_over(&game.position).map_err(refused)?
        && mover(turn.side, game.steps.len()) == Mover::Referee
    {
        let seed = reply_seed(&start, game.steps.len());
        if let Some(reply) = board.reply(&game.position, seed).map_err(refused)? {
            step(board, &mut game, &reply.text)?;
        }
    }
    game.words = board.words(&game.position).map_err(refused)?;
    game.value = board.value(&game.position).map_err(refused)?;
    game.over = board.is_over(&game.position).map_err(refused)?;
    game.winner = match (game.over, game.steps.last()) {
        (true, Some(last)) => Some(last.by),
        _ => None,
    };
    if turn.hint && game.persons_turn() {
        game.hint = Some(board.winning_moves(&game.position).map_err(refused)?);
    }
    Ok(game)
}

/// Plays `text` from the game's position, by whoever's turn it is.
fn step(board: &dyn Board, game: &mut Game, text: &str) -> Result<()> {
    let by = mover(game.side, game.steps.len());
    let before = board.value(&game.position).map_err(refused)?;
    let made = board.play(&game.position, text).map_err(refused)?;
    let mistake = by == Mover::Program && before.win && made.value.win;
    let better = if mistake {
        board.winning_moves(&game.position).map_err(refused)?
    } else {
        Vec::new()
    };
    if mistake && game.first_mistake.is_none() {
        game.first_mistake = Some(game.steps.len());
    }
    game.position = made.after.clone();
    game.steps.push(Step {
        by,
        made,
        before,
        mistake,
        better,
    });
    Ok(())
}

/// The referee's seed at a point of a game: the same game so far, the same answer.
fn reply_seed(start: &str, moves: usize) -> u64 {
    let mut hash = Sha256::new();
    hash.update(start.as_bytes());
    hash.update(moves.to_le_bytes());
    let digest = hash.finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("a digest has 8 bytes"))
}

fn refused(error: BoardError) -> Error {
    Error::Invalid(error.to_string())
}
