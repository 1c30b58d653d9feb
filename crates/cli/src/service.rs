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
use grundy_server::{AppState, Registration, RequestLimits, now_ms};
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
    /// Load problems from this folder instead of the built-in catalogue.
    #[arg(long, env = "GRUNDY_PROBLEMS_DIR")]
    pub problems_dir: Option<PathBuf>,
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
) -> Result<AppState> {
    let store = data.open().await?;
    let catalogue = load_catalogue(problems_dir)?;
    let languages = Languages::load(sandbox.languages.as_deref())?;
    let state = AppState::new(store, catalogue, languages, limits);
    let custom = state
        .load_problems(&data.packages_dir())
        .await
        .context("loading the problems")?;
    tracing::info!(custom, "problems loaded");
    Ok(state)
}

/// What a process that only judges needs: no HTTP side at all.
async fn judging_context(data: &DataArgs, problems_dir: Option<&Path>) -> Result<JudgingContext> {
    let store = data.open().await?;
    let catalogue = load_catalogue(problems_dir)?;
    let cx = JudgingContext::new(store, catalogue);
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
    })
}

fn rand_suffix() -> u32 {
    let token = accounts::new_token();
    u32::from_str_radix(&token[token.len() - 8..], 16).unwrap_or(0)
}

/// Resolves on Ctrl-C or SIGTERM.
async fn termination() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
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
) -> Result<Vec<tokio::task::JoinHandle<()>>> {
    let mut handles = Vec::new();
    for index in 0..count {
        let config = worker_config(sandbox, data, judging, index)?;
        let (cx, stop, failed) = (cx.clone(), stop.subscribe(), failed.clone());
        handles.push(tokio::spawn(async move {
            if let Err(e) = worker::run(cx, config, stop).await {
                tracing::error!(error = %e, "worker stopped");
                let _ = failed.send(());
            }
        }));
    }
    if count > 0 {
        let cx = cx.clone();
        tokio::spawn(async move {
            let wake = cx.queued.clone();
            if let Err(e) = cx.store.watch_queue(|| wake.notify_waiters()).await {
                tracing::warn!(error = %e, "no queue notices; polling only");
            }
        });
    }
    Ok(handles)
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
    runtime()?.block_on(async {
        let state = state(
            &args.data,
            args.judging.problems_dir.as_deref(),
            sandbox,
            limits,
        )
        .await?;
        first_admin(&state.domain.store, args.token_days).await?;
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        let address = listener.local_addr()?;
        println!("listening on http://{address}");
        std::io::stdout().flush()?;
        let (stop, _) = watch::channel(false);
        // A failed worker is logged; the web side goes on serving.
        let (failed, _) = tokio::sync::mpsc::unbounded_channel();
        let workers = spawn_workers(
            &JudgingContext::sharing(&state.domain),
            sandbox,
            &args.data,
            &args.judging,
            args.judging.workers.unwrap_or_else(default_workers),
            &stop,
            &failed,
        )?;
        let signal = {
            let stop = stop.clone();
            async move {
                termination().await;
                tracing::info!("shutting down: finishing the submissions being judged");
                let _ = stop.send(true);
            }
        };
        grundy_server::serve(state.clone(), listener, signal).await?;
        let _ = stop.send(true);
        for w in workers {
            let _ = w.await;
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
    runtime()?.block_on(async {
        let cx = judging_context(&args.data, args.judging.problems_dir.as_deref()).await?;
        let (stop, _) = watch::channel(false);
        let (failed, mut failures) = tokio::sync::mpsc::unbounded_channel();
        let count = args.judging.workers.unwrap_or_else(default_workers).max(1);
        let workers = spawn_workers(
            &cx,
            sandbox,
            &args.data,
            &args.judging,
            count,
            &stop,
            &failed,
        )?;
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
            _ = termination() => Ok(ExitCode::SUCCESS),
            _ = all_failed => Err(anyhow::anyhow!("every judging worker stopped (see the log above)")),
        };
        let _ = stop.send(true);
        for w in workers {
            let _ = w.await;
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
