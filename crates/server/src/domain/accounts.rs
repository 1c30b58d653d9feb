//! Accounts: passwords, sessions, API tokens, users and registration.
//!
//! Tokens are `grundy_` and 32 random bytes in hex, shown once; only their SHA-256 digest is
//! stored. A login starts a session keyed by the digest of a fresh random secret, which the
//! browser keeps in a cookie (so a session id is never carried over from before the login).
//! Passwords are Argon2id hashes, made and checked off the async threads, a few at a time.

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash};
use grundy_store::{Role, Session, Store, User};
use rand::RngExt;
use sha2::{Digest, Sha256};

use super::{Domain, Error, Registration, Result, access};
use crate::clock::now_ms;
use crate::locale::Locale;
use crate::zone::Zone;

pub const TOKEN_PREFIX: &str = "grundy_";
/// How long a session lasts without a new login.
pub const SESSION_TTL_MS: i64 = 7 * 24 * 3600 * 1000;
/// Argon2 hashing is deliberately slow; a longer password buys nothing and costs CPU.
pub const MAX_PASSWORD_CHARS: usize = 1024;
pub const MIN_PASSWORD_CHARS: usize = 8;
const MAX_TOKEN_LABEL_CHARS: usize = 100;

fn random_hex() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn new_token() -> String {
    format!("{TOKEN_PREFIX}{}", random_hex())
}

pub fn token_digest(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// The stored id of the session whose cookie holds `secret`.
pub fn session_id(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// How long a token lasts unless the operator says otherwise.
pub const DEFAULT_TOKEN_DAYS: u32 = 90;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// Creates a token for `user` lasting `days` from `now` and returns it (the only time it is
/// seen) with its record.
pub async fn issue_token(
    store: &Store,
    user: i64,
    label: &str,
    now: i64,
    days: u32,
) -> std::result::Result<NewToken, grundy_store::StoreError> {
    let token = new_token();
    let expires_at = now.saturating_add(i64::from(days).saturating_mul(DAY_MS));
    let id = store
        .create_token(user, &token_digest(&token), label, now, expires_at)
        .await?;
    Ok(NewToken {
        token,
        id,
        expires_at,
    })
}

/// A token just made: the secret itself, shown once.
#[derive(Debug)]
pub struct NewToken {
    pub token: String,
    pub id: i64,
    pub expires_at: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("a password needs at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("a password may have at most {MAX_PASSWORD_CHARS} characters")]
    TooLong,
    #[error("hashing the password: {0}")]
    Hash(String),
}

/// An Argon2id hash in PHC form. Slow on purpose: call it off the async threads.
pub fn hash_password(password: &str) -> std::result::Result<String, PasswordError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(PasswordError::TooShort);
    }
    if password.chars().count() > MAX_PASSWORD_CHARS {
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

/// Hashes off the async threads, a few at a time (each hash takes ~20 MiB and tens of ms).
async fn hash(domain: &Domain, password: String) -> Result<String> {
    let _permit = domain
        .hashing
        .acquire()
        .await
        .map_err(|e| Error::Internal(e.to_string()))?;
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| super::error::thread("password hashing", e))?
        .map_err(|e| match e {
            PasswordError::Hash(cause) => Error::Internal(cause),
            other => Error::BadRequest(other.to_string()),
        })
}

/// The user whose name and password these are; `None` for any mismatch, without saying which.
pub async fn check_login(domain: &Domain, name: &str, password: &str) -> Result<Option<User>> {
    if password.chars().count() > MAX_PASSWORD_CHARS {
        return Ok(None);
    }
    let user = domain.store.user_by_name(name).await?;
    // A flood of logins waits here rather than filling the blocking pool.
    let _permit = domain
        .hashing
        .acquire()
        .await
        .map_err(|e| Error::Internal(e.to_string()))?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let password = password.to_owned();
    let ok = tokio::task::spawn_blocking(move || verify_password(&password, stored.as_deref()))
        .await
        .map_err(|e| super::error::thread("password check", e))?;
    Ok(user.filter(|_| ok))
}

/// A signed-in user and the secret of their new session (for the cookie).
#[derive(Debug)]
pub struct SignedIn {
    pub user: User,
    pub secret: String,
}

/// Checks a name and password and starts a session; `replacing` (the caller's previous
/// session's secret, if any) ends.
pub async fn log_in(
    domain: &Domain,
    name: &str,
    password: &str,
    replacing: Option<&str>,
) -> Result<SignedIn> {
    let user = check_login(domain, name, password)
        .await?
        .ok_or(Error::BadLogin)?;
    let secret = start_session(domain, user.id, replacing).await?;
    Ok(SignedIn { user, secret })
}

/// Starts a session for `user`; returns the cookie's secret. `replacing` ends.
pub async fn start_session(domain: &Domain, user: i64, replacing: Option<&str>) -> Result<String> {
    let store = &domain.store;
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
    // Expired sessions of anyone are swept now and then; logins are a fine occasion.
    store.delete_expired_sessions(now_ms()).await?;
    Ok(secret)
}

/// Ends the session whose cookie holds `secret`.
pub async fn log_out(domain: &Domain, secret: &str) -> Result<()> {
    domain.store.delete_session(&session_id(secret)).await?;
    Ok(())
}

/// The user a bearer token belongs to; `None` for an unknown, expired or malformed one.
pub async fn user_by_token(domain: &Domain, token: &str) -> Result<Option<User>> {
    if !token.starts_with(TOKEN_PREFIX) {
        return Ok(None);
    }
    Ok(domain
        .store
        .user_by_token(&token_digest(token), domain.now())
        .await?)
}

/// The user of a live session.
pub async fn user_by_session(domain: &Domain, secret: &str) -> Result<Option<User>> {
    let Some(session) = domain.store.session(&session_id(secret), now_ms()).await? else {
        return Ok(None);
    };
    Ok(domain.store.user_by_id(session.user_id).await?)
}

/// Sets the caller's own password; the current one is required when there is one. Everything
/// the old password may have opened ends: their API tokens and their other sessions (perhaps the
/// reason for the change). `keep` (the secret of the session making the change, if a session
/// makes it) stays.
pub async fn change_password(
    domain: &Domain,
    user: &User,
    current: Option<&str>,
    new: String,
    keep: Option<&str>,
) -> Result<()> {
    if user.password_hash.is_some()
        && check_login(domain, &user.name, current.unwrap_or_default())
            .await?
            .is_none()
    {
        // Not "unauthorized": the caller is signed in, only the password given is wrong.
        return Err(Error::Forbidden("the current password is wrong"));
    }
    let hashed = hash(domain, new).await?;
    replace_password(domain, user.id, &hashed, keep).await
}

/// Sets `user`'s password hash and ends what the old password may have opened: every session
/// but `keep` (a session's secret), and every API token, which a thief of the old password could
/// have made to outlast the change.
async fn replace_password(
    domain: &Domain,
    user: i64,
    hashed: &str,
    keep: Option<&str>,
) -> Result<()> {
    domain.store.set_password(user, Some(hashed)).await?;
    let keep = keep.map(session_id);
    domain
        .store
        .delete_user_sessions(user, keep.as_deref())
        .await?;
    domain.store.delete_user_tokens(user).await?;
    Ok(())
}

/// The interface language the caller reads, or `None` to follow their browser.
pub async fn set_locale(domain: &Domain, user: &User, locale: Option<Locale>) -> Result<()> {
    domain
        .store
        .set_locale(user.id, locale.map(Locale::code))
        .await?;
    Ok(())
}

/// The time zone the caller reads times in, or `None` to follow their browser.
pub async fn set_time_zone(domain: &Domain, user: &User, zone: Option<&Zone>) -> Result<()> {
    domain
        .store
        .set_time_zone(user.id, zone.map(Zone::name))
        .await?;
    Ok(())
}

/// A new API token for the caller (the only time it is shown), lasting `days` (at most, and by
/// default, what the operator allows).
pub async fn create_token(
    domain: &Domain,
    user: &User,
    label: Option<String>,
    days: Option<u32>,
) -> Result<NewToken> {
    let label = label.unwrap_or_else(|| "api".into());
    if label.chars().count() > MAX_TOKEN_LABEL_CHARS {
        return Err(Error::BadRequest(format!(
            "a label has at most {MAX_TOKEN_LABEL_CHARS} characters"
        )));
    }
    let most = domain.policy.token_days;
    let days = days.unwrap_or(most);
    if !(1..=most).contains(&days) {
        return Err(Error::BadRequest(format!("a token lasts 1 to {most} days")));
    }
    let now = domain.now();
    // Expired tokens of anyone are swept now and then; making one is a fine occasion.
    domain.store.delete_expired_tokens(now).await?;
    Ok(issue_token(&domain.store, user.id, &label, now, days).await?)
}

/// The caller's own tokens (never the secrets, which are not kept).
pub async fn tokens(domain: &Domain, user: &User) -> Result<Vec<grundy_store::Token>> {
    Ok(domain.store.tokens(user.id).await?)
}

/// Revokes one of the caller's own tokens; anyone else's is "not found".
pub async fn revoke_token(domain: &Domain, user: &User, id: i64) -> Result<()> {
    if domain.store.delete_token(user.id, id).await? {
        Ok(())
    } else {
        Err(Error::NotFound(format!("token {id}")))
    }
}

/// Names appear in URLs, logs and tables: letters, digits and a little punctuation.
pub fn valid_user_name(name: &str) -> bool {
    (1..=64).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// Creates an account after checking its name (and hashing its password, if it has one); the
/// callers have decided who may.
pub(crate) async fn add_user(
    domain: &Domain,
    name: &str,
    role: Role,
    password: Option<String>,
) -> Result<User> {
    // Decomposed accents are marks, not letters: judged, and kept, composed.
    let name = &grundy_store::composed_name(name);
    if !valid_user_name(name) {
        return Err(Error::BadRequest(
            "a user name has 1 to 64 letters, digits, '.', '-' or '_'".into(),
        ));
    }
    let hashed = match password {
        Some(password) => Some(hash(domain, password).await?),
        None => None,
    };
    Ok(domain
        .store
        .create_user(name, role, hashed.as_deref(), now_ms())
        .await?)
}

/// An account made by `actor` on their own (not through a course), who may make accounts of
/// that role.
pub async fn create_user(
    domain: &Domain,
    actor: &User,
    name: &str,
    role: Role,
    password: Option<String>,
) -> Result<User> {
    if !access::may_create_account(actor, role) {
        return Err(Error::Forbidden(match role {
            Role::Student => "you may not create a student",
            Role::Teacher => "you may not create a teacher",
            Role::Admin => "you may not create an admin",
        }));
    }
    let created = add_user(domain, name, role, password).await?;
    tracing::info!(user = %created.name, by = %actor.name, "user created");
    Ok(created)
}

/// A student's own account from the registration page, as the operator allows, signed in at
/// once (`replacing` ends).
pub async fn register(
    domain: &Domain,
    name: &str,
    password: String,
    code: Option<&str>,
    replacing: Option<&str>,
) -> Result<SignedIn> {
    match &domain.policy.registration {
        Registration::Closed => return Err(Error::Forbidden("registration is closed")),
        Registration::Open => {}
        Registration::Invitation(expected) => {
            if !same_code(code.unwrap_or_default(), expected) {
                return Err(Error::Forbidden("the invitation code is not right"));
            }
        }
    }
    let user = add_user(domain, name, Role::Student, Some(password)).await?;
    tracing::info!(user = %user.name, "registered");
    let secret = start_session(domain, user.id, replacing).await?;
    Ok(SignedIn { user, secret })
}

/// Compared as digests so the time taken says nothing about how much of a guess was right.
fn same_code(given: &str, expected: &str) -> bool {
    Sha256::digest(given.trim().as_bytes()) == Sha256::digest(expected.as_bytes())
}

/// A change to someone else's account.
#[derive(Debug)]
pub enum UserChange {
    Role(Role),
    /// A new password: the user's sessions end.
    Password(String),
}

/// Changes `target`'s role (admins) or password (whoever manages them).
pub async fn change_user(
    domain: &Domain,
    actor: &User,
    target: i64,
    change: UserChange,
) -> Result<User> {
    let Some(target) = domain.store.user_by_id(target).await? else {
        return Err(Error::NotFound(format!("user {target}")));
    };
    if !access::may_change_user(domain, actor, &target).await? {
        return Err(Error::Forbidden("you may not change this user"));
    }
    match change {
        UserChange::Role(role) => {
            if !access::may_change_roles(actor) {
                return Err(Error::Forbidden("only admins change roles"));
            }
            domain.store.set_role(target.id, role).await?;
        }
        UserChange::Password(password) => {
            let hashed = hash(domain, password).await?;
            replace_password(domain, target.id, &hashed, None).await?;
        }
    }
    tracing::info!(user = %target.name, by = %actor.name, "user changed");
    Ok(domain.store.user_by_id(target.id).await?.unwrap_or(target))
}

/// The accounts the users page shows `actor` (see [`access::listed_users`]): each with whether
/// `actor` may change them.
pub async fn users(domain: &Domain, actor: &User) -> Result<Vec<(User, bool)>> {
    let changeable = access::changeable_users(domain, actor).await?;
    Ok(access::listed_users(domain, actor)
        .await?
        .into_iter()
        .map(|u| {
            let manageable = changeable.allows(&u);
            (u, manageable)
        })
        .collect())
}

/// The names of the accounts `ids` (for lists of what the caller may already see).
pub async fn names(
    domain: &Domain,
    ids: &[i64],
) -> Result<std::collections::BTreeMap<i64, String>> {
    let mut names = std::collections::BTreeMap::new();
    for &id in ids {
        if let std::collections::btree_map::Entry::Vacant(slot) = names.entry(id)
            && let Some(user) = domain.store.user_by_id(id).await?
        {
            slot.insert(user.name);
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_digests_fixed_length() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert!(a.starts_with(TOKEN_PREFIX) && a.len() == TOKEN_PREFIX.len() + 64);
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
            hash_password(&"x".repeat(MAX_PASSWORD_CHARS + 1)),
            Err(PasswordError::TooLong)
        ));
    }
}
