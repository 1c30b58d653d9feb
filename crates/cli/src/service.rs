//! `grundy serve`, `grundy worker`, `grundy admin` and `grundy submit`: the service and its
//! clients.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use comfy_table::{Cell, Color, Table, presets::UTF8_FULL_CONDENSED};
use grundy_judge::{Languages, Verdict};
use grundy_server::domain::accounts;
use grundy_server::worker::{self, JudgingContext, WorkerConfig};
use grundy_server::{AppState, Clock, Registration, RequestLimits, Telemetry, now_ms};
use grundy_store::{Role, Store};
use tokio::sync::watch;

use crate::judging::SandboxArgs;
use crate::setup::{DataArgs, load_catalogue, runtime};

/// The judging workers a process runs, shared by `serve` and `worker`.
#[derive(Debug, Clone, Args)]
pub struct JudgingArgs {
    /// Judging workers in this process (default: one per core; for `serve`, 0 leaves judging
    /// to `grundy worker` processes).
    #[arg(long, env = "GRUNDY_WORKERS")]
    pub workers: Option<usize>,
    /// Seconds a claim holds without a heartbeat: a worker that dies loses its submission to
    /// another after this long.
    #[arg(long, env = "GRUNDY_LEASE_SECS", default_value_t = 60)]
    pub lease_secs: u64,
    /// Seconds the submissions being judged may take to finish after SIGTERM or Ctrl-C; those
    /// that do not go back to the queue for another worker. The default fits Docker's ten
    /// seconds between SIGTERM and SIGKILL.
    #[arg(long, env = "GRUNDY_SHUTDOWN_GRACE_SECS", default_value_t = 8)]
    pub shutdown_grace_secs: u64,
    /// Load problems from this folder instead of the built-in catalogue.
    #[arg(long, env = "GRUNDY_PROBLEMS_DIR")]
    pub problems_dir: Option<PathBuf>,
}

/// The operator's figures, shared by `serve` and `worker`.
#[derive(Debug, Clone, Args)]
pub struct MetricsArgs {
    /// Serve `GET /metrics` (Prometheus's text format) on this address, apart from the API so
    /// that it is never public by accident; off unless given. Port 0 takes a free one.
    #[arg(long, env = "GRUNDY_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
}

impl MetricsArgs {
    fn telemetry(&self) -> Telemetry {
        match self.metrics_listen {
            Some(_) => Telemetry::prometheus(),
            None => Telemetry::off(),
        }
    }

    /// Serves the figures until `stop` turns true; nothing without `--metrics-listen`.
    async fn serve(
        &self,
        telemetry: &Telemetry,
        store: &Store,
        stop: &watch::Sender<bool>,
    ) -> Result<Option<tokio::task::JoinHandle<()>>> {
        let Some(address) = self.metrics_listen else {
            return Ok(None);
        };
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("listening for metrics on {address}"))?;
        println!("metrics on http://{}/metrics", listener.local_addr()?);
        std::io::stdout().flush()?;
        let mut stopped = stop.subscribe();
        let served = grundy_server::serve_metrics(
            telemetry.clone(),
            store.clone(),
            Clock::system(),
            listener,
            async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            },
        );
        Ok(Some(tokio::spawn(async move {
            if let Err(e) = served.await {
                tracing::error!(error = %e, "serving metrics");
            }
        })))
    }
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[arg(long, env = "GRUNDY_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// Submissions one user may make in any minute (0: no limit).
    #[arg(long, env = "GRUNDY_SUBMISSION_RATE", default_value_t = 20)]
    pub submission_rate: u32,
    /// Always mark session cookies `Secure` (users reach the service over HTTPS only). Without
    /// it they are marked when a request came over HTTPS, as `X-Forwarded-Proto` says.
    #[arg(long, env = "GRUNDY_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// How long an API token lasts, in days: the default and the most a user may ask for.
    #[arg(long, env = "GRUNDY_TOKEN_DAYS", default_value_t = accounts::DEFAULT_TOKEN_DAYS,
          value_parser = clap::value_parser!(u32).range(1..=3650))]
    pub token_days: u32,
    /// A reverse proxy in front adds clients' addresses to `X-Forwarded-For` (its last entry is
    /// taken as the client's). Without it the header is ignored: clients could forge it.
    #[arg(long, env = "GRUNDY_TRUST_PROXY")]
    pub trust_proxy: bool,
    /// Failed logins, registrations or password changes for one name before each further one
    /// waits (1 s, doubling, at most 15 min).
    #[arg(long, env = "GRUNDY_LOGIN_FAILURES_PER_NAME", default_value_t = 5)]
    pub login_failures_per_name: u32,
    /// The same from one client address (IPv6: one /64); a classroom behind one NAT shares it.
    #[arg(long, env = "GRUNDY_LOGIN_FAILURES_PER_ADDRESS", default_value_t = 20)]
    pub login_failures_per_address: u32,
    /// Live-progress event streams one user may have open at once (0: no limit).
    #[arg(long, env = "GRUNDY_EVENT_STREAMS_PER_USER", default_value_t = 8)]
    pub event_streams_per_user: usize,
    /// Largest problem package upload, in MiB (zipped).
    #[arg(long, env = "GRUNDY_MAX_PACKAGE_MIB", default_value_t = 64)]
    pub max_package_mib: usize,
    /// What each teacher's problems may take, in MiB: every package as stored plus its files
    /// unpacked (0: no limit).
    #[arg(long, env = "GRUNDY_PROBLEM_QUOTA_MIB", default_value_t = grundy_server::DEFAULT_PROBLEM_QUOTA_BYTES >> 20)]
    pub problem_quota_mib: u64,
    /// Who may create a student account at /register: `closed` (accounts come from admins and
    /// teachers), `open` (anyone), or `invitation` (whoever knows --invitation-code).
    #[arg(long, env = "GRUNDY_REGISTRATION", value_enum, default_value_t = RegistrationMode::Closed)]
    pub registration: RegistrationMode,
    /// Accounts one client address may register in an hour while registration is `open` (0: no
    /// limit). A class behind one address registers with an invitation code instead.
    #[arg(long, env = "GRUNDY_REGISTRATIONS_PER_ADDRESS",
          default_value_t = grundy_server::DEFAULT_REGISTRATIONS_PER_ADDRESS_HOUR)]
    pub registrations_per_address: u32,
    /// The code `--registration invitation` asks for.
    #[arg(
        long,
        env = "GRUNDY_INVITATION_CODE",
        required_if_eq("registration", "invitation")
    )]
    pub invitation_code: Option<String>,
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub judging: JudgingArgs,
    #[command(flatten)]
    pub metrics: MetricsArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RegistrationMode {
    Closed,
    Open,
    Invitation,
}

#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub judging: JudgingArgs,
    #[command(flatten)]
    pub metrics: MetricsArgs,
}

fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The service's state: the API and pages, and the workers judging in this process.
async fn state(
    data: &DataArgs,
    problems_dir: Option<&Path>,
    sandbox: &SandboxArgs,
    limits: RequestLimits,
    telemetry: Telemetry,
) -> Result<AppState> {
    let store = data.open().await?;
    let catalogue = load_catalogue(problems_dir)?;
    let languages = Languages::load(sandbox.languages.as_deref())?;
    let state = AppState::build(
        store,
        catalogue,
        languages,
        limits,
        Clock::system(),
        telemetry,
    );
    let custom = state
        .load_problems(&data.packages_dir())
        .await
        .context("loading the problems")?;
    tracing::info!(custom, "problems loaded");
    Ok(state)
}

/// What a process that only judges needs: no HTTP side at all.
async fn judging_context(
    data: &DataArgs,
    problems_dir: Option<&Path>,
    telemetry: Telemetry,
) -> Result<JudgingContext> {
    let store = data.open().await?;
    let catalogue = load_catalogue(problems_dir)?;
    let cx = JudgingContext::new(store, catalogue, telemetry);
    let custom = cx
        .problems
        .load(&cx.store, &data.packages_dir())
        .await
        .context("loading the problems")?;
    tracing::info!(custom, "problems loaded");
    Ok(cx)
}

fn worker_config(
    sandbox: &SandboxArgs,
    data: &DataArgs,
    judging: &JudgingArgs,
    index: usize,
) -> Result<WorkerConfig> {
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "host".into());
    Ok(WorkerConfig {
        // The random part keeps names apart where host names and pids repeat (containers).
        name: format!(
            "{}-{}-{index}-{:08x}",
            host.trim(),
            std::process::id(),
            rand_suffix()
        ),
        supervisor: sandbox.supervisor()?,
        languages_file: sandbox.languages.clone(),
        // Test sets in `tests/` as before, compiled programs and headers beside them.
        cache_dir: sandbox.caches(data.data_dir.clone()),
        lease: Duration::from_secs(judging.lease_secs.max(3)),
        poll: Duration::from_secs(2),
        max_attempts: 3,
        shutdown_grace: Duration::from_secs(judging.shutdown_grace_secs),
    })
}

fn rand_suffix() -> u32 {
    let token = accounts::new_token();
    u32::from_str_radix(&token[token.len() - 8..], 16).unwrap_or(0)
}

/// Resolves on Ctrl-C or SIGTERM. Both are caught from this call on, so it comes before the
/// process says it is ready: a signal before it would end the process at once, uncleanly.
fn termination() -> Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).context("catching SIGTERM")?;
    let mut interrupt = signal(SignalKind::interrupt()).context("catching SIGINT")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

/// The judging of one process: its workers, and the listener that wakes them for submissions
/// queued by other processes.
struct Judging {
    workers: Vec<tokio::task::JoinHandle<()>>,
    watcher: Option<tokio::task::JoinHandle<()>>,
}

impl Judging {
    /// Once `stop` was sent: waits for each worker to finish or give back its submission
    /// (within the grace period) and for the listener to give back its connection, so that the
    /// store can close.
    async fn stopped(self) {
        for w in self.workers {
            let _ = w.await;
        }
        if let Some(watcher) = self.watcher {
            let _ = watcher.await;
        }
    }
}

fn spawn_workers(
    cx: &JudgingContext,
    sandbox: &SandboxArgs,
    data: &DataArgs,
    judging: &JudgingArgs,
    count: usize,
    stop: &watch::Sender<bool>,
    failed: &tokio::sync::mpsc::UnboundedSender<()>,
) -> Result<Judging> {
    let mut workers = Vec::new();
    for index in 0..count {
        let config = worker_config(sandbox, data, judging, index)?;
        let (cx, stop, failed) = (cx.clone(), stop.subscribe(), failed.clone());
        workers.push(tokio::spawn(async move {
            if let Err(e) = worker::run(cx, config, stop).await {
                tracing::error!(error = %e, "worker stopped");
                let _ = failed.send(());
            }
        }));
    }
    let watcher = (count > 0).then(|| {
        let cx = cx.clone();
        let mut stop = stop.subscribe();
        tokio::spawn(async move {
            let wake = cx.queued.clone();
            let stopped = async move {
                let _ = stop.wait_for(|stop| *stop).await;
            };
            if let Err(e) = cx
                .store
                .watch_queue(|| wake.notify_waiters(), stopped)
                .await
            {
                tracing::warn!(error = %e, "no queue notices; polling only");
            }
        })
    });
    Ok(Judging { workers, watcher })
}

/// Runs `serve` or `worker` to its end, then leaves without waiting for blocking threads: a
/// judging thread whose submission went back to the queue at shutdown would keep the process
/// until its last test ends (its supervisor stops at the end of the current run, when our end of
/// its pipe closes).
fn run_service(main: impl Future<Output = Result<ExitCode>>) -> Result<ExitCode> {
    let runtime = runtime()?;
    let outcome = runtime.block_on(main);
    runtime.shutdown_background();
    outcome
}

/// Says what happens to the submissions being judged once the process is told to stop.
fn shutting_down(judging: &JudgingArgs) {
    tracing::info!(
        grace_secs = judging.shutdown_grace_secs,
        "shutting down: the submissions being judged may finish within the grace period, then go back to the queue"
    );
}

pub fn serve(sandbox: &SandboxArgs, args: ServeArgs) -> Result<ExitCode> {
    let defaults = RequestLimits::default();
    let mut login_throttle = defaults.login_throttle;
    login_throttle.per_name.free_failures = args.login_failures_per_name;
    login_throttle.per_address.free_failures = args.login_failures_per_address;
    let limits = RequestLimits {
        submissions_per_minute: args.submission_rate,
        secure_cookies: args.secure_cookies,
        trust_proxy: args.trust_proxy,
        login_throttle,
        registrations_per_address_hour: args.registrations_per_address,
        event_streams_per_user: args.event_streams_per_user,
        package_bytes: args.max_package_mib.saturating_mul(1 << 20),
        token_days: args.token_days,
        problem_quota_bytes: (args.problem_quota_mib > 0)
            .then(|| args.problem_quota_mib.saturating_mul(1 << 20)),
        registration: match (args.registration, args.invitation_code.clone()) {
            (RegistrationMode::Open, _) => Registration::Open,
            (RegistrationMode::Invitation, Some(code)) if !code.trim().is_empty() => {
                Registration::Invitation(code.trim().to_owned())
            }
            (RegistrationMode::Invitation, _) => {
                anyhow::bail!("--registration invitation needs a non-empty --invitation-code")
            }
            (RegistrationMode::Closed, _) => Registration::Closed,
        },
        ..defaults
    };
    run_service(async {
        let state = state(
            &args.data,
            args.judging.problems_dir.as_deref(),
            sandbox,
            limits,
            args.metrics.telemetry(),
        )
        .await?;
        first_admin(&state.domain.store, args.token_days).await?;
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        let (stop, _) = watch::channel(false);
        // Before the service's address, whose line tells a supervisor that everything is up.
        let metrics = args
            .metrics
            .serve(&state.telemetry, &state.domain.store, &stop)
            .await?;
        let address = listener.local_addr()?;
        let terminated = termination()?;
        println!("listening on http://{address}");
        std::io::stdout().flush()?;
        // A failed worker is logged; the web side goes on serving.
        let (failed, _) = tokio::sync::mpsc::unbounded_channel();
        let judging = spawn_workers(
            &JudgingContext::sharing(&state.domain, state.telemetry.clone()),
            sandbox,
            &args.data,
            &args.judging,
            args.judging.workers.unwrap_or_else(default_workers),
            &stop,
            &failed,
        )?;
        let signal = {
            let stop = stop.clone();
            let judging = args.judging.clone();
            async move {
                terminated.await;
                shutting_down(&judging);
                let _ = stop.send(true);
            }
        };
        grundy_server::serve(state.clone(), listener, signal).await?;
        let _ = stop.send(true);
        judging.stopped().await;
        if let Some(metrics) = metrics {
            let _ = metrics.await;
        }
        state.domain.store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}

pub fn worker(sandbox: &SandboxArgs, args: WorkerArgs) -> Result<ExitCode> {
    if args.data.database_url.is_none() {
        bail!(
            "grundy worker judges from a shared PostgreSQL: pass --database-url postgres://… (with SQLite, `grundy serve` runs the workers itself)"
        );
    }
    run_service(async {
        let cx = judging_context(
            &args.data,
            args.judging.problems_dir.as_deref(),
            args.metrics.telemetry(),
        )
        .await?;
        let (stop, _) = watch::channel(false);
        let metrics = args.metrics.serve(&cx.telemetry, &cx.store, &stop).await?;
        let (failed, mut failures) = tokio::sync::mpsc::unbounded_channel();
        let count = args.judging.workers.unwrap_or_else(default_workers).max(1);
        let judging = spawn_workers(
            &cx,
            sandbox,
            &args.data,
            &args.judging,
            count,
            &stop,
            &failed,
        )?;
        let terminated = termination()?;
        println!("worker ready ({count} judging)");
        std::io::stdout().flush()?;
        // A worker process with no working judge must end (so a supervisor restarts it), not
        // sit idle looking alive.
        let all_failed = async {
            let mut stopped = 0;
            while failures.recv().await.is_some() {
                stopped += 1;
                if stopped == count {
                    return;
                }
            }
            std::future::pending::<()>().await
        };
        let outcome = tokio::select! {
            _ = terminated => {
                shutting_down(&args.judging);
                Ok(ExitCode::SUCCESS)
            }
            _ = all_failed => Err(anyhow::anyhow!("every judging worker stopped (see the log above)")),
        };
        let _ = stop.send(true);
        judging.stopped().await;
        if let Some(metrics) = metrics {
            let _ = metrics.await;
        }
        cx.store.close().await;
        outcome
    })
}

/// On a database without users: an admin account and a one-time token, printed once. There is
/// never a default password.
async fn first_admin(store: &Store, token_days: u32) -> Result<()> {
    if store.count_users().await? > 0 {
        return Ok(());
    }
    let admin = store
        .create_user("admin", Role::Admin, None, now_ms())
        .await?;
    let issued =
        accounts::issue_token(store, admin.id, "first start", now_ms(), token_days).await?;
    println!(
        "created the first account, admin \"admin\"; its API token (shown only now): {}",
        issued.token
    );
    println!("(the token lasts {token_days} days; POST /api/v1/tokens makes more)");
    Ok(())
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an account; with --print-token the last line printed is a fresh API token for it.
    CreateUser {
        #[arg(long, env = "GRUNDY_USER_NAME")]
        name: String,
        #[arg(long, value_enum, env = "GRUNDY_USER_ROLE")]
        role: RoleArg,
        #[command(flatten)]
        data: DataArgs,
        #[arg(long, env = "GRUNDY_PRINT_TOKEN")]
        print_token: bool,
        /// Read a password for web sign-in from the first line of stdin (at least 8
        /// characters); without it the account signs in with API tokens only.
        #[arg(long, env = "GRUNDY_PASSWORD_STDIN")]
        password_stdin: bool,
    },
    /// List the course memberships that a teacher made without asking their member (before
    /// invitations existed), for review: remove one on the course's page or with
    /// `DELETE /api/v1/courses/{id}/members/{user}`.
    Memberships {
        #[command(flatten)]
        data: DataArgs,
    },
    /// The queue, verdicts, tests, compile cache, workers and HTTP requests, as a process with
    /// `--metrics-listen` shows them to Prometheus.
    Status(crate::status::StatusArgs),
    /// Write the whole database to one file while the service runs (SQLite: a consistent copy;
    /// PostgreSQL: pg_dump's custom format).
    Backup(crate::backup::BackupArgs),
    /// Put a backup into a data directory without a database, or an empty PostgreSQL database;
    /// what was being judged when it was taken is queued again.
    Restore(crate::backup::RestoreArgs),
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum RoleArg {
    Admin,
    Teacher,
    Student,
}

pub fn admin(command: AdminCommand) -> Result<ExitCode> {
    match command {
        AdminCommand::CreateUser {
            name,
            role,
            data,
            print_token,
            password_stdin,
        } => create_user(name, role, data, print_token, password_stdin),
        AdminCommand::Memberships { data } => memberships_to_review(data),
        AdminCommand::Status(args) => crate::status::status(args),
        AdminCommand::Backup(args) => crate::backup::backup(args),
        AdminCommand::Restore(args) => crate::backup::restore(args),
    }
}

/// A table of the memberships made by a course; a line saying so when there is none.
fn memberships_to_review(data: DataArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let store = data.open().await?;
        let found = store.memberships_made_by_courses().await?;
        store.close().await;
        if found.is_empty() {
            println!("no memberships to review: every member joined by their own act");
            return Ok(ExitCode::SUCCESS);
        }
        let utc = grundy_server::zone::Zone::utc();
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED).set_header([
            "course",
            "title",
            "user",
            "name",
            "role",
            "joined (UTC)",
        ]);
        for m in &found {
            table.add_row([
                m.course_id.to_string(),
                m.course_title.clone(),
                m.user_id.to_string(),
                m.name.clone(),
                m.role.as_str().to_owned(),
                utc.local_input(m.joined_at).replace('T', " "),
            ]);
        }
        println!("{table}");
        println!(
            "to review: {} (added by a teacher of the course before invitations existed)",
            found.len()
        );
        Ok(ExitCode::SUCCESS)
    })
}

fn create_user(
    name: String,
    role: RoleArg,
    data: DataArgs,
    print_token: bool,
    password_stdin: bool,
) -> Result<ExitCode> {
    let role = match role {
        RoleArg::Admin => Role::Admin,
        RoleArg::Teacher => Role::Teacher,
        RoleArg::Student => Role::Student,
    };
    if !accounts::valid_user_name(&name) {
        bail!("a user name has 1 to 64 letters, digits, '.', '-' or '_'");
    }
    let password_hash = if password_stdin {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .context("reading the password from stdin")?;
        let password = line.trim_end_matches(['\r', '\n']);
        Some(accounts::hash_password(password)?)
    } else {
        None
    };
    runtime()?.block_on(async {
        let store = data.open().await?;
        let user = store
            .create_user(&name, role, password_hash.as_deref(), now_ms())
            .await?;
        println!("created {} {:?} (id {})", role.as_str(), user.name, user.id);
        if print_token {
            println!(
                "{}",
                accounts::issue_token(
                    &store,
                    user.id,
                    "admin create-user",
                    now_ms(),
                    accounts::DEFAULT_TOKEN_DAYS
                )
                .await?
                .token
            );
        }
        store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}

#[derive(Debug, Args)]
pub struct SubmitArgs {
    pub file: PathBuf,
    #[arg(long, env = "GRUNDY_SERVER")]
    pub server: String,
    #[arg(long, env = "GRUNDY_TOKEN", hide_env_values = true)]
    pub token: String,
    #[arg(long, env = "GRUNDY_PROBLEM")]
    pub problem: String,
    /// Language id or alias, in any case, as the server's table has them (`cpp`, `py`, …);
    /// guessed from the extension when absent.
    #[arg(long, env = "GRUNDY_LANG")]
    pub lang: Option<String>,
}

/// Submits, follows the live events, prints the per-test table; exits 0 only for Accepted.
pub fn submit(args: SubmitArgs) -> Result<ExitCode> {
    let source = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let language = match args.lang.clone() {
        Some(l) => l,
        None => grundy_judge::languages::guess_from_extension(&args.file).with_context(|| {
            format!(
                "cannot tell the language of {}; pass --lang",
                args.file.display()
            )
        })?,
    };
    let base = args.server.trim_end_matches('/').to_owned();
    runtime()?.block_on(async move {
        let client = reqwest::Client::new();
        let response = client
            .post(format!("{base}/api/v1/submissions"))
            .bearer_auth(&args.token)
            .json(&serde_json::json!({ "problem": args.problem, "language": language, "source": source }))
            .send()
            .await
            .with_context(|| format!("reaching {base}"))?;
        let status = response.status();
        let body: serde_json::Value = response.json().await.unwrap_or_default();
        if !status.is_success() {
            bail!("the server refused the submission ({status}): {}", body["message"].as_str().unwrap_or(""));
        }
        let id = body["id"].as_i64().context("the server answered without an id")?;
        eprintln!("submission {id} queued; following it");
        let mut events = client
            .get(format!("{base}/api/v1/submissions/{id}/events"))
            .bearer_auth(&args.token)
            .send()
            .await?
            .error_for_status()?;
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED).set_header(["group", "test", "verdict", "CPU ms", "wall ms", "memory KiB", "message"]);
        let mut buffer: Vec<u8> = Vec::new();
        let mut event_name = String::new();
        let mut done: Option<serde_json::Value> = None;
        while done.is_none() {
            let Some(chunk) = events.chunk().await? else { break };
            // Split on line ends before decoding: a character may straddle two chunks.
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
                let raw: Vec<u8> = buffer.drain(..=end).collect();
                let line = String::from_utf8_lossy(&raw);
                let line = line.trim_end();
                if let Some(name) = line.strip_prefix("event:") {
                    event_name = name.trim().to_owned();
                } else if let Some(data) = line.strip_prefix("data:") {
                    let value: serde_json::Value = serde_json::from_str(data.trim()).unwrap_or_default();
                    match event_name.as_str() {
                        "test" => {
                            let verdict = verdict_of(&value);
                            let accepted = verdict == Some(Verdict::Accepted);
                            eprint!("{}", if accepted { "." } else { "x" });
                            let colour = if accepted { Color::Green } else { Color::Red };
                            table.add_row(vec![
                                Cell::new(value["group"].as_str().unwrap_or("")),
                                Cell::new(&value["index"]),
                                Cell::new(verdict.map_or("?", Verdict::as_str)).fg(colour),
                                Cell::new(&value["cpu_ms"]),
                                Cell::new(&value["wall_ms"]),
                                Cell::new(&value["memory_kib"]),
                                Cell::new(value["message"].as_str().unwrap_or("")),
                            ]);
                        }
                        "done" => done = Some(value),
                        // A new attempt (a worker died, a rejudge) judges from the start again.
                        "state" if !table.is_empty() => {
                            eprintln!(" (judging again from the start)");
                            table = Table::new();
                            table.load_preset(UTF8_FULL_CONDENSED).set_header(["group", "test", "verdict", "CPU ms", "wall ms", "memory KiB", "message"]);
                        }
                        _ => {}
                    }
                }
            }
        }
        eprintln!();
        let done = done.context("the event stream ended before the verdict")?;
        if let Some(message) = done["compile_message"].as_str() {
            println!("{message}");
        }
        if !table.is_empty() {
            println!("{table}");
        }
        // Each subtask as the statement lists it: "Subtask 1 (30 points): 0/30, failed at test 3".
        for subtask in done["subtasks"].as_array().into_iter().flatten() {
            println!("{}", subtask["summary"].as_str().unwrap_or_default());
        }
        let verdict = verdict_of(&done);
        println!(
            "submission {id}: {}, score {}/{}",
            verdict.map_or("?", Verdict::as_str),
            done["score"],
            done["max_score"]
        );
        Ok(if verdict == Some(Verdict::Accepted) { ExitCode::SUCCESS } else { ExitCode::FAILURE })
    })
}

/// The verdict an event carries (`None` for none, or one this client does not know).
fn verdict_of(event: &serde_json::Value) -> Option<Verdict> {
    serde_json::from_value(event["verdict"].clone()).ok()
}
