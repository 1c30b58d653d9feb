//! Assignments: problems with open, due and closing times, a late penalty, a scoring rule and a
//! feedback level; per-student extensions; students' personal instances, which teachers can
//! view, regenerate and pin; the gradebook, as JSON and CSV.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use grundy_coursework::Gradebook;
use grundy_store::{Assignment, Feedback, Scoring};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::JsonResult;
use super::caller::CurrentUser;
use super::error::{ApiError, JsonObject};
use super::views::{ErrorBody, FeedbackName, InstanceList, MemberRoleName, ScoringName};
use super::whole;
use crate::domain::assignments::{self, Draft, Part, Standing, StudentInstances, StudentProblem};
use crate::domain::courses;
use crate::state::AppState;

/// An assignment as a teacher sets it. Times are Unix milliseconds from 1970 to the end of
/// 9999, in order: opens ≤ due ≤ closes (refused with 400 otherwise, a rule between fields the
/// schema cannot state).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentBody {
    /// Trimmed; 1 to 200 characters.
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
    )]
    pub title: String,
    #[serde(deserialize_with = "whole::i64")]
    #[schema(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub opens_at: i64,
    #[serde(deserialize_with = "whole::i64")]
    #[schema(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub due_at: i64,
    /// The hard deadline (default: the due time, so nothing late is taken).
    #[serde(default, deserialize_with = "whole::option_i64")]
    #[schema(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub closes_at: Option<i64>,
    /// Lost per started step late (default 0).
    #[serde(default, deserialize_with = "whole::i64")]
    #[schema(minimum = 0, maximum = 100)]
    pub penalty_percent: i64,
    /// The step, a minute to 366 days (default a day).
    #[serde(default, deserialize_with = "whole::option_i64")]
    #[schema(minimum = 60_000, maximum = 31_622_400_000_i64)]
    pub penalty_step_ms: Option<i64>,
    /// `best` by default.
    pub scoring: Option<ScoringName>,
    /// `tests` by default.
    pub feedback: Option<FeedbackName>,
    /// Also run programs on each student's personal instances (problems with generators
    /// only): worth no points, but their verdicts count and, with feedback `inputs`, a
    /// student sees their own failing inputs.
    #[serde(default)]
    pub personal_tests: bool,
    /// Run every test of a program (default `false`: a subtask stops at its first failed test,
    /// the rest recorded as `skipped`, which changes no verdict and no score and saves the
    /// class's judging time; `true` shows a student every test's result).
    #[serde(default)]
    pub run_every_test: bool,
    /// Built-in problems, variants or uploaded packages the caller sees, by slug (404 for one
    /// they do not).
    // Unique too, which `api::completed` says (utoipa has no attribute for it).
    #[schema(min_items = 1, max_items = 50)]
    pub problems: Vec<String>,
}

impl AssignmentBody {
    fn into_draft(self) -> Draft {
        Draft {
            title: self.title,
            opens_at: self.opens_at,
            due_at: self.due_at,
            closes_at: self.closes_at,
            penalty_percent: self.penalty_percent,
            penalty_step_ms: self.penalty_step_ms,
            scoring: self.scoring.map_or(Scoring::Best, Into::into),
            feedback: self.feedback.map_or(Feedback::Tests, Into::into),
            personal_tests: self.personal_tests,
            run_every_test: self.run_every_test,
            problems: self.problems,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssignmentSummary {
    pub id: i64,
    pub course_id: i64,
    pub title: String,
    pub opens_at: i64,
    pub due_at: i64,
    pub closes_at: i64,
    pub problems: Vec<String>,
}

impl From<Assignment> for AssignmentSummary {
    fn from(a: Assignment) -> AssignmentSummary {
        AssignmentSummary {
            id: a.id,
            course_id: a.course_id,
            title: a.spec.title,
            opens_at: a.spec.opens_at,
            due_at: a.spec.due_at,
            closes_at: a.spec.closes_at,
            problems: a.spec.problems,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssignmentView {
    pub id: i64,
    pub course_id: i64,
    pub title: String,
    pub opens_at: i64,
    pub due_at: i64,
    pub closes_at: i64,
    pub penalty_percent: i64,
    pub penalty_step_ms: i64,
    pub scoring: ScoringName,
    pub feedback: FeedbackName,
    pub personal_tests: bool,
    pub run_every_test: bool,
    pub problems: Vec<String>,
}

impl From<Assignment> for AssignmentView {
    fn from(a: Assignment) -> AssignmentView {
        let s = a.spec;
        AssignmentView {
            id: a.id,
            course_id: a.course_id,
            title: s.title,
            opens_at: s.opens_at,
            due_at: s.due_at,
            closes_at: s.closes_at,
            penalty_percent: s.penalty_percent,
            penalty_step_ms: s.penalty_step_ms,
            scoring: s.scoring.into(),
            feedback: s.feedback.into(),
            personal_tests: s.personal_tests,
            run_every_test: s.run_every_test,
            problems: s.problems,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExtensionView {
    pub user_id: i64,
    pub due_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssignmentDetail {
    #[serde(flatten)]
    pub assignment: AssignmentView,
    /// The caller's part in the course.
    pub role: MemberRoleName,
    /// For students: their times and their line of the gradebook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mine: Option<Standing>,
    /// For teachers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<ExtensionView>>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExtensionBody {
    /// The student's own due time, from the class's due time to the end of 9999 (400 before
    /// the class's, a rule between this and the assignment), or null to take the extension
    /// back.
    #[serde(default, deserialize_with = "whole::option_i64")]
    #[schema(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub due_at: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PinBody {
    pub pinned: bool,
}

#[utoipa::path(post, path = "/api/v1/courses/{id}/assignments", tag = "courses",
    params(("id" = i64, Path)), request_body = AssignmentBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = AssignmentView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn create_assignment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(course): Path<i64>,
    body: Result<JsonObject<AssignmentBody>, ApiError>,
) -> Result<(StatusCode, Json<AssignmentView>), ApiError> {
    // Outsiders learn nothing from how their body is refused: the caller's part comes first.
    courses::teaching(&state.domain, &user, course).await?;
    let JsonObject(body) = body?;
    let created = assignments::create(&state.domain, &user, course, body.into_draft()).await?;
    Ok((StatusCode::CREATED, Json(created.into())))
}

#[utoipa::path(put, path = "/api/v1/assignments/{id}", tag = "courses",
    params(("id" = i64, Path)), request_body = AssignmentBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = AssignmentView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn update_assignment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<JsonObject<AssignmentBody>, ApiError>,
) -> JsonResult<AssignmentView> {
    assignments::teaching(&state.domain, &user, id).await?;
    let JsonObject(body) = body?;
    let updated = assignments::update(&state.domain, &user, id, body.into_draft()).await?;
    Ok(Json(updated.into()))
}

/// Deletes an assignment nobody has submitted to, with its problem list, extensions and
/// personal instances; one with submissions is edited instead (409).
#[utoipa::path(delete, path = "/api/v1/assignments/{id}", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "deleted"), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn delete_assignment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    assignments::delete(&state.domain, &user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/api/v1/assignments/{id}", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = AssignmentDetail), (status = 404, body = ErrorBody)))]
pub(super) async fn assignment(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<AssignmentDetail> {
    let view = assignments::view(&state.domain, &user, id).await?;
    let (mine, extensions) = match view.part {
        Part::Student(standing) => (Some(standing), None),
        Part::Teacher { extensions } => {
            let extensions = extensions
                .into_iter()
                .map(|e| ExtensionView {
                    user_id: e.user_id,
                    due_at: e.due_at,
                })
                .collect();
            (None, Some(extensions))
        }
    };
    Ok(Json(AssignmentDetail {
        assignment: view.assignment.into(),
        role: view.role.into(),
        mine,
        extensions,
    }))
}

#[utoipa::path(put, path = "/api/v1/assignments/{id}/extensions/{user}", tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path)), request_body = ExtensionBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn set_extension(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, student)): Path<(i64, i64)>,
    body: Result<JsonObject<ExtensionBody>, ApiError>,
) -> Result<StatusCode, ApiError> {
    assignments::teaching(&state.domain, &user, id).await?;
    let JsonObject(body) = body?;
    assignments::set_extension(&state.domain, &user, id, student, body.due_at).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/api/v1/assignments/{id}/gradebook", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, description = "per student and problem: score after penalties, \
        penalty, counted submission and its time, attempts; class means"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn gradebook(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<Gradebook> {
    Ok(Json(
        assignments::gradebook(&state.domain, &user, id).await?,
    ))
}

#[utoipa::path(get, path = "/api/v1/assignments/{id}/gradebook.csv", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, content_type = "text/csv",
        description = "a line per student, then the class means"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn gradebook_csv(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<axum::response::Response, ApiError> {
    let csv = assignments::gradebook_csv(&state.domain, &user, id).await?;
    Ok(csv_download(id, csv))
}

/// The gradebook as a file to save (the page's download link comes here too).
fn csv_download(id: i64, csv: String) -> axum::response::Response {
    (
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"assignment-{id}.csv\""),
            ),
        ],
        csv,
    )
        .into_response()
}

/// The caller's own instances of a problem of the assignment. Their inputs and answers come to
/// at most 24 MiB: a problem whose draw passes that is refused with 409 as soon as it does.
#[utoipa::path(get, path = "/api/v1/assignments/{id}/problems/{slug}/instances", tag = "courses",
    params(("id" = i64, Path), ("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = InstanceList), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody,
            description = "the assignment is not open yet, or the instances come to more than 24 MiB")))]
pub(super) async fn my_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, slug)): Path<(i64, String)>,
) -> JsonResult<InstanceList> {
    let drawn = assignments::my_instances(&state.domain, &user, id, &slug).await?;
    Ok(Json(InstanceList::of(drawn)))
}

/// A student's instances with the reference answers, for their teacher; at most 24 MiB, as the
/// student's own (409 past that).
#[utoipa::path(get, path = "/api/v1/assignments/{id}/students/{user}/problems/{slug}", tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path), ("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = StudentInstances), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the instances come to more than 24 MiB")))]
pub(super) async fn view_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, student, slug)): Path<(i64, i64, String)>,
) -> JsonResult<StudentInstances> {
    Ok(Json(
        assignments::student_instances(
            &state.domain,
            &user,
            &StudentProblem::new(id, student, &slug),
        )
        .await?,
    ))
}

#[utoipa::path(post, path = "/api/v1/assignments/{id}/students/{user}/problems/{slug}/regenerate",
    tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path), ("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = StudentInstances), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn regenerate_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, student, slug)): Path<(i64, i64, String)>,
) -> JsonResult<StudentInstances> {
    Ok(Json(
        assignments::regenerate(
            &state.domain,
            &user,
            &StudentProblem::new(id, student, &slug),
        )
        .await?,
    ))
}

#[utoipa::path(put, path = "/api/v1/assignments/{id}/students/{user}/problems/{slug}/pin",
    tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path), ("slug" = String, Path)),
    request_body = PinBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = StudentInstances), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn pin_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, student, slug)): Path<(i64, i64, String)>,
    body: Result<JsonObject<PinBody>, ApiError>,
) -> JsonResult<StudentInstances> {
    assignments::teaching(&state.domain, &user, id).await?;
    let JsonObject(body) = body?;
    Ok(Json(
        assignments::pin(
            &state.domain,
            &user,
            &StudentProblem::new(id, student, &slug),
            body.pinned,
        )
        .await?,
    ))
}
