//! What the API and the pages share of HTTP: who is calling ([`auth`]) and from where
//! ([`client`]), the headers every answer carries ([`headers`]), and how a refused operation reads as a status (each renders the body its own
//! way: JSON or a page).

pub mod auth;
pub mod client;
pub mod headers;
pub mod messages;

use axum::http::{HeaderValue, StatusCode, header::RETRY_AFTER};
use axum::response::Response;

use crate::domain::Error;

/// The status a refusal is answered with.
pub fn status(error: &Error) -> StatusCode {
    match error {
        Error::BadRequest(_) => StatusCode::BAD_REQUEST,
        Error::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Error::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Error::Unauthorized | Error::BadLogin => StatusCode::UNAUTHORIZED,
        Error::TooManyRequests { .. } | Error::Throttled { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Forbidden(_) => StatusCode::FORBIDDEN,
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Conflict(_) => StatusCode::CONFLICT,
        Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A refusal for too many requests says when to try again, whatever its body's shape.
pub fn with_retry_after(error: &Error, mut response: Response) -> Response {
    if let Error::TooManyRequests {
        retry_after_secs, ..
    }
    | Error::Throttled {
        retry_after_secs, ..
    } = error
    {
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(*retry_after_secs));
    }
    response
}

/// Logs the cause of an internal error (the caller is told only "internal error").
pub fn log_internal(error: &Error) {
    if let Error::Internal(cause) = error {
        tracing::error!(%cause, "internal error");
    }
}
