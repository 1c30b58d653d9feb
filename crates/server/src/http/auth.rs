//! Who is calling: a bearer token (scripts, the CLI) or a session cookie (browsers).
//!
//! Requests carry tokens as `Authorization: Bearer <token>`. A login sets the cookie
//! `grundy_session` to its session's secret; cookie-authenticated writes are guarded against
//! cross-site requests by the CSRF layer of the router.

use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use grundy_store::User;

use crate::domain::accounts::{self, SESSION_TTL_MS};
use crate::domain::{Domain, Error, Result};

pub const SESSION_COOKIE: &str = "grundy_session";

/// The caller, if anyone: a malformed or unknown token is refused even if a cookie is present
/// too (the caller meant the token); no token and no live session is nobody.
pub async fn caller(parts: &Parts, domain: &Domain) -> Result<Option<User>> {
    caller_of(&parts.headers, domain).await
}

/// The caller of a request with these headers; the request is answered in their language from
/// now on.
pub async fn caller_of(headers: &HeaderMap, domain: &Domain) -> Result<Option<User>> {
    let found = identify(headers, domain).await?;
    if let Some(user) = &found {
        crate::locale::caller_known(user);
    }
    Ok(found)
}

/// The headers that say who is calling, kept from a request that is passed on.
pub fn credentials(headers: &HeaderMap) -> HeaderMap {
    let mut kept = HeaderMap::new();
    for name in [AUTHORIZATION, COOKIE] {
        for value in headers.get_all(&name) {
            kept.append(name.clone(), value.clone());
        }
    }
    kept
}

async fn identify(headers: &HeaderMap, domain: &Domain) -> Result<Option<User>> {
    if let Some(header) = headers.get(AUTHORIZATION) {
        let token = header
            .to_str()
            .ok()
            .and_then(|h| h.strip_prefix("Bearer "))
            .map(str::trim)
            .ok_or(Error::Unauthorized)?;
        return match accounts::user_by_token(domain, token).await? {
            Some(user) => Ok(Some(user)),
            None => Err(Error::Unauthorized),
        };
    }
    match session_secret(headers) {
        Some(secret) => accounts::user_by_session(domain, &secret).await,
        None => Ok(None),
    }
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

/// The secret of the session a request is signed in with: none when a bearer token speaks for
/// the request (the token wins, see [`caller`]), even if a session cookie came along.
pub fn signing_session(headers: &HeaderMap) -> Option<String> {
    if headers.contains_key(AUTHORIZATION) {
        None
    } else {
        session_secret(headers)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others_and_checked() {
        let secret = "ab".repeat(32);
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
