//! How the API refuses: a status and `{ "error": code, "message": … }`. Internal errors are
//! logged with their cause and shown only as "internal error".

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::views::{ErrorBody, ErrorCode};
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
                ErrorCode::UnsupportedMediaType,
                message,
            ),
        }
    }
}

/// The stable code of a refusal.
fn code(error: &Error) -> ErrorCode {
    match error {
        Error::BadRequest(_) => ErrorCode::BadRequest,
        Error::Invalid(_) => ErrorCode::Invalid,
        Error::TooLarge => ErrorCode::TooLarge,
        Error::Unauthorized | Error::BadLogin => ErrorCode::Unauthorized,
        Error::TooManyRequests { .. } | Error::Throttled { .. } => ErrorCode::TooManyRequests,
        Error::Forbidden(_) => ErrorCode::Forbidden,
        Error::NotFound(_) => ErrorCode::NotFound,
        Error::Conflict(_) => ErrorCode::Conflict,
        Error::Internal(_) => ErrorCode::Internal,
    }
}

pub(crate) fn error_response(error: &Error) -> Response {
    http::log_internal(error);
    // The code stays; the words follow the caller's `Accept-Language`.
    let message = http::messages::message(crate::locale::current(), error);
    let response = body(http::status(error), code(error), message);
    http::with_retry_after(error, response)
}

fn body(status: StatusCode, error: ErrorCode, message: String) -> Response {
    (status, Json(ErrorBody { error, message })).into_response()
}

/// A JSON object read into `T`. Serde also reads a struct from an array of its fields in
/// order; the document promises objects, so anything else is refused (422) like a wrong field.
/// Handlers take `Result<JsonObject<T>, ApiError>` to decide when a refused body counts.
#[derive(Debug)]
pub(crate) struct JsonObject<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonObject<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<Value>::from_request(request, state)
            .await
            .map_err(rejection)?;
        if !value.is_object() {
            return Err(Error::Invalid("the body must be a JSON object".into()).into());
        }
        T::deserialize(value)
            .map(JsonObject)
            .map_err(|e| Error::Invalid(format!("the body does not fit: {e}")).into())
    }
}

/// Malformed JSON, a wrong content type, an oversized body: the same JSON error shape.
fn rejection(rejection: JsonRejection) -> ApiError {
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
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        StatusCode::FORBIDDEN => ErrorCode::Forbidden,
        StatusCode::UNPROCESSABLE_ENTITY => ErrorCode::Invalid,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::REQUEST_TIMEOUT => ErrorCode::Timeout,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        s if s.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::BadRequest,
    };
    body(status, code, message)
}
