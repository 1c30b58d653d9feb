//! Teachers' work: problem packages in, packages out, variants of built-in games, rejudging.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use std::collections::BTreeMap;

use grundy_problems::families::octal::OctalRequest;
use grundy_problems::{VariantRequest, VariantSubtask};
use serde::Deserialize;
use utoipa::ToSchema;

use super::JsonResult;
use super::caller::Teacher;
use super::error::{ApiError, JsonObject};
use super::views::{Created, ErrorBody, ProblemSummary, Queued, SubmissionStatusName};
use super::whole;
use crate::domain::{Error, teaching};
use crate::state::AppState;

/// Uploads a problem package: a zip in the Kattis/ICPC layout (`problem.yaml`,
/// `statement/problem.en.md`, `data/sample/*.in|.ans`, `data/secret/*.in|.ans`, optionally
/// `output_validators/<name>/<one file>`; with `type: interactive`, or `validation: custom
/// interactive` in the legacy format, that validator is the interactor, run in a sandbox of its
/// own and talking with the program). The slug is `grundy.slug` in problem.yaml or the
/// archive's top folder. Uploading the same slug again makes a new version. A new problem is a
/// draft until `POST /api/v1/problems/{slug}/publish`. Refused with 409 when the uploader's
/// problems would take more than their quota (each counted as its zip plus its files unpacked;
/// a variant or a game as its files plus the tests it generates). Refused with 422 when the
/// package has more than 20 test groups (subtasks), more than 400 secret tests in all, or
/// unpacks to more than 64 MiB.
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
            Error::TooLarge
        } else {
            Error::BadRequest(e.body_text())
        }
    })?;
    let entry = teaching::add_package(&state.domain, &user, bytes).await?;
    Ok((StatusCode::CREATED, Json(ProblemSummary::of(&entry))))
}

/// A variant as a teacher asks for it; what is not given comes from the base problem.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantBody {
    /// 2 to 48 lower-case letters, digits and hyphens, starting with a letter or digit.
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{1,47}$")]
    pub slug: String,
    pub title: VariantTitle,
    #[serde(default, deserialize_with = "whole::option_u32")]
    #[schema(minimum = 0, maximum = 4294967295_u32)]
    pub time_limit_ms: Option<u32>,
    #[serde(default, deserialize_with = "whole::option_u32")]
    #[schema(minimum = 0, maximum = 4294967295_u32)]
    pub memory_limit_mib: Option<u32>,
    /// The root of the tests' randomness (the base's if not given).
    #[serde(default, deserialize_with = "whole::option_u64")]
    #[schema(minimum = 0)]
    pub seed: Option<u64>,
    pub subtasks: Vec<VariantSubtaskBody>,
}

/// The title in each statement language (`grundy_problems::LANGUAGES`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantTitle {
    pub en: String,
    pub vi: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantSubtaskBody {
    pub name: String,
    #[serde(deserialize_with = "whole::u32")]
    #[schema(minimum = 0, maximum = 4294967295_u32)]
    pub points: u32,
    #[serde(deserialize_with = "whole::u32")]
    #[schema(minimum = 0, maximum = 4294967295_u32)]
    pub tests: u32,
    /// The family's generator parameters, checked as those of `problem.toml` are (422 when
    /// the family refuses them: each family has its own).
    #[schema(value_type = Object)]
    pub generator: toml::Table,
}

impl From<VariantBody> for VariantRequest {
    fn from(body: VariantBody) -> VariantRequest {
        let mut title = BTreeMap::from([("en".to_owned(), body.title.en)]);
        title.extend(body.title.vi.map(|vi| ("vi".to_owned(), vi)));
        VariantRequest {
            slug: body.slug,
            title,
            time_limit_ms: body.time_limit_ms,
            memory_limit_mib: body.memory_limit_mib,
            seed: body.seed,
            subtasks: body
                .subtasks
                .into_iter()
                .map(|s| VariantSubtask {
                    name: s.name,
                    points: s.points,
                    tests: s.tests as usize,
                    generator: s.generator,
                })
                .collect(),
        }
    }
}

/// Creates a variant of a built-in game, a draft until published: another slug, title, limits
/// and subtasks whose `generator` parameters the family checks; statement, generator and
/// reference come from the family. A problem has at most 20 subtasks and 400 tests in all
/// (else 422). Its tests are generated once here and measured: more than 64 MiB is refused with
/// 422, more than the owner's quota leaves with 409, and what they take counts against the
/// quota with the variant's files, so judging never generates more than was charged.
#[utoipa::path(post, path = "/api/v1/problems/{slug}/variants", tag = "teaching",
    params(("slug" = String, Path, description = "the base problem")),
    request_body = VariantBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = ProblemSummary), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn create_variant(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(base): Path<String>,
    body: Result<JsonObject<VariantBody>, ApiError>,
) -> Result<(StatusCode, Json<ProblemSummary>), ApiError> {
    // An unknown base is "not found" whatever the body says.
    crate::domain::problems::visible(&state.domain, Some(&user), &base).await?;
    let JsonObject(body) = body?;
    let entry = teaching::add_variant(&state.domain, &user, &base, &body.into()).await?;
    Ok((StatusCode::CREATED, Json(ProblemSummary::of(&entry))))
}

/// A heap game by its octal code, to make a problem of.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct OctalBody {
    /// 2 to 48 lower-case letters, digits and hyphens, starting with a letter or digit.
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{1,47}$")]
    pub slug: String,
    pub title: VariantTitle,
    /// `0.d1d2…`, at most 32 digits, not all 0: digit k says whether removing k counters may
    /// leave no heap (1), one heap (2), two heaps (4), summed. Kayles is `0.77`.
    #[schema(pattern = "^0\\.[0-7]*[1-7][0-7]*$", max_length = 34)]
    pub code: String,
    /// How far to compute the values when no period is proven (10 000 when absent); the heaps
    /// of the problem stay within it. Values that take more than 4 s to compute are refused, so
    /// that the answer comes within 5 s.
    #[serde(default, deserialize_with = "whole::option_u64")]
    #[schema(minimum = 1000, maximum = 100000)]
    pub upto: Option<u64>,
}

/// Creates a problem from a heap game's octal code, a draft until published: the values are
/// computed and, where the Octal Game Periodicity Theorem proves a period, heaps go up to 10¹⁸;
/// the statement (English and Vietnamese) states the rule in words; tests, reference and checker
/// come from the code. Sending the slug of one's own problem makes a new version of it. The
/// answer comes within 5 s: values that take more than 4 s to compute are refused with 422,
/// naming how far they got (ask for a smaller `upto` or a shorter code). Its generated tests
/// count against the owner's quota, as a variant's do.
#[utoipa::path(post, path = "/api/v1/games", tag = "teaching",
    request_body = OctalBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = ProblemSummary), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn create_game(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    body: Result<JsonObject<OctalBody>, ApiError>,
) -> Result<(StatusCode, Json<ProblemSummary>), ApiError> {
    let JsonObject(body) = body?;
    let mut title = BTreeMap::from([("en".to_owned(), body.title.en)]);
    if let Some(vi) = body.title.vi {
        title.insert("vi".to_owned(), vi);
    }
    let request = OctalRequest {
        slug: body.slug,
        title,
        code: body.code,
        upto: body.upto.map(|u| usize::try_from(u).unwrap_or(usize::MAX)),
        seed: rand::random(),
    };
    let entry = teaching::add_octal(&state.domain, &user, request).await?;
    Ok((StatusCode::CREATED, Json(ProblemSummary::of(&entry))))
}

/// Publishes a draft (an uploaded package or a variant): from now on everyone sees it. Its owner
/// or an admin; publishing again changes nothing. A draft the caller does not see is "not found".
#[utoipa::path(post, path = "/api/v1/problems/{slug}/publish", tag = "teaching",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = ProblemSummary), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub(super) async fn publish_problem(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(slug): Path<String>,
) -> JsonResult<ProblemSummary> {
    let entry = teaching::publish(&state.domain, &user, &slug).await?;
    Ok(Json(ProblemSummary::of(&entry)))
}

/// Any problem as a Kattis/ICPC package (built-in ones with their generated tests), to take to
/// DOMjudge or Kattis. Teachers only: it holds the hidden tests. The package unpacks to at most
/// 64 MiB, what an upload may: a larger one is refused (409) as soon as it passes that.
#[utoipa::path(get, path = "/api/v1/problems/{slug}/package", tag = "teaching",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, content_type = "application/zip", body = Vec<u8>),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody,
            description = "a problem whose checker a package cannot carry, or whose files would \
                come to more than 64 MiB, the most a package may unpack to")))]
pub(super) async fn export_problem(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    Path(slug): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let zip = teaching::export(&state.domain, &user, &slug).await?;
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
    teaching::rejudge(&state.domain, &user, id).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Created {
            id,
            status: SubmissionStatusName::Queued,
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
    let queued = teaching::rejudge_problem(&state.domain, &user, &slug).await?;
    Ok((StatusCode::ACCEPTED, Json(Queued { queued })))
}
