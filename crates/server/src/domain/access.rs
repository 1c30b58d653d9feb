//! Who may see and change what, in one place: students see their own work; a teacher sees their
//! own and what was submitted for the assignments of the courses they teach (never a student's
//! practice or other courses' work, not even on problems they own: joining a course shows a
//! teacher nothing else); admins see everything. Someone else's thing is "not found", never
//! "forbidden", so ids reveal nothing.
//!
//! Nobody's account, work or problem enters someone else's reach without its owner's act:
//! - an account enters a course only by its owner's act (making the course, typing its join
//!   code, accepting an invitation that a teacher of the course sent) or as an account that the
//!   course's own import made ([`grundy_store::MemberOrigin`]); a teacher naming an existing account invites it;
//! - a teacher manages (new password) only the student accounts that a course they teach made,
//!   and only until the account joins a course they do not teach ([`changeable_users`]);
//! - a teacher's drafts and hidden tests reach the course's other teachers only where the owner
//!   teaches by their own act: made the course, or accepted the invitation to co-teach, which
//!   says so ([`grundy_store::MemberOrigin::shares_own_work`]).
//!
//! Every operation asks here before it reads or changes anything on someone's behalf.

use std::collections::BTreeSet;

use grundy_store::{
    Assignment, Course, Feedback, MemberRole, Role, Submission, SubmissionQuery, User,
};

use super::{Domain, Error, Result};
use crate::registry::{Entry, Origin};

/// Teachers and admins: the teaching pages and tools.
pub fn is_teacher(user: &User) -> bool {
    matches!(user.role, Role::Admin | Role::Teacher)
}

pub fn require_teacher(user: &User) -> Result<()> {
    if is_teacher(user) {
        Ok(())
    } else {
        Err(Error::Forbidden("teachers and admins only"))
    }
}

pub fn is_admin(user: &User) -> bool {
    user.role == Role::Admin
}

pub fn require_admin(user: &User) -> Result<()> {
    if is_admin(user) {
        Ok(())
    } else {
        Err(Error::Forbidden("admins only"))
    }
}

/// Whether `actor` may make accounts of `role` on their own (the users page, the API): admins
/// only. A teacher makes students' accounts through a course's import, which records the course
/// as their maker ([`may_make_students_in_course`]).
pub fn may_create_account(actor: &User, _role: Role) -> bool {
    actor.role == Role::Admin
}

/// Whether `actor`, teaching a course, may have its import make the accounts of students who
/// have none: teachers and admins.
pub fn may_make_students_in_course(actor: &User) -> bool {
    is_teacher(actor)
}

/// Whether `actor` may change `target`'s password or role (never their own here: they have
/// their own form, which asks for the current password). A new password is a way into the
/// account, so a teacher resets only the students that a course of theirs made and whose every
/// course they teach: otherwise one teacher could read another's course, or a self-registered
/// student's practice, as that student.
pub async fn may_change_user(domain: &Domain, actor: &User, target: &User) -> Result<bool> {
    Ok(changeable_users(domain, actor).await?.allows(target))
}

/// Whose accounts `actor` may change, worked out once for a list of users.
#[derive(Debug)]
pub struct Changeable {
    actor: User,
    /// For a teacher: the students they manage (see [`may_change_user`]).
    students: std::collections::HashSet<i64>,
}

impl Changeable {
    pub fn allows(&self, target: &User) -> bool {
        if self.actor.id == target.id {
            return false;
        }
        match self.actor.role {
            Role::Admin => true,
            Role::Teacher => target.role == Role::Student && self.students.contains(&target.id),
            Role::Student => false,
        }
    }
}

pub async fn changeable_users(domain: &Domain, actor: &User) -> Result<Changeable> {
    let students = if actor.role == Role::Teacher {
        domain
            .store
            .accounts_managed_by(actor.id)
            .await?
            .into_iter()
            .collect()
    } else {
        Default::default()
    };
    Ok(Changeable {
        actor: actor.clone(),
        students,
    })
}

/// The accounts a users page lists for `viewer`: every one to admins; to a teacher their own,
/// the members of the courses they teach and the accounts those courses' imports made, so that
/// the list is no directory of the school to pick targets from.
pub async fn listed_users(domain: &Domain, viewer: &User) -> Result<Vec<User>> {
    require_teacher(viewer)?;
    Ok(if is_admin(viewer) {
        domain.store.users().await?
    } else {
        domain.store.users_seen_by(viewer.id).await?
    })
}

/// Only admins give roles.
pub fn may_change_roles(actor: &User) -> bool {
    actor.role == Role::Admin
}

/// The roles `actor` may create accounts with on their own, from least to most.
pub fn creatable_roles(actor: &User) -> Vec<Role> {
    [Role::Student, Role::Teacher, Role::Admin]
        .into_iter()
        .filter(|role| may_create_account(actor, *role))
        .collect()
}

/// Whether `user` owns a problem whose owner is `owner` (`None`: built in). Admins own
/// everything.
pub fn owns(user: &User, owner: Option<i64>) -> bool {
    user.role == Role::Admin || owner == Some(user.id)
}

/// A teacher's own uploaded problem or variant; admins own everything.
pub async fn owns_problem(domain: &Domain, user: &User, slug: &str) -> Result<bool> {
    if user.role == Role::Admin {
        return Ok(true);
    }
    Ok(domain
        .store
        .custom_problem(slug)
        .await?
        .is_some_and(|p| p.owner_id == user.id))
}

/// Whether `user` may download a problem as a package, hidden tests and validator included:
/// any teacher a built-in one (its tests come from the public generators), only its owner (or an
/// admin) anyone's upload or variant.
pub fn may_export(user: &User, owner: Option<i64>) -> bool {
    is_teacher(user) && (owner.is_none() || owns(user, owner))
}

/// The submissions `viewer` may list, of `author`'s when one is asked for: the rule of
/// [`may_see_submission`], as a query the store runs. `None` when the viewer may see none of
/// them (a student asking for someone else's).
pub fn visible_submissions(viewer: &User, author: Option<i64>) -> Option<SubmissionQuery<'static>> {
    let user = match (viewer.role, author) {
        (Role::Student, Some(asked)) if asked != viewer.id => return None,
        (Role::Student, _) => Some(viewer.id),
        (_, asked) => asked,
    };
    Some(SubmissionQuery {
        user,
        // A teacher's listing is narrowed in SQL as `may_see_submission` narrows one.
        teacher: (viewer.role == Role::Teacher).then_some(viewer.id),
        ..SubmissionQuery::default()
    })
}

/// Whether `user` may see `submission` (and rejudge it, when a teacher).
pub async fn may_see_submission(
    domain: &Domain,
    user: &User,
    submission: &Submission,
) -> Result<bool> {
    if user.role == Role::Admin || submission.user_id == user.id {
        return Ok(true);
    }
    if user.role != Role::Teacher {
        return Ok(false);
    }
    // Owning the problem adds nothing: other courses' work on it belongs to their teachers.
    match submission.assignment_id {
        Some(id) => teaches_assignment(domain, user, id).await,
        None => Ok(false),
    }
}

/// How much `viewer` is told about the tests of `submission`: an assignment's level for the
/// student who made it; everything for the teachers who see it; per-test rows in practice, but
/// no more than the strictest open assignment of the student's courses that lists the problem
/// (else practising it would tell what the assignment keeps back).
pub async fn feedback_for(
    domain: &Domain,
    viewer: &User,
    submission: &Submission,
) -> Result<Feedback> {
    if viewer.id != submission.user_id {
        return Ok(Feedback::Inputs);
    }
    let Some(id) = submission.assignment_id else {
        let assignments = domain
            .store
            .strictest_open_feedback(viewer.id, &submission.problem, domain.now())
            .await?;
        return Ok(assignments.map_or(Feedback::Tests, |level| level.min(Feedback::Tests)));
    };
    Ok(domain
        .store
        .assignment(id)
        .await?
        .map_or(Feedback::Tests, |a| a.spec.feedback))
}

/// Explanations of wrong answers (the smallest game a program gets wrong, the certificate, the
/// misconception) go with per-test feedback: `tests` and `inputs`, teachers always; `verdict`
/// says nothing more than the verdict. Of an answer submission's explanation, the expected
/// answers of the student's instances, and the certificates proving them, are test data (see
/// [`sees_test_data`]).
pub fn shows_explanation(feedback: Feedback) -> bool {
    feedback >= Feedback::Tests
}

/// Whether `viewer`, shown a test's data, may see it: its input, expected answer and output, and
/// the checker's message quoting them (`line 1: expected "7", read "0"`; below, the message
/// names the place only: `line 1 is wrong`). A public sample's from the `tests` level on (its
/// input and answer are in the statement, the output is the viewer's own program's); anything
/// else the judge kept (the student's own instances, answered or run) at `inputs`, which
/// teachers always read at: `tests` promises verdicts and times, and a quoted expected answer,
/// copied back, would score.
pub fn sees_test_data(feedback: Feedback, public: bool) -> bool {
    match feedback {
        Feedback::Verdict => false,
        Feedback::Tests => public,
        Feedback::Inputs => true,
    }
}

/// Whether the `inputs` level shows `viewer` the hidden tests of `entry`, the problem of
/// `submission` (the inputs and expected answers of the failing ones). The level is the
/// assignment's teachers' choice, but hidden tests are not always theirs to give away:
/// - a built-in problem's are (its tests come from the public generators; any teacher may
///   export them);
/// - a teacher's upload or variant's only when the viewer owns it (admins own everything), or
///   its owner teaches the course of the assignment the submission was made for by their own
///   act: an owner who does not, or who was made a co-teacher without being asked, never chose
///   to show them.
pub async fn reveals_hidden_tests(
    domain: &Domain,
    viewer: &User,
    submission: &Submission,
    entry: &Entry,
) -> Result<bool> {
    let Some(owner) = entry.owner else {
        return Ok(entry.origin == Origin::Builtin);
    };
    if owns(viewer, Some(owner)) {
        return Ok(true);
    }
    let Some(id) = submission.assignment_id else {
        return Ok(false);
    };
    let Some(found) = domain.store.assignment(id).await? else {
        return Ok(false);
    };
    Ok(matches!(
        domain.store.membership(found.course_id, owner).await?,
        Some((MemberRole::Teacher, origin)) if origin.shares_own_work()
    ))
}

/// Whether `user` teaches the course of assignment `id`.
pub async fn teaches_assignment(domain: &Domain, user: &User, id: i64) -> Result<bool> {
    let Some(found) = domain.store.assignment(id).await? else {
        return Ok(false);
    };
    Ok(domain.store.member_role(found.course_id, user.id).await? == Some(MemberRole::Teacher))
}

/// Admins see every course, as its teachers; others their own.
pub fn sees_every_course(user: &User) -> bool {
    is_admin(user)
}

/// A course's join code is for its teachers: whoever has it can join.
pub fn sees_join_code(role: MemberRole) -> bool {
    role == MemberRole::Teacher
}

/// Teachers see a course's members; students only its teachers.
pub fn sees_member(viewer: MemberRole, member: MemberRole) -> bool {
    viewer == MemberRole::Teacher || member == MemberRole::Teacher
}

/// Whether an account may take `part` in a course that a teacher invites it into (or, for a
/// student's, whose import makes it), or why not: students as students, teachers' and admins'
/// accounts only as co-teachers (they join as students only by their own choice of join code).
pub fn may_take_part(account: &User, part: MemberRole) -> std::result::Result<(), &'static str> {
    match (part, account.role) {
        (MemberRole::Teacher, Role::Student) => Err("a student's account cannot teach"),
        (MemberRole::Student, Role::Teacher | Role::Admin) => {
            Err("not a student's account (add it as a co-teacher)")
        }
        _ => Ok(()),
    }
}

/// Students work within an assignment's times; its teachers may try it at any time.
pub fn bound_by_deadlines(role: MemberRole) -> bool {
    role == MemberRole::Student
}

/// The course and the caller's part in it; admins act as its teachers. Not a member: not found.
pub async fn course(domain: &Domain, user: &User, id: i64) -> Result<(Course, MemberRole)> {
    let missing = || Error::NotFound(format!("course {id}"));
    let course = domain.store.course(id).await?.ok_or_else(missing)?;
    let role = match domain.store.member_role(id, user.id).await? {
        Some(role) => role,
        None if sees_every_course(user) => MemberRole::Teacher,
        None => return Err(missing()),
    };
    Ok((course, role))
}

/// As [`course`], for one of its teachers only.
pub async fn teaching(domain: &Domain, user: &User, id: i64) -> Result<Course> {
    match course(domain, user, id).await? {
        (course, MemberRole::Teacher) => Ok(course),
        (_, MemberRole::Student) => Err(Error::Forbidden("the course's teachers only")),
    }
}

/// The assignment and the caller's part in its course.
pub async fn assignment(domain: &Domain, user: &User, id: i64) -> Result<(Assignment, MemberRole)> {
    let found = domain
        .store
        .assignment(id)
        .await?
        .ok_or_else(|| Error::NotFound(format!("assignment {id}")))?;
    let (_, role) = course(domain, user, found.course_id)
        .await
        .map_err(|e| match e {
            // Its course's id would say more than the assignment's.
            Error::NotFound(_) => Error::NotFound(format!("assignment {id}")),
            other => other,
        })?;
    Ok((found, role))
}

/// As [`assignment`], for the course's teachers only.
pub async fn assignment_as_teacher(domain: &Domain, user: &User, id: i64) -> Result<Assignment> {
    match assignment(domain, user, id).await? {
        (found, MemberRole::Teacher) => Ok(found),
        (_, MemberRole::Student) => Err(Error::Forbidden("the course's teachers only")),
    }
}

/// `student` is one of the assignment's course's students, or "not found".
pub async fn student_of(domain: &Domain, assignment: &Assignment, student: i64) -> Result<()> {
    if domain
        .store
        .member_role(assignment.course_id, student)
        .await?
        == Some(MemberRole::Student)
    {
        Ok(())
    } else {
        Err(Error::NotFound(format!("student {student} in this course")))
    }
}

/// Who sees which problems. Every published problem (each built-in one, a custom one once
/// published), signed in or not. A draft:
/// - its owner, and admins;
/// - its owner's co-teachers: whoever teaches a course that its owner teaches by their own act
///   (made it, or accepted the invitation to co-teach it);
/// - the teachers of a course with an assignment that lists it;
/// - the students of such a course, from the assignment's opening (extensions move only the due
///   time).
///
/// Seeing a problem is listing it, reading it and submitting to it; a problem not seen is "not
/// found". Worked out once for a request, then asked of each problem.
#[derive(Debug)]
pub struct ProblemSight {
    /// Admins see every draft.
    everything: bool,
    /// The owners whose drafts the viewer sees: themselves and their co-teachers.
    owners: BTreeSet<i64>,
    /// The drafts the viewer sees through an assignment.
    assigned: BTreeSet<String>,
}

impl ProblemSight {
    pub fn sees(&self, entry: &Entry) -> bool {
        entry.published
            || self.everything
            || entry
                .owner
                .is_some_and(|owner| self.owners.contains(&owner))
            || self.assigned.contains(entry.problem.slug())
    }
}

/// What `viewer` (`None`: nobody signed in) sees of the problems.
pub async fn problem_sight(domain: &Domain, viewer: Option<&User>) -> Result<ProblemSight> {
    let mut sight = ProblemSight {
        everything: viewer.is_some_and(is_admin),
        owners: BTreeSet::new(),
        assigned: BTreeSet::new(),
    };
    let Some(user) = viewer else {
        return Ok(sight);
    };
    sight.owners.insert(user.id);
    // Courses matter for drafts only, and most of the time there are none.
    if sight.everything || !domain.problems.has_drafts() {
        return Ok(sight);
    }
    sight
        .owners
        .extend(domain.store.teachers_sharing_with(user.id).await?);
    let now = domain.now();
    sight.assigned = domain
        .store
        .listings(user.id)
        .await?
        .into_iter()
        .filter(|l| l.role == MemberRole::Teacher || l.opens_at <= now)
        .map(|l| l.problem)
        .collect();
    Ok(sight)
}

/// Whether `viewer` sees one problem (a published one without asking the store).
pub async fn sees_problem(domain: &Domain, viewer: Option<&User>, entry: &Entry) -> Result<bool> {
    if entry.published {
        return Ok(true);
    }
    Ok(problem_sight(domain, viewer).await?.sees(entry))
}

/// Whether `user` may publish a draft: its owner or an admin (built-in problems are published).
pub fn may_publish(user: &User, entry: &Entry) -> bool {
    entry.origin != Origin::Builtin && owns(user, entry.owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, role: Role) -> User {
        User {
            id,
            name: format!("u{id}"),
            role,
            password_hash: None,
            created_at: 0,
            locale: None,
            time_zone: None,
        }
    }

    #[test]
    fn only_admins_make_accounts_outside_a_course() {
        let (admin, teacher, student) = (
            user(1, Role::Admin),
            user(2, Role::Teacher),
            user(3, Role::Student),
        );
        assert!(!may_create_account(&teacher, Role::Student));
        assert!(!may_create_account(&teacher, Role::Teacher));
        assert!(!may_create_account(&student, Role::Student));
        assert!(may_create_account(&admin, Role::Admin));
        assert!(may_make_students_in_course(&teacher));
        assert!(!may_make_students_in_course(&student));
        assert!(creatable_roles(&teacher).is_empty());
        assert!(creatable_roles(&student).is_empty());
        assert_eq!(creatable_roles(&admin).len(), 3);
        assert!(!may_change_roles(&teacher));
    }

    fn changeable(actor: &User, students: &[i64]) -> Changeable {
        Changeable {
            actor: actor.clone(),
            students: students.iter().copied().collect(),
        }
    }

    #[test]
    fn a_teacher_resets_only_the_students_their_courses_made() {
        let (admin, teacher) = (user(1, Role::Admin), user(2, Role::Teacher));
        let (theirs, elsewhere) = (user(3, Role::Student), user(5, Role::Student));
        // Nobody changes their own account here, not even an admin.
        assert!(!changeable(&admin, &[]).allows(&admin));
        assert!(changeable(&admin, &[]).allows(&elsewhere));
        assert!(changeable(&teacher, &[3]).allows(&theirs));
        assert!(!changeable(&teacher, &[3]).allows(&elsewhere));
        assert!(!changeable(&teacher, &[4]).allows(&user(4, Role::Teacher)));
        assert!(!changeable(&teacher, &[1]).allows(&admin));
        assert!(!changeable(&user(6, Role::Student), &[3]).allows(&theirs));
    }

    #[test]
    fn a_student_never_lists_anyone_else() {
        let student = user(3, Role::Student);
        assert!(visible_submissions(&student, Some(4)).is_none());
        let own = visible_submissions(&student, None).unwrap();
        assert_eq!((own.user, own.teacher), (Some(3), None));
        let teacher = user(2, Role::Teacher);
        let theirs = visible_submissions(&teacher, Some(3)).unwrap();
        assert_eq!((theirs.user, theirs.teacher), (Some(3), Some(2)));
        let admin = visible_submissions(&user(1, Role::Admin), None).unwrap();
        assert_eq!((admin.user, admin.teacher), (None, None));
    }

    #[test]
    fn students_see_neither_join_codes_nor_classmates() {
        assert!(!sees_join_code(MemberRole::Student));
        assert!(sees_join_code(MemberRole::Teacher));
        assert!(!sees_member(MemberRole::Student, MemberRole::Student));
        assert!(sees_member(MemberRole::Student, MemberRole::Teacher));
        assert!(bound_by_deadlines(MemberRole::Student));
        assert!(!bound_by_deadlines(MemberRole::Teacher));
        assert!(owns(&user(1, Role::Admin), None));
        assert!(!owns(&user(2, Role::Teacher), Some(9)));
        assert!(owns(&user(2, Role::Teacher), Some(2)));
    }

    #[test]
    fn samples_show_their_data_from_the_tests_level_and_the_rest_at_inputs() {
        assert!(!sees_test_data(Feedback::Verdict, true));
        assert!(sees_test_data(Feedback::Tests, true));
        assert!(!sees_test_data(Feedback::Tests, false));
        assert!(sees_test_data(Feedback::Inputs, false));
    }

    #[test]
    fn only_students_are_invited_as_students_and_never_teach() {
        assert!(may_take_part(&user(3, Role::Student), MemberRole::Student).is_ok());
        assert!(may_take_part(&user(3, Role::Student), MemberRole::Teacher).is_err());
        assert!(may_take_part(&user(2, Role::Teacher), MemberRole::Student).is_err());
        assert!(may_take_part(&user(1, Role::Admin), MemberRole::Student).is_err());
        assert!(may_take_part(&user(2, Role::Teacher), MemberRole::Teacher).is_ok());
    }
}
