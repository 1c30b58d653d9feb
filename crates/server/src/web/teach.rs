//! The teachers' pages: problems (upload, variants, export, rejudge), the submissions they may
//! see with filters, and users.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use grundy_judge::Verdict;
use grundy_problems::VariantRequest;
use grundy_problems::families::octal::OctalRequest;
use grundy_store::{Role, User};
use serde::Deserialize;

use super::student::{PAGE_SIZE, SubmissionLine, one_page};
use super::ui::Ui;
use super::{Frame, PageError, TeacherPage, local_path, refused, url_encode, words_for};
use crate::domain::accounts::{self, UserChange};
use crate::domain::submissions::{self, Filter};
use crate::domain::{Error, access, courses, named, problems, teaching};
use crate::registry;
use crate::state::AppState;

#[derive(Debug)]
struct ProblemRow {
    slug: String,
    title: String,
    origin: &'static str,
    version: u32,
    owner: String,
    export: bool,
    rejudge_all: bool,
    /// A draft, seen only by its owner, their co-teachers, admins and its assignments' courses.
    draft: bool,
    publishable: bool,
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
    /// A problem just uploaded (or a new version of it).
    uploaded: Option<String>,
    /// A draft just published.
    published: Option<String>,
    /// A problem whose submissions were queued again, and how many.
    requeued: Option<String>,
    count: Option<u64>,
}

impl IndexNotice {
    async fn text(&self, state: &AppState, user: &User) -> Option<String> {
        let ui = words_for(Some(user));
        let find = async |slug: &Option<String>| match slug.as_deref() {
            Some(slug) => problems::visible(&state.domain, Some(user), slug)
                .await
                .ok(),
            None => None,
        };
        if let Some(entry) = find(&self.uploaded).await {
            let p = &entry.problem;
            return Some((ui.uploaded_notice)(
                p.slug(),
                p.spec.version,
                entry.published,
            ));
        }
        if let Some(entry) = find(&self.published).await
            && entry.published
        {
            return Some((ui.published_notice)(entry.problem.slug()));
        }
        let entry = find(&self.requeued).await?;
        Some((ui.requeued_notice)(
            self.count.unwrap_or(0),
            entry.problem.slug(),
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
    fn text(&self, ui: &Ui, users: &[(User, bool)]) -> Option<String> {
        let find = |name: &Option<String>| {
            name.as_deref()
                .and_then(|n| users.iter().map(|(u, _)| u).find(|u| u.name == n))
        };
        if let Some(user) = find(&self.role_of) {
            return Some((ui.role_now)(&user.name, ui.role(user.role.as_str())));
        }
        find(&self.password_of).map(|user| (ui.password_set_for)(&user.name))
    }
}

pub(super) async fn index(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Query(query): Query<IndexNotice>,
) -> Result<Response, PageError> {
    let ui = words_for(Some(&user));
    let problems = teaching::problems(&state.domain, &user)
        .await?
        .into_iter()
        .map(|listed| {
            let e = &listed.entry;
            ProblemRow {
                slug: e.problem.slug().to_owned(),
                title: e.problem.title(ui.code).to_owned(),
                origin: (ui.origin_name)(e.origin),
                version: e.problem.spec.version,
                owner: listed.owner.unwrap_or_default(),
                export: listed.export,
                rejudge_all: listed.rejudge_all,
                draft: !e.published,
                publishable: listed.publishable,
            }
        })
        .collect();
    let notice = query.text(&state, &user).await;
    Ok(IndexPage {
        frame: Frame::new(Some(user), "").titled(|ui| ui.teach),
        problems,
        notice,
    }
    .into_response())
}

/// Publishes a draft from the teachers' index.
pub(super) async fn publish_problem(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Path(slug): Path<String>,
) -> Result<Response, PageError> {
    teaching::publish(&state.domain, &user, &slug)
        .await
        .map_err(|e| PageError::Refused(e, Some(Box::new(user))))?;
    Ok(Redirect::to(&format!("/teach?published={}", url_encode(&slug))).into_response())
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/upload.html")]
pub(super) struct UploadPage {
    frame: Frame,
    error: Option<String>,
    /// The package limits, in words.
    limits: String,
    /// What the teacher's problems take of their quota, in words.
    usage: String,
    /// The most subtasks, tests and bytes of tests a problem may have, in words.
    caps: String,
}

impl UploadPage {
    async fn new(state: &AppState, user: User, error: Option<String>) -> UploadPage {
        let ui = words_for(Some(&user));
        let mib = |bytes: u64| format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20));
        let usage = match teaching::usage(&state.domain, &user).await {
            Ok(teaching::Usage {
                used_bytes,
                quota_bytes,
            }) => (ui.quota_usage)(&mib(used_bytes), quota_bytes.map(mib).as_deref()),
            Err(_) => String::new(),
        };
        UploadPage {
            frame: Frame::new(Some(user), "").titled(|ui| ui.upload_package),
            error,
            limits: (ui.upload_limits)(
                state.limits.package_bytes >> 20,
                registry::package_limits().max_total_bytes >> 20,
            ),
            usage,
            caps: caps(ui),
        }
    }
}

pub(super) async fn upload_page(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
) -> UploadPage {
    UploadPage::new(&state, user, None).await
}

pub(super) async fn upload(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    mut form: Multipart,
) -> Result<Response, PageError> {
    let refuse = async |user: User, error: Error| {
        let message = words_for(Some(&user)).error(&error);
        let page = UploadPage::new(&state, user, Some(message)).await;
        refused(error, page)
    };
    let mut package = None;
    loop {
        match form.next_field().await {
            Ok(Some(field)) if field.name() == Some("package") => match field.bytes().await {
                Ok(bytes) => package = Some(bytes),
                Err(e) => return refuse(user, upload_error(&e)).await,
            },
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => return refuse(user, upload_error(&e)).await,
        }
    }
    let Some(bytes) = package.filter(|b| !b.is_empty()) else {
        return refuse(user, Error::BadRequest("choose a .zip file".into())).await;
    };
    match teaching::add_package(&state.domain, &user, bytes).await {
        Ok(entry) => Ok(Redirect::to(&format!(
            "/teach?uploaded={}",
            url_encode(entry.problem.slug())
        ))
        .into_response()),
        Err(error) => refuse(user, error).await,
    }
}

fn upload_error(e: &axum::extract::multipart::MultipartError) -> Error {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Error::TooLarge
    } else {
        Error::BadRequest(format!("the form: {}", e.body_text()))
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/variant.html")]
pub(super) struct VariantPage {
    frame: Frame,
    bases: Vec<(String, String)>,
    form: VariantForm,
    error: Option<String>,
    /// The most subtasks, tests and bytes of tests a problem may have, in words.
    caps: String,
}

/// The caps on a problem's subtasks and tests, in the reader's words.
fn caps(ui: &Ui) -> String {
    use grundy_problems::spec::{MAX_SUBTASKS, MAX_TEST_BYTES, MAX_TESTS};
    (ui.problem_caps)(MAX_SUBTASKS, MAX_TESTS, MAX_TEST_BYTES >> 20)
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
    let ui = words_for(Some(&user));
    let code = ui.code;
    let bases: Vec<(String, String)> = teaching::variant_bases(&state.domain)
        .iter()
        .map(|e| {
            (
                e.problem.slug().to_owned(),
                e.problem.title(code).to_owned(),
            )
        })
        .collect();
    if !bases.iter().any(|(slug, _)| *slug == form.base) {
        form.base = bases.first().map(|b| b.0.clone()).unwrap_or_default();
    }
    // A fresh form starts from the base's own limits and subtasks, to edit.
    if let Ok(base) = problems::find(&state.domain, &form.base) {
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
        caps: caps(ui),
        frame: Frame::new(Some(user), "").titled(|ui| ui.create_variant),
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
    problems::visible(&state.domain, Some(&user), &form.base).await?;
    match teaching::add_variant(&state.domain, &user, &form.base, &request).await {
        Ok(entry) => {
            Ok(Redirect::to(&format!("/problems/{}", entry.problem.slug())).into_response())
        }
        Err(error) => {
            let message = words_for(Some(&user)).error(&error);
            refused(error, variant_page_for(&state, user, form, Some(message)))
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/games.html")]
pub(super) struct GamesPage {
    frame: Frame,
    form: GameForm,
    error: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct GameForm {
    #[serde(default)]
    slug: String,
    #[serde(default)]
    title_en: String,
    #[serde(default)]
    title_vi: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    upto: String,
}

fn games_page_for(user: User, form: GameForm, error: Option<String>) -> GamesPage {
    GamesPage {
        frame: Frame::new(Some(user), "").titled(|ui| ui.game_from_code),
        form,
        error,
    }
}

pub(super) async fn games_page(
    TeacherPage(user): TeacherPage,
    Query(form): Query<GameForm>,
) -> GamesPage {
    games_page_for(user, form, None)
}

pub(super) async fn create_game(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Form(form): Form<GameForm>,
) -> Result<Response, PageError> {
    let upto = match form.upto.trim() {
        "" => None,
        text => match text.parse() {
            Ok(upto) => Some(upto),
            Err(_) => {
                let message = words_for(Some(&user)).range_not_a_number.to_owned();
                let page = games_page_for(user, form, Some(message));
                return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
            }
        },
    };
    let mut title = BTreeMap::from([("en".to_owned(), form.title_en.trim().to_owned())]);
    if !form.title_vi.trim().is_empty() {
        title.insert("vi".to_owned(), form.title_vi.trim().to_owned());
    }
    let request = OctalRequest {
        slug: form.slug.trim().to_owned(),
        title,
        code: form.code.trim().to_owned(),
        upto,
        seed: rand::random(),
    };
    match teaching::add_octal(&state.domain, &user, request).await {
        Ok(entry) => {
            Ok(Redirect::to(&format!("/problems/{}", entry.problem.slug())).into_response())
        }
        Err(error) => {
            let message = words_for(Some(&user)).error(&error);
            refused(error, games_page_for(user, form, Some(message)))
        }
    }
}

/// The form's fields as a variant request.
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
    /// A course's id, or empty for any.
    course: Option<String>,
    /// An assignment's id, or empty for any.
    assignment: Option<String>,
    before: Option<i64>,
}

/// A course the viewer teaches and its assignments, as the filter offers them.
struct CourseChoice {
    id: i64,
    title: String,
    chosen: bool,
    /// (id, title, chosen).
    assignments: Vec<(i64, String, bool)>,
}

#[derive(Template, WebTemplate)]
#[template(path = "teach/submissions.html")]
pub(super) struct SubmissionsPage {
    frame: Frame,
    /// (slug, title in the reader's language).
    problems: Vec<(String, String)>,
    users: Vec<String>,
    courses: Vec<CourseChoice>,
    /// Every final verdict, and whether it is the one filtered by.
    verdicts: Vec<(Verdict, bool)>,
    problem: String,
    user: String,
    submissions: Vec<SubmissionLine>,
    older: Option<String>,
    here: String,
}

pub(super) async fn submissions(
    State(state): State<AppState>,
    TeacherPage(viewer): TeacherPage,
    Query(filter): Query<SubmissionFilter>,
) -> Result<Response, PageError> {
    let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let (problem, user, verdict_text) = (
        nonempty(&filter.problem),
        nonempty(&filter.user),
        nonempty(&filter.verdict),
    );
    let verdict = verdict_text.as_deref().map(named::verdict).transpose()?;
    let id = |text: &Option<String>, what: &str| -> Result<Option<i64>, Error> {
        match nonempty(text) {
            None => Ok(None),
            Some(t) => t
                .parse()
                .map(Some)
                .map_err(|_| Error::BadRequest(format!("{what}: not a number"))),
        }
    };
    let (course, assignment) = (
        id(&filter.course, "course")?,
        id(&filter.assignment, "assignment")?,
    );
    let courses: Vec<CourseChoice> = courses::taught_assignments(&state.domain, &viewer)
        .await?
        .into_iter()
        .map(|(c, assignments)| CourseChoice {
            chosen: Some(c.id) == course,
            id: c.id,
            title: c.title,
            assignments: assignments
                .into_iter()
                .map(|a| (a.id, a.spec.title, Some(a.id) == assignment))
                .collect(),
        })
        .collect();
    let users = accounts::users(&state.domain, &viewer).await?;
    let author = match &user {
        Some(name) => match users
            .iter()
            .find(|(u, _)| u.name.to_lowercase() == name.to_lowercase())
        {
            Some((found, _)) => Some(found.id),
            None => return Err(Error::NotFound(format!("user {name:?}")).into()),
        },
        None => None,
    };
    let found = submissions::list(
        &state.domain,
        &viewer,
        &Filter {
            author,
            problem: problem.clone(),
            verdict,
            before: filter.before,
            assignment,
            course,
            // One more than shown: whether an older page exists.
            limit: Some(PAGE_SIZE + 1),
        },
    )
    .await?;
    let (found, older) = one_page(found);
    // Authors by id: a student who has left the course still wrote what its teachers see.
    let authors: Vec<i64> = found.iter().map(|s| s.user_id).collect();
    let names = accounts::names(&state.domain, &authors).await?;
    let query = |before: Option<i64>| {
        let mut parts = Vec::new();
        let (course, assignment) = (
            course.map(|c| c.to_string()),
            assignment.map(|a| a.to_string()),
        );
        for (key, value) in [
            ("problem", &problem),
            ("user", &user),
            ("verdict", &verdict_text),
            ("course", &course),
            ("assignment", &assignment),
        ] {
            if let Some(v) = value {
                parts.push(format!("{key}={}", url_encode(v)));
            }
        }
        if let Some(id) = before {
            parts.push(format!("before={id}"));
        }
        format!("/teach/submissions?{}", parts.join("&"))
    };
    let older = older.map(|id| query(Some(id)));
    let code = words_for(Some(&viewer)).code;
    Ok(SubmissionsPage {
        problems: problems::list(&state.domain, Some(&viewer), None)
            .await?
            .iter()
            .map(|e| {
                (
                    e.problem.slug().to_owned(),
                    e.problem.title(code).to_owned(),
                )
            })
            .collect(),
        courses,
        users: users.iter().map(|(u, _)| u.name.clone()).collect(),
        // A submission is never judged "skipped": only its tests are.
        verdicts: Verdict::ALL
            .into_iter()
            .filter(|v| *v != Verdict::Skipped)
            .map(|v| (v, Some(v) == verdict))
            .collect(),
        submissions: found
            .iter()
            .map(|s| {
                let name = names.get(&s.user_id).map_or("?", String::as_str);
                SubmissionLine::of(&state, words_for(Some(&viewer)), s, name)
            })
            .collect(),
        here: query(filter.before),
        problem: problem.unwrap_or_default(),
        user: user.unwrap_or_default(),
        older,
        frame: Frame::new(Some(viewer), "").titled(|ui| ui.all_submissions),
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
    teaching::rejudge(&state.domain, &user, id).await?;
    Ok(Redirect::to(local_path(form.back.as_deref())).into_response())
}

pub(super) async fn rejudge_problem(
    State(state): State<AppState>,
    TeacherPage(user): TeacherPage,
    Path(slug): Path<String>,
) -> Result<Response, PageError> {
    let queued = teaching::rejudge_problem(&state.domain, &user, &slug)
        .await
        .map_err(|e| PageError::Refused(e, Some(Box::new(user))))?;
    Ok(Redirect::to(&format!(
        "/teach?requeued={}&count={queued}",
        url_encode(&slug)
    ))
    .into_response())
}

#[derive(Debug)]
struct UserRow {
    id: i64,
    name: String,
    role: &'static str,
    created: i64,
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

async fn users_page_for(
    state: &AppState,
    viewer: User,
    error: Option<String>,
    notice: Option<&UsersNotice>,
) -> Result<UsersPage, PageError> {
    let users = accounts::users(&state.domain, &viewer).await?;
    let notice = notice.and_then(|n| n.text(words_for(Some(&viewer)), &users));
    Ok(UsersPage {
        users: users
            .iter()
            .map(|(u, manageable)| UserRow {
                id: u.id,
                name: u.name.clone(),
                role: u.role.as_str(),
                created: u.created_at,
                manageable: *manageable,
            })
            .collect(),
        roles: access::creatable_roles(&viewer)
            .into_iter()
            .map(Role::as_str)
            .collect(),
        frame: Frame::new(Some(viewer), "").titled(|ui| ui.users),
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
    let role = match named::role(&form.role) {
        Ok(role) => role,
        Err(refused) => return Err(PageError::Refused(refused, Some(Box::new(viewer)))),
    };
    match accounts::create_user(
        &state.domain,
        &viewer,
        &form.name,
        role,
        Some(form.password),
    )
    .await
    {
        Ok(created) => Ok(Redirect::to(&format!(
            "/teach/users?role_of={}",
            url_encode(&created.name)
        ))
        .into_response()),
        Err(error) => {
            let message = words_for(Some(&viewer)).error(&error);
            let page = users_page_for(&state, viewer, Some(message), None).await?;
            refused(error, page)
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
    let change = if let Some(role) = form.role.as_deref().filter(|r| !r.is_empty()) {
        UserChange::Role(named::role(role)?)
    } else if let Some(password) = form.password.filter(|p| !p.is_empty()) {
        UserChange::Password(password)
    } else {
        return Err(Error::BadRequest("nothing to change".into()).into());
    };
    let notice = match &change {
        UserChange::Role(_) => "role_of",
        UserChange::Password(_) => "password_of",
    };
    match accounts::change_user(&state.domain, &viewer, id, change).await {
        Ok(changed) => Ok(Redirect::to(&format!(
            "/teach/users?{notice}={}",
            url_encode(&changed.name)
        ))
        .into_response()),
        // A password refused for its length is said on the page, with the form.
        Err(error @ Error::BadRequest(_)) => {
            let message = words_for(Some(&viewer)).error(&error);
            let page = users_page_for(&state, viewer, Some(message), None).await?;
            refused(error, page)
        }
        Err(error) => Err(PageError::Refused(error, Some(Box::new(viewer)))),
    }
}
