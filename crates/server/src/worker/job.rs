//! Judging one claimed submission: find its problem and what to judge, judge it on a blocking
//! thread (recording each test as it is judged), and write the outcome once, if the lease is
//! still ours.

use std::collections::BTreeMap;
use std::sync::Arc;

use grundy_judge::explain::{Budget, Explanation};
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
    let lease = Lease::keep(
        cx.store.clone(),
        id,
        config.name.clone(),
        config.lease,
        cx.telemetry.clone(),
    );
    let mut explain_later = None;
    let mut explaining = Budget::default();
    let (judge, outcome) = match prepare(cx, &judge, &claimed).await {
        Ok((problem, work)) => {
            match &work {
                Work::Program { language, .. } => {
                    explain_later = Some(Later::Program(problem.clone(), language.clone()));
                }
                Work::Answers { answers, seed } => {
                    explain_later = Some(Later::Answers(problem.clone(), answers.clone(), *seed));
                }
            }
            let (judge, outcome, left) =
                run(cx, &config.name, judge, &claimed, problem, work).await;
            explaining = left;
            (judge, outcome)
        }
        Err(outcome) => (Some(judge), outcome),
    };
    if lease.lost() {
        tracing::warn!(
            submission = id,
            "the lease was taken over; the result is dropped"
        );
    }
    drop(lease);
    let verdict = outcome.verdict;
    let judged_at = now_ms();
    let stored = finish(cx, &config.name, id, outcome, judged_at).await;
    if let Ok(true) = stored {
        cx.telemetry
            .judged(verdict, claimed.priority, judged_at - claimed.queued_at);
    }
    // After the verdict is stored, so that explaining never delays it.
    let judge = match (judge, explain_later, &stored) {
        (Some(judge), Some(Later::Program(problem, language)), Ok(true))
            if matches!(verdict, Verdict::WrongAnswer | Verdict::RuntimeError) =>
        {
            explain(
                cx, judge, &claimed, judged_at, problem, *language, explaining,
            )
            .await
        }
        (judge, Some(Later::Answers(problem, answers, seed)), Ok(true))
            if verdict == Verdict::WrongAnswer =>
        {
            explain_answers(cx, id, judged_at, problem, answers, seed).await;
            judge
        }
        (judge, ..) => judge,
    };
    (judge, stored.map(drop))
}

/// What to explain once the verdict is stored.
enum Later {
    Program(Arc<Problem>, Box<Language>),
    Answers(Arc<Problem>, BTreeMap<String, String>, u64),
}

/// Explains wrong answers instance by instance (nothing runs) and keeps it with the verdict.
async fn explain_answers(
    cx: &JudgingContext,
    id: i64,
    judged_at: i64,
    problem: Arc<Problem>,
    answers: BTreeMap<String, String>,
    seed: u64,
) {
    let explained = tokio::task::spawn_blocking(move || {
        let drawn = instances(&problem, seed);
        Explanation::of_answers(&problem, &drawn, &answers)
    })
    .await;
    match explained {
        Ok(Some(explanation)) => keep(cx, id, judged_at, &explanation).await,
        Ok(None) => {}
        Err(e) => tracing::error!(submission = id, error = %e, "the explaining thread failed"),
    }
}

/// Finds the smallest game the program gets wrong and keeps the explanation with the verdict
/// stored at `judged_at`; returns the judge (`None` when it broke).
async fn explain(
    cx: &JudgingContext,
    mut judge: Judge,
    claimed: &Claimed,
    judged_at: i64,
    problem: Arc<Problem>,
    language: Language,
    budget: Budget,
) -> Option<Judge> {
    if problem.explainer().is_none() {
        return Some(judge);
    }
    let id = claimed.id;
    let source = claimed.source.clone();
    let span = tracing::info_span!("explaining", submission = id);
    let explained = tokio::task::spawn_blocking(move || {
        let _explaining = span.enter();
        let explained = judge.explain(&problem, &language, &source, budget);
        (judge, explained)
    })
    .await;
    let (judge, explanation) = match explained {
        Ok((judge, Ok(Some(explanation)))) => (judge, explanation),
        Ok((judge, Ok(None))) => return Some(judge),
        Ok((_, Err(e))) => {
            tracing::error!(submission = id, error = %e, "explaining failed");
            return None;
        }
        Err(e) => {
            tracing::error!(submission = id, error = %e, "the explaining thread failed");
            return None;
        }
    };
    keep(cx, id, judged_at, &explanation).await;
    Some(judge)
}

/// Stores an explanation with the verdict stored at `judged_at` and tells followers.
async fn keep(cx: &JudgingContext, id: i64, judged_at: i64, explanation: &Explanation) {
    let body = match serde_json::to_string(explanation) {
        Ok(body) => body,
        Err(e) => {
            tracing::error!(submission = id, error = %e, "an explanation did not serialise");
            return;
        }
    };
    let misconception = explanation.misconception.as_ref().map(|m| m.id.as_str());
    match cx
        .store
        .save_explanation(id, judged_at, &body, misconception, now_ms())
        .await
    {
        Ok(true) => {
            cx.events.publish(id);
            tracing::info!(
                submission = id,
                found = explanation.found(),
                misconception,
                runs = explanation.runs,
                cpu_ms = explanation.cpu_ms,
                "explained"
            );
        }
        Ok(false) => tracing::info!(submission = id, "rejudged meanwhile: explanation dropped"),
        Err(e) => tracing::error!(submission = id, error = %e, "storing an explanation failed"),
    }
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

/// Judges on a blocking thread, recording each test as it is judged; what the submission's
/// budget leaves for an explanation comes back with the outcome.
async fn run(
    cx: &JudgingContext,
    worker: &str,
    mut judge: Judge,
    claimed: &Claimed,
    problem: Arc<Problem>,
    work: Work,
) -> (Option<Judge>, Outcome, Budget) {
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
    // The tests after a subtask's first failure cannot change its score: they are skipped,
    // unless the assignment asked to see every test run.
    let options = Options {
        stop_subtask_at_first_failure: !claimed.run_every_test,
        ..Options::default()
    };
    let judged = tokio::task::spawn_blocking(move || {
        let _judging = span.enter();
        let on_event = &mut |event: &Event| recorder.record(event);
        let judged = match work {
            Work::Program {
                language,
                personal_seed,
            } => {
                let personal = personal_seed.map_or_else(Vec::new, |s| instances(&problem, s));
                judge
                    .judge_with_personal(&problem, &language, &source, options, &personal, on_event)
            }
            Work::Answers { answers, seed } => {
                judge.judge_answers(&problem, &instances(&problem, seed), &answers, on_event)
            }
        };
        (judge, judged)
    })
    .await;
    match judged {
        Ok((judge, Ok(judgement))) => {
            if judgement.budget_exhausted {
                tracing::info!(
                    submission = id,
                    cpu_ms = judgement.spent_cpu_ms,
                    wall_ms = judgement.spent_wall_ms,
                    "the submission's budget ran out"
                );
            }
            (
                Some(judge),
                outcome(&judgement),
                judgement.explanation_budget(),
            )
        }
        Ok((_, Err(e))) => {
            tracing::error!(submission = id, error = %e, "judging failed");
            (None, internal(version), Budget::default())
        }
        Err(e) => {
            tracing::error!(submission = id, error = %e, "the judging thread failed");
            (None, internal(version), Budget::default())
        }
    }
}

/// Writes each test's result as it arrives, while the lease is ours, and tells followers; counts
/// what was built and run for the operator.
struct Recorder {
    cx: JudgingContext,
    runtime: tokio::runtime::Handle,
    worker: String,
    id: i64,
    position: i64,
}

impl Recorder {
    fn record(&mut self, event: &Event) {
        let t = match event {
            Event::Test(t) => t,
            Event::Compiled(compiled) => {
                self.cx.telemetry.built(compiled.build);
                return;
            }
            Event::Subtask(_) => return,
        };
        self.cx.telemetry.tested(t.verdict);
        let row = TestRow {
            position: self.position,
            name: t.name.clone(),
            verdict: t.verdict,
            cpu_ms: t.cpu_ms as i64,
            wall_ms: t.wall_ms as i64,
            memory_kib: t.memory_kib as i64,
            message: t.message.clone(),
            detail: t.detail.clone(),
            shown: t.shown.clone(),
            transcript: t.transcript.clone(),
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

/// Writes the outcome as judged at `judged_at`; whether it was ours to write.
async fn finish(
    cx: &JudgingContext,
    worker: &str,
    id: i64,
    outcome: Outcome,
    judged_at: i64,
) -> Result<bool, WorkerError> {
    if cx.store.finish(id, worker, &outcome, judged_at).await? {
        cx.events.publish(id);
        tracing::info!(submission = id, verdict = %outcome.verdict, score = outcome.score, "judged");
        Ok(true)
    } else {
        tracing::warn!(
            submission = id,
            "not the lease holder any more: result not written"
        );
        Ok(false)
    }
}
