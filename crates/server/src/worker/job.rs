//! Judging one claimed submission: find its problem and what to judge, judge it on a blocking
//! thread (recording each test as it is judged), and write the outcome once, if the lease is
//! still ours.

use std::collections::BTreeMap;
use std::sync::Arc;

use grundy_judge::{Event, Judge, Judgement, Language, Options, Verdict};
use grundy_problems::Problem;
use grundy_store::{Claimed, Outcome, SubmissionKind, TestRow};

use super::lease::Lease;
use super::{JudgingContext, WorkerConfig, WorkerError};
use crate::clock::now_ms;
use crate::domain::problems::{instances, practice_seed};

/// What to judge.
enum Work {
    /// A program, and the seed of the student's personal instances when an assignment runs it
    /// on them too.
    Program {
        language: Box<Language>,
        personal_seed: Option<u64>,
    },
    /// Answers by instance name, to the instances of a seed.
    Answers {
        answers: BTreeMap<String, String>,
        seed: u64,
    },
}

/// Judges `claimed` with `judge`; returns the judge (`None` when it broke) and how storing the
/// result went.
pub(super) async fn judge(
    cx: &JudgingContext,
    config: &WorkerConfig,
    judge: Judge,
    claimed: Claimed,
) -> (Option<Judge>, Result<(), WorkerError>) {
    let id = claimed.id;
    cx.events.publish(id);
    let lease = Lease::keep(cx.store.clone(), id, config.name.clone(), config.lease);
    let (judge, outcome) = match prepare(cx, &judge, &claimed).await {
        Ok((problem, work)) => run(cx, &config.name, judge, &claimed, problem, work).await,
        Err(outcome) => (Some(judge), outcome),
    };
    if lease.lost() {
        tracing::warn!(
            submission = id,
            "the lease was taken over; the result is dropped"
        );
    }
    drop(lease);
    (judge, finish(cx, &config.name, id, outcome).await)
}

/// The problem as the store has it now, and what to judge; an internal error when either is
/// missing (the judge's fault, never the student's).
async fn prepare(
    cx: &JudgingContext,
    judge: &Judge,
    claimed: &Claimed,
) -> Result<(Arc<Problem>, Work), Outcome> {
    let id = claimed.id;
    let problem = match cx.problems.resolve(&cx.store, &claimed.problem).await {
        Ok(Some(entry)) => entry.problem.clone(),
        Ok(None) => {
            tracing::error!(submission = id, problem = %claimed.problem, "unknown problem");
            return Err(internal(0));
        }
        Err(e) => {
            tracing::error!(submission = id, problem = %claimed.problem, error = %e, "problem not loaded");
            return Err(internal(0));
        }
    };
    let version = i64::from(problem.spec.version);
    // An assignment's submission uses the instances of the seed it stored.
    let seed = claimed.instance_seed.map(|seed| seed as u64);
    let work = match claimed.kind {
        SubmissionKind::Program => {
            let language = claimed
                .language
                .as_deref()
                .and_then(|l| judge.languages().get(l).ok())
                .cloned();
            let Some(language) = language else {
                tracing::error!(submission = id, language = ?claimed.language, "language unavailable on this worker");
                return Err(internal(version));
            };
            Work::Program {
                language: Box::new(language),
                personal_seed: seed,
            }
        }
        SubmissionKind::Answers => match serde_json::from_slice(&claimed.source) {
            Ok(answers) => Work::Answers {
                answers,
                seed: seed.unwrap_or_else(|| practice_seed(claimed.user_id)),
            },
            Err(e) => {
                tracing::error!(submission = id, error = %e, "stored answers unreadable");
                return Err(internal(version));
            }
        },
    };
    Ok((problem, work))
}

/// Judges on a blocking thread, recording each test as it is judged.
async fn run(
    cx: &JudgingContext,
    worker: &str,
    mut judge: Judge,
    claimed: &Claimed,
    problem: Arc<Problem>,
    work: Work,
) -> (Option<Judge>, Outcome) {
    let id = claimed.id;
    let version = i64::from(problem.spec.version);
    let span = tracing::info_span!("judging", submission = id);
    let mut recorder = Recorder {
        cx: cx.clone(),
        runtime: tokio::runtime::Handle::current(),
        worker: worker.to_owned(),
        id,
        position: 0,
    };
    let source = claimed.source.clone();
    let judged = tokio::task::spawn_blocking(move || {
        let _judging = span.enter();
        let on_event = &mut |event: &Event| recorder.record(event);
        let judged = match work {
            Work::Program {
                language,
                personal_seed,
            } => {
                let personal = personal_seed.map_or_else(Vec::new, |s| instances(&problem, s));
                judge.judge_with_personal(
                    &problem,
                    &language,
                    &source,
                    Options::default(),
                    &personal,
                    on_event,
                )
            }
            Work::Answers { answers, seed } => {
                judge.judge_answers(&problem, &instances(&problem, seed), &answers, on_event)
            }
        };
        (judge, judged)
    })
    .await;
    match judged {
        Ok((judge, Ok(judgement))) => (Some(judge), outcome(&judgement)),
        Ok((_, Err(e))) => {
            tracing::error!(submission = id, error = %e, "judging failed");
            (None, internal(version))
        }
        Err(e) => {
            tracing::error!(submission = id, error = %e, "the judging thread failed");
            (None, internal(version))
        }
    }
}

/// Writes each test's result as it arrives, while the lease is ours, and tells followers.
struct Recorder {
    cx: JudgingContext,
    runtime: tokio::runtime::Handle,
    worker: String,
    id: i64,
    position: i64,
}

impl Recorder {
    fn record(&mut self, event: &Event) {
        let Event::Test(t) = event else {
            return;
        };
        let row = TestRow {
            position: self.position,
            name: t.name.clone(),
            verdict: t.verdict,
            cpu_ms: t.cpu_ms as i64,
            wall_ms: t.wall_ms as i64,
            memory_kib: t.memory_kib as i64,
            message: t.message.clone(),
            shown: t.shown.clone(),
        };
        self.position += 1;
        let recorded =
            self.runtime
                .block_on(self.cx.store.record_test(self.id, &self.worker, &row));
        match recorded {
            Ok(true) => self.cx.events.publish(self.id),
            Ok(false) => tracing::warn!("lease lost: results no longer recorded"),
            Err(e) => tracing::error!(error = %e, "recording a test failed"),
        }
    }
}

fn outcome(judgement: &Judgement) -> Outcome {
    Outcome {
        verdict: judgement.verdict,
        score: i64::from(judgement.score),
        max_score: i64::from(judgement.max_score),
        compile_message: (!judgement.compile.ok).then(|| judgement.compile.message.clone()),
        problem_version: i64::from(judgement.version),
    }
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
    cx: &JudgingContext,
    worker: &str,
    id: i64,
    outcome: Outcome,
) -> Result<(), WorkerError> {
    if cx.store.finish(id, worker, &outcome, now_ms()).await? {
        cx.events.publish(id);
        tracing::info!(submission = id, verdict = %outcome.verdict, score = outcome.score, "judged");
    } else {
        tracing::warn!(
            submission = id,
            "not the lease holder any more: result not written"
        );
    }
    Ok(())
}
