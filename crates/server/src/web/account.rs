//! Logging in and out, and registering as the operator allows.

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::http::header::SET_COOKIE;
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::{Frame, PageError, Visitor, local_path, refusal, refused};
use crate::domain::{Error, Registration, accounts};
use crate::http::auth;
use crate::http::client::Client;
use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub(super) struct NextQuery {
    next: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
pub(super) struct LoginPage {
    frame: Frame,
    next: String,
    name: String,
    error: Option<String>,
    can_register: bool,
}

fn can_register(state: &AppState) -> bool {
    state.domain.policy.registration != Registration::Closed
}

pub(super) async fn login_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Query(query): Query<NextQuery>,
) -> LoginPage {
    LoginPage {
        frame: Frame::new(user, "Log in"),
        next: local_path(query.next.as_deref()).to_owned(),
        name: String::new(),
        error: None,
        can_register: can_register(&state),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct LoginForm {
    name: String,
    password: String,
    next: Option<String>,
}

/// Sets the new session's cookie and goes where the visitor was headed.
fn signed_in(state: &AppState, client: &Client, secret: &str, next: &str) -> Response {
    (
        AppendHeaders([(
            SET_COOKIE,
            auth::session_cookie(secret, client.secure_cookies(&state.limits)),
        )]),
        Redirect::to(next),
    )
        .into_response()
}

/// Signs in, or shows the form again: a wrong name or password, or after too many of them a
/// wait (429 with `Retry-After`).
pub(super) async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    let next = local_path(form.next.as_deref()).to_owned();
    let previous = auth::session_secret(&headers);
    let signed_in_now = state
        .throttle
        .guard(
            &form.name,
            client.address,
            accounts::log_in(
                &state.domain,
                &form.name,
                &form.password,
                previous.as_deref(),
            ),
        )
        .await;
    match signed_in_now {
        Ok(session) => Ok(signed_in(&state, &client, &session.secret, &next)),
        Err(refused @ (Error::BadLogin | Error::Throttled { .. })) => {
            let page = LoginPage {
                frame: Frame::new(None, "Log in"),
                next,
                name: form.name,
                error: Some(refused.to_string()),
                can_register: can_register(&state),
            };
            Ok(refusal(&refused, page))
        }
        Err(other) => Err(other.into()),
    }
}

pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    if let Some(secret) = auth::session_secret(&headers) {
        accounts::log_out(&state.domain, &secret).await?;
    }
    Ok((
        AppendHeaders([(SET_COOKIE, auth::expired_cookie())]),
        Redirect::to("/problems"),
    )
        .into_response())
}

#[derive(Template, WebTemplate)]
#[template(path = "register.html")]
pub(super) struct RegisterPage {
    frame: Frame,
    open: bool,
    needs_code: bool,
    name: String,
    error: Option<String>,
}

fn register_page_for(
    state: &AppState,
    user: Option<grundy_store::User>,
    name: String,
    error: Option<String>,
) -> RegisterPage {
    RegisterPage {
        frame: Frame::new(user, "Register"),
        open: can_register(state),
        needs_code: matches!(
            state.domain.policy.registration,
            Registration::Invitation(_)
        ),
        name,
        error,
    }
}

pub(super) async fn register_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
) -> RegisterPage {
    register_page_for(&state, user, String::new(), None)
}

#[derive(Debug, Deserialize)]
pub(super) struct RegisterForm {
    name: String,
    password: String,
    code: Option<String>,
}

/// A new student account, signed in at once. Whether the name is taken is said only when
/// everything else in the form is right, and every refusal counts as a failure for the name and
/// the address, so names cannot be tried in bulk to learn which exist.
pub(super) async fn register(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Result<Response, PageError> {
    let previous = auth::session_secret(&headers);
    let registered = state
        .throttle
        .guard(
            &form.name,
            client.address,
            accounts::register(
                &state.domain,
                &form.name,
                form.password,
                form.code.as_deref(),
                previous.as_deref(),
            ),
        )
        .await;
    match registered {
        Ok(session) => Ok(signed_in(&state, &client, &session.secret, "/problems")),
        Err(error) => {
            let message = error.to_string();
            refused(
                error,
                register_page_for(&state, None, form.name, Some(message)),
            )
        }
    }
}
