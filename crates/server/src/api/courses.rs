//! Courses: a teacher creates one, students join with its code or are imported from a list,
//! co-teachers are added the same way. A course is visible to its members only.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use grundy_store::{Course, MemberRole, Role, StoreError};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::JsonResult;
use super::assignments::AssignmentSummary;
use super::views::ErrorBody;
use crate::access;
use crate::auth::{CurrentUser, Teacher};
use crate::error::rejection;
use crate::{ApiError, AppState};

/// Letters and digits nobody misreads (no 0/O, 1/I/L).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH: usize = 8;
const PASSWORD_LENGTH: usize = 14;
/// Names in one import; each new account costs a password hash.
const MAX_IMPORT: usize = 200;

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewCourse {
    pub title: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CourseView {
    pub id: i64,
    pub title: String,
    /// Shown to the course's teachers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join_code: Option<String>,
    /// The caller's part: `teacher` or `student`.
    pub role: String,
}

impl CourseView {
    pub(crate) fn of(course: Course, role: MemberRole) -> CourseView {
        CourseView {
            id: course.id,
            title: course.title,
            join_code: (role == MemberRole::Teacher).then_some(course.join_code),
            role: role.as_str().to_owned(),
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
    pub role: String,
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
    /// User names, one per entry.
    pub names: Vec<String>,
    /// `student` (the default) or `teacher` (co-teachers: their accounts must be teachers').
    pub role: Option<String>,
    /// Create accounts for students who have none, with a fresh password each.
    #[serde(default)]
    pub create_missing: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewAccount {
    pub name: String,
    /// Shown once: hand it to the student.
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Refused {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct ImportReport {
    pub added: Vec<String>,
    /// In the course already (their part is left as it was).
    pub already: Vec<String>,
    pub created: Vec<NewAccount>,
    pub refused: Vec<Refused>,
}

/// `length` characters nobody misreads: join codes, and (in lower case) new passwords.
fn random_code(length: usize) -> String {
    let mut rng = rand::rng();
    (0..length)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// Creates a course with a fresh join code; the caller is its first teacher.
pub(crate) async fn create(
    state: &AppState,
    teacher: i64,
    title: &str,
) -> Result<Course, ApiError> {
    let title = title.trim();
    if title.is_empty() || title.chars().count() > 200 {
        return Err(ApiError::BadRequest(
            "a course title has 1 to 200 characters".into(),
        ));
    }
    // A clash of 8 characters from 31 is rare; a few tries make it vanish.
    for _ in 0..5 {
        match state
            .store
            .create_course(title, &random_code(CODE_LENGTH), teacher, state.clock.now())
            .await
        {
            Err(StoreError::Conflict(_)) => continue,
            other => return Ok(other?),
        }
    }
    Err(ApiError::Internal("no free join code after 5 tries".into()))
}

#[utoipa::path(post, path = "/api/v1/courses", tag = "courses", request_body = NewCourse,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = CourseView), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub(super) async fn create_course(
    State(state): State<AppState>,
    Teacher(user): Teacher,
    body: Result<Json<NewCourse>, JsonRejection>,
) -> Result<(StatusCode, Json<CourseView>), ApiError> {
    let Json(new) = body.map_err(rejection)?;
    let course = create(&state, user.0.id, &new.title).await?;
    Ok((
        StatusCode::CREATED,
        Json(CourseView::of(course, MemberRole::Teacher)),
    ))
}

/// The caller's courses (every course for admins), newest first.
pub(crate) async fn visible_courses(
    state: &AppState,
    user: &grundy_store::User,
) -> Result<Vec<CourseView>, ApiError> {
    if user.role == Role::Admin {
        return Ok(state
            .store
            .courses()
            .await?
            .into_iter()
            .map(|c| CourseView::of(c, MemberRole::Teacher))
            .collect());
    }
    Ok(state
        .store
        .courses_of(user.id)
        .await?
        .into_iter()
        .map(|(c, role)| CourseView::of(c, role))
        .collect())
}

#[utoipa::path(get, path = "/api/v1/courses", tag = "courses",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseList), (status = 401, body = ErrorBody)))]
pub(super) async fn list_courses(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> JsonResult<CourseList> {
    Ok(Json(CourseList {
        courses: visible_courses(&state, &user).await?,
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
    let (course, role) = access::course(&state, &user, id).await?;
    let members = state
        .store
        .members(id)
        .await?
        .into_iter()
        .filter(|m| role == MemberRole::Teacher || m.role == MemberRole::Teacher)
        .map(|m| MemberView {
            user_id: m.user_id,
            name: m.name,
            role: m.role.as_str().to_owned(),
            joined_at: m.joined_at,
        })
        .collect();
    let assignments = state
        .store
        .assignments(id)
        .await?
        .into_iter()
        .map(AssignmentSummary::from)
        .collect();
    Ok(Json(CourseDetail {
        course: CourseView::of(course, role),
        members,
        assignments,
    }))
}

/// Joins the course whose code this is, as a student; a member already keeps their part.
pub(crate) async fn join(
    state: &AppState,
    user: &grundy_store::User,
    code: &str,
) -> Result<CourseView, ApiError> {
    let code = code.trim().to_uppercase();
    let Some(course) = state.store.course_by_code(&code).await? else {
        return Err(ApiError::NotFound("a course with this join code".into()));
    };
    state
        .store
        .add_member(course.id, user.id, MemberRole::Student, state.clock.now())
        .await?;
    let role = state
        .store
        .member_role(course.id, user.id)
        .await?
        .unwrap_or(MemberRole::Student);
    Ok(CourseView::of(course, role))
}

#[utoipa::path(post, path = "/api/v1/courses/join", tag = "courses", request_body = JoinBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = CourseView), (status = 404, body = ErrorBody)))]
pub(super) async fn join_course(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> JsonResult<CourseView> {
    let Json(body) = body.map_err(rejection)?;
    Ok(Json(join(&state, &user, &body.code).await?))
}

/// Adds people by name: students (creating accounts for the missing ones if asked) or
/// co-teachers, who must have teachers' accounts.
pub(crate) async fn import(
    state: &AppState,
    course: i64,
    names: &[String],
    role: MemberRole,
    create_missing: bool,
) -> Result<ImportReport, ApiError> {
    let names: Vec<&str> = names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > MAX_IMPORT {
        return Err(ApiError::BadRequest(format!(
            "at most {MAX_IMPORT} names at once"
        )));
    }
    let mut report = ImportReport::default();
    for name in names {
        let refuse = |reason: &str| Refused {
            name: name.to_owned(),
            reason: reason.to_owned(),
        };
        let user = match state.store.user_by_name(name).await? {
            Some(user) => user,
            None if create_missing && role == MemberRole::Student => {
                let password = random_code(PASSWORD_LENGTH).to_lowercase();
                match super::account::add_user(state, name, Role::Student, Some(password.clone()))
                    .await
                {
                    Ok(user) => {
                        report.created.push(NewAccount {
                            name: name.to_owned(),
                            password,
                        });
                        user
                    }
                    // A bad name, or one taken meanwhile: the others go on, so passwords
                    // already made are still reported.
                    Err(ApiError::BadRequest(reason) | ApiError::Conflict(reason)) => {
                        report.refused.push(refuse(&reason));
                        continue;
                    }
                    Err(other) => return Err(other),
                }
            }
            None => {
                report.refused.push(refuse("no such user"));
                continue;
            }
        };
        if role == MemberRole::Teacher && user.role == Role::Student {
            report
                .refused
                .push(refuse("a student's account cannot teach"));
            continue;
        }
        // A teacher's or admin's account joins a course only as a co-teacher, by its own
        // choice of join code otherwise.
        if role == MemberRole::Student && user.role != Role::Student {
            report
                .refused
                .push(refuse("not a student's account (add it as a co-teacher)"));
            continue;
        }
        if state
            .store
            .add_member(course, user.id, role, state.clock.now())
            .await?
        {
            report.added.push(user.name);
        } else {
            report.already.push(user.name);
        }
    }
    Ok(report)
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
    body: Result<Json<ImportBody>, JsonRejection>,
) -> JsonResult<ImportReport> {
    access::teaching(&state, &user, id).await?;
    let Json(body) = body.map_err(rejection)?;
    let role = match body.role.as_deref() {
        None => MemberRole::Student,
        Some(text) => MemberRole::parse(text).ok_or_else(|| {
            ApiError::BadRequest(format!("unknown role {text:?} (student or teacher)"))
        })?,
    };
    Ok(Json(
        import(&state, id, &body.names, role, body.create_missing).await?,
    ))
}

/// Takes someone out of a course (their submissions stay); the last teacher stays.
pub(crate) async fn remove(state: &AppState, course: i64, user: i64) -> Result<(), ApiError> {
    let members = state.store.members(course).await?;
    let teachers = members
        .iter()
        .filter(|m| m.role == MemberRole::Teacher)
        .count();
    let Some(member) = members.iter().find(|m| m.user_id == user) else {
        return Err(ApiError::NotFound(format!("member {user}")));
    };
    if member.role == MemberRole::Teacher && teachers == 1 {
        return Err(ApiError::Conflict(
            "a course keeps at least one teacher".into(),
        ));
    }
    state.store.remove_member(course, user).await?;
    Ok(())
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
    access::teaching(&state, &user, id).await?;
    remove(&state, id, member).await?;
    Ok(StatusCode::NO_CONTENT)
}
