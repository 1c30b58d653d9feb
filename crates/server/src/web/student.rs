//! The students' pages: problems, statements, submitting programs and answers, submissions.

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::HeaderMap;
use axum::http::header::SET_COOKIE;
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use grundy_store::{Submission, SubmissionKind, SubmissionQuery, SubmissionStatus, User};
use serde::Deserialize;

use super::courses::AssignmentTag;
use super::{Frame, PageError, SignedIn, Visitor, when};
use crate::api::problems::find;
use crate::api::submissions::{queue_submission, visible};
use crate::api::views::NewSubmissionBody;
use crate::api::{INSTANCES_PER_SUBTASK, personal_seed};
use crate::auth::CurrentUser;
use crate::registry::Entry;
use crate::{ApiError, AppState};

/// The statement language a visitor chose last (`?lang=` sets it).
const LANGUAGE_COOKIE: &str = "grundy_lang";

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
    let marks = match &user {
        Some(u) => state.store.problem_marks(u.id).await?,
        None => Vec::new(),
    };
    let marks: BTreeMap<String, _> = marks.into_iter().map(|m| (m.problem.clone(), m)).collect();
    let entries = state.problems.list();
    let tags: BTreeSet<String> = entries
        .iter()
        .flat_map(|e| e.problem.spec.tags.iter().cloned())
        .collect();
    let tag = query.tag.filter(|t| !t.is_empty());
    let problems = entries
        .iter()
        .filter(|e| tag.as_ref().is_none_or(|t| e.problem.spec.tags.contains(t)))
        .map(|e| {
            let p = &e.problem;
            let mark = marks.get(p.slug());
            ProblemLine {
                slug: p.slug().to_owned(),
                title: p.title("en").to_owned(),
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
        frame: Frame::new(user, "Problems"),
        problems,
        tags: tags.into_iter().collect(),
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
    /// Opened from an assignment: submissions go to it.
    assignment: Option<AssignmentTag>,
}

fn language_name(code: &str) -> &'static str {
    match code {
        "en" => "English",
        "vi" => "Tiếng Việt",
        _ => "other",
    }
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
    let lang = lang
        .filter(|l| entry.html.contains_key(*l))
        .or_else(|| entry.html.contains_key("en").then_some("en"))
        .or_else(|| entry.html.keys().next().map(String::as_str))
        .unwrap_or("en")
        .to_owned();
    let languages: Vec<LanguageChoice> = state
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
            languages
                .iter()
                .find(|l| l.id.starts_with("cpp"))
                .map(|l| l.id.clone())
        })
        .unwrap_or_default();
    ProblemPage {
        frame: Frame::new(user, p.title(&lang)),
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
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let entry = find(&state, &slug)?;
    let remembered = crate::auth::cookie(&headers, LANGUAGE_COOKIE);
    let asked = query.lang.as_deref().or(remembered.as_deref());
    let tag = super::courses::tag(&state, user.as_ref(), for_assignment.assignment, &slug).await?;
    let mut page = problem_page_for(&state, &entry, user, asked, None, String::new(), None);
    page.assignment = tag;
    match query.lang {
        // Remember the choice for the next statement.
        Some(lang) if entry.html.contains_key(&lang) => Ok((
            AppendHeaders([(
                SET_COOKIE,
                format!("{LANGUAGE_COOKIE}={lang}; Path=/; Max-Age=31536000; SameSite=Lax"),
            )]),
            page,
        )
            .into_response()),
        _ => Ok(page.into_response()),
    }
}

/// The submit form: a language and either pasted source or a file (the file wins when given).
pub(super) async fn submit_program(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(slug): Path<String>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Result<Response, PageError> {
    let entry = find(&state, &slug)?;
    let lang = crate::auth::cookie(&headers, LANGUAGE_COOKIE);
    let mut language = None;
    let mut pasted = String::new();
    let mut uploaded = Vec::new();
    let mut assignment = None;
    let bad = |e: axum::extract::multipart::MultipartError| {
        PageError::from(ApiError::BadRequest(format!("the form: {}", e.body_text())))
    };
    while let Some(field) = form.next_field().await.map_err(bad)? {
        match field.name() {
            Some("language") => language = Some(field.text().await.map_err(bad)?),
            Some("source") => pasted = field.text().await.map_err(bad)?,
            Some("file") => uploaded = field.bytes().await.map_err(bad)?.to_vec(),
            Some("assignment") => {
                let text = field.text().await.map_err(bad)?;
                assignment = Some(
                    text.trim()
                        .parse()
                        .map_err(|_| ApiError::BadRequest(format!("no assignment {text:?}")))?,
                );
            }
            _ => {}
        }
    }
    let tag = super::courses::tag(&state, Some(&user), assignment, &slug).await?;
    let source = if uploaded.is_empty() {
        pasted
    } else {
        match String::from_utf8(uploaded) {
            Ok(text) => text,
            Err(_) => {
                let refused = ApiError::BadRequest("the uploaded file is not UTF-8 text".into());
                let mut page = problem_page_for(
                    &state,
                    &entry,
                    Some(user),
                    lang.as_deref(),
                    language,
                    pasted,
                    Some(refused.to_string()),
                );
                page.assignment = tag;
                return Ok(refusal(&refused, page));
            }
        }
    };
    let new = NewSubmissionBody {
        problem: slug,
        language: language.clone(),
        source: Some(source.clone()),
        answers: None,
        version: None,
        assignment,
        draw: None,
    };
    match queue_submission(&state, &user, new).await {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(refused) => {
            let mut page = problem_page_for(
                &state,
                &entry,
                Some(user),
                lang.as_deref(),
                language,
                source,
                Some(refused.to_string()),
            );
            page.assignment = tag;
            Ok(refusal(&refused, page))
        }
    }
}

/// A form shown again with why it was refused, with the API's status and headers.
fn refusal(error: &ApiError, page: impl IntoResponse) -> Response {
    error.with_retry_after((error.status(), page).into_response())
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
    entry: &Entry,
    user: User,
    typed: &BTreeMap<String, String>,
    error: Option<String>,
    assignment: Option<i64>,
) -> Result<AnswersPage, PageError> {
    let tag = super::courses::tag(state, Some(&user), assignment, entry.problem.slug()).await?;
    let p = entry.problem.clone();
    if !p.is_family_backed() {
        return Err(ApiError::BadRequest(format!(
            "{} is an uploaded package: it takes programs only",
            p.slug()
        ))
        .into());
    }
    // An assignment's instances are drawn from the keyed seed; practice ones from the user.
    let (seed, draw) = match &tag {
        Some(tag) if !tag.opened => {
            return Err(ApiError::Conflict(format!("{} has not opened yet", tag.title)).into());
        }
        Some(tag) => {
            let (draw, seed) =
                crate::api::submissions::personal_draw(state, tag.id, user.id, p.slug()).await?;
            (seed as u64, Some(draw.generation))
        }
        None => (personal_seed(user.id), None),
    };
    let drawn = tokio::task::spawn_blocking(move || p.instances(seed, INSTANCES_PER_SUBTASK))
        .await
        .map_err(|e| ApiError::Internal(format!("drawing instances: {e}")))?;
    let p = &entry.problem;
    Ok(AnswersPage {
        frame: Frame::new(Some(user), format!("{} — answers", p.title("en"))),
        slug: p.slug().to_owned(),
        title: p.title("en").to_owned(),
        version: p.spec.version,
        instances: drawn
            .into_iter()
            .map(|i| InstanceBox {
                group: i.subtask.map_or("samples".to_owned(), |s| {
                    p.spec.subtasks[s - 1].name.clone()
                }),
                answer: typed.get(&i.name).cloned().unwrap_or_default(),
                name: i.name,
                input: i.input,
            })
            .collect(),
        error,
        assignment: tag,
        draw,
    })
}

pub(super) async fn answers_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(slug): Path<String>,
    Query(query): Query<AssignmentQuery>,
) -> Result<Response, PageError> {
    let entry = find(&state, &slug)?;
    Ok(answers_page_for(
        &state,
        &entry,
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
    let entry = find(&state, &slug)?;
    let mut version = None;
    let mut assignment = None;
    let mut draw = None;
    let mut answers = BTreeMap::new();
    for (key, value) in fields {
        if key == "version" {
            version = value.parse().ok();
        } else if key == "assignment" {
            assignment = Some(
                value
                    .trim()
                    .parse()
                    .map_err(|_| ApiError::BadRequest(format!("no assignment {value:?}")))?,
            );
        } else if key == "draw" {
            draw = value.parse().ok();
        } else if let Some(name) = key.strip_prefix("answer:")
            && !value.trim().is_empty()
        {
            answers.insert(name.to_owned(), value);
        }
    }
    let new = NewSubmissionBody {
        problem: slug,
        language: None,
        source: None,
        answers: Some(answers.clone()),
        version,
        assignment,
        draw,
    };
    match queue_submission(&state, &user, new).await {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(refused) => {
            // Answers typed for an older version's instances do not belong in the new boxes.
            let kept = if matches!(refused, ApiError::Conflict(_)) {
                BTreeMap::new()
            } else {
                answers
            };
            let page = answers_page_for(
                &state,
                &entry,
                user,
                &kept,
                Some(refused.to_string()),
                assignment,
            )
            .await?;
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
    pub user: String,
    pub language: String,
    /// The verdict once judged, the status before.
    pub verdict: String,
    pub score: String,
    pub submitted: String,
}

impl SubmissionLine {
    pub(super) fn of(s: &Submission, user: &str) -> SubmissionLine {
        SubmissionLine {
            id: s.id,
            problem: s.problem.clone(),
            user: user.to_owned(),
            language: match s.kind {
                SubmissionKind::Answers => "answers".to_owned(),
                SubmissionKind::Program => s.language.clone().unwrap_or_default(),
            },
            verdict: s
                .verdict
                .map_or_else(|| s.status.as_str(), |v| v.as_str())
                .to_owned(),
            score: match (s.score, s.max_score) {
                (Some(score), Some(max)) => format!("{score}/{max}"),
                _ => String::new(),
            },
            submitted: when(s.created_at),
        }
    }
}

const PAGE_SIZE: i64 = 50;

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
    let mut found = state
        .store
        .submissions(&SubmissionQuery {
            user: Some(user.id),
            before: page.before,
            // One more than shown: whether an older page exists.
            limit: PAGE_SIZE + 1,
            ..Default::default()
        })
        .await?;
    let more = found.len() as i64 > PAGE_SIZE;
    found.truncate(PAGE_SIZE as usize);
    let older = more.then(|| found.last().map(|s| s.id)).flatten();
    Ok(MySubmissionsPage {
        submissions: found
            .iter()
            .map(|s| SubmissionLine::of(s, &user.name))
            .collect(),
        frame: Frame::new(Some(user), "My submissions"),
        older,
    }
    .into_response())
}

#[derive(Debug)]
struct TestLine {
    position: i64,
    name: String,
    verdict: String,
    cpu_ms: i64,
    memory_kib: i64,
    message: String,
    /// A failed personal instance, when the feedback level shows it.
    input: Option<String>,
    expected: Option<String>,
}

impl TestLine {
    fn memory(&self) -> String {
        format!("{:.1} MiB", self.memory_kib as f64 / 1024.0)
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
    compile_message: String,
    /// The assignment shows its students the verdict and score only.
    verdict_only: bool,
    tests: Vec<TestLine>,
    source: String,
}

pub(super) async fn submission_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let viewer = CurrentUser(user);
    let found = visible(&state, &viewer, id).await?;
    let CurrentUser(user) = viewer;
    let owner = if found.user_id == user.id {
        user.name.clone()
    } else {
        state
            .store
            .user_by_id(found.user_id)
            .await?
            .map_or_else(|| format!("#{}", found.user_id), |u| u.name)
    };
    let feedback = crate::api::submissions::feedback_for(&state, &user, &found).await?;
    let tests = state.store.test_results(id).await?;
    let tests = crate::api::submissions::shown_tests(&state, &found, feedback, tests).await?;
    let source = state.store.submission_source(id).await?.unwrap_or_default();
    let problem_title = state.problems.get(&found.problem).map_or_else(
        || found.problem.clone(),
        |e| e.problem.title("en").to_owned(),
    );
    Ok(SubmissionPage {
        frame: Frame::new(Some(user), format!("Submission {id}")),
        line: SubmissionLine::of(&found, &owner),
        problem_title,
        is_answers: found.kind == SubmissionKind::Answers,
        live: found.status != SubmissionStatus::Done,
        compile_message: found.compile_message.clone().unwrap_or_default(),
        verdict_only: feedback == grundy_coursework::Feedback::Verdict,
        tests: tests
            .into_iter()
            .map(|t| TestLine {
                position: t.position,
                name: format!("{} #{}", t.group, t.index),
                verdict: t.verdict.as_str().to_owned(),
                cpu_ms: t.cpu_ms,
                memory_kib: t.memory_kib,
                message: t.message.unwrap_or_default(),
                input: t.input,
                expected: t.expected,
            })
            .collect(),
        source: String::from_utf8_lossy(&source).into_owned(),
    }
    .into_response())
}
