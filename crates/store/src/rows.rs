//! Rows as stored and as the rest of the program sees them. Enums travel as text (the schema's
//! CHECK constraints hold the same lists), so decoding is the same on both backends.

use grundy_verdict::transcript::Transcript;
use grundy_verdict::{Shown, TestName, Verdict};
use serde::Serialize;

use crate::StoreError;

/// A verdict column, parsed as sqlx decodes it so that no row carries verdict text: an unknown
/// verdict fails the fetch like any other undecodable column.
#[derive(Debug)]
pub(crate) struct VerdictColumn(pub Verdict);

impl<DB: sqlx::Database> sqlx::Type<DB> for VerdictColumn
where
    String: sqlx::Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <String as sqlx::Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <String as sqlx::Type<DB>>::compatible(ty)
    }
}

impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for VerdictColumn
where
    String: sqlx::Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        let text = <String as sqlx::Decode<'r, DB>>::decode(value)?;
        match Verdict::parse(&text) {
            Some(verdict) => Ok(VerdictColumn(verdict)),
            None => Err(format!("unknown verdict {text:?}").into()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Admin,
    Teacher,
    Student,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Teacher => "teacher",
            Role::Student => "student",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "admin" => Some(Role::Admin),
            "teacher" => Some(Role::Teacher),
            "student" => Some(Role::Student),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub role: Role,
    #[serde(skip)]
    pub password_hash: Option<String>,
    pub created_at: i64,
    /// The interface language the person chose (a BCP 47 tag), if any.
    pub locale: Option<String>,
    /// The time zone the person reads times in (an IANA name), if they chose one.
    pub time_zone: Option<String>,
}

/// An API token as its owner sees it: never the token itself, which only its digest records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Token {
    pub id: i64,
    pub label: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub expires_at: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct UserRow {
    id: i64,
    name: String,
    role: String,
    password_hash: Option<String>,
    created_at: i64,
    locale: Option<String>,
    time_zone: Option<String>,
}

impl TryFrom<UserRow> for User {
    type Error = StoreError;
    fn try_from(row: UserRow) -> Result<User, StoreError> {
        Ok(User {
            role: Role::parse(&row.role)
                .ok_or_else(|| StoreError::InvalidRow(format!("role {:?}", row.role)))?,
            id: row.id,
            name: row.name,
            password_hash: row.password_hash,
            created_at: row.created_at,
            locale: row.locale,
            time_zone: row.time_zone,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Session {
    /// A digest of the cookie's secret.
    pub id: String,
    pub user_id: i64,
    pub data: String,
    pub expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct ProblemVersion {
    pub slug: String,
    pub version: i64,
    pub digest: String,
    /// `builtin`, `package` or `variant`.
    pub origin: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmissionKind {
    Program,
    Answers,
}

impl SubmissionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SubmissionKind::Program => "program",
            SubmissionKind::Answers => "answers",
        }
    }

    fn parse(text: &str) -> Result<SubmissionKind, StoreError> {
        match text {
            "program" => Ok(SubmissionKind::Program),
            "answers" => Ok(SubmissionKind::Answers),
            other => Err(StoreError::InvalidRow(format!("submission kind {other:?}"))),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmissionStatus {
    Queued,
    Judging,
    Done,
}

impl SubmissionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SubmissionStatus::Queued => "queued",
            SubmissionStatus::Judging => "judging",
            SubmissionStatus::Done => "done",
        }
    }

    fn parse(text: &str) -> Result<SubmissionStatus, StoreError> {
        match text {
            "queued" => Ok(SubmissionStatus::Queued),
            "judging" => Ok(SubmissionStatus::Judging),
            "done" => Ok(SubmissionStatus::Done),
            other => Err(StoreError::InvalidRow(format!(
                "submission status {other:?}"
            ))),
        }
    }
}

#[derive(Debug, Clone)]
pub struct NewSubmission {
    pub user_id: i64,
    pub problem: String,
    pub kind: SubmissionKind,
    pub language: Option<String>,
    /// The program, or the answers as a JSON document.
    pub source: Vec<u8>,
    /// Higher is judged first; rejudges get -1, so fresh submissions go before them.
    pub priority: i64,
    /// The assignment it was made for, if any.
    pub assignment_id: Option<i64>,
    /// The personal seed its instances come from (answers, and personal program tests).
    pub instance_seed: Option<i64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Submission {
    pub id: i64,
    pub user_id: i64,
    pub problem: String,
    pub kind: SubmissionKind,
    pub language: Option<String>,
    pub status: SubmissionStatus,
    pub attempts: i64,
    pub problem_version: Option<i64>,
    pub verdict: Option<Verdict>,
    pub score: Option<i64>,
    pub max_score: Option<i64>,
    pub compile_message: Option<String>,
    pub created_at: i64,
    pub judged_at: Option<i64>,
    pub assignment_id: Option<i64>,
    pub instance_seed: Option<i64>,
}

/// What a submission listing is narrowed to; `Default` lists the newest 50 of everyone's.
#[derive(Debug, Clone, Copy)]
pub struct SubmissionQuery<'a> {
    pub user: Option<i64>,
    pub problem: Option<&'a str>,
    /// A final verdict.
    pub verdict: Option<Verdict>,
    /// Only ids below this one: the next page after a page ending at `before`.
    pub before: Option<i64>,
    pub assignment: Option<i64>,
    /// Only those made for the assignments of this course.
    pub course: Option<i64>,
    /// Only what this teacher may see: their own and those made for their courses'
    /// assignments.
    pub teacher: Option<i64>,
    pub limit: i64,
}

impl Default for SubmissionQuery<'_> {
    fn default() -> Self {
        SubmissionQuery {
            user: None,
            problem: None,
            verdict: None,
            before: None,
            assignment: None,
            course: None,
            teacher: None,
            limit: 50,
        }
    }
}

/// A user's standing on one problem, for the marks in the problem list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemMark {
    pub problem: String,
    pub attempts: i64,
    pub best_score: Option<i64>,
    pub solved: bool,
}

pub(crate) const SUBMISSION_SELECT: &str = "SELECT id, user_id, problem, kind, language, status, attempts, \
     problem_version, verdict, score, max_score, compile_message, created_at, judged_at, \
     assignment_id, instance_seed FROM submissions";

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct SubmissionRow {
    id: i64,
    user_id: i64,
    problem: String,
    kind: String,
    language: Option<String>,
    status: String,
    attempts: i64,
    problem_version: Option<i64>,
    verdict: Option<VerdictColumn>,
    score: Option<i64>,
    max_score: Option<i64>,
    compile_message: Option<String>,
    created_at: i64,
    judged_at: Option<i64>,
    assignment_id: Option<i64>,
    instance_seed: Option<i64>,
}

impl TryFrom<SubmissionRow> for Submission {
    type Error = StoreError;
    fn try_from(row: SubmissionRow) -> Result<Submission, StoreError> {
        Ok(Submission {
            kind: SubmissionKind::parse(&row.kind)?,
            status: SubmissionStatus::parse(&row.status)?,
            id: row.id,
            user_id: row.user_id,
            problem: row.problem,
            language: row.language,
            attempts: row.attempts,
            problem_version: row.problem_version,
            verdict: row.verdict.map(|v| v.0),
            score: row.score,
            max_score: row.max_score,
            compile_message: row.compile_message,
            created_at: row.created_at,
            judged_at: row.judged_at,
            assignment_id: row.assignment_id,
            instance_seed: row.instance_seed,
        })
    }
}

/// A submission a worker has claimed: what it needs to judge it.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub id: i64,
    pub user_id: i64,
    pub problem: String,
    pub kind: SubmissionKind,
    pub language: Option<String>,
    pub source: Vec<u8>,
    /// 1 on the first claim; more when earlier workers lost their lease.
    pub attempts: i64,
    /// Set when the instances are the student's personal ones of an assignment.
    pub instance_seed: Option<i64>,
    /// The assignment asked for every test to run, past a subtask's first failure.
    pub run_every_test: bool,
    /// Its class in the queue (see [`priority`](crate::priority)).
    pub priority: i64,
    /// When it joined the queue: created, or queued again by a rejudge.
    pub queued_at: i64,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct ClaimedRow {
    pub(crate) id: i64,
    user_id: i64,
    problem: String,
    kind: String,
    language: Option<String>,
    source: Vec<u8>,
    attempts: i64,
    instance_seed: Option<i64>,
    run_every_test: bool,
    priority: i64,
    queued_at: i64,
}

impl TryFrom<ClaimedRow> for Claimed {
    type Error = StoreError;
    fn try_from(row: ClaimedRow) -> Result<Claimed, StoreError> {
        Ok(Claimed {
            kind: SubmissionKind::parse(&row.kind)?,
            id: row.id,
            user_id: row.user_id,
            problem: row.problem,
            language: row.language,
            source: row.source,
            attempts: row.attempts,
            instance_seed: row.instance_seed,
            run_every_test: row.run_every_test,
            priority: row.priority,
            queued_at: row.queued_at,
        })
    }
}

/// One test's result, in judging order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestRow {
    pub position: i64,
    pub name: TestName,
    pub verdict: Verdict,
    pub cpu_ms: i64,
    pub wall_ms: i64,
    pub memory_kib: i64,
    /// For every reader of the row: places only (line, game, move), no test data.
    pub message: Option<String>,
    /// The message with the test's data quoted (the expected answer, what was read), kept where
    /// [`TestRow::shown`] may be; who reads it is the service's to decide, as for that data.
    pub detail: Option<String>,
    /// A failed test's data, as the judge cut it, when the student may see it (a sample, their
    /// own instance); who is shown it is the service's to decide.
    pub shown: Option<Shown>,
    /// An interactive test's games, kept where its data is shown.
    pub transcript: Option<Transcript>,
}

#[derive(Debug, sqlx::FromRow)]
pub(crate) struct TestResultRow {
    position: i64,
    grp: String,
    idx: i64,
    verdict: VerdictColumn,
    cpu_ms: i64,
    wall_ms: i64,
    memory_kib: i64,
    message: Option<String>,
    detail: Option<String>,
    shown_input: Option<String>,
    shown_expected: Option<String>,
    shown_output: Option<String>,
    transcript: Option<String>,
}

impl TryFrom<TestResultRow> for TestRow {
    type Error = StoreError;
    fn try_from(row: TestResultRow) -> Result<TestRow, StoreError> {
        let index = u32::try_from(row.idx)
            .map_err(|_| StoreError::InvalidRow(format!("test index {}", row.idx)))?;
        Ok(TestRow {
            position: row.position,
            name: TestName::new(row.grp, index),
            verdict: row.verdict.0,
            cpu_ms: row.cpu_ms,
            wall_ms: row.wall_ms,
            memory_kib: row.memory_kib,
            message: row.message,
            detail: row.detail,
            // Written together or not at all.
            shown: match (row.shown_input, row.shown_expected, row.shown_output) {
                (Some(input), Some(expected), Some(output)) => Some(Shown {
                    input,
                    expected,
                    output,
                }),
                _ => None,
            },
            transcript: row
                .transcript
                .map(|json| serde_json::from_str(&json))
                .transpose()
                .map_err(|e| StoreError::InvalidRow(format!("transcript: {e}")))?,
        })
    }
}

/// The final result of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    pub score: i64,
    pub max_score: i64,
    pub compile_message: Option<String>,
    pub problem_version: i64,
}

/// A problem created through the service rather than compiled in: a teacher's package or a
/// variant of a built-in game.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CustomProblem {
    pub slug: String,
    /// `package` or `variant`.
    pub origin: String,
    pub owner_id: i64,
    /// Bumped by each replacement, so results record which content judged them.
    pub version: i64,
    /// The package zip, or the variant's files as JSON.
    pub content: Vec<u8>,
    pub created_at: i64,
}

/// A custom problem without its content: who owns it, its version, whether it is published and
/// what it takes.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CustomProblemInfo {
    pub slug: String,
    /// `package` or `variant`.
    pub origin: String,
    pub owner_id: i64,
    pub version: i64,
    /// When it was published; a draft until then.
    pub published_at: Option<i64>,
    /// The content's size as stored.
    pub stored_bytes: i64,
    /// What a package unpacks to, or the samples and tests a variant generates.
    pub unpacked_bytes: i64,
}

/// A custom problem or a new version of one, to store.
#[derive(Debug, Clone, Copy)]
pub struct NewCustomProblem<'a> {
    pub slug: &'a str,
    /// `package` or `variant`.
    pub origin: &'a str,
    pub owner: i64,
    pub content: &'a [u8],
    /// What a package unpacks to, or the samples and tests a variant (or a game from its code)
    /// generates into the judge's cache.
    pub unpacked_bytes: i64,
    pub now: i64,
}

impl NewCustomProblem<'_> {
    /// What it counts against its owner's quota: the content as stored plus what it unpacks to or
    /// generates.
    pub fn charge(&self) -> i64 {
        (self.content.len() as i64).saturating_add(self.unpacked_bytes)
    }
}

/// How storing a custom problem went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// Stored at this version; a new version of a published problem stays published.
    Stored { version: i64, published: bool },
    /// Refused: the owner's other problems take `used` bytes, and this one would pass the quota.
    OverQuota { used: i64 },
}
