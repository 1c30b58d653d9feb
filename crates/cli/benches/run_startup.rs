//! The cost of a one-shot `grundy run`: a Python program that does nothing, run through
//! `grundy run` (start the supervisor, byte-compile in the box, run in the box, report) against
//! the same file run bare by `/usr/bin/python3`, interleaved in one process on a noisy machine and
//! printed as a ratio of medians (target ≤ 3×). Two figures: each program new (its byte-compile
//! runs), and the same program again (its compilation comes from the cache).
//!
//! Needs root and python3; says so and exits otherwise.
//! `cargo bench -p grundy-cli --bench run_startup`.

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 40;
const PYTHON: &str = "/usr/bin/python3";

fn timed(command: &mut Command) -> Duration {
    let started = Instant::now();
    let status = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("the command starts");
    let elapsed = started.elapsed();
    assert!(
        status.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    elapsed
}

fn grundy_run(cache: &Path, file: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .arg("run")
        .arg("--cache-dir")
        .arg(cache)
        .arg(file)
        .env_remove("GRUNDY_ALLOW_WEAK_ISOLATION")
        .env_remove("GRUNDY_NO_COMPILE_CACHE")
        .env_remove("GRUNDY_LANGUAGES");
    command
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() -> ExitCode {
    // /proc/self belongs to the process's effective uid.
    let root =
        std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    if !root {
        println!("run_startup: skipped, the sandbox needs root");
        return ExitCode::SUCCESS;
    }
    if !Path::new(PYTHON).exists() {
        println!("run_startup: skipped, no {PYTHON}");
        return ExitCode::SUCCESS;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = dir.path().join("cache");
    let same = dir.path().join("same.py");
    std::fs::write(&same, "pass\n").expect("a program");
    // Warm the page cache and the compilation cache for `same.py`.
    timed(&mut grundy_run(&cache, &same));
    timed(Command::new(PYTHON).arg(&same));

    let (mut bare, mut fresh, mut again) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let new = dir.path().join(format!("new{round}.py"));
        std::fs::write(&new, format!("# program {round}\npass\n")).expect("a program");
        bare.push(timed(Command::new(PYTHON).arg(&same)));
        fresh.push(timed(&mut grundy_run(&cache, &new)));
        again.push(timed(&mut grundy_run(&cache, &same)));
    }
    let (bare, fresh, again) = (median(bare), median(fresh), median(again));
    println!("one-shot `grundy run` of a do-nothing Python program, medians of {ROUNDS}:");
    println!("  bare {PYTHON}:                   {:7.1} ms", ms(bare));
    println!(
        "  grundy run, a new program:         {:7.1} ms  {:.2}× bare (target ≤ 3×)",
        ms(fresh),
        fresh.as_secs_f64() / bare.as_secs_f64()
    );
    println!(
        "  grundy run, the same program again: {:7.1} ms  {:.2}× bare",
        ms(again),
        again.as_secs_f64() / bare.as_secs_f64()
    );
    ExitCode::SUCCESS
}
