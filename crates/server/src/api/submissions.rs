//! Submissions: programs and answers, results, live progress.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use grundy_store::{
    NewSubmission, Submission, SubmissionKind, SubmissionQuery, SubmissionStatus, User,
};
use serde_json::{Value, json};
use tokio_stream::wrappers::ReceiverStream;

use super::JsonResult;
use super::views::{
    Created, ErrorBody, NewSubmissionBody, SubmissionDetail, SubmissionFilter, SubmissionList,
    SubmissionView, TestView,
};
use std::collections::BTreeMap;

use grundy_coursework::{Deadlines, Feedback, Timing};
use grundy_store::MemberRole;

use crate::access;
use crate::auth::CurrentUser;
use crate::error::rejection;
use crate::{ApiError, AppState};

/// At most this many answers in one submission.
const MAX_ANSWERS: usize = 1000;

/// Queues a program (`language` + `source`) or answers (`answers`, keyed by the instance names
/// of `GET /api/v1/problems/{slug}/instances`). Limited per user per minute.
#[utoipa::path(post, path = "/api/v1/submissions", tag = "submissions",
    request_body = NewSubmissionBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = Created), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub(super) async fn create_submission(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<NewSubmissionBody>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let Json(new) = body.map_err(rejection)?;
    let id = queue_submission(&state, &user, new).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id,
            status: "queued".into(),
        }),
    ))
}

/// Checks a program or answers, applies the rate limit and queues it; the web form and the API
/// both come here.
pub(crate) async fn queue_submission(
    state: &AppState,
    user: &User,
    new: NewSubmissionBody,
) -> Result<i64, ApiError> {
    let Some(entry) = state.problems.get(&new.problem) else {
        return Err(ApiError::BadRequest(format!(
            "no problem named {:?}",
            new.problem
        )));
    };
    let (kind, language, source) = match (new.language, new.source, new.answers) {
        (Some(language), Some(source), None) => {
            state
                .languages
                .get(&language)
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
            if source.trim().is_empty() {
                return Err(ApiError::BadRequest("the source is empty".into()));
            }
            if source.len() > state.limits.source_bytes {
                return Err(ApiError::BadRequest(format!(
                    "the source is larger than {} bytes",
                    state.limits.source_bytes
                )));
            }
            (SubmissionKind::Program, Some(language), source.into_bytes())
        }
        (None, None, Some(answers)) => {
            let problem = &entry.problem;
            if !problem.is_family_backed() {
                // Its only instances would be the samples, worth no points.
                return Err(ApiError::BadRequest(format!(
                    "{} is an uploaded package: its tests are hidden, so it takes programs only",
                    problem.slug()
                )));
            }
            if let Some(version) = new.version
                && version != problem.spec.version
            {
                return Err(ApiError::Conflict(format!(
                    "the problem is at version {} now; fetch its instances again",
                    problem.spec.version
                )));
            }
            if answers.is_empty() {
                return Err(ApiError::BadRequest("no answers given".into()));
            }
            if answers.len() > MAX_ANSWERS {
                return Err(ApiError::BadRequest(format!(
                    "at most {MAX_ANSWERS} answers per submission"
                )));
            }
            let json =
                serde_json::to_vec(&answers).map_err(|e| ApiError::Internal(e.to_string()))?;
            (SubmissionKind::Answers, None, json)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "send either `language` and `source` (a program) or `answers` (instance name → \
                 answer)"
                    .into(),
            ));
        }
    };
    let now = state.clock.now();
    let (assignment_id, instance_seed) = match new.assignment {
        None => (None, None),
        Some(id) => {
            let (seed, generation, personal_tests) =
                assignment_seed(state, user, id, &new.problem, now).await?;
            // Answers always answer personal instances; programs run on them when the
            // assignment asks for it and the problem can draw them.
            let personal = kind == SubmissionKind::Answers
                || (personal_tests && entry.problem.is_family_backed());
            if kind == SubmissionKind::Answers {
                let Some(answered) = new.draw else {
                    return Err(ApiError::BadRequest(
                        "answers for an assignment name the `draw` of the instances they answer"
                            .into(),
                    ));
                };
                if answered != generation {
                    return Err(ApiError::Conflict(
                        "your instances were drawn again since you fetched them; fetch them again"
                            .into(),
                    ));
                }
            }
            (Some(id), personal.then_some(seed))
        }
    };
    let rate = state.limits.submissions_per_minute;
    if rate > 0 {
        let recent = state
            .store
            .count_submissions_since(user.id, now - 60_000)
            .await?;
        if recent >= i64::from(rate) {
            return Err(ApiError::TooManyRequests {
                retry_after_secs: 60,
                limit: rate,
            });
        }
    }
    let id = state
        .store
        .create_submission(
            &NewSubmission {
                user_id: user.id,
                problem: new.problem,
                kind,
                language,
                source,
                priority: 0,
                assignment_id,
                instance_seed,
            },
            now,
        )
        .await?;
    state.queued.notify_one();
    Ok(id)
}

/// Checks that `user` may submit `problem` to the assignment now and returns the seed of their
/// personal instances in it, the draw's generation, and whether programs run on them. Teachers may try their own
/// assignments at any time.
async fn assignment_seed(
    state: &AppState,
    user: &User,
    id: i64,
    problem: &str,
    now: i64,
) -> Result<(i64, i64, bool), ApiError> {
    let (assignment, role) = access::assignment(state, user, id).await?;
    if !assignment.spec.problems.iter().any(|p| p == problem) {
        return Err(ApiError::BadRequest(format!(
            "{problem} is not part of assignment {id}"
        )));
    }
    if role == MemberRole::Student {
        let extension = state
            .store
            .extensions(id)
            .await?
            .into_iter()
            .find(|e| e.user_id == user.id)
            .map(|e| e.due_at);
        let deadlines = Deadlines::for_student(&assignment.spec, extension);
        match deadlines.timing(now) {
            Timing::Open { .. } => {}
            Timing::NotOpen => {
                return Err(ApiError::Conflict(format!(
                    "the assignment opens at {}",
                    crate::web::when(deadlines.opens_at)
                )));
            }
            Timing::Closed => {
                return Err(ApiError::Conflict(format!(
                    "the assignment closed at {}",
                    crate::web::when(deadlines.closes_at)
                )));
            }
        }
    }
    let (draw, seed) = personal_draw(state, id, user.id, problem).await?;
    Ok((seed, draw.generation, assignment.spec.personal_tests))
}

/// `user`'s current draw of `problem` in an assignment, and its seed.
pub(crate) async fn personal_draw(
    state: &AppState,
    assignment: i64,
    user: i64,
    problem: &str,
) -> Result<(grundy_store::InstanceDraw, i64), ApiError> {
    let draw = state.store.instance_draw(assignment, user, problem).await?;
    let key = state.seed_key().await?;
    let seed = key.personal_seed(assignment, user, problem, draw.generation) as i64;
    Ok((draw, seed))
}

/// Newest first: a student's own; a teacher's own, their courses' members' and those to their
/// problems; everyone's for admins.
#[utoipa::path(get, path = "/api/v1/submissions", tag = "submissions",
    params(SubmissionFilter),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = SubmissionList), (status = 401, body = ErrorBody)))]
pub(super) async fn list_submissions(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(filter): Query<SubmissionFilter>,
) -> JsonResult<SubmissionList> {
    let limit = filter.limit.unwrap_or(50).clamp(1, 500);
    let verdict = match filter.verdict.as_deref() {
        None => None,
        Some(text) => Some(
            grundy_judge::Verdict::parse(text)
                .ok_or_else(|| ApiError::BadRequest(format!("unknown verdict {text:?}")))?,
        ),
    };
    let found = state
        .store
        .submissions(&SubmissionQuery {
            problem: filter.problem.as_deref(),
            verdict,
            before: filter.before,
            assignment: filter.assignment,
            limit,
            ..SubmissionQuery::seen_by(&user.0)
        })
        .await?;
    Ok(Json(SubmissionList {
        submissions: found.into_iter().map(SubmissionView::from).collect(),
    }))
}

/// The submission if the caller may see it; someone else's is "not found", not "forbidden",
/// so ids reveal nothing.
pub(crate) async fn visible(
    state: &AppState,
    user: &CurrentUser,
    id: i64,
) -> Result<Submission, ApiError> {
    match state.store.submission(id).await? {
        Some(s) if access::may_see_submission(state, &user.0, &s).await? => Ok(s),
        _ => Err(ApiError::NotFound(format!("submission {id}"))),
    }
}

/// How much `viewer` is told about the tests of `submission`: an assignment's level for the
/// student who made it; everything for the teachers who see it; per-test rows in practice.
pub(crate) async fn feedback_for(
    state: &AppState,
    viewer: &User,
    submission: &Submission,
) -> Result<Feedback, ApiError> {
    let Some(id) = submission.assignment_id else {
        return Ok(Feedback::Tests);
    };
    if viewer.id != submission.user_id {
        return Ok(Feedback::Inputs);
    }
    Ok(state
        .store
        .assignment(id)
        .await?
        .map(|a| a.spec.feedback)
        .unwrap_or(Feedback::Tests))
}

/// Test rows as `feedback` allows: none for `verdict`; with `inputs`, a failed personal
/// instance also carries its input and expected answer (drawn again from the stored seed, when
/// the problem is still at the version that judged it).
pub(crate) async fn shown_tests(
    state: &AppState,
    submission: &Submission,
    feedback: Feedback,
    tests: Vec<grundy_store::TestRow>,
) -> Result<Vec<TestView>, ApiError> {
    if feedback == Feedback::Verdict {
        return Ok(Vec::new());
    }
    let mut views: Vec<TestView> = tests.into_iter().map(TestView::from).collect();
    let failed = |t: &TestView| t.verdict.is_failure();
    let Some(seed) = submission.instance_seed else {
        return Ok(views);
    };
    if feedback < Feedback::Inputs || !views.iter().any(failed) {
        return Ok(views);
    }
    let Some(entry) = state.problems.get(&submission.problem) else {
        return Ok(views);
    };
    if submission.problem_version != Some(i64::from(entry.problem.spec.version)) {
        return Ok(views);
    }
    let problem = entry.problem.clone();
    let instances = tokio::task::spawn_blocking(move || {
        problem.instances(seed as u64, super::INSTANCES_PER_SUBTASK)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("drawing instances: {e}")))?;
    // Named as the judge names them: for answers, the group, then the position within it
    // from 1; for programs, the personal group, numbered in order (samples are shared tests).
    let mut counts: BTreeMap<Option<usize>, i64> = BTreeMap::new();
    let mut by_test = BTreeMap::new();
    let mut personal = 0;
    // A problem with a subtask of that name would make its rows ambiguous: show none.
    let clash = entry
        .problem
        .spec
        .subtasks
        .iter()
        .any(|s| s.name == grundy_judge::PERSONAL_GROUP);
    if submission.kind == SubmissionKind::Program && clash {
        return Ok(views);
    }
    for instance in instances {
        let key = match submission.kind {
            SubmissionKind::Answers => {
                let n = counts.entry(instance.subtask).or_default();
                *n += 1;
                let group = instance.subtask.map_or("samples".to_owned(), |s| {
                    entry.problem.spec.subtasks[s - 1].name.clone()
                });
                (group, *n)
            }
            SubmissionKind::Program if instance.subtask.is_some() => {
                personal += 1;
                (grundy_judge::PERSONAL_GROUP.to_owned(), personal)
            }
            SubmissionKind::Program => continue,
        };
        by_test.insert(key, instance);
    }
    for view in views.iter_mut().filter(|t| failed(t)) {
        if let Some(instance) = by_test.get(&(view.group.clone(), view.index))
            && instance.input.len() <= MAX_SHOWN_INPUT
        {
            view.input = Some(instance.input.clone());
            view.expected = Some(instance.answer.clone());
        }
    }
    Ok(views)
}

/// Larger inputs are left out of a response (the built-in games' largest are a few hundred KiB).
const MAX_SHOWN_INPUT: usize = 4 << 20;

/// One submission with its per-test results (hidden tests: verdict, time and memory, no data).
#[utoipa::path(get, path = "/api/v1/submissions/{id}", tag = "submissions",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = SubmissionDetail), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn submission(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<SubmissionDetail> {
    let found = visible(&state, &user, id).await?;
    let feedback = feedback_for(&state, &user.0, &found).await?;
    let tests = state.store.test_results(id).await?;
    let tests = shown_tests(&state, &found, feedback, tests).await?;
    let source = state.store.submission_source(id).await?.unwrap_or_default();
    Ok(Json(SubmissionDetail {
        submission: found.into(),
        source: String::from_utf8_lossy(&source).into_owned(),
        feedback: feedback.as_str().to_owned(),
        tests,
    }))
}

/// The submission and its test results as of one attempt: the two are read apart, so they are
/// read again when a worker started another attempt in between (its results would otherwise be
/// sent as the old attempt's). `None` when the submission is gone or the store fails.
async fn snapshot(state: &AppState, id: i64) -> Option<(Submission, Vec<grundy_store::TestRow>)> {
    let mut before = state.store.submission(id).await.ok()??;
    loop {
        let tests = state.store.test_results(id).await.ok()?;
        let after = state.store.submission(id).await.ok()??;
        if after.attempts == before.attempts && after.status == before.status {
            return Some((after, tests));
        }
        before = after;
    }
}

/// Server-sent events: `state` (now), then `test` per test as judged, then `done`. Workers on
/// other machines are followed by re-reading the store every second.
#[utoipa::path(get, path = "/api/v1/submissions/{id}/events", tag = "submissions",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, content_type = "text/event-stream",
        description = "events `state` {status, attempt}, `test` (a test result), `done` {verdict, score, max_score, compile_message}"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn events(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let found = visible(&state, &user, id).await?;
    let hide_tests = feedback_for(&state, &user.0, &found).await? == Feedback::Verdict;
    // Subscribed before the snapshot is read, so nothing falls between the two.
    let mut live = state.events.subscribe();
    let mut stopping = state.events.stopping();
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    tokio::spawn(async move {
        let event =
            |name: &str, data: &Value| Ok(Event::default().event(name).data(data.to_string()));
        let mut sent = -1i64; // the last test position sent
        let mut announced: Option<i64> = None; // the attempt last told about
        let mut poll = tokio::time::interval(Duration::from_secs(1));
        loop {
            // The store is the truth: catch up from it, then wait for news.
            let Some((now, tests)) = snapshot(&state, id).await else {
                return;
            };
            // A new attempt (a worker died, a rejudge) starts its tests from position 0 again:
            // the attempt count changes, or the store no longer holds the last position sent.
            let stored_up_to = tests.last().map_or(-1, |t| t.position);
            let restarted =
                announced.is_some_and(|tries| tries != now.attempts) || stored_up_to < sent;
            if announced.is_none() || restarted {
                if restarted {
                    sent = -1;
                }
                announced = Some(now.attempts);
                let state_event = json!({ "status": now.status, "attempt": now.attempts });
                if tx.send(event("state", &state_event)).await.is_err() {
                    return;
                }
            }
            let since = sent;
            let shown = tests.iter().filter(|_| !hide_tests);
            for test in shown.filter(|t| t.position > since) {
                sent = test.position;
                if tx
                    .send(event("test", &json!(TestView::from(test.clone()))))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            if now.status == SubmissionStatus::Done {
                let done = json!({
                    "verdict": now.verdict,
                    "score": now.score,
                    "max_score": now.max_score,
                    "compile_message": now.compile_message,
                });
                let _ = tx.send(event("done", &done)).await;
                return;
            }
            loop {
                tokio::select! {
                    message = live.recv() => match message {
                        Ok((sub, _)) if sub == id => break,
                        Ok(_) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => break,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    },
                    _ = poll.tick() => break,
                    _ = stopping.wait_for(|stop| *stop) => return,
                    // The client went away: stop querying for it.
                    _ = tx.closed() => return,
                }
            }
        }
    });
    Ok(Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default()))
}
