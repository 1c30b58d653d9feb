//! Two boxes talking through the client: a conversation runs to the interactor's verdict, and
//! every way either side can stop talking (a verdict, an early exit, waiting, flooding) ends
//! both runs promptly, without holding the client up.

use crate::common;

use std::time::{Duration, Instant};

use common::{root, shell, supervisor};
use grundy_sandbox::{Party, RelayEnding, RelayLimits, Relayed, RunReport, Sandbox, Status};

/// Idleness counts from the start, boxes' start-up included. With both cores kept busy by other
/// work, 500 ms ended the early-exit test before either side had ended (twice in some thirty
/// runs); 2 s has not.
const LIMITS: RelayLimits = RelayLimits {
    idle: Duration::from_secs(2),
    keep: 64,
};

/// Far above the idleness limit and the supervisors' reaction, far below a hang.
const PROMPTLY: Duration = Duration::from_secs(8);

/// Kattis's rule: anything but acceptance settles the test, so the program is stopped.
fn unless_accepted(report: &RunReport) -> bool {
    report.exit_code != Some(42)
}

fn relay(program: &str, interactor: &str) -> (Relayed, Duration) {
    let mut first = Sandbox::start(&supervisor()).unwrap();
    let mut second = first.start_another().unwrap();
    let started = Instant::now();
    let relayed = first
        .relay(
            &shell(program),
            &mut second,
            &shell(interactor),
            LIMITS,
            &unless_accepted,
        )
        .unwrap();
    (relayed, started.elapsed())
}

#[test]
fn a_conversation_runs_to_the_interactors_verdict() {
    if !root() {
        return;
    }
    // The interactor counts up with the program to 100, then accepts; the program reads the
    // end of its input and exits.
    let interactor = r#"echo 0; while read n; do
        [ "$n" -ge 100 ] && exit 42
        echo $((n + 1))
    done; exit 43"#;
    let program = r#"while read n; do echo $((n + 1)); done"#;
    let (done, _) = relay(program, interactor);
    assert_eq!(done.ending, RelayEnding::Ended);
    assert_eq!(done.interactor.exit_code, Some(42), "{:?}", done.interactor);
    assert_eq!(done.program.status, Status::Ok, "{:?}", done.program);
    assert_eq!(done.first, Some(Party::Interactor));
    // What the program wrote is kept up to the limit: 1, 3, 5, …
    assert_eq!(done.program_wrote.len(), LIMITS.keep);
    assert!(done.program_wrote.starts_with(b"1\n3\n5\n7\n9\n11\n"));
}

#[test]
fn a_rejection_stops_the_program_at_once() {
    if !root() {
        return;
    }
    let (done, took) = relay("echo 7; sleep 60", "read guess; exit 43");
    assert_eq!(done.ending, RelayEnding::Settled);
    assert_eq!(done.interactor.exit_code, Some(43));
    assert_eq!(done.program.detail.as_deref(), Some("stopped"));
    assert_eq!(done.first, Some(Party::Interactor));
    assert!(took < PROMPTLY, "{took:?}");
}

#[test]
fn an_acceptance_lets_the_program_finish() {
    if !root() {
        return;
    }
    // The program goes on after the interactor's verdict and fails: that is its own.
    let (done, _) = relay(
        "echo 7; read reply; cat > /dev/null; exit 5",
        "read guess; echo right; exit 42",
    );
    assert_eq!(done.ending, RelayEnding::Ended);
    assert_eq!(done.interactor.exit_code, Some(42));
    assert_eq!(done.program.exit_code, Some(5));
    assert_eq!(done.first, Some(Party::Interactor));
}

#[test]
fn an_early_exit_ends_the_interactors_input() {
    if !root() {
        return;
    }
    let (done, took) = relay("exit 3", "read x || exit 43; exit 42");
    assert_eq!(done.first, Some(Party::Program), "{done:?}");
    assert_eq!(done.program.exit_code, Some(3), "{done:?}");
    assert_eq!(done.interactor.exit_code, Some(43), "{done:?}");
    assert!(took < PROMPTLY, "{took:?}");
}

#[test]
fn two_sides_waiting_for_each_other_meet_the_idleness_limit() {
    if !root() {
        return;
    }
    let (done, took) = relay("read x; sleep 60", "read x; sleep 60");
    assert_eq!(done.ending, RelayEnding::Idle);
    assert!(done.program_alive_at_idle);
    assert_eq!(done.first, None);
    assert_eq!(done.program.detail.as_deref(), Some("stopped"));
    assert_eq!(done.interactor.detail.as_deref(), Some("stopped"));
    assert!(took < PROMPTLY, "{took:?}");
}

#[test]
fn a_flood_nobody_reads_never_blocks_the_client() {
    if !root() {
        return;
    }
    // The program writes without end to an interactor that never reads: the relay holds its
    // backlog, stops reading, and the idleness limit ends both.
    let (done, took) = relay("yes flood", "sleep 60");
    assert_eq!(done.ending, RelayEnding::Idle);
    assert!(took < PROMPTLY, "{took:?}");
    // The interactor's flood to a program that never reads, likewise.
    let (done, took) = relay("sleep 60", "yes flood");
    assert_eq!(done.ending, RelayEnding::Idle);
    assert!(took < PROMPTLY, "{took:?}");
}
