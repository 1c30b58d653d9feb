//! Teachers' work: problem packages in, packages out, variants of built-in games, rejudging.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use grundy_problems::{Problem, VariantRequest};

use super::problems::find;
use super::views::{Created, ErrorBody, ProblemSummary, Queued};
use crate::auth::{CurrentUser, Teacher};
use crate::error::rejection;
use crate::registry::{self, Entry, Origin};
use crate::{ApiError, AppState, now_ms};

/// Stores a new custom problem, or a new version of one the caller owns, and offers it.
async fn publish(
    state: &AppState,
    user: &CurrentUser,
    mut problem: Problem,
    origin: Origin,
    content: &[u8],
) -> Result<Arc<Entry>, ApiError> {
    let slug = problem.slug().to_owned();
    if !grundy_problems::is_valid_slug(&slug) {
        return Err(ApiError::Invalid(format!(
            "the slug {slug:?} is not allowed: 2 to 48 lower-case letters, digits and '-'"
        )));
    }
    if state.problems.is_builtin(&slug) {
        return Err(ApiError::Conflict(format!(
            "{slug:?} is a built-in problem; choose another slug"
        )));
    }
    let version = state
        .store
        .put_custom_problem(&slug, origin.as_str(), user.0.id, content, now_ms())
        .await?;
    problem.spec.version = u32::try_from(version)
        .map_err(|_| ApiError::Internal(format!("version {version} of {slug}")))?;
    // A package's digest hashes all its tests: off the async threads.
    let (problem, digest) = tokio::task::spawn_blocking(move || {
        let digest = grundy_judge::testset::digest(&problem);
        (problem, digest)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("digesting {slug}: {e}")))?;
    registry::record_version(&state.store, &problem, origin, digest).await?;
    let entry = state.problems.insert(problem, origin, user.0.id);
    tracing::info!(slug = %slug, version, origin = origin.as_str(), user = %user.0.name, "problem published");
    Ok(entry)
}

/// Reads a zipped package (off the async threads) and publishes it.
pub(crate) async fn publish_package(
    state: &AppState,
    user: &CurrentUser,
    bytes: Bytes,
) -> Result<Arc<Entry>, ApiError> {
    let unpacked = bytes.clone();
    let problem = tokio::task::spawn_blocking(move || {
        grundy_problems::read_zip(&unpacked, &registry::package_limits())
    })
    .await
    .map_err(|e| ApiError::Internal(format!("reading a package: {e}")))?
    .map_err(|e| ApiError::Invalid(e.to_string()))?;
    publish(state, user, problem, Origin::Package, &bytes).await
}

/// Builds a variant of `base` as the request describes and publishes it.
pub(crate) async fn publish_variant(
    state: &AppState,
    user: &CurrentUser,
    base: &Problem,
    request: &VariantRequest,
) -> Result<Arc<Entry>, ApiError> {
    let files =
        grundy_problems::variant(base, request).map_err(|e| ApiError::Invalid(e.to_string()))?;
    let problem =
        Problem::from_files(&request.slug, &files).map_err(|e| ApiError::Invalid(e.to_string()))?;
    let content = serde_json::to_vec(&files).map_err(|e| ApiError::Internal(e.to_string()))?;
    publish(state, user, problem, Origin::Variant, &content).await
}

/// Uploads a problem package: a zip in the Kattis/ICPC layout (`problem.yaml`,
/// `statement/problem.en.md`, `data/sample/*.in|.ans`, `data/secret/*.in|.ans`, optionally
/// `output_validators/<name>/<one file>`). The slug is `grundy.slug` in problem.yaml or the
/// archive's top folder. Uploading the same slug again makes a new version.
#[utoipa::path(post, path = "/api/v1/problems", tag = "teaching",
    request_body(content = Vec<u8>, content_type = "application/zip"),
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = ProblemSummary), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn upload_package(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<ProblemSummary>), ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(e.body_text())
        }
    })?;
    let entry = publish_package(&state, &user, bytes).await?;
    Ok((StatusCode::CREATED, Json(ProblemSummary::of(&entry))))
}

/// Creates a variant of a built-in game: another slug, title, limits and subtasks whose
/// `generator` parameters the family checks; statement, generator and reference come from the
/// family. Body: `{ "slug", "title": {"en": …}, "time_limit_ms"?, "memory_limit_mib"?, "seed"?,
/// "subtasks": [{ "name", "points", "tests", "generator": {…} }] }`.
#[utoipa::path(post, path = "/api/v1/problems/{slug}/variants", tag = "teaching",
    params(("slug" = String, Path, description = "the base problem")),
    request_body(content = Object, content_type = "application/json"),
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = ProblemSummary), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn create_variant(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(base): Path<String>,
    body: Result<Json<VariantRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<ProblemSummary>), ApiError> {
    let base = find(&state, &base)?;
    let Json(request) = body.map_err(rejection)?;
    let entry = publish_variant(&state, &user, &base.problem, &request).await?;
    Ok((StatusCode::CREATED, Json(ProblemSummary::of(&entry))))
}

/// Any problem as a Kattis/ICPC package (built-in ones with their generated tests), to take to
/// DOMjudge or Kattis. Teachers only: it holds the hidden tests.
#[utoipa::path(get, path = "/api/v1/problems/{slug}/package", tag = "teaching",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, content_type = "application/zip", body = Vec<u8>),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn export_problem(
    State(state): State<AppState>,
    _: Teacher,
    Path(slug): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let entry = find(&state, &slug)?;
    let problem = entry.problem.clone();
    let zip = tokio::task::spawn_blocking(move || grundy_problems::write_zip(&problem))
        .await
        .map_err(|e| ApiError::Internal(format!("writing a package: {e}")))?
        .map_err(|e| ApiError::Invalid(e.to_string()))?;
    Ok((
        [
            (CONTENT_TYPE, "application/zip".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"{slug}.zip\""),
            ),
        ],
        zip,
    ))
}

#[utoipa::path(post, path = "/api/v1/submissions/{id}/rejudge", tag = "teaching",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 202, body = Created), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn rejudge(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(id): Path<i64>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    super::submissions::visible(&state, &user, id).await?;
    if !state.store.rejudge(id).await? {
        return Err(ApiError::NotFound(format!("submission {id}")));
    }
    state.queued.notify_one();
    Ok((
        StatusCode::ACCEPTED,
        Json(Created {
            id,
            status: "queued".into(),
        }),
    ))
}

/// Queues every submission of a problem again (after a new version, say), behind fresh ones:
/// its owner's problems for a teacher, any for an admin.
#[utoipa::path(post, path = "/api/v1/problems/{slug}/rejudge", tag = "teaching",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 202, body = Queued), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn rejudge_problem(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(slug): Path<String>,
) -> Result<(StatusCode, Json<Queued>), ApiError> {
    if !crate::access::owns_problem(&state, &user.0, &slug).await? {
        return Err(ApiError::Forbidden(
            "only the problem's owner or an admin rejudges all of it",
        ));
    }
    let queued = state.store.rejudge_problem(&slug).await?;
    state.queued.notify_waiters();
    Ok((StatusCode::ACCEPTED, Json(Queued { queued })))
}
