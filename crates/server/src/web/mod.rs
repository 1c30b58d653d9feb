//! Server-rendered pages for students and teachers: the problem list, statements with math
//! rendered to MathML, submit forms for programs and answers, live submission pages, logins and
//! registration, and the teachers' pages under `/teach`.
//!
//! Every page reads without JavaScript. Scripts only add: copy buttons, live test rows over SSE
//! (`/api/v1/submissions/{id}/events`), and htmx filters that swap a table without a reload.
//! The pages and the API call the same operations (`domain`), so their rules (validation, rate
//! limits, permissions) are the same.

mod account;
mod courses;
mod play;
mod student;
mod teach;
pub mod ui;

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, OriginalUri, Path};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use grundy_store::User;
use tower_http::timeout::TimeoutLayer;

use crate::domain::{Error, access};
use crate::http::{self, auth};
use crate::locale;
use crate::locale::Locale;
use crate::state::{AppState, HttpLimits};
use crate::zone::{Moment, Stamp, Zone};
use ui::Ui;

pub(crate) fn routes(limits: HttpLimits) -> Router<AppState> {
    let pages = Router::new()
        .route("/", get(student::problem_list))
        .route("/problems", get(student::problem_list))
        // The form posts to the page's own address, so that a refusal is shown there; the
        // older `/submit` address stays for scripts and pages already open.
        .route(
            "/problems/{slug}",
            get(student::problem_page).post(student::submit_program),
        )
        .route("/problems/{slug}/submit", post(student::submit_program))
        .route(
            "/problems/{slug}/answers",
            get(student::answers_page).post(student::submit_answers),
        )
        .route("/play/{slug}", get(play::play_page))
        .route("/submissions", get(student::my_submissions))
        .route("/submissions/{id}", get(student::submission_page))
        .route("/login", get(account::login_page).post(account::login))
        .route("/logout", post(account::logout))
        .route("/account", get(account::account_page))
        .route("/account/password", post(account::change_password))
        .route("/account/language", post(account::set_preference))
        .route("/account/zone", post(account::set_time_zone))
        .route("/language", post(account::switch_language))
        .route("/account/tokens", post(account::create_token))
        .route("/account/tokens/{id}/revoke", post(account::revoke_token))
        .route(
            "/register",
            get(account::register_page).post(account::register),
        )
        .route("/courses", get(courses::list).post(courses::create))
        .route("/courses/join", post(courses::join))
        .route("/courses/{id}", get(courses::course))
        .route("/courses/{id}/members", post(courses::import))
        .route(
            "/courses/{id}/invitations/{user}/withdraw",
            post(courses::withdraw_invitation),
        )
        .route("/invitations/{id}/accept", post(courses::accept_invitation))
        .route(
            "/invitations/{id}/decline",
            post(courses::decline_invitation),
        )
        .route(
            "/courses/{id}/members/{user}/remove",
            get(courses::confirm_remove_member).post(courses::remove_member),
        )
        .route(
            "/courses/{id}/assignments/new",
            get(courses::new_assignment),
        )
        .route(
            "/courses/{id}/assignments",
            post(courses::create_assignment),
        )
        .route("/assignments/{id}", get(courses::assignment))
        .route("/assignments/{id}/extensions", post(courses::extend))
        .route(
            "/assignments/{id}/edit",
            get(courses::edit_assignment).post(courses::update_assignment),
        )
        .route(
            "/assignments/{id}/delete",
            get(courses::confirm_delete_assignment).post(courses::delete_assignment),
        )
        .route(
            "/assignments/{id}/students/{user}/problems/{slug}",
            get(courses::instances),
        )
        .route(
            "/assignments/{id}/students/{user}/problems/{slug}/regenerate",
            post(courses::regenerate),
        )
        .route(
            "/assignments/{id}/students/{user}/problems/{slug}/pin",
            post(courses::pin),
        )
        .route("/teach", get(teach::index))
        .route(
            "/teach/games",
            get(teach::games_page).post(teach::create_game),
        )
        .route(
            "/teach/variants",
            get(teach::variant_page).post(teach::create_variant),
        )
        .route("/teach/submissions", get(teach::submissions))
        .route("/teach/submissions/{id}/rejudge", post(teach::rejudge))
        .route(
            "/teach/problems/{slug}/rejudge",
            post(teach::rejudge_problem),
        )
        .route(
            "/teach/problems/{slug}/publish",
            post(teach::publish_problem),
        )
        .route("/teach/users", get(teach::users).post(teach::create_user))
        .route("/teach/users/{id}", post(teach::update_user))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout,
        ))
        .layer(DefaultBodyLimit::max(limits.body_bytes));
    let uploads = Router::new()
        .route("/teach/upload", get(teach::upload_page).post(teach::upload))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout * 4,
        ))
        .layer(DefaultBodyLimit::max(limits.package_bytes));
    let assets = Router::new()
        .route("/assets/{file}", get(asset))
        .route("/assets/font/{file}", get(font))
        .route(
            "/favicon.ico",
            get(|| async { Redirect::permanent("/assets/favicon.svg") }),
        );
    pages
        .merge(uploads)
        // Pages show private things (sources, everyone's results): a shared classroom computer
        // must not show them again from its cache after a logout.
        .layer(axum::middleware::map_response(no_store))
        .merge(assets)
}

async fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What every page shows around its content: the words, the signed-in user, the title.
#[derive(Debug)]
pub(crate) struct Frame {
    pub ui: &'static Ui,
    /// The page's own address, which the language switch returns to.
    pub path: String,
    pub user: Option<User>,
    pub title: String,
    /// False on error pages that do not know who is asking: they show no account links
    /// rather than a wrong "Log in".
    pub account_shown: bool,
    /// The zone the account reads times in; `None`: the browser's (UTC without JavaScript).
    pub zone: Option<Zone>,
}

impl Frame {
    pub fn new(user: Option<User>, title: impl Into<String>) -> Frame {
        Frame {
            ui: Ui::of(locale::for_caller(user.as_ref())),
            path: locale::current_path(),
            // A stored name the database no longer knows reads as no choice.
            zone: user.as_ref().and_then(Zone::of_account),
            user,
            title: title.into(),
            account_shown: true,
        }
    }

    /// The frame with a title from its own table.
    pub fn titled(mut self, title: impl FnOnce(&'static Ui) -> &'static str) -> Frame {
        self.title = title(self.ui).to_owned();
        self
    }

    /// A stored moment as this page's reader reads it: a whole `<time>` element.
    pub fn at(&self, ms: impl Stamp) -> Moment<'_> {
        Moment {
            ms: ms.ms(),
            zone: self.zone.as_ref(),
            locale: Locale::parse(self.ui.code).unwrap_or_default(),
        }
    }

    /// The zone a deadline form starts in: the account's, else UTC (which `grundy.js` replaces
    /// with the browser's when the account names none).
    pub fn entry_zone(&self) -> Zone {
        self.zone.clone().unwrap_or_else(Zone::utc)
    }

    pub fn is_teacher(&self) -> bool {
        self.user.as_ref().is_some_and(access::is_teacher)
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(access::is_admin)
    }

    /// The languages the switch offers: (code, name in itself, whether it is this page's).
    pub fn locales(&self) -> Vec<(&'static str, &'static str, bool)> {
        Locale::ALL
            .into_iter()
            .map(|l| (l.code(), l.name(), l.code() == self.ui.code))
            .collect()
    }
}

/// The words for `user`, in the language they read.
pub(crate) fn words_for(user: Option<&User>) -> &'static Ui {
    Ui::of(locale::for_caller(user))
}

/// The visitor, signed in or not (a session cookie or a bearer token).
#[derive(Debug)]
pub(crate) struct Visitor(pub Option<User>);

impl FromRequestParts<AppState> for Visitor {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        match auth::caller(parts, &state.domain).await {
            Ok(user) => Ok(Visitor(user)),
            Err(Error::Unauthorized) => Ok(Visitor(None)),
            Err(other) => Err(other.into()),
        }
    }
}

/// A signed-in visitor; anyone else is sent to the login page and brought back after.
#[derive(Debug)]
pub(crate) struct SignedIn(pub User);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        match Visitor::from_request_parts(parts, state).await? {
            Visitor(Some(user)) => Ok(SignedIn(user)),
            Visitor(None) => {
                let uri = parts
                    .extensions
                    .get::<OriginalUri>()
                    .map_or_else(|| parts.uri.clone(), |o| o.0.clone());
                let back = if parts.method == axum::http::Method::GET {
                    uri.path_and_query().map_or("/", |p| p.as_str()).to_owned()
                } else {
                    page_of_form(uri.path()).to_owned()
                };
                Err(PageError::LogIn { next: back })
            }
        }
    }
}

/// The page a form is posted from, to return to after logging in: the problem for its submit
/// form, the teachers' index for a rejudge button, the address itself for the rest (their GET
/// shows the form).
fn page_of_form(path: &str) -> &str {
    if let Some(problem) = path.strip_suffix("/submit") {
        problem
    } else if path.ends_with("/rejudge") {
        "/teach"
    } else if path.starts_with("/teach/users/") {
        "/teach/users"
    } else if path == "/courses/join" {
        "/courses"
    } else if path.starts_with("/account/") {
        "/account"
    } else if let Some(page) = path
        .strip_suffix("/extensions")
        .or_else(|| path.strip_suffix("/regenerate"))
        .or_else(|| path.strip_suffix("/pin"))
        .or_else(|| path.strip_suffix("/assignments"))
    {
        page
    } else if let Some((course, _)) = path.split_once("/members") {
        course
    } else {
        path
    }
}

/// A teacher or admin, checked before any body is read.
#[derive(Debug)]
pub(crate) struct TeacherPage(pub User);

impl FromRequestParts<AppState> for TeacherPage {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        let SignedIn(user) = SignedIn::from_request_parts(parts, state).await?;
        if access::is_teacher(&user) {
            Ok(TeacherPage(user))
        } else {
            Err(PageError::Refused(
                Error::Forbidden("these pages are for teachers and admins"),
                Some(Box::new(user)),
            ))
        }
    }
}

/// A page that could not be shown: an HTML error page with the refusal's message, or, for
/// someone not signed in, the login page.
#[derive(Debug)]
pub(crate) enum PageError {
    /// The user is boxed: a `Result` with this error stays small.
    Refused(Error, Option<Box<User>>),
    LogIn {
        next: String,
    },
}

impl From<Error> for PageError {
    fn from(e: Error) -> Self {
        PageError::Refused(e, None)
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
    frame: Frame,
    status: u16,
    message: String,
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::LogIn { next } => {
                Redirect::to(&format!("/login?next={}", url_encode(&next))).into_response()
            }
            PageError::Refused(error, user) => {
                http::log_internal(&error);
                let user = user.map(|u| *u);
                let message = words_for(user.as_ref()).error(&error);
                error_page(http::status(&error), message, user)
            }
        }
    }
}

/// A form shown again with why it was refused, with the refusal's status and headers.
pub(crate) fn refusal(error: &Error, page: impl IntoResponse) -> Response {
    http::with_retry_after(error, (http::status(error), page).into_response())
}

/// A refused form shown again with its reason, or an error page when the service failed.
pub(crate) fn refused(error: Error, page: impl IntoResponse) -> Result<Response, PageError> {
    match error {
        Error::Internal(cause) => Err(Error::Internal(cause).into()),
        other => Ok(refusal(&other, page)),
    }
}

/// An error page; without the user (`None`), its header shows no account links.
pub(crate) fn error_page(status: StatusCode, message: String, user: Option<User>) -> Response {
    let mut frame = Frame::new(user, "");
    frame.title = if status == StatusCode::NOT_FOUND {
        frame.ui.not_found
    } else {
        frame.ui.error_title
    }
    .to_owned();
    frame.account_shown = frame.user.is_some();
    let page = ErrorPage {
        frame,
        status: status.as_u16(),
        message,
    };
    (status, page).into_response()
}

/// The router's own "not found" for a page address.
pub(crate) fn not_found(Visitor(user): Visitor) -> Response {
    let mut frame = Frame::new(user, "");
    frame.title = frame.ui.not_found.to_owned();
    let page = ErrorPage {
        message: frame.ui.no_page_here.to_owned(),
        frame,
        status: 404,
    };
    (StatusCode::NOT_FOUND, page).into_response()
}

/// Scripts and styles, compiled in: nothing is fetched from elsewhere.
async fn asset(Path(file): Path<String>) -> Response {
    let (body, content_type): (&'static [u8], &str) = match file.as_str() {
        "htmx.min.js" => (
            include_bytes!("../../assets/htmx.min.js"),
            "text/javascript",
        ),
        "grundy.js" => (include_bytes!("../../assets/grundy.js"), "text/javascript"),
        "grundy.css" => (include_bytes!("../../assets/grundy.css"), "text/css"),
        "favicon.svg" => (include_bytes!("../../assets/favicon.svg"), "image/svg+xml"),
        "statement.css" => (
            grundy_statement::STYLESHEET.as_bytes(),
            "text/css; charset=utf-8",
        ),
        _ => return error_page(StatusCode::NOT_FOUND, format!("no asset {file:?}"), None),
    };
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_str(content_type).expect("a MIME type"),
            ),
            (
                CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        body,
    )
        .into_response()
}

/// The statement stylesheet's math and text fonts.
async fn font(Path(file): Path<String>) -> Response {
    match grundy_statement::FONTS
        .iter()
        .find(|(name, _)| *name == file)
    {
        Some((_, bytes)) => (
            [
                (CONTENT_TYPE, HeaderValue::from_static("font/woff2")),
                (
                    CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=86400"),
                ),
            ],
            *bytes,
        )
            .into_response(),
        None => error_page(StatusCode::NOT_FOUND, format!("no font {file:?}"), None),
    }
}

/// Where to go after a form: only a path on this site (never `//elsewhere` or a full URL).
pub(crate) fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path.contains('\\')
                && !path.chars().any(char::is_control) =>
        {
            path
        }
        _ => "/problems",
    }
}

/// A query value: everything but unreserved characters and `/` escaped (paths stay readable).
const QUERY_VALUE: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/');

fn url_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, QUERY_VALUE).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_paths_are_followed_after_a_form() {
        assert_eq!(
            local_path(Some("/problems/stones?lang=vi")),
            "/problems/stones?lang=vi"
        );
        for hostile in [
            "//evil.example/",
            "https://evil.example/",
            "/\\evil.example",
            "/a\nb",
        ] {
            assert_eq!(local_path(Some(hostile)), "/problems", "{hostile:?}");
        }
        assert_eq!(local_path(None), "/problems");
    }

    #[test]
    fn a_form_posted_while_signed_out_returns_to_its_page() {
        assert_eq!(page_of_form("/problems/stones/submit"), "/problems/stones");
        assert_eq!(
            page_of_form("/problems/stones/answers"),
            "/problems/stones/answers"
        );
        assert_eq!(page_of_form("/teach/submissions/7/rejudge"), "/teach");
        assert_eq!(page_of_form("/courses/join"), "/courses");
        assert_eq!(page_of_form("/courses/3/members/9/remove"), "/courses/3");
        assert_eq!(page_of_form("/courses/3/members"), "/courses/3");
        assert_eq!(page_of_form("/courses/3/assignments"), "/courses/3");
        assert_eq!(page_of_form("/assignments/4/extensions"), "/assignments/4");
        assert_eq!(
            page_of_form("/assignments/4/students/9/problems/nim/pin"),
            "/assignments/4/students/9/problems/nim"
        );
        assert_eq!(page_of_form("/teach/users/3"), "/teach/users");
    }

    #[test]
    fn query_values_are_escaped_but_paths_stay_readable() {
        assert_eq!(url_encode("/problems/stones"), "/problems/stones");
        assert_eq!(url_encode("a b&c=d?é"), "a%20b%26c%3Dd%3F%C3%A9");
    }
}
