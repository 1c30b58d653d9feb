//! Who is calling: API tokens for scripts and the CLI, password logins with cookie sessions for
//! browsers.
//!
//! Tokens are `grundy_` and 32 random bytes in hex, shown once; only their SHA-256 digest is
//! stored, and requests carry them as `Authorization: Bearer <token>`. A login sets the cookie
//! `grundy_session` to a fresh random secret (so a session id is never carried over from before
//! the login); the database keys the session by the secret's digest. Cookie-authenticated writes
//! are guarded against cross-site requests by the CSRF layer in `api`.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use grundy_store::{Role, Session, Store, User};
use rand::RngExt;
use sha2::{Digest, Sha256};

use crate::{ApiError, AppState, now_ms};

const PREFIX: &str = "grundy_";
pub const SESSION_COOKIE: &str = "grundy_session";
/// How long a session lasts without a new login.
pub const SESSION_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
/// Argon2 hashing is deliberately slow; a longer password buys nothing and costs CPU.
pub const MAX_PASSWORD_BYTES: usize = 1024;
pub const MIN_PASSWORD_CHARS: usize = 8;

fn random_hex() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn new_token() -> String {
    format!("{PREFIX}{}", random_hex())
}

pub fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

pub fn session_id(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("a password needs at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("a password may have at most {MAX_PASSWORD_BYTES} bytes")]
    TooLong,
    #[error("hashing the password: {0}")]
    Hash(String),
}

/// An Argon2id hash in PHC form. Slow on purpose: call it off the async threads.
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(PasswordError::TooShort);
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(PasswordError::TooLong);
    }
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Verifies against `stored`, or against a fixed dummy hash when there is no user (or no
/// password), so the time taken does not tell whether a name exists.
fn verify_password(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let dummy = DUMMY
        .get_or_init(|| hash_password("not anyone's password").expect("a fixed password hashes"));
    let (hash, real) = match stored {
        Some(h) => (h, true),
        None => (dummy.as_str(), false),
    };
    let ok = PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    });
    ok && real
}

/// The user whose name and password these are; `None` for any mismatch, without saying which.
pub async fn check_login(
    state: &AppState,
    name: &str,
    password: &str,
) -> Result<Option<User>, ApiError> {
    if password.len() > MAX_PASSWORD_BYTES {
        return Ok(None);
    }
    let user = state.store.user_by_name(name).await?;
    // Each check takes ~20 MiB and tens of milliseconds: a flood of logins waits here rather
    // than filling the blocking pool.
    let _permit = state
        .hashing
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let password = password.to_owned();
    let ok = tokio::task::spawn_blocking(move || verify_password(&password, stored.as_deref()))
        .await
        .map_err(|e| ApiError::Internal(format!("password check: {e}")))?;
    Ok(user.filter(|_| ok))
}

/// Starts a session for `user`; returns the cookie's secret. `replacing` (the caller's previous
/// session, if any) ends.
pub async fn start_session(
    store: &Store,
    user: i64,
    replacing: Option<&str>,
) -> Result<String, ApiError> {
    if let Some(old) = replacing {
        store.delete_session(&session_id(old)).await?;
    }
    let secret = random_hex();
    store
        .put_session(&Session {
            id: session_id(&secret),
            user_id: user,
            data: "{}".into(),
            expires_at: now_ms() + SESSION_TTL_MS,
        })
        .await?;
    Ok(secret)
}

pub async fn end_session(store: &Store, secret: &str) -> Result<(), ApiError> {
    store.delete_session(&session_id(secret)).await?;
    Ok(())
}

/// `Set-Cookie` for a session secret; `secure` when the service is reached over HTTPS.
pub fn session_cookie(secret: &str, secure: bool) -> String {
    format!(
        "{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        SESSION_TTL_MS / 1000,
        if secure { "; Secure" } else { "" }
    )
}

pub fn expired_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// The session secret in the request's cookies, if any.
pub fn session_secret(headers: &HeaderMap) -> Option<String> {
    cookie(headers, SESSION_COOKIE)
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The value of the cookie `name` among the request's cookies.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_owned())
}

/// Names appear in URLs, logs and tables: letters, digits and a little punctuation.
pub fn valid_user_name(name: &str) -> bool {
    (1..=64).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// The caller, from a bearer token or a session cookie.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub User);

impl CurrentUser {
    /// Teachers and admins see everyone's submissions; students their own.
    pub fn sees_all(&self) -> bool {
        matches!(self.0.role, Role::Admin | Role::Teacher)
    }

    pub fn require_teacher(&self) -> Result<(), ApiError> {
        if self.sees_all() {
            Ok(())
        } else {
            Err(ApiError::Forbidden("teachers and admins only"))
        }
    }

    pub fn require_admin(&self) -> Result<(), ApiError> {
        if self.0.role == Role::Admin {
            Ok(())
        } else {
            Err(ApiError::Forbidden("admins only"))
        }
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(header) = parts.headers.get(AUTHORIZATION) {
            // A malformed or unknown token is refused even if a cookie is present too: the
            // caller meant the token.
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
            return Ok(CurrentUser(user));
        }
        let secret = session_secret(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let session = state
            .store
            .session(&session_id(&secret), now_ms())
            .await?
            .ok_or(ApiError::Unauthorized)?;
        let user = state
            .store
            .user_by_id(session.user_id)
            .await?
            .ok_or(ApiError::Unauthorized)?;
        Ok(CurrentUser(user))
    }
}

/// A teacher or admin: refused before the request body is read (uploads are large).
#[derive(Debug, Clone)]
pub struct Teacher(pub CurrentUser);

impl FromRequestParts<AppState> for Teacher {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        user.require_teacher()?;
        Ok(Teacher(user))
    }
}

/// An admin, checked before the body is read.
#[derive(Debug, Clone)]
pub struct Admin(pub CurrentUser);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        user.require_admin()?;
        Ok(Admin(user))
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

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", Some(&hash)));
        assert!(!verify_password("correct horsf", Some(&hash)));
        assert!(!verify_password("correct horse", None));
        assert!(!verify_password("correct horse", Some("not a hash")));
        assert!(matches!(
            hash_password("short"),
            Err(PasswordError::TooShort)
        ));
        assert!(matches!(
            hash_password(&"x".repeat(MAX_PASSWORD_BYTES + 1)),
            Err(PasswordError::TooLong)
        ));
    }

    #[test]
    fn the_session_cookie_is_found_among_others_and_checked() {
        let secret = random_hex();
        let request = axum::http::Request::builder()
            .header(
                COOKIE,
                format!("theme=dark; {SESSION_COOKIE}={secret}; x=1"),
            )
            .body(())
            .unwrap();
        assert_eq!(session_secret(request.headers()), Some(secret));
        let forged = axum::http::Request::builder()
            .header(COOKIE, format!("{SESSION_COOKIE}=../../etc"))
            .body(())
            .unwrap();
        assert_eq!(session_secret(forged.headers()), None);
        let cookie = session_cookie("abc", true);
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
        assert!(cookie.ends_with("; Secure"));
    }
}
