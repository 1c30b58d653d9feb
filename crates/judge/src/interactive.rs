//! Judging an interactive problem: the problem's referee (trusted Rust, in this process) plays
//! the test's games against the sandboxed program over its standard input and output.
//!
//! The referee decides wrong answers; the sandbox decides the limits. CPU time is the program's
//! alone (its cgroup), so the referee's thinking is never charged to it.

use std::time::Duration;

use grundy_problems::play::{Heard, Referee, Transcript};
use grundy_sandbox::{Conversation, Ending, Interaction, Next, Peer, Status};
use grundy_verdict::Verdict;
use sha2::{Digest, Sha256};

use crate::verdict_of_run;

/// The longest line a program may write: far more than any move.
const MAX_LINE: usize = 64 << 10;

/// The idleness limit by default: twice the time limit.
pub fn idleness_limit(time_limit_ms: u64) -> Duration {
    Duration::from_millis(time_limit_ms.saturating_mul(2))
}

pub fn conversation(time_limit_ms: u64) -> Conversation {
    Conversation {
        idle: idleness_limit(time_limit_ms),
        max_line: MAX_LINE,
    }
}

/// The referee's seed for a test: its input, so a rejudge replays the same games.
pub fn seed_of(input: &str) -> u64 {
    let digest = Sha256::digest(input.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().expect("a digest has 8 bytes"))
}

/// The referee as the sandbox's peer: it remembers why it stopped the program.
pub(crate) struct RefereePeer<'a> {
    referee: &'a mut dyn Referee,
    over: bool,
    /// The program's mistake or misbehaviour, in the problem's terms.
    pub(crate) wrong: Option<String>,
}

impl<'a> RefereePeer<'a> {
    pub(crate) fn new(referee: &'a mut dyn Referee) -> Self {
        RefereePeer {
            referee,
            over: false,
            wrong: None,
        }
    }

    pub(crate) fn transcript(&self) -> Transcript {
        self.referee.transcript()
    }
}

impl Peer for RefereePeer<'_> {
    fn greeting(&mut self) -> Vec<u8> {
        self.referee.open().into_bytes()
    }

    fn line(&mut self, line: &[u8]) -> Next {
        let text = String::from_utf8_lossy(line);
        if self.over {
            self.wrong = Some(format!(
                "the program wrote {} after the last game was over",
                quote(&text)
            ));
            return Next::Stop(Vec::new());
        }
        match self.referee.hear(&text) {
            Heard::Reply(reply) => Next::Write(reply.into_bytes()),
            Heard::Over => {
                self.over = true;
                Next::Close(Vec::new())
            }
            Heard::Mistake { stop, message } => {
                self.wrong = Some(message);
                Next::Stop(stop.into_bytes())
            }
        }
    }
}

/// A line of the program's, quoted and cut for a message.
fn quote(text: &str) -> String {
    let mut cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    format!("\"{cut}\"")
}

/// The verdict of an interactive test, its message naming the game and move of a mistake only,
/// and for whoever may see the test (`visible`) the mistake in full: the position, and a winning
/// move there, which is the test's answer.
pub(crate) fn verdict(
    interaction: &Interaction,
    peer: &RefereePeer<'_>,
    idle: Duration,
    visible: bool,
) -> (Verdict, Option<String>, Option<String>) {
    if let Some(wrong) = &peer.wrong {
        return (
            Verdict::WrongAnswer,
            Some(place_of_mistake(wrong)),
            visible.then(|| wrong.clone()),
        );
    }
    let (verdict, message) = ending(interaction, peer, idle);
    (verdict, message, None)
}

/// The verdict of an interactive test without a wrong move, and its message.
fn ending(
    interaction: &Interaction,
    peer: &RefereePeer<'_>,
    idle: Duration,
) -> (Verdict, Option<String>) {
    let report = &interaction.report;
    match interaction.ending {
        Ending::LineTooLong => {
            return (
                Verdict::WrongAnswer,
                Some(format!(
                    "a line of more than {} KiB without a line break: not a move",
                    MAX_LINE >> 10
                )),
            );
        }
        Ending::Idle => {
            let when = if peer.over {
                "after the last game the program neither exited nor wrote anything"
            } else {
                "the referee waited for the program's move"
            };
            return (
                Verdict::TimeLimit,
                Some(format!(
                    "idleness limit exceeded: {when} for {:.1} s; the likely cause is output \
                     that was not flushed (fflush(stdout), cout.flush(), print(..., \
                     flush=True), System.out.flush())",
                    idle.as_secs_f64()
                )),
            );
        }
        Ending::Stopped | Ending::Exited => {}
    }
    // The sandbox's own verdicts (time, memory, a crash) come before what the referee saw: a
    // program killed for its CPU time also left the games unfinished.
    if report.status != Status::Ok {
        let verdict = verdict_of_run(report.status).unwrap_or(Verdict::InternalError);
        let message = match (&report.exit_code, &report.signal) {
            (Some(code), _) if verdict == Verdict::RuntimeError => {
                Some(format!("exit code {code}"))
            }
            (_, Some(signal)) if verdict == Verdict::RuntimeError => {
                Some(format!("killed by {signal}"))
            }
            _ => report.detail.clone(),
        };
        return (verdict, message);
    }
    if !peer.over {
        let games = peer.referee.games_started();
        return (
            Verdict::WrongAnswer,
            Some(format!(
                "the program exited before the games were over (during game {games})"
            )),
        );
    }
    (Verdict::Accepted, None)
}

/// The message of a mistake for every reader names its game and move but not the position: the
/// position is the test's data.
fn place_of_mistake(message: &str) -> String {
    match message.split_once(':') {
        Some((place, _)) if place.starts_with("game ") => {
            format!("{place}: a losing or illegal move")
        }
        // Writing after the end (the referee's words or the peer's) is named without what was
        // written: the quote is the program's output, which readers below `inputs` are not shown.
        _ if message.contains("after the last game") => {
            "the program wrote more after the last game was over".to_owned()
        }
        _ if message.contains("after the referee stopped") => {
            "the program wrote more after the referee stopped the test".to_owned()
        }
        _ => "a losing or illegal move".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistake_keeps_its_place_and_not_its_position() {
        let message = "game 3, move 5: from (3, 5, 6) you took 2 from pile 2";
        assert_eq!(
            place_of_mistake(message),
            "game 3, move 5: a losing or illegal move"
        );
        assert_eq!(place_of_mistake("garbage"), "a losing or illegal move");
        for after in [
            "after the last game was over, the program wrote `1 1`",
            "the program wrote \"1 1\" after the last game was over",
        ] {
            assert_eq!(
                place_of_mistake(after),
                "the program wrote more after the last game was over"
            );
        }
    }

    #[test]
    fn a_rejudge_replays_the_same_games() {
        assert_eq!(seed_of("1\n3 1 2 3\n"), seed_of("1\n3 1 2 3\n"));
        assert_ne!(seed_of("1\n3 1 2 3\n"), seed_of("1\n3 1 2 4\n"));
    }
}
