//! Judging workers: each claims a submission with a lease, judges it in its own sandbox
//! supervisor (`job.rs`), keeps the lease alive while it does (`lease.rs`), and writes the result
//! once. Several run inside `grundy serve`; `grundy worker` runs them against a shared
//! PostgreSQL with nothing of the HTTP side.

mod job;
mod lease;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use grundy_judge::{Judge, Languages};
use grundy_problems::Catalogue;
use grundy_sandbox::{Sandbox, SupervisorCommand};
use grundy_store::{Claimed, Store};
use tokio::sync::{Notify, watch};

use crate::clock::now_ms;
use crate::domain::Domain;
use crate::events::Hub;
use crate::registry::Problems;
use crate::telemetry::Telemetry;

/// What judging needs: the queue and results, the problems, whom to tell, and the operator's
/// figures.
#[derive(Debug, Clone)]
pub struct JudgingContext {
    pub store: Store,
    pub problems: Arc<Problems>,
    pub events: Hub,
    /// Rung when a submission is queued in this process.
    pub queued: Arc<Notify>,
    pub telemetry: Telemetry,
}

impl JudgingContext {
    /// For the workers inside the service: the same store, problems and events as its
    /// operations, so a submission queued there wakes them and their news reaches its followers.
    pub fn sharing(domain: &Domain, telemetry: Telemetry) -> JudgingContext {
        JudgingContext {
            store: domain.store.clone(),
            problems: domain.problems.clone(),
            events: domain.events.clone(),
            queued: domain.queued.clone(),
            telemetry,
        }
    }

    /// For a process that only judges (`grundy worker`).
    pub fn new(store: Store, catalogue: Catalogue, telemetry: Telemetry) -> JudgingContext {
        JudgingContext {
            store,
            problems: Arc::new(Problems::new(catalogue)),
            events: Hub::default(),
            queued: Arc::new(Notify::new()),
            telemetry,
        }
    }
}

#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Unique among all workers on all machines (host name, pid and index make one).
    pub name: String,
    pub supervisor: SupervisorCommand,
    pub languages_file: Option<PathBuf>,
    pub cache_dir: grundy_judge::Caches,
    /// How long a claim holds without a heartbeat; a worker that dies loses it after this.
    pub lease: Duration,
    /// How often to look for work when no wake-up arrives (other machines' submissions).
    pub poll: Duration,
    /// Claims after which a submission that keeps losing its worker ends as an internal error.
    pub max_attempts: i64,
    /// How long a submission being judged when the worker is told to stop may take to finish;
    /// after that it goes back to the queue for another worker.
    pub shutdown_grace: Duration,
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

/// Claims and judges until `shutdown` turns true. A submission being judged then has
/// `config.shutdown_grace` to finish; one that does not is given back to the queue (its lease
/// released, so another worker takes it at once) and left to its judging thread, which the
/// process's exit ends.
pub async fn run(
    cx: JudgingContext,
    config: WorkerConfig,
    mut shutdown: watch::Receiver<bool>,
) -> Result<(), WorkerError> {
    // Started before the first claim, so a machine that cannot judge says so at once.
    let mut judge = Some(start_judge(&config).await?);
    tracing::info!(worker = %config.name, "worker ready");
    let _alive = cx.telemetry.worker_started(&config.name, config.lease);
    while !*shutdown.borrow() {
        cx.telemetry.worker_beat(&config.name);
        // A database hiccup (a busy SQLite, a PostgreSQL restart) pauses the worker, never ends
        // it: the claim is retried after the poll interval.
        let claimed = match next_claim(&cx, &config).await {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::warn!(worker = %config.name, error = %e, "cannot claim; retrying");
                None
            }
        };
        let Some(claimed) = claimed else {
            tokio::select! {
                _ = cx.queued.notified() => {}
                _ = tokio::time::sleep(config.poll) => {}
                _ = shutdown.changed() => {}
            }
            continue;
        };
        let id = claimed.id;
        tracing::info!(worker = %config.name, submission = id, attempt = claimed.attempts, "judging");
        // The last judge broke (the sandbox died, the judging thread panicked): a fresh one.
        let taken = match judge.take() {
            Some(j) => j,
            None => match start_judge(&config).await {
                Ok(j) => j,
                Err(e) => {
                    hand_back(&cx, &config, id).await;
                    return Err(e);
                }
            },
        };
        let (returned, stored) = tokio::select! {
            judged = job::judge(&cx, &config, taken, claimed) => judged,
            () = grace_over(&mut shutdown, config.shutdown_grace) => {
                if hand_back(&cx, &config, id).await {
                    tracing::info!(
                        worker = %config.name,
                        submission = id,
                        grace_secs = config.shutdown_grace.as_secs_f64(),
                        "not judged within the shutdown grace period: back in the queue"
                    );
                }
                return Ok(());
            }
        };
        if let Err(e) = stored {
            tracing::error!(worker = %config.name, error = %e, "storing a result failed");
        }
        judge = returned;
    }
    Ok(())
}

/// Resolves `grace` after `shutdown` turns true (or its sender is gone, which means the same).
async fn grace_over(shutdown: &mut watch::Receiver<bool>, grace: Duration) {
    let _ = shutdown.wait_for(|stop| *stop).await;
    tokio::time::sleep(grace).await;
}

/// Gives a claim back to the queue for another worker, rather than leaving it until its lease
/// runs out (its results so far are cleared by the next claim); whether it was still ours.
async fn hand_back(cx: &JudgingContext, config: &WorkerConfig, id: i64) -> bool {
    match cx.store.release(id, &config.name).await {
        Ok(true) => {
            cx.events.publish(id);
            cx.queued.notify_one();
            true
        }
        // Judged meanwhile (its explanation was being sought), or rejudged and taken by another
        // worker: nothing is ours to give.
        Ok(false) => false,
        Err(e) => {
            tracing::warn!(submission = id, error = %e, "cannot give a claim back; its lease will run out");
            false
        }
    }
}

async fn next_claim(
    cx: &JudgingContext,
    config: &WorkerConfig,
) -> Result<Option<Claimed>, WorkerError> {
    let lease_ms = config.lease.as_millis() as i64;
    cx.store
        .fail_exhausted(now_ms(), config.max_attempts)
        .await?;
    Ok(cx
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
