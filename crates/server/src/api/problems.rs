//! Health, version, the problem list, one problem, answer instances.

use axum::Json;
use axum::extract::{Path, Query, State};

use super::JsonResult;
use super::views::{
    ErrorBody, Health, InstanceList, InstanceView, LanguageView, ProblemDetail, ProblemFilter,
    ProblemList, ProblemSummary, SampleView, StatementQuery, SubtaskView, Version,
};
use crate::auth::CurrentUser;
use crate::registry::Entry;
use crate::{ApiError, AppState};

/// How many instances of each subtask an answering student gets.
pub const INSTANCES_PER_SUBTASK: usize = 2;

/// The seed of a user's personal instances: fixed per user, different between users.
pub fn personal_seed(user_id: i64) -> u64 {
    user_id as u64
}

#[utoipa::path(get, path = "/api/v1/health", tag = "service",
    responses((status = 200, body = Health), (status = 500, body = ErrorBody)))]
pub(super) async fn health(State(state): State<AppState>) -> JsonResult<Health> {
    state.store.count_users().await?;
    Ok(Json(Health {
        status: "ok".into(),
        database: state.store.backend().into(),
    }))
}

#[utoipa::path(get, path = "/api/v1/version", tag = "service",
    responses((status = 200, body = Version)))]
pub(super) async fn version() -> Json<Version> {
    Json(Version {
        name: "grundy".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

#[utoipa::path(get, path = "/api/v1/problems", tag = "problems", params(ProblemFilter),
    responses((status = 200, body = ProblemList)))]
pub(super) async fn list_problems(
    State(state): State<AppState>,
    Query(filter): Query<ProblemFilter>,
) -> Json<ProblemList> {
    let problems = state
        .problems
        .list()
        .iter()
        .filter(|e| {
            filter
                .tag
                .as_ref()
                .is_none_or(|t| e.problem.spec.tags.contains(t))
        })
        .map(|e| ProblemSummary::of(e))
        .collect();
    Json(ProblemList { problems })
}

pub(crate) fn find(state: &AppState, slug: &str) -> Result<std::sync::Arc<Entry>, ApiError> {
    state
        .problems
        .get(slug)
        .ok_or_else(|| ApiError::NotFound(format!("problem {slug:?}")))
}

#[utoipa::path(get, path = "/api/v1/problems/{slug}", tag = "problems",
    params(("slug" = String, Path), StatementQuery),
    responses((status = 200, body = ProblemDetail), (status = 404, body = ErrorBody)))]
pub(super) async fn problem(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    Query(query): Query<StatementQuery>,
) -> JsonResult<ProblemDetail> {
    let entry = find(&state, &slug)?;
    let p = &entry.problem;
    let lang = query.lang.unwrap_or_else(|| "en".into());
    let (Some(markdown), Some(html)) = (p.statement(&lang), entry.html.get(&lang)) else {
        return Err(ApiError::NotFound(format!(
            "a {lang:?} statement of {slug:?}"
        )));
    };
    let mut summary = ProblemSummary::of(&entry);
    summary.title = p.title(&lang).to_owned();
    Ok(Json(ProblemDetail {
        summary,
        statement_html: html.clone(),
        statement_markdown: markdown.to_owned(),
        statement_languages: p.statement_languages().map(str::to_owned).collect(),
        lang,
        subtasks: p
            .spec
            .subtasks
            .iter()
            .map(|s| SubtaskView {
                name: s.name.clone(),
                points: s.points,
                tests: s.tests,
            })
            .collect(),
        samples: p
            .samples
            .iter()
            .map(|s| SampleView {
                name: s.name.clone(),
                input: s.input.clone(),
                answer: s.answer.clone(),
            })
            .collect(),
        languages: state
            .languages
            .available()
            .iter()
            .map(|l| LanguageView {
                id: l.id().to_owned(),
                name: l.spec.name.clone(),
            })
            .collect(),
    }))
}

/// The samples plus instances drawn for the caller from each subtask's generator (the same ones
/// every time; other students get others). Answer them with `POST /api/v1/submissions` and
/// `answers`. An uploaded package offers its samples only: its other tests are hidden.
#[utoipa::path(get, path = "/api/v1/problems/{slug}/instances", tag = "problems",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = InstanceList), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(slug): Path<String>,
) -> JsonResult<InstanceList> {
    let entry = find(&state, &slug)?;
    let (version, drawn) = draw_instances(&entry, personal_seed(user.id)).await?;
    Ok(Json(instance_list(slug, version, None, drawn)))
}

/// What a student is shown of drawn instances: inputs, never answers.
pub(crate) fn instance_list(
    problem: String,
    version: u32,
    draw: Option<i64>,
    drawn: Vec<(String, grundy_problems::Instance)>,
) -> InstanceList {
    InstanceList {
        problem,
        version,
        draw,
        instances: drawn
            .into_iter()
            .map(|(group, i)| InstanceView {
                group,
                name: i.name,
                input: i.input,
            })
            .collect(),
    }
}

/// The samples and the instances of `seed`, each with its group's name, and the version they
/// belong to. Generating the largest subtasks' inputs takes a moment: off the async threads.
pub(crate) async fn draw_instances(
    entry: &Entry,
    seed: u64,
) -> Result<(u32, Vec<(String, grundy_problems::Instance)>), ApiError> {
    let problem = entry.problem.clone();
    let instances =
        tokio::task::spawn_blocking(move || problem.instances(seed, INSTANCES_PER_SUBTASK))
            .await
            .map_err(|e| ApiError::Internal(format!("drawing instances: {e}")))?;
    let spec = &entry.problem.spec;
    Ok((
        spec.version,
        instances
            .into_iter()
            .map(|i| {
                let group = i
                    .subtask
                    .map_or("samples".to_owned(), |s| spec.subtasks[s - 1].name.clone());
                (group, i)
            })
            .collect(),
    ))
}
