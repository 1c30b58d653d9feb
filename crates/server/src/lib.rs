//! The HTTP service: the JSON API (`/api/v1/…`), the web pages, live judging progress over SSE,
//! and the workers that judge queued submissions.
//!
//! The layers, from the top: [`router`] puts the API (`api/`, JSON) and the pages (`web/`,
//! HTML) behind one set of layers; both translate requests into the product's operations in
//! [`domain`] and their results into responses, sharing only `http/` (who is calling, how a
//! refusal reads over HTTP) and never each other. The operations use the store, the
//! [`registry`] of problems and the [`events`] hub. The [`worker`]s judge with a narrow context
//! of their own, without any of the HTTP side. `docs/architecture.md` walks one submission
//! through them.
//!
//! The server is built from its state, a bound listener and a shutdown future, so tests run it on
//! port 0 and end it when they like. Nothing here forks: programs run in the sandbox supervisor
//! processes the workers start.

mod api;
pub mod domain;
pub mod events;
mod http;
pub mod registry;
mod router;
mod web;
pub mod worker;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_store::Store;
use tokio::net::TcpListener;

pub use api::openapi;
pub use domain::{Clock, Domain, Policy, Registration, now_ms};
pub use http::auth::SESSION_COOKIE;
pub use router::router;

/// Everything a request handler needs: the operations' domain and the limits of HTTP requests.
#[derive(Debug, Clone)]
pub struct AppState(Arc<App>);

#[derive(Debug)]
pub struct App {
    pub domain: Domain,
    pub limits: RequestLimits,
}

/// Sizes, rates and policies the API and pages enforce.
#[derive(Debug, Clone)]
pub struct RequestLimits {
    /// Any request body but a package upload.
    pub body_bytes: usize,
    pub source_bytes: usize,
    /// A problem package upload (zipped).
    pub package_bytes: usize,
    pub timeout: Duration,
    /// Submissions a user may make in any minute; 0 for no limit.
    pub submissions_per_minute: u32,
    /// Whether session cookies are marked `Secure` (the service is reached over HTTPS).
    pub secure_cookies: bool,
    /// Who may create an account from the registration page.
    pub registration: Registration,
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            body_bytes: 1 << 20,
            source_bytes: 64 << 10,
            package_bytes: 64 << 20,
            timeout: Duration::from_secs(30),
            submissions_per_minute: 20,
            secure_cookies: false,
            registration: Registration::Closed,
        }
    }
}

impl AppState {
    pub fn new(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        limits: RequestLimits,
    ) -> AppState {
        AppState::with_clock(store, catalogue, languages, limits, Clock::system())
    }

    pub fn with_clock(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        limits: RequestLimits,
        clock: Clock,
    ) -> AppState {
        let policy = Policy {
            source_bytes: limits.source_bytes,
            submissions_per_minute: limits.submissions_per_minute,
            registration: limits.registration.clone(),
        };
        AppState(Arc::new(App {
            domain: Domain::new(store, catalogue, languages, policy, clock),
            limits,
        }))
    }

    /// Records the built-in problems' versions (a changed problem must have a new one) and loads
    /// the problems teachers created.
    pub async fn load_problems(&self) -> Result<usize, grundy_store::StoreError> {
        self.domain.problems.load(&self.domain.store).await
    }
}

impl std::ops::Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

/// Serves until `shutdown` completes; open event streams end then too, so shutdown is not held up.
pub async fn serve(
    state: AppState,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let stop = state.domain.events.shutdown_token();
    let app = router(state);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stop.cancel();
        })
        .await
}
