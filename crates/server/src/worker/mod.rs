//! A judging worker: claims a submission with a lease, judges it in its own sandbox supervisor,
//! records each test as it is judged, keeps the lease alive, and writes the result once. Several
//! run inside `grundy serve`; `grundy worker` runs them against a shared PostgreSQL.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use grundy_judge::{Event, Judge, Languages, Options, Verdict};
use grundy_sandbox::{Sandbox, SupervisorCommand};
use grundy_store::{Claimed, Outcome, SubmissionKind, TestRow};
use tokio::sync::watch;

use crate::events::Progress;
use crate::{AppState, now_ms};

#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Unique among all workers on all machines (host name, pid and index make one).
    pub name: String,
    pub supervisor: SupervisorCommand,
    pub languages_file: Option<PathBuf>,
    pub cache_dir: PathBuf,
    /// How long a claim holds without a heartbeat; a worker that dies loses it after this.
    pub lease: Duration,
    /// How often to look for work when no wake-up arrives (other machines' submissions).
    pub poll: Duration,
    /// Claims after which a submission that keeps losing its worker ends as an internal error.
    pub max_attempts: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("starting the judge: {0}")]
    Judge(#[from] grundy_judge::JudgeError),
    #[error("languages: {0}")]
    Languages(#[from] grundy_judge::LanguageError),
    #[error("storage: {0}")]
    Store(#[from] grundy_store::StoreError),
    #[error("the judge thread failed: {0}")]
    Thread(String),
}

/// Claims and judges until `shutdown` turns true. A submission being judged when it does is
/// finished first (the lease would hand it to another worker otherwise, which is also fine).
pub async fn run(
    state: AppState,
    config: WorkerConfig,
    mut shutdown: watch::Receiver<bool>,
) -> Result<(), WorkerError> {
    let mut judge = Some(start_judge(&config).await?);
    let lease_ms = config.lease.as_millis() as i64;
    tracing::info!(worker = %config.name, "worker ready");
    while !*shutdown.borrow() {
        // A database hiccup (a busy SQLite, a PostgreSQL restart) pauses the worker, never ends
        // it: the claim is retried after the poll interval.
        let claimed = match next_claim(&state, &config, lease_ms).await {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::warn!(worker = %config.name, error = %e, "cannot claim; retrying");
                None
            }
        };
        let Some(claimed) = claimed else {
            tokio::select! {
                _ = state.queued.notified() => {}
                _ = tokio::time::sleep(config.poll) => {}
                _ = shutdown.changed() => {}
            }
            continue;
        };
        tracing::info!(worker = %config.name, submission = claimed.id, attempt = claimed.attempts, "judging");
        let taken = match judge.take() {
            Some(j) => j,
            None => start_judge(&config).await?,
        };
        let (returned, result) = judge_one(&state, &config, taken, claimed).await;
        if let Err(e) = result {
            tracing::error!(worker = %config.name, error = %e, "storing a result failed");
        }
        // Without its judge (the sandbox broke, the judging thread panicked) the next claim
        // starts a fresh one; if that fails the worker stops and says why.
        judge = match returned {
            Some(j) => Some(j),
            None => Some(start_judge(&config).await?),
        };
    }
    Ok(())
}

async fn next_claim(
    state: &AppState,
    config: &WorkerConfig,
    lease_ms: i64,
) -> Result<Option<Claimed>, WorkerError> {
    state
        .store
        .fail_exhausted(now_ms(), config.max_attempts)
        .await?;
    Ok(state
        .store
        .claim(&config.name, now_ms(), lease_ms, config.max_attempts)
        .await?)
}

async fn start_judge(config: &WorkerConfig) -> Result<Judge, WorkerError> {
    let config = config.clone();
    tokio::task::spawn_blocking(move || -> Result<Judge, WorkerError> {
        let languages = Languages::load(config.languages_file.as_deref())?;
        let sandbox = Sandbox::start(&config.supervisor).map_err(grundy_judge::JudgeError::from)?;
        Ok(Judge::new(sandbox, languages, config.cache_dir.clone())?)
    })
    .await
    .map_err(|e| WorkerError::Thread(e.to_string()))?
}

/// Judges one claimed submission; returns the judge (None when it broke) and how storing went.
async fn judge_one(
    state: &AppState,
    config: &WorkerConfig,
    mut judge: Judge,
    claimed: Claimed,
) -> (Option<Judge>, Result<(), WorkerError>) {
    let id = claimed.id;
    let worker = config.name.clone();
    let lease_ms = config.lease.as_millis() as i64;
    state.events.publish(id, Progress::Judging);

    // Keeps the lease while the (blocking) judge works; notices when it was taken away.
    let lost = Arc::new(AtomicBool::new(false));
    let heartbeat = {
        let (store, worker, lost) = (state.store.clone(), worker.clone(), lost.clone());
        let every = config.lease / 3;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                match store.heartbeat(id, &worker, now_ms(), lease_ms).await {
                    Ok(true) => {}
                    Ok(false) => {
                        lost.store(true, Ordering::Relaxed);
                        return;
                    }
                    Err(e) => tracing::warn!(submission = id, error = %e, "heartbeat failed"),
                }
            }
        })
    };

    let problem = match state.problems.resolve(&state.store, &claimed.problem).await {
        Ok(Some(entry)) => entry.problem.clone(),
        Ok(None) => {
            heartbeat.abort();
            tracing::error!(submission = id, problem = %claimed.problem, "unknown problem");
            return (Some(judge), finish(state, &worker, id, internal(0)).await);
        }
        Err(e) => {
            heartbeat.abort();
            tracing::error!(submission = id, problem = %claimed.problem, error = %e, "problem not loaded");
            return (Some(judge), finish(state, &worker, id, internal(0)).await);
        }
    };
    let version = i64::from(problem.spec.version);
    let task = match claimed.kind {
        SubmissionKind::Program => {
            let language = claimed
                .language
                .as_deref()
                .and_then(|l| judge.languages().get(l).ok())
                .cloned();
            let Some(language) = language else {
                heartbeat.abort();
                tracing::error!(submission = id, language = ?claimed.language, "language unavailable on this worker");
                return (
                    Some(judge),
                    finish(state, &worker, id, internal(version)).await,
                );
            };
            Task::Program(Box::new(language))
        }
        SubmissionKind::Answers => match serde_json::from_slice(&claimed.source) {
            Ok(answers) => Task::Answers(answers),
            Err(e) => {
                heartbeat.abort();
                tracing::error!(submission = id, error = %e, "stored answers unreadable");
                return (
                    Some(judge),
                    finish(state, &worker, id, internal(version)).await,
                );
            }
        },
    };

    let runtime = tokio::runtime::Handle::current();
    let app = state.clone();
    let outcome = tokio::task::spawn_blocking(move || {
        let mut position = 0i64;
        let mut on_event = |event: &Event| match event {
            Event::Compiled(c) => app.events.publish(id, Progress::Compiled { ok: c.ok }),
            Event::Test(t) => {
                let row = TestRow {
                    position,
                    name: t.name.clone(),
                    verdict: t.verdict,
                    cpu_ms: t.cpu_ms as i64,
                    wall_ms: t.wall_ms as i64,
                    memory_kib: t.memory_kib as i64,
                    message: t.message.clone(),
                };
                position += 1;
                match runtime.block_on(app.store.record_test(id, &worker, &row)) {
                    Ok(true) => app.events.publish(id, Progress::Test(row)),
                    Ok(false) => {
                        tracing::warn!(submission = id, "lease lost: results no longer recorded")
                    }
                    Err(e) => {
                        tracing::error!(submission = id, error = %e, "recording a test failed")
                    }
                }
            }
            Event::Subtask(_) => {}
        };
        let judged = match task {
            Task::Program(language) => {
                // A program with a seed is an assignment's that also runs the student's
                // personal instances (the samples are among the tests already).
                let personal: Vec<_> = claimed.instance_seed.map_or_else(Vec::new, |seed| {
                    problem.instances(seed as u64, crate::api::INSTANCES_PER_SUBTASK)
                });
                judge.judge_with_personal(
                    &problem,
                    &language,
                    &claimed.source,
                    Options::default(),
                    &personal,
                    &mut on_event,
                )
            }
            Task::Answers(answers) => {
                // An assignment's submission answers the instances of the seed it stored.
                let seed = claimed.instance_seed.map_or_else(
                    || crate::api::personal_seed(claimed.user_id),
                    |seed| seed as u64,
                );
                let instances = problem.instances(seed, crate::api::INSTANCES_PER_SUBTASK);
                judge.judge_answers(&problem, &instances, &answers, &mut on_event)
            }
        };
        (judge, judged)
    })
    .await;
    heartbeat.abort();
    let (judge, judged) = match outcome {
        Ok((judge, judged)) => (Some(judge), judged),
        Err(e) => {
            tracing::error!(submission = id, error = %e, "the judging thread failed");
            return (
                None,
                finish(state, &config.name, id, internal(version)).await,
            );
        }
    };
    let (judge, outcome) = match judged {
        Ok(j) => (
            judge,
            Outcome {
                verdict: j.verdict,
                score: i64::from(j.score),
                max_score: i64::from(j.max_score),
                compile_message: (!j.compile.ok).then(|| j.compile.message.clone()),
                problem_version: version,
            },
        ),
        Err(e) => {
            tracing::error!(submission = id, error = %e, "judging failed");
            (None, internal(version))
        }
    };
    if lost.load(Ordering::Relaxed) {
        tracing::warn!(
            submission = id,
            "the lease was taken over; the result is dropped"
        );
    }
    (judge, finish(state, &config.name, id, outcome).await)
}

/// What to judge: a program in a language, or answers by instance name.
enum Task {
    Program(Box<grundy_judge::Language>),
    Answers(BTreeMap<String, String>),
}

fn internal(version: i64) -> Outcome {
    Outcome {
        verdict: Verdict::InternalError,
        score: 0,
        max_score: 0,
        compile_message: None,
        problem_version: version,
    }
}

async fn finish(
    state: &AppState,
    worker: &str,
    id: i64,
    outcome: Outcome,
) -> Result<(), WorkerError> {
    if state.store.finish(id, worker, &outcome, now_ms()).await? {
        state.events.publish(
            id,
            Progress::Done {
                verdict: outcome.verdict.as_str().to_owned(),
                score: outcome.score,
                max_score: outcome.max_score,
            },
        );
        tracing::info!(submission = id, verdict = %outcome.verdict, score = outcome.score, "judged");
    } else {
        tracing::warn!(
            submission = id,
            "not the lease holder any more: result not written"
        );
    }
    Ok(())
}
