//! The teachers' pages: problems (upload, variants, export, rejudge), everyone's submissions
//! with filters, and users.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use grundy_problems::VariantRequest;
use grundy_store::{Role, SubmissionQuery, User};
use serde::Deserialize;

use super::student::SubmissionLine;
use super::{Frame, PageError, TeacherPage, local_path, when};
use crate::api::account::hash;
use crate::api::teaching::{publish_package, publish_variant};
use crate::auth::CurrentUser;
use crate::{ApiError, AppState};

#[derive(Debug)]
struct ProblemRow {
    slug: String,
    title: String,
    origin: &'static str,
    version: u32,
    owner: String,
    rejudge_all: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/index.html")]
pub(super) struct IndexPage {
    frame: Frame,
    problems: Vec<ProblemRow>,
    notice: Option<String>,
}

/// What the last action on the teachers' index did. The page words the notice itself from
/// what it can check, so a crafted link cannot put arbitrary text in a trusted green box.
#[derive(Debug, Deserialize)]
pub(super) struct IndexNotice {
    /// A problem just published.
    published: Option<String>,
    /// A problem whose submissions were queued again, and how many.
    requeued: Option<String>,
    count: Option<u64>,
}

impl IndexNotice {
    fn text(&self, state: &AppState) -> Option<String> {
        if let Some(entry) = self
            .published
            .as_deref()
            .and_then(|s| state.problems.get(s))
        {
            let p = &entry.problem;
            return Some(format!(
                "{} is published at version {}",
                p.slug(),
                p.spec.version
            ));
        }
        let entry = self
            .requeued
            .as_deref()
            .and_then(|s| state.problems.get(s))?;
        Some(format!(
            "{} submissions of {} are queued again",
            self.count.unwrap_or(0),
            entry.problem.slug()
        ))
    }
}

/// What the last action on the users page did, checked against the users as they are now.
#[derive(Debug, Deserialize)]
pub(super) struct UsersNotice {
    /// A user created or given a new role.
    role_of: Option<String>,
    /// A user whose password was set.
    password_of: Option<String>,
}

impl UsersNotice {
    fn text(&self, users: &[User]) -> Option<String> {
        let find = |name: &Option<String>| {
            name.as_deref()
                .and_then(|n| users.iter().find(|u| u.name == n))
        };
        if let Some(user) = find(&self.role_of) {
            return Some(format!("{} is a {} now", user.name, user.role.as_str()));
        }
        find(&self.password_of).map(|user| format!("{}'s password is changed", user.name))
    }
}

async fn names(state: &AppState) -> Result<BTreeMap<i64, String>, PageError> {
    Ok(state
        .store
        .users()
        .await?
        .into_iter()
        .map(|u| (u.id, u.name))
        .collect())
}

pub(super) async fn index(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Query(query): Query<IndexNotice>,
) -> Result<Response, PageError> {
    let names = names(&state).await?;
    let problems = state
        .problems
        .list()
        .iter()
        .map(|e| ProblemRow {
            slug: e.problem.slug().to_owned(),
            title: e.problem.title("en").to_owned(),
            origin: e.origin.as_str(),
            version: e.problem.spec.version,
            owner: e
                .owner
                .and_then(|id| names.get(&id).cloned())
                .unwrap_or_default(),
            // What `access::owns_problem` allows, without a query per row.
            rejudge_all: user.role == Role::Admin || e.owner == Some(user.id),
        })
        .collect();
    Ok(IndexPage {
        frame: Frame::new(Some(user), "Teach"),
        problems,
        notice: query.text(&state),
    }
    .into_response())
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/upload.html")]
pub(super) struct UploadPage {
    frame: Frame,
    error: Option<String>,
    max_mib: usize,
}

pub(super) async fn upload_page(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
) -> UploadPage {
    UploadPage {
        frame: Frame::new(Some(user), "Upload a problem"),
        error: None,
        max_mib: state.limits.package_bytes >> 20,
    }
}

pub(super) async fn upload(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    mut form: Multipart,
) -> Result<Response, PageError> {
    let mut package = None;
    let refuse = |state: &AppState, user: User, error: ApiError| {
        let page = UploadPage {
            frame: Frame::new(Some(user), "Upload a problem"),
            error: Some(error.to_string()),
            max_mib: state.limits.package_bytes >> 20,
        };
        Ok((error.status(), page).into_response())
    };
    loop {
        match form.next_field().await {
            Ok(Some(field)) if field.name() == Some("package") => match field.bytes().await {
                Ok(bytes) => package = Some(bytes),
                Err(e) => return refuse(&state, user, upload_error(&e)),
            },
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => return refuse(&state, user, upload_error(&e)),
        }
    }
    let Some(bytes) = package.filter(|b| !b.is_empty()) else {
        return refuse(
            &state,
            user,
            ApiError::BadRequest("choose a .zip file".into()),
        );
    };
    let teacher = CurrentUser(user);
    match publish_package(&state, &teacher, bytes).await {
        Ok(entry) => Ok(Redirect::to(&format!(
            "/teach?published={}",
            super::url_encode(entry.problem.slug())
        ))
        .into_response()),
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(error) => refuse(&state, teacher.0, error),
    }
}

fn upload_error(e: &axum::extract::multipart::MultipartError) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge
    } else {
        ApiError::BadRequest(format!("the form: {}", e.body_text()))
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/variant.html")]
pub(super) struct VariantPage {
    frame: Frame,
    bases: Vec<(String, String)>,
    form: VariantForm,
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct VariantForm {
    #[serde(default)]
    base: String,
    #[serde(default)]
    slug: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    time_limit_ms: String,
    #[serde(default)]
    memory_limit_mib: String,
    #[serde(default)]
    subtasks: String,
}

fn variant_page_for(
    state: &AppState,
    user: User,
    mut form: VariantForm,
    error: Option<String>,
) -> VariantPage {
    let bases: Vec<(String, String)> = state
        .problems
        .list()
        .iter()
        .filter(|e| state.problems.is_builtin(e.problem.slug()) && e.problem.is_family_backed())
        .map(|e| {
            (
                e.problem.slug().to_owned(),
                e.problem.title("en").to_owned(),
            )
        })
        .collect();
    if !bases.iter().any(|(slug, _)| *slug == form.base) {
        form.base = bases.first().map(|b| b.0.clone()).unwrap_or_default();
    }
    // A fresh form starts from the base's own limits and subtasks, to edit.
    if let Some(base) = state.problems.get(&form.base) {
        let spec = &base.problem.spec;
        if form.time_limit_ms.is_empty() {
            form.time_limit_ms = spec.time_limit_ms.to_string();
        }
        if form.memory_limit_mib.is_empty() {
            form.memory_limit_mib = spec.memory_limit_mib.to_string();
        }
        if form.subtasks.trim().is_empty() {
            form.subtasks = serde_json::to_string_pretty(&spec.subtasks).unwrap_or_default();
        }
    }
    VariantPage {
        frame: Frame::new(Some(user), "Create a variant"),
        bases,
        form,
        error,
    }
}

pub(super) async fn variant_page(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Query(form): Query<VariantForm>,
) -> VariantPage {
    variant_page_for(&state, user, form, None)
}

pub(super) async fn create_variant(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Form(form): Form<VariantForm>,
) -> Result<Response, PageError> {
    let request = match variant_request(&form) {
        Ok(request) => request,
        Err(message) => {
            let page = variant_page_for(&state, user, form, Some(message));
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    let Some(base) = state.problems.get(&form.base) else {
        return Err(ApiError::NotFound(format!("problem {:?}", form.base)).into());
    };
    let teacher = CurrentUser(user);
    match publish_variant(&state, &teacher, &base.problem, &request).await {
        Ok(entry) => {
            Ok(Redirect::to(&format!("/problems/{}", entry.problem.slug())).into_response())
        }
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(error) => {
            let status = error.status();
            let page = variant_page_for(&state, teacher.0, form, Some(error.to_string()));
            Ok((status, page).into_response())
        }
    }
}

/// The form's fields as the API's variant request.
fn variant_request(form: &VariantForm) -> Result<VariantRequest, String> {
    let number = |text: &str, what: &str| -> Result<Option<u32>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        text.parse()
            .map(Some)
            .map_err(|_| format!("the {what} is not a whole number"))
    };
    let subtasks = serde_json::from_str(&form.subtasks)
        .map_err(|e| format!("the subtasks are not valid: {e}"))?;
    Ok(VariantRequest {
        slug: form.slug.trim().to_owned(),
        title: BTreeMap::from([("en".to_owned(), form.title.trim().to_owned())]),
        time_limit_ms: number(&form.time_limit_ms, "time limit")?,
        memory_limit_mib: number(&form.memory_limit_mib, "memory limit")?,
        seed: None,
        subtasks,
    })
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct SubmissionFilter {
    problem: Option<String>,
    user: Option<String>,
    verdict: Option<String>,
    before: Option<i64>,
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/submissions.html")]
pub(super) struct SubmissionsPage {
    frame: Frame,
    problems: Vec<String>,
    users: Vec<String>,
    verdicts: Vec<&'static str>,
    problem: String,
    user: String,
    verdict: String,
    submissions: Vec<SubmissionLine>,
    older: Option<String>,
    here: String,
}

const VERDICT_FILTERS: &[&str] = &[
    "accepted",
    "wrong_answer",
    "time_limit",
    "memory_limit",
    "output_limit",
    "runtime_error",
    "compilation_error",
    "security_violation",
    "internal_error",
];

pub(super) async fn submissions(
    State(state): State<AppState>,
    TeacherPage(viewer): TeacherPage,
    Query(filter): Query<SubmissionFilter>,
) -> Result<Response, PageError> {
    let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let (problem, user, verdict) = (
        nonempty(&filter.problem),
        nonempty(&filter.user),
        nonempty(&filter.verdict),
    );
    let users = state.store.users().await?;
    let names: BTreeMap<i64, String> = users.iter().map(|u| (u.id, u.name.clone())).collect();
    let user_id = match &user {
        Some(name) => match users.iter().find(|u| u.name == *name) {
            Some(found) => Some(found.id),
            None => return Err(ApiError::NotFound(format!("user {name:?}")).into()),
        },
        None => None,
    };
    const PAGE: i64 = 50;
    let mut found = state
        .store
        .submissions(&SubmissionQuery {
            user: user_id,
            problem: problem.as_deref(),
            verdict: match verdict.as_deref() {
                None => None,
                Some(text) => Some(
                    grundy_judge::Verdict::parse(text)
                        .ok_or_else(|| ApiError::BadRequest(format!("unknown verdict {text:?}")))?,
                ),
            },
            before: filter.before,
            // One more than shown: whether an older page exists.
            limit: PAGE + 1,
            ..SubmissionQuery::seen_by(&viewer)
        })
        .await?;
    let more = found.len() as i64 > PAGE;
    found.truncate(PAGE as usize);
    let query = |before: Option<i64>| {
        let mut parts = Vec::new();
        for (key, value) in [
            ("problem", &problem),
            ("user", &user),
            ("verdict", &verdict),
        ] {
            if let Some(v) = value {
                parts.push(format!("{key}={}", super::url_encode(v)));
            }
        }
        if let Some(id) = before {
            parts.push(format!("before={id}"));
        }
        format!("/teach/submissions?{}", parts.join("&"))
    };
    let older = more
        .then(|| found.last().map(|s| query(Some(s.id))))
        .flatten();
    Ok(SubmissionsPage {
        frame: Frame::new(Some(viewer), "All submissions"),
        problems: state
            .problems
            .list()
            .iter()
            .map(|e| e.problem.slug().to_owned())
            .collect(),
        users: users.iter().map(|u| u.name.clone()).collect(),
        verdicts: VERDICT_FILTERS.to_vec(),
        submissions: found
            .iter()
            .map(|s| {
                let name = names.get(&s.user_id).map_or("?", String::as_str);
                SubmissionLine::of(s, name)
            })
            .collect(),
        here: query(filter.before),
        problem: problem.unwrap_or_default(),
        user: user.unwrap_or_default(),
        verdict: verdict.unwrap_or_default(),
        older,
    }
    .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct BackForm {
    back: Option<String>,
}

pub(super) async fn rejudge(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Path(id): Path<i64>,
    Form(form): Form<BackForm>,
) -> Result<Response, PageError> {
    crate::api::submissions::visible(&state, &CurrentUser(user), id).await?;
    if !state.store.rejudge(id).await? {
        return Err(ApiError::NotFound(format!("submission {id}")).into());
    }
    state.queued.notify_one();
    Ok(Redirect::to(local_path(form.back.as_deref())).into_response())
}

pub(super) async fn rejudge_problem(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Path(slug): Path<String>,
) -> Result<Response, PageError> {
    if !crate::access::owns_problem(&state, &user, &slug).await? {
        return Err(
            ApiError::Forbidden("only the problem's owner or an admin rejudges all of it").into(),
        );
    }
    let queued = state.store.rejudge_problem(&slug).await?;
    state.queued.notify_waiters();
    Ok(Redirect::to(&format!(
        "/teach?requeued={}&count={queued}",
        super::url_encode(&slug)
    ))
    .into_response())
}

#[derive(Debug)]
struct UserRow {
    id: i64,
    name: String,
    role: &'static str,
    created: String,
    /// Whether the viewer may set this user's password.
    manageable: bool,
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/users.html")]
pub(super) struct UsersPage {
    frame: Frame,
    users: Vec<UserRow>,
    roles: Vec<&'static str>,
    error: Option<String>,
    notice: Option<String>,
}

/// Admins manage everyone; teachers manage students.
fn may_manage(viewer: &User, role: Role) -> bool {
    viewer.role == Role::Admin || (viewer.role == Role::Teacher && role == Role::Student)
}

async fn users_page_for(
    state: &AppState,
    viewer: User,
    error: Option<String>,
    notice: Option<&UsersNotice>,
) -> Result<UsersPage, PageError> {
    let users = state.store.users().await?;
    let notice = notice.and_then(|n| n.text(&users));
    let roles = if viewer.role == Role::Admin {
        vec!["student", "teacher", "admin"]
    } else {
        vec!["student"]
    };
    Ok(UsersPage {
        users: users
            .iter()
            .map(|u| UserRow {
                id: u.id,
                name: u.name.clone(),
                role: u.role.as_str(),
                created: when(u.created_at),
                manageable: may_manage(&viewer, u.role) && u.id != viewer.id,
            })
            .collect(),
        frame: Frame::new(Some(viewer), "Users"),
        roles,
        error,
        notice,
    })
}

pub(super) async fn users(
    State(state): State<AppState>,
    TeacherPage(viewer): TeacherPage,
    Query(query): Query<UsersNotice>,
) -> Result<Response, PageError> {
    Ok(users_page_for(&state, viewer, None, Some(&query))
        .await?
        .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct NewUserForm {
    name: String,
    role: String,
    password: String,
}

pub(super) async fn create_user(
    State(state): State<AppState>,
    TeacherPage(viewer): TeacherPage,
    Form(form): Form<NewUserForm>,
) -> Result<Response, PageError> {
    let Some(role) = Role::parse(&form.role) else {
        return Err(PageError::Api(
            ApiError::BadRequest(format!("unknown role {:?}", form.role)),
            Some(viewer),
        ));
    };
    if !may_manage(&viewer, role) {
        let page = users_page_for(
            &state,
            viewer,
            Some(format!("you may not create a {}", form.role)),
            None,
        )
        .await?;
        return Ok((StatusCode::FORBIDDEN, page).into_response());
    };
    match crate::api::account::add_user(&state, &form.name, role, Some(form.password)).await {
        Ok(created) => {
            tracing::info!(user = %created.name, by = %viewer.name, "user created");
            Ok(Redirect::to(&format!(
                "/teach/users?role_of={}",
                super::url_encode(&created.name)
            ))
            .into_response())
        }
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(error) => {
            let status = error.status();
            let page = users_page_for(&state, viewer, Some(error.to_string()), None).await?;
            Ok((status, page).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct UpdateUserForm {
    role: Option<String>,
    password: Option<String>,
}

/// A new role (admins) or password (for those the viewer manages; ends the user's sessions).
pub(super) async fn update_user(
    State(state): State<AppState>,
    TeacherPage(viewer): TeacherPage,
    Path(id): Path<i64>,
    Form(form): Form<UpdateUserForm>,
) -> Result<Response, PageError> {
    let Some(target) = state.store.user_by_id(id).await? else {
        return Err(ApiError::NotFound(format!("user {id}")).into());
    };
    if !may_manage(&viewer, target.role) || target.id == viewer.id {
        return Err(PageError::Api(
            ApiError::Forbidden("you may not change this user"),
            Some(viewer),
        ));
    }
    let notice = if let Some(role) = form.role.as_deref().filter(|r| !r.is_empty()) {
        let role = Role::parse(role)
            .ok_or_else(|| ApiError::BadRequest(format!("unknown role {role:?}")))?;
        if viewer.role != Role::Admin {
            return Err(ApiError::Forbidden("only admins change roles").into());
        }
        state.store.set_role(id, role).await?;
        format!("role_of={}", super::url_encode(&target.name))
    } else if let Some(password) = form.password.filter(|p| !p.is_empty()) {
        let hashed = match hash(&state, password).await {
            Ok(hashed) => hashed,
            Err(ApiError::Internal(cause)) => return Err(ApiError::Internal(cause).into()),
            Err(error) => {
                let status = error.status();
                let page = users_page_for(&state, viewer, Some(error.to_string()), None).await?;
                return Ok((status, page).into_response());
            }
        };
        state.store.set_password(id, Some(&hashed)).await?;
        state.store.delete_user_sessions(id, None).await?;
        format!("password_of={}", super::url_encode(&target.name))
    } else {
        return Err(ApiError::BadRequest("nothing to change".into()).into());
    };
    tracing::info!(user = %target.name, by = %viewer.name, change = %notice, "user changed");
    Ok(Redirect::to(&format!("/teach/users?{notice}")).into_response())
}
