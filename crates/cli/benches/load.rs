//! Load on the HTTP API of a local `grundy serve`, measured side by side in one run on a noisy
//! shared machine. C concurrent clients (keep-alive connections), each sending its next request as
//! soon as the last one is answered, for D seconds after a short warm-up, against:
//! 1. `GET /api/v1/health` (a trivial handler with one small query: the baseline), run first and
//!    again last so drift over the run shows;
//! 2. `GET /api/v1/problems`, the catalogue list;
//! 3. `GET /api/v1/problems/stones`, one statement;
//! 4. `GET /problems` and `GET /problems/stones`, the same as web pages (askama templates, no
//!    user: the solved marks' query is not made);
//! 5. `POST /api/v1/submissions` of a small C++ solution: the server runs with `--workers 0`, so
//!    only authentication, validation and queueing are measured, never judging.
//!
//! Each endpoint's rate is printed with p50/p99 latency and as a ratio to the health baseline. Any
//! answer outside 2xx, and any transport error, is a failure: counted, shown with a sample body, and
//! the benchmark exits non-zero. It runs on SQLite (a temporary data directory) and on PostgreSQL
//! (a scratch database, created and dropped through psql as the tests do, at
//! `GRUNDY_TEST_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/postgres; skipped when
//! unreachable).
//!
//! `cargo bench -p grundy-cli --bench load [-- --concurrency 32 --seconds 5]`, or the environment
//! variables `GRUNDY_BENCH_CONCURRENCY` and `GRUNDY_BENCH_SECONDS` (flags win).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

const DEFAULT_CONCURRENCY: usize = 32;
const DEFAULT_SECONDS: f64 = 5.0;
const WARMUP: Duration = Duration::from_millis(500);
/// Submitting clients take these accounts in turn, so a per-user limit is not one hot key.
const USERS: usize = 4;
/// High enough never to bite: acceptance is measured, not the limiter.
const SUBMISSION_RATE: &str = "1000000";
const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const SOURCE: &str = include_str!("../tests/programs/solutions/stones/ok.cpp");
const HEALTH: &str = "GET /api/v1/health";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            println!();
            println!("FAILED: some requests failed or a backend could not be measured (see above)");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("load benchmark failed: {error:#}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Settings {
    concurrency: usize,
    duration: Duration,
}

fn settings() -> Result<Settings> {
    let mut concurrency = std::env::var("GRUNDY_BENCH_CONCURRENCY").ok();
    let mut seconds = std::env::var("GRUNDY_BENCH_SECONDS").ok();
    // `cargo bench` adds `--bench`; anything else unknown (a filter) is ignored with a note.
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if let Some(v) = arg.strip_prefix("--concurrency=") {
            concurrency = Some(v.to_owned());
        } else if arg == "--concurrency" {
            concurrency = Some(args.next().context("--concurrency needs a number")?);
        } else if let Some(v) = arg.strip_prefix("--seconds=") {
            seconds = Some(v.to_owned());
        } else if arg == "--seconds" {
            seconds = Some(args.next().context("--seconds needs a number")?);
        } else if arg != "--bench" {
            eprintln!("note: ignoring the argument {arg:?}");
        }
    }
    let concurrency = match concurrency {
        None => DEFAULT_CONCURRENCY,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|c| *c > 0)
            .with_context(|| format!("concurrency {v:?}: expected a whole number above 0"))?,
    };
    let seconds = match seconds {
        None => DEFAULT_SECONDS,
        Some(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0 && *s < 3600.0)
            .with_context(|| format!("seconds {v:?}: expected a number above 0"))?,
    };
    Ok(Settings {
        concurrency,
        duration: Duration::from_secs_f64(seconds),
    })
}

fn run() -> Result<bool> {
    let settings = settings()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the client runtime")?;
    let rate_flag = serve_takes_submission_rate()?;
    println!(
        "load on the HTTP API: {} clients, {:.1} s per endpoint after {} ms of warm-up; \
         `grundy serve --workers 0` (submissions are queued, never judged)",
        settings.concurrency,
        settings.duration.as_secs_f64(),
        WARMUP.as_millis()
    );
    if !rate_flag {
        println!(
            "note: `grundy serve` has no --submission-rate; GRUNDY_SUBMISSION_RATE={SUBMISSION_RATE} \
             is set in its environment instead"
        );
    }
    let mut clean = true;

    let sqlite_dir = tempfile::tempdir().context("a temporary data directory")?;
    let sqlite = Backend {
        name: "SQLite (data directory in a temporary directory)",
        data_dir: sqlite_dir.path(),
        database_url: None,
    };
    match bench_backend(&runtime, settings, &sqlite, rate_flag) {
        Ok(ok) => clean &= ok,
        Err(error) => {
            println!("FAILED SQLite: {error:#}");
            clean = false;
        }
    }
    drop(sqlite_dir);

    match postgres() {
        Ok(Postgres::Unreachable(reason)) => {
            println!();
            println!("SKIPPED postgres: {reason}");
        }
        Ok(Postgres::Ready(database)) => {
            let data_dir = tempfile::tempdir().context("a temporary data directory")?;
            let name = format!("PostgreSQL (scratch database {})", database.name);
            let backend = Backend {
                name: &name,
                data_dir: data_dir.path(),
                database_url: Some(database.url.clone()),
            };
            // The server is stopped inside bench_backend, before the database is dropped.
            match bench_backend(&runtime, settings, &backend, rate_flag) {
                Ok(ok) => clean &= ok,
                Err(error) => {
                    println!("FAILED postgres: {error:#}");
                    clean = false;
                }
            }
            drop(database);
        }
        Err(error) => {
            println!();
            println!("FAILED postgres: {error:#}");
            clean = false;
        }
    }
    Ok(clean)
}

/// `grundy` with the environment that could redirect it removed.
fn grundy<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(args)
        .env_remove("GRUNDY_DATABASE_URL")
        .env_remove("GRUNDY_DATA_DIR")
        .env_remove("GRUNDY_LISTEN")
        .env_remove("GRUNDY_WORKERS")
        .env_remove("GRUNDY_PROBLEMS_DIR")
        .env("GRUNDY_SUBMISSION_RATE", SUBMISSION_RATE)
        // Per-request tracing is at debug level; warnings and errors still show.
        .env("GRUNDY_LOG", "warn");
    command
}

/// Whether this build of `grundy serve` has the per-user submission limit's flag.
fn serve_takes_submission_rate() -> Result<bool> {
    let out = grundy(["serve", "--help"])
        .output()
        .context("running grundy serve --help")?;
    if !out.status.success() {
        bail!(
            "grundy serve --help failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).contains("--submission-rate"))
}

#[derive(Debug)]
struct Backend<'a> {
    name: &'a str,
    data_dir: &'a Path,
    database_url: Option<String>,
}

impl Backend<'_> {
    fn data_args(&self) -> Result<Vec<String>> {
        let dir = self
            .data_dir
            .to_str()
            .context("the temporary directory's path is not UTF-8")?;
        let mut args = vec!["--data-dir".to_owned(), dir.to_owned()];
        if let Some(url) = &self.database_url {
            args.push("--database-url".to_owned());
            args.push(url.clone());
        }
        Ok(args)
    }
}

/// `grundy admin create-user … --print-token`: the last line printed is the token.
fn create_user(data_args: &[String], name: &str) -> Result<String> {
    let mut args: Vec<String> = [
        "admin",
        "create-user",
        "--name",
        name,
        "--role",
        "student",
        "--print-token",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend_from_slice(data_args);
    let out = grundy(&args)
        .output()
        .context("running grundy admin create-user")?;
    if !out.status.success() {
        bail!(
            "grundy admin create-user failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let token = stdout.lines().last().unwrap_or("").trim().to_owned();
    if !token.starts_with("grundy_") {
        bail!("grundy admin create-user printed no token last: {stdout:?}");
    }
    Ok(token)
}

/// A `grundy serve` process, killed when dropped however the benchmark ends.
#[derive(Debug)]
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(data_args: &[String], rate_flag: bool) -> Result<Server> {
        let mut args: Vec<String> = ["serve", "--listen", "127.0.0.1:0", "--workers", "0"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        if rate_flag {
            args.push("--submission-rate".to_owned());
            args.push(SUBMISSION_RATE.to_owned());
        }
        args.extend_from_slice(data_args);
        let mut child = grundy(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting grundy serve")?;
        let stdout = child.stdout.take();
        // The guard exists from here on: any early return kills the process.
        let mut server = Server {
            child,
            url: String::new(),
        };
        let stdout = stdout.context("grundy serve's standard output")?;
        let (tx, rx) = mpsc::channel();
        // Reads the address, then keeps the pipe drained until the process ends.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(url) = line.strip_prefix("listening on ") {
                    let _ = tx.send(url.trim().to_owned());
                }
            }
        });
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => server.url = url,
            Err(RecvTimeoutError::Timeout) => {
                bail!("grundy serve did not report its address within 60 s")
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = server.child.wait()?;
                bail!("grundy serve exited ({status}) before listening; its errors are above")
            }
        }
        Ok(server)
    }
}

/// What one phase sends.
#[derive(Debug)]
enum Request {
    Get,
    /// A JSON body, with the bearer token of client `i` taken as `tokens[i % tokens.len()]`.
    Post {
        body: String,
        tokens: Vec<String>,
    },
}

#[derive(Debug)]
struct Target {
    label: &'static str,
    url: String,
    request: Request,
}

#[derive(Debug)]
enum Outcome {
    Ok,
    Status(u16, String),
    Transport(String, String),
}

impl Target {
    async fn send(&self, client: &reqwest::Client, index: usize) -> Outcome {
        let builder = match &self.request {
            Request::Get => client.get(self.url.as_str()),
            Request::Post { body, tokens } => client
                .post(self.url.as_str())
                .bearer_auth(&tokens[index % tokens.len()])
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone()),
        };
        let response = match builder.send().await {
            Ok(r) => r,
            Err(e) => return transport(&e),
        };
        let status = response.status();
        // The whole body is read: a request is done when its answer has arrived.
        match response.bytes().await {
            Ok(_) if status.is_success() => Outcome::Ok,
            Ok(body) => Outcome::Status(
                status.as_u16(),
                String::from_utf8_lossy(&body).chars().take(300).collect(),
            ),
            Err(e) => transport(&e),
        }
    }
}

fn transport(error: &reqwest::Error) -> Outcome {
    let kind = if error.is_timeout() {
        "timeout"
    } else if error.is_connect() {
        "connect"
    } else if error.is_body() || error.is_decode() {
        "body"
    } else {
        "request"
    };
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = std::error::Error::source(cause);
    }
    Outcome::Transport(kind.to_owned(), message)
}

/// Counts and latencies of one phase (or of one client, merged afterwards).
#[derive(Debug, Default)]
struct Stats {
    ok: u64,
    /// Latencies of the successful requests.
    latencies: Vec<Duration>,
    /// Failures by kind ("HTTP 429", "transport: connect"): count and the first sample.
    failures: BTreeMap<String, (u64, String)>,
    elapsed: Duration,
}

impl Stats {
    fn record(&mut self, outcome: Outcome, latency: Duration) {
        match outcome {
            Outcome::Ok => {
                self.ok += 1;
                self.latencies.push(latency);
            }
            Outcome::Status(code, body) => self.fail(format!("HTTP {code}"), body, 1),
            Outcome::Transport(kind, message) => {
                self.fail(format!("transport: {kind}"), message, 1);
            }
        }
    }

    fn fail(&mut self, kind: String, sample: String, count: u64) {
        let entry = self.failures.entry(kind).or_insert((0, sample));
        entry.0 += count;
    }

    fn merge(&mut self, other: Stats) {
        self.ok += other.ok;
        self.latencies.extend(other.latencies);
        for (kind, (count, sample)) in other.failures {
            self.fail(kind, sample, count);
        }
    }

    fn failed(&self) -> u64 {
        self.failures.values().map(|(n, _)| n).sum()
    }

    fn rate(&self) -> f64 {
        self.ok as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q`-quantile (nearest rank) of the successful latencies, in milliseconds.
    fn quantile_ms(&self, q: f64) -> Option<f64> {
        if self.latencies.is_empty() {
            return None;
        }
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        let rank = (q * sorted.len() as f64).ceil() as usize;
        let index = rank.clamp(1, sorted.len()) - 1;
        Some(sorted[index].as_secs_f64() * 1000.0)
    }
}

/// `concurrency` clients, each sending its next request as soon as its last is answered, until
/// `duration` has passed; the rate is over the time until the last answer arrived.
async fn measure(
    client: &reqwest::Client,
    target: &Arc<Target>,
    concurrency: usize,
    duration: Duration,
) -> Stats {
    let started = Instant::now();
    let deadline = started + duration;
    let mut clients = tokio::task::JoinSet::new();
    for index in 0..concurrency {
        let (client, target) = (client.clone(), Arc::clone(target));
        clients.spawn(async move {
            let mut stats = Stats::default();
            while Instant::now() < deadline {
                let sent = Instant::now();
                let outcome = target.send(&client, index).await;
                stats.record(outcome, sent.elapsed());
            }
            stats
        });
    }
    let mut total = Stats::default();
    while let Some(joined) = clients.join_next().await {
        match joined {
            Ok(stats) => total.merge(stats),
            Err(e) => total.fail("client task".to_owned(), e.to_string(), 1),
        }
    }
    total.elapsed = started.elapsed();
    total
}

fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// Prints one phase's line and its failures; false if anything failed.
fn report(label: &str, warmup: &Stats, stats: &Stats) -> bool {
    println!(
        "  {label:<32} {:>9} {:>7} {:>10.0} {:>9} {:>9}",
        stats.ok,
        stats.failed(),
        stats.rate(),
        ms(stats.quantile_ms(0.50)),
        ms(stats.quantile_ms(0.99)),
    );
    for (when, s) in [("warm-up", warmup), ("measured", stats)] {
        for (kind, (count, sample)) in &s.failures {
            println!("    FAILURES ({when}): {count} × {kind}; first: {sample}");
            if kind == "HTTP 429" {
                println!(
                    "    (429: the per-user submission limit refused these; does `grundy serve` \
                     take --submission-rate / GRUNDY_SUBMISSION_RATE?)"
                );
            }
        }
    }
    warmup.failed() == 0 && stats.failed() == 0
}

/// One backend: users, a server, then every phase; the server is killed on return.
fn bench_backend(
    runtime: &tokio::runtime::Runtime,
    settings: Settings,
    backend: &Backend<'_>,
    rate_flag: bool,
) -> Result<bool> {
    println!();
    println!("{}", backend.name);
    let data_args = backend.data_args()?;
    let tokens = (1..=USERS)
        .map(|i| create_user(&data_args, &format!("bench{i}")))
        .collect::<Result<Vec<_>>>()?;
    let server = Server::start(&data_args, rate_flag)?;
    let base = server.url.trim_end_matches('/').to_owned();
    let clean = runtime.block_on(phases(settings, &base, tokens))?;
    drop(server);
    Ok(clean)
}

async fn phases(settings: Settings, base: &str, tokens: Vec<String>) -> Result<bool> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(settings.concurrency)
        .timeout(Duration::from_secs(60))
        .build()
        .context("building the HTTP client")?;

    // Before timing anything: the statement is there, and C++ can be submitted.
    let response = client
        .get(format!("{base}/api/v1/problems/stones"))
        .send()
        .await
        .with_context(|| format!("reaching {base}"))?;
    let status = response.status();
    let stones: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("GET /api/v1/problems/stones answered {status}: {stones}");
    }
    let cpp20 = stones["languages"]
        .as_array()
        .is_some_and(|ls| ls.iter().any(|l| l["id"] == "cpp20"));

    let mut targets = vec![
        Target {
            label: HEALTH,
            url: format!("{base}/api/v1/health"),
            request: Request::Get,
        },
        Target {
            label: "GET /api/v1/problems",
            url: format!("{base}/api/v1/problems"),
            request: Request::Get,
        },
        Target {
            label: "GET /api/v1/problems/stones",
            url: format!("{base}/api/v1/problems/stones"),
            request: Request::Get,
        },
        Target {
            label: "GET /problems (page)",
            url: format!("{base}/problems"),
            request: Request::Get,
        },
        Target {
            label: "GET /problems/stones (page)",
            url: format!("{base}/problems/stones"),
            request: Request::Get,
        },
    ];
    if cpp20 {
        let body =
            serde_json::json!({ "problem": "stones", "language": "cpp20", "source": SOURCE })
                .to_string();
        targets.push(Target {
            label: "POST /api/v1/submissions",
            url: format!("{base}/api/v1/submissions"),
            request: Request::Post { body, tokens },
        });
    }
    // The baseline again at the end: the two runs bracket the others.
    targets.push(Target {
        label: HEALTH,
        url: format!("{base}/api/v1/health"),
        request: Request::Get,
    });

    println!(
        "  {:<32} {:>9} {:>7} {:>10} {:>9} {:>9}",
        "endpoint", "ok", "failed", "ok/s", "p50 ms", "p99 ms"
    );
    let mut clean = true;
    let mut results: Vec<(&'static str, f64)> = Vec::new();
    for target in targets {
        let target = Arc::new(target);
        let warmup = measure(&client, &target, settings.concurrency, WARMUP).await;
        let stats = measure(&client, &target, settings.concurrency, settings.duration).await;
        clean &= report(target.label, &warmup, &stats);
        results.push((target.label, stats.rate()));
    }
    if !cpp20 {
        println!(
            "  SKIPPED POST /api/v1/submissions: cpp20 is not an available language on this \
             machine (is g++ installed?)"
        );
    }

    let health: Vec<f64> = results
        .iter()
        .filter(|(label, _)| *label == HEALTH)
        .map(|(_, rate)| *rate)
        .collect();
    let baseline = health.iter().sum::<f64>() / health.len().max(1) as f64;
    if baseline > 0.0 {
        let (first, last) = (health[0], health[health.len() - 1]);
        println!(
            "  relative to {HEALTH} (mean of the runs before and after: {baseline:.0} ok/s; \
             the two differ by {:.0} %):",
            (last - first).abs() / baseline * 100.0
        );
        for (label, rate) in results.iter().filter(|(label, _)| *label != HEALTH) {
            println!("    {label:<30} {:>6.2}x", rate / baseline);
        }
    } else {
        println!("  no successful {HEALTH}: no ratios");
        clean = false;
    }
    Ok(clean)
}

/// A fresh PostgreSQL database for the run, dropped at the end (like the tests' scratch ones).
#[derive(Debug)]
struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

#[derive(Debug)]
enum Postgres {
    Unreachable(String),
    Ready(PgDatabase),
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // A failure only leaves a scratch database behind.
        let _ = psql(
            &self.admin_url,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// Creating and dropping the scratch database goes through psql, which comes with the server.
fn psql(url: &str, sql: &str) -> std::io::Result<std::process::Output> {
    Command::new("psql")
        .args([url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .env("PGCONNECT_TIMEOUT", "5")
        .stdin(Stdio::null())
        .output()
}

fn postgres() -> Result<Postgres> {
    let admin_url =
        std::env::var("GRUNDY_TEST_POSTGRES_URL").unwrap_or_else(|_| DEFAULT_POSTGRES.to_owned());
    let shown = redact(&admin_url);
    match psql(&admin_url, "SELECT 1") {
        Err(e) => {
            return Ok(Postgres::Unreachable(format!(
                "cannot run psql ({e}) to reach {shown}"
            )));
        }
        Ok(out) if !out.status.success() => {
            return Ok(Postgres::Unreachable(format!(
                "no PostgreSQL at {shown}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(_) => {}
    }
    let name = format!("grundy_bench_{}", std::process::id());
    let prefix = admin_url
        .rsplit_once('/')
        .map(|(prefix, _)| prefix.to_owned())
        .with_context(|| format!("no database name to replace in {shown}"))?;
    // The guard first: a half-made database is dropped too.
    let database = PgDatabase {
        admin_url: admin_url.clone(),
        name: name.clone(),
        url: format!("{prefix}/{name}"),
    };
    let out = psql(&admin_url, &format!("CREATE DATABASE {name}")).context("running psql")?;
    if !out.status.success() {
        bail!(
            "CREATE DATABASE {name} at {shown}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(Postgres::Ready(database))
}

/// A database URL fit for printing: no password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://…@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}
