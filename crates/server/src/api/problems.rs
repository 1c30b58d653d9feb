//! Health, version, the problem list, one problem, answer instances.

use axum::Json;
use axum::extract::{Path, Query, State};

use super::JsonResult;
use super::caller::{Caller, CurrentUser};
use super::views::{
    ErrorBody, Health, InstanceList, LanguageView, ProblemDetail, ProblemFilter, ProblemList,
    ProblemSummary, SampleView, StatementQuery, SubtaskView, Version,
};
use crate::domain::{Error, problems};
use crate::state::AppState;

#[utoipa::path(get, path = "/api/v1/health", tag = "service",
    responses((status = 200, body = Health), (status = 500, body = ErrorBody)))]
pub(super) async fn health(State(state): State<AppState>) -> JsonResult<Health> {
    let database = state.domain.health().await?;
    Ok(Json(Health {
        status: "ok".into(),
        database: database.into(),
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

/// The problems the caller sees: every published one, and the drafts they may see (their own,
/// their co-teachers', and those of their courses' assignments; see `POST
/// /api/v1/problems/{slug}/publish`).
#[utoipa::path(get, path = "/api/v1/problems", tag = "problems", params(ProblemFilter),
    responses((status = 200, body = ProblemList), (status = 500, body = ErrorBody)))]
pub(super) async fn list_problems(
    State(state): State<AppState>,
    Caller(user): Caller,
    Query(filter): Query<ProblemFilter>,
) -> JsonResult<ProblemList> {
    let problems = problems::list(&state.domain, user.as_ref(), filter.tag.as_deref())
        .await?
        .iter()
        .map(|e| ProblemSummary::of(e))
        .collect();
    Ok(Json(ProblemList { problems }))
}

/// One problem: a draft the caller may not see is "not found".
#[utoipa::path(get, path = "/api/v1/problems/{slug}", tag = "problems",
    params(("slug" = String, Path), StatementQuery),
    responses((status = 200, body = ProblemDetail), (status = 404, body = ErrorBody)))]
pub(super) async fn problem(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(slug): Path<String>,
    Query(query): Query<StatementQuery>,
) -> JsonResult<ProblemDetail> {
    let entry = problems::visible(&state.domain, user.as_ref(), &slug).await?;
    let p = &entry.problem;
    let lang = query.lang.unwrap_or_else(|| "en".into());
    let (Some(markdown), Some(html)) = (p.statement(&lang), entry.html.get(&lang)) else {
        return Err(Error::NotFound(format!("a {lang:?} statement of {slug:?}")).into());
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
            .domain
            .languages
            .available()
            .iter()
            .map(|l| LanguageView {
                id: l.id().to_owned(),
                name: l.spec.name.clone(),
                aliases: l.spec.aliases.clone(),
            })
            .collect(),
    }))
}

/// The samples plus instances drawn for the caller from each subtask's generator (the same ones
/// every time; other students get others). Answer them with `POST /api/v1/submissions` and
/// `answers`. An uploaded package offers its samples only: its other tests are hidden. The
/// instances' inputs and answers come to at most 24 MiB: a problem whose draw passes that is
/// refused with 409 as soon as it does (it takes programs only).
#[utoipa::path(get, path = "/api/v1/problems/{slug}/instances", tag = "problems",
    params(("slug" = String, Path)),
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = InstanceList), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the instances come to more than 24 MiB")))]
pub(super) async fn instances(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(slug): Path<String>,
) -> JsonResult<InstanceList> {
    let drawn = problems::practice_instances(&state.domain, &user, &slug).await?;
    Ok(Json(InstanceList::of(drawn)))
}
