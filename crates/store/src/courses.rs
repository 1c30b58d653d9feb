//! Courses, their members, assignments, extensions and the draws of personal instances; the
//! settings the service keeps (the key of those instances' seeds).

use serde::Serialize;

use crate::{Result, Store, StoreError, Submission, conflict, rows};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Course {
    pub id: i64,
    pub title: String,
    /// What students type to join.
    pub join_code: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberRole {
    Teacher,
    Student,
}

impl MemberRole {
    pub fn as_str(self) -> &'static str {
        match self {
            MemberRole::Teacher => "teacher",
            MemberRole::Student => "student",
        }
    }

    pub fn parse(text: &str) -> Option<MemberRole> {
        match text {
            "teacher" => Some(MemberRole::Teacher),
            "student" => Some(MemberRole::Student),
            _ => None,
        }
    }

    fn decode(text: &str) -> Result<MemberRole> {
        MemberRole::parse(text)
            .ok_or_else(|| StoreError::InvalidRow(format!("course role {text:?}")))
    }
}

/// How a membership began. Only the first three are the member's own act; a course shares its
/// teachers' drafts and hidden tests with one another only through those (see
/// [`MemberOrigin::shares_own_work`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberOrigin {
    /// The member made the course.
    Created,
    /// The member typed the course's join code.
    JoinCode,
    /// The member accepted a teacher's invitation.
    Invitation,
    /// The course's import made the account and added it.
    NewAccount,
    /// A teacher of the course added an existing account before consent was asked (migration
    /// 0011): kept, marked for an admin's review.
    Course,
}

impl MemberOrigin {
    pub const ALL: [MemberOrigin; 5] = [
        MemberOrigin::Created,
        MemberOrigin::JoinCode,
        MemberOrigin::Invitation,
        MemberOrigin::NewAccount,
        MemberOrigin::Course,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MemberOrigin::Created => "created",
            MemberOrigin::JoinCode => "join_code",
            MemberOrigin::Invitation => "invitation",
            MemberOrigin::NewAccount => "new_account",
            MemberOrigin::Course => "course",
        }
    }

    pub fn parse(text: &str) -> Option<MemberOrigin> {
        MemberOrigin::ALL.into_iter().find(|o| o.as_str() == text)
    }

    fn decode(text: &str) -> Result<MemberOrigin> {
        MemberOrigin::parse(text)
            .ok_or_else(|| StoreError::InvalidRow(format!("membership origin {text:?}")))
    }

    /// Whether a teacher who is a member this way agreed to teach with the course's other
    /// teachers, so that their drafts and hidden tests may be shown there.
    pub fn shares_own_work(self) -> bool {
        matches!(self, MemberOrigin::Created | MemberOrigin::Invitation)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Member {
    pub user_id: i64,
    pub name: String,
    pub role: MemberRole,
    pub origin: MemberOrigin,
    pub joined_at: i64,
}

/// An invitation into a course, as its person and the course's teachers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invitation {
    pub id: i64,
    pub course_id: i64,
    pub course_title: String,
    pub user_id: i64,
    pub name: String,
    pub role: MemberRole,
    /// Who sent it (gone when that account was deleted).
    pub invited_by: Option<String>,
    pub invited_at: i64,
    /// Declined invitations are kept, so that a teacher does not ask again.
    pub declined_at: Option<i64>,
}

/// What asking someone into a course found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invited {
    /// A new invitation.
    Sent,
    /// One was waiting already (left as it was).
    Pending,
    /// They declined an earlier one: nobody asks again.
    Declined,
    /// They are in the course already.
    Member,
}

/// A membership that a teacher made without its member's act, for an admin's review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MadeByCourse {
    pub course_id: i64,
    pub course_title: String,
    pub user_id: i64,
    pub name: String,
    pub role: MemberRole,
    pub joined_at: i64,
}

/// Which of a student's submissions to a problem counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// The highest score after penalties (the earliest of equal ones).
    Best,
    /// The latest judged submission, whatever it scored.
    Last,
}

impl Scoring {
    pub fn parse(text: &str) -> Option<Scoring> {
        match text {
            "best" => Some(Scoring::Best),
            "last" => Some(Scoring::Last),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::Best => "best",
            Scoring::Last => "last",
        }
    }
}

/// How much a student is told about their own submission, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feedback {
    /// The verdict and score only.
    Verdict,
    /// Also each test's verdict, time and memory.
    Tests,
    /// Also the input and expected answer of their failing personal instances (which are theirs
    /// alone, so showing them gives classmates nothing).
    Inputs,
}

impl Feedback {
    pub fn parse(text: &str) -> Option<Feedback> {
        match text {
            "verdict" => Some(Feedback::Verdict),
            "tests" => Some(Feedback::Tests),
            "inputs" => Some(Feedback::Inputs),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Feedback::Verdict => "verdict",
            Feedback::Tests => "tests",
            Feedback::Inputs => "inputs",
        }
    }
}

/// What a teacher sets on an assignment; see the `assignments` table for the meaning of times.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AssignmentSpec {
    pub title: String,
    pub opens_at: i64,
    pub due_at: i64,
    pub closes_at: i64,
    pub penalty_percent: i64,
    pub penalty_step_ms: i64,
    pub scoring: Scoring,
    pub feedback: Feedback,
    /// Whether programs also run on the student's personal instances.
    pub personal_tests: bool,
    /// Whether every test runs even after a subtask has failed (its verdict and score are the
    /// same either way; the student sees each test's result, at the cost of judging time).
    pub run_every_test: bool,
    /// Problem slugs, in the order shown.
    pub problems: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assignment {
    pub id: i64,
    pub course_id: i64,
    #[serde(flatten)]
    pub spec: AssignmentSpec,
    pub created_at: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct AssignmentRow {
    id: i64,
    course_id: i64,
    title: String,
    opens_at: i64,
    due_at: i64,
    closes_at: i64,
    penalty_percent: i64,
    penalty_step_ms: i64,
    scoring: String,
    feedback: String,
    personal_tests: bool,
    run_every_test: bool,
    created_at: i64,
}

impl AssignmentRow {
    fn with_problems(self, problems: Vec<String>) -> Result<Assignment> {
        let scoring = Scoring::parse(&self.scoring)
            .ok_or_else(|| StoreError::InvalidRow(format!("scoring {:?}", self.scoring)))?;
        let feedback = Feedback::parse(&self.feedback)
            .ok_or_else(|| StoreError::InvalidRow(format!("feedback {:?}", self.feedback)))?;
        Ok(Assignment {
            id: self.id,
            course_id: self.course_id,
            spec: AssignmentSpec {
                title: self.title,
                opens_at: self.opens_at,
                due_at: self.due_at,
                closes_at: self.closes_at,
                penalty_percent: self.penalty_percent,
                penalty_step_ms: self.penalty_step_ms,
                scoring,
                feedback,
                personal_tests: self.personal_tests,
                run_every_test: self.run_every_test,
                problems,
            },
            created_at: self.created_at,
        })
    }
}

const ASSIGNMENT_SELECT: &str = "SELECT id, course_id, title, opens_at, due_at, closes_at, penalty_percent, \
     penalty_step_ms, scoring, feedback, personal_tests, run_every_test, created_at FROM assignments";

/// A student's own due time for an assignment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Extension {
    pub user_id: i64,
    pub due_at: i64,
}

/// The current draw of a student's personal instances of one problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct InstanceDraw {
    pub user_id: i64,
    pub problem: String,
    pub generation: i64,
    pub pinned: bool,
}

impl Store {
    /// Creates a course with `teacher` as its first teacher.
    pub async fn create_course(
        &self,
        title: &str,
        join_code: &str,
        teacher: i64,
        now: i64,
    ) -> Result<Course> {
        const COURSE: &str = "INSERT INTO courses (title, join_code, created_at) VALUES ($1, $2, $3) \
                              RETURNING id, title, join_code, created_at";
        const MEMBER: &str = "INSERT INTO course_members (course_id, user_id, role, origin, joined_at) \
                              VALUES ($1, $2, 'teacher', 'created', $3)";
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let course: Course = sqlx::query_as(COURSE)
                .bind(title)
                .bind(join_code)
                .bind(now)
                .fetch_one(&mut *tx)
                .await
                .map_err(conflict("a course with this join code"))?;
            sqlx::query(MEMBER).bind(course.id).bind(teacher).bind(now).execute(&mut *tx).await?;
            tx.commit().await?;
            course
        }))
    }

    pub async fn course(&self, id: i64) -> Result<Option<Course>> {
        const SQL: &str = "SELECT id, title, join_code, created_at FROM courses WHERE id = $1";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?))
    }

    pub async fn course_by_code(&self, join_code: &str) -> Result<Option<Course>> {
        const SQL: &str =
            "SELECT id, title, join_code, created_at FROM courses WHERE join_code = $1";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(join_code).fetch_optional(pool).await?))
    }

    /// The courses `user` belongs to and as what, newest first.
    pub async fn courses_of(&self, user: i64) -> Result<Vec<(Course, MemberRole)>> {
        const SQL: &str = "SELECT c.id, c.title, c.join_code, c.created_at, m.role FROM courses c \
             JOIN course_members m ON m.course_id = c.id WHERE m.user_id = $1 ORDER BY c.id DESC";
        let found: Vec<(i64, String, String, i64, String)> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(user).fetch_all(pool).await?);
        found
            .into_iter()
            .map(|(id, title, join_code, created_at, role)| {
                Ok((
                    Course {
                        id,
                        title,
                        join_code,
                        created_at,
                    },
                    MemberRole::decode(&role)?,
                ))
            })
            .collect()
    }

    /// Every course, newest first (for admins).
    pub async fn courses(&self) -> Result<Vec<Course>> {
        const SQL: &str = "SELECT id, title, join_code, created_at FROM courses ORDER BY id DESC";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?))
    }

    /// Adds `user` to a course, `origin` saying by whose act; false (and nothing changed) when
    /// they are in it already. An invitation waiting for them there is spent.
    pub async fn add_member(
        &self,
        course: i64,
        user: i64,
        role: MemberRole,
        origin: MemberOrigin,
        now: i64,
    ) -> Result<bool> {
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let added = sqlx::query(ADD_MEMBER)
                .bind(course)
                .bind(user)
                .bind(role.as_str())
                .bind(origin.as_str())
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            sqlx::query(SPEND_INVITATION).bind(course).bind(user).execute(&mut *tx).await?;
            tx.commit().await?;
            added == 1
        }))
    }

    /// Adds a student account that the course's own import has just made: the course is
    /// recorded as its maker, whose teachers manage it (see [`Store::accounts_managed_by`]).
    pub async fn add_new_account(&self, course: i64, user: i64, now: i64) -> Result<()> {
        const MAKER: &str = "UPDATE users SET created_by_course = $1 WHERE id = $2";
        on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(MAKER).bind(course).bind(user).execute(&mut *tx).await?;
            sqlx::query(ADD_MEMBER)
                .bind(course)
                .bind(user)
                .bind(MemberRole::Student.as_str())
                .bind(MemberOrigin::NewAccount.as_str())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Asks `user` into a course as `role`, unless they are in it, asked already, or declined.
    pub async fn invite(
        &self,
        course: i64,
        user: i64,
        role: MemberRole,
        by: i64,
        now: i64,
    ) -> Result<Invited> {
        const MEMBER: &str = "SELECT 1 FROM course_members WHERE course_id = $1 AND user_id = $2";
        const INSERT: &str = "INSERT INTO course_invitations (course_id, user_id, role, invited_by, invited_at) \
                              VALUES ($1, $2, $3, $4, $5) ON CONFLICT (course_id, user_id) DO NOTHING";
        const DECLINED: &str =
            "SELECT declined_at FROM course_invitations WHERE course_id = $1 AND user_id = $2";
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let member: Option<i32> =
                sqlx::query_scalar(MEMBER).bind(course).bind(user).fetch_optional(&mut *tx).await?;
            let invited = if member.is_some() {
                Invited::Member
            } else if sqlx::query(INSERT)
                .bind(course)
                .bind(user)
                .bind(role.as_str())
                .bind(by)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1
            {
                Invited::Sent
            } else {
                let declined: Option<i64> = sqlx::query_scalar(DECLINED)
                    .bind(course)
                    .bind(user)
                    .fetch_one(&mut *tx)
                    .await?;
                if declined.is_some() { Invited::Declined } else { Invited::Pending }
            };
            tx.commit().await?;
            invited
        }))
    }

    /// The invitations waiting for `user`'s answer, newest first.
    pub async fn invitations_of(&self, user: i64) -> Result<Vec<Invitation>> {
        let sql = format!(
            "{INVITATION_SELECT} WHERE i.user_id = $1 AND i.declined_at IS NULL ORDER BY i.id DESC"
        );
        let found: Vec<InvitationRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(user).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// One invitation addressed to `user` (answered or not).
    pub async fn invitation(&self, id: i64, user: i64) -> Result<Option<Invitation>> {
        let sql = format!("{INVITATION_SELECT} WHERE i.id = $1 AND i.user_id = $2");
        let found: Option<InvitationRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(user).fetch_optional(pool).await?);
        found.map(TryInto::try_into).transpose()
    }

    /// A course's invitations, pending and declined, by name.
    pub async fn course_invitations(&self, course: i64) -> Result<Vec<Invitation>> {
        let sql = format!("{INVITATION_SELECT} WHERE i.course_id = $1 ORDER BY u.name");
        let found: Vec<InvitationRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(course).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// Turns `user`'s pending invitation `id` into a membership as `role` (the invitation's,
    /// which the caller has checked the account may still take); `None` when there is no such
    /// pending invitation. One transaction: an invitation is spent once.
    pub async fn accept_invitation(
        &self,
        id: i64,
        user: i64,
        now: i64,
    ) -> Result<Option<(i64, MemberRole)>> {
        const TAKE: &str = "DELETE FROM course_invitations WHERE id = $1 AND user_id = $2 \
                            AND declined_at IS NULL RETURNING course_id, role";
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let taken: Option<(i64, String)> =
                sqlx::query_as(TAKE).bind(id).bind(user).fetch_optional(&mut *tx).await?;
            let accepted = match taken {
                Some((course, role)) => {
                    let role = MemberRole::decode(&role)?;
                    sqlx::query(ADD_MEMBER)
                        .bind(course)
                        .bind(user)
                        .bind(role.as_str())
                        .bind(MemberOrigin::Invitation.as_str())
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                    Some((course, role))
                }
                None => None,
            };
            tx.commit().await?;
            accepted
        }))
    }

    /// Marks `user`'s pending invitation `id` declined; false when there is none.
    pub async fn decline_invitation(&self, id: i64, user: i64, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE course_invitations SET declined_at = $3 \
                           WHERE id = $1 AND user_id = $2 AND declined_at IS NULL";
        let declined = on_both!(self, pool => sqlx::query(SQL).bind(id).bind(user).bind(now).execute(pool).await?.rows_affected());
        Ok(declined == 1)
    }

    /// Withdraws the course's pending invitation of `user`; false when there is none (a declined
    /// one stays: the answer was given).
    pub async fn withdraw_invitation(&self, course: i64, user: i64) -> Result<bool> {
        const SQL: &str = "DELETE FROM course_invitations \
                           WHERE course_id = $1 AND user_id = $2 AND declined_at IS NULL";
        let withdrawn = on_both!(self, pool => sqlx::query(SQL).bind(course).bind(user).execute(pool).await?.rows_affected());
        Ok(withdrawn == 1)
    }

    /// The memberships that a course's teacher made without their member's act, for an admin to
    /// review, by course then name.
    pub async fn memberships_made_by_courses(&self) -> Result<Vec<MadeByCourse>> {
        const SQL: &str = "SELECT m.course_id, c.title, m.user_id, u.name, m.role, m.joined_at \
             FROM course_members m JOIN courses c ON c.id = m.course_id JOIN users u ON u.id = m.user_id \
             WHERE m.origin = 'course' ORDER BY m.course_id, u.name";
        let found: Vec<(i64, String, i64, String, String, i64)> =
            on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?);
        found
            .into_iter()
            .map(
                |(course_id, course_title, user_id, name, role, joined_at)| {
                    Ok(MadeByCourse {
                        course_id,
                        course_title,
                        user_id,
                        name,
                        role: MemberRole::decode(&role)?,
                        joined_at,
                    })
                },
            )
            .collect()
    }

    /// False when `user` was not in the course.
    pub async fn remove_member(&self, course: i64, user: i64) -> Result<bool> {
        const SQL: &str = "DELETE FROM course_members WHERE course_id = $1 AND user_id = $2";
        let removed = on_both!(self, pool => sqlx::query(SQL).bind(course).bind(user).execute(pool).await?.rows_affected());
        Ok(removed == 1)
    }

    /// Teachers first, then students, each by name.
    pub async fn members(&self, course: i64) -> Result<Vec<Member>> {
        const SQL: &str = "SELECT m.user_id, u.name, m.role, m.origin, m.joined_at FROM course_members m \
             JOIN users u ON u.id = m.user_id WHERE m.course_id = $1 \
             ORDER BY CASE m.role WHEN 'teacher' THEN 0 ELSE 1 END, u.name";
        let found: Vec<(i64, String, String, String, i64)> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(course).fetch_all(pool).await?);
        found
            .into_iter()
            .map(|(user_id, name, role, origin, joined_at)| {
                Ok(Member {
                    user_id,
                    name,
                    role: MemberRole::decode(&role)?,
                    origin: MemberOrigin::decode(&origin)?,
                    joined_at,
                })
            })
            .collect()
    }

    pub async fn member_role(&self, course: i64, user: i64) -> Result<Option<MemberRole>> {
        Ok(self.membership(course, user).await?.map(|(role, _)| role))
    }

    /// `user`'s part in a course and how it began.
    pub async fn membership(
        &self,
        course: i64,
        user: i64,
    ) -> Result<Option<(MemberRole, MemberOrigin)>> {
        const SQL: &str =
            "SELECT role, origin FROM course_members WHERE course_id = $1 AND user_id = $2";
        let found: Option<(String, String)> = on_both!(self, pool => sqlx::query_as(SQL).bind(course).bind(user).fetch_optional(pool).await?);
        found
            .map(|(role, origin)| Ok((MemberRole::decode(&role)?, MemberOrigin::decode(&origin)?)))
            .transpose()
    }

    /// The student accounts that `teacher` manages (new password, name): those the import of a
    /// course they teach made, which have joined no course they do not teach since.
    pub async fn accounts_managed_by(&self, teacher: i64) -> Result<Vec<i64>> {
        const SQL: &str = "SELECT u.id FROM users u \
             WHERE u.role = 'student' AND u.created_by_course IN ( \
                 SELECT course_id FROM course_members WHERE user_id = $1 AND role = 'teacher') \
             AND NOT EXISTS ( \
                 SELECT 1 FROM course_members o WHERE o.user_id = u.id AND NOT EXISTS ( \
                     SELECT 1 FROM course_members ot WHERE ot.course_id = o.course_id \
                     AND ot.user_id = $1 AND ot.role = 'teacher')) \
             ORDER BY u.id";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).bind(teacher).fetch_all(pool).await?))
    }

    /// The accounts a teacher's user list shows, by name: theirs, the members of the courses
    /// they teach, and the accounts those courses' imports made.
    pub async fn users_seen_by(&self, teacher: i64) -> Result<Vec<crate::User>> {
        const SQL: &str = "SELECT u.id, u.name, u.role, u.password_hash, u.created_at, u.locale, u.time_zone \
             FROM users u WHERE u.id = $1 \
             OR u.id IN (SELECT m.user_id FROM course_members m JOIN course_members t \
                 ON t.course_id = m.course_id AND t.user_id = $1 AND t.role = 'teacher') \
             OR u.created_by_course IN ( \
                 SELECT course_id FROM course_members WHERE user_id = $1 AND role = 'teacher') \
             ORDER BY u.name";
        let found: Vec<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(teacher).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// The least feedback given by the assignments open at `now` that list `problem`, in the
    /// courses where `user` is a student: what their practice on it may show meanwhile. Open as
    /// `Deadlines::for_student` has it: from `opens_at` to the hard deadline, which an
    /// extension moves (written without adding to `closes_at`, which may be the largest time).
    pub async fn strictest_open_feedback(
        &self,
        user: i64,
        problem: &str,
        now: i64,
    ) -> Result<Option<Feedback>> {
        const SQL: &str = "SELECT DISTINCT a.feedback FROM assignments a \
             JOIN assignment_problems p ON p.assignment_id = a.id AND p.problem = $2 \
             JOIN course_members m ON m.course_id = a.course_id AND m.user_id = $1 AND m.role = 'student' \
             LEFT JOIN extensions e ON e.assignment_id = a.id AND e.user_id = $1 \
             WHERE a.opens_at <= $3 AND ($3 <= a.closes_at \
                 OR (e.due_at > a.due_at AND $3 - (e.due_at - a.due_at) <= a.closes_at))";
        let found: Vec<String> = on_both!(self, pool => sqlx::query_scalar(SQL)
            .bind(user)
            .bind(problem)
            .bind(now)
            .fetch_all(pool)
            .await?);
        let levels = found
            .iter()
            .map(|text| {
                Feedback::parse(text)
                    .ok_or_else(|| StoreError::InvalidRow(format!("feedback {text:?}")))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(levels.into_iter().min())
    }

    pub async fn create_assignment(
        &self,
        course: i64,
        spec: &AssignmentSpec,
        now: i64,
    ) -> Result<Assignment> {
        const SQL: &str = "INSERT INTO assignments (course_id, title, opens_at, due_at, closes_at, penalty_percent, \
             penalty_step_ms, scoring, feedback, personal_tests, run_every_test, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id";
        let id: i64 = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let id: i64 = sqlx::query_scalar(SQL)
                .bind(course)
                .bind(&spec.title)
                .bind(spec.opens_at)
                .bind(spec.due_at)
                .bind(spec.closes_at)
                .bind(spec.penalty_percent)
                .bind(spec.penalty_step_ms)
                .bind(spec.scoring.as_str())
                .bind(spec.feedback.as_str())
                .bind(spec.personal_tests)
                .bind(spec.run_every_test)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
            for (position, problem) in spec.problems.iter().enumerate() {
                sqlx::query(PROBLEM).bind(id).bind(position as i64).bind(problem).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            id
        });
        self.assignment(id)
            .await?
            .ok_or_else(|| StoreError::InvalidRow(format!("assignment {id} vanished")))
    }

    /// Replaces what a teacher set; false for an unknown assignment.
    pub async fn update_assignment(&self, id: i64, spec: &AssignmentSpec) -> Result<bool> {
        const SQL: &str = "UPDATE assignments SET title = $1, opens_at = $2, due_at = $3, closes_at = $4, \
             penalty_percent = $5, penalty_step_ms = $6, scoring = $7, feedback = $8, personal_tests = $9, \
             run_every_test = $10 WHERE id = $11";
        const CLEAR: &str = "DELETE FROM assignment_problems WHERE assignment_id = $1";
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let changed = sqlx::query(SQL)
                .bind(&spec.title)
                .bind(spec.opens_at)
                .bind(spec.due_at)
                .bind(spec.closes_at)
                .bind(spec.penalty_percent)
                .bind(spec.penalty_step_ms)
                .bind(spec.scoring.as_str())
                .bind(spec.feedback.as_str())
                .bind(spec.personal_tests)
                .bind(spec.run_every_test)
                .bind(id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if changed == 1 {
                sqlx::query(CLEAR).bind(id).execute(&mut *tx).await?;
                for (position, problem) in spec.problems.iter().enumerate() {
                    sqlx::query(PROBLEM).bind(id).bind(position as i64).bind(problem).execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
            changed == 1
        }))
    }

    /// Deletes an assignment nobody has submitted to (with its problems, extensions and draws);
    /// false when there is no such assignment or it has submissions.
    pub async fn delete_assignment(&self, id: i64) -> Result<bool> {
        // One statement: a submission arriving meanwhile either lands first (nothing is deleted)
        // or finds no assignment.
        const SQL: &str = "DELETE FROM assignments WHERE id = $1 \
                           AND NOT EXISTS (SELECT 1 FROM submissions WHERE assignment_id = $1)";
        let deleted =
            on_both!(self, pool => sqlx::query(SQL).bind(id).execute(pool).await?.rows_affected());
        Ok(deleted == 1)
    }

    pub async fn assignment(&self, id: i64) -> Result<Option<Assignment>> {
        let sql = format!("{ASSIGNMENT_SELECT} WHERE id = $1");
        let row: Option<AssignmentRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await?);
        match row {
            Some(row) => {
                let problems = self.assignment_problems(id).await?;
                Ok(Some(row.with_problems(problems)?))
            }
            None => Ok(None),
        }
    }

    /// A course's assignments by due time.
    pub async fn assignments(&self, course: i64) -> Result<Vec<Assignment>> {
        let sql = format!("{ASSIGNMENT_SELECT} WHERE course_id = $1 ORDER BY due_at, id");
        let found: Vec<AssignmentRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(course).fetch_all(pool).await?);
        let mut assignments = Vec::with_capacity(found.len());
        for row in found {
            let problems = self.assignment_problems(row.id).await?;
            assignments.push(row.with_problems(problems)?);
        }
        Ok(assignments)
    }

    async fn assignment_problems(&self, assignment: i64) -> Result<Vec<String>> {
        const SQL: &str =
            "SELECT problem FROM assignment_problems WHERE assignment_id = $1 ORDER BY position";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).bind(assignment).fetch_all(pool).await?))
    }

    /// Gives `user` their own due time, or takes it away (`None`).
    pub async fn set_extension(
        &self,
        assignment: i64,
        user: i64,
        due_at: Option<i64>,
    ) -> Result<()> {
        const SET: &str = "INSERT INTO extensions (assignment_id, user_id, due_at) VALUES ($1, $2, $3) \
                           ON CONFLICT (assignment_id, user_id) DO UPDATE SET due_at = excluded.due_at";
        const CLEAR: &str = "DELETE FROM extensions WHERE assignment_id = $1 AND user_id = $2";
        on_both!(self, pool => match due_at {
            Some(due) => sqlx::query(SET).bind(assignment).bind(user).bind(due).execute(pool).await?.rows_affected(),
            None => sqlx::query(CLEAR).bind(assignment).bind(user).execute(pool).await?.rows_affected(),
        });
        Ok(())
    }

    pub async fn extensions(&self, assignment: i64) -> Result<Vec<Extension>> {
        const SQL: &str =
            "SELECT user_id, due_at FROM extensions WHERE assignment_id = $1 ORDER BY user_id";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(assignment).fetch_all(pool).await?))
    }

    /// The current draw (generation 0 and unpinned until a teacher touches it).
    pub async fn instance_draw(
        &self,
        assignment: i64,
        user: i64,
        problem: &str,
    ) -> Result<InstanceDraw> {
        const SQL: &str = "SELECT user_id, problem, generation, pinned FROM instance_draws \
                           WHERE assignment_id = $1 AND user_id = $2 AND problem = $3";
        let found: Option<InstanceDraw> = on_both!(self, pool => sqlx::query_as(SQL).bind(assignment).bind(user).bind(problem).fetch_optional(pool).await?);
        Ok(found.unwrap_or(InstanceDraw {
            user_id: user,
            problem: problem.to_owned(),
            generation: 0,
            pinned: false,
        }))
    }

    /// A new draw for the student: the next generation, or `None` when the draw is pinned.
    pub async fn regenerate_instance(
        &self,
        assignment: i64,
        user: i64,
        problem: &str,
    ) -> Result<Option<i64>> {
        const SQL: &str = "INSERT INTO instance_draws (assignment_id, user_id, problem, generation, pinned) \
             VALUES ($1, $2, $3, 1, FALSE) ON CONFLICT (assignment_id, user_id, problem) \
             DO UPDATE SET generation = instance_draws.generation + 1 WHERE instance_draws.pinned = FALSE \
             RETURNING generation";
        Ok(
            on_both!(self, pool => sqlx::query_scalar(SQL).bind(assignment).bind(user).bind(problem).fetch_optional(pool).await?),
        )
    }

    /// Pins the current draw (regenerating refuses) or unpins it.
    pub async fn pin_instance(
        &self,
        assignment: i64,
        user: i64,
        problem: &str,
        pinned: bool,
    ) -> Result<()> {
        const SQL: &str = "INSERT INTO instance_draws (assignment_id, user_id, problem, generation, pinned) \
             VALUES ($1, $2, $3, 0, $4) ON CONFLICT (assignment_id, user_id, problem) \
             DO UPDATE SET pinned = excluded.pinned";
        on_both!(self, pool => sqlx::query(SQL).bind(assignment).bind(user).bind(problem).bind(pinned).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// Every submission made for an assignment, oldest first.
    pub async fn assignment_submissions(&self, assignment: i64) -> Result<Vec<Submission>> {
        let sql = format!(
            "{} WHERE assignment_id = $1 ORDER BY id",
            rows::SUBMISSION_SELECT
        );
        let found: Vec<rows::SubmissionRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(assignment).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// The setting `name`, storing `value` first if there is none yet: every node of the service
    /// ends up with the value the first one stored.
    pub async fn setting_or_insert(&self, name: &str, value: &[u8]) -> Result<Vec<u8>> {
        const INSERT: &str =
            "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING";
        const SELECT: &str = "SELECT value FROM settings WHERE name = $1";
        Ok(on_both!(self, pool => {
            sqlx::query(INSERT).bind(name).bind(value).execute(pool).await?;
            sqlx::query_scalar(SELECT).bind(name).fetch_one(pool).await?
        }))
    }
}

const ADD_MEMBER: &str = "INSERT INTO course_members (course_id, user_id, role, origin, joined_at) \
                          VALUES ($1, $2, $3, $4, $5) ON CONFLICT (course_id, user_id) DO NOTHING";
/// Whoever is in a course needs no invitation to it.
const SPEND_INVITATION: &str =
    "DELETE FROM course_invitations WHERE course_id = $1 AND user_id = $2 AND declined_at IS NULL";

const INVITATION_SELECT: &str = "SELECT i.id, i.course_id, c.title AS course_title, i.user_id, \
     u.name, i.role, b.name AS invited_by, i.invited_at, i.declined_at FROM course_invitations i \
     JOIN courses c ON c.id = i.course_id JOIN users u ON u.id = i.user_id \
     LEFT JOIN users b ON b.id = i.invited_by";

#[derive(Debug, sqlx::FromRow)]
struct InvitationRow {
    id: i64,
    course_id: i64,
    course_title: String,
    user_id: i64,
    name: String,
    role: String,
    invited_by: Option<String>,
    invited_at: i64,
    declined_at: Option<i64>,
}

impl TryFrom<InvitationRow> for Invitation {
    type Error = StoreError;
    fn try_from(row: InvitationRow) -> Result<Invitation> {
        Ok(Invitation {
            id: row.id,
            course_id: row.course_id,
            course_title: row.course_title,
            user_id: row.user_id,
            name: row.name,
            role: MemberRole::decode(&row.role)?,
            invited_by: row.invited_by,
            invited_at: row.invited_at,
            declined_at: row.declined_at,
        })
    }
}

const PROBLEM: &str =
    "INSERT INTO assignment_problems (assignment_id, position, problem) VALUES ($1, $2, $3)";
