//! Logins and sessions, the caller's account, API tokens, users (admins).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse};

use super::JsonResult;
use super::caller::{Admin, CurrentUser};
use super::error::{ApiError, JsonObject};
use super::views::{
    ErrorBody, LoginBody, NewTokenBody, NewUserBody, PasswordBody, TokenCreated, TokenView,
    UserView,
};
use crate::domain::accounts;
use crate::http::auth;
use crate::http::client::Client;
use crate::state::AppState;

/// Signs in with a name and password and sets the session cookie (a new session each time).
/// After a few failures for one name or from one address, each further attempt waits longer
/// (429 with `Retry-After`).
#[utoipa::path(post, path = "/api/v1/login", tag = "accounts", request_body = LoginBody,
    responses((status = 200, body = UserView,
            headers(("set-cookie" = String,
                description = "grundy_session; HttpOnly; SameSite=Lax; Secure over HTTPS"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody,
            headers(("retry-after" = u64, description = "seconds to wait")))))]
pub(super) async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Result<JsonObject<LoginBody>, ApiError>,
) -> Result<impl IntoResponse, ApiError> {
    let JsonObject(login) = body?;
    let previous = auth::session_secret(&headers);
    let signed_in = state
        .throttle
        .guard(
            &login.name,
            client.address,
            accounts::log_in(
                &state.domain,
                &login.name,
                &login.password,
                previous.as_deref(),
            ),
        )
        .await?;
    Ok((
        AppendHeaders([(
            SET_COOKIE,
            auth::session_cookie(&signed_in.secret, client.secure_cookies(&state.limits)),
        )]),
        Json(UserView::from(&signed_in.user)),
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
        accounts::log_out(&state.domain, &secret).await?;
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

/// Sets the caller's password; the current one is required when there is one. Every API token
/// of the caller is revoked (the one making the request included) and every session ends but
/// the one making the request, if a session makes it. Wrong current passwords are throttled as
/// logins are, counted with the logins of the caller's name and address (429 with
/// `Retry-After`).
#[utoipa::path(put, path = "/api/v1/me/password", tag = "accounts",
    request_body = PasswordBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 204,
            description = "changed; the caller's tokens are revoked and their other sessions end"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 429, body = ErrorBody,
            headers(("retry-after" = u64, description = "seconds to wait")))))]
pub(super) async fn change_password(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    CurrentUser(user): CurrentUser,
    body: Result<JsonObject<PasswordBody>, ApiError>,
) -> Result<StatusCode, ApiError> {
    let JsonObject(change) = body?;
    let keep = auth::signing_session(&headers);
    // Whoever holds a stolen session or token could otherwise guess the password here at full
    // speed, and then change it.
    state
        .throttle
        .guard(
            &user.name,
            client.address,
            accounts::change_password(
                &state.domain,
                &user,
                change.current.as_deref(),
                change.new,
                keep.as_deref(),
            ),
        )
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
    body: Result<JsonObject<NewTokenBody>, ApiError>,
) -> Result<(StatusCode, Json<TokenCreated>), ApiError> {
    let JsonObject(new) = body?;
    let made = accounts::create_token(&state.domain, &user, new.label, new.expires_in_days).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated {
            token: made.token,
            id: made.id,
            expires_at: made.expires_at,
        }),
    ))
}

/// The caller's own API tokens, newest first, without their secrets.
#[utoipa::path(get, path = "/api/v1/tokens", tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses((status = 200, body = [TokenView]), (status = 401, body = ErrorBody)))]
pub(super) async fn list_tokens(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> JsonResult<Vec<TokenView>> {
    let tokens = accounts::tokens(&state.domain, &user).await?;
    Ok(Json(tokens.into_iter().map(TokenView::from).collect()))
}

/// Revokes one of the caller's own API tokens (the one making the request included).
#[utoipa::path(delete, path = "/api/v1/tokens/{id}", tag = "accounts",
    params(("id" = i64, Path, description = "The token's id, from the listing")),
    security(("bearer" = []), ("session" = [])),
    responses((status = 204, description = "revoked"), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub(super) async fn revoke_token(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, ApiError> {
    accounts::revoke_token(&state.domain, &user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Creates a user (admins only).
#[utoipa::path(post, path = "/api/v1/users", tag = "accounts",
    request_body = NewUserBody,
    security(("bearer" = []), ("session" = [])),
    responses((status = 201, body = UserView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn create_user(
    State(state): State<AppState>,
    Admin(admin): Admin,
    body: Result<JsonObject<NewUserBody>, ApiError>,
) -> Result<(StatusCode, Json<UserView>), ApiError> {
    let JsonObject(new) = body?;
    let user = accounts::create_user(
        &state.domain,
        &admin,
        &new.name,
        new.role.into(),
        new.password,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(UserView::from(&user))))
}
