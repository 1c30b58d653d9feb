//! Judging a test of an uploaded interactive package as Kattis does: the package's output
//! validator is the interactor, run in a second sandbox beside the program, each one's standard
//! output the other's input (relayed by the sandbox client, [`grundy_sandbox::Sandbox::relay`]).
//! It is invoked `interactor input answer feedback_dir/ [flags]`, reads the test's input and
//! answer, writes its messages into the feedback directory, and exits 42 to accept or 43 to
//! reject.
//!
//! The verdict follows Kattis's rules (problemtools): an interactor that ends any other way is
//! the judge's failure, never the program's; its rejection stands when it ended first (the
//! program may then crash on its closed input, which is not held against it); otherwise the
//! program's own failure (time, memory, a crash) stands, and then the interactor's verdict. The
//! program's CPU time is charged against the time limit; the interactor's is not, and it has a
//! generous limit of its own.

use std::path::Path;
use std::time::Duration;

use grundy_sandbox::{Limits, Party, RelayEnding, Relayed, RunReport, Status};
use grundy_verdict::Verdict;

use crate::{TRUNCATED, VALIDATOR_ACCEPTS, VALIDATOR_CPU_MS, VALIDATOR_REJECTS, verdict_of_run};

/// The feedback files the judge reads back: Kattis's message for judges, and its message for
/// the team.
pub(crate) const JUDGE_MESSAGE: &str = "judgemessage.txt";
pub(crate) const TEAM_MESSAGE: &str = "teammessage.txt";

/// What is read of the feedback files together; a larger file is not read at all.
pub(crate) const FEEDBACK_BYTES: u64 = 64 << 10;

/// How much of a message is shown.
const MESSAGE_BYTES: usize = 1000;

/// The interactor's limits beside a program run under `program`: the judge's CPU budget for a
/// validator (at least twice the program's), and a wall limit that outlasts the program's, so
/// that the program is the one stopped when both wait.
pub(crate) fn interactor_limits(program: &Limits, memory_kib: u64) -> Limits {
    let cpu_ms = VALIDATOR_CPU_MS.max(program.cpu_ms.saturating_mul(2));
    let mut limits = Limits::for_run(cpu_ms, memory_kib);
    limits.wall_ms = limits.wall_ms.max(program.wall_ms.saturating_add(2000));
    limits
}

/// Whether the interactor's end settles the test, so that the program can be stopped: anything
/// but acceptance (a rejection, or the interactor's own failure).
pub(crate) fn settles(interactor: &RunReport) -> bool {
    !(interactor.status == Status::RuntimeError && interactor.exit_code == Some(VALIDATOR_ACCEPTS))
}

/// The interactor's messages, as it left them in the feedback directory.
#[derive(Debug, Default)]
pub(crate) struct Feedback {
    pub(crate) judge: Option<String>,
    pub(crate) team: Option<String>,
}

impl Feedback {
    /// The feedback files copied out into `dir` (those missing or refused are absent).
    pub(crate) fn read(dir: &Path) -> Feedback {
        let read = |name: &str| {
            std::fs::read(dir.join(name))
                .ok()
                .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
                .filter(|text| !text.is_empty())
        };
        Feedback {
            judge: read(JUDGE_MESSAGE),
            team: read(TEAM_MESSAGE),
        }
    }
}

/// A test's verdict, what the contestant is told, and what only the log is told.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub(crate) verdict: Verdict,
    pub(crate) message: Option<String>,
    /// Why the judge failed, for the log (the contestant sees only that it did).
    pub(crate) judge_error: Option<String>,
}

impl Outcome {
    fn of(verdict: Verdict, message: Option<String>) -> Outcome {
        Outcome {
            verdict,
            message,
            judge_error: None,
        }
    }

    fn judge_error(why: String) -> Outcome {
        Outcome {
            verdict: Verdict::InternalError,
            message: None,
            judge_error: Some(why),
        }
    }
}

/// The verdict of a relayed test. `visible`: the contestant may see the test's data, and so the
/// interactor's message to the judges (which may quote the input or the program's output); on
/// a hidden test only its message to the team is shown.
pub(crate) fn verdict(
    relayed: &Relayed,
    feedback: &Feedback,
    idle: Duration,
    visible: bool,
) -> Outcome {
    let (program, interactor) = (&relayed.program, &relayed.interactor);
    if relayed.ending == RelayEnding::Idle {
        if !relayed.program_alive_at_idle {
            return Outcome::judge_error(format!(
                "the interactor neither exited nor wrote anything for {:.1} s after the program \
                 ended",
                idle.as_secs_f64()
            ));
        }
        return Outcome::of(
            Verdict::TimeLimit,
            Some(format!(
                "idleness limit exceeded: neither the program nor the interactor wrote anything \
                 for {:.1} s; the likely cause is output that was not flushed (fflush(stdout), \
                 cout.flush(), print(..., flush=True), System.out.flush()), else a program \
                 computing too long",
                idle.as_secs_f64()
            )),
        );
    }
    let rejected = match (interactor.status, interactor.exit_code) {
        (Status::RuntimeError, Some(VALIDATOR_ACCEPTS)) => false,
        (Status::RuntimeError, Some(VALIDATOR_REJECTS)) => true,
        (status, code) => {
            return Outcome::judge_error(format!(
                "the interactor ended with {}{}{}{}: {}",
                status.as_str(),
                code.map(|c| format!(", exit code {c}")).unwrap_or_default(),
                interactor
                    .signal
                    .as_ref()
                    .map(|s| format!(", {s}"))
                    .unwrap_or_default(),
                interactor
                    .detail
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default(),
                String::from_utf8_lossy(&interactor.stderr)
                    .chars()
                    .take(500)
                    .collect::<String>()
            ));
        }
    };
    // A program the relay stopped because the interactor had decided did not fail by itself;
    // one that ended before the stop keeps its own status (the supervisor sees to it).
    let stopped = program.status == Status::RuntimeError
        && program.detail.as_deref() == Some("stopped")
        && relayed.ending == RelayEnding::Settled;
    let program_failed = program.status != Status::Ok && !stopped;
    if rejected && (relayed.first == Some(Party::Interactor) || !program_failed) {
        return Outcome::of(Verdict::WrongAnswer, Some(rejection(feedback, visible)));
    }
    if program_failed {
        let verdict = verdict_of_run(program.status).unwrap_or(Verdict::InternalError);
        if verdict == Verdict::InternalError {
            return Outcome::judge_error(format!(
                "the sandbox failed to run the program: {}",
                program.detail.as_deref().unwrap_or("unknown")
            ));
        }
        let message = match (verdict, program.exit_code, &program.signal) {
            (Verdict::RuntimeError, Some(code), _) => Some(format!("exit code {code}")),
            (Verdict::RuntimeError, _, Some(signal)) => Some(format!("killed by {signal}")),
            _ => program.detail.clone(),
        };
        return Outcome::of(verdict, message);
    }
    Outcome::of(Verdict::Accepted, None)
}

/// What the contestant is told of a rejection.
fn rejection(feedback: &Feedback, visible: bool) -> String {
    let message = if visible {
        feedback.judge.as_ref().or(feedback.team.as_ref())
    } else {
        feedback.team.as_ref()
    };
    match message {
        Some(text) => cut(text),
        None => "the interactor rejected the program's answers".to_owned(),
    }
}

/// The start of a message, at most [`MESSAGE_BYTES`], cut on a character and marked.
fn cut(text: &str) -> String {
    if text.len() <= MESSAGE_BYTES {
        return text.to_owned();
    }
    let mut at = MESSAGE_BYTES;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    format!("{}{TRUNCATED}", &text[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(status: Status, exit_code: Option<i32>) -> RunReport {
        RunReport {
            status,
            exit_code,
            signal: None,
            cpu_ms: 5,
            wall_ms: 9,
            memory_kib: 1024,
            detail: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            copied: Vec::new(),
            refused: Vec::new(),
        }
    }

    fn relayed(
        program: RunReport,
        interactor: RunReport,
        first: Option<Party>,
        ending: RelayEnding,
    ) -> Relayed {
        Relayed {
            program,
            interactor,
            first,
            ending,
            program_alive_at_idle: false,
            program_wrote: Vec::new(),
        }
    }

    const IDLE: Duration = Duration::from_secs(2);

    fn said() -> Feedback {
        Feedback {
            judge: Some("guessed 700 after 10 tries; the number was 512".into()),
            team: Some("too many guesses".into()),
        }
    }

    fn of(relayed: &Relayed) -> (Verdict, Option<String>) {
        let outcome = verdict(relayed, &said(), IDLE, true);
        (outcome.verdict, outcome.message)
    }

    const OK: Status = Status::Ok;
    const EXITED: Status = Status::RuntimeError;

    #[test]
    fn the_interactors_exit_code_is_the_verdict() {
        let accepted = relayed(
            report(OK, Some(0)),
            report(EXITED, Some(42)),
            Some(Party::Interactor),
            RelayEnding::Ended,
        );
        assert_eq!(of(&accepted), (Verdict::Accepted, None));
        let rejected = relayed(
            report(OK, Some(0)),
            report(EXITED, Some(43)),
            Some(Party::Program),
            RelayEnding::Ended,
        );
        assert_eq!(
            of(&rejected),
            (
                Verdict::WrongAnswer,
                Some("guessed 700 after 10 tries; the number was 512".into())
            )
        );
    }

    #[test]
    fn a_hidden_test_shows_only_the_message_for_the_team() {
        let rejected = relayed(
            report(OK, Some(0)),
            report(EXITED, Some(43)),
            Some(Party::Interactor),
            RelayEnding::Ended,
        );
        let outcome = verdict(&rejected, &said(), IDLE, false);
        assert_eq!(outcome.message.as_deref(), Some("too many guesses"));
        let outcome = verdict(&rejected, &Feedback::default(), IDLE, false);
        assert_eq!(
            outcome.message.as_deref(),
            Some("the interactor rejected the program's answers")
        );
        // On a visible test without a message for the judges, the team's is shown.
        let team_only = Feedback {
            judge: None,
            team: Some("too many guesses".into()),
        };
        let outcome = verdict(&rejected, &team_only, IDLE, true);
        assert_eq!(outcome.message.as_deref(), Some("too many guesses"));
    }

    #[test]
    fn a_rejection_first_wins_over_the_crash_that_follows() {
        // The interactor rejected and closed the pipe; the program then died writing to it.
        let mut crashed = report(EXITED, None);
        crashed.signal = Some("SIGPIPE".into());
        let rejected_first = relayed(
            crashed.clone(),
            report(EXITED, Some(43)),
            Some(Party::Interactor),
            RelayEnding::Ended,
        );
        assert_eq!(of(&rejected_first).0, Verdict::WrongAnswer);
        // The program crashed first and the interactor then rejected what it had: the crash
        // is the verdict.
        let crashed_first = relayed(
            crashed,
            report(EXITED, Some(43)),
            Some(Party::Program),
            RelayEnding::Ended,
        );
        assert_eq!(
            of(&crashed_first),
            (Verdict::RuntimeError, Some("killed by SIGPIPE".into()))
        );
        // Likewise a program out of CPU time.
        let mut slow = report(Status::TimeLimit, None);
        slow.detail = Some("cpu".into());
        let timed_out = relayed(
            slow,
            report(EXITED, Some(43)),
            Some(Party::Program),
            RelayEnding::Ended,
        );
        assert_eq!(of(&timed_out), (Verdict::TimeLimit, Some("cpu".into())));
        // A program stopped because the interactor had rejected did not fail by itself.
        let mut stopped = report(EXITED, None);
        stopped.detail = Some("stopped".into());
        let settled = relayed(
            stopped,
            report(EXITED, Some(43)),
            Some(Party::Program),
            RelayEnding::Settled,
        );
        assert_eq!(of(&settled).0, Verdict::WrongAnswer);
        // One that had ended by itself before the relay heard the interactor's verdict keeps
        // its own status.
        let ended_first = relayed(
            report(EXITED, Some(3)),
            report(EXITED, Some(43)),
            Some(Party::Program),
            RelayEnding::Settled,
        );
        assert_eq!(
            of(&ended_first),
            (Verdict::RuntimeError, Some("exit code 3".into()))
        );
    }

    #[test]
    fn an_acceptance_leaves_the_programs_own_failure_standing() {
        let accepted_then_crash = relayed(
            report(EXITED, Some(3)),
            report(EXITED, Some(42)),
            Some(Party::Interactor),
            RelayEnding::Ended,
        );
        assert_eq!(
            of(&accepted_then_crash),
            (Verdict::RuntimeError, Some("exit code 3".into()))
        );
        let over_memory = relayed(
            report(Status::MemoryLimit, None),
            report(EXITED, Some(42)),
            Some(Party::Program),
            RelayEnding::Ended,
        );
        assert_eq!(of(&over_memory).0, Verdict::MemoryLimit);
    }

    #[test]
    fn any_other_end_of_the_interactor_is_the_judges_failure() {
        for interactor in [
            report(OK, Some(0)),
            report(EXITED, Some(1)),
            report(Status::TimeLimit, None),
            report(Status::InternalError, None),
        ] {
            // Whatever the program did.
            for program in [report(OK, Some(0)), report(Status::TimeLimit, None)] {
                let done = relayed(
                    program,
                    interactor.clone(),
                    Some(Party::Interactor),
                    RelayEnding::Ended,
                );
                let outcome = verdict(&done, &said(), IDLE, true);
                assert_eq!(outcome.verdict, Verdict::InternalError, "{interactor:?}");
                assert_eq!(
                    outcome.message, None,
                    "nothing of it reaches the contestant"
                );
                assert!(
                    outcome
                        .judge_error
                        .unwrap()
                        .starts_with("the interactor ended with")
                );
            }
        }
    }

    #[test]
    fn silence_is_the_programs_fault_while_it_runs() {
        let mut waiting = relayed(
            report(EXITED, None),
            report(EXITED, None),
            None,
            RelayEnding::Idle,
        );
        waiting.program_alive_at_idle = true;
        let (verdict, message) = of(&waiting);
        assert_eq!(verdict, Verdict::TimeLimit);
        assert!(message.unwrap().starts_with("idleness limit exceeded"));
        // After the program's end, only the interactor can be waiting.
        waiting.program_alive_at_idle = false;
        assert_eq!(of(&waiting).0, Verdict::InternalError);
    }

    #[test]
    fn long_messages_are_cut_on_a_character() {
        let long = "é".repeat(MESSAGE_BYTES);
        let shown = cut(&long);
        assert!(shown.ends_with(TRUNCATED));
        assert!(shown.len() <= MESSAGE_BYTES + TRUNCATED.len());
        assert_eq!(cut("short"), "short");
    }

    #[test]
    fn only_acceptance_lets_the_program_run_on() {
        assert!(!settles(&report(EXITED, Some(42))));
        assert!(settles(&report(EXITED, Some(43))));
        assert!(settles(&report(OK, Some(0))));
        assert!(settles(&report(Status::TimeLimit, None)));
    }

    #[test]
    fn the_interactor_outlasts_the_program() {
        let program = Limits::for_run(2000, 256 << 10);
        let limits = interactor_limits(&program, 1 << 20);
        assert_eq!(limits.cpu_ms, 10_000);
        assert!(limits.wall_ms > program.wall_ms);
        let slow = Limits::for_run(30_000, 256 << 10);
        assert_eq!(interactor_limits(&slow, 1 << 20).cpu_ms, 60_000);
    }
}
