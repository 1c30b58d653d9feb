//! The students' pages: problems, statements, submitting programs and answers, submissions.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use grundy_judge::Verdict;
use grundy_judge::explain::Explanation;
use grundy_judge::naming::Group;
use grundy_problems::play::{Mover, Side, Transcript};
use grundy_store::{Feedback, Submission, SubmissionKind, SubmissionStatus, User};
use serde::Deserialize;

use super::ui::{SubmissionState, Ui};
use super::{Frame, PageError, SignedIn, Visitor, refusal, words_for};
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
    /// Invitations into courses waiting for the signed-in reader's answer.
    invitations: Vec<super::courses::InvitationLine>,
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
    let invitations = match &user {
        Some(user) => super::courses::invitation_lines(&state, user).await?,
        None => Vec::new(),
    };
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
        invitations,
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
    judging_budget: grundy_judge::SubmissionBudget,
    samples: Vec<SampleBox>,
    languages: Vec<LanguageChoice>,
    chosen_language: String,
    source: String,
    /// The submission whose program fills the form, when it is not what was just typed.
    loaded_from: Option<i64>,
    error: Option<String>,
    answer_mode: bool,
    /// People can play its game against the reference.
    playable: bool,
    /// Opened from an assignment: submissions go to it.
    assignment: Option<AssignmentTag>,
    /// The reader's latest submissions to this problem.
    attempts: Vec<SubmissionLine>,
}

impl ProblemPage {
    /// Where the form posts: the page's own address, so that a refused submission is shown at
    /// the same address, scrolled to the form.
    fn action(&self) -> String {
        match &self.assignment {
            Some(a) => format!("/problems/{}?assignment={}#submit", self.slug, a.id),
            None => format!("/problems/{}#submit", self.slug),
        }
    }
}

fn language_name(code: &str) -> &'static str {
    Locale::parse(code).map_or("?", Locale::name)
}

/// What the submit form holds: a program the reader typed (and why it was refused), or one of
/// their submissions, taken back to edit.
#[derive(Debug, Default)]
struct ProgramForm {
    language: Option<String>,
    source: String,
    loaded_from: Option<i64>,
    /// Why it was refused, in the reader's words.
    error: Option<String>,
}

/// How many of the reader's submissions the problem page lists.
const ATTEMPTS_SHOWN: i64 = 10;

/// The reader's latest submissions to `slug`, newest first.
async fn attempts(
    state: &AppState,
    user: Option<&User>,
    slug: &str,
) -> Result<Vec<Submission>, Error> {
    let Some(user) = user else {
        return Ok(Vec::new());
    };
    let filter = Filter {
        author: Some(user.id),
        problem: Some(slug.to_owned()),
        limit: Some(ATTEMPTS_SHOWN),
        ..Filter::default()
    };
    submissions::list(&state.domain, user, &filter).await
}

/// Builds the problem page; also what a refused submission returns to, with its error and
/// source kept.
async fn problem_page_for(
    state: &AppState,
    entry: &Entry,
    user: Option<User>,
    lang: Option<&str>,
    form: ProgramForm,
    assignment: Option<AssignmentTag>,
) -> Result<ProblemPage, Error> {
    let p = &entry.problem;
    let mine = attempts(state, user.as_ref(), p.slug()).await?;
    // Without work in hand, the editor holds the reader's last program, as they left it.
    let last_program = mine.iter().find(|s| s.kind == SubmissionKind::Program);
    let form = match (user.as_ref(), last_program) {
        (Some(user), Some(last)) if form.source.is_empty() && form.error.is_none() => {
            let (last, source) = submissions::own_work(&state.domain, user, last.id).await?;
            ProgramForm {
                language: last.language,
                source,
                loaded_from: Some(last.id),
                error: None,
            }
        }
        _ => form,
    };
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
    let chosen_language = form
        .language
        .or_else(|| {
            state
                .domain
                .languages
                .default_cpp()
                .map(|cpp| cpp.id.clone())
        })
        .unwrap_or_default();
    let attempts = mine
        .iter()
        .map(|s| SubmissionLine::of(state, frame.ui, s, ""))
        .collect();
    Ok(ProblemPage {
        error: form.error,
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
        judging_budget: grundy_judge::SubmissionBudget::stated(p),
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
        source: form.source,
        loaded_from: form.loaded_from,
        answer_mode: p.is_family_backed(),
        playable: p.board().is_some(),
        assignment,
        attempts,
    })
}

/// `?assignment=` on the problem and answer pages, and `?from=`: one's own submission whose
/// work fills the form again.
#[derive(Debug, Deserialize)]
pub(super) struct AssignmentQuery {
    assignment: Option<i64>,
    from: Option<i64>,
}

/// Where "edit and resubmit" leads: the form the submission came from, in its assignment.
fn resubmit_address(s: &Submission) -> String {
    let page = match s.kind {
        SubmissionKind::Program => format!("/problems/{}", s.problem),
        SubmissionKind::Answers => format!("/problems/{}/answers", s.problem),
    };
    let fragment = match s.kind {
        SubmissionKind::Program => "#submit",
        SubmissionKind::Answers => "#answers",
    };
    match s.assignment_id {
        Some(a) => format!("{page}?from={}&assignment={a}{fragment}", s.id),
        None => format!("{page}?from={}{fragment}", s.id),
    }
}

pub(super) async fn problem_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Path(slug): Path<String>,
    Query(query): Query<StatementQuery>,
    Query(opened): Query<AssignmentQuery>,
) -> Result<Response, PageError> {
    let entry = problems::visible(&state.domain, user.as_ref(), &slug).await?;
    let tag = tag(&state, user.as_ref(), opened.assignment, &slug).await?;
    let form = match (opened.from, user.as_ref()) {
        (Some(id), Some(user)) => {
            let (from, source) = submissions::own_work(&state.domain, user, id).await?;
            if from.problem != slug {
                return Err(Error::NotFound(format!("submission {id}")).into());
            }
            if from.kind == SubmissionKind::Answers {
                return Ok(Redirect::to(&resubmit_address(&from)).into_response());
            }
            ProgramForm {
                language: from.language,
                source,
                loaded_from: Some(id),
                error: None,
            }
        }
        _ => ProgramForm::default(),
    };
    let asked = query.lang.as_deref();
    let page = problem_page_for(&state, &entry, user, asked, form, tag).await?;
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
    let source = if uploaded.is_empty() {
        Ok(pasted)
    } else {
        String::from_utf8(uploaded).map_err(|_| {
            (
                Error::BadRequest("the uploaded file is not UTF-8 text".into()),
                pasted,
            )
        })
    };
    let submitted = match (source, language.clone()) {
        (Err(refused), _) => Err(refused),
        (Ok(source), None) => Err((Error::BadRequest("choose a language".into()), source)),
        (Ok(source), Some(chosen)) => {
            let new = NewSubmission {
                problem: slug,
                work: Work::Program {
                    language: chosen,
                    source: source.clone(),
                },
                assignment,
            };
            submissions::submit(&state.domain, &user, new)
                .await
                .map_err(|e| (e, source))
        }
    };
    match submitted {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err((Error::Internal(cause), _)) => Err(Error::Internal(cause).into()),
        // The form again, at the same address, with what was typed and why it was refused.
        Err((refused, source)) => {
            let form = ProgramForm {
                language,
                source,
                loaded_from: None,
                error: Some(words_for(Some(&user)).error(&refused)),
            };
            let page = problem_page_for(&state, &entry, Some(user), None, form, tag).await?;
            Ok(refusal(&refused, page))
        }
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
    /// The submission whose answers fill the boxes, when they are not what was just typed.
    loaded_from: Option<i64>,
}

impl AnswersPage {
    /// Where the form posts: the page's own address, scrolled to the form.
    fn action(&self) -> String {
        match &self.assignment {
            Some(a) => format!(
                "/problems/{}/answers?assignment={}#answers",
                self.slug, a.id
            ),
            None => format!("/problems/{}/answers#answers", self.slug),
        }
    }
}

/// What the answer boxes hold.
#[derive(Debug)]
enum Typed {
    /// What the reader just sent.
    Sent(BTreeMap<String, String>),
    /// The answers of one of the reader's submissions (`?from=`), else of their last one for
    /// these instances.
    Kept(Option<i64>),
}

/// The answers of one of `user`'s answer submissions to `slug` (in `assignment`), if they
/// answer the instances of `version`; the latest when no id is given.
async fn kept_answers(
    state: &AppState,
    user: &User,
    slug: &str,
    assignment: Option<i64>,
    version: u32,
    from: Option<i64>,
) -> Result<Option<(i64, BTreeMap<String, String>)>, Error> {
    let id = match from {
        Some(id) => id,
        None => {
            let filter = Filter {
                author: Some(user.id),
                problem: Some(slug.to_owned()),
                assignment,
                limit: Some(ATTEMPTS_SHOWN),
                ..Filter::default()
            };
            let mine = submissions::list(&state.domain, user, &filter).await?;
            let last = mine
                .into_iter()
                .find(|s| s.kind == SubmissionKind::Answers && s.assignment_id == assignment);
            match last {
                Some(last) => last.id,
                None => return Ok(None),
            }
        }
    };
    let (found, source) = submissions::own_work(&state.domain, user, id).await?;
    if found.problem != slug || found.kind != SubmissionKind::Answers {
        return Err(Error::NotFound(format!("submission {id}")));
    }
    // Answers to another version's instances do not belong in these boxes.
    if found
        .problem_version
        .is_some_and(|v| v != i64::from(version))
    {
        return Ok(None);
    }
    Ok(serde_json::from_str(&source)
        .ok()
        .map(|answers| (id, answers)))
}

async fn answers_page_for(
    state: &AppState,
    slug: &str,
    user: User,
    typed: Typed,
    error: Option<String>,
    assignment: Option<i64>,
) -> Result<AnswersPage, PageError> {
    let tag = tag(state, Some(&user), assignment, slug).await?;
    let drawn = submissions::answer_sheet(&state.domain, &user, slug, assignment).await?;
    let (loaded_from, typed) = match typed {
        Typed::Sent(answers) => (None, answers),
        Typed::Kept(from) => {
            match kept_answers(state, &user, slug, assignment, drawn.version, from).await? {
                Some((id, answers)) => (Some(id), answers),
                None => (None, BTreeMap::new()),
            }
        }
    };
    let p = &drawn.entry.problem;
    let mut frame = Frame::new(Some(user), "");
    let title = p.title(frame.ui.code).to_owned();
    frame.title = format!("{title} — {}", frame.ui.answer_mode);
    Ok(AnswersPage {
        slug: p.slug().to_owned(),
        title,
        version: drawn.version,
        instances: drawn
            .instances
            .into_iter()
            .map(|(_, i)| InstanceBox {
                group: frame.ui.group(Group::of_instance(&i)),
                answer: typed.get(&i.name).cloned().unwrap_or_default(),
                name: i.name,
                input: i.input,
            })
            .collect(),
        error,
        assignment: tag,
        draw: drawn.draw,
        loaded_from,
        frame,
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
        Typed::Kept(query.from),
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
            let error = Some(words_for(Some(&user)).error(&refused));
            let page =
                answers_page_for(&state, &slug, user, Typed::Sent(kept), error, assignment).await?;
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
    side: Option<Side>,
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
                side: game.side,
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
    subtasks: Vec<SubtaskLine>,
    tests: Vec<TestLine>,
    /// Group names as people read them, and each subtask's label, for the live page's script.
    groups_json: String,
    subtasks_json: String,
    /// Where "edit and resubmit" leads, for the submission's author.
    resubmit: Option<String>,
    source: String,
    /// Why it is wrong, once found; `explains` while it is still to come.
    explanation: ExplanationLine,
    explains: bool,
    /// While it waits, its place in the queue, in words.
    queue_place: Option<String>,
    /// Answers whose expected answers the reader may not see: the explanation's game is a
    /// misconception's, none of theirs.
    answers_withheld: bool,
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
    /// The certificate in the reader's language.
    why: String,
    misconception_id: String,
    misconception_title: String,
    misconception_text: String,
}

impl ExplanationLine {
    /// In the language `code` of the page.
    fn of(explanation: Option<Explanation>, code: &str) -> ExplanationLine {
        let Some(e) = explanation else {
            return ExplanationLine::default();
        };
        let why = e
            .certificate
            .map(|c| if code == "vi" { c.vi } else { c.en })
            .unwrap_or_default();
        let (misconception_id, misconception_title, misconception_text) = e
            .misconception
            .map(|m| {
                let words = m.words(code);
                (m.id, words.title, words.text)
            })
            .unwrap_or_default();
        ExplanationLine {
            shown: true,
            found: e.position.is_some(),
            large: e.large,
            position: e.position.unwrap_or_default(),
            expected: e.expected.unwrap_or_default(),
            got: e.got.unwrap_or_default(),
            why,
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

/// A subtask's result as the page lists it.
#[derive(Debug)]
struct SubtaskLine {
    verdict: Verdict,
    text: String,
}

/// A string for a `<script type="application/json">`: nothing in it may close that element.
fn script_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

pub(super) async fn submission_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let detail = submissions::detail(&state.domain, &user, id).await?;
    let found = &detail.submission;
    let resubmit = submissions::may_resubmit(&user, found).then(|| resubmit_address(found));
    let mut frame = Frame::new(Some(user), "");
    let ui = frame.ui;
    frame.title = format!("{} {id}", ui.submission);
    let entry = problems::find(&state.domain, &found.problem).ok();
    let problem_title = entry.as_ref().map_or_else(
        || found.problem.clone(),
        |e| e.problem.title(ui.code).to_owned(),
    );
    let personal = found.kind == SubmissionKind::Program && found.instance_seed.is_some();
    // Groups as people read them: subtasks by their statement numbers, the samples and
    // personal instances by their names in the reader's language.
    let subtask_numbers: BTreeMap<String, usize> = entry
        .as_ref()
        .map(|e| {
            e.problem
                .spec
                .subtasks
                .iter()
                .enumerate()
                .map(|(s, subtask)| (subtask.name.clone(), s + 1))
                .collect()
        })
        .unwrap_or_default();
    let mut groups: BTreeMap<String, String> = subtask_numbers
        .iter()
        .map(|(name, s)| (name.clone(), ui.group(Group::Subtask(*s))))
        .collect();
    groups
        .entry(grundy_judge::naming::SAMPLES_GROUP.to_owned())
        .or_insert_with(|| ui.group(Group::Samples));
    if personal {
        // A subtask named like the personal group keeps its own name (see `naming`).
        groups
            .entry(grundy_judge::PERSONAL_GROUP.to_owned())
            .or_insert_with(|| ui.group(Group::Personal));
    }
    let title = |group: String| groups.get(&group).cloned().unwrap_or(group);
    // From the problem, not from the results: a page opened while judging has none yet, and
    // the live script words the results that arrive with these.
    let subtask_labels: BTreeMap<String, String> = entry
        .as_ref()
        .map(|e| {
            e.problem
                .spec
                .subtasks
                .iter()
                .enumerate()
                .map(|(s, subtask)| {
                    (
                        subtask.name.clone(),
                        (ui.subtask_points)(s + 1, subtask.points),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let subtasks = detail
        .subtasks
        .iter()
        .map(|r| SubtaskLine {
            verdict: r.verdict,
            text: subtask_numbers
                .get(&r.name)
                .map_or_else(|| r.to_string(), |n| ui.subtask_line(*n, r)),
        })
        .collect();
    let live = found.status != SubmissionStatus::Done;
    Ok(SubmissionPage {
        line: SubmissionLine::of(&state, ui, found, &detail.author),
        problem_title,
        is_answers: found.kind == SubmissionKind::Answers,
        live: live || detail.explanation_pending,
        explains: detail.explanation_pending,
        queue_place: detail.queue_position.map(ui.queue_place),
        reload_when_judged: live && detail.feedback == Feedback::Inputs,
        compile_message: found.compile_message.clone().unwrap_or_default(),
        verdict_only: detail.feedback == Feedback::Verdict,
        subtasks,
        tests: detail
            .tests
            .into_iter()
            .map(|t| TestLine {
                position: t.row.position,
                name: format!("{} #{}", title(t.row.name.group), t.row.name.index),
                verdict: t.row.verdict,
                cpu_ms: t.row.cpu_ms,
                memory_kib: t.row.memory_kib,
                message: t
                    .row
                    .message
                    .map(|m| ui.judge_message(&m))
                    .unwrap_or_default(),
                input: t.input,
                expected: t.expected,
                output: t.output,
                too_large: t.too_large,
                games: GameLine::of(t.transcript),
            })
            .collect(),
        subtasks_json: script_json(&serde_json::json!({
            "labels": subtask_labels,
            "failed_at": ui.failed_at_test,
            "not_judged": ui.not_judged,
        })),
        groups_json: script_json(&groups),
        source: detail.source,
        explanation: ExplanationLine::of(detail.explanation, ui.code),
        answers_withheld: detail.answers_withheld,
        resubmit,
        frame,
    }
    .into_response())
}
