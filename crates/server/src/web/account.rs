//! Logging in and out, and registering as the operator allows.

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use grundy_store::Role;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{Frame, PageError, Registration, Visitor, local_path};
use crate::api::account::add_user;
use crate::{ApiError, AppState, auth, now_ms};

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
        can_register: state.limits.registration != Registration::Closed,
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct LoginForm {
    name: String,
    password: String,
    next: Option<String>,
}

/// Starts a session (a new one, whatever cookie came in) and goes where the visitor was headed.
async fn sign_in(
    state: &AppState,
    headers: &HeaderMap,
    user_id: i64,
    next: &str,
) -> Result<Response, PageError> {
    let previous = auth::session_secret(headers);
    let secret = auth::start_session(&state.store, user_id, previous.as_deref()).await?;
    state.store.delete_expired_sessions(now_ms()).await?;
    Ok((
        AppendHeaders([(
            SET_COOKIE,
            auth::session_cookie(&secret, state.limits.secure_cookies),
        )]),
        Redirect::to(next),
    )
        .into_response())
}

pub(super) async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    let next = local_path(form.next.as_deref()).to_owned();
    match auth::check_login(&state, &form.name, &form.password).await? {
        Some(user) => sign_in(&state, &headers, user.id, &next).await,
        None => {
            let page = LoginPage {
                frame: Frame::new(None, "Log in"),
                next,
                name: form.name,
                error: Some(ApiError::BadLogin.to_string()),
                can_register: state.limits.registration != Registration::Closed,
            };
            Ok((StatusCode::UNAUTHORIZED, page).into_response())
        }
    }
}

pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    if let Some(secret) = auth::session_secret(&headers) {
        auth::end_session(&state.store, &secret).await?;
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
        open: state.limits.registration != Registration::Closed,
        needs_code: matches!(state.limits.registration, Registration::Invitation(_)),
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

/// Compared as digests so the time taken says nothing about how much of a guess was right.
fn same_code(given: &str, expected: &str) -> bool {
    Sha256::digest(given.trim().as_bytes()) == Sha256::digest(expected.as_bytes())
}

/// A new student account, signed in at once.
pub(super) async fn register(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Result<Response, PageError> {
    let refused = match &state.limits.registration {
        Registration::Closed => Some("registration is closed".to_owned()),
        Registration::Open => None,
        Registration::Invitation(code) => (!same_code(form.code.as_deref().unwrap_or(""), code))
            .then(|| "the invitation code is not right".to_owned()),
    };
    if let Some(reason) = refused {
        let page = register_page_for(&state, None, form.name, Some(reason));
        return Ok((StatusCode::FORBIDDEN, page).into_response());
    }
    match add_user(&state, &form.name, Role::Student, Some(form.password)).await {
        Ok(user) => {
            tracing::info!(user = %user.name, "registered");
            sign_in(&state, &headers, user.id, "/problems").await
        }
        Err(ApiError::Internal(cause)) => Err(ApiError::Internal(cause).into()),
        Err(refused) => {
            let status = refused.status();
            let page = register_page_for(&state, None, form.name, Some(refused.to_string()));
            Ok((status, page).into_response())
        }
    }
}
