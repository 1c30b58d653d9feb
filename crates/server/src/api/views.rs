//! What the API sends and receives, with the schemas the OpenAPI document describes.

use std::collections::BTreeMap;

use grundy_judge::explain::Explanation;
use grundy_judge::{SubmissionBudget, SubtaskResult, Verdict};
use grundy_problems::play::{BoardMove, Mover, Side, Transcript, Value};
use grundy_problems::spec::Difficulty;
use grundy_store::{
    Feedback, MemberOrigin, MemberRole, Role, Scoring, Submission, SubmissionKind,
    SubmissionStatus, User,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::whole;
use crate::domain::play::Game;
use crate::domain::problems::Drawn;
use crate::domain::submissions::{Detail, ShownTest};
use crate::http::messages;
use crate::locale::Locale;
use crate::registry::{Entry, Origin};

/// A word the API reads or writes for one of the domain's enums: its own type, so the document
/// lists the words and serde refuses others where the request is read.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident => $domain:ty { $($variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($variant),+
        }

        impl From<$name> for $domain {
            fn from(word: $name) -> $domain {
                match word {
                    $($name::$variant => <$domain>::$variant),+
                }
            }
        }

        impl From<$domain> for $name {
            fn from(value: $domain) -> $name {
                match value {
                    $(<$domain>::$variant => $name::$variant),+
                }
            }
        }
    };
}

wire_enum!(
    /// A verdict.
    VerdictName => Verdict {
        Accepted, WrongAnswer, TimeLimit, MemoryLimit, OutputLimit, RuntimeError,
        CompilationError, SecurityViolation, InternalError, Skipped,
    }
);
wire_enum!(
    /// How an assignment counts a student's submissions: the best score or the last.
    ScoringName => Scoring { Best, Last }
);
wire_enum!(
    /// What a student is shown of the tests: the verdict only, each test's result, or also
    /// the inputs and expected answers of the failing ones.
    FeedbackName => Feedback { Verdict, Tests, Inputs }
);
wire_enum!(
    /// An account's role.
    RoleName => Role { Admin, Teacher, Student }
);
wire_enum!(
    /// A part in a course.
    MemberRoleName => MemberRole { Teacher, Student }
);
wire_enum!(
    /// How someone came to be in a course: by their own act (`created` the course, typed its
    /// `join_code`, accepted an `invitation`), as a `new_account` that the course's import made,
    /// or `course`: added by a teacher before consent was asked (kept, for an admin's review; a
    /// co-teacher added so shares no drafts or hidden tests).
    MemberOriginName => MemberOrigin { Created, JoinCode, Invitation, NewAccount, Course }
);
wire_enum!(
    /// A program, or answers to instances.
    SubmissionKindName => SubmissionKind { Program, Answers }
);
wire_enum!(
    /// Where a submission is on its way.
    SubmissionStatusName => SubmissionStatus { Queued, Judging, Done }
);
wire_enum!(
    /// Where a problem comes from: the built-in catalogue, an uploaded package, or a variant of
    /// a built-in game.
    OriginName => Origin { Builtin, Package, Variant }
);
wire_enum!(
    /// The side a player takes in a game.
    SideName => Side { First, Second }
);
wire_enum!(
    /// Who made a move: the program under test or the referee.
    MoverName => Mover { Program, Referee }
);
wire_enum!(
    /// How hard a problem is said to be.
    DifficultyName => Difficulty { Easy, Medium, Hard }
);

/// The stable code of an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadRequest,
    /// Well-formed but refused: a broken package, a bad variant, a field of the wrong type.
    Invalid,
    TooLarge,
    Unauthorized,
    TooManyRequests,
    Forbidden,
    NotFound,
    Conflict,
    MethodNotAllowed,
    Timeout,
    UnsupportedMediaType,
    Internal,
}

/// Every error: a stable code and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorCode,
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
    pub difficulty: DifficultyName,
    pub tags: Vec<String>,
    pub version: u32,
    pub time_limit_ms: u32,
    pub memory_limit_mib: u32,
    /// What judging one submission may take in all, compiling, every test, checking and the
    /// explanation of a wrong answer included: CPU milliseconds, and milliseconds of wall time.
    /// A submission that uses it up is judged on the tests run so far; the first test not run
    /// says so.
    pub judging_budget_cpu_ms: u64,
    pub judging_budget_wall_ms: u64,
    pub origin: OriginName,
    /// False for a draft, which only its owner, their co-teachers, admins and the courses whose
    /// assignments list it see.
    pub published: bool,
    /// A program plays the problem's games against its referee over standard input and output
    /// (see the statement's protocol).
    pub interactive: bool,
    /// People can play its game against the reference (`POST /api/v1/problems/{slug}/play`,
    /// the page `/play/{slug}`).
    pub playable: bool,
}

impl ProblemSummary {
    pub fn of(entry: &Entry) -> ProblemSummary {
        let p = &entry.problem;
        ProblemSummary {
            slug: p.slug().to_owned(),
            title: p.title("en").to_owned(),
            difficulty: p.spec.difficulty.into(),
            tags: p.spec.tags.clone(),
            version: p.spec.version,
            time_limit_ms: p.spec.time_limit_ms,
            memory_limit_mib: p.spec.memory_limit_mib,
            judging_budget_cpu_ms: SubmissionBudget::stated(p).cpu_ms,
            judging_budget_wall_ms: SubmissionBudget::stated(p).wall_ms,
            origin: entry.origin.into(),
            published: entry.published,
            interactive: p.is_interactive(),
            playable: p.board().is_some(),
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
    /// The name a submission keeps.
    pub id: String,
    pub name: String,
    /// Other names a submission may give it by (`py` for `python3`), in any case as the id.
    pub aliases: Vec<String>,
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

/// A program or answers: which one is told by the fields present (`language` and `source`, or
/// `answers`), each shape taking no field of the other.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(
    untagged,
    expecting = "either a program (`problem`, `language`, `source`, optionally `assignment`) or \
                 answers (`problem`, `answers`: instance name → answer, optionally `version`, \
                 `assignment`, `draw`), with no other fields"
)]
pub enum NewSubmissionBody {
    Program(NewProgram),
    Answers(NewAnswers),
}

/// A program to compile and run on the problem's tests.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewProgram {
    pub problem: String,
    /// The `id` or one of the `aliases` of one of the problem's `languages`
    /// (`GET /api/v1/problems/{slug}`), in any case; the submission keeps the id. With the
    /// built-in language table: `cpp`, `c++` and `g++` name the default C++ (`cpp20`), `python`
    /// and `py` name `python3`, `java` names `java17`, `js` and `node` name `javascript`, `rs`
    /// names `rust`. Any other name is refused (400) with a message listing those accepted.
    pub language: String,
    /// Not blank, at most the operator's source limit (64 KiB by default).
    #[schema(min_length = 1)]
    pub source: String,
    /// The assignment this is for: it must be open to the caller and list the problem.
    #[serde(default, deserialize_with = "whole::option_i64")]
    pub assignment: Option<i64>,
}

/// Answers to the instances of `GET /api/v1/problems/{slug}/instances`, keyed by their names.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAnswers {
    pub problem: String,
    // utoipa has no attribute for a map's size: `api::completed` sets these.
    /// Instance name → answer: at least one, at most 1000.
    pub answers: BTreeMap<String, String>,
    /// The problem version the instances were fetched at (`InstanceList.version`); a
    /// submission for an older version is refused (409) rather than judged on other instances.
    #[serde(default, deserialize_with = "whole::option_u32")]
    #[schema(minimum = 0, maximum = 4294967295_u32)]
    pub version: Option<u32>,
    /// The assignment this is for: it must be open to the caller and list the problem; the
    /// answers then answer the caller's instances of that assignment.
    #[serde(default, deserialize_with = "whole::option_i64")]
    pub assignment: Option<i64>,
    /// In an assignment (required there): the draw they answer (`InstanceList.draw`); answers
    /// to instances since drawn again are refused (409) rather than judged on others.
    #[serde(default, deserialize_with = "whole::option_i64")]
    pub draw: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    pub id: i64,
    pub status: SubmissionStatusName,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TestView {
    pub position: i64,
    /// `samples`, the subtask's name (see `SubmissionDetail.subtasks` for its label), or
    /// `personal`.
    pub group: String,
    pub index: i64,
    pub verdict: VerdictName,
    pub cpu_ms: i64,
    pub wall_ms: i64,
    pub memory_kib: i64,
    /// The checker's message, an exit code or signal, in the caller's language (their account's
    /// preference, else `Accept-Language`) where the judge's wording is known, else in English.
    /// On a test whose data the caller may see it may quote the expected answer and the output;
    /// otherwise it names places only.
    pub message: Option<String>,
    /// A failed test's input and expected answer, where the caller may see them: a sample's
    /// (public), the student's own instance's at the `inputs` feedback level, and at that level
    /// a failing hidden test's, when the problem's hidden tests may be shown (built in, or its
    /// owner teaches the assignment's course). A sample's or an instance's are cut to a few KiB
    /// unless drawn again in full at `inputs`. Absent otherwise (never null).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub expected: Option<String>,
    /// What the program printed (or the answer given) on a failed test whose data the caller
    /// may see, cut to a few KiB: never on a hidden test.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub output: Option<String>,
    /// The caller may see this failed test's input and expected answer, but they are too large
    /// to show (over 4 MiB, or too much together).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub too_large_to_show: bool,
    /// An interactive test's games move by move, where the caller may see the test's data
    /// (as `input`). Absent otherwise (never null).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub transcript: Option<TranscriptView>,
}

/// A game against the reference so far, and the caller's move now.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The start as the problem's protocol writes a game (`3 1 2 3` for Nim); a random start
    /// when absent.
    #[serde(default)]
    pub start: Option<String>,
    /// Fixes the random start (a JSON int64 that is not negative).
    #[serde(default, deserialize_with = "whole::option_u64")]
    #[schema(minimum = 0, maximum = 9223372036854775807_i64)]
    pub seed: Option<u64>,
    /// The side the caller takes.
    pub side: SideName,
    /// Every move so far, both players', as the protocol writes them (`2 3`).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The caller's move now.
    #[serde(default, rename = "move")]
    pub play: Option<String>,
    /// Also list the winning moves of the position reached (when it is the caller's turn).
    #[serde(default)]
    pub hint: bool,
}

/// Who made a move of a game played on a page.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerName {
    You,
    Referee,
}

impl From<Mover> for PlayerName {
    fn from(mover: Mover) -> PlayerName {
        match mover {
            Mover::Program => PlayerName::You,
            Mover::Referee => PlayerName::Referee,
        }
    }
}

/// A move from a position and where it leads.
#[derive(Debug, Serialize, ToSchema)]
pub struct BoardMoveView {
    /// As the protocol writes it: `2 3`.
    pub text: String,
    /// In words: `3 from pile 2`.
    pub words: String,
    /// The position it leaves, as the protocol writes a game.
    pub after: String,
    /// The position it leaves, in words.
    pub after_words: String,
    /// That position's value for the player to move next.
    pub value: ValueView,
}

impl From<BoardMove> for BoardMoveView {
    fn from(m: BoardMove) -> BoardMoveView {
        BoardMoveView {
            text: m.text,
            words: m.words,
            after: m.after,
            after_words: m.after_words,
            value: m.value.into(),
        }
    }
}

/// One move of a game played on a page, with what it meant.
#[derive(Debug, Serialize, ToSchema)]
pub struct StepView {
    pub by: PlayerName,
    #[serde(rename = "move")]
    pub made: BoardMoveView,
    /// The value, for the mover, of the position the move was made from.
    pub before: ValueView,
    /// The caller gave away a won position here.
    pub mistake: bool,
    /// At a mistake, the winning moves there were.
    pub better: Vec<BoardMoveView>,
}

/// A game against the reference after a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameState {
    pub problem: String,
    /// The start, as the protocol writes it: send it back with the moves.
    pub start: String,
    pub start_words: String,
    /// The start's value for the first player.
    pub start_value: ValueView,
    pub side: SideName,
    /// Every move so far; send their `move.text`s back as `moves`.
    pub moves: Vec<StepView>,
    /// The position reached, as the protocol writes it, and in words.
    pub position: String,
    pub words: String,
    /// Its value for the player to move.
    pub value: ValueView,
    pub over: bool,
    /// The caller is to move.
    pub your_turn: bool,
    /// Who won a finished game (whoever moved last).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub winner: Option<PlayerName>,
    /// The index in `moves` of the caller's first mistake.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub first_mistake: Option<usize>,
    /// The winning moves of `position`, when asked for with `hint` on the caller's turn (empty:
    /// every move loses).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub hint: Option<Vec<BoardMoveView>>,
}

impl From<Game> for GameState {
    fn from(game: Game) -> GameState {
        GameState {
            problem: game.slug,
            start: game.start,
            start_words: game.start_words,
            start_value: game.start_value.into(),
            side: game.side.into(),
            moves: game
                .steps
                .into_iter()
                .map(|s| StepView {
                    by: s.by.into(),
                    made: s.made.into(),
                    before: s.before.into(),
                    mistake: s.mistake,
                    better: s.better.into_iter().map(Into::into).collect(),
                })
                .collect(),
            position: game.position,
            words: game.words,
            value: game.value.into(),
            over: game.over,
            your_turn: game.your_turn,
            winner: game.winner.map(Into::into),
            first_mistake: game.first_mistake,
            hint: game.hint.map(|h| h.into_iter().map(Into::into).collect()),
        }
    }
}

/// An interactive test's games, move by move.
#[derive(Debug, Serialize, ToSchema)]
pub struct TranscriptView {
    pub games: Vec<GameView>,
}

/// One game of an interactive test.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameView {
    /// The start position in the game's words: `(3, 5, 6)`.
    pub start: String,
    /// The start's value for the first player.
    pub start_value: ValueView,
    /// The side the program took; absent when it never said.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub side: Option<SideName>,
    pub moves: Vec<MoveView>,
    /// The program's first mistake, which ended the game and the test.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub mistake: Option<String>,
}

/// One move and the position it left.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    pub by: MoverName,
    /// As the protocol writes it: `2 3`.
    pub text: String,
    /// The position left, in the game's words.
    pub after: String,
    /// The value of that position for the player to move next.
    pub value: ValueView,
}

/// A position's value for the player to move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValueView {
    /// The player to move wins with perfect play.
    pub win: bool,
    /// The Grundy value, where the game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub grundy: Option<u64>,
}

impl From<Value> for ValueView {
    fn from(value: Value) -> ValueView {
        ValueView {
            win: value.win,
            grundy: value.grundy,
        }
    }
}

impl From<Transcript> for TranscriptView {
    fn from(transcript: Transcript) -> TranscriptView {
        TranscriptView {
            games: transcript
                .games
                .into_iter()
                .map(|game| GameView {
                    start: game.start,
                    start_value: game.start_value.into(),
                    side: game.side.map(Into::into),
                    moves: game
                        .moves
                        .into_iter()
                        .map(|m| MoveView {
                            by: m.by.into(),
                            text: m.text,
                            after: m.after,
                            value: m.value.into(),
                        })
                        .collect(),
                    mistake: game.mistake,
                })
                .collect(),
        }
    }
}

impl TestView {
    /// `shown` for a reader of `locale`: the judge's message in their language where its wording
    /// is known.
    pub fn of(shown: ShownTest, locale: Locale) -> TestView {
        let t = shown.row;
        TestView {
            position: t.position,
            group: t.name.group,
            index: i64::from(t.name.index),
            verdict: t.verdict.into(),
            cpu_ms: t.cpu_ms,
            wall_ms: t.wall_ms,
            memory_kib: t.memory_kib,
            message: t.message.map(|m| messages::judge_message(locale, &m)),
            input: shown.input,
            expected: shown.expected,
            output: shown.output,
            too_large_to_show: shown.too_large,
            transcript: shown.transcript.map(Into::into),
        }
    }
}

/// A subtask's result.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubtaskResultView {
    /// The subtask's name in the problem: the `group` of its tests.
    pub name: String,
    /// As the statement lists it: `Subtask 1 (30 points)`.
    pub label: String,
    pub points: u32,
    /// `points` when every test passed, else 0.
    pub score: u32,
    pub verdict: VerdictName,
    /// The `index` of its first failing test; absent when none failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub failed_at: Option<u32>,
    /// The whole line, for people: `Subtask 1 (30 points): 0/30, failed at test 3`.
    pub summary: String,
}

impl From<SubtaskResult> for SubtaskResultView {
    fn from(s: SubtaskResult) -> SubtaskResultView {
        SubtaskResultView {
            summary: s.to_string(),
            name: s.name,
            label: s.label,
            points: s.points,
            score: s.score,
            verdict: s.verdict.into(),
            failed_at: s.failed_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SubmissionView {
    pub id: i64,
    pub user_id: i64,
    pub problem: String,
    pub kind: SubmissionKindName,
    pub language: Option<String>,
    pub status: SubmissionStatusName,
    pub attempts: i64,
    pub problem_version: Option<i64>,
    pub verdict: Option<VerdictName>,
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
            kind: s.kind.into(),
            language: s.language,
            status: s.status.into(),
            attempts: s.attempts,
            problem_version: s.problem_version,
            verdict: s.verdict.map(Into::into),
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
    /// What the caller is shown of the tests: an assignment's rule for its students; `tests`
    /// for practice; `inputs` for teachers.
    pub feedback: FeedbackName,
    /// Empty when the feedback level is `verdict`.
    pub tests: Vec<TestView>,
    /// Why a wrong answer is wrong, once found (after the verdict; it arrives on the event
    /// stream): `null` until then, for right answers, at the `verdict` feedback level, and for
    /// problems that cannot explain.
    pub explanation: Option<ExplanationView>,
    /// Each subtask's result, once judged, as the statement lists it; empty at the `verdict`
    /// level, before judging ends, and when the problem has changed version since.
    pub subtasks: Vec<SubtaskResultView>,
    /// While the submission waits to be judged, its place in the queue (1 is next): the queue
    /// takes turns between people, so it may move either way as others' work arrives.
    pub queue_position: Option<i64>,
}

impl SubmissionDetail {
    pub fn of(detail: Detail, locale: Locale) -> SubmissionDetail {
        SubmissionDetail {
            submission: detail.submission.into(),
            source: detail.source,
            feedback: detail.feedback.into(),
            tests: detail
                .tests
                .into_iter()
                .map(|t| TestView::of(t, locale))
                .collect(),
            explanation: detail.explanation.map(|e| ExplanationView::of(e, locale)),
            subtasks: detail
                .subtasks
                .into_iter()
                .map(SubtaskResultView::from)
                .collect(),
            queue_position: detail.queue_position,
        }
    }
}

/// The smallest game the program gets wrong, found by running it on small games of the problem
/// (never a hidden test). `position`, `expected`, `got` and `certificate` are `null` when no
/// small counterexample was found within the bounds. For answers: the first game answered wrong,
/// or, where the expected answers are `withheld`, a small game outside the student's instances
/// on which the `misconception` goes wrong (`got` is the misconception's answer there), `null`
/// when no misconception was named.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExplanationView {
    /// A complete input in the problem's format holding that one game.
    pub position: Option<String>,
    pub expected: Option<String>,
    pub got: Option<String>,
    pub certificate: Option<CertificateView>,
    pub misconception: Option<MisconceptionView>,
    /// The counterexample is a large game kept for mistakes no small game shows.
    pub large: bool,
    #[schema(minimum = 0)]
    pub runs: u32,
    #[schema(minimum = 0)]
    pub cpu_ms: u64,
    /// Answer submissions: each instance answered wrong, with its first wrong game and why (the
    /// fields above are the first of them, unless `withheld`). Empty for programs.
    pub instances: Vec<WrongInstanceView>,
    /// The expected answers of the student's instances, and the certificates proving them, are
    /// left out at the caller's feedback level (below `inputs`): `expected` and `certificate`
    /// of each instance are `null`, and the game above is none of theirs.
    pub withheld: bool,
}

/// An instance answered wrong: its first wrong game alone, the answers, and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct WrongInstanceView {
    pub name: String,
    pub position: String,
    /// `null` where `withheld`.
    pub expected: Option<String>,
    pub got: String,
    /// `null` where `withheld`: it proves the expected answer.
    pub certificate: Option<CertificateView>,
}

/// Why the right answer is right, in English and Vietnamese.
#[derive(Debug, Serialize, ToSchema)]
pub struct CertificateView {
    pub en: String,
    pub vi: String,
}

/// A classic wrong strategy the program's answers agree with, in the reader's language.
#[derive(Debug, Serialize, ToSchema)]
pub struct MisconceptionView {
    /// A stable id teaching material refers to, e.g. `sum-parity`.
    pub id: String,
    pub title: String,
    pub text: String,
}

impl ExplanationView {
    pub fn of(e: Explanation, locale: Locale) -> ExplanationView {
        ExplanationView {
            position: e.position,
            expected: e.expected,
            got: e.got,
            certificate: e
                .certificate
                .map(|c| CertificateView { en: c.en, vi: c.vi }),
            misconception: e.misconception.map(|m| {
                let words = m.words(locale.code());
                MisconceptionView {
                    id: m.id,
                    title: words.title,
                    text: words.text,
                }
            }),
            large: e.large,
            runs: e.runs,
            cpu_ms: e.cpu_ms,
            instances: e
                .instances
                .into_iter()
                .map(|w| WrongInstanceView {
                    name: w.name,
                    position: w.position,
                    expected: w.expected,
                    got: w.got,
                    certificate: w
                        .certificate
                        .map(|c| CertificateView { en: c.en, vi: c.vi }),
                })
                .collect(),
            withheld: e.withheld,
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
    /// A final verdict.
    pub verdict: Option<VerdictName>,
    /// Ids below this one (the next page).
    pub before: Option<i64>,
    /// At most this many, newest first (default 50); taken into 1–500.
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
    pub role: RoleName,
}

impl From<&User> for UserView {
    fn from(u: &User) -> UserView {
        UserView {
            id: u.id,
            name: u.name.clone(),
            role: u.role.into(),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUserBody {
    /// Letters, digits, `.`, `-` and `_`.
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
    pub role: RoleName,
    /// Without one the user signs in with tokens only.
    #[schema(min_length = 8, max_length = 1024)]
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
    #[serde(default, deserialize_with = "whole::option_u32")]
    #[schema(minimum = 1, maximum = 90)]
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
    /// Required when the account has a password (403 when it is wrong).
    pub current: Option<String>,
    #[schema(min_length = 8, max_length = 1024)]
    pub new: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::PartialSchema;

    /// The words the document lists for a wire enum.
    fn listed<T: PartialSchema>() -> Vec<String> {
        let schema = serde_json::to_value(T::schema()).unwrap();
        schema["enum"]
            .as_array()
            .expect("an enum schema")
            .iter()
            .map(|w| w.as_str().unwrap().to_owned())
            .collect()
    }

    /// Each listed word reads into the domain value the domain itself spells that way (the
    /// conversions are exhaustive matches, so no variant can be missing on either side).
    fn spelled_alike<W, D>(spell: impl Fn(D) -> String)
    where
        W: PartialSchema + serde::de::DeserializeOwned + Into<D>,
    {
        for word in listed::<W>() {
            let wire: W = serde_json::from_value(serde_json::Value::String(word.clone())).unwrap();
            assert_eq!(spell(wire.into()), word);
        }
    }

    #[test]
    fn the_documents_enums_are_the_domains_words() {
        spelled_alike::<VerdictName, Verdict>(|v| v.as_str().into());
        assert_eq!(listed::<VerdictName>().len(), Verdict::ALL.len());
        spelled_alike::<ScoringName, Scoring>(|v| v.as_str().into());
        spelled_alike::<FeedbackName, Feedback>(|v| v.as_str().into());
        spelled_alike::<RoleName, Role>(|v| v.as_str().into());
        spelled_alike::<MemberRoleName, MemberRole>(|v| v.as_str().into());
        spelled_alike::<MemberOriginName, MemberOrigin>(|v| v.as_str().into());
        assert_eq!(listed::<MemberOriginName>().len(), MemberOrigin::ALL.len());
        spelled_alike::<SubmissionKindName, SubmissionKind>(|v| v.as_str().into());
        spelled_alike::<SubmissionStatusName, SubmissionStatus>(|v| v.as_str().into());
        spelled_alike::<OriginName, Origin>(|v| v.as_str().into());
        spelled_alike::<DifficultyName, Difficulty>(|v| v.as_str().into());
    }
}
