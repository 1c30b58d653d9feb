//! Logins and sessions, the caller's account, API tokens, users (admins).

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse};
use grundy_store::Role;

use super::views::{
    ErrorBody, LoginBody, NewTokenBody, NewUserBody, PasswordBody, TokenCreated, UserView,
};
use crate::auth::{self, CurrentUser};
use crate::error::rejection;
use crate::{ApiError, AppState, now_ms};

pub(crate) async fn hash(state: &AppState, password: String) -> Result<String, ApiError> {
    let _permit = state
        .hashing
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|e| ApiError::Internal(format!("password hashing: {e}")))?
        .map_err(|e| match e {
            auth::PasswordError::Hash(cause) => ApiError::Internal(cause),
            other => ApiError::BadRequest(other.to_string()),
        })
}

/// Signs in with a name and password and sets the session cookie (a new session each time).
#[utoipa::path(post, path = "/api/v1/login", tag = "accounts", request_body = LoginBody,
    responses((status = 200, body = UserView,
            headers(("set-cookie" = String, description = "grundy_session; HttpOnly; SameSite=Lax"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub(super) async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<LoginBody>, JsonRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Json(login) = body.map_err(rejection)?;
    let user = auth::check_login(&state, &login.name, &login.password)
        .await?
        .ok_or(ApiError::BadLogin)?;
    let previous = auth::session_secret(&headers);
    let secret = auth::start_session(&state.store, user.id, previous.as_deref()).await?;
    // Expired sessions of anyone are swept now and then; logins are a fine occasion.
    state.store.delete_expired_sessions(now_ms()).await?;
    Ok((
        AppendHeaders([(
            SET_COOKIE,
            auth::session_cookie(&secret, state.limits.secure_cookies),
        )]),
        Json(UserView::from(&user)),
    ))
}

/// Ends the caller's session and clears the cookie.
#[utoipa::path(post, path = "/api/v1/logout", tag = "accounts",
    responses((status = 204, description = "signed out")))]
pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    if let Some(secret) = auth::session_secret(&headers) {
        auth::end_session(&state.store, &secret).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        AppendHeaders([(SET_COOKIE, auth::expired_cookie())]),
    ))
}

#[utoipa::path(get, path = "/api/v1/me", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody)))]
pub(super) async fn me(CurrentUser(user): CurrentUser) -> Json<UserView> {
    Json(UserView::from(&user))
}

/// Sets the caller's password; the current one is required when there is one.
#[utoipa::path(put, path = "/api/v1/me/password", tag = "accounts",
    request_body = PasswordBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "changed; the caller's other sessions end"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub(super) async fn change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    CurrentUser(user): CurrentUser,
    body: Result<Json<PasswordBody>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let Json(change) = body.map_err(rejection)?;
    if user.password_hash.is_some() {
        let current = change.current.unwrap_or_default();
        if auth::check_login(&state, &user.name, &current)
            .await?
            .is_none()
        {
            // Not 401: the caller is signed in, only the password given is wrong.
            return Err(ApiError::Forbidden("the current password is wrong"));
        }
    }
    let hashed = hash(&state, change.new).await?;
    state.store.set_password(user.id, Some(&hashed)).await?;
    // Whoever else held a session (perhaps the reason for the change) is signed out.
    let keep = auth::session_secret(&headers).map(|s| auth::session_id(&s));
    state
        .store
        .delete_user_sessions(user.id, keep.as_deref())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new API token for the caller, for `grundy submit` and scripts. Shown only in this response.
#[utoipa::path(post, path = "/api/v1/tokens", tag = "accounts",
    request_body = NewTokenBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = TokenCreated), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub(super) async fn create_token(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<NewTokenBody>, JsonRejection>,
) -> Result<(StatusCode, Json<TokenCreated>), ApiError> {
    let Json(new) = body.map_err(rejection)?;
    let label = new.label.unwrap_or_else(|| "api".into());
    if label.chars().count() > 100 {
        return Err(ApiError::BadRequest(
            "a label has at most 100 characters".into(),
        ));
    }
    let token = auth::issue_token(&state.store, user.id, &label).await?;
    Ok((StatusCode::CREATED, Json(TokenCreated { token })))
}

/// Creates a user (admins only).
#[utoipa::path(post, path = "/api/v1/users", tag = "accounts",
    request_body = NewUserBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = UserView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn create_user(
    State(state): State<AppState>,
    _: auth::Admin,
    body: Result<Json<NewUserBody>, JsonRejection>,
) -> Result<(StatusCode, Json<UserView>), ApiError> {
    let Json(new) = body.map_err(rejection)?;
    let role = Role::parse(&new.role).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "unknown role {:?} (admin, teacher or student)",
            new.role
        ))
    })?;
    let user = add_user(&state, &new.name, role, new.password).await?;
    Ok((StatusCode::CREATED, Json(UserView::from(&user))))
}

/// Creates an account after checking its name (and hashing its password, if it has one).
pub(crate) async fn add_user(
    state: &AppState,
    name: &str,
    role: Role,
    password: Option<String>,
) -> Result<grundy_store::User, ApiError> {
    if !auth::valid_user_name(name) {
        return Err(ApiError::BadRequest(
            "a user name has 1 to 64 letters, digits, '.', '-' or '_'".into(),
        ));
    }
    let hashed = match password {
        Some(password) => Some(hash(state, password).await?),
        None => None,
    };
    Ok(state
        .store
        .create_user(name, role, hashed.as_deref(), now_ms())
        .await?)
}
