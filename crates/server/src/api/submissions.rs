//! Submissions: programs and answers, results, live progress.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use grundy_store::SubmissionStatus;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio_stream::wrappers::ReceiverStream;

use super::JsonResult;
use super::caller::CurrentUser;
use super::error::{ApiError, JsonObject};
use super::views::{
    Created, ErrorBody, ExplanationView, NewSubmissionBody, SubmissionDetail, SubmissionFilter,
    SubmissionList, SubmissionStatusName, SubmissionView, SubtaskResultView, TestView,
};
use crate::domain::Error;
use crate::domain::submissions::{self, Filter, NewSubmission, Work};
use crate::locale;
use crate::state::AppState;

/// Queues a program (`language` + `source`) or answers (`answers`, keyed by the instance names
/// of `GET /api/v1/problems/{slug}/instances`). The language may be named by its id or an alias
/// (`cpp`, `py`, …), in any case, and is kept by its id. Limited per user per minute.
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
    body: Result<JsonObject<NewSubmissionBody>, ApiError>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let JsonObject(body) = body?;
    let id = submissions::submit(&state.domain, &user, new_submission(body)).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id,
            status: SubmissionStatusName::Queued,
        }),
    ))
}

fn new_submission(body: NewSubmissionBody) -> NewSubmission {
    match body {
        NewSubmissionBody::Program(p) => NewSubmission {
            problem: p.problem,
            work: Work::Program {
                language: p.language,
                source: p.source,
            },
            assignment: p.assignment,
        },
        NewSubmissionBody::Answers(a) => NewSubmission {
            problem: a.problem,
            work: Work::Answers {
                answers: a.answers,
                version: a.version,
                draw: a.draw,
            },
            assignment: a.assignment,
        },
    }
}

fn listing(filter: SubmissionFilter) -> Filter {
    Filter {
        author: None,
        problem: filter.problem,
        verdict: filter.verdict.map(Into::into),
        before: filter.before,
        assignment: filter.assignment,
        course: None,
        limit: filter.limit,
    }
}

/// Newest first: a student's own; a teacher's own, their courses' members' and those to their
/// problems; everyone's for admins.
#[utoipa::path(get, path = "/api/v1/submissions", tag = "submissions",
    params(SubmissionFilter),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = SubmissionList), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub(super) async fn list_submissions(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Query(filter): Query<SubmissionFilter>,
) -> JsonResult<SubmissionList> {
    let found = submissions::list(&state.domain, &user, &listing(filter)).await?;
    Ok(Json(SubmissionList {
        submissions: found.into_iter().map(SubmissionView::from).collect(),
    }))
}

/// One submission with its per-test results (hidden tests: verdict, time and memory, no data).
#[utoipa::path(get, path = "/api/v1/submissions/{id}", tag = "submissions",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = SubmissionDetail), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn submission(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<SubmissionDetail> {
    let detail = submissions::detail(&state.domain, &user, id).await?;
    Ok(Json(SubmissionDetail::of(
        detail,
        locale::for_caller(Some(&user)),
    )))
}

/// How long a stream stays open after `done` for the explanation of a wrong answer: it is
/// bounded by the explanation's own budget (10 s of wall time) plus queueing on a busy worker.
const EXPLANATION_WAIT: Duration = Duration::from_secs(30);

/// How long a user with too many streams open is asked to wait (for one to end).
const STREAM_RETRY_SECS: u64 = 5;

/// Server-sent events: `state` (now), then `test` per test as judged, then `done`, then for a
/// wrong answer or runtime error whose explanation the caller may see, `explanation` when it is
/// found (an [`ExplanationView`]). Workers on
/// other machines are followed by re-reading the store every second. A user may have only a
/// few streams open at once (429 beyond that); a stream's place is free again when it ends.
#[utoipa::path(get, path = "/api/v1/submissions/{id}/events", tag = "submissions",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, content_type = "text/event-stream",
        description = "events `state` {status, attempt}, `test` (a test result, as in `SubmissionDetail.tests`), `done` {verdict, score, max_score, compile_message, subtasks (as in `SubmissionDetail.subtasks`), explains}, then when `explains`, `explanation` (an ExplanationView) once found"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody,
            headers(("retry-after" = u64, description = "seconds to wait")))))]
pub(super) async fn events(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let following = submissions::follow(&state.domain, &user, id).await?;
    // Decided here: the stream's task runs outside the request.
    let locale = locale::for_caller(Some(&user));
    let slot = state.streams.take(user.id).ok_or(Error::Throttled {
        what: "too many event streams open at once",
        retry_after_secs: STREAM_RETRY_SECS,
    })?;
    // Subscribed before the first snapshot is read, so nothing falls between the two.
    let mut live = state.domain.events.subscribe();
    let mut stopping = state.domain.events.stopping();
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    tokio::spawn(async move {
        let event =
            |name: &str, data: &Value| Ok(Event::default().event(name).data(data.to_string()));
        let mut sent = -1i64; // the last test position sent
        let mut announced: Option<i64> = None; // the attempt last told about
        let mut poll = tokio::time::interval(Duration::from_secs(1));
        // The attempt whose `done` was sent, and until when its explanation is waited for.
        let mut done_sent: Option<i64> = None;
        let mut explanation_due: Option<tokio::time::Instant> = None;
        loop {
            // The store is the truth: catch up from it, then wait for news.
            let Some((now, tests)) = following.snapshot(&state.domain).await else {
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
            let subtasks = (now.status == SubmissionStatus::Done).then(|| {
                following
                    .subtasks(&state.domain, &now, &tests)
                    .into_iter()
                    .map(SubtaskResultView::from)
                    .collect::<Vec<_>>()
            });
            for test in tests.into_iter().filter(|t| t.position > since) {
                sent = test.position;
                let Some(shown) = following.test(&now, test) else {
                    continue;
                };
                if tx
                    .send(event("test", &json!(TestView::of(shown, locale))))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            if let Some(subtasks) = subtasks.filter(|_| done_sent != Some(now.attempts)) {
                done_sent = Some(now.attempts);
                explanation_due = following
                    .explains(&state.domain, &now)
                    .then(|| tokio::time::Instant::now() + EXPLANATION_WAIT);
                let done = json!({
                    "explains": explanation_due.is_some(),
                    "verdict": now.verdict,
                    "score": now.score,
                    "max_score": now.max_score,
                    "compile_message": now.compile_message,
                    "subtasks": subtasks,
                });
                if tx.send(event("done", &done)).await.is_err() {
                    return;
                }
            }
            if now.status == SubmissionStatus::Done {
                let Some(due) = explanation_due else {
                    return;
                };
                if let Ok(Some(found)) = following.explanation(&state.domain).await {
                    // Free before the last event: whoever reads it may follow another at once.
                    drop(slot);
                    let _ = tx
                        .send(event(
                            "explanation",
                            &json!(ExplanationView::of(found, locale)),
                        ))
                        .await;
                    return;
                }
                if tokio::time::Instant::now() >= due {
                    return;
                }
            }
            loop {
                tokio::select! {
                    news = live.recv() => match news {
                        Ok(changed) if changed == id => break,
                        Ok(_) => continue,
                        Err(RecvError::Lagged(_)) => break,
                        Err(RecvError::Closed) => return,
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
