//! A deadline burst at full size: 200 students of one course each send 5 programs for an
//! assignment due shortly, all within a minute, from one HTTP client per student; on SQLite with
//! `grundy serve` judging in-process, then on PostgreSQL with `grundy serve --workers 0` and two
//! `grundy worker` processes, the first of which is killed (SIGKILL) once half are judged and
//! started again. The scenario and its checks are in `tests/common/burst.rs`; the CI test
//! `tests/burst.rs` runs the same at class size.
//!
//! Printed per backend: submissions judged per minute (from the first stored to the last judged),
//! and the physical limit measured in the same run: the CPU the sandbox spent on compiles and
//! runs, divided among the cores, as submissions per minute; and their ratio. Any broken invariant
//! (a submission lost, a verdict or score not the expected one, a result written twice, a wrong
//! gradebook total, a queue not drained) is listed and the benchmark exits non-zero.
//!
//! `cargo bench -p grundy-cli --bench burst [-- --mix cpp --backend sqlite]`; `--mix cpp` sends
//! C++ only (the figure to compare C++ judging between branches).

#[allow(dead_code)] // the test uses other parts
#[path = "../tests/common/burst.rs"]
mod burst;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Parser, ValueEnum};

use burst::{Backend, Mix, Scenario};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Backends {
    Sqlite,
    Postgres,
    Both,
}

#[derive(Debug, Parser)]
#[command(about = "A deadline burst against grundy serve and grundy worker")]
struct Args {
    #[arg(long, env = "GRUNDY_BURST_STUDENTS", default_value_t = 200)]
    students: usize,
    /// Submissions per student.
    #[arg(long, env = "GRUNDY_BURST_PER_STUDENT", default_value_t = 5)]
    per_student: usize,
    /// Every submission is sent within this many seconds.
    #[arg(long, env = "GRUNDY_BURST_WINDOW_SECS", default_value_t = 60)]
    window_secs: u64,
    /// `all` (C++, Python, C, Rust, Java, JavaScript), `cpp` (C++ only) or `light` (mostly C and
    /// Python, as the CI test sends).
    #[arg(long, env = "GRUNDY_BURST_MIX", default_value = "all", value_parser = parse_mix)]
    mix: Mix,
    /// The same as `--mix cpp`.
    #[arg(long)]
    cpp_only: bool,
    #[arg(long, env = "GRUNDY_BURST_BACKEND", value_enum, default_value_t = Backends::Both)]
    backend: Backends,
    /// Seconds a claim holds without a heartbeat: how long the killed worker's submissions wait.
    #[arg(long, env = "GRUNDY_BURST_LEASE_SECS", default_value_t = 10)]
    lease_secs: u64,
    /// How long the queue may take to drain, per backend.
    #[arg(long, env = "GRUNDY_BURST_TIMEOUT_MINS", default_value_t = 90)]
    timeout_mins: u64,
    /// Build the precompiled headers into the data directory before the burst, as a service
    /// past its first C++ compile has them (`grundy judge` of one program, not counted).
    #[arg(long)]
    warm: bool,
    /// Added by `cargo bench`.
    #[arg(long, hide = true)]
    bench: bool,
}

fn parse_mix(text: &str) -> Result<Mix, String> {
    Mix::parse(text).ok_or_else(|| format!("{text:?}: expected all, cpp or light"))
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            println!();
            println!("FAILED: invariants broken or a backend could not run (see above)");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("burst benchmark failed: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool> {
    let args = Args::parse();
    let mix = if args.cpp_only { Mix::Cpp } else { args.mix };
    if !is_root() {
        bail!("the sandbox needs root: run the benchmark as root");
    }
    let scenario = Scenario {
        students: args.students,
        per_student: args.per_student,
        window: Duration::from_secs(args.window_secs),
        mix,
        lease_secs: args.lease_secs,
        timeout: Duration::from_secs(args.timeout_mins * 60),
        progress: true,
        warm: args.warm,
    };
    println!(
        "deadline burst: {} students × {} = {} submissions within {} s, mix {} ({}), lease {} s, \
         precompiled headers {}",
        scenario.students,
        scenario.per_student,
        scenario.students * scenario.per_student,
        args.window_secs,
        mix.name(),
        mix.languages().into_iter().collect::<Vec<_>>().join(", "),
        scenario.lease_secs,
        if scenario.warm {
            "built before the burst"
        } else {
            "built during it"
        }
    );
    let mut clean = true;
    let mut report = |backend: &Backend| match burst::run(backend, &scenario) {
        Ok(outcome) => {
            println!();
            for line in outcome.report() {
                println!("{line}");
            }
            clean &= outcome.failures.is_empty();
        }
        Err(error) => {
            println!();
            println!("FAILED {backend:?}: {error:#}");
            clean = false;
        }
    };
    if args.backend != Backends::Postgres {
        report(&Backend::Sqlite);
    }
    if args.backend != Backends::Sqlite {
        match burst::postgres("bench")? {
            Ok(database) => report(&Backend::Postgres(database)),
            Err(reason) => {
                println!();
                println!("SKIPPED postgres: {reason}");
            }
        }
    }
    Ok(clean)
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
    })
}
