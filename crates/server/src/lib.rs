//! The HTTP service: the JSON API (`/api/v1/…`), the web pages, live judging progress over SSE,
//! and the workers that judge queued submissions.
//!
//! The layers, from the top: [`router`] puts the API (`api/`, JSON) and the pages (`web/`,
//! HTML) behind one set of layers. Both translate requests into the product's operations in
//! [`domain`] and their results into responses; they share only `http/` (who is calling, how a
//! refusal reads as a status) and `state.rs` (what a handler is given), never each other. The
//! operations use the store, the [`registry`] of problems, the [`events`] hub and the [`clock`].
//! The [`worker`]s judge with a narrow context of their own (store, problems, events), drawing
//! students' instances by the domain's rules, without any of the HTTP side.
//! `docs/architecture.md` draws the layers and walks one submission through them.
//!
//! The server is built from its state, a bound listener and a shutdown future, so tests run it on
//! port 0 and end it when they like. Nothing here forks: programs run in the sandbox supervisor
//! processes the workers start.

mod api;
pub mod clock;
pub mod domain;
pub mod events;
mod http;
pub mod locale;
pub mod registry;
mod router;
mod state;
pub mod telemetry;
pub mod throttle;
mod web;
pub mod worker;
pub mod zone;

use std::future::Future;

use tokio::net::TcpListener;

pub use api::openapi;
pub use clock::{Clock, now_ms};
pub use domain::{Domain, Policy, Registration};
pub use http::auth::SESSION_COOKIE;
pub use router::router;
pub use state::{
    App, AppState, DEFAULT_PROBLEM_QUOTA_BYTES, DEFAULT_REGISTRATIONS_PER_ADDRESS_HOUR,
    RequestLimits,
};
pub use telemetry::{Telemetry, serve_metrics};

/// Serves until `shutdown` completes; open event streams end then too, so shutdown is not held up.
pub async fn serve(
    state: AppState,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let stop = state.domain.events.shutdown_token();
    // Peers' addresses, for counting failed logins per address.
    let app = router(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stop.cancel();
        })
        .await
}
