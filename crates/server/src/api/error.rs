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
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    pub(crate) fn status(&self) -> StatusCode {
        self.parts().0
    }

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
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
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
        let response = (
            status,
            Json(json!({ "error": code, "message": self.to_string() })),
        )
            .into_response();
        self.with_retry_after(response)
    }
}

impl ApiError {
    /// A refusal for too many requests says when to try again, whatever its body's shape.
    pub(crate) fn with_retry_after(&self, mut response: Response) -> Response {
        if let ApiError::TooManyRequests {
            retry_after_secs, ..
        } = self
        {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after_secs),
            );
        }
        response
    }
}

/// Malformed JSON, a wrong content type, an oversized body: the same JSON error shape.
pub(crate) fn rejection(rejection: axum::extract::rejection::JsonRejection) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge,
        // Well-formed JSON of the wrong shape (a missing or unknown field, a wrong type).
        StatusCode::UNPROCESSABLE_ENTITY => ApiError::Invalid(rejection.body_text()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(rejection.body_text()),
        _ => ApiError::BadRequest(rejection.body_text()),
    }
}

/// Errors made by layers and the router itself (a timeout, a wrong method, an unreadable path
/// parameter or form, a cross-site write) come without a body or as plain text: under `/api/`
/// they get the handlers' JSON shape, elsewhere an HTML error page.
pub(crate) async fn shape_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let is_api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    let status = response.status();
    let content_type = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .map(|v| v.as_bytes().to_vec())
        .unwrap_or_default();
    let shaped = if is_api {
        content_type.starts_with(b"application/json")
    } else {
        content_type.starts_with(b"text/html")
    };
    if !(status.is_client_error() || status.is_server_error()) || shaped {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let message = if status.is_server_error() || text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        String::from_utf8_lossy(&text).into_owned()
    };
    let mut shaped = if is_api {
        json_error(status, message)
    } else {
        crate::web::error_page(status, message, None)
    };
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            shaped.headers_mut().append(name, value.clone());
        }
    }
    shaped
}

fn json_error(status: StatusCode, message: String) -> Response {
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
    (status, Json(json!({ "error": code, "message": message }))).into_response()
}
