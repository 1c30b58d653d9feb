//! Assignments: problems with open, due and closing times, a late penalty, a scoring rule and a
//! feedback level; per-student extensions; students' personal instances, which teachers can
//! view, regenerate and pin; the gradebook.

use std::collections::{BTreeMap, BTreeSet};

use grundy_coursework::{ClassMisconception, Deadlines, Gradebook, Row, Timing, check_spec};
use grundy_store::{
    Assignment, AssignmentSpec, Extension, Feedback, InstanceDraw, Member, MemberRole, Scoring,
    User,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::problems::{self, Drawn, find};
use super::{Domain, Error, Result, access};
use crate::clock::when;

const DAY_MS: i64 = 86_400_000;

/// An assignment as a teacher sets it; what is left out takes its default.
#[derive(Debug, Clone)]
pub struct Draft {
    pub title: String,
    pub opens_at: i64,
    pub due_at: i64,
    /// The hard deadline (default: the due time, so nothing late is taken).
    pub closes_at: Option<i64>,
    /// Lost per started step late.
    pub penalty_percent: i64,
    /// The step (default a day).
    pub penalty_step_ms: Option<i64>,
    pub scoring: Scoring,
    pub feedback: Feedback,
    /// Also run programs on each student's personal instances.
    pub personal_tests: bool,
    /// Run every test, not stopping a subtask at its first failure.
    pub run_every_test: bool,
    /// Built-in problems, variants or uploaded packages, by slug.
    pub problems: Vec<String>,
}

impl Draft {
    /// The assignment it sets, checked, including that `user` sees every problem.
    async fn checked(self, domain: &Domain, user: &User) -> Result<AssignmentSpec> {
        let spec = AssignmentSpec {
            title: self.title.trim().to_owned(),
            opens_at: self.opens_at,
            due_at: self.due_at,
            closes_at: self.closes_at.unwrap_or(self.due_at),
            penalty_percent: self.penalty_percent,
            penalty_step_ms: self.penalty_step_ms.unwrap_or(DAY_MS),
            scoring: self.scoring,
            feedback: self.feedback,
            personal_tests: self.personal_tests,
            run_every_test: self.run_every_test,
            problems: self.problems,
        };
        check_spec(&spec).map_err(Error::BadRequest)?;
        let sight = access::problem_sight(domain, Some(user)).await?;
        if let Some(unknown) = spec
            .problems
            .iter()
            .find(|p| !domain.problems.get(p).is_some_and(|e| sight.sees(&e)))
        {
            return Err(Error::NotFound(format!("problem {unknown:?}")));
        }
        Ok(spec)
    }
}

/// Creates an assignment in a course the caller teaches.
pub async fn create(domain: &Domain, user: &User, course: i64, draft: Draft) -> Result<Assignment> {
    access::teaching(domain, user, course).await?;
    let spec = draft.checked(domain, user).await?;
    Ok(domain
        .store
        .create_assignment(course, &spec, domain.now())
        .await?)
}

/// An assignment the caller teaches (for the forms that change it).
pub async fn teaching(domain: &Domain, user: &User, id: i64) -> Result<Assignment> {
    access::assignment_as_teacher(domain, user, id).await
}

/// Replaces an assignment the caller teaches (fields left out go back to their defaults).
pub async fn update(domain: &Domain, user: &User, id: i64, draft: Draft) -> Result<Assignment> {
    access::assignment_as_teacher(domain, user, id).await?;
    let spec = draft.checked(domain, user).await?;
    domain.store.update_assignment(id, &spec).await?;
    domain
        .store
        .assignment(id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("assignment {id}")))
}

/// Deletes an assignment the caller teaches, while nobody has submitted to it (after that it
/// can still be edited: the submissions and the gradebook stay).
pub async fn delete(domain: &Domain, user: &User, id: i64) -> Result<Assignment> {
    let assignment = access::assignment_as_teacher(domain, user, id).await?;
    if !domain.store.delete_assignment(id).await? {
        return Err(Error::Conflict(
            "students have submitted to this assignment: it can be edited but not deleted".into(),
        ));
    }
    Ok(assignment)
}

/// Where a moment falls for someone with these times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Not open yet.
    Upcoming,
    Open,
    /// Past due, still taking work at a penalty.
    Late,
    Closed,
}

impl Window {
    pub fn of(deadlines: &Deadlines, now: i64) -> Window {
        match deadlines.timing(now) {
            Timing::NotOpen => Window::Upcoming,
            Timing::Open { penalty_percent: 0 } => Window::Open,
            Timing::Open { .. } => Window::Late,
            Timing::Closed => Window::Closed,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Window::Upcoming => "upcoming",
            Window::Open => "open",
            Window::Late => "late",
            Window::Closed => "closed",
        }
    }
}

/// A student's times: the class's, moved by their extension.
pub async fn deadlines_for(
    domain: &Domain,
    assignment: &Assignment,
    user: i64,
) -> Result<Deadlines> {
    let extension = domain
        .store
        .extensions(assignment.id)
        .await?
        .into_iter()
        .find(|e| e.user_id == user)
        .map(|e| e.due_at);
    Ok(Deadlines::for_student(&assignment.spec, extension))
}

/// `user`'s current draw of `problem` in an assignment, and its seed.
pub(crate) async fn personal_draw(
    domain: &Domain,
    assignment: i64,
    user: i64,
    problem: &str,
) -> Result<(InstanceDraw, i64)> {
    let draw = domain
        .store
        .instance_draw(assignment, user, problem)
        .await?;
    let key = domain.seed_key().await?;
    let seed = key.personal_seed(assignment, user, problem, draw.generation) as i64;
    Ok((draw, seed))
}

/// A student's own standing: their times and their line of the gradebook.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MyStanding)]
pub struct Standing {
    pub due_at: i64,
    pub closes_at: i64,
    #[schema(value_type = Object)]
    pub grade: Row,
}

/// An assignment as one of its course's members sees it.
#[derive(Debug)]
pub struct View {
    pub assignment: Assignment,
    /// The viewer's part in the course.
    pub role: MemberRole,
    /// Where now falls for the viewer (a student's own times; the class's for teachers).
    pub window: Window,
    pub part: Part,
}

#[derive(Debug)]
pub enum Part {
    Student(Standing),
    Teacher { extensions: Vec<Extension> },
}

pub async fn view(domain: &Domain, user: &User, id: i64) -> Result<View> {
    let (assignment, role) = access::assignment(domain, user, id).await?;
    let now = domain.now();
    let (window, part) = match role {
        MemberRole::Student => {
            let standing = standing(domain, &assignment, user).await?;
            let deadlines = Deadlines::for_student(&assignment.spec, Some(standing.due_at));
            (Window::of(&deadlines, now), Part::Student(standing))
        }
        MemberRole::Teacher => (
            Window::of(&Deadlines::for_student(&assignment.spec, None), now),
            Part::Teacher {
                extensions: domain.store.extensions(id).await?,
            },
        ),
    };
    Ok(View {
        assignment,
        role,
        window,
        part,
    })
}

/// A student's times and gradebook line.
async fn standing(domain: &Domain, assignment: &Assignment, user: &User) -> Result<Standing> {
    let deadlines = deadlines_for(domain, assignment, user.id).await?;
    let submissions: Vec<_> = domain
        .store
        .assignment_submissions(assignment.id)
        .await?
        .into_iter()
        .filter(|s| s.user_id == user.id)
        .collect();
    // The gradebook reads who a line is for, not how they joined.
    let me = Member {
        user_id: user.id,
        name: user.name.clone(),
        role: MemberRole::Student,
        origin: grundy_store::MemberOrigin::JoinCode,
        joined_at: 0,
    };
    let extension = Extension {
        user_id: user.id,
        due_at: deadlines.due_at,
    };
    let mut book = grundy_coursework::gradebook(
        assignment,
        std::slice::from_ref(&me),
        std::slice::from_ref(&extension),
        &submissions,
        &BTreeMap::new(),
    );
    Ok(Standing {
        due_at: deadlines.due_at,
        closes_at: deadlines.closes_at,
        grade: book.rows.remove(0),
    })
}

/// The gradebook of an assignment the caller teaches: its course's students, by name.
pub async fn gradebook(domain: &Domain, user: &User, id: i64) -> Result<Gradebook> {
    let assignment = access::assignment_as_teacher(domain, user, id).await?;
    let mut students: Vec<_> = domain
        .store
        .members(assignment.course_id)
        .await?
        .into_iter()
        .filter(|m| m.role == MemberRole::Student)
        .collect();
    // By name, the same on both backends (their collations differ).
    students.sort_by(|a, b| a.name.cmp(&b.name));
    let extensions = domain.store.extensions(assignment.id).await?;
    let submissions = domain.store.assignment_submissions(assignment.id).await?;
    let max_scores: BTreeMap<String, i64> = assignment
        .spec
        .problems
        .iter()
        .filter_map(|slug| {
            let entry = domain.problems.get(slug)?;
            let points: u32 = entry.problem.spec.subtasks.iter().map(|s| s.points).sum();
            Some((slug.clone(), i64::from(points)))
        })
        .collect();
    let mut book = grundy_coursework::gradebook(
        &assignment,
        &students,
        &extensions,
        &submissions,
        &max_scores,
    );
    let code = crate::locale::for_caller(Some(user)).code();
    book.misconceptions = class_misconceptions(domain, &assignment, &students, code).await?;
    Ok(book)
}

/// The misconceptions named in the explanations of an assignment's submissions: for each, the
/// problems and the students (of the course now), most students first; titled in the language
/// `code`.
async fn class_misconceptions(
    domain: &Domain,
    assignment: &Assignment,
    students: &[Member],
    code: &str,
) -> Result<Vec<ClassMisconception>> {
    let names: BTreeMap<i64, &str> = students
        .iter()
        .map(|m| (m.user_id, m.name.as_str()))
        .collect();
    let mut found: BTreeMap<String, (BTreeSet<String>, BTreeSet<&str>)> = BTreeMap::new();
    for (user, problem, id) in domain
        .store
        .assignment_misconceptions(assignment.id)
        .await?
    {
        let Some(&name) = names.get(&user) else {
            continue;
        };
        let (problems, who) = found.entry(id).or_default();
        problems.insert(problem);
        who.insert(name);
    }
    let title = |id: &str| {
        assignment
            .spec
            .problems
            .iter()
            .filter_map(|slug| domain.problems.get(slug))
            .find_map(|entry| {
                let named = entry
                    .problem
                    .explainer()?
                    .misconceptions()
                    .into_iter()
                    .find(|m| m.id == id)?;
                named.words(&entry.problem.spec.family, code)
            })
            .map_or_else(|| id.to_owned(), |words| words.title)
    };
    let mut table: Vec<ClassMisconception> = found
        .into_iter()
        .map(|(id, (problems, who))| ClassMisconception {
            title: title(&id),
            id,
            problems: problems.into_iter().collect(),
            count: who.len(),
            students: who.into_iter().map(str::to_owned).collect(),
        })
        .collect();
    table.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.id.cmp(&b.id)));
    Ok(table)
}

/// The gradebook as CSV, to download.
pub async fn gradebook_csv(domain: &Domain, user: &User, id: i64) -> Result<String> {
    gradebook(domain, user, id)
        .await?
        .to_csv()
        .map_err(|e| Error::Internal(format!("writing the CSV: {e}")))
}

/// Gives a student of the course their own due time (`None` takes it back).
pub async fn set_extension(
    domain: &Domain,
    user: &User,
    id: i64,
    student: i64,
    due_at: Option<i64>,
) -> Result<()> {
    let assignment = access::assignment_as_teacher(domain, user, id).await?;
    access::student_of(domain, &assignment, student).await?;
    if let Some(due) = due_at
        && !(assignment.spec.due_at..=grundy_coursework::rules::LATEST_TIME).contains(&due)
    {
        return Err(Error::BadRequest(
            "an extension lies between the class's due time and the end of 9999".into(),
        ));
    }
    domain
        .store
        .set_extension(assignment.id, student, due_at)
        .await?;
    Ok(())
}

/// Whether the assignment lists the problem.
pub(crate) fn lists(assignment: &Assignment, slug: &str) -> bool {
    assignment.spec.problems.iter().any(|p| p == slug)
}

/// The problem, checked to be part of the assignment.
fn listed(assignment: &Assignment, slug: &str) -> Result<()> {
    if lists(assignment, slug) {
        Ok(())
    } else {
        Err(Error::NotFound(format!(
            "problem {slug:?} in assignment {}",
            assignment.id
        )))
    }
}

/// Students see an assignment's instances from its opening, not before.
fn opened(domain: &Domain, assignment: &Assignment) -> Result<()> {
    if domain.now() < assignment.spec.opens_at {
        return Err(Error::Conflict(format!(
            "the assignment opens at {}",
            when(assignment.spec.opens_at)
        )));
    }
    Ok(())
}

/// The caller's own instances of a problem in an assignment, from its opening (teachers any
/// time): inputs to answer.
pub async fn my_instances(domain: &Domain, user: &User, id: i64, slug: &str) -> Result<Drawn> {
    let (assignment, role) = access::assignment(domain, user, id).await?;
    listed(&assignment, slug)?;
    if access::bound_by_deadlines(role) {
        opened(domain, &assignment)?;
    }
    let entry = find(domain, slug)?;
    let (draw, seed) = personal_draw(domain, id, user.id, slug).await?;
    problems::draw(entry, seed as u64, Some(draw.generation)).await
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

/// One student's instances of one problem in an assignment: what a teacher views, regenerates
/// and pins.
#[derive(Debug, Clone, Copy)]
pub struct StudentProblem<'a> {
    pub assignment: i64,
    pub student: i64,
    pub problem: &'a str,
}

impl<'a> StudentProblem<'a> {
    pub fn new(assignment: i64, student: i64, problem: &'a str) -> StudentProblem<'a> {
        StudentProblem {
            assignment,
            student,
            problem,
        }
    }
}

/// An assignment the caller teaches, checked to list the problem and to have the student in its
/// course.
async fn student_problem(
    domain: &Domain,
    user: &User,
    draw: &StudentProblem<'_>,
) -> Result<Assignment> {
    let assignment = access::assignment_as_teacher(domain, user, draw.assignment).await?;
    listed(&assignment, draw.problem)?;
    access::student_of(domain, &assignment, draw.student).await?;
    Ok(assignment)
}

/// A student's current draw with the reference answers, for a teacher of their course.
pub async fn student_instances(
    domain: &Domain,
    user: &User,
    draw: &StudentProblem<'_>,
) -> Result<StudentInstances> {
    Ok(student_draw(domain, user, draw).await?.drawn)
}

/// A student's draw, with the assignment and the student's name, for their teacher's page.
#[derive(Debug)]
pub struct StudentDraw {
    pub assignment: Assignment,
    pub student: String,
    pub drawn: StudentInstances,
}

pub async fn student_draw(
    domain: &Domain,
    user: &User,
    draw: &StudentProblem<'_>,
) -> Result<StudentDraw> {
    let assignment = student_problem(domain, user, draw).await?;
    let drawn = drawn_for_teacher(domain, draw).await?;
    let student = draw.student;
    let name = domain
        .store
        .user_by_id(student)
        .await?
        .map_or_else(|| format!("#{student}"), |u| u.name);
    Ok(StudentDraw {
        assignment,
        student: name,
        drawn,
    })
}

async fn drawn_for_teacher(domain: &Domain, of: &StudentProblem<'_>) -> Result<StudentInstances> {
    let entry = find(domain, of.problem)?;
    let (draw, seed) = personal_draw(domain, of.assignment, of.student, of.problem).await?;
    let drawn = problems::draw(entry, seed as u64, Some(draw.generation)).await?;
    Ok(StudentInstances {
        user_id: of.student,
        problem: of.problem.to_owned(),
        version: drawn.version,
        generation: draw.generation,
        pinned: draw.pinned,
        instances: drawn
            .instances
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

/// Draws the student new instances; refused while their draw is pinned. Their earlier
/// submissions keep the seed they answered.
pub async fn regenerate(
    domain: &Domain,
    user: &User,
    draw: &StudentProblem<'_>,
) -> Result<StudentInstances> {
    // The student and the problem are checked before anything changes; drawing waits.
    student_problem(domain, user, draw).await?;
    if domain
        .store
        .regenerate_instance(draw.assignment, draw.student, draw.problem)
        .await?
        .is_none()
    {
        return Err(Error::Conflict(
            "this draw is pinned; unpin it to regenerate".into(),
        ));
    }
    drawn_for_teacher(domain, draw).await
}

/// Pins (or unpins) a student's current draw: a pinned draw is not drawn again.
pub async fn pin(
    domain: &Domain,
    user: &User,
    draw: &StudentProblem<'_>,
    pinned: bool,
) -> Result<StudentInstances> {
    student_problem(domain, user, draw).await?;
    domain
        .store
        .pin_instance(draw.assignment, draw.student, draw.problem, pinned)
        .await?;
    drawn_for_teacher(domain, draw).await
}

/// Where a submission from a problem page opened with `?assignment=` goes.
#[derive(Debug, Clone)]
pub struct Target {
    pub id: i64,
    pub title: String,
    /// The caller's own due time.
    pub due_at: i64,
}

/// The assignment, if the caller is in its course and it lists the problem.
pub async fn target(domain: &Domain, user: &User, id: i64, slug: &str) -> Result<Target> {
    let (assignment, _) = access::assignment(domain, user, id).await?;
    listed(&assignment, slug)?;
    let deadlines = deadlines_for(domain, &assignment, user.id).await?;
    Ok(Target {
        id,
        title: assignment.spec.title.clone(),
        due_at: deadlines.due_at,
    })
}
