//! Runs wired to a peer: a conversation completes, and every way a program can misbehave (wait,
//! stop reading, write without end, exit early) ends the run without holding the peer up.

use crate::common;

use std::time::{Duration, Instant};

use common::{root, shell, supervisor};
use grundy_sandbox::{Conversation, Ending, Next, Peer, Sandbox, Status};

/// Counts up with the program: it answers each number with the next, and is told `end` at
/// `last`.
struct Counter {
    last: u64,
    heard: Vec<String>,
}

impl Peer for Counter {
    fn greeting(&mut self) -> Vec<u8> {
        b"0\n".to_vec()
    }

    fn line(&mut self, line: &[u8]) -> Next {
        let text = String::from_utf8_lossy(line).into_owned();
        self.heard.push(text.clone());
        match text.parse::<u64>() {
            Ok(n) if n >= self.last => Next::Close(b"end\n".to_vec()),
            Ok(n) => Next::Write(format!("{}\n", n + 1).into_bytes()),
            Err(_) => Next::Stop(b"-1\n".to_vec()),
        }
    }
}

/// Hears lines and does what it was built to do with the first one.
struct Scripted {
    first: Next,
    heard: u64,
}

impl Peer for Scripted {
    fn greeting(&mut self) -> Vec<u8> {
        b"go\n".to_vec()
    }

    fn line(&mut self, _line: &[u8]) -> Next {
        self.heard += 1;
        if self.heard == 1 {
            self.first.clone()
        } else {
            Next::Write(Vec::new())
        }
    }
}

const CONVERSATION: Conversation = Conversation {
    idle: Duration::from_millis(400),
    max_line: 1 << 10,
};

/// Far above the idleness limit and the supervisor's reaction, far below a hang.
const PROMPTLY: Duration = Duration::from_secs(8);

fn sandbox() -> Sandbox {
    Sandbox::start(&supervisor()).unwrap()
}

#[test]
fn a_conversation_runs_to_its_end() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    let script = r#"while read n; do [ "$n" = end ] && exit 0; echo $((n + 1)); done; exit 7"#;
    let mut counter = Counter {
        last: 200,
        heard: Vec::new(),
    };
    let done = sandbox
        .interact(&shell(script), &mut counter, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Exited);
    assert_eq!(done.report.status, Status::Ok, "{:?}", done.report);
    // The program answered 0 with 1, 2 with 3, …: every odd number up to the last.
    let expected: Vec<String> = (0..=200 / 2).map(|k| (2 * k + 1).to_string()).collect();
    assert_eq!(counter.heard, expected);
    assert_eq!(done.lines, expected.len() as u64);
}

#[test]
fn a_program_that_waits_meets_the_idleness_limit() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    // Reads the greeting, then "thinks" without ever answering (an unflushed answer looks the
    // same from outside).
    let mut peer = Scripted {
        first: Next::Write(Vec::new()),
        heard: 0,
    };
    let started = Instant::now();
    let done = sandbox
        .interact(&shell("read x; sleep 60"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Idle);
    assert!(started.elapsed() < PROMPTLY, "{:?}", started.elapsed());
    assert_eq!(done.report.detail.as_deref(), Some("stopped"));
    // The box is clean for the next run.
    let again = sandbox.run(&shell("echo fine")).unwrap();
    assert_eq!(again.stdout, b"fine\n");
}

#[test]
fn the_peer_can_stop_a_program_at_once() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    let mut peer = Scripted {
        first: Next::Stop(b"-1\n".to_vec()),
        heard: 0,
    };
    let started = Instant::now();
    let done = sandbox
        .interact(&shell("echo move; sleep 60"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Stopped);
    assert_eq!(peer.heard, 1);
    assert!(started.elapsed() < PROMPTLY);
}

#[test]
fn a_program_that_stops_reading_never_blocks_the_peer() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    // Far more than a pipe holds, to a program that never reads again.
    let mut peer = Scripted {
        first: Next::Write(vec![b'7'; 8 << 20]),
        heard: 0,
    };
    let started = Instant::now();
    let done = sandbox
        .interact(&shell("echo move; sleep 60"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Idle);
    assert!(started.elapsed() < PROMPTLY);
}

#[test]
fn endless_output_ends_at_the_line_limit_or_the_peer() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    let mut peer = Scripted {
        first: Next::Write(Vec::new()),
        heard: 0,
    };
    let started = Instant::now();
    // One line without end.
    let done = sandbox
        .interact(&shell("tr '\\0' a < /dev/zero"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::LineTooLong);
    assert!(started.elapsed() < PROMPTLY);

    // Lines without end: the peer hears them and its answer decides.
    struct Enough(u64);
    impl Peer for Enough {
        fn greeting(&mut self) -> Vec<u8> {
            Vec::new()
        }
        fn line(&mut self, _line: &[u8]) -> Next {
            self.0 += 1;
            if self.0 == 100_000 {
                Next::Stop(Vec::new())
            } else {
                Next::Write(Vec::new())
            }
        }
    }
    let mut enough = Enough(0);
    let done = sandbox
        .interact(&shell("yes 1 2"), &mut enough, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Stopped);
    assert_eq!(enough.0, 100_000);
}

#[test]
fn an_early_exit_is_reported_with_its_status() {
    if !root() {
        return;
    }
    let mut sandbox = sandbox();
    let mut peer = Scripted {
        first: Next::Write(Vec::new()),
        heard: 0,
    };
    let done = sandbox
        .interact(&shell("read x; exit 3"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Exited);
    assert_eq!(done.report.status, Status::RuntimeError);
    assert_eq!(done.report.exit_code, Some(3));
    assert_eq!(peer.heard, 0);
    // A program that closes its output and lingers is stopped at the idleness limit.
    let started = Instant::now();
    let done = sandbox
        .interact(&shell("exec >&-; sleep 60"), &mut peer, CONVERSATION)
        .unwrap();
    assert_eq!(done.ending, Ending::Idle);
    assert!(started.elapsed() < PROMPTLY);
}
