//! The one error of the operations: why something was refused, in words for the caller, or an
//! internal failure whose cause is logged and never shown.

/// Why an operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request does not make sense as asked: a missing or malformed value, an unknown name.
    #[error("{0}")]
    BadRequest(String),
    /// Well-formed but refused on its content (a broken problem package, a bad variant).
    #[error("{0}")]
    Invalid(String),
    /// An upload larger than the operator allows.
    #[error("the request body is larger than the limit")]
    TooLarge,
    /// Nobody is signed in (or the token is unknown).
    #[error(
        "authentication required: send `Authorization: Bearer <token>` or sign in at /api/v1/login"
    )]
    Unauthorized,
    #[error("wrong name or password")]
    BadLogin,
    #[error("at most {limit} submissions a minute; try again in {retry_after_secs} s")]
    TooManyRequests { retry_after_secs: u64, limit: u32 },
    /// Too many tries where names and passwords are guessed, or too much open at once.
    #[error("{what}; try again in {retry_after_secs} s")]
    Throttled {
        what: &'static str,
        retry_after_secs: u64,
    },
    /// The caller is known but may not do this (someone else's things are `NotFound` instead).
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("{0} not found")]
    NotFound(String),
    /// It clashes with the current state (taken, pinned, closed, drawn again).
    #[error("{0}")]
    Conflict(String),
    /// The service failed; the cause is logged, the caller reads only "internal error".
    #[error("internal error")]
    Internal(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl From<grundy_store::StoreError> for Error {
    fn from(e: grundy_store::StoreError) -> Self {
        match e {
            grundy_store::StoreError::Conflict(what) => {
                Error::Conflict(format!("{what} already exists"))
            }
            other => Error::Internal(other.to_string()),
        }
    }
}

/// A blocking task that did not finish (it panicked or was cancelled).
pub(crate) fn thread(what: &str, e: tokio::task::JoinError) -> Error {
    Error::Internal(format!("{what}: {e}"))
}
