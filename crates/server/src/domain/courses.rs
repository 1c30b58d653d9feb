//! Courses: a teacher creates one; students join with its code, or accept the invitation a
//! teacher's import sends them (an import makes and adds the accounts of students who have none);
//! co-teachers are invited the same way. A course is visible to its members only.

use grundy_coursework::Deadlines;
use grundy_store::{
    Assignment, Course, Invitation, Invited, MadeByCourse, Member, MemberOrigin, MemberRole, Role,
    StoreError, User,
};
use rand::RngExt;

use super::assignments::{self, Window};
use super::{Domain, Error, Result, access, accounts};

/// Letters and digits nobody misreads (no 0/O, 1/I/L).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH: usize = 8;
const PASSWORD_LENGTH: usize = 14;
/// Names in one import; each new account costs a password hash.
const MAX_IMPORT: usize = 200;

/// `length` characters nobody misreads: join codes, and (in lower case) new passwords.
fn random_code(length: usize) -> String {
    let mut rng = rand::rng();
    (0..length)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// A course and the caller's part in it.
#[derive(Debug)]
pub struct Membership {
    pub course: Course,
    pub role: MemberRole,
}

impl Membership {
    /// The join code, for the course's teachers only.
    pub fn join_code(&self) -> Option<&str> {
        access::sees_join_code(self.role).then_some(self.course.join_code.as_str())
    }

    pub fn teaching(&self) -> bool {
        self.role == MemberRole::Teacher
    }
}

/// Creates a course with a fresh join code; the caller, a teacher, is its first teacher.
pub async fn create(domain: &Domain, user: &User, title: &str) -> Result<Course> {
    access::require_teacher(user)?;
    let title = title.trim();
    if title.is_empty() || title.chars().count() > 200 {
        return Err(Error::BadRequest(
            "a course title has 1 to 200 characters".into(),
        ));
    }
    // A clash of 8 characters from 31 is rare; a few tries make it vanish.
    for _ in 0..5 {
        match domain
            .store
            .create_course(title, &random_code(CODE_LENGTH), user.id, domain.now())
            .await
        {
            Err(StoreError::Conflict(_)) => continue,
            other => return Ok(other?),
        }
    }
    Err(Error::Internal("no free join code after 5 tries".into()))
}

/// The caller's courses with their part in each (every course for admins, as a teacher),
/// newest first.
pub async fn mine(domain: &Domain, user: &User) -> Result<Vec<Membership>> {
    let courses = if access::sees_every_course(user) {
        domain
            .store
            .courses()
            .await?
            .into_iter()
            .map(|c| (c, MemberRole::Teacher))
            .collect()
    } else {
        domain.store.courses_of(user.id).await?
    };
    Ok(courses
        .into_iter()
        .map(|(course, role)| Membership { course, role })
        .collect())
}

/// The courses the caller teaches (every course for admins), each with its assignments: what a
/// teacher narrows the submissions they see by.
pub async fn taught_assignments(
    domain: &Domain,
    user: &User,
) -> Result<Vec<(Course, Vec<Assignment>)>> {
    let mut taught = Vec::new();
    for membership in mine(domain, user).await? {
        if membership.teaching() {
            let assignments = domain.store.assignments(membership.course.id).await?;
            taught.push((membership.course, assignments));
        }
    }
    Ok(taught)
}

/// A course the caller teaches (for the forms that change it).
pub async fn teaching(domain: &Domain, user: &User, id: i64) -> Result<Membership> {
    let course = access::teaching(domain, user, id).await?;
    Ok(Membership {
        course,
        role: MemberRole::Teacher,
    })
}

/// A course as one of its members sees it.
#[derive(Debug)]
pub struct Overview {
    /// The course and the viewer's part in it.
    pub membership: Membership,
    /// Everyone for teachers; the teachers for students.
    pub members: Vec<Member>,
    /// By due time, each with the viewer's own times.
    pub assignments: Vec<Listed>,
    /// For teachers: who was invited and has not joined (pending or declined).
    pub invitations: Vec<Invitation>,
}

/// An assignment in its course's list.
#[derive(Debug)]
pub struct Listed {
    pub assignment: Assignment,
    /// The class's times for teachers; a student's own (with an extension).
    pub deadlines: Deadlines,
    pub window: Window,
}

pub async fn overview(domain: &Domain, user: &User, id: i64) -> Result<Overview> {
    let (course, role) = access::course(domain, user, id).await?;
    let members = domain
        .store
        .members(id)
        .await?
        .into_iter()
        .filter(|m| access::sees_member(role, m.role))
        .collect();
    let now = domain.now();
    let mut listed = Vec::new();
    for assignment in domain.store.assignments(id).await? {
        // A student's own times, with their extension; the class's for its teachers.
        let deadlines = if access::bound_by_deadlines(role) {
            assignments::deadlines_for(domain, &assignment, user.id).await?
        } else {
            Deadlines::for_student(&assignment.spec, None)
        };
        listed.push(Listed {
            window: Window::of(&deadlines, now),
            deadlines,
            assignment,
        });
    }
    let invitations = if role == MemberRole::Teacher {
        domain.store.course_invitations(id).await?
    } else {
        Vec::new()
    };
    Ok(Overview {
        membership: Membership { course, role },
        members,
        assignments: listed,
        invitations,
    })
}

/// Joins the course whose code this is, as a student; a member already keeps their part.
pub async fn join(domain: &Domain, user: &User, code: &str) -> Result<Membership> {
    let code = code.trim().to_uppercase();
    let Some(course) = domain.store.course_by_code(&code).await? else {
        return Err(Error::NotFound("a course with this join code".into()));
    };
    domain
        .store
        .add_member(
            course.id,
            user.id,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            domain.now(),
        )
        .await?;
    let role = domain
        .store
        .member_role(course.id, user.id)
        .await?
        .unwrap_or(MemberRole::Student);
    Ok(Membership { course, role })
}

/// Whom to add to a course.
#[derive(Debug, Clone)]
pub struct Import {
    pub names: Vec<String>,
    /// Students, or co-teachers (whose accounts must be teachers').
    pub role: MemberRole,
    /// Create accounts for students who have none, with a fresh password each.
    pub create_missing: bool,
}

/// A new student account's password, shown this once.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct NewAccount {
    pub name: String,
    /// Shown once: hand it to the student.
    pub password: String,
}

#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Refused {
    pub name: String,
    pub reason: String,
}

/// What an import did, name by name.
#[derive(Debug, Clone, Default, serde::Serialize, utoipa::ToSchema)]
pub struct ImportReport {
    /// In the course now: the accounts this import made.
    pub added: Vec<String>,
    /// Existing accounts, asked to join: each is in the course once its person accepts (an
    /// invitation already waiting is left as it was).
    pub invited: Vec<String>,
    /// In the course already (their part is left as it was).
    pub already: Vec<String>,
    pub created: Vec<NewAccount>,
    pub refused: Vec<Refused>,
}

/// Adds people by name to a course the caller teaches (the rule is in [`access`]): the
/// accounts of students who have none are made and added (if asked); everyone else, student or
/// co-teacher, is sent an invitation to accept or decline.
pub async fn import(
    domain: &Domain,
    user: &User,
    course: i64,
    import: Import,
) -> Result<ImportReport> {
    access::teaching(domain, user, course).await?;
    // Teaching a course is not enough to make accounts: the caller's own role must allow it.
    if import.create_missing && !access::may_make_students_in_course(user) {
        return Err(Error::Forbidden("you may not create accounts"));
    }
    let role = import.role;
    let names: Vec<&str> = import
        .names
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
        .collect();
    if names.len() > MAX_IMPORT {
        return Err(Error::BadRequest(format!(
            "at most {MAX_IMPORT} names at once"
        )));
    }
    let mut report = ImportReport::default();
    for name in names {
        let refuse = |reason: &str| Refused {
            name: name.to_owned(),
            reason: reason.to_owned(),
        };
        let Some(member) = domain.store.user_by_name(name).await? else {
            if !(import.create_missing && role == MemberRole::Student) {
                report.refused.push(refuse("no such user"));
                continue;
            }
            let password = random_code(PASSWORD_LENGTH).to_lowercase();
            match accounts::add_user(domain, name, Role::Student, Some(password.clone())).await {
                Ok(created) => {
                    domain
                        .store
                        .add_new_account(course, created.id, domain.now())
                        .await?;
                    report.added.push(created.name);
                    report.created.push(NewAccount {
                        name: name.to_owned(),
                        password,
                    });
                }
                // A bad name, or one taken meanwhile: the others go on, so passwords already
                // made are still reported.
                Err(Error::BadRequest(reason) | Error::Conflict(reason)) => {
                    report.refused.push(refuse(&reason));
                }
                Err(other) => return Err(other),
            }
            continue;
        };
        if let Err(reason) = access::may_take_part(&member, role) {
            report.refused.push(refuse(reason));
            continue;
        }
        match domain
            .store
            .invite(course, member.id, role, user.id, domain.now())
            .await?
        {
            Invited::Sent | Invited::Pending => report.invited.push(member.name),
            Invited::Member => report.already.push(member.name),
            Invited::Declined => report.refused.push(refuse(DECLINED)),
        }
    }
    Ok(report)
}

/// Why an import leaves out someone who said no.
const DECLINED: &str = "declined an earlier invitation (they may still join with the code)";

/// An invitation waiting for its person's answer, with what accepting it means.
#[derive(Debug)]
pub struct Pending {
    pub invitation: Invitation,
    /// The course's teachers now: whom a co-teacher would share drafts and hidden tests with,
    /// and who would see a student's work for the course.
    pub teachers: Vec<String>,
}

/// The invitations waiting for the caller's answer, newest first.
pub async fn invitations(domain: &Domain, user: &User) -> Result<Vec<Pending>> {
    let mut pending = Vec::new();
    for invitation in domain.store.invitations_of(user.id).await? {
        let teachers = domain
            .store
            .members(invitation.course_id)
            .await?
            .into_iter()
            .filter(|m| m.role == MemberRole::Teacher)
            .map(|m| m.name)
            .collect();
        pending.push(Pending {
            invitation,
            teachers,
        });
    }
    Ok(pending)
}

/// The caller's pending invitation `id`, or "not found" (someone else's, answered, withdrawn).
async fn pending_invitation(domain: &Domain, user: &User, id: i64) -> Result<Invitation> {
    domain
        .store
        .invitation(id, user.id)
        .await?
        .filter(|i| i.declined_at.is_none())
        .ok_or_else(|| Error::NotFound(format!("invitation {id}")))
}

/// The caller accepts invitation `id`: they are in the course, in the part it offered.
pub async fn accept(domain: &Domain, user: &User, id: i64) -> Result<Membership> {
    let invitation = pending_invitation(domain, user, id).await?;
    // The account's role may have changed since the teacher asked.
    access::may_take_part(user, invitation.role).map_err(Error::Forbidden)?;
    let Some((course, role)) = domain
        .store
        .accept_invitation(id, user.id, domain.now())
        .await?
    else {
        return Err(Error::NotFound(format!("invitation {id}")));
    };
    let course = domain
        .store
        .course(course)
        .await?
        .ok_or_else(|| Error::NotFound(format!("course {course}")))?;
    tracing::info!(user = %user.name, course = course.id, role = role.as_str(), "invitation accepted");
    Ok(Membership { course, role })
}

/// The caller declines invitation `id`; the course's teachers see that, and cannot ask again.
pub async fn decline(domain: &Domain, user: &User, id: i64) -> Result<()> {
    pending_invitation(domain, user, id).await?;
    if domain
        .store
        .decline_invitation(id, user.id, domain.now())
        .await?
    {
        Ok(())
    } else {
        Err(Error::NotFound(format!("invitation {id}")))
    }
}

/// A teacher of the course takes back its pending invitation of `member`.
pub async fn withdraw(domain: &Domain, user: &User, course: i64, member: i64) -> Result<()> {
    access::teaching(domain, user, course).await?;
    if domain.store.withdraw_invitation(course, member).await? {
        Ok(())
    } else {
        Err(Error::NotFound(format!("invitation of user {member}")))
    }
}

/// For an admin's review: every membership that a teacher made without its member's act (before
/// invitations existed), by course. Each stays until the admin or a teacher of the course removes
/// it; a co-teacher so added shares no drafts or hidden tests meanwhile.
pub async fn made_by_courses(domain: &Domain, user: &User) -> Result<Vec<MadeByCourse>> {
    access::require_admin(user)?;
    Ok(domain.store.memberships_made_by_courses().await?)
}

/// Takes someone out of a course the caller teaches (their submissions stay); the last teacher
/// stays.
pub async fn remove_member(domain: &Domain, user: &User, course: i64, member: i64) -> Result<()> {
    access::teaching(domain, user, course).await?;
    let members = domain.store.members(course).await?;
    let teachers = members
        .iter()
        .filter(|m| m.role == MemberRole::Teacher)
        .count();
    let Some(found) = members.iter().find(|m| m.user_id == member) else {
        return Err(Error::NotFound(format!("member {member}")));
    };
    if found.role == MemberRole::Teacher && teachers == 1 {
        return Err(Error::Conflict(
            "a course keeps at least one teacher".into(),
        ));
    }
    domain.store.remove_member(course, member).await?;
    Ok(())
}
