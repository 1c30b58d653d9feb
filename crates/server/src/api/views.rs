//! What the API sends and receives, with the schemas the OpenAPI document describes.

use std::collections::BTreeMap;

use grundy_judge::Verdict;
use grundy_store::{Feedback, Submission, TestRow, User};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::problems::Drawn;
use crate::domain::submissions::{Detail, ShownTest};
use crate::registry::Entry;

/// Every error: a stable code and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// `bad_request`, `unauthorized`, `forbidden`, `not_found`, `method_not_allowed`,
    /// `timeout`, `conflict`, `too_large`, `unsupported_media_type`, `invalid` (well-formed but
    /// refused: a broken package, a field of the wrong type), `too_many_requests` or `internal`.
    pub error: String,
    pub message: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    pub status: String,
    /// `sqlite` or `postgres`.
    pub database: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Version {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ProblemFilter {
    /// Only problems with this tag.
    pub tag: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemSummary {
    pub slug: String,
    pub title: String,
    pub difficulty: String,
    pub tags: Vec<String>,
    pub version: u32,
    pub time_limit_ms: u32,
    pub memory_limit_mib: u32,
    /// `builtin`, `package` or `variant`.
    pub origin: String,
    /// False for a draft, which only its owner, their co-teachers, admins and the courses whose
    /// assignments list it see.
    pub published: bool,
}

impl ProblemSummary {
    pub fn of(entry: &Entry) -> ProblemSummary {
        let p = &entry.problem;
        ProblemSummary {
            slug: p.slug().to_owned(),
            title: p.title("en").to_owned(),
            difficulty: p.spec.difficulty.as_str().to_owned(),
            tags: p.spec.tags.clone(),
            version: p.spec.version,
            time_limit_ms: p.spec.time_limit_ms,
            memory_limit_mib: p.spec.memory_limit_mib,
            origin: entry.origin.as_str().to_owned(),
            published: entry.published,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemList {
    pub problems: Vec<ProblemSummary>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct StatementQuery {
    /// Statement language (`en`, `vi`); English when not given.
    pub lang: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubtaskView {
    pub name: String,
    pub points: u32,
    pub tests: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SampleView {
    pub name: String,
    pub input: String,
    pub answer: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LanguageView {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemDetail {
    #[serde(flatten)]
    pub summary: ProblemSummary,
    pub lang: String,
    /// The statement rendered to HTML, formulas as MathML; raw HTML in the source is escaped.
    pub statement_html: String,
    pub statement_markdown: String,
    pub statement_languages: Vec<String>,
    pub subtasks: Vec<SubtaskView>,
    pub samples: Vec<SampleView>,
    /// Languages programs may be written in.
    pub languages: Vec<LanguageView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InstanceView {
    /// The key to answer this instance under.
    pub name: String,
    /// `samples` or the subtask it is drawn from.
    pub group: String,
    pub input: String,
}

/// Inputs to answer without a program: the samples plus instances drawn for this user.
#[derive(Debug, Serialize, ToSchema)]
pub struct InstanceList {
    pub problem: String,
    pub version: u32,
    /// In an assignment: which draw of the caller's instances these are (a teacher may draw
    /// again). Send it back with the answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<i64>,
    pub instances: Vec<InstanceView>,
}

impl InstanceList {
    /// What a student is shown of drawn instances: inputs, never answers.
    pub fn of(drawn: Drawn) -> InstanceList {
        InstanceList {
            problem: drawn.entry.problem.slug().to_owned(),
            version: drawn.version,
            draw: drawn.draw,
            instances: drawn
                .instances
                .into_iter()
                .map(|(group, i)| InstanceView {
                    group,
                    name: i.name,
                    input: i.input,
                })
                .collect(),
        }
    }
}

/// A program (`language` and `source`) or answers (`answers`: instance name → output).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSubmissionBody {
    pub problem: String,
    pub language: Option<String>,
    pub source: Option<String>,
    pub answers: Option<BTreeMap<String, String>>,
    /// With answers: the problem version the instances were fetched at (`InstanceList.version`);
    /// a submission for an older version is refused rather than judged on other instances.
    pub version: Option<u32>,
    /// The assignment this is for: it must be open to the caller and list the problem; answers
    /// then answer the caller's instances of that assignment.
    pub assignment: Option<i64>,
    /// With answers in an assignment (required there): the draw they answer
    /// (`InstanceList.draw`); answers to instances since drawn again are refused rather than
    /// judged on others.
    pub draw: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    pub id: i64,
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TestView {
    pub position: i64,
    /// `samples` or the subtask's name.
    pub group: String,
    pub index: i64,
    #[schema(value_type = String)]
    pub verdict: Verdict,
    pub cpu_ms: i64,
    pub wall_ms: i64,
    pub memory_kib: i64,
    /// The checker's message, an exit code or signal; never test data.
    pub message: Option<String>,
    /// A failed personal instance's input and expected answer, when the assignment's feedback
    /// level shows them (they are the student's own: nobody else has these inputs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
}

impl From<TestRow> for TestView {
    fn from(row: TestRow) -> TestView {
        TestView::from(ShownTest {
            row,
            input: None,
            expected: None,
        })
    }
}

impl From<ShownTest> for TestView {
    fn from(shown: ShownTest) -> TestView {
        let t = shown.row;
        TestView {
            position: t.position,
            group: t.name.group,
            index: i64::from(t.name.index),
            verdict: t.verdict,
            cpu_ms: t.cpu_ms,
            wall_ms: t.wall_ms,
            memory_kib: t.memory_kib,
            message: t.message,
            input: shown.input,
            expected: shown.expected,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubmissionView {
    pub id: i64,
    pub user_id: i64,
    pub problem: String,
    /// `program` or `answers`.
    pub kind: String,
    pub language: Option<String>,
    /// `queued`, `judging` or `done`.
    pub status: String,
    pub attempts: i64,
    pub problem_version: Option<i64>,
    #[schema(value_type = Option<String>)]
    pub verdict: Option<Verdict>,
    pub score: Option<i64>,
    pub max_score: Option<i64>,
    pub compile_message: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub judged_at: Option<i64>,
    /// The assignment it was made for.
    pub assignment: Option<i64>,
}

impl From<Submission> for SubmissionView {
    fn from(s: Submission) -> SubmissionView {
        SubmissionView {
            id: s.id,
            user_id: s.user_id,
            problem: s.problem,
            kind: s.kind.as_str().to_owned(),
            language: s.language,
            status: s.status.as_str().to_owned(),
            attempts: s.attempts,
            problem_version: s.problem_version,
            verdict: s.verdict,
            score: s.score,
            max_score: s.max_score,
            compile_message: s.compile_message,
            created_at: s.created_at,
            judged_at: s.judged_at,
            assignment: s.assignment_id,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubmissionDetail {
    #[serde(flatten)]
    pub submission: SubmissionView,
    /// The program's source, or the answers as JSON.
    pub source: String,
    /// `verdict`, `tests` or `inputs`: what the caller is shown of the tests (an assignment's
    /// rule for its students; `tests` for practice; `inputs` for teachers).
    #[schema(value_type = String)]
    pub feedback: Feedback,
    /// Empty when the feedback level is `verdict`.
    pub tests: Vec<TestView>,
}

impl From<Detail> for SubmissionDetail {
    fn from(detail: Detail) -> SubmissionDetail {
        SubmissionDetail {
            submission: detail.submission.into(),
            source: detail.source,
            feedback: detail.feedback,
            tests: detail.tests.into_iter().map(TestView::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubmissionList {
    pub submissions: Vec<SubmissionView>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SubmissionFilter {
    pub problem: Option<String>,
    /// A final verdict: `accepted`, `wrong_answer`, `time_limit_exceeded`, ….
    pub verdict: Option<String>,
    /// Ids below this one (the next page).
    pub before: Option<i64>,
    /// At most this many, newest first (1–500, default 50).
    pub limit: Option<i64>,
    /// Only those made for this assignment.
    pub assignment: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Queued {
    pub queued: u64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginBody {
    pub name: String,
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    pub id: i64,
    pub name: String,
    /// `admin`, `teacher` or `student`.
    pub role: String,
}

impl From<&User> for UserView {
    fn from(u: &User) -> UserView {
        UserView {
            id: u.id,
            name: u.name.clone(),
            role: u.role.as_str().to_owned(),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUserBody {
    pub name: String,
    /// `admin`, `teacher` or `student`.
    pub role: String,
    /// At least 8 characters; without one the user signs in with tokens only.
    pub password: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenBody {
    /// What the token is for (shown in listings).
    #[schema(max_length = 100)]
    pub label: Option<String>,
    /// How many days the token lasts: by default, and at most, what the service allows
    /// (90 days unless its operator set `--token-days`).
    #[schema(minimum = 1)]
    pub expires_in_days: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenCreated {
    /// Shown only now; only its digest is stored.
    pub token: String,
    pub id: i64,
    /// Unix milliseconds; the token is refused from then on.
    pub expires_at: i64,
}

/// One of the caller's API tokens, without the secret (which is not kept).
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenView {
    pub id: i64,
    pub label: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds, to the minute; absent when never used.
    pub last_used_at: Option<i64>,
    /// Unix milliseconds; the token is refused from then on.
    pub expires_at: i64,
}

impl From<grundy_store::Token> for TokenView {
    fn from(token: grundy_store::Token) -> Self {
        TokenView {
            id: token.id,
            label: token.label,
            created_at: token.created_at,
            last_used_at: token.last_used_at,
            expires_at: token.expires_at,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordBody {
    pub current: Option<String>,
    pub new: String,
}
