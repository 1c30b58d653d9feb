//! The caller of an API route: required, and for some routes a teacher or an admin, checked
//! before the body is read (uploads are large).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use grundy_store::User;

use super::error::ApiError;
use crate::domain::{Error, access};
use crate::http::auth;
use crate::state::AppState;

/// The signed-in caller (bearer token or session cookie).
#[derive(Debug, Clone)]
pub(crate) struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match auth::caller(parts, &state.domain).await? {
            Some(user) => Ok(CurrentUser(user)),
            None => Err(Error::Unauthorized.into()),
        }
    }
}

/// Whoever calls a public route: the signed-in user, or nobody (an unknown token or session
/// reads as nobody, as on the pages).
#[derive(Debug, Clone)]
pub(crate) struct Caller(pub Option<User>);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match auth::caller(parts, &state.domain).await {
            Ok(user) => Ok(Caller(user)),
            Err(Error::Unauthorized) => Ok(Caller(None)),
            Err(other) => Err(other.into()),
        }
    }
}

/// A teacher or admin.
#[derive(Debug, Clone)]
pub(crate) struct Teacher(pub User);

impl FromRequestParts<AppState> for Teacher {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        access::require_teacher(&user)?;
        Ok(Teacher(user))
    }
}

/// An admin.
#[derive(Debug, Clone)]
pub(crate) struct Admin(pub User);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        access::require_admin(&user)?;
        Ok(Admin(user))
    }
}
