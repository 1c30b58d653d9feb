//! Who may see and change what, in one place: students see their own work; a teacher sees their
//! own, what was submitted for the assignments of the courses they teach, and submissions to
//! problems they own (never a student's practice or other courses' work: joining a course, or
//! being imported into one, shows a teacher nothing else); admins see everything. Someone else's
//! thing is "not found", never "forbidden", so ids reveal nothing.
//!
//! Every operation asks here before it reads or changes anything on someone's behalf.

use grundy_store::{
    Assignment, Course, Feedback, MemberRole, Role, Submission, SubmissionQuery, User,
};

use super::{Domain, Error, Result};

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

/// Whether `actor` may create accounts of `role` and set their passwords: admins anyone's,
/// teachers students'.
pub fn may_manage(actor: &User, role: Role) -> bool {
    actor.role == Role::Admin || (actor.role == Role::Teacher && role == Role::Student)
}

/// Whether `actor` may change `target`'s password or role (never their own here: they have
/// their own form, which asks for the current password).
pub fn may_change_user(actor: &User, target: &User) -> bool {
    may_manage(actor, target.role) && actor.id != target.id
}

/// Only admins give roles.
pub fn may_change_roles(actor: &User) -> bool {
    actor.role == Role::Admin
}

/// The roles `actor` may create accounts with, from least to most.
pub fn creatable_roles(actor: &User) -> Vec<Role> {
    [Role::Student, Role::Teacher, Role::Admin]
        .into_iter()
        .filter(|role| may_manage(actor, *role))
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

/// The submissions `viewer` may list: the same rule as [`may_see_submission`], in SQL.
pub fn visible_submissions(viewer: &User) -> SubmissionQuery<'static> {
    SubmissionQuery::seen_by(viewer)
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
    if let Some(id) = submission.assignment_id
        && teaches_assignment(domain, user, id).await?
    {
        return Ok(true);
    }
    owns_problem(domain, user, &submission.problem).await
}

/// How much `viewer` is told about the tests of `submission`: an assignment's level for the
/// student who made it; everything for the teachers who see it; per-test rows in practice.
pub async fn feedback_for(
    domain: &Domain,
    viewer: &User,
    submission: &Submission,
) -> Result<Feedback> {
    let Some(id) = submission.assignment_id else {
        return Ok(Feedback::Tests);
    };
    if viewer.id != submission.user_id {
        return Ok(Feedback::Inputs);
    }
    Ok(domain
        .store
        .assignment(id)
        .await?
        .map_or(Feedback::Tests, |a| a.spec.feedback))
}

/// Whether `user` teaches the course of assignment `id`.
pub async fn teaches_assignment(domain: &Domain, user: &User, id: i64) -> Result<bool> {
    let Some(found) = domain.store.assignment(id).await? else {
        return Ok(false);
    };
    Ok(domain.store.member_role(found.course_id, user.id).await? == Some(MemberRole::Teacher))
}

/// The course and the caller's part in it; admins act as its teachers. Not a member: not found.
pub async fn course(domain: &Domain, user: &User, id: i64) -> Result<(Course, MemberRole)> {
    let missing = || Error::NotFound(format!("course {id}"));
    let course = domain.store.course(id).await?.ok_or_else(missing)?;
    let role = match domain.store.member_role(id, user.id).await? {
        Some(role) => role,
        None if user.role == Role::Admin => MemberRole::Teacher,
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
