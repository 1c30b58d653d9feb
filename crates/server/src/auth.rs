//! API tokens: `grundy_` and 32 random bytes in hex, shown once; only their SHA-256 digest is
//! stored. Requests carry them as `Authorization: Bearer <token>`.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use grundy_store::{Role, Store, User};
use rand::RngExt;
use sha2::{Digest, Sha256};

use crate::{ApiError, AppState, now_ms};

const PREFIX: &str = "grundy_";

pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{PREFIX}{hex}")
}

pub fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Creates a token for `user` and returns it (the only time it is seen).
pub async fn issue_token(
    store: &Store,
    user: i64,
    label: &str,
) -> Result<String, grundy_store::StoreError> {
    let token = new_token();
    store
        .create_token(user, &token_digest(&token), label, now_ms())
        .await?;
    Ok(token)
}

/// The caller, from a bearer token.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub User);

impl CurrentUser {
    /// Teachers and admins see everyone's submissions; students their own.
    pub fn sees_all(&self) -> bool {
        matches!(self.0.role, Role::Admin | Role::Teacher)
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or(ApiError::Unauthorized)?;
        let token = header
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| t.starts_with(PREFIX))
            .ok_or(ApiError::Unauthorized)?;
        let user = state
            .store
            .user_by_token(&token_digest(token), now_ms())
            .await?
            .ok_or(ApiError::Unauthorized)?;
        Ok(CurrentUser(user))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_digests_fixed_length() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert!(a.starts_with(PREFIX) && a.len() == PREFIX.len() + 64);
        assert_eq!(token_digest(&a).len(), 32);
        assert_eq!(token_digest(&a), token_digest(&a));
    }
}
