//! Courses: a teacher creates one; students join with its code or accept the invitation a
//! teacher's import sends them (accounts an import makes join at once); co-teachers accept an
//! invitation too. A course is visible to its members only.

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
use super::views::{ErrorBody, MemberOriginName, MemberRoleName};
use crate::domain::Error;
use crate::domain::courses::{self, Import, ImportReport, Membership, Pending};
use crate::http::messages;
use crate::locale::{self, Locale};
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
    /// How they came to be in the course.
    pub origin: MemberOriginName,
    pub joined_at: i64,
}

/// Someone a teacher of the course invited, who has not joined.
#[derive(Debug, Serialize, ToSchema)]
pub struct InviteeView {
    pub user_id: i64,
    pub name: String,
    /// The part offered.
    pub role: MemberRoleName,
    pub invited_by: Option<String>,
    pub invited_at: i64,
    /// Set when they declined: nobody may ask them again (they may still join with the code).
    pub declined_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseDetail {
    #[serde(flatten)]
    pub course: CourseView,
    /// Everyone for teachers; the teachers for students.
    pub members: Vec<MemberView>,
    pub assignments: Vec<AssignmentSummary>,
    /// For the course's teachers: invitations not accepted (waiting or declined).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitations: Option<Vec<InviteeView>>,
}

/// An invitation into a course, waiting for the caller's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationView {
    pub id: i64,
    pub course_id: i64,
    pub course_title: String,
    /// The part offered: `student`, or `teacher` (co-teaching).
    pub role: MemberRoleName,
    pub invited_by: Option<String>,
    pub invited_at: i64,
    /// The course's teachers now.
    pub teachers: Vec<String>,
    /// What accepting shares, in the caller's language: for a student, that the course's
    /// teachers see the work submitted for its assignments; for a co-teacher, that the course's
    /// other teachers see the caller's draft problems and the hidden tests of the caller's
    /// problems in its assignments, and that the caller sees its students' work.
    pub shares: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationList {
    pub invitations: Vec<InvitationView>,
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
                origin: m.origin.into(),
                joined_at: m.joined_at,
            })
            .collect(),
        assignments: overview
            .assignments
            .into_iter()
            .map(|listed| AssignmentSummary::from(listed.assignment))
            .collect(),
        invitations: overview.membership.teaching().then(|| {
            overview
                .invitations
                .into_iter()
                .map(|i| InviteeView {
                    user_id: i.user_id,
                    name: i.name,
                    role: i.role.into(),
                    invited_by: i.invited_by,
                    invited_at: i.invited_at,
                    declined_at: i.declined_at,
                })
                .collect()
        }),
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

/// Adds people by name. An account this import makes (`create_missing`, students only) is in the
/// course at once (`added`, `created`). Every existing account, student or co-teacher, is sent an
/// invitation instead (`invited`): it joins when its person accepts (`POST
/// /api/v1/invitations/{id}/accept`); someone who declined is not asked again (`refused`).
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

#[utoipa::path(delete, path = "/api/v1/courses/{id}/invitations/{user}", tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
/// Withdraws the course's waiting invitation of `user` (the course's teachers; a declined one
/// stays).
pub(super) async fn withdraw_invitation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, invitee)): Path<(i64, i64)>,
) -> Result<StatusCode, ApiError> {
    courses::withdraw(&state.domain, &user, id, invitee).await?;
    Ok(StatusCode::NO_CONTENT)
}

impl InvitationView {
    fn of(pending: Pending, locale: Locale) -> InvitationView {
        let invitation = pending.invitation;
        InvitationView {
            shares: messages::invitation_shares(locale, invitation.role).to_owned(),
            id: invitation.id,
            course_id: invitation.course_id,
            course_title: invitation.course_title,
            role: invitation.role.into(),
            invited_by: invitation.invited_by,
            invited_at: invitation.invited_at,
            teachers: pending.teachers,
        }
    }
}

/// The invitations into courses waiting for the caller's answer, newest first.
#[utoipa::path(get, path = "/api/v1/invitations", tag = "courses",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = InvitationList), (status = 401, body = ErrorBody)))]
pub(super) async fn list_invitations(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> JsonResult<InvitationList> {
    let locale = locale::for_caller(Some(&user));
    let invitations = courses::invitations(&state.domain, &user)
        .await?
        .into_iter()
        .map(|pending| InvitationView::of(pending, locale))
        .collect();
    Ok(Json(InvitationList { invitations }))
}

/// Accepts an invitation: the caller is in the course, in the part it offered.
#[utoipa::path(post, path = "/api/v1/invitations/{id}/accept", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseView), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn accept_invitation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> JsonResult<CourseView> {
    let membership = courses::accept(&state.domain, &user, id).await?;
    Ok(Json(CourseView::of(&membership)))
}

/// Declines an invitation: the course's teachers see it declined and cannot ask again.
#[utoipa::path(post, path = "/api/v1/invitations/{id}/decline", tag = "courses",
    params(("id" = i64, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub(super) async fn decline_invitation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    courses::decline(&state.domain, &user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A membership made by a teacher without its member's act.
#[derive(Debug, Serialize, ToSchema)]
pub struct MadeByCourseView {
    pub course_id: i64,
    pub course_title: String,
    pub user_id: i64,
    pub name: String,
    pub role: MemberRoleName,
    pub joined_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MadeByCourseList {
    pub memberships: Vec<MadeByCourseView>,
}

/// For admins: the memberships that a course's teacher made before anyone was asked (origin
/// `course`), to review. Remove one with `DELETE /api/v1/courses/{id}/members/{user}`; a
/// co-teacher so added shares no drafts or hidden tests until invited again and accepting.
#[utoipa::path(get, path = "/api/v1/admin/memberships", tag = "courses",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = MadeByCourseList), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub(super) async fn memberships_to_review(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> JsonResult<MadeByCourseList> {
    let memberships = courses::made_by_courses(&state.domain, &user)
        .await?
        .into_iter()
        .map(|m| MadeByCourseView {
            course_id: m.course_id,
            course_title: m.course_title,
            user_id: m.user_id,
            name: m.name,
            role: m.role.into(),
            joined_at: m.joined_at,
        })
        .collect();
    Ok(Json(MadeByCourseList { memberships }))
}
