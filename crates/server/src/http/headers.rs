//! Headers every answer carries, pages, API and errors alike.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::middleware::Next;
use axum::response::Response;

/// Scripts only from our own files, never inline: a `<script>` or an `onclick` that slipped into
/// a page (a problem statement, a user's name) does not run. Pages are never framed
/// (clickjacking), forms post only to us, and nothing is fetched or connected to elsewhere.
/// Style sheets are our own files; `style` attributes are allowed because statements carry two
/// the renderer writes itself (a table column's `text-align`, the margin of a negative math
/// space), and nothing else can put one there (the statement fuzz target checks it). Images may
/// be `data:` or `https:` (a statement may show a figure hosted elsewhere).
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     style-src-attr 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Swagger UI (`/api/docs`) also loads only its own files, but it adds a `<style>` element to its
/// page at run time, which a strict `style-src` blocks; scripts stay as strict as on the pages.
pub const DOCS_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

pub async fn security_headers(request: Request, next: Next) -> Response {
    let docs = request.uri().path().starts_with("/api/docs");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let policy = if docs { DOCS_POLICY } else { PAGE_POLICY };
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Addresses of ours (a submission's id, a course's code) are not sent to other sites.
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}
