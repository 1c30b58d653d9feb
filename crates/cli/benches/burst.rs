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
//!
//! `-- --scenario looping|bad-actor|deadline|class` measures a class's load (issue 30), each
//! figure against a baseline measured in the same run, on SQLite, with PASS or FAIL against its
//! target (any FAIL exits non-zero); `class` runs the three in turn:
//! - `looping`: a program that never ends (Python `while True: pass`, then C++) on `stones`, with
//!   one judge: the wall time from claimed (`judging`) to `done` and the sandbox's CPU, for an
//!   assignment that stops a subtask at its first failure, against one that runs every test
//!   (`run_every_test`, the old behaviour). Target: at most 15 s.
//! - `bad-actor`: `grundy serve --workers 1`; one student queues 10 looping programs, then five
//!   classmates each send a correct program: each classmate's time to verdict (stored to judged)
//!   against the same five sent to an idle queue. Target: every one within 30 s.
//! - `deadline`: 40 students × 2 within 20 s, the `deadline` mix (about 12 % looping programs,
//!   20 % wrong answers, 6 % compile errors, 4 % crashes, the rest accepted), then the same with
//!   the looping programs replaced by accepted ones (`deadline-no-loops`): judged per minute
//!   against the physical limit of the same run, and the accepted submissions' time to verdict,
//!   median and 95th percentile. Target: judged / limit at least 0.9.

#[allow(dead_code)] // the test uses other parts
#[path = "../tests/common/burst.rs"]
mod burst;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::{Parser, ValueEnum};

use burst::{Backend, Mix, Outcome, Scenario, Service};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Which {
    /// The deadline burst (200 × 5 by default), on the backends asked for.
    Burst,
    /// A looping program with and without `run_every_test`.
    Looping,
    /// One student's 10 looping programs ahead of five classmates.
    BadActor,
    /// 40 × 2 in the `deadline` mix, against the same without looping programs.
    Deadline,
    /// `looping`, `bad-actor` and `deadline` in turn.
    Class,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Backends {
    Sqlite,
    Postgres,
    Both,
}

#[derive(Debug, Parser)]
#[command(about = "A deadline burst against grundy serve and grundy worker")]
struct Args {
    #[arg(long, value_enum, default_value_t = Which::Burst)]
    scenario: Which,
    /// Students (the burst: 200; `deadline`: 40).
    #[arg(long, env = "GRUNDY_BURST_STUDENTS")]
    students: Option<usize>,
    /// Submissions per student (the burst: 5; `deadline`: 2).
    #[arg(long, env = "GRUNDY_BURST_PER_STUDENT")]
    per_student: Option<usize>,
    /// Every submission is sent within this many seconds (the burst: 60; `deadline`: 20).
    #[arg(long, env = "GRUNDY_BURST_WINDOW_SECS")]
    window_secs: Option<u64>,
    /// The burst's mix: `all` (C++, Python, C, Rust, Java, JavaScript), `cpp` (C++ only),
    /// `light` (mostly C and Python, as the CI test sends), `deadline` or `deadline-no-loops`.
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
    Mix::parse(text)
        .ok_or_else(|| format!("{text:?}: expected all, cpp, light, deadline or deadline-no-loops"))
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            println!();
            println!("FAILED: a target missed, invariants broken or a run failed (see above)");
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
    if !is_root() {
        bail!("the sandbox needs root: run the benchmark as root");
    }
    match args.scenario {
        Which::Burst => deadline_burst(&args),
        Which::Looping => looping(),
        Which::BadActor => bad_actor(),
        Which::Deadline => class_deadline(&args),
        Which::Class => {
            // Each runs whatever the one before found.
            let looping = looping()?;
            let bad_actor = bad_actor()?;
            let deadline = class_deadline(&args)?;
            println!();
            println!(
                "a class's load: looping {}, bad actor {}, deadline {}",
                pass(looping),
                pass(bad_actor),
                pass(deadline)
            );
            Ok(looping && bad_actor && deadline)
        }
    }
}

fn pass(ok: bool) -> &'static str {
    if ok { "PASS" } else { "FAIL" }
}

fn deadline_burst(args: &Args) -> Result<bool> {
    let mix = if args.cpp_only { Mix::Cpp } else { args.mix };
    let scenario = Scenario {
        students: args.students.unwrap_or(200),
        per_student: args.per_student.unwrap_or(5),
        window: Duration::from_secs(args.window_secs.unwrap_or(60)),
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
        scenario.window.as_secs(),
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

// ---- a class's load (issue 30) -----------------------------------------------------------------

/// The looping programs: Python's `while True: pass`, then C++.
const LOOPING: [&str; 2] = ["python stones endless", "cpp stones endless"];
const LOOPING_TARGET: Duration = Duration::from_secs(15);
/// What the bad actor queues, and how many.
const BAD: &str = "python stones endless";
const BAD_COUNT: usize = 10;
/// The classmates' correct programs, one each.
const CLASSMATES: [&str; 5] = [
    "cpp stones ok",
    "python nim ok",
    "cpp wythoff ok",
    "python wythoff ok",
    "c stones ok",
];
const CLASSMATE_TARGET: Duration = Duration::from_secs(30);
const DEADLINE_TARGET: f64 = 0.9;

/// The machine's load average over 1, 5 and 15 minutes: it is shared, and a loaded machine
/// stretches wall times.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn cpu_text(cpu: Option<Duration>) -> String {
    cpu.map_or("unreadable".to_owned(), |c| format!("{:.1} s", secs(c)))
}

/// The nearest-rank quantile of durations sorted or not.
fn quantile(values: &[Duration], q: f64) -> Duration {
    let mut sorted = values.to_vec();
    sorted.sort();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
    sorted.get(rank - 1).copied().unwrap_or_default()
}

/// Figure 1: a looping program, stopped at each subtask's first failure, against every test run.
fn looping() -> Result<bool> {
    println!();
    println!(
        "1. a looping program on stones, one judge (grundy serve --workers 1, SQLite); baseline: \
         the same program for an assignment with run_every_test (the old behaviour)"
    );
    let service = Service::start(1)?;
    let (teacher, course, students) = service.class(&["looper".to_owned()])?;
    let stopping = service.assignment(&teacher, course, false)?;
    let every = service.assignment(&teacher, course, true)?;
    service.warm_up()?;
    println!("  load average before: {}", load_average());
    let mut ok = true;
    for (n, kind) in LOOPING.iter().enumerate() {
        let mut measured = Vec::new();
        for (label, assignment) in [
            ("stopped at each subtask's first failure", stopping),
            ("every test run (baseline)", every),
        ] {
            let before = service.sandbox_cpu();
            let id = service.submit(
                &students[0],
                Some(assignment),
                kind,
                &format!("try {n}, {label}"),
            )?;
            let seen = service.follow(&[id], Duration::from_secs(900))?.remove(0);
            let cpu = service
                .sandbox_cpu()
                .zip(before)
                .map(|(after, before)| after.saturating_sub(before));
            let wall = seen.done.duration_since(seen.claimed);
            let (test_cpu, ran, tests) = seen.tests();
            println!(
                "  {kind}, {label}: {}, claimed to done {:.1} s (stored to judged {:.1} s); \
                 sandbox CPU {}, tests' CPU {:.1} s ({ran} of {tests} tests run)",
                seen.verdict(),
                secs(wall),
                secs(seen.to_verdict),
                cpu_text(cpu),
                secs(test_cpu),
            );
            if seen.verdict() != "time_limit" {
                println!("  FAIL: expected time_limit");
                ok = false;
            }
            measured.push((wall, cpu));
        }
        let ((wall, cpu), (base_wall, base_cpu)) = (measured[0], measured[1]);
        let met = wall <= LOOPING_TARGET;
        ok &= met;
        println!(
            "  {kind}: {:.1} s of worker time against {:.1} s, ratio {:.2}; sandbox CPU {} \
             against {}{}; target at most {} s: {}",
            secs(wall),
            secs(base_wall),
            secs(wall) / secs(base_wall).max(1e-9),
            cpu_text(cpu),
            cpu_text(base_cpu),
            match (cpu, base_cpu) {
                (Some(c), Some(b)) => format!(", ratio {:.2}", secs(c) / secs(b).max(1e-9)),
                _ => String::new(),
            },
            LOOPING_TARGET.as_secs(),
            pass(met)
        );
    }
    Ok(ok)
}

/// Figure 2: five classmates behind one student's ten looping programs, against an idle queue.
fn bad_actor() -> Result<bool> {
    println!();
    println!(
        "2. a bad actor: grundy serve --workers 1 (SQLite); one student queues {BAD_COUNT} × \
         {BAD:?}, then five classmates each send a correct program ({}); baseline: the same five \
         to an idle queue, first",
        CLASSMATES.join(", ")
    );
    let service = Service::start(1)?;
    let mut names = vec!["bad-actor".to_owned()];
    names.extend((1..=CLASSMATES.len()).map(|n| format!("classmate-{n}")));
    let (teacher, course, tokens) = service.class(&names)?;
    let assignment = service.assignment(&teacher, course, false)?;
    service.warm_up()?;
    let classmates = |round: &str| -> Result<Vec<i64>> {
        CLASSMATES
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                service.submit(
                    &tokens[i + 1],
                    Some(assignment),
                    kind,
                    &format!("classmate {}, {round}", i + 1),
                )
            })
            .collect()
    };
    println!("  load average before: {}", load_average());
    let idle = service.follow(&classmates("idle queue")?, Duration::from_secs(600))?;

    let bad = (0..BAD_COUNT)
        .map(|n| {
            service.submit(
                &tokens[0],
                Some(assignment),
                BAD,
                &format!("bad actor, try {n}"),
            )
        })
        .collect::<Result<Vec<i64>>>()?;
    let deadline = Instant::now() + Duration::from_secs(120);
    while service.submission(bad[0])?["status"] == "queued" {
        if Instant::now() > deadline {
            bail!("the bad actor's first program was not claimed within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let behind = service.follow(
        &classmates("behind the bad actor")?,
        Duration::from_secs(1800),
    )?;
    let bad_done = bad
        .iter()
        .map(|&id| service.submission(id))
        .collect::<Result<Vec<_>>>()?
        .iter()
        .filter(|d| d["status"] == "done")
        .count();

    let mut ok = true;
    for (i, kind) in CLASSMATES.iter().enumerate() {
        let expected = Service::expected_verdict(kind).unwrap_or("?");
        let right = idle[i].verdict() == expected && behind[i].verdict() == expected;
        ok &= right;
        println!(
            "  classmate {} ({kind}): idle {:.1} s, behind the bad actor {:.1} s ({}, {}{})",
            i + 1,
            secs(idle[i].to_verdict),
            secs(behind[i].to_verdict),
            idle[i].verdict(),
            behind[i].verdict(),
            if right {
                String::new()
            } else {
                format!("; FAIL: expected {expected}")
            }
        );
    }
    let times = |seen: &[burst::Followed]| seen.iter().map(|f| f.to_verdict).collect::<Vec<_>>();
    let (idle, behind) = (times(&idle), times(&behind));
    let (max, median) = (quantile(&behind, 1.0), quantile(&behind, 0.5));
    let (base_max, base_median) = (quantile(&idle, 1.0), quantile(&idle, 0.5));
    let met = max <= CLASSMATE_TARGET;
    ok &= met;
    println!(
        "  time to verdict behind the bad actor: max {:.1} s, median {:.1} s; idle queue: max \
         {:.1} s, median {:.1} s; ratios {:.2} and {:.2}; the bad actor's programs done by then: \
         {bad_done} of {BAD_COUNT}; target every one within {} s: {}",
        secs(max),
        secs(median),
        secs(base_max),
        secs(base_median),
        secs(max) / secs(base_max).max(1e-9),
        secs(median) / secs(base_median).max(1e-9),
        CLASSMATE_TARGET.as_secs(),
        pass(met)
    );
    Ok(ok)
}

/// Figure 3: a class's deadline in the `deadline` mix, against the same without looping programs.
fn class_deadline(args: &Args) -> Result<bool> {
    let scenario = |mix| Scenario {
        students: args.students.unwrap_or(40),
        per_student: args.per_student.unwrap_or(2),
        window: Duration::from_secs(args.window_secs.unwrap_or(20)),
        mix,
        lease_secs: args.lease_secs,
        timeout: Duration::from_secs(args.timeout_mins * 60),
        progress: true,
        warm: args.warm,
    };
    let first = scenario(Mix::Deadline);
    println!();
    println!(
        "3. a class's deadline: {} students × {} within {} s, mix {} ({}), SQLite with a judge \
         per core; baseline: mix {} (each looping program replaced by an accepted one)",
        first.students,
        first.per_student,
        first.window.as_secs(),
        Mix::Deadline.name(),
        Mix::Deadline
            .languages()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", "),
        Mix::DeadlineNoLoops.name(),
    );
    println!("  load average before: {}", load_average());
    let mut ok = true;
    let mut run = |mix| -> Result<Outcome> {
        let outcome = burst::run(&Backend::Sqlite, &scenario(mix))?;
        println!();
        println!("  mix {}:", mix.name());
        for line in outcome.report() {
            println!("  {line}");
        }
        ok &= outcome.failures.is_empty();
        Ok(outcome)
    };
    let loops = run(Mix::Deadline)?;
    let calm = run(Mix::DeadlineNoLoops)?;
    let accepted = |o: &Outcome| {
        o.turnaround
            .iter()
            .filter(|(verdict, _)| *verdict == "accepted")
            .map(|(_, t)| *t)
            .collect::<Vec<_>>()
    };
    let (with, without) = (accepted(&loops), accepted(&calm));
    println!();
    for (o, label) in [(&loops, "with looping programs"), (&calm, "baseline, none")] {
        println!(
            "  {label}: judged {:.1} per minute; physical limit {} per minute (all sandboxed \
             CPU {}) and {} (compiles and tests run, {}); machine busy {}",
            o.judged_per_minute(),
            o.limit_per_minute()
                .map_or("unknown".to_owned(), |l| format!("{l:.1}")),
            o.limit_per_minute().map_or("?".to_owned(), |l| format!(
                "ratio {:.2}",
                o.judged_per_minute() / l
            )),
            o.needed_limit_per_minute()
                .map_or("unknown".to_owned(), |l| format!("{l:.1}")),
            o.needed_limit_per_minute()
                .map_or("?".to_owned(), |l| format!(
                    "ratio {:.2}",
                    o.judged_per_minute() / l
                )),
            o.machine_busy.map_or("unknown".to_owned(), |b| format!(
                "{:.0} of {:.0} CPU-seconds",
                secs(b),
                secs(o.busy_window) * o.cores as f64
            )),
        );
    }
    let (p50, p95) = (quantile(&with, 0.5), quantile(&with, 0.95));
    let (base_p50, base_p95) = (quantile(&without, 0.5), quantile(&without, 0.95));
    println!(
        "  accepted submissions' time to verdict: median {:.1} s, 95th percentile {:.1} s ({} \
         accepted); without looping programs: {:.1} s, {:.1} s ({} accepted); ratios {:.2} and \
         {:.2}",
        secs(p50),
        secs(p95),
        with.len(),
        secs(base_p50),
        secs(base_p95),
        without.len(),
        secs(p50) / secs(base_p50).max(1e-9),
        secs(p95) / secs(base_p95).max(1e-9),
    );
    let ratio = loops
        .needed_limit_per_minute()
        .map(|l| loops.judged_per_minute() / l);
    let met = ratio.is_some_and(|r| r >= DEADLINE_TARGET);
    ok &= met;
    println!(
        "  judged per minute / the physical limit of what verdicts need: {}; target at least \
         {DEADLINE_TARGET}: {}",
        ratio.map_or("unknown".to_owned(), |r| format!("{r:.2}")),
        pass(met)
    );
    Ok(ok)
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find(|l| l.starts_with("Uid:"))
            .is_some_and(|l| l.split_whitespace().nth(2) == Some("0"))
    })
}
