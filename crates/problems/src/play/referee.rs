//! The referee of any [`Game`]: the protocol's turns, every program move checked against the
//! rules and the exact value, and the transcript.

use super::game::{Game, Played};
use super::{Board, GameRecord, Heard, MoveRecord, Mover, Play, Referee, Side, Transcript, Value};
use crate::family::Family;
use crate::seed::TestRng;
use crate::strict::ValidationError;
use rand::SeedableRng;

impl<G: Game> Play for Played<G> {
    fn referee(&self, input: &str, seed: u64) -> Result<Box<dyn Referee>, ValidationError> {
        let games = self.parse(input)?;
        Ok(Box::new(GameReferee {
            game: self.game().clone(),
            games,
            rng: TestRng::seed_from_u64(seed),
            state: State::Choosing,
            position: None,
            log: Vec::new(),
        }))
    }

    fn board(&self) -> Option<&dyn Board> {
        Some(self)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// The program is to say which side it takes in the current game.
    Choosing,
    /// The program is to move.
    Moving,
    /// Every game is over.
    Over,
    /// The program made a mistake and the test stopped.
    Stopped,
}

struct GameReferee<G: Game> {
    game: G,
    games: Vec<G::Position>,
    rng: TestRng,
    state: State,
    /// The current game's position, once it has started.
    position: Option<G::Position>,
    /// The games so far, as moves: the transcript's words are written only when it is asked
    /// for, because a round trip of the conversation cannot spare them.
    log: Vec<GameLog<G>>,
}

struct GameLog<G: Game> {
    start_value: Value,
    side: Option<Side>,
    /// Each move with the value of the position it left.
    moves: Vec<(Mover, G::Move, Value)>,
    mistake: Option<String>,
}

impl<G: Game> GameReferee<G> {
    /// Starts game `index` (0-based): its record and its line.
    fn start(&mut self, index: usize, out: &mut String) {
        let start = self.games[index].clone();
        self.log.push(GameLog {
            start_value: self.game.value(&start),
            side: None,
            moves: Vec::new(),
            mistake: None,
        });
        self.game.write_position(&start, out);
        self.position = Some(start);
        self.state = State::Choosing;
    }

    fn record(&mut self) -> &mut GameLog<G> {
        self.log.last_mut().expect("a game has started")
    }

    fn current(&self) -> &G::Position {
        self.position.as_ref().expect("a game has started")
    }

    /// `game 3, move 5: ` for the move about to be made (move 0 is the choice of side).
    fn place(&self) -> String {
        let game = self.log.len();
        let record = self.log.last().expect("a game has started");
        let number = if record.side.is_none() {
            0
        } else {
            record.moves.len() + 1
        };
        format!("game {game}, move {number}: ")
    }

    fn mistake(&mut self, message: String) -> Heard {
        self.state = State::Stopped;
        if let Some(record) = self.log.last_mut() {
            record.mistake = Some(message.clone());
        }
        Heard::Mistake {
            stop: format!("{}\n", G::STOP),
            message,
        }
    }

    /// A winning move from `position`, in words, for a message.
    fn a_winning_move(&self, position: &G::Position) -> String {
        match self.game.winning_moves(position).first() {
            Some(mv) => format!(
                "; a winning move was {} (`{}`)",
                self.game.move_words(position, mv),
                self.game.write_move(mv)
            ),
            None => String::new(),
        }
    }

    fn choose(&mut self, line: &str) -> Heard {
        let side = match line {
            "first" => Side::First,
            "second" => Side::Second,
            _ => {
                let message = format!(
                    "{}expected `first` or `second`, found {}",
                    self.place(),
                    quoted(line)
                );
                return self.mistake(message);
            }
        };
        let value = self.record().start_value.clone();
        if value.win != (side == Side::First) {
            let start = self.current();
            let chosen = match side {
                Side::First => "first",
                Side::Second => "second",
            };
            let hint = if value.win {
                self.a_winning_move(start)
            } else {
                String::new()
            };
            let message = format!(
                "{}you chose {chosen}, but at {} {} the {chosen} player loses with perfect \
                 play{hint}",
                self.place(),
                self.game.words(start),
                self.game.value_words(start, &value)
            );
            self.record().side = Some(side);
            return self.mistake(message);
        }
        self.record().side = Some(side);
        self.state = State::Moving;
        let mut out = String::new();
        if side == Side::Second {
            self.referee_moves(&mut out);
        }
        Heard::Reply(out)
    }

    /// The referee moves in the current game; when that ends it, the next game starts.
    fn referee_moves(&mut self, out: &mut String) {
        let position = self.position.take().expect("a game has started");
        let played = self.record().moves.len();
        let mv = self.game.referee_move(&position, played, &mut self.rng);
        let after = self.game.apply(&position, &mv);
        out.push_str(&self.game.write_move(&mv));
        out.push('\n');
        let value = self.game.value(&after);
        self.record().moves.push((Mover::Referee, mv, value));
        let over = self.game.is_over(&after);
        self.position = Some(after);
        if over {
            self.next_game(out);
        }
    }

    /// The current game is over: starts the next one, or ends the test.
    fn next_game(&mut self, out: &mut String) -> bool {
        let next = self.log.len();
        if next < self.games.len() {
            self.start(next, out);
            true
        } else {
            self.state = State::Over;
            self.position = None;
            false
        }
    }

    fn program_moves(&mut self, line: &str) -> Heard {
        let position = self.current();
        let mv = match self.game.read_move(position, line) {
            Ok(mv) => mv,
            Err(why) => {
                let message = format!(
                    "{}from {} you wrote {}: {why}",
                    self.place(),
                    self.game.words(position),
                    quoted(line)
                );
                return self.mistake(message);
            }
        };
        let after = self.game.apply(position, &mv);
        let value = self.game.value(&after);
        if value.win {
            let message = format!(
                "{}from {} you {}, leaving {} {}{}",
                self.place(),
                self.game.words(position),
                self.game.move_done(position, &mv),
                self.game.words(&after),
                self.game.value_words(&after, &value),
                self.a_winning_move(position)
            );
            self.record().moves.push((Mover::Program, mv, value));
            return self.mistake(message);
        }
        self.record().moves.push((Mover::Program, mv, value));
        let over = self.game.is_over(&after);
        self.position = Some(after);
        let mut out = String::new();
        if over {
            if !self.next_game(&mut out) {
                return Heard::Over;
            }
        } else {
            self.referee_moves(&mut out);
        }
        Heard::Reply(out)
    }
}

impl<G: Game> Referee for GameReferee<G> {
    fn open(&mut self) -> String {
        let mut out = format!("{}\n", self.games.len());
        self.start(0, &mut out);
        out
    }

    fn hear(&mut self, line: &str) -> Heard {
        let line = line.trim();
        match self.state {
            State::Choosing => self.choose(line),
            State::Moving => self.program_moves(line),
            State::Over => {
                let message = format!(
                    "after the last game was over, the program wrote {}",
                    quoted(line)
                );
                self.mistake(message)
            }
            State::Stopped => {
                let message = format!(
                    "after the referee stopped the test, the program wrote {}",
                    quoted(line)
                );
                self.mistake(message)
            }
        }
    }

    fn games_started(&self) -> usize {
        self.log.len()
    }

    fn transcript(&self) -> Transcript {
        let games = self
            .log
            .iter()
            .zip(&self.games)
            .map(|(log, start)| {
                let mut position = start.clone();
                let moves = log
                    .moves
                    .iter()
                    .map(|(by, mv, value)| {
                        let after = self.game.apply(&position, mv);
                        let record = MoveRecord {
                            by: *by,
                            text: self.game.write_move(mv),
                            after: self.game.words(&after),
                            value: value.clone(),
                        };
                        position = after;
                        record
                    })
                    .collect();
                GameRecord {
                    start: self.game.words(start),
                    start_value: log.start_value.clone(),
                    side: log.side,
                    moves,
                    mistake: log.mistake.clone(),
                }
            })
            .collect();
        Transcript { games }
    }
}

/// A line the program wrote, for a message: in backquotes, cut when long.
fn quoted(line: &str) -> String {
    if line.is_empty() {
        return "an empty line".to_owned();
    }
    let cut: String = line.chars().take(40).collect();
    if cut.len() < line.len() {
        format!("`{cut}…`")
    } else {
        format!("`{cut}`")
    }
}
