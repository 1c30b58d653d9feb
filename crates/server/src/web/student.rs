//! The students' pages: problems, statements, submitting programs and answers, submissions.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use grundy_judge::explain::Explanation;
use grundy_judge::naming::Group;
use grundy_judge::{SubtaskResult, Verdict};
use grundy_problems::play::{Mover, Side, Transcript};
use grundy_store::{Feedback, Submission, SubmissionKind, SubmissionStatus, User};
use serde::Deserialize;

use super::ui::{SubmissionState, Ui};
use super::{Frame, PageError, SignedIn, Visitor, refusal};
use crate::domain::assignments::{self, Target};
use crate::domain::submissions::{self, Filter, NewSubmission, Work};
use crate::domain::{Error, problems};
use crate::locale::Locale;
use crate::registry::Entry;
use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub(super) struct ListQuery {
    tag: Option<String>,
}

#[derive(Debug)]
struct ProblemLine {
    slug: String,
    title: String,
    difficulty: &'static str,
    tags: Vec<String>,
    /// `solved`, `attempted` or empty.
    mark: &'static str,
    best_score: Option<i64>,
}

#[derive(Template, WebTemplate)]
#[template(path = "problems.html")]
pub(super) struct ProblemListPage {
    frame: Frame,
    problems: Vec<ProblemLine>,
    tags: Vec<String>,
    tag: Option<String>,
}

pub(super) async fn problem_list(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Query(query): Query<ListQuery>,
) -> Result<Response, PageError> {
    let domain = &state.domain;
    let marks = problems::marks(domain, user.as_ref()).await?;
    let tag = query.tag.filter(|t| !t.is_empty());
    let tags = problems::tags(domain, user.as_ref()).await?;
    let mut frame = Frame::new(user, "");
    frame.title = frame.ui.problems.to_owned();
    let user = frame.user.as_ref();
    let problems = problems::list(domain, user, tag.as_deref())
        .await?
        .iter()
        .map(|e| {
            let p = &e.problem;
            let mark = marks.get(p.slug());
            ProblemLine {
                slug: p.slug().to_owned(),
                title: p.title(frame.ui.code).to_owned(),
                difficulty: p.spec.difficulty.as_str(),
                tags: p.spec.tags.clone(),
                mark: match mark {
                    Some(m) if m.solved => "solved",
                    Some(_) => "attempted",
                    None => "",
                },
                best_score: mark.and_then(|m| m.best_score),
            }
        })
        .collect();
    Ok(ProblemListPage {
        frame,
        problems,
        tags,
        tag,
    }
    .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct StatementQuery {
    lang: Option<String>,
}

#[derive(Debug)]
struct LanguageChoice {
    id: String,
    name: String,
}

#[derive(Debug)]
struct SampleBox {
    input: String,
    answer: String,
}

/// What a problem or answer page shows when opened from an assignment: where the submission
/// goes.
#[derive(Debug, Clone)]
pub(super) struct AssignmentTag {
    pub id: i64,
    pub title: String,
    /// The reader's own due time, in Unix milliseconds.
    pub due: i64,
}

impl AssignmentTag {
    fn of(target: Target) -> AssignmentTag {
        AssignmentTag {
            id: target.id,
            title: target.title,
            due: target.due_at,
        }
    }
}

/// The assignment named by `?assignment=` (or the form), if the visitor is in its course and it
/// lists the problem.
async fn tag(
    state: &AppState,
    user: Option<&User>,
    assignment: Option<i64>,
    slug: &str,
) -> Result<Option<AssignmentTag>, PageError> {
    let (Some(user), Some(id)) = (user, assignment) else {
        return Ok(None);
    };
    let target = assignments::target(&state.domain, user, id, slug).await?;
    Ok(Some(AssignmentTag::of(target)))
}

#[derive(Template, WebTemplate)]
#[template(path = "problem.html")]
pub(super) struct ProblemPage {
    frame: Frame,
    slug: String,
    title: String,
    statement_html: String,
    /// The statement's language and the others it is written in: (code, name).
    lang: String,
    statement_languages: Vec<(String, &'static str)>,
    difficulty: &'static str,
    tags: Vec<String>,
    time_limit_ms: u32,
    memory_limit_mib: u32,
    samples: Vec<SampleBox>,
    languages: Vec<LanguageChoice>,
    chosen_language: String,
    source: String,
    error: Option<String>,
    answer_mode: bool,
    /// People can play its game against the reference.
    playable: bool,
    /// Opened from an assignment: submissions go to it.
    assignment: Option<AssignmentTag>,
}

fn language_name(code: &str) -> &'static str {
    Locale::parse(code).map_or("?", Locale::name)
}

/// Builds the problem page; also what a refused submission returns to, with its error and
/// source kept.
fn problem_page_for(
    state: &AppState,
    entry: &Entry,
    user: Option<User>,
    lang: Option<&str>,
    chosen_language: Option<String>,
    source: String,
    error: Option<String>,
) -> ProblemPage {
    let p = &entry.problem;
    let frame = Frame::new(user, "");
    // The statement follows the interface unless the reader picked another.
    let lang = lang
        .filter(|l| entry.html.contains_key(*l))
        .or_else(|| {
            entry
                .html
                .contains_key(frame.ui.code)
                .then_some(frame.ui.code)
        })
        .or_else(|| entry.html.contains_key("en").then_some("en"))
        .or_else(|| entry.html.keys().next().map(String::as_str))
        .unwrap_or("en")
        .to_owned();
    let languages: Vec<LanguageChoice> = state
        .domain
        .languages
        .available()
        .iter()
        .map(|l| LanguageChoice {
            id: l.id().to_owned(),
            name: l.spec.name.clone(),
        })
        .collect();
    let chosen_language = chosen_language
        .or_else(|| {
            state
                .domain
                .languages
                .default_cpp()
                .map(|cpp| cpp.id.clone())
        })
        .unwrap_or_default();
    ProblemPage {
        frame: Frame {
            title: p.title(&lang).to_owned(),
            ..frame
        },
        slug: p.slug().to_owned(),
        title: p.title(&lang).to_owned(),
        statement_html: entry.html.get(&lang).cloned().unwrap_or_default(),
        statement_languages: entry
            .html
            .keys()
            .map(|code| (code.clone(), language_name(code)))
            .collect(),
        lang,
        difficulty: p.spec.difficulty.as_str(),
        tags: p.spec.tags.clone(),
        time_limit_ms: p.spec.time_limit_ms,
        memory_limit_mib: p.spec.memory_limit_mib,
        samples: p
            .samples
            .iter()
            .map(|s| SampleBox {
                input: s.input.clone(),
                answer: s.answer.clone(),
            })
            .collect(),
        languages,
        chosen_language,
        source,
        error,
        answer_mode: p.is_family_backed(),
        playable: p.board().is_some(),
        assignment: None,
    }
}

/// `?assignment=` on the problem and answer pages.
#[derive(Debug, Deserialize)]
pub(super) struct AssignmentQuery {
    assignment: Option<i64>,
}

pub(super) async fn problem_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Path(slug): Path<String>,
    Query(query): Query<StatementQuery>,
    Query(for_assignment): Query<AssignmentQuery>,
) -> Result<Response, PageError> {
    let entry = problems::visible(&state.domain, user.as_ref(), &slug).await?;
    let tag = tag(&state, user.as_ref(), for_assignment.assignment, &slug).await?;
    let asked = query.lang.as_deref();
    let mut page = problem_page_for(&state, &entry, user, asked, None, String::new(), None);
    page.assignment = tag;
    Ok(page.into_response())
}

/// The submit form: a language and either pasted source or a file (the file wins when given).
pub(super) async fn submit_program(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(slug): Path<String>,
    mut form: Multipart,
) -> Result<Response, PageError> {
    let entry = problems::visible(&state.domain, Some(&user), &slug).await?;
    let mut language = None;
    let mut pasted = String::new();
    let mut uploaded = Vec::new();
    let mut assignment = None;
    let bad = |e: axum::extract::multipart::MultipartError| {
        PageError::from(Error::BadRequest(format!("the form: {}", e.body_text())))
    };
    while let Some(field) = form.next_field().await.map_err(bad)? {
        match field.name() {
            Some("language") => language = Some(field.text().await.map_err(bad)?),
            Some("source") => pasted = field.text().await.map_err(bad)?,
            Some("file") => uploaded = field.bytes().await.map_err(bad)?.to_vec(),
            Some("assignment") => {
                assignment = Some(assignment_id(&field.text().await.map_err(bad)?)?)
            }
            _ => {}
        }
    }
    let tag = tag(&state, Some(&user), assignment, &slug).await?;
    let refused_page = |user: User, language: Option<String>, source: String, error: &Error| {
        let mut page = problem_page_for(&state, &entry, Some(user), None, language, source, None);
        page.error = Some(page.frame.ui.error(error));
        page.assignment = tag.clone();
        refusal(error, page)
    };
    let source = if uploaded.is_empty() {
        pasted
    } else {
        match String::from_utf8(uploaded) {
            Ok(text) => text,
            Err(_) => {
                let refused = Error::BadRequest("the uploaded file is not UTF-8 text".into());
                return Ok(refused_page(user, language, pasted, &refused));
            }
        }
    };
    let Some(chosen) = language.clone() else {
        let refused = Error::BadRequest("choose a language".into());
        return Ok(refused_page(user, language, source, &refused));
    };
    let new = NewSubmission {
        problem: slug,
        work: Work::Program {
            language: chosen,
            source: source.clone(),
        },
        assignment,
    };
    match submissions::submit(&state.domain, &user, new).await {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(Error::Internal(cause)) => Err(Error::Internal(cause).into()),
        Err(refused) => Ok(refused_page(user, language, source, &refused)),
    }
}

/// An assignment id from a form field.
fn assignment_id(text: &str) -> Result<i64, Error> {
    text.trim()
        .parse()
        .map_err(|_| Error::BadRequest(format!("no assignment {text:?}")))
}

#[derive(Debug)]
struct InstanceBox {
    name: String,
    group: String,
    input: String,
    answer: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "answers.html")]
pub(super) struct AnswersPage {
    frame: Frame,
    slug: String,
    title: String,
    version: u32,
    instances: Vec<InstanceBox>,
    error: Option<String>,
    assignment: Option<AssignmentTag>,
    /// In an assignment: the draw these instances are.
    draw: Option<i64>,
}

async fn answers_page_for(
    state: &AppState,
    slug: &str,
    user: User,
    typed: &BTreeMap<String, String>,
    error: Option<String>,
    assignment: Option<i64>,
) -> Result<AnswersPage, PageError> {
    let tag = tag(state, Some(&user), assignment, slug).await?;
    let drawn = submissions::answer_sheet(&state.domain, &user, slug, assignment).await?;
    let p = &drawn.entry.problem;
    let mut frame = Frame::new(Some(user), "");
    let title = p.title(frame.ui.code).to_owned();
    frame.title = format!("{title} — {}", frame.ui.answer_mode);
    Ok(AnswersPage {
        frame,
        slug: p.slug().to_owned(),
        title,
        version: drawn.version,
        instances: drawn
            .instances
            .into_iter()
            .map(|(group, i)| InstanceBox {
                group,
                answer: typed.get(&i.name).cloned().unwrap_or_default(),
                name: i.name,
                input: i.input,
            })
            .collect(),
        error,
        assignment: tag,
        draw: drawn.draw,
    })
}

pub(super) async fn answers_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(slug): Path<String>,
    Query(query): Query<AssignmentQuery>,
) -> Result<Response, PageError> {
    Ok(answers_page_for(
        &state,
        &slug,
        user,
        &BTreeMap::new(),
        None,
        query.assignment,
    )
    .await?
    .into_response())
}

/// Answers arrive as `answer:<instance name>` fields next to the `version` they were drawn at;
/// blank boxes are left out (and count as wrong).
pub(super) async fn submit_answers(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(slug): Path<String>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    problems::visible(&state.domain, Some(&user), &slug).await?;
    let mut version = None;
    let mut assignment = None;
    let mut draw = None;
    let mut answers = BTreeMap::new();
    for (key, value) in fields {
        if key == "version" {
            version = value.parse().ok();
        } else if key == "assignment" {
            assignment = Some(assignment_id(&value)?);
        } else if key == "draw" {
            draw = value.parse().ok();
        } else if let Some(name) = key.strip_prefix("answer:")
            && !value.trim().is_empty()
        {
            answers.insert(name.to_owned(), value);
        }
    }
    let new = NewSubmission {
        problem: slug.clone(),
        work: Work::Answers {
            answers: answers.clone(),
            version,
            draw,
        },
        assignment,
    };
    match submissions::submit(&state.domain, &user, new).await {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(Error::Internal(cause)) => Err(Error::Internal(cause).into()),
        Err(refused) => {
            // Answers typed for an older version's instances do not belong in the new boxes.
            let kept = if matches!(refused, Error::Conflict(_)) {
                BTreeMap::new()
            } else {
                answers
            };
            let mut page = answers_page_for(&state, &slug, user, &kept, None, assignment).await?;
            page.error = Some(page.frame.ui.error(&refused));
            Ok(refusal(&refused, page))
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct PageQuery {
    before: Option<i64>,
}

/// One line of a submissions table.
#[derive(Debug)]
pub(super) struct SubmissionLine {
    pub id: i64,
    pub problem: String,
    /// The problem's title in the reader's language, where it has one.
    pub problem_title: String,
    pub user: String,
    pub language: String,
    pub state: SubmissionState,
    pub score: String,
    /// Unix milliseconds, shown in the reader's zone.
    pub submitted: i64,
}

impl SubmissionLine {
    /// A submission by `user`, in the words of `ui`: the problem's title and the language's
    /// name rather than their ids.
    pub(super) fn of(state: &AppState, ui: &Ui, s: &Submission, user: &str) -> SubmissionLine {
        let id = s.language.as_deref().unwrap_or_default();
        SubmissionLine {
            id: s.id,
            problem: s.problem.clone(),
            problem_title: problems::find(&state.domain, &s.problem).map_or_else(
                |_| s.problem.clone(),
                |e| e.problem.title(ui.code).to_owned(),
            ),
            user: user.to_owned(),
            language: match s.kind {
                SubmissionKind::Answers => ui.answer_mode.to_owned(),
                SubmissionKind::Program => state
                    .domain
                    .languages
                    .get(id)
                    .map_or_else(|_| id.to_owned(), |l| l.spec.name.clone()),
            },
            state: SubmissionState::of(s),
            score: match (s.score, s.max_score) {
                (Some(score), Some(max)) => format!("{score}/{max}"),
                _ => String::new(),
            },
            submitted: s.created_at,
        }
    }
}

pub(super) const PAGE_SIZE: i64 = 50;

/// A listing asked for with one more than [`PAGE_SIZE`], cut to a page: the page, and the id an
/// older page starts below when there is one.
pub(super) fn one_page(mut found: Vec<Submission>) -> (Vec<Submission>, Option<i64>) {
    let more = found.len() as i64 > PAGE_SIZE;
    found.truncate(PAGE_SIZE as usize);
    let older = more.then(|| found.last().map(|s| s.id)).flatten();
    (found, older)
}

#[derive(Template, WebTemplate)]
#[template(path = "submissions.html")]
pub(super) struct MySubmissionsPage {
    frame: Frame,
    submissions: Vec<SubmissionLine>,
    older: Option<i64>,
}

pub(super) async fn my_submissions(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(page): Query<PageQuery>,
) -> Result<Response, PageError> {
    let filter = Filter {
        author: Some(user.id),
        before: page.before,
        // One more than shown: whether an older page exists.
        limit: Some(PAGE_SIZE + 1),
        ..Filter::default()
    };
    let (found, older) = one_page(submissions::list(&state.domain, &user, &filter).await?);
    let frame = Frame::new(Some(user), "").titled(|ui| ui.my_submissions);
    Ok(MySubmissionsPage {
        submissions: found
            .iter()
            .map(|s| SubmissionLine::of(&state, frame.ui, s, ""))
            .collect(),
        frame,
        older,
    }
    .into_response())
}

#[derive(Debug)]
struct TestLine {
    position: i64,
    /// `samples #1`, `Subtask 2 #3`, `personal #2`.
    name: String,
    verdict: Verdict,
    cpu_ms: i64,
    memory_kib: i64,
    message: String,
    /// A failed test's data, where the viewer may see it (see `ShownTest`).
    input: Option<String>,
    expected: Option<String>,
    output: Option<String>,
    too_large: bool,
    /// An interactive test's games, where the viewer may see the test.
    games: Vec<GameLine>,
}

/// One game of an interactive test as the page lists it.
#[derive(Debug)]
struct GameLine {
    start: String,
    start_win: bool,
    side: &'static str,
    moves: Vec<MoveLine>,
    mistake: Option<String>,
}

#[derive(Debug)]
struct MoveLine {
    by_program: bool,
    text: String,
    after: String,
    win: bool,
    grundy: Option<u64>,
}

impl GameLine {
    fn of(transcript: Option<Transcript>) -> Vec<GameLine> {
        let Some(transcript) = transcript else {
            return Vec::new();
        };
        transcript
            .games
            .into_iter()
            .map(|game| GameLine {
                start: game.start,
                start_win: game.start_value.win,
                side: match game.side {
                    Some(Side::First) => "first",
                    Some(Side::Second) => "second",
                    None => "",
                },
                moves: game
                    .moves
                    .into_iter()
                    .map(|m| MoveLine {
                        by_program: m.by == Mover::Program,
                        text: m.text,
                        after: m.after,
                        win: m.value.win,
                        grundy: m.value.grundy,
                    })
                    .collect(),
                mistake: game.mistake,
            })
            .collect()
    }
}

impl TestLine {
    fn memory(&self) -> String {
        format!("{:.1} MiB", self.memory_kib as f64 / 1024.0)
    }

    /// Whether the page shows more of it below the table.
    fn has_data(&self) -> bool {
        self.input.is_some() || self.expected.is_some() || self.output.is_some() || self.too_large
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "submission.html")]
pub(super) struct SubmissionPage {
    frame: Frame,
    line: SubmissionLine,
    problem_title: String,
    is_answers: bool,
    /// Still queued or being judged: the page follows it live.
    live: bool,
    /// Once judged, the page is loaded again for what the live rows do not carry (failing
    /// hidden tests' inputs at the `inputs` level).
    reload_when_judged: bool,
    compile_message: String,
    /// The assignment shows its students the verdict and score only.
    verdict_only: bool,
    /// Each subtask's result, as the statement lists it.
    subtasks: Vec<SubtaskResult>,
    tests: Vec<TestLine>,
    /// Group names as people read them, for the live page's script.
    groups_json: String,
    source: String,
    /// Why it is wrong, once found; `explains` while it is still to come.
    explanation: ExplanationLine,
    explains: bool,
}

/// An explanation as the page shows it (empty strings for what was not found).
#[derive(Default)]
struct ExplanationLine {
    shown: bool,
    found: bool,
    large: bool,
    position: String,
    expected: String,
    got: String,
    why_en: String,
    why_vi: String,
    misconception_id: String,
    misconception_title: String,
    misconception_text: String,
}

impl ExplanationLine {
    fn of(explanation: Option<Explanation>) -> ExplanationLine {
        let Some(e) = explanation else {
            return ExplanationLine::default();
        };
        let (why_en, why_vi) = e.certificate.map(|c| (c.en, c.vi)).unwrap_or_default();
        let (misconception_id, misconception_title, misconception_text) = e
            .misconception
            .map(|m| (m.id, m.title, m.text))
            .unwrap_or_default();
        ExplanationLine {
            shown: true,
            found: e.position.is_some(),
            large: e.large,
            position: e.position.unwrap_or_default(),
            expected: e.expected.unwrap_or_default(),
            got: e.got.unwrap_or_default(),
            why_en,
            why_vi,
            misconception_id,
            misconception_title,
            misconception_text,
        }
    }
}

impl SubmissionPage {
    fn any_data(&self) -> bool {
        self.tests.iter().any(TestLine::has_data)
    }

    fn any_games(&self) -> bool {
        self.tests.iter().any(|t| !t.games.is_empty())
    }
}

pub(super) async fn submission_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let detail = submissions::detail(&state.domain, &user, id).await?;
    let found = &detail.submission;
    let mut frame = Frame::new(Some(user), "");
    frame.title = format!("{} {id}", frame.ui.submission);
    let entry = problems::find(&state.domain, &found.problem).ok();
    let problem_title = entry.as_ref().map_or_else(
        || found.problem.clone(),
        |e| e.problem.title(frame.ui.code).to_owned(),
    );
    // Subtasks by their statement numbers; samples and personal instances by their names.
    let groups: BTreeMap<String, String> = entry
        .as_ref()
        .map(|e| {
            e.problem
                .spec
                .subtasks
                .iter()
                .enumerate()
                .map(|(s, subtask)| (subtask.name.clone(), Group::Subtask(s + 1).title()))
                .collect()
        })
        .unwrap_or_default();
    let personal = found.kind == SubmissionKind::Program && found.instance_seed.is_some();
    let title = |group: String| {
        if personal && group == grundy_judge::PERSONAL_GROUP {
            return group;
        }
        groups.get(&group).cloned().unwrap_or(group)
    };
    let live = found.status != SubmissionStatus::Done;
    Ok(SubmissionPage {
        line: SubmissionLine::of(&state, frame.ui, found, &detail.author),
        problem_title,
        is_answers: found.kind == SubmissionKind::Answers,
        live: live || detail.explanation_pending,
        explains: detail.explanation_pending,
        reload_when_judged: live && detail.feedback == Feedback::Inputs,
        compile_message: found.compile_message.clone().unwrap_or_default(),
        verdict_only: detail.feedback == Feedback::Verdict,
        subtasks: detail.subtasks,
        tests: detail
            .tests
            .into_iter()
            .map(|t| TestLine {
                position: t.row.position,
                name: format!("{} #{}", title(t.row.name.group), t.row.name.index),
                verdict: t.row.verdict,
                cpu_ms: t.row.cpu_ms,
                memory_kib: t.row.memory_kib,
                message: t.row.message.unwrap_or_default(),
                input: t.input,
                expected: t.expected,
                output: t.output,
                too_large: t.too_large,
                games: GameLine::of(t.transcript),
            })
            .collect(),
        // Read by the script from a <script> element: nothing in it may close that element.
        groups_json: serde_json::to_string(&groups)
            .unwrap_or_default()
            .replace('<', "\\u003c"),
        source: detail.source,
        explanation: ExplanationLine::of(detail.explanation),
        frame,
    }
    .into_response())
}
