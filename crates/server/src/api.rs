//! `/api/v1`: problems, submissions, live progress, rejudging, health.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use grundy_store::{NewSubmission, Submission, SubmissionKind, SubmissionStatus};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_stream::wrappers::ReceiverStream;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::auth::CurrentUser;
use crate::error::rejection;
use crate::{ApiError, AppState, now_ms};

pub(crate) fn routes(state: AppState) -> Router {
    let limits = state.limits;
    let timed = Router::new()
        .route("/api/v1/health", get(health))
        .route("/api/v1/version", get(version))
        .route("/api/v1/problems", get(list_problems))
        .route("/api/v1/problems/{slug}", get(problem))
        .route("/api/v1/problems/{slug}/rejudge", post(rejudge_problem))
        .route(
            "/api/v1/submissions",
            get(list_submissions).post(create_submission),
        )
        .route("/api/v1/submissions/{id}", get(submission))
        .route("/api/v1/submissions/{id}/rejudge", post(rejudge))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout,
        ));
    // Event streams live as long as judging does: no request timeout there.
    let streams = Router::new().route("/api/v1/submissions/{id}/events", get(events));
    timed
        .merge(streams)
        .fallback(|| async { ApiError::NotFound("this route".into()) })
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(CatchPanicLayer::new())
        .with_state(state)
}

async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    state.store.count_users().await?;
    Ok(Json(
        json!({ "status": "ok", "database": state.store.backend() }),
    ))
}

async fn version() -> Json<Value> {
    Json(json!({ "name": "grundy", "version": env!("CARGO_PKG_VERSION") }))
}

#[derive(Debug, Deserialize)]
struct ProblemFilter {
    tag: Option<String>,
}

async fn list_problems(
    State(state): State<AppState>,
    Query(filter): Query<ProblemFilter>,
) -> Json<Value> {
    let problems: Vec<Value> = state
        .catalogue
        .iter()
        .filter(|p| filter.tag.as_ref().is_none_or(|t| p.spec.tags.contains(t)))
        .map(|p| {
            json!({
                "slug": p.slug(),
                "title": p.title("en"),
                "difficulty": p.spec.difficulty.as_str(),
                "tags": p.spec.tags,
                "version": p.spec.version,
                "time_limit_ms": p.spec.time_limit_ms,
                "memory_limit_mib": p.spec.memory_limit_mib,
            })
        })
        .collect();
    Json(json!({ "problems": problems }))
}

#[derive(Debug, Deserialize)]
struct StatementQuery {
    lang: Option<String>,
}

async fn problem(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    Query(query): Query<StatementQuery>,
) -> Result<Json<Value>, ApiError> {
    let p = state
        .catalogue
        .get(&slug)
        .ok_or_else(|| ApiError::NotFound(format!("problem {slug:?}")))?;
    let lang = query.lang.as_deref().unwrap_or("en");
    let statement = p
        .statement(lang)
        .ok_or_else(|| ApiError::NotFound(format!("a {lang:?} statement of {slug:?}")))?;
    let subtasks: Vec<Value> = p
        .spec
        .subtasks
        .iter()
        .map(|s| json!({ "name": s.name, "points": s.points, "tests": s.tests }))
        .collect();
    let samples: Vec<Value> = p
        .samples
        .iter()
        .map(|s| json!({ "name": s.name, "input": s.input, "answer": s.answer }))
        .collect();
    let languages: Vec<Value> = state
        .languages
        .available()
        .iter()
        .map(|l| json!({ "id": l.id(), "name": l.spec.name }))
        .collect();
    Ok(Json(json!({
        "slug": p.slug(),
        "title": p.title(lang),
        "version": p.spec.version,
        "difficulty": p.spec.difficulty.as_str(),
        "tags": p.spec.tags,
        "statement_markdown": statement,
        "statement_languages": p.statement_languages().collect::<Vec<_>>(),
        "time_limit_ms": p.spec.time_limit_ms,
        "memory_limit_mib": p.spec.memory_limit_mib,
        "subtasks": subtasks,
        "samples": samples,
        "languages": languages,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewProgram {
    problem: String,
    language: String,
    source: String,
}

async fn create_submission(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<NewProgram>, axum::extract::rejection::JsonRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Json(new) = body.map_err(rejection)?;
    if state.catalogue.get(&new.problem).is_none() {
        return Err(ApiError::BadRequest(format!(
            "no problem named {:?}",
            new.problem
        )));
    }
    state
        .languages
        .get(&new.language)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    if new.source.trim().is_empty() {
        return Err(ApiError::BadRequest("the source is empty".into()));
    }
    if new.source.len() > state.limits.source_bytes {
        return Err(ApiError::BadRequest(format!(
            "the source is larger than {} bytes",
            state.limits.source_bytes
        )));
    }
    let id = state
        .store
        .create_submission(
            &NewSubmission {
                user_id: user.id,
                problem: new.problem,
                kind: SubmissionKind::Program,
                language: Some(new.language),
                source: new.source.into_bytes(),
                priority: 0,
            },
            now_ms(),
        )
        .await?;
    state.queued.notify_waiters();
    state.queued.notify_one();
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "status": "queued" })),
    ))
}

#[derive(Debug, Deserialize)]
struct SubmissionFilter {
    problem: Option<String>,
    limit: Option<i64>,
}

async fn list_submissions(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(filter): Query<SubmissionFilter>,
) -> Result<Json<Value>, ApiError> {
    let owner = (!user.sees_all()).then_some(user.0.id);
    let limit = filter.limit.unwrap_or(50).clamp(1, 500);
    let found = state
        .store
        .submissions(owner, filter.problem.as_deref(), limit)
        .await?;
    Ok(Json(json!({ "submissions": found })))
}

/// The submission if the caller may see it; someone else's is "not found", not "forbidden",
/// so ids reveal nothing.
async fn visible(state: &AppState, user: &CurrentUser, id: i64) -> Result<Submission, ApiError> {
    match state.store.submission(id).await? {
        Some(s) if user.sees_all() || s.user_id == user.0.id => Ok(s),
        _ => Err(ApiError::NotFound(format!("submission {id}"))),
    }
}

async fn submission(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let found = visible(&state, &user, id).await?;
    let tests = state.store.test_results(id).await?;
    let mut doc = serde_json::to_value(&found).map_err(|e| ApiError::Internal(e.to_string()))?;
    doc["tests"] = serde_json::to_value(&tests).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(doc))
}

fn teacher(user: &CurrentUser) -> Result<(), ApiError> {
    if user.sees_all() {
        Ok(())
    } else {
        Err(ApiError::Forbidden("teachers and admins only"))
    }
}

async fn rejudge(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<i64>,
) -> Result<impl IntoResponse, ApiError> {
    teacher(&user)?;
    if !state.store.rejudge(id).await? {
        return Err(ApiError::NotFound(format!("submission {id}")));
    }
    state.queued.notify_one();
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "id": id, "status": "queued" })),
    ))
}

async fn rejudge_problem(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(slug): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    teacher(&user)?;
    let count = state.store.rejudge_problem(&slug).await?;
    state.queued.notify_waiters();
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "problem": slug, "queued": count })),
    ))
}

/// Server-sent events: `state` (now), then `test` per test as judged, then `done`. Workers on
/// other machines are followed by re-reading the store every second.
async fn events(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    visible(&state, &user, id).await?;
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
            let (Ok(Some(now)), Ok(tests)) = (
                state.store.submission(id).await,
                state.store.test_results(id).await,
            ) else {
                return;
            };
            // A new attempt (a worker died, a rejudge) starts its tests from position 0 again:
            // the attempt count changes, or fewer results are stored than were already sent.
            let restarted = announced.is_some_and(|tries| tries != now.attempts)
                || (tests.len() as i64) <= sent;
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
            for test in tests.iter().filter(|t| t.position > since) {
                sent = test.position;
                if tx.send(event("test", &json!(test))).await.is_err() {
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
