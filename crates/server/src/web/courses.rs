//! Course pages: the list with join and create forms, a course (members, imports, assignments),
//! a new assignment, an assignment (a student's standing, or the teacher's gradebook with
//! extensions), and a student's personal instances for their teacher. The API's functions do
//! the work, so the rules are the API's.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use grundy_coursework::gradebook::format_points;
use grundy_coursework::{Deadlines, Timing};
use grundy_store::{Assignment, MemberRole, User};
use serde::Deserialize;

use super::{Frame, PageError, SignedIn, when};
use crate::api::assignments::{self, AssignmentBody, StudentInstances};
use crate::api::courses::{self, CourseView, ImportReport};
use crate::{ApiError, AppState, access};

#[derive(Template, WebTemplate)]
#[template(path = "courses/list.html")]
pub(super) struct CoursesPage {
    frame: Frame,
    courses: Vec<CourseView>,
    error: Option<String>,
}

async fn courses_page(
    state: &AppState,
    user: User,
    error: Option<String>,
) -> Result<CoursesPage, PageError> {
    let courses = courses::visible_courses(state, &user).await?;
    Ok(CoursesPage {
        frame: Frame::new(Some(user), "Courses"),
        courses,
        error,
    })
}

pub(super) async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> Result<Response, PageError> {
    Ok(courses_page(&state, user, None).await?.into_response())
}

/// A refused form comes back with the API's status and reason.
fn refused(error: ApiError, page: impl IntoResponse) -> Result<Response, PageError> {
    match error {
        ApiError::Internal(cause) => Err(ApiError::Internal(cause).into()),
        other => Ok((other.status(), page).into_response()),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct JoinForm {
    code: String,
}

pub(super) async fn join(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Form(form): Form<JoinForm>,
) -> Result<Response, PageError> {
    match courses::join(&state, &user, &form.code).await {
        Ok(course) => Ok(Redirect::to(&format!("/courses/{}", course.id)).into_response()),
        Err(e) => {
            let page = courses_page(&state, user, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct NewCourseForm {
    title: String,
}

pub(super) async fn create(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Form(form): Form<NewCourseForm>,
) -> Result<Response, PageError> {
    let made = match crate::auth::CurrentUser(user.clone()).require_teacher() {
        Ok(()) => courses::create(&state, user.id, &form.title).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(course) => Ok(Redirect::to(&format!("/courses/{}", course.id)).into_response()),
        Err(e) => {
            let page = courses_page(&state, user, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

struct MemberLine {
    id: i64,
    name: String,
    role: &'static str,
    joined: String,
}

struct AssignmentLine {
    id: i64,
    title: String,
    due: String,
    /// `upcoming`, `open`, `late` (past due, still taking work) or `closed`, for the viewer.
    status: &'static str,
    problems: usize,
}

fn status_of(deadlines: &Deadlines, now: i64) -> &'static str {
    match deadlines.timing(now) {
        Timing::NotOpen => "upcoming",
        Timing::Open { penalty_percent: 0 } => "open",
        Timing::Open { .. } => "late",
        Timing::Closed => "closed",
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/course.html")]
pub(super) struct CoursePage {
    frame: Frame,
    course: CourseView,
    teaching: bool,
    members: Vec<MemberLine>,
    assignments: Vec<AssignmentLine>,
    report: Option<ImportReport>,
    error: Option<String>,
}

async fn course_page(
    state: &AppState,
    user: User,
    id: i64,
    report: Option<ImportReport>,
    error: Option<String>,
) -> Result<CoursePage, PageError> {
    let (course, role) = access::course(state, &user, id).await?;
    let teaching = role == MemberRole::Teacher;
    let members = state
        .store
        .members(id)
        .await?
        .into_iter()
        .filter(|m| teaching || m.role == MemberRole::Teacher)
        .map(|m| MemberLine {
            id: m.user_id,
            name: m.name,
            role: m.role.as_str(),
            joined: when(m.joined_at),
        })
        .collect();
    let now = state.clock.now();
    let mut assignments = Vec::new();
    for a in state.store.assignments(id).await? {
        // Teachers see the class's times; a student their own.
        let extension = if teaching {
            None
        } else {
            state
                .store
                .extensions(a.id)
                .await?
                .into_iter()
                .find(|e| e.user_id == user.id)
                .map(|e| e.due_at)
        };
        let deadlines = Deadlines::for_student(&a.spec, extension);
        assignments.push(AssignmentLine {
            id: a.id,
            title: a.spec.title.clone(),
            due: when(deadlines.due_at),
            status: status_of(&deadlines, now),
            problems: a.spec.problems.len(),
        });
    }
    Ok(CoursePage {
        frame: Frame::new(Some(user), course.title.clone()),
        course: CourseView::of(course, role),
        teaching,
        members,
        assignments,
        report,
        error,
    })
}

pub(super) async fn course(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    Ok(course_page(&state, user, id, None, None)
        .await?
        .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct ImportForm {
    names: String,
    role: String,
    create_missing: Option<String>,
}

/// The report is shown on the page the import returns, not after a redirect: new passwords
/// are shown this once.
pub(super) async fn import(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Form(form): Form<ImportForm>,
) -> Result<Response, PageError> {
    access::teaching(&state, &user, id).await?;
    let role = MemberRole::parse(&form.role)
        .ok_or_else(|| ApiError::BadRequest(format!("unknown role {:?}", form.role)))?;
    let names: Vec<String> = form
        .names
        .split(['\n', ',', ';'])
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    match courses::import(&state, id, &names, role, form.create_missing.is_some()).await {
        Ok(report) => Ok(course_page(&state, user, id, Some(report), None)
            .await?
            .into_response()),
        Err(e) => {
            let page = course_page(&state, user, id, None, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

pub(super) async fn remove_member(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, member)): Path<(i64, i64)>,
) -> Result<Response, PageError> {
    access::teaching(&state, &user, id).await?;
    match courses::remove(&state, id, member).await {
        Ok(()) => Ok(Redirect::to(&format!("/courses/{id}")).into_response()),
        Err(e) => {
            let page = course_page(&state, user, id, None, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

struct ProblemChoice {
    slug: String,
    title: String,
    chosen: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/new_assignment.html")]
pub(super) struct NewAssignmentPage {
    frame: Frame,
    course: CourseView,
    problems: Vec<ProblemChoice>,
    form: AssignmentForm,
    error: Option<String>,
}

/// The form as typed: times are `datetime-local` values, read as UTC.
#[derive(Debug, Clone, Default)]
pub(super) struct AssignmentForm {
    title: String,
    opens: String,
    due: String,
    closes: String,
    penalty_percent: String,
    penalty_step_hours: String,
    scoring: String,
    feedback: String,
    personal_tests: bool,
    problems: Vec<String>,
}

const LOCAL_TIME: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]");

/// A time for a `datetime-local` field.
fn local(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(LOCAL_TIME).ok())
        .unwrap_or_default()
}

fn parse_local(field: &str, text: &str) -> Result<i64, ApiError> {
    let text = text.get(..16).unwrap_or(text);
    time::PrimitiveDateTime::parse(text, LOCAL_TIME)
        .map(|t| (t.assume_utc().unix_timestamp_nanos() / 1_000_000) as i64)
        .map_err(|_| ApiError::BadRequest(format!("{field}: give a date and time (UTC)")))
}

impl AssignmentForm {
    fn starting(now: i64) -> AssignmentForm {
        const DAY: i64 = 86_400_000;
        let today = now - now.rem_euclid(DAY);
        AssignmentForm {
            title: String::new(),
            opens: local(today),
            due: local(today + 8 * DAY),
            closes: local(today + 11 * DAY),
            penalty_percent: "10".into(),
            penalty_step_hours: "24".into(),
            scoring: "best".into(),
            feedback: "tests".into(),
            personal_tests: false,
            problems: Vec::new(),
        }
    }

    fn body(&self) -> Result<AssignmentBody, ApiError> {
        let number = |field: &str, text: &str| {
            text.trim()
                .parse::<i64>()
                .map_err(|_| ApiError::BadRequest(format!("{field}: give a whole number")))
        };
        Ok(AssignmentBody {
            title: self.title.clone(),
            opens_at: parse_local("opens", &self.opens)?,
            due_at: parse_local("due", &self.due)?,
            closes_at: Some(parse_local("closes", &self.closes)?),
            penalty_percent: number("penalty", &self.penalty_percent)?,
            penalty_step_ms: Some(
                number("penalty step", &self.penalty_step_hours)?.saturating_mul(3_600_000),
            ),
            scoring: Some(self.scoring.clone()),
            feedback: Some(self.feedback.clone()),
            personal_tests: self.personal_tests,
            problems: self.problems.clone(),
        })
    }
}

async fn new_assignment_page(
    state: &AppState,
    user: User,
    id: i64,
    form: AssignmentForm,
    error: Option<String>,
) -> Result<NewAssignmentPage, PageError> {
    let course = access::teaching(state, &user, id).await?;
    let problems = state
        .problems
        .list()
        .iter()
        .map(|e| ProblemChoice {
            slug: e.problem.slug().to_owned(),
            title: e.problem.title("en").to_owned(),
            chosen: form.problems.iter().any(|p| p == e.problem.slug()),
        })
        .collect();
    Ok(NewAssignmentPage {
        frame: Frame::new(Some(user), format!("New assignment — {}", course.title)),
        course: CourseView::of(course, MemberRole::Teacher),
        problems,
        form,
        error,
    })
}

pub(super) async fn new_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let form = AssignmentForm::starting(state.clock.now());
    Ok(new_assignment_page(&state, user, id, form, None)
        .await?
        .into_response())
}

pub(super) async fn create_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    // `problems` repeats (a multiple select): read as pairs.
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let mut form = AssignmentForm::default();
    for (key, value) in pairs {
        match key.as_str() {
            "title" => form.title = value,
            "opens" => form.opens = value,
            "due" => form.due = value,
            "closes" => form.closes = value,
            "penalty_percent" => form.penalty_percent = value,
            "penalty_step_hours" => form.penalty_step_hours = value,
            "scoring" => form.scoring = value,
            "feedback" => form.feedback = value,
            "personal_tests" => form.personal_tests = true,
            "problems" => form.problems.push(value),
            _ => {}
        }
    }
    let made = match form.body() {
        Ok(body) => assignments::create(&state, &user, id, body).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(created) => Ok(Redirect::to(&format!("/assignments/{}", created.id)).into_response()),
        Err(e) => {
            let page = new_assignment_page(&state, user, id, form, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

struct ProblemLine {
    slug: String,
    title: String,
    answer_mode: bool,
}

/// One cell of a gradebook or standing, as shown.
struct CellLine {
    score: String,
    penalty: i64,
    attempts: i64,
    pending: i64,
    submission: Option<i64>,
    counted_at: String,
}

impl CellLine {
    fn of(cell: &grundy_coursework::Cell) -> CellLine {
        CellLine {
            score: cell.score.map(format_points).unwrap_or_else(|| "—".into()),
            penalty: cell.penalty_percent,
            attempts: cell.attempts,
            pending: cell.pending,
            submission: cell.submission,
            counted_at: cell.counted_at.map(when).unwrap_or_default(),
        }
    }
}

struct GradeLine {
    user_id: i64,
    name: String,
    due: String,
    cells: Vec<CellLine>,
    total: String,
}

struct ExtensionLine {
    user_id: i64,
    name: String,
    due: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/assignment.html")]
pub(super) struct AssignmentPage {
    frame: Frame,
    id: i64,
    course_id: i64,
    title: String,
    opens: String,
    due: String,
    closes: String,
    /// The viewer's own, with an extension (students).
    my_due: String,
    my_closes: String,
    status: &'static str,
    penalty: String,
    scoring: String,
    feedback: String,
    personal_tests: bool,
    problems: Vec<ProblemLine>,
    teaching: bool,
    /// The student's line, or the class's.
    mine: Vec<CellLine>,
    my_total: String,
    grades: Vec<GradeLine>,
    means: Vec<String>,
    mean_total: String,
    max_total: i64,
    extensions: Vec<ExtensionLine>,
    students: Vec<(i64, String)>,
    extension_default: String,
    error: Option<String>,
}

fn penalty_words(a: &Assignment) -> String {
    let s = &a.spec;
    if s.closes_at == s.due_at {
        return "Nothing is accepted after the due time".into();
    }
    let hours = s.penalty_step_ms as f64 / 3_600_000.0;
    let step = if (hours - 24.0).abs() < f64::EPSILON {
        "day".to_owned()
    } else {
        format!("{} hours", format_points(hours))
    };
    format!(
        "Late work loses {}% per started {step}, until the hard deadline",
        s.penalty_percent
    )
}

async fn assignment_page(
    state: &AppState,
    user: User,
    id: i64,
    error: Option<String>,
) -> Result<AssignmentPage, PageError> {
    let (found, role) = access::assignment(state, &user, id).await?;
    let teaching = role == MemberRole::Teacher;
    let problems = found
        .spec
        .problems
        .iter()
        .map(|slug| {
            let entry = state.problems.get(slug);
            ProblemLine {
                slug: slug.clone(),
                title: entry
                    .as_ref()
                    .map_or_else(|| slug.clone(), |e| e.problem.title("en").to_owned()),
                answer_mode: entry.is_some_and(|e| e.problem.is_family_backed()),
            }
        })
        .collect();
    let mut page = AssignmentPage {
        frame: Frame::new(Some(user.clone()), found.spec.title.clone()),
        id,
        course_id: found.course_id,
        title: found.spec.title.clone(),
        opens: when(found.spec.opens_at),
        due: when(found.spec.due_at),
        closes: when(found.spec.closes_at),
        my_due: String::new(),
        my_closes: String::new(),
        status: "open",
        penalty: penalty_words(&found),
        scoring: found.spec.scoring.as_str().to_owned(),
        feedback: found.spec.feedback.as_str().to_owned(),
        personal_tests: found.spec.personal_tests,
        problems,
        teaching,
        mine: Vec::new(),
        my_total: String::new(),
        grades: Vec::new(),
        means: Vec::new(),
        mean_total: String::new(),
        max_total: 0,
        extensions: Vec::new(),
        students: Vec::new(),
        extension_default: local(found.spec.due_at.saturating_add(2 * 86_400_000)),
        error,
    };
    let now = state.clock.now();
    if teaching {
        let book = assignments::grade(state, &found).await?;
        page.status = status_of(&Deadlines::for_student(&found.spec, None), now);
        page.max_total = book.max_total;
        page.means = book
            .class
            .mean_scores
            .iter()
            .map(|m| format_points(*m))
            .collect();
        page.mean_total = format_points(book.class.mean_total);
        let names: BTreeMap<i64, String> = book
            .rows
            .iter()
            .map(|r| (r.user_id, r.name.clone()))
            .collect();
        // The gradebook's order: by name.
        page.students = book
            .rows
            .iter()
            .map(|r| (r.user_id, r.name.clone()))
            .collect();
        page.grades = book
            .rows
            .iter()
            .map(|r| GradeLine {
                user_id: r.user_id,
                name: r.name.clone(),
                due: when(r.due_at),
                cells: r.cells.iter().map(CellLine::of).collect(),
                total: format_points(r.total),
            })
            .collect();
        page.extensions = state
            .store
            .extensions(id)
            .await?
            .into_iter()
            .map(|e| ExtensionLine {
                user_id: e.user_id,
                name: names
                    .get(&e.user_id)
                    .cloned()
                    .unwrap_or_else(|| format!("#{}", e.user_id)),
                due: when(e.due_at),
            })
            .collect();
    } else {
        let standing = assignments::standing(state, &found, &user).await?;
        page.my_due = when(standing.due_at);
        page.my_closes = when(standing.closes_at);
        let extension = Some(standing.due_at);
        page.status = status_of(&Deadlines::for_student(&found.spec, extension), now);
        page.mine = standing.grade.cells.iter().map(CellLine::of).collect();
        page.my_total = format_points(standing.grade.total);
    }
    Ok(page)
}

pub(super) async fn assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    Ok(assignment_page(&state, user, id, None)
        .await?
        .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct ExtensionForm {
    user: i64,
    /// Empty to take the extension back.
    due: String,
}

pub(super) async fn extend(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Form(form): Form<ExtensionForm>,
) -> Result<Response, PageError> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    let due = if form.due.trim().is_empty() {
        Ok(None)
    } else {
        parse_local("extension", &form.due).map(Some)
    };
    let done = match due {
        Ok(due) => assignments::extend(&state, &found, form.user, due).await,
        Err(e) => Err(e),
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/assignments/{id}")).into_response()),
        Err(e) => {
            let page = assignment_page(&state, user, id, Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/instances.html")]
pub(super) struct InstancesPage {
    frame: Frame,
    assignment: i64,
    assignment_title: String,
    student: String,
    drawn: StudentInstances,
    error: Option<String>,
}

async fn instances_page(
    state: &AppState,
    user: User,
    (id, student, slug): (i64, i64, String),
    error: Option<String>,
) -> Result<InstancesPage, PageError> {
    let found = access::assignment_as_teacher(state, &user, id).await?;
    let drawn = assignments::student_instances(state, &found, student, &slug).await?;
    let name = state
        .store
        .user_by_id(student)
        .await?
        .map_or_else(|| format!("#{student}"), |u| u.name);
    Ok(InstancesPage {
        frame: Frame::new(Some(user), format!("{name} — {slug}")),
        assignment: id,
        assignment_title: found.spec.title,
        student: name,
        drawn,
        error,
    })
}

pub(super) async fn instances(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(path): Path<(i64, i64, String)>,
) -> Result<Response, PageError> {
    Ok(instances_page(&state, user, path, None)
        .await?
        .into_response())
}

pub(super) async fn regenerate(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, student, slug)): Path<(i64, i64, String)>,
) -> Result<Response, PageError> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    match assignments::regenerate(&state, &found, student, &slug).await {
        Ok(_) => Ok(Redirect::to(&format!(
            "/assignments/{id}/students/{student}/problems/{slug}"
        ))
        .into_response()),
        Err(e) => {
            let page =
                instances_page(&state, user, (id, student, slug), Some(e.to_string())).await?;
            refused(e, page)
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct PinForm {
    pinned: String,
}

pub(super) async fn pin(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, student, slug)): Path<(i64, i64, String)>,
    Form(form): Form<PinForm>,
) -> Result<Response, PageError> {
    let found = access::assignment_as_teacher(&state, &user, id).await?;
    assignments::pin(&state, &found, student, &slug, form.pinned == "true").await?;
    Ok(Redirect::to(&format!(
        "/assignments/{id}/students/{student}/problems/{slug}"
    ))
    .into_response())
}

/// What a problem page shows when opened from an assignment: where the submission goes.
#[derive(Debug, Clone)]
pub(crate) struct AssignmentTag {
    pub id: i64,
    pub title: String,
    pub due: String,
    /// A student's instances are theirs from the opening; teachers' at any time.
    pub opened: bool,
}

/// The assignment named by `?assignment=`, if the visitor is in its course and it lists the
/// problem.
pub(crate) async fn tag(
    state: &AppState,
    user: Option<&User>,
    id: Option<i64>,
    slug: &str,
) -> Result<Option<AssignmentTag>, PageError> {
    let (Some(user), Some(id)) = (user, id) else {
        return Ok(None);
    };
    let (found, role) = access::assignment(state, user, id).await?;
    if !found.spec.problems.iter().any(|p| p == slug) {
        return Err(ApiError::NotFound(format!("problem {slug:?} in assignment {id}")).into());
    }
    let extension = state
        .store
        .extensions(id)
        .await?
        .into_iter()
        .find(|e| e.user_id == user.id)
        .map(|e| e.due_at);
    Ok(Some(AssignmentTag {
        id,
        title: found.spec.title.clone(),
        due: when(Deadlines::for_student(&found.spec, extension).due_at),
        opened: role == MemberRole::Teacher
            || assignments::not_before_opening(state, &found).is_ok(),
    }))
}
