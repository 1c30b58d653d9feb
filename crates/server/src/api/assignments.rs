//! Assignments: problems with open, due and closing times, a late penalty, a scoring rule and a
//! feedback level; per-student extensions; students' personal instances, which teachers can
//! view, regenerate and pin; the gradebook, as JSON and CSV.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use grundy_coursework::{Deadlines, Gradebook, Row, check_spec};
use grundy_store::{Assignment, AssignmentSpec, Feedback, MemberRole, Scoring, User};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::JsonResult;
use super::problems::{draw_instances, find, instance_list};
use super::submissions::personal_draw;
use super::views::{ErrorBody, InstanceList};
use crate::access;
use crate::auth::CurrentUser;
use crate::error::rejection;
use crate::{ApiError, AppState};

const DAY_MS: i64 = 86_400_000;

/// An assignment as a teacher sets it. Times are Unix milliseconds.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssignmentBody {
    pub title: String,
    pub opens_at: i64,
    pub due_at: i64,
    /// The hard deadline (default: the due time, so nothing late is taken).
    pub closes_at: Option<i64>,
    /// Lost per started step late (default 0).
    #[serde(default)]
    pub penalty_percent: i64,
    /// The step (default a day).
    pub penalty_step_ms: Option<i64>,
    /// `best` (default) or `last`.
    pub scoring: Option<String>,
    /// `verdict`, `tests` (default) or `inputs`.
    pub feedback: Option<String>,
    /// Also run programs on each student's personal instances (problems with generators
    /// only): worth no points, but their verdicts count and, with feedback `inputs`, a
    /// student sees their own failing inputs.
    #[serde(default)]
    pub personal_tests: bool,
    /// Built-in problems, variants or uploaded packages, by slug.
    pub problems: Vec<String>,
}

impl AssignmentBody {
    fn into_spec(self) -> Result<AssignmentSpec, ApiError> {
        Ok(AssignmentSpec {
            title: self.title.trim().to_owned(),
            opens_at: self.opens_at,
            due_at: self.due_at,
            closes_at: self.closes_at.unwrap_or(self.due_at),
            penalty_percent: self.penalty_percent,
            penalty_step_ms: self.penalty_step_ms.unwrap_or(DAY_MS),
            scoring: match self.scoring.as_deref() {
                None => Scoring::Best,
                Some(text) => Scoring::parse(text).ok_or_else(|| {
                    ApiError::BadRequest(format!("unknown scoring {text:?} (best or last)"))
                })?,
            },
            feedback: match self.feedback.as_deref() {
                None => Feedback::Tests,
                Some(text) => Feedback::parse(text).ok_or_else(|| {
                    ApiError::BadRequest(format!(
                        "unknown feedback {text:?} (verdict, tests or inputs)"
                    ))
                })?,
            },
            personal_tests: self.personal_tests,
            problems: self.problems,
        })
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
    #[schema(value_type = String)]
    pub scoring: Scoring,
    #[schema(value_type = String)]
    pub feedback: Feedback,
    pub personal_tests: bool,
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
            scoring: s.scoring,
            feedback: s.feedback,
            personal_tests: s.personal_tests,
            problems: s.problems,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExtensionView {
    pub user_id: i64,
    pub due_at: i64,
}

/// A student's own standing: their times and their line of the gradebook.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyStanding {
    pub due_at: i64,
    pub closes_at: i64,
    #[schema(value_type = Object)]
    pub grade: Row,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AssignmentDetail {
    #[serde(flatten)]
    pub assignment: AssignmentView,
    /// The caller's part in the course.
    pub role: String,
    /// For students.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mine: Option<MyStanding>,
    /// For teachers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Vec<ExtensionView>>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExtensionBody {
    /// The student's own due time, or null to take the extension back.
    pub due_at: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PinBody {
    pub pinned: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AnsweredInstance {
    pub name: String,
    pub group: String,
    pub input: String,
    /// The reference answer.
    pub answer: String,
}

/// A student's personal instances of one problem, as their teacher sees them.
#[derive(Debug, Serialize, ToSchema)]
pub struct StudentInstances {
    pub user_id: i64,
    pub problem: String,
    pub version: u32,
    /// Bumped by each regeneration.
    pub generation: i64,
    /// A pinned draw does not change.
    pub pinned: bool,
    pub instances: Vec<AnsweredInstance>,
}

/// Checks what a teacher set, including that every problem exists.
fn checked(state: &AppState, body: AssignmentBody) -> Result<AssignmentSpec, ApiError> {
    let spec = body.into_spec()?;
    check_spec(&spec).map_err(ApiError::BadRequest)?;
    if let Some(unknown) = spec
        .problems
        .iter()
        .find(|p| state.problems.get(p).is_none())
    {
        return Err(ApiError::BadRequest(format!(
            "no problem named {unknown:?}"
        )));
    }
    Ok(spec)
}

/// Creates an assignment in a course the caller teaches.
pub(crate) async fn create(
    state: &AppState,
    user: &User,
    course: i64,
    body: AssignmentBody,
) -> Result<Assignment, ApiError> {
    access::teaching(state, user, course).await?;
    let spec = checked(state, body)?;
    Ok(state
        .store
        .create_assignment(course, &spec, state.clock.now())
        .await?)
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
    body: Result<Json<AssignmentBody>, JsonRejection>,
) -> Result<(StatusCode, Json<AssignmentView>), ApiError> {
    // Outsiders learn nothing from how their body is refused.
    access::teaching(&state, &user, course).await?;
    let Json(body) = body.map_err(rejection)?;
    let created = create(&state, &user, course, body).await?;
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
    body: Result<Json<AssignmentBody>, JsonRejection>,
) -> JsonResult<AssignmentView> {
    access::assignment_as_teacher(&state, &user, id).await?;
    let Json(body) = body.map_err(rejection)?;
    let spec = checked(&state, body)?;
    state.store.update_assignment(id, &spec).await?;
    let updated = state
        .store
        .assignment(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("assignment {id}")))?;
    Ok(Json(updated.into()))
}

/// The gradebook of an assignment: its course's students, by name.
pub(crate) async fn grade(
    state: &AppState,
    assignment: &Assignment,
) -> Result<Gradebook, ApiError> {
    let mut students: Vec<_> = state
        .store
        .members(assignment.course_id)
        .await?
        .into_iter()
        .filter(|m| m.role == MemberRole::Student)
        .collect();
    // By name, the same on both backends (their collations differ).
    students.sort_by(|a, b| a.name.cmp(&b.name));
    let extensions = state.store.extensions(assignment.id).await?;
    let submissions = state.store.assignment_submissions(assignment.id).await?;
    let max_scores: BTreeMap<String, i64> = assignment
        .spec
        .problems
        .iter()
        .filter_map(|slug| {
            let entry = state.problems.get(slug)?;
            let points: u32 = entry.problem.spec.subtasks.iter().map(|s| s.points).sum();
            Some((slug.clone(), i64::from(points)))
        })
        .collect();
    Ok(grundy_coursework::gradebook(
        assignment,
        &students,
        &extensions,
        &submissions,
        &max_scores,
    ))
}

/// A student's times and gradebook line.
pub(crate) async fn standing(
    state: &AppState,
    assignment: &Assignment,
    user: &User,
) -> Result<MyStanding, ApiError> {
    let extension = state
        .store
        .extensions(assignment.id)
        .await?
        .into_iter()
        .find(|e| e.user_id == user.id)
        .map(|e| e.due_at);
    let deadlines = Deadlines::for_student(&assignment.spec, extension);
    let submissions: Vec<_> = state
        .store
        .assignment_submissions(assignment.id)
        .await?
        .into_iter()
        .filter(|s| s.user_id == user.id)
        .collect();
    let me = grundy_store::Member {
        user_id: user.id,
        name: user.name.clone(),
        role: MemberRole::Student,
        joined_at: 0,
    };
    let mut book = grundy_coursework::gradebook(
        assignment,
        std::slice::from_ref(&me),
        &extension
            .map(|due_at| grundy_store::Extension {
                user_id: user.id,
                due_at,
            })
            .into_iter()
            .collect::<Vec<_>>(),
        &submissions,
        &BTreeMap::new(),
    );
    Ok(MyStanding {
        due_at: deadlines.due_at,
        closes_at: deadlines.closes_at,
        grade: book.rows.remove(0),
    })
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
    let (found, role) = access::assignment(&state, &user, id).await?;
    let (mine, extensions) = match role {
        MemberRole::Student => (Some(standing(&state, &found, &user).await?), None),
        MemberRole::Teacher => {
            let extensions = state.store.extensions(id).await?;
            let views = extensions
                .into_iter()
                .map(|e| ExtensionView {
                    user_id: e.user_id,
                    due_at: e.due_at,
                })
                .collect();
            (None, Some(views))
        }
    };
    Ok(Json(AssignmentDetail {
        assignment: found.into(),
        role: role.as_str().to_owned(),
        mine,
        extensions,
    }))
}

/// `student` is one of the assignment's course's students, or "not found".
async fn require_student(
    state: &AppState,
    assignment: &Assignment,
    student: i64,
) -> Result<(), ApiError> {
    if state
        .store
        .member_role(assignment.course_id, student)
        .await?
        == Some(MemberRole::Student)
    {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!(
            "student {student} in this course"
        )))
    }
}

/// Gives a student of the course their own due time (`None` takes it back).
pub(crate) async fn extend(
    state: &AppState,
    assignment: &Assignment,
    student: i64,
    due_at: Option<i64>,
) -> Result<(), ApiError> {
    require_student(state, assignment, student).await?;
    if let Some(due) = due_at
        && !(assignment.spec.due_at..=grundy_coursework::rules::LATEST_TIME).contains(&due)
    {
        return Err(ApiError::BadRequest(
            "an extension lies between the class's due time and the end of 9999".into(),
        ));
    }
    state
        .store
        .set_extension(assignment.id, student, due_at)
        .await?;
    Ok(())
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
    body: Result<Json<ExtensionBody>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    let Json(body) = body.map_err(rejection)?;
    extend(&state, &found, student, body.due_at).await?;
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
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    Ok(Json(grade(&state, &found).await?))
}

/// The gradebook as a CSV download.
pub(crate) async fn csv_response(
    state: &AppState,
    found: &Assignment,
) -> Result<axum::response::Response, ApiError> {
    let book = grade(state, found).await?;
    let csv = book
        .to_csv()
        .map_err(|e| ApiError::Internal(format!("writing the CSV: {e}")))?;
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"assignment-{}.csv\"", found.id),
            ),
        ],
        csv,
    )
        .into_response())
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
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    csv_response(&state, &found).await
}

/// Students see an assignment's instances from its opening, not before.
pub(crate) fn not_before_opening(
    state: &AppState,
    assignment: &Assignment,
) -> Result<(), ApiError> {
    if state.clock.now() < assignment.spec.opens_at {
        return Err(ApiError::Conflict(format!(
            "the assignment opens at {}",
            crate::web::when(assignment.spec.opens_at)
        )));
    }
    Ok(())
}

/// The problem, checked to be part of the assignment.
fn listed(assignment: &Assignment, slug: &str) -> Result<(), ApiError> {
    if assignment.spec.problems.iter().any(|p| p == slug) {
        Ok(())
    } else {
        Err(ApiError::NotFound(format!(
            "problem {slug:?} in assignment {}",
            assignment.id
        )))
    }
}

#[utoipa::path(get, path = "/api/v1/assignments/{id}/problems/{slug}/instances", tag = "courses",
    params(("id" = i64, Path), ("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = InstanceList), (status = 404, body = ErrorBody)))]
pub(super) async fn my_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, slug)): Path<(i64, String)>,
) -> JsonResult<InstanceList> {
    let (found, role) = access::assignment(&state, &user, id).await?;
    listed(&found, &slug)?;
    if role == MemberRole::Student {
        not_before_opening(&state, &found)?;
    }
    let entry = find(&state, &slug)?;
    let (draw, seed) = personal_draw(&state, id, user.id, &slug).await?;
    let (version, drawn) = draw_instances(&entry, seed as u64).await?;
    Ok(Json(instance_list(
        slug,
        version,
        Some(draw.generation),
        drawn,
    )))
}

/// A student's current draw with the reference answers, for their teacher.
pub(crate) async fn student_instances(
    state: &AppState,
    assignment: &Assignment,
    student: i64,
    slug: &str,
) -> Result<StudentInstances, ApiError> {
    listed(assignment, slug)?;
    require_student(state, assignment, student).await?;
    let entry = find(state, slug)?;
    let (draw, seed) = personal_draw(state, assignment.id, student, slug).await?;
    let (version, drawn) = draw_instances(&entry, seed as u64).await?;
    Ok(StudentInstances {
        user_id: student,
        problem: slug.to_owned(),
        version,
        generation: draw.generation,
        pinned: draw.pinned,
        instances: drawn
            .into_iter()
            .map(|(group, i)| AnsweredInstance {
                name: i.name,
                group,
                input: i.input,
                answer: i.answer,
            })
            .collect(),
    })
}

#[utoipa::path(get, path = "/api/v1/assignments/{id}/students/{user}/problems/{slug}", tag = "courses",
    params(("id" = i64, Path), ("user" = i64, Path), ("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = StudentInstances), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn view_instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((id, student, slug)): Path<(i64, i64, String)>,
) -> JsonResult<StudentInstances> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    Ok(Json(
        student_instances(&state, &found, student, &slug).await?,
    ))
}

/// Draws the student new instances; refused while their draw is pinned. Their earlier
/// submissions keep the seed they answered.
pub(crate) async fn regenerate(
    state: &AppState,
    assignment: &Assignment,
    student: i64,
    slug: &str,
) -> Result<StudentInstances, ApiError> {
    // The student and the problem are checked before anything changes; drawing waits.
    listed(assignment, slug)?;
    require_student(state, assignment, student).await?;
    if state
        .store
        .regenerate_instance(assignment.id, student, slug)
        .await?
        .is_none()
    {
        return Err(ApiError::Conflict(
            "this draw is pinned; unpin it to regenerate".into(),
        ));
    }
    student_instances(state, assignment, student, slug).await
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
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    Ok(Json(regenerate(&state, &found, student, &slug).await?))
}

pub(crate) async fn pin(
    state: &AppState,
    assignment: &Assignment,
    student: i64,
    slug: &str,
    pinned: bool,
) -> Result<StudentInstances, ApiError> {
    listed(assignment, slug)?;
    require_student(state, assignment, student).await?;
    state
        .store
        .pin_instance(assignment.id, student, slug, pinned)
        .await?;
    student_instances(state, assignment, student, slug).await
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
    body: Result<Json<PinBody>, JsonRejection>,
) -> JsonResult<StudentInstances> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    let Json(body) = body.map_err(rejection)?;
    Ok(Json(
        pin(&state, &found, student, &slug, body.pinned).await?,
    ))
}
