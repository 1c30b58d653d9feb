//! `grundy run`, `grundy judge` and `grundy doctor`: the sandbox and the judging engine from the
//! terminal.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use comfy_table::{Cell, Color, Table, presets::UTF8_FULL_CONDENSED};
use grundy_judge::explain::Budget;
use grundy_judge::{Caches, Event, Group, Judge, Judgement, Languages, Options, Verdict};
use grundy_problems::play::Side;
use grundy_problems::{Catalogue, Problem};
use grundy_sandbox::{
    Limits, RunKind, RunReport, Sandbox, SandboxError, Status, SupervisorCommand,
};
use serde_json::json;

/// How to isolate, shared by every command that runs programs.
#[derive(Debug, Clone, Args)]
pub struct SandboxArgs {
    /// Run programs without namespaces, cgroups and per-run uids when the machine cannot give
    /// them (a laptop without root). Programs are then NOT safely contained: development only.
    #[arg(long, env = "GRUNDY_ALLOW_WEAK_ISOLATION", global = true)]
    pub allow_weak_isolation: bool,
    /// Where cgroup v2 runs go (default: <cgroup2 mount>/grundy). Ignored on cgroup v1.
    #[arg(long, env = "GRUNDY_CGROUP_PARENT", global = true)]
    pub cgroup_parent: Option<PathBuf>,
    /// A language table replacing the built-in one (TOML, same layout).
    #[arg(long, env = "GRUNDY_LANGUAGES", global = true)]
    pub languages: Option<PathBuf>,
    /// Compile every program from scratch: no precompiled headers, no cache of compiled
    /// programs (to compare, or to rule the caches out).
    #[arg(long, env = "GRUNDY_NO_COMPILE_CACHE", global = true,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub no_compile_cache: bool,
    /// The cap on the cache of compiled programs, in MiB; the least recently used go first.
    #[arg(long, env = "GRUNDY_COMPILE_CACHE_MIB", global = true, default_value_t = Caches::DEFAULT_COMPILED_MAX_BYTES >> 20)]
    pub compile_cache_mib: u64,
}

impl SandboxArgs {
    pub(crate) fn supervisor(&self) -> Result<SupervisorCommand> {
        let program = std::env::current_exe().context("locating the grundy binary")?;
        let mut args = vec!["sandbox-supervisor".to_owned()];
        if self.allow_weak_isolation {
            args.push("--allow-weak".into());
        }
        if let Some(parent) = &self.cgroup_parent {
            args.push("--cgroup-parent".into());
            args.push(parent.display().to_string());
        }
        Ok(SupervisorCommand { program, args })
    }

    fn start(&self) -> Result<Sandbox> {
        match Sandbox::start(&self.supervisor()?) {
            Ok(sandbox) => {
                if sandbox.is_weak() {
                    eprintln!(
                        "warning: WEAK ISOLATION: programs run without namespaces, cgroups or a separate \
                         uid (--allow-weak-isolation); never use this for programs you do not trust"
                    );
                }
                Ok(sandbox)
            }
            Err(SandboxError::Refused(reason)) => bail!(
                "this machine cannot isolate programs: {reason}.\n\
                 Run `grundy doctor` for details. To run anyway without isolation (development \
                 only), pass --allow-weak-isolation or set GRUNDY_ALLOW_WEAK_ISOLATION=1."
            ),
            Err(e) => Err(e.into()),
        }
    }

    /// The judge's caches under `dir`, as the options say.
    pub(crate) fn caches(&self, dir: PathBuf) -> Caches {
        Caches {
            dir,
            compile: !self.no_compile_cache,
            compiled_max_bytes: self.compile_cache_mib << 20,
        }
    }

    pub(crate) fn judge(&self, cache: PathBuf) -> Result<Judge> {
        let languages = Languages::load(self.languages.as_deref())?;
        Ok(Judge::new(self.start()?, languages, self.caches(cache))?)
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Source file.
    pub file: PathBuf,
    /// Language id or alias, in any case (`grundy doctor` lists them: `cpp` is the default
    /// C++); guessed from the extension when absent.
    #[arg(long)]
    pub lang: Option<String>,
    #[arg(long, default_value_t = 2000)]
    pub time_limit: u64,
    /// Memory limit in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory_limit: u64,
    /// Print one JSON object instead of the program's output and a summary.
    #[arg(long)]
    pub json: bool,
    /// Where precompiled headers and compiled programs are kept between runs (default
    /// `$XDG_CACHE_HOME/grundy`, else `~/.cache/grundy`).
    #[arg(long, env = "GRUNDY_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
}

pub fn run(sandbox: &SandboxArgs, args: RunArgs) -> Result<ExitCode> {
    let source =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let mut judge = sandbox.judge(args.cache_dir.unwrap_or_else(default_cache_dir))?;
    let language = judge
        .languages()
        .choose(args.lang.as_deref(), &args.file)?
        .clone();
    let input = tempfile::NamedTempFile::new()?;
    // Readable by the run's uid too, so programs may reopen it as /dev/stdin.
    std::fs::set_permissions(
        input.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o644),
    )?;
    std::io::copy(&mut std::io::stdin().lock(), &mut input.as_file())?;
    let compiled = judge.compile(&language, &source)?;
    if !compiled.result.ok {
        if args.json {
            // `grundy run` reports a run's status; a program that does not compile has the verdict.
            let doc = json!({ "status": Verdict::CompilationError, "compile": compiled.result });
            println!("{}", serde_json::to_string_pretty(&doc)?);
        } else {
            eprintln!("compilation error:\n{}", compiled.result.message);
        }
        return Ok(ExitCode::FAILURE);
    }
    let limits = Limits::for_run(args.time_limit, args.memory_limit * 1024);
    let report = judge.run(&language, &compiled, Some(input.path()), None, limits)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&run_json(&report))?);
    } else {
        std::io::stdout().write_all(&report.stdout)?;
        std::io::stderr().write_all(&report.stderr)?;
        eprintln!("{}", summary(&report));
    }
    Ok(if report.status == Status::Ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn run_json(report: &RunReport) -> serde_json::Value {
    json!({
        "status": report.status.as_str(),
        "exit_code": report.exit_code,
        "signal": report.signal,
        "cpu_ms": report.cpu_ms,
        "wall_ms": report.wall_ms,
        "memory_kib": report.memory_kib,
        "detail": report.detail,
        "stdout": String::from_utf8_lossy(&report.stdout),
        "stderr": String::from_utf8_lossy(&report.stderr),
    })
}

fn summary(report: &RunReport) -> String {
    let mut parts = vec![report.status.as_str().to_owned()];
    if let Some(code) = report.exit_code {
        parts.push(format!("exit code {code}"));
    }
    if let Some(signal) = &report.signal {
        parts.push(signal.clone());
    }
    if let Some(detail) = &report.detail {
        parts.push(detail.clone());
    }
    parts.push(format!(
        "{} ms CPU, {} ms wall, {} KiB",
        report.cpu_ms, report.wall_ms, report.memory_kib
    ));
    parts.join(" · ")
}

#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Source file.
    pub file: PathBuf,
    #[arg(long)]
    pub problem: String,
    /// Language id or alias, in any case (`grundy doctor` lists them: `cpp` is the default
    /// C++); guessed from the extension when absent.
    #[arg(long)]
    pub lang: Option<String>,
    /// Print one JSON document instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Stop each subtask at its first failing test.
    #[arg(long)]
    pub stop_at_first_failure: bool,
    /// On a wrong answer or runtime error, find the smallest game the program gets wrong, why
    /// the right answer is right, and the misconception behind it.
    #[arg(long)]
    pub explain: bool,
    /// Load problems from this folder instead of the built-in catalogue.
    #[arg(long, env = "GRUNDY_PROBLEMS_DIR")]
    pub problems_dir: Option<PathBuf>,
    /// Where generated test sets (`tests/`), precompiled headers and compiled programs are kept
    /// between runs (default `$XDG_CACHE_HOME/grundy`, else `~/.cache/grundy`).
    #[arg(long, env = "GRUNDY_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// The problem `slug` of `catalogue`, or an error that says where to look.
pub(crate) fn named_problem<'a>(catalogue: &'a Catalogue, slug: &str) -> Result<&'a Problem> {
    catalogue
        .get(slug)
        .with_context(|| format!("no problem named {slug:?} (see `grundy problems list`)"))
}

/// A source file's bytes.
pub(crate) fn read_source(file: &Path) -> Result<Vec<u8>> {
    let mut source = Vec::new();
    std::fs::File::open(file)
        .and_then(|mut f| f.read_to_end(&mut source))
        .with_context(|| format!("reading {}", file.display()))?;
    Ok(source)
}

/// `$XDG_CACHE_HOME/grundy`, else `~/.cache/grundy`, else the temp directory.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("grundy")
}

pub fn judge(sandbox: &SandboxArgs, args: JudgeArgs) -> Result<ExitCode> {
    let catalogue = crate::setup::load_catalogue(args.problems_dir.as_deref())?;
    let problem = named_problem(&catalogue, &args.problem)?;
    let source = read_source(&args.file)?;
    let mut judge = sandbox.judge(args.cache_dir.unwrap_or_else(default_cache_dir))?;
    let language = judge
        .languages()
        .choose(args.lang.as_deref(), &args.file)?
        .clone();
    let options = Options {
        stop_subtask_at_first_failure: args.stop_at_first_failure,
        // The problems are on this machine already: every game is the user's to see.
        reveal_tests: true,
    };
    let quiet = args.json;
    let mut progress = |event: &Event| {
        if quiet {
            return;
        }
        match event {
            Event::Compiled(c) if !c.ok => eprintln!("compilation error"),
            Event::Compiled(_) => eprintln!(
                "compiled; running {} tests",
                problem.samples.len() + problem.test_count()
            ),
            Event::Test(t) => eprint!(
                "{}",
                if t.verdict == Verdict::Accepted {
                    "."
                } else {
                    "x"
                }
            ),
            Event::Subtask(s) => eprintln!(" {s}"),
        }
    };
    let judgement = judge.judge(problem, &language, &source, options, &mut progress)?;
    let explanation = if args.explain
        && matches!(
            judgement.verdict,
            Verdict::WrongAnswer | Verdict::RuntimeError
        ) {
        judge.explain(problem, &language, &source, Budget::default())?
    } else {
        None
    };
    if args.json {
        let mut doc = serde_json::to_value(&judgement)?;
        if args.explain {
            doc["explanation"] = serde_json::to_value(&explanation)?;
        }
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_judgement(&judgement);
        if let Some(explanation) = &explanation {
            println!();
            crate::explaining::print_explanation(explanation);
        } else if args.explain && judgement.verdict != Verdict::Accepted {
            println!(
                "(no explanation: only wrong answers and runtime errors on problems whose games are listed get one)"
            );
        }
    }
    Ok(if judgement.verdict == Verdict::Accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn verdict_cell(verdict: Verdict) -> Cell {
    let colour = match verdict {
        Verdict::Accepted => Color::Green,
        Verdict::Skipped => Color::Grey,
        _ => Color::Red,
    };
    Cell::new(verdict.as_str()).fg(colour)
}

fn print_judgement(j: &Judgement) {
    if !j.compile.ok {
        println!("{}", j.compile.message);
        println!("{}: compilation_error, score 0/{}", j.problem, j.max_score);
        return;
    }
    let mut tests = Table::new();
    tests.load_preset(UTF8_FULL_CONDENSED).set_header([
        "group",
        "test",
        "verdict",
        "CPU ms",
        "wall ms",
        "memory KiB",
        "message",
    ]);
    // Subtasks as the statement numbers them; samples and personal tests by their names.
    let group = |name: &str| {
        j.subtasks
            .iter()
            .position(|s| s.name == name)
            .map_or_else(|| name.to_owned(), |s| Group::Subtask(s + 1).title())
    };
    for t in &j.tests {
        tests.add_row(vec![
            Cell::new(group(&t.name.group)),
            Cell::new(t.name.index),
            verdict_cell(t.verdict),
            Cell::new(t.cpu_ms),
            Cell::new(t.wall_ms),
            Cell::new(t.memory_kib),
            // The problems are on this machine: the message with its quotes where there are any.
            Cell::new(t.detail.as_deref().or(t.message.as_deref()).unwrap_or("")),
        ]);
    }
    println!("{tests}");
    let mut subtasks = Table::new();
    subtasks
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(["subtask", "verdict", "score"]);
    for s in &j.subtasks {
        subtasks.add_row(vec![
            Cell::new(&s.label),
            verdict_cell(s.verdict),
            Cell::new(s.outcome()),
        ]);
    }
    println!("{subtasks}");
    print_games(j);
    println!(
        "{} ({}, v{}): {} — score {}/{}",
        j.problem,
        j.language,
        j.version,
        j.verdict.as_str(),
        j.score,
        j.max_score
    );
}

/// How many games of one test the table lists; the rest, all won, are counted.
const GAMES_LISTED: usize = 12;

/// An interactive problem's games, test by test: where each started, the side taken and how it
/// ended. A test that failed lists its games up to the mistake.
fn print_games(j: &Judgement) {
    for t in &j.tests {
        let Some(transcript) = &t.transcript else {
            continue;
        };
        let mut table = Table::new();
        table
            .load_preset(UTF8_FULL_CONDENSED)
            .set_header(["game", "start", "value", "side", "moves", "result"]);
        let games = &transcript.games;
        // A failed test's last game is its mistake: always listed.
        let listed = if t.verdict == Verdict::Accepted {
            games.len().min(GAMES_LISTED)
        } else {
            games.len()
        };
        for (n, game) in games.iter().enumerate().take(listed) {
            let side = match game.side {
                Some(Side::First) => "first",
                Some(Side::Second) => "second",
                None => "—",
            };
            let value = match (game.start_value.win, game.start_value.grundy) {
                (true, Some(g)) => format!("win ({g})"),
                (false, Some(g)) => format!("lose ({g})"),
                (true, None) => "win".into(),
                (false, None) => "lose".into(),
            };
            let result = match &game.mistake {
                Some(mistake) => Cell::new(mistake).fg(Color::Red),
                None if n + 1 == games.len() && t.verdict != Verdict::Accepted => {
                    let message = t.detail.as_deref().or(t.message.as_deref());
                    Cell::new(message.unwrap_or("unfinished")).fg(Color::Red)
                }
                None => Cell::new("won").fg(Color::Green),
            };
            table.add_row(vec![
                Cell::new(n + 1),
                Cell::new(&game.start),
                Cell::new(value),
                Cell::new(side),
                Cell::new(game.moves.len()),
                result,
            ]);
        }
        println!("{} #{}: {} games", t.name.group, t.name.index, games.len());
        println!("{table}");
        if listed < games.len() {
            println!("… and {} more games, all won", games.len() - listed);
        }
    }
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[arg(long)]
    pub json: bool,
}

/// What isolation the machine gives and which languages it has; exits non-zero unless a program
/// can be run fully isolated.
pub fn doctor(sandbox: &SandboxArgs, args: DoctorArgs) -> Result<ExitCode> {
    let isolation = grundy_sandbox::doctor::inspect(sandbox.cgroup_parent.as_deref());
    let languages = Languages::load(sandbox.languages.as_deref())?;
    let strict = SandboxArgs {
        allow_weak_isolation: false,
        ..sandbox.clone()
    };
    let self_test = self_test(&strict);
    let problems = isolation.shortcomings();
    if args.json {
        let doc = json!({
            "isolation": isolation,
            "shortcomings": problems,
            "self_test": self_test.as_ref().map(|(report, _)| report).map_err(|e| format!("{e:#}")),
            "fast_migrations": self_test.as_ref().is_ok_and(|(_, fast)| *fast),
            "languages": languages.available().iter().map(|l| json!({"id": l.id(), "name": l.spec.name, "aliases": l.spec.aliases, "version": l.version()})).collect::<Vec<_>>(),
            "default_cpp": languages.default_cpp().map(|cpp| json!({"id": cpp.id, "name": cpp.name})),
            "unavailable": languages.unavailable().iter().map(|u| json!({"id": u.id, "reason": u.reason})).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        let yes = |b: bool| if b { "yes" } else { "NO" };
        println!("root:        {}", yes(isolation.root));
        let ns: Vec<String> = isolation
            .namespaces
            .iter()
            .map(|(n, ok)| format!("{n} {}", yes(*ok)))
            .collect();
        println!("namespaces:  {}", ns.join(", "));
        match &isolation.cgroups {
            Ok(mode) => println!("cgroups:     {mode}"),
            Err(reason) => println!("cgroups:     NO — {reason}"),
        }
        println!("seccomp:     {}", yes(isolation.seccomp));
        match isolation.landlock_abi {
            Some(abi) => println!("landlock:    ABI {abi}"),
            None => println!("landlock:    not available (optional)"),
        }
        match &self_test {
            Ok((report, fast)) => {
                println!("self-test:   isolated run ok ({} ms wall)", report.wall_ms);
                if *fast {
                    println!("migrations:  quick (cgroup favordynmods)");
                } else {
                    println!(
                        "migrations:  each run waits for an RCU grace period (no favordynmods: \
                         Linux 6.2+)"
                    );
                }
            }
            Err(e) => println!("self-test:   FAILED — {e:#}"),
        }
        // Which standard `--lang cpp` compiles with, the first thing a teacher asks.
        match languages.default_cpp() {
            Some(cpp) if languages.unavailable().iter().any(|u| u.id == cpp.id) => {
                println!("default C++: {} — {}, unavailable here", cpp.id, cpp.name)
            }
            Some(cpp) => println!("default C++: {} — {}", cpp.id, cpp.name),
            None => println!("default C++: none (no language is named `cpp`)"),
        }
        println!("languages:");
        for l in languages.available() {
            let aliases = match l.spec.aliases.as_slice() {
                [] => String::new(),
                aliases => format!(" (also {})", aliases.join(", ")),
            };
            println!(
                "  {:<11} {} — {}{aliases}",
                l.id(),
                l.spec.name,
                l.version().unwrap_or("?")
            );
        }
        for u in &languages.unavailable() {
            println!("  {:<11} unavailable: {}", u.id, u.reason);
        }
        if !problems.is_empty() || self_test.is_err() {
            println!(
                "\nIsolation is incomplete: judging refuses to run unless --allow-weak-isolation is given."
            );
        }
    }
    Ok(if problems.is_empty() && self_test.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One real run of `/bin/true` through a fully isolating supervisor, and whether that
/// supervisor got quick cgroup migrations.
fn self_test(sandbox: &SandboxArgs) -> Result<(RunReport, bool)> {
    let mut sandbox = sandbox.start()?;
    let report = sandbox.run(&grundy_sandbox::RunSpec {
        argv: vec!["/bin/true".into()],
        env: vec![],
        files: vec![],
        stdin: None,
        stdout_path: None,
        binds: vec![],
        copy_out: None,
        limits: Limits::for_run(1000, 64 * 1024),
        kind: RunKind::Program,
        pipes: None,
    })?;
    if report.status != Status::Ok {
        bail!(
            "{} {}",
            report.status.as_str(),
            report.detail.as_deref().unwrap_or("")
        );
    }
    Ok((report, sandbox.has_fast_migrations()))
}
