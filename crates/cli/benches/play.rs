//! Interactive judging's speed, against its limit, measured side by side in one run:
//! 1. the limit: two C processes exchanging one line each way over pipes (`play/pingpong.c`),
//!    as lines per second;
//! 2. the nim-play referee (in this process) against a C program playing perfectly in the
//!    sandbox, as moves per second while the games run (from the program's first line to its
//!    last: the sandbox's start-up is the same for every run and measured by the sandbox bench).
//!
//! Targets: at least half the bare rate and at least 100 000 moves per second. Needs root and
//! gcc; says so and exits otherwise. `cargo bench -p grundy-cli --bench play`.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use grundy_judge::interactive;
use grundy_problems::Catalogue;
use grundy_problems::play::{Heard, Referee};
use grundy_sandbox::{
    BoxFile, FileSource, Limits, Next, Peer, RunKind, RunSpec, Sandbox, Status, SupervisorCommand,
};
use rand::{RngExt, SeedableRng};

const ROUNDS: usize = 7;
/// Round trips of the bare ping-pong per round.
const BARE_ROUND_TRIPS: usize = 200_000;

fn supervisor() -> SupervisorCommand {
    SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy").into(),
        args: vec!["sandbox-supervisor".into()],
    }
}

/// The referee, timing the conversation from the program's first line to its last.
struct Timed {
    referee: Box<dyn Referee>,
    first: Option<Instant>,
    last: Option<Instant>,
    mistake: Option<String>,
}

impl Peer for Timed {
    fn greeting(&mut self) -> Vec<u8> {
        self.referee.open().into_bytes()
    }

    fn line(&mut self, line: &[u8]) -> Next {
        let now = Instant::now();
        self.first.get_or_insert(now);
        self.last = Some(now);
        match self.referee.hear(&String::from_utf8_lossy(line)) {
            Heard::Reply(reply) => Next::Write(reply.into_bytes()),
            Heard::Over => Next::Close(Vec::new()),
            Heard::Mistake { stop, message } => {
                self.mistake = Some(message);
                Next::Stop(stop.into_bytes())
            }
        }
    }
}

/// A nim-play test as long as the protocol allows: 100 games of 10 piles up to 10⁹, half of
/// them lost for the first player (the program then waits for the referee's move).
fn long_test(seed: u64) -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::from("100\n");
    for game in 0..100 {
        let mut piles: Vec<u64> = (0..10)
            .map(|_| rng.random_range(1..=1_000_000_000))
            .collect();
        if game % 2 == 0 {
            let rest = piles[..9].iter().fold(0, |x, p| x ^ p);
            if (1..=1_000_000_000).contains(&rest) {
                piles[9] = rest;
            }
        }
        let line: Vec<String> = piles.iter().map(u64::to_string).collect();
        text.push_str(&format!("10 {}\n", line.join(" ")));
    }
    text
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
    });
    if !root || !Path::new("/usr/bin/gcc").exists() {
        eprintln!("SKIPPED play benchmark: needs root and gcc");
        return;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let compile = |source: &Path, name: &str| {
        let binary = dir.path().join(name);
        let built = Command::new("gcc")
            .args(["-O2", "-static", "-o"])
            .arg(&binary)
            .arg(source)
            .status()
            .unwrap();
        assert!(built.success(), "gcc failed on {}", source.display());
        binary
    };
    let pingpong = compile(&here.join("benches/play/pingpong.c"), "pingpong");
    let player = compile(
        &here.join("tests/programs/play/nim-play/perfect.c"),
        "player",
    );

    let catalogue = Catalogue::builtin().unwrap();
    let problem = catalogue.get("nim-play").expect("nim-play is built in");
    let play = problem.play().expect("nim-play is interactive");
    let mut sandbox = Sandbox::start(&supervisor()).expect("supervisor");
    let time_limit_ms = u64::from(problem.spec.time_limit_ms);
    let spec = RunSpec {
        argv: vec!["./player".into()],
        env: vec![],
        files: vec![BoxFile {
            name: "player".into(),
            source: FileSource::Host(player.clone()),
            executable: true,
        }],
        stdin: None,
        stdout_path: None,
        binds: vec![],
        copy_out: None,
        limits: Limits::for_run(time_limit_ms, 256 * 1024),
        kind: RunKind::Program,
        pipes: None,
    };

    let mut bare = Vec::new();
    let mut judged = Vec::new();
    let mut moves_per_run = 0;
    for round in 0..ROUNDS {
        // Alternating keeps the machine's noise alike for both.
        let out = Command::new(&pingpong)
            .arg(BARE_ROUND_TRIPS.to_string())
            .output()
            .unwrap();
        let round_trips: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        bare.push(2.0 * round_trips);

        let input = long_test(round as u64);
        let mut peer = Timed {
            referee: play.referee(&input, interactive::seed_of(&input)).unwrap(),
            first: None,
            last: None,
            mistake: None,
        };
        let done = sandbox
            .interact(&spec, &mut peer, interactive::conversation(time_limit_ms))
            .unwrap();
        assert_eq!(done.report.status, Status::Ok, "{:?}", done.report);
        assert_eq!(peer.mistake, None);
        let moves: usize = peer
            .referee
            .transcript()
            .games
            .iter()
            .map(|g| g.moves.len())
            .sum();
        moves_per_run = moves;
        let seconds = (peer.last.unwrap() - peer.first.unwrap()).as_secs_f64();
        judged.push(moves as f64 / seconds);
    }
    let (bare, judged) = (median(bare), median(judged));
    println!("interactive judging, medians of {ROUNDS} rounds (lines or moves per second):");
    println!("  bare ping-pong, two C processes over pipes: {bare:>10.0} lines/s");
    println!(
        "  nim-play referee vs perfect C player:       {judged:>10.0} moves/s ({moves_per_run} moves per test)"
    );
    println!(
        "  ratio {:.2} (target ≥ 0.50); {} the 100 000 moves/s target",
        judged / bare,
        if judged >= 100_000.0 {
            "meets"
        } else {
            "misses"
        }
    );
}
