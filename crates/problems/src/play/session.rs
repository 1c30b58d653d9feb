//! One game of a person against the reference, move by move: the page, the API and the terminal
//! all replay a game through this. Every move is checked and valued as it is played; a move of
//! the person's that gives a won position away is a mistake, remembered with the winning moves
//! there were.

use sha2::{Digest, Sha256};

use super::{Board, BoardError, BoardMove, Mover, Side, Value};

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

/// A game in progress. The person is [`Mover::Program`], as in a judged game.
pub struct Session<'a> {
    board: &'a dyn Board,
    pub start: String,
    pub start_words: String,
    /// For the first player.
    pub start_value: Value,
    pub side: Side,
    pub steps: Vec<Step>,
    pub position: String,
}

impl std::fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("start", &self.start)
            .field("side", &self.side)
            .field("steps", &self.steps)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}

impl<'a> Session<'a> {
    /// A game from `start` as the protocol writes it (a final line break and stray spaces are
    /// forgiven), or from a random start drawn from `seed`.
    pub fn new(
        board: &'a dyn Board,
        start: Option<&str>,
        seed: u64,
        side: Side,
    ) -> Result<Session<'a>, BoardError> {
        let start = match start {
            Some(text) => {
                let lines: Vec<&str> = text.trim().lines().map(str::trim_end).collect();
                board.check_start(&format!("{}\n", lines.join("\n")))?
            }
            None => board.random_start(seed),
        };
        Ok(Session {
            board,
            start_words: board.words(&start)?,
            start_value: board.value(&start)?,
            position: start.clone(),
            start,
            side,
            steps: Vec::new(),
        })
    }

    /// Who makes the next move.
    pub fn to_move(&self) -> Mover {
        let first_moves = self.steps.len().is_multiple_of(2);
        match (self.side, first_moves) {
            (Side::First, true) | (Side::Second, false) => Mover::Program,
            _ => Mover::Referee,
        }
    }

    pub fn is_over(&self) -> Result<bool, BoardError> {
        self.board.is_over(&self.position)
    }

    /// The person is to move in a game not over.
    pub fn persons_turn(&self) -> Result<bool, BoardError> {
        Ok(!self.is_over()? && self.to_move() == Mover::Program)
    }

    /// Plays `text` for whoever is to move.
    pub fn play(&mut self, text: &str) -> Result<&Step, BoardError> {
        if self.is_over()? {
            return Err(BoardError::Move("the game is over".into()));
        }
        let by = self.to_move();
        let before = self.board.value(&self.position)?;
        let made = self.board.play(&self.position, text)?;
        let mistake = by == Mover::Program && before.win && made.value.win;
        let better = if mistake {
            self.board.winning_moves(&self.position)?
        } else {
            Vec::new()
        };
        self.position = made.after.clone();
        self.steps.push(Step {
            by,
            made,
            before,
            mistake,
            better,
        });
        Ok(self.steps.last().expect("just pushed"))
    }

    /// The referee's move when it is the referee's turn, drawn from the game so far (the same
    /// game, the same answer); `None` otherwise.
    pub fn referee_moves(&mut self) -> Result<Option<&Step>, BoardError> {
        if self.is_over()? || self.to_move() != Mover::Referee {
            return Ok(None);
        }
        let Some(reply) = self.board.reply(&self.position, self.reply_seed())? else {
            return Ok(None);
        };
        self.play(&reply.text).map(Some)
    }

    fn reply_seed(&self) -> u64 {
        let mut hash = Sha256::new();
        hash.update(self.start.as_bytes());
        hash.update(self.steps.len().to_le_bytes());
        let digest = hash.finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("a digest has 8 bytes"))
    }

    pub fn words(&self) -> Result<String, BoardError> {
        self.board.words(&self.position)
    }

    /// The value for the player to move.
    pub fn value(&self) -> Result<Value, BoardError> {
        self.board.value(&self.position)
    }

    /// The winning moves from the position reached.
    pub fn hint(&self) -> Result<Vec<BoardMove>, BoardError> {
        self.board.winning_moves(&self.position)
    }

    /// Who won a finished game: whoever moved last (normal play).
    pub fn winner(&self) -> Result<Option<Mover>, BoardError> {
        Ok(match (self.is_over()?, self.steps.last()) {
            (true, Some(last)) => Some(last.by),
            _ => None,
        })
    }

    /// The index in [`Session::steps`] of the person's first mistake.
    pub fn first_mistake(&self) -> Option<usize> {
        self.steps.iter().position(|s| s.mistake)
    }
}
