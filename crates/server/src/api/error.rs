//! How the API refuses: a status and `{ "error": code, "message": … }`. Internal errors are
//! logged with their cause and shown only as "internal error".

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::domain::Error;
use crate::http;

/// A refused operation, or a body the API cannot read.
#[derive(Debug)]
pub(crate) enum ApiError {
    Refused(Error),
    /// Not the media type the route takes.
    UnsupportedMediaType(String),
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError::Refused(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Refused(error) => error_response(&error),
            ApiError::UnsupportedMediaType(message) => body(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                message,
            ),
        }
    }
}

/// The stable code of a refusal.
fn code(error: &Error) -> &'static str {
    match error {
        Error::BadRequest(_) => "bad_request",
        Error::Invalid(_) => "invalid",
        Error::TooLarge => "too_large",
        Error::Unauthorized | Error::BadLogin => "unauthorized",
        Error::TooManyRequests { .. } | Error::Throttled { .. } => "too_many_requests",
        Error::Forbidden(_) => "forbidden",
        Error::NotFound(_) => "not_found",
        Error::Conflict(_) => "conflict",
        Error::Internal(_) => "internal",
    }
}

pub(crate) fn error_response(error: &Error) -> Response {
    http::log_internal(error);
    let response = body(http::status(error), code(error), error.to_string());
    http::with_retry_after(error, response)
}

fn body(status: StatusCode, code: &str, message: String) -> Response {
    (status, Json(json!({ "error": code, "message": message }))).into_response()
}

/// Malformed JSON, a wrong content type, an oversized body: the same JSON error shape.
pub(crate) fn rejection(rejection: JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => Error::TooLarge.into(),
        // Well-formed JSON of the wrong shape (a missing or unknown field, a wrong type).
        StatusCode::UNPROCESSABLE_ENTITY => Error::Invalid(rejection.body_text()).into(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(rejection.body_text()),
        _ => Error::BadRequest(rejection.body_text()).into(),
    }
}

/// An error the router or a layer made, with only a status and a message.
pub(crate) fn status_response(status: StatusCode, message: String) -> Response {
    let code = match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::UNPROCESSABLE_ENTITY => "invalid",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    };
    body(status, code, message)
}
