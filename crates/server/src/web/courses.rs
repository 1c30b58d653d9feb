//! Course pages: the list with join and create forms, a course (members, imports, assignments),
//! a new assignment, an assignment (a student's standing, or the teacher's gradebook with
//! extensions), and a student's personal instances for their teacher. The operations of
//! `domain::courses` and `domain::assignments` do the work, so the rules are the API's too.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use grundy_coursework::Gradebook;
use grundy_coursework::gradebook::format_points;
use grundy_store::{Assignment, Extension, Feedback, MemberRole, Scoring, User};
use serde::Deserialize;

use super::ui::Ui;
use super::{Frame, PageError, SignedIn, refused, words_for};
use crate::domain::assignments::{self, Draft, Part, StudentInstances, StudentProblem};
use crate::domain::courses::{self, Import, ImportReport, Membership};
use crate::domain::{Error, named, problems};
use crate::state::AppState;
use crate::zone::{UNKNOWN_ZONE, Zone};

/// A course as a page shows it.
struct CourseLine {
    id: i64,
    title: String,
    /// Shown to the course's teachers only.
    join_code: Option<String>,
    role: &'static str,
}

impl CourseLine {
    fn of(membership: &Membership) -> CourseLine {
        CourseLine {
            id: membership.course.id,
            title: membership.course.title.clone(),
            join_code: membership.join_code().map(str::to_owned),
            role: membership.role.as_str(),
        }
    }
}

/// An invitation as its person reads it, with the forms that answer it.
pub(super) struct InvitationLine {
    pub(super) id: i64,
    /// Who invites whom to what.
    pub(super) line: String,
    /// What accepting shares, and with whom.
    pub(super) shares: &'static str,
    pub(super) teachers: String,
}

/// The invitations waiting for `user`'s answer, in their language: on their course list and
/// their home page.
pub(super) async fn invitation_lines(
    state: &AppState,
    user: &User,
) -> Result<Vec<InvitationLine>, PageError> {
    let ui = words_for(Some(user));
    Ok(courses::invitations(&state.domain, user)
        .await?
        .into_iter()
        .map(|pending| {
            let i = &pending.invitation;
            InvitationLine {
                id: i.id,
                line: (ui.invitation_line)(i.invited_by.as_deref(), &i.course_title, i.role),
                shares: (ui.invitation_shares)(i.role),
                teachers: pending.teachers.join(", "),
            }
        })
        .collect())
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/list.html")]
pub(super) struct CoursesPage {
    frame: Frame,
    invitations: Vec<InvitationLine>,
    courses: Vec<CourseLine>,
    error: Option<String>,
}

async fn courses_page(
    state: &AppState,
    user: User,
    error: Option<String>,
) -> Result<CoursesPage, PageError> {
    let courses = courses::mine(&state.domain, &user)
        .await?
        .into_iter()
        .map(|membership| CourseLine::of(&membership))
        .collect();
    Ok(CoursesPage {
        invitations: invitation_lines(state, &user).await?,
        frame: Frame::new(Some(user), "").titled(|ui| ui.courses),
        courses,
        error,
    })
}

/// Accepting opens the course.
pub(super) async fn accept_invitation(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    match courses::accept(&state.domain, &user, id).await {
        Ok(joined) => Ok(Redirect::to(&format!("/courses/{}", joined.course.id)).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = courses_page(&state, user, Some(message)).await?;
            refused(e, page)
        }
    }
}

pub(super) async fn decline_invitation(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    match courses::decline(&state.domain, &user, id).await {
        Ok(()) => Ok(Redirect::to("/courses").into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = courses_page(&state, user, Some(message)).await?;
            refused(e, page)
        }
    }
}

pub(super) async fn withdraw_invitation(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, invitee)): Path<(i64, i64)>,
) -> Result<Response, PageError> {
    courses::teaching(&state.domain, &user, id).await?;
    match courses::withdraw(&state.domain, &user, id, invitee).await {
        Ok(()) => Ok(Redirect::to(&format!("/courses/{id}")).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = course_page(&state, user, id, None, Some(message)).await?;
            refused(e, page)
        }
    }
}

pub(super) async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> Result<Response, PageError> {
    Ok(courses_page(&state, user, None).await?.into_response())
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
    match courses::join(&state.domain, &user, &form.code).await {
        Ok(joined) => Ok(Redirect::to(&format!("/courses/{}", joined.course.id)).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = courses_page(&state, user, Some(message)).await?;
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
    match courses::create(&state.domain, &user, &form.title).await {
        Ok(course) => Ok(Redirect::to(&format!("/courses/{}", course.id)).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = courses_page(&state, user, Some(message)).await?;
            refused(e, page)
        }
    }
}

struct MemberLine {
    id: i64,
    name: String,
    role: &'static str,
    /// How they came to be in the course, in words.
    origin: &'static str,
    joined: i64,
}

/// An invitation of the course not accepted, as its teachers see it.
struct InviteeLine {
    id: i64,
    name: String,
    role: &'static str,
    invited: i64,
    declined: bool,
}

struct AssignmentLine {
    id: i64,
    title: String,
    due: i64,
    /// `upcoming`, `open`, `late` (past due, still taking work) or `closed`, for the viewer.
    status: &'static str,
    problems: usize,
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/course.html")]
pub(super) struct CoursePage {
    frame: Frame,
    course: CourseLine,
    teaching: bool,
    members: Vec<MemberLine>,
    invitees: Vec<InviteeLine>,
    /// How many of the members are students (an empty course says what to do next).
    student_count: usize,
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
    let overview = courses::overview(&state.domain, &user, id).await?;
    let student_count = overview
        .members
        .iter()
        .filter(|m| m.role == MemberRole::Student)
        .count();
    let ui = words_for(Some(&user));
    let members = overview
        .members
        .into_iter()
        .map(|m| MemberLine {
            id: m.user_id,
            name: m.name,
            role: m.role.as_str(),
            origin: (ui.member_origin)(m.origin),
            joined: m.joined_at,
        })
        .collect();
    let invitees = overview
        .invitations
        .into_iter()
        .map(|i| InviteeLine {
            id: i.user_id,
            name: i.name,
            role: i.role.as_str(),
            invited: i.invited_at,
            declined: i.declined_at.is_some(),
        })
        .collect();
    let assignments = overview
        .assignments
        .into_iter()
        .map(|listed| AssignmentLine {
            id: listed.assignment.id,
            problems: listed.assignment.spec.problems.len(),
            title: listed.assignment.spec.title,
            due: listed.deadlines.due_at,
            status: listed.window.as_str(),
        })
        .collect();
    Ok(CoursePage {
        frame: Frame::new(Some(user), overview.membership.course.title.clone()),
        teaching: overview.membership.teaching(),
        course: CourseLine::of(&overview.membership),
        members,
        invitees,
        student_count,
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
    // Only the course's teachers see how their form is refused.
    courses::teaching(&state.domain, &user, id).await?;
    let role = named::member_role(&form.role)?;
    let import = Import {
        names: form
            .names
            .split(['\n', ',', ';'])
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect(),
        role,
        create_missing: form.create_missing.is_some(),
    };
    match courses::import(&state.domain, &user, id, import).await {
        Ok(mut report) => {
            let ui = words_for(Some(&user));
            for refused in &mut report.refused {
                refused.reason = (ui.import_refusal)(&refused.reason);
            }
            Ok(course_page(&state, user, id, Some(report), None)
                .await?
                .into_response())
        }
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = course_page(&state, user, id, None, Some(message)).await?;
            refused(e, page)
        }
    }
}

/// A question a teacher answers before something is undone for good: a form that does it, and
/// a way back. Without JavaScript too: the button that asks is a link to this page.
#[derive(Template, WebTemplate)]
#[template(path = "courses/confirm.html")]
pub(super) struct ConfirmPage {
    frame: Frame,
    question: String,
    /// What is lost and what stays.
    detail: String,
    action: String,
    button: &'static str,
    back: String,
}

/// Asks before taking someone out of a course.
pub(super) async fn confirm_remove_member(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, member)): Path<(i64, i64)>,
) -> Result<Response, PageError> {
    courses::teaching(&state.domain, &user, id).await?;
    let overview = courses::overview(&state.domain, &user, id).await?;
    let Some(found) = overview.members.iter().find(|m| m.user_id == member) else {
        return Err(Error::NotFound(format!("member {member}")).into());
    };
    let frame = Frame::new(Some(user), "");
    let course = &overview.membership.course.title;
    let page = ConfirmPage {
        question: (frame.ui.remove_member_question)(&found.name, course),
        detail: frame.ui.remove_member_detail.to_owned(),
        action: format!("/courses/{id}/members/{member}/remove"),
        button: frame.ui.remove,
        back: format!("/courses/{id}"),
        frame: Frame {
            title: frame.ui.remove.to_owned(),
            ..frame
        },
    };
    Ok(page.into_response())
}

pub(super) async fn remove_member(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path((id, member)): Path<(i64, i64)>,
) -> Result<Response, PageError> {
    courses::teaching(&state.domain, &user, id).await?;
    match courses::remove_member(&state.domain, &user, id, member).await {
        Ok(()) => Ok(Redirect::to(&format!("/courses/{id}")).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = course_page(&state, user, id, None, Some(message)).await?;
            refused(e, page)
        }
    }
}

/// A problem the teacher may put in an assignment, as the picker shows it.
struct ProblemChoice {
    slug: String,
    title: String,
    chosen: bool,
    /// Its place in the assignment as typed (chosen problems), else empty.
    order: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/new_assignment.html")]
pub(super) struct AssignmentFormPage {
    frame: Frame,
    course: CourseLine,
    /// The assignment being edited; `None` for a new one.
    editing: Option<i64>,
    problems: Vec<ProblemChoice>,
    form: AssignmentForm,
    zones: &'static [String],
    error: Option<String>,
}

/// The form as typed: times are `datetime-local` values read in the form's zone.
#[derive(Debug, Clone)]
pub(super) struct AssignmentForm {
    title: String,
    /// The zone the times are typed in (an IANA name, checked when the form is read).
    zone: String,
    /// The times are UTC and the account names no zone: `grundy.js` may move them into the
    /// browser's zone.
    zone_guess: bool,
    opens: String,
    due: String,
    closes: String,
    penalty_percent: String,
    penalty_step_hours: String,
    scoring: Scoring,
    feedback: Feedback,
    personal_tests: bool,
    run_every_test: bool,
    /// The problems ticked, in the order posted.
    problems: Vec<String>,
    /// The place typed beside each problem, by slug.
    order: BTreeMap<String, String>,
}

/// A typed time read in `zone`.
fn parse_local(zone: &Zone, text: &str) -> Result<i64, Error> {
    zone.read_local(text)
        .ok_or_else(|| Error::BadRequest("give every time as a date and a time of day".into()))
}

/// The zone a form names, checked against the tz database.
fn form_zone(name: &str) -> Result<Zone, Error> {
    Zone::parse(name).map_err(|_| Error::BadRequest(UNKNOWN_ZONE.into()))
}

impl AssignmentForm {
    /// A new assignment's form: open from today, due in a week, in `zone`.
    fn starting(now: i64, zone: &Zone, zone_guess: bool) -> AssignmentForm {
        const DAY: i64 = 86_400_000;
        let today = now - now.rem_euclid(DAY);
        AssignmentForm {
            title: String::new(),
            zone: zone.name().to_owned(),
            zone_guess,
            opens: zone.local_input(today),
            due: zone.local_input(today + 8 * DAY),
            closes: zone.local_input(today + 11 * DAY),
            penalty_percent: "10".into(),
            penalty_step_hours: "24".into(),
            scoring: Scoring::Best,
            feedback: Feedback::Tests,
            personal_tests: false,
            run_every_test: false,
            problems: Vec::new(),
            order: BTreeMap::new(),
        }
    }

    /// An assignment's form to edit, its times in `zone`.
    fn of(assignment: &Assignment, zone: &Zone, zone_guess: bool) -> AssignmentForm {
        let s = &assignment.spec;
        AssignmentForm {
            title: s.title.clone(),
            zone: zone.name().to_owned(),
            zone_guess,
            opens: zone.local_input(s.opens_at),
            due: zone.local_input(s.due_at),
            closes: zone.local_input(s.closes_at),
            penalty_percent: s.penalty_percent.to_string(),
            penalty_step_hours: format_points(s.penalty_step_ms as f64 / 3_600_000.0),
            scoring: s.scoring,
            feedback: s.feedback,
            personal_tests: s.personal_tests,
            run_every_test: s.run_every_test,
            order: s
                .problems
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), (i + 1).to_string()))
                .collect(),
            problems: s.problems.clone(),
        }
    }

    /// The form as posted (`problems` repeats: one per ticked box; `order.<slug>` beside each).
    fn posted(pairs: Vec<(String, String)>) -> Result<AssignmentForm, Error> {
        // Only the choices have defaults: a missing time or number is the teacher's to give.
        let mut form = AssignmentForm {
            opens: String::new(),
            due: String::new(),
            closes: String::new(),
            penalty_percent: String::new(),
            penalty_step_hours: String::new(),
            ..AssignmentForm::starting(0, &Zone::utc(), false)
        };
        for (key, value) in pairs {
            match key.as_str() {
                "title" => form.title = value,
                "zone" => form.zone = value,
                "opens" => form.opens = value,
                "due" => form.due = value,
                "closes" => form.closes = value,
                "penalty_percent" => form.penalty_percent = value,
                "penalty_step_hours" => form.penalty_step_hours = value,
                "scoring" => form.scoring = named::scoring(&value)?,
                "feedback" => form.feedback = named::feedback(&value)?,
                "personal_tests" => form.personal_tests = true,
                "run_every_test" => form.run_every_test = true,
                "problems" if !form.problems.contains(&value) => form.problems.push(value),
                other => {
                    if let Some(slug) = other.strip_prefix("order.") {
                        form.order.insert(slug.to_owned(), value);
                    }
                }
            }
        }
        Ok(form)
    }

    /// The ticked problems in the order the teacher set: by the number typed beside each (a
    /// blank or unreadable one goes last), ties in the order ticked.
    fn ordered_problems(&self) -> Vec<String> {
        let place = |slug: &String| {
            self.order
                .get(slug)
                .and_then(|o| o.trim().parse::<f64>().ok())
                .filter(|o| o.is_finite())
                .unwrap_or(f64::INFINITY)
        };
        let mut chosen: Vec<&String> = self.problems.iter().collect();
        chosen.sort_by(|a, b| place(a).total_cmp(&place(b)));
        chosen.into_iter().cloned().collect()
    }

    /// The scoring rules, each with whether the form has it.
    fn scorings(&self) -> Vec<(Scoring, bool)> {
        [Scoring::Best, Scoring::Last]
            .into_iter()
            .map(|s| (s, s == self.scoring))
            .collect()
    }

    /// The feedback levels, least first, each with whether the form has it.
    fn feedbacks(&self) -> Vec<(Feedback, bool)> {
        [Feedback::Verdict, Feedback::Tests, Feedback::Inputs]
            .into_iter()
            .map(|f| (f, f == self.feedback))
            .collect()
    }

    fn draft(&self) -> Result<Draft, Error> {
        let number = |text: &str| {
            text.trim().parse::<i64>().map_err(|_| {
                Error::BadRequest("give the penalty and its step as whole numbers".into())
            })
        };
        let zone = form_zone(&self.zone)?;
        Ok(Draft {
            title: self.title.clone(),
            opens_at: parse_local(&zone, &self.opens)?,
            due_at: parse_local(&zone, &self.due)?,
            closes_at: Some(parse_local(&zone, &self.closes)?),
            penalty_percent: number(&self.penalty_percent)?,
            penalty_step_ms: Some(number(&self.penalty_step_hours)?.saturating_mul(3_600_000)),
            scoring: self.scoring,
            feedback: self.feedback,
            personal_tests: self.personal_tests,
            run_every_test: self.run_every_test,
            problems: self.ordered_problems(),
        })
    }
}

async fn assignment_form_page(
    state: &AppState,
    user: User,
    course: i64,
    editing: Option<i64>,
    form: AssignmentForm,
    error: Option<String>,
) -> Result<AssignmentFormPage, PageError> {
    let membership = courses::teaching(&state.domain, &user, course).await?;
    let ui = words_for(Some(&user));
    let ordered = form.ordered_problems();
    let mut problems: Vec<ProblemChoice> = problems::list(&state.domain, Some(&user), None)
        .await?
        .iter()
        .map(|e| {
            let slug = e.problem.slug();
            let chosen = ordered.iter().any(|p| p == slug);
            ProblemChoice {
                slug: slug.to_owned(),
                title: e.problem.title(ui.code).to_owned(),
                chosen,
                order: if chosen {
                    form.order.get(slug).cloned().unwrap_or_default()
                } else {
                    String::new()
                },
            }
        })
        .collect();
    // The chosen ones first, in their order; the rest by title.
    let place = |p: &ProblemChoice| ordered.iter().position(|o| *o == p.slug);
    problems.sort_by(|a, b| {
        (place(a).is_none(), place(a), &a.title).cmp(&(place(b).is_none(), place(b), &b.title))
    });
    let frame = Frame::new(Some(user), "");
    let heading = if editing.is_some() {
        frame.ui.edit_assignment
    } else {
        frame.ui.new_assignment
    };
    let title = format!("{heading} — {}", membership.course.title);
    Ok(AssignmentFormPage {
        frame: Frame { title, ..frame },
        course: CourseLine::of(&membership),
        editing,
        problems,
        form,
        zones: Zone::choices(),
        error,
    })
}

pub(super) async fn new_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let account_zone = Zone::of_account(&user);
    let zone = account_zone.clone().unwrap_or_else(Zone::utc);
    let form = AssignmentForm::starting(state.domain.clock.now(), &zone, account_zone.is_none());
    Ok(assignment_form_page(&state, user, id, None, form, None)
        .await?
        .into_response())
}

pub(super) async fn create_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    // `problems` repeats (one per ticked box): read as pairs.
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let form = AssignmentForm::posted(pairs)?;
    let made = match form.draft() {
        Ok(draft) => assignments::create(&state.domain, &user, id, draft).await,
        Err(e) => Err(e),
    };
    match made {
        Ok(created) => Ok(Redirect::to(&format!("/assignments/{}", created.id)).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = assignment_form_page(&state, user, id, None, form, Some(message)).await?;
            refused(e, page)
        }
    }
}

/// The form of an assignment the caller teaches, filled in, its times in the account's zone.
pub(super) async fn edit_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let found = assignments::teaching(&state.domain, &user, id).await?;
    let account_zone = Zone::of_account(&user);
    let zone = account_zone.clone().unwrap_or_else(Zone::utc);
    let form = AssignmentForm::of(&found, &zone, account_zone.is_none());
    Ok(
        assignment_form_page(&state, user, found.course_id, Some(id), form, None)
            .await?
            .into_response(),
    )
}

pub(super) async fn update_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let found = assignments::teaching(&state.domain, &user, id).await?;
    let form = AssignmentForm::posted(pairs)?;
    let changed = match form.draft() {
        Ok(draft) => assignments::update(&state.domain, &user, id, draft).await,
        Err(e) => Err(e),
    };
    match changed {
        Ok(_) => Ok(Redirect::to(&format!("/assignments/{id}")).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page =
                assignment_form_page(&state, user, found.course_id, Some(id), form, Some(message))
                    .await?;
            refused(e, page)
        }
    }
}

/// Asks before deleting an assignment.
pub(super) async fn confirm_delete_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let found = assignments::teaching(&state.domain, &user, id).await?;
    let frame = Frame::new(Some(user), "");
    let page = ConfirmPage {
        question: (frame.ui.delete_assignment_question)(&found.spec.title),
        detail: frame.ui.delete_assignment_detail.to_owned(),
        action: format!("/assignments/{id}/delete"),
        button: frame.ui.delete_assignment,
        back: format!("/assignments/{id}/edit"),
        frame: Frame {
            title: frame.ui.delete_assignment.to_owned(),
            ..frame
        },
    };
    Ok(page.into_response())
}

pub(super) async fn delete_assignment(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    match assignments::delete(&state.domain, &user, id).await {
        Ok(deleted) => Ok(Redirect::to(&format!("/courses/{}", deleted.course_id)).into_response()),
        Err(e @ Error::Conflict(_)) => {
            let message = words_for(Some(&user)).error(&e);
            let page = assignment_page(&state, user, id, Some(message)).await?;
            refused(e, page)
        }
        Err(e) => Err(PageError::Refused(e, Some(Box::new(user)))),
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
    counted_at: Option<i64>,
}

impl CellLine {
    fn of(cell: &grundy_coursework::Cell) -> CellLine {
        CellLine {
            score: cell.score.map(format_points).unwrap_or_else(|| "—".into()),
            penalty: cell.penalty_percent,
            attempts: cell.attempts,
            pending: cell.pending,
            submission: cell.submission,
            counted_at: cell.counted_at,
        }
    }
}

struct GradeLine {
    user_id: i64,
    name: String,
    due: i64,
    cells: Vec<CellLine>,
    total: String,
}

struct ExtensionLine {
    user_id: i64,
    name: String,
    due: i64,
}

#[derive(Template, WebTemplate)]
#[template(path = "courses/assignment.html")]
pub(super) struct AssignmentPage {
    frame: Frame,
    id: i64,
    course_id: i64,
    title: String,
    opens: i64,
    due: i64,
    closes: i64,
    /// The viewer's own, with an extension (students).
    my_due: i64,
    my_closes: i64,
    status: &'static str,
    penalty: String,
    /// How it counts and what its students see, in a sentence.
    rules: String,
    personal_tests: bool,
    run_every_test: bool,
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
    /// The classic mistakes the class's wrong programs were found to make.
    misconceptions: Vec<grundy_coursework::ClassMisconception>,
    students: Vec<(i64, String)>,
    /// The extension form's zone and first value (two days after the class's due time).
    entry_zone: Zone,
    zone_guess: bool,
    zones: &'static [String],
    extension_default: String,
    error: Option<String>,
}

impl AssignmentPage {
    /// The class's lines and means, and who has an extension, for its teachers.
    fn show_gradebook(&mut self, book: &Gradebook, extensions: Vec<Extension>) {
        self.max_total = book.max_total;
        self.means = book
            .class
            .mean_scores
            .iter()
            .map(|m| format_points(*m))
            .collect();
        self.mean_total = format_points(book.class.mean_total);
        // The gradebook's order: by name.
        self.students = book
            .rows
            .iter()
            .map(|r| (r.user_id, r.name.clone()))
            .collect();
        let names: BTreeMap<i64, &str> = book
            .rows
            .iter()
            .map(|r| (r.user_id, r.name.as_str()))
            .collect();
        self.grades = book
            .rows
            .iter()
            .map(|r| GradeLine {
                user_id: r.user_id,
                name: r.name.clone(),
                due: r.due_at,
                cells: r.cells.iter().map(CellLine::of).collect(),
                total: format_points(r.total),
            })
            .collect();
        self.misconceptions = book.misconceptions.clone();
        self.extensions = extensions
            .into_iter()
            .map(|e| ExtensionLine {
                user_id: e.user_id,
                name: names
                    .get(&e.user_id)
                    .map_or_else(|| format!("#{}", e.user_id), |n| (*n).to_owned()),
                due: e.due_at,
            })
            .collect();
    }
}

/// What late work loses, as the table words it.
fn late_rule(ui: &Ui, a: &Assignment) -> String {
    let s = &a.spec;
    let rule = (s.closes_at != s.due_at)
        .then(|| (s.penalty_percent, s.penalty_step_ms as f64 / 3_600_000.0));
    (ui.late_rule)(rule)
}

async fn assignment_page(
    state: &AppState,
    user: User,
    id: i64,
    error: Option<String>,
) -> Result<AssignmentPage, PageError> {
    let view = assignments::view(&state.domain, &user, id).await?;
    let found = &view.assignment;
    let frame = Frame::new(Some(user.clone()), found.spec.title.clone());
    let mut problems = Vec::new();
    for slug in &found.spec.problems {
        // A draft's title is shown once its students may see it.
        let entry = problems::visible(&state.domain, Some(&user), slug)
            .await
            .ok();
        problems.push(ProblemLine {
            slug: slug.clone(),
            title: entry.as_ref().map_or_else(
                || slug.clone(),
                |e| e.problem.title(frame.ui.code).to_owned(),
            ),
            answer_mode: entry.is_some_and(|e| e.problem.is_family_backed()),
        });
    }
    let mut page = AssignmentPage {
        id,
        course_id: found.course_id,
        title: found.spec.title.clone(),
        opens: found.spec.opens_at,
        due: found.spec.due_at,
        closes: found.spec.closes_at,
        my_due: found.spec.due_at,
        my_closes: found.spec.closes_at,
        status: view.window.as_str(),
        penalty: late_rule(frame.ui, found),
        rules: (frame.ui.assignment_rules)(found.spec.scoring, found.spec.feedback),
        personal_tests: found.spec.personal_tests,
        run_every_test: found.spec.run_every_test,
        problems,
        teaching: view.role == MemberRole::Teacher,
        mine: Vec::new(),
        my_total: String::new(),
        grades: Vec::new(),
        means: Vec::new(),
        mean_total: String::new(),
        max_total: 0,
        extensions: Vec::new(),
        misconceptions: Vec::new(),
        students: Vec::new(),
        extension_default: frame
            .entry_zone()
            .local_input(found.spec.due_at.saturating_add(2 * 86_400_000)),
        entry_zone: frame.entry_zone(),
        zone_guess: frame.zone.is_none(),
        zones: Zone::choices(),
        error,
        frame,
    };
    match view.part {
        Part::Teacher { extensions } => {
            let book = assignments::gradebook(&state.domain, &user, id).await?;
            page.show_gradebook(&book, extensions);
        }
        Part::Student(standing) => {
            page.my_due = standing.due_at;
            page.my_closes = standing.closes_at;
            page.mine = standing.grade.cells.iter().map(CellLine::of).collect();
            page.my_total = format_points(standing.grade.total);
        }
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
    /// The zone `due` is typed in (UTC when the form names none).
    zone: Option<String>,
}

pub(super) async fn extend(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Form(form): Form<ExtensionForm>,
) -> Result<Response, PageError> {
    assignments::teaching(&state.domain, &user, id).await?;
    let due = if form.due.trim().is_empty() {
        Ok(None)
    } else {
        form_zone(form.zone.as_deref().unwrap_or("UTC"))
            .and_then(|zone| parse_local(&zone, &form.due))
            .map(Some)
    };
    let done = match due {
        Ok(due) => assignments::set_extension(&state.domain, &user, id, form.user, due).await,
        Err(e) => Err(e),
    };
    match done {
        Ok(()) => Ok(Redirect::to(&format!("/assignments/{id}")).into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = assignment_page(&state, user, id, Some(message)).await?;
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
    let of = StudentProblem::new(id, student, &slug);
    let draw = assignments::student_draw(&state.domain, &user, &of).await?;
    Ok(InstancesPage {
        frame: Frame::new(Some(user), format!("{} — {slug}", draw.student)),
        assignment: id,
        assignment_title: draw.assignment.spec.title,
        student: draw.student,
        drawn: draw.drawn,
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
    let of = StudentProblem::new(id, student, &slug);
    match assignments::regenerate(&state.domain, &user, &of).await {
        Ok(_) => Ok(Redirect::to(&format!(
            "/assignments/{id}/students/{student}/problems/{slug}"
        ))
        .into_response()),
        Err(e) => {
            let message = words_for(Some(&user)).error(&e);
            let page = instances_page(&state, user, (id, student, slug), Some(message)).await?;
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
    let pinned = form.pinned == "true";
    let of = StudentProblem::new(id, student, &slug);
    assignments::pin(&state.domain, &user, &of, pinned).await?;
    Ok(Redirect::to(&format!(
        "/assignments/{id}/students/{student}/problems/{slug}"
    ))
    .into_response())
}
