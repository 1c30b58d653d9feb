//! The whole HTTP surface: the API and the pages behind one set of layers (CSRF, compression,
//! tracing, request ids, panics, security headers), with the errors of layers and of the router itself given the
//! body their address expects: JSON under `/api/`, a page elsewhere.

use axum::Router;
use axum::extract::{MatchedPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::csrf::CsrfLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::domain::Error;
use crate::state::AppState;
use crate::{api, web};

pub fn router(state: AppState) -> Router {
    Router::new()
        .merge(api::routes(
            state.limits.clone(),
            state.domain.policy.token_days,
        ))
        .merge(web::routes(state.limits.clone()))
        .fallback(not_found)
        // Browsers send cookies with cross-site requests; writes from other origins are refused.
        // Scripts with tokens send neither `Origin` nor `Sec-Fetch-Site` and pass.
        .layer(CsrfLayer::new().with_rejection_response(|_| {
            (
                StatusCode::FORBIDDEN,
                "cross-origin request refused (CSRF protection)",
            )
                .into_response()
        }))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            shape_errors,
        ))
        // Outside `shape_errors`, so that the pages and bodies it makes speak the reader's language.
        .layer(axum::middleware::from_fn(crate::locale::scope))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(CatchPanicLayer::custom(|_| {
            api::error_response(&Error::Internal("a handler panicked".into()))
        }))
        // Outermost, so that every answer has them, a panic's included.
        .layer(axum::middleware::from_fn(
            crate::http::headers::security_headers,
        ))
        // Layers apply to each route once it is matched, so its template is known here; around
        // the panic catcher, so that a panic counts as the 500 it became.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            count_requests,
        ))
        .with_state(state)
}

/// Counts each request by its route's template (`/api/v1/submissions/{id}`), never its path.
async fn count_requests(
    State(state): State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !state.telemetry.is_on() {
        return next.run(request).await;
    }
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned());
    let method = request.method().clone();
    let response = next.run(request).await;
    state
        .telemetry
        .http_request(route.as_deref(), &method, response.status());
    response
}

/// JSON for API addresses, a page for the rest.
async fn not_found(uri: axum::http::Uri, visitor: web::Visitor) -> Response {
    if is_api(uri.path()) {
        api::error_response(&Error::NotFound("this route".into()))
    } else {
        web::not_found(visitor)
    }
}

fn is_api(path: &str) -> bool {
    path.starts_with("/api/")
}

/// Errors made by layers and the router itself (a timeout, a wrong method, an unreadable path
/// parameter or form, a cross-site write) come without a body or as plain text: under `/api/`
/// they get the handlers' JSON shape, elsewhere an HTML error page.
async fn shape_errors(
    State(state): State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let api = is_api(request.uri().path());
    // An error made before any handler knew the caller is still worded in their language.
    let credentials = crate::http::auth::credentials(request.headers());
    let response = next.run(request).await;
    let status = response.status();
    let content_type = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .map(|v| v.as_bytes().to_vec())
        .unwrap_or_default();
    let shaped = if api {
        content_type.starts_with(b"application/json")
    } else {
        content_type.starts_with(b"text/html")
    };
    if !(status.is_client_error() || status.is_server_error()) || shaped {
        return response;
    }
    // Who it is does not matter beyond the words: an unknown caller reads the request's choice.
    let _ = crate::http::auth::caller_of(&credentials, &state.domain).await;
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let message = crate::http::messages::of_status(
        crate::locale::current(),
        status,
        &String::from_utf8_lossy(&text),
    );
    let mut shaped = if api {
        api::status_response(status, message)
    } else {
        web::error_page(status, message, None)
    };
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            shaped.headers_mut().append(name, value.clone());
        }
    }
    shaped
}
