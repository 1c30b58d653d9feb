//! Who may see and change what, in one place: students see their own work; a teacher sees their
//! own, what was submitted for the assignments of the courses they teach, and submissions to
//! problems they own (never a student's practice or other courses' work: joining a course, or
//! being imported into one, shows a teacher nothing else); admins see everything. Someone else's
//! thing is "not found", never "forbidden", so ids reveal nothing.

use grundy_store::{Assignment, Course, MemberRole, Role, Submission, User};

use crate::{ApiError, AppState};

/// Whether `user` may see `submission` (and rejudge it, when a teacher).
pub async fn may_see_submission(
    state: &AppState,
    user: &User,
    submission: &Submission,
) -> Result<bool, ApiError> {
    if user.role == Role::Admin || submission.user_id == user.id {
        return Ok(true);
    }
    if user.role != Role::Teacher {
        return Ok(false);
    }
    if let Some(id) = submission.assignment_id
        && teaches_assignment(state, user, id).await?
    {
        return Ok(true);
    }
    owns_problem(state, user, &submission.problem).await
}

/// Whether `user` teaches the course of assignment `id`.
pub async fn teaches_assignment(state: &AppState, user: &User, id: i64) -> Result<bool, ApiError> {
    let Some(found) = state.store.assignment(id).await? else {
        return Ok(false);
    };
    Ok(state.store.member_role(found.course_id, user.id).await? == Some(MemberRole::Teacher))
}

/// A teacher's own uploaded problem or variant; admins own everything.
pub async fn owns_problem(state: &AppState, user: &User, slug: &str) -> Result<bool, ApiError> {
    if user.role == Role::Admin {
        return Ok(true);
    }
    Ok(state
        .store
        .custom_problem(slug)
        .await?
        .is_some_and(|p| p.owner_id == user.id))
}

/// The course and the caller's part in it; admins act as its teachers. Not a member: not found.
pub async fn course(
    state: &AppState,
    user: &User,
    id: i64,
) -> Result<(Course, MemberRole), ApiError> {
    let missing = || ApiError::NotFound(format!("course {id}"));
    let course = state.store.course(id).await?.ok_or_else(missing)?;
    let role = match state.store.member_role(id, user.id).await? {
        Some(role) => role,
        None if user.role == Role::Admin => MemberRole::Teacher,
        None => return Err(missing()),
    };
    Ok((course, role))
}

/// As [`course`], for one of its teachers only.
pub async fn teaching(state: &AppState, user: &User, id: i64) -> Result<Course, ApiError> {
    match course(state, user, id).await? {
        (course, MemberRole::Teacher) => Ok(course),
        (_, MemberRole::Student) => Err(ApiError::Forbidden("the course's teachers only")),
    }
}

/// The assignment and the caller's part in its course.
pub async fn assignment(
    state: &AppState,
    user: &User,
    id: i64,
) -> Result<(Assignment, MemberRole), ApiError> {
    let found = state
        .store
        .assignment(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("assignment {id}")))?;
    let (_, role) = course(state, user, found.course_id)
        .await
        .map_err(|e| match e {
            // Its course's id would say more than the assignment's.
            ApiError::NotFound(_) => ApiError::NotFound(format!("assignment {id}")),
            other => other,
        })?;
    Ok((found, role))
}

/// As [`assignment`], for the course's teachers only.
pub async fn assignment_as_teacher(
    state: &AppState,
    user: &User,
    id: i64,
) -> Result<Assignment, ApiError> {
    match assignment(state, user, id).await? {
        (found, MemberRole::Teacher) => Ok(found),
        (_, MemberRole::Student) => Err(ApiError::Forbidden("the course's teachers only")),
    }
}
