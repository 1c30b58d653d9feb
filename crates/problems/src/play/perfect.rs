//! A perfect player built on a [`Board`], driven through a [`Referee`]: what `problems verify`
//! plays every generated test of an interactive problem with.

use super::{Board, Heard, Play, Referee};

/// The most moves a test may take, both players counted.
pub const MOVE_BUDGET: usize = 100_000;

/// Plays the test `input` perfectly against the referee seeded with `seed`, and returns the
/// number of moves made, or what went wrong.
pub fn play_perfectly(play: &dyn Play, input: &str, seed: u64) -> Result<usize, String> {
    let board: &dyn Board = play.board().ok_or("the game has no board to play it on")?;
    let mut referee = play.referee(input, seed).map_err(|e| e.to_string())?;
    let opening = referee.open();
    let (count, first_game) = opening
        .split_once('\n')
        .ok_or("the referee's first line is not T")?;
    let count: usize = count.parse().map_err(|_| "the first line is not T")?;
    let mut position = first_game.to_owned();
    let mut moves = 0;
    for game in 1..=count {
        let value = board.value(&position).map_err(|e| e.to_string())?;
        let side = if value.win { "first" } else { "second" };
        let mut heard = said(side.to_owned(), referee.as_mut())?;
        loop {
            match heard {
                Heard::Over if game == count => return Ok(moves),
                Heard::Over => return Err(format!("the referee ended the test in game {game}")),
                Heard::Mistake { .. } => unreachable!("mistakes are returned above"),
                Heard::Reply(text) if !text.is_empty() => {
                    // The referee moved; its move is one line.
                    let mv = board
                        .play(&position, text.trim_end())
                        .map_err(|e| format!("game {game}: the referee's move `{text}`: {e}"))?;
                    position = mv.after;
                    moves += 1;
                }
                Heard::Reply(_) => {}
            }
            let best = board.winning_moves(&position).map_err(|e| e.to_string())?;
            let mv = best
                .first()
                .ok_or_else(|| format!("game {game}: no winning move from {position}"))?;
            moves += 1;
            if moves > MOVE_BUDGET {
                return Err(format!("more than {MOVE_BUDGET} moves"));
            }
            let over = board.is_over(&mv.after).map_err(|e| e.to_string())?;
            let after = mv.after.clone();
            heard = said(mv.text.clone(), referee.as_mut())?;
            if over {
                match heard {
                    Heard::Reply(next) if game < count => {
                        position = next;
                        break;
                    }
                    Heard::Over if game == count => return Ok(moves),
                    other => {
                        return Err(format!(
                            "game {game} is over, but the referee answered {other:?}"
                        ));
                    }
                }
            }
            position = after;
        }
    }
    Err("the referee did not end the test after its last game".into())
}

fn said(line: String, referee: &mut dyn Referee) -> Result<Heard, String> {
    match referee.hear(&line) {
        Heard::Mistake { message, .. } => Err(format!("after `{line}`: {message}")),
        heard => Ok(heard),
    }
}
