//! The one error type at the HTTP boundary: a status and `{ "error": code, "message": … }`.
//! Internal errors are logged with their cause and shown only as "internal error".

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("the request body is larger than the limit")]
    TooLarge,
    #[error(
        "authentication required: send `Authorization: Bearer <token>` or sign in at /api/v1/login"
    )]
    Unauthorized,
    #[error("wrong name or password")]
    BadLogin,
    /// Well-formed but refused on its content (a broken problem package, a bad variant).
    #[error("{0}")]
    Invalid(String),
    #[error("at most {limit} submissions a minute; try again in {retry_after_secs} s")]
    TooManyRequests { retry_after_secs: u64, limit: u32 },
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("{0} not found")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::Unauthorized | ApiError::BadLogin => {
                (StatusCode::UNAUTHORIZED, "unauthorized")
            }
            ApiError::Invalid(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid"),
            ApiError::TooManyRequests { .. } => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_requests")
            }
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl From<grundy_store::StoreError> for ApiError {
    fn from(e: grundy_store::StoreError) -> Self {
        match e {
            grundy_store::StoreError::Conflict(what) => {
                ApiError::Conflict(format!("{what} already exists"))
            }
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(%cause, "internal error");
        }
        let (status, code) = self.parts();
        let mut response = (
            status,
            Json(json!({ "error": code, "message": self.to_string() })),
        )
            .into_response();
        if let ApiError::TooManyRequests {
            retry_after_secs, ..
        } = self
        {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(retry_after_secs),
            );
        }
        response
    }
}

/// Malformed JSON, a wrong content type, an oversized body: the same JSON error shape.
pub(crate) fn rejection(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge
    } else {
        ApiError::BadRequest(rejection.body_text())
    }
}
