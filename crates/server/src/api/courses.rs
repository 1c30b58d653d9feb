//! Courses: a teacher creates one, students join with its code or are imported from a list,
//! co-teachers are added the same way. A course is visible to its members only.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use grundy_store::MemberRole;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::JsonResult;
use super::assignments::AssignmentSummary;
use super::caller::{CurrentUser, Teacher};
use super::error::{ApiError, JsonObject};
use super::views::{ErrorBody, MemberRoleName};
use crate::domain::Error;
use crate::domain::courses::{self, Import, ImportReport, Membership};
use crate::state::AppState;

/// Names in one import.
const MAX_NAMES: usize = 200;

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewCourse {
    /// 1 to 200 characters, not all blank (it is trimmed).
    #[schema(
        min_length = 1,
        max_length = 200,
        pattern = r"[^\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
    )]
    pub title: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseView {
    pub id: i64,
    pub title: String,
    /// Shown to the course's teachers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join_code: Option<String>,
    /// The caller's part.
    pub role: MemberRoleName,
}

impl CourseView {
    fn of(membership: &Membership) -> CourseView {
        CourseView {
            id: membership.course.id,
            title: membership.course.title.clone(),
            join_code: membership.join_code().map(str::to_owned),
            role: membership.role.into(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseList {
    pub courses: Vec<CourseView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MemberView {
    pub user_id: i64,
    pub name: String,
    pub role: MemberRoleName,
    pub joined_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseDetail {
    #[serde(flatten)]
    pub course: CourseView,
    /// Everyone for teachers; the teachers for students.
    pub members: Vec<MemberView>,
    pub assignments: Vec<AssignmentSummary>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct JoinBody {
    pub code: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportBody {
    /// User names, one per entry (blank ones are skipped).
    #[schema(max_items = 200)] // MAX_NAMES
    pub names: Vec<String>,
    /// Students by default; co-teachers' accounts must be teachers'.
    pub role: Option<MemberRoleName>,
    /// Create accounts for students who have none, with a fresh password each.
    #[serde(default)]
    pub create_missing: bool,
}

#[utoipa::path(post, path = "/api/v1/courses", tag = "courses", request_body = NewCourse,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = CourseView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub(super) async fn create_course(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    body: Result<JsonObject<NewCourse>, ApiError>,
) -> Result<(StatusCode, Json<CourseView>), ApiError> {
    let JsonObject(new) = body?;
    let course = courses::create(&state.domain, &user, &new.title).await?;
    let membership = Membership {
        course,
        role: MemberRole::Teacher,
    };
    Ok((StatusCode::CREATED, Json(CourseView::of(&membership))))
}

#[utoipa::path(get, path = "/api/v1/courses", tag = "courses",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseList), (status = 401, body = ErrorBody)))]
pub(super) async fn list_courses(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> JsonResult<CourseList> {
    let courses = courses::mine(&state.domain, &user).await?;
    Ok(Json(CourseList {
        courses: courses
            .into_iter()
            .map(|membership| CourseView::of(&membership))
            .collect(),
    }))
}

#[utoipa::path(get, path = "/api/v1/courses/{id}", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseDetail), (status = 404, body = ErrorBody)))]
pub(super) async fn course(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<CourseDetail> {
    let overview = courses::overview(&state.domain, &user, id).await?;
    Ok(Json(CourseDetail {
        course: CourseView::of(&overview.membership),
        members: overview
            .members
            .into_iter()
            .map(|m| MemberView {
                user_id: m.user_id,
                name: m.name,
                role: m.role.into(),
                joined_at: m.joined_at,
            })
            .collect(),
        assignments: overview
            .assignments
            .into_iter()
            .map(|listed| AssignmentSummary::from(listed.assignment))
            .collect(),
    }))
}

#[utoipa::path(post, path = "/api/v1/courses/join", tag = "courses", request_body = JoinBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseView), (status = 404, body = ErrorBody)))]
pub(super) async fn join_course(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<JsonObject<JoinBody>, ApiError>,
) -> JsonResult<CourseView> {
    let JsonObject(body) = body?;
    let membership = courses::join(&state.domain, &user, &body.code).await?;
    Ok(Json(CourseView::of(&membership)))
}

#[utoipa::path(post, path = "/api/v1/courses/{id}/members", tag = "courses",
    params(("id" = i64, Path)), request_body = ImportBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = ImportReport), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn add_members(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<JsonObject<ImportBody>, ApiError>,
) -> JsonResult<ImportReport> {
    // Outsiders learn nothing from how their body is refused: the caller's part comes first.
    courses::teaching(&state.domain, &user, id).await?;
    let JsonObject(body) = body?;
    // Counted as sent, blanks included, as the document says; pages may paste blank lines.
    if body.names.len() > MAX_NAMES {
        return Err(Error::BadRequest(format!("at most {MAX_NAMES} names at once")).into());
    }
    let import = Import {
        names: body.names,
        role: body.role.map_or(MemberRole::Student, Into::into),
        create_missing: body.create_missing,
    };
    Ok(Json(
        courses::import(&state.domain, &user, id, import).await?,
    ))
}

#[utoipa::path(delete, path = "/api/v1/courses/{id}/members/{user}", tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub(super) async fn remove_member(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, member)): Path<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    courses::remove_member(&state.domain, &user, id, member).await?;
    Ok(StatusCode::NO_CONTENT)
}
