//! The HTTP service: the JSON API (`/api/v1/…`), the web pages, live judging progress over SSE,
//! token and session authentication, and the workers that judge queued submissions.
//!
//! The server is built from its state, a bound listener and a shutdown future, so tests run it on
//! port 0 and end it when they like. Nothing here forks: programs run in the sandbox supervisor
//! processes the workers start.

mod api;
pub mod auth;
mod error;
pub mod events;
pub mod registry;
mod web;
pub mod worker;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_store::Store;
use tokio::net::TcpListener;

pub use api::openapi;
pub use api::views;
pub use error::ApiError;
pub use registry::Problems;
pub use web::Registration;

/// Everything a request handler needs.
#[derive(Debug, Clone)]
pub struct AppState(Arc<App>);

#[derive(Debug)]
pub struct App {
    pub store: Store,
    /// Built-in and teachers' problems.
    pub problems: Problems,
    /// The languages programs may be submitted in (the workers' table).
    pub languages: Languages,
    pub events: events::Hub,
    /// Wakes in-process workers when a submission arrives.
    pub queued: tokio::sync::Notify,
    pub limits: RequestLimits,
    /// Password hashing and checking at once (Argon2 is memory- and CPU-hungry on purpose).
    pub hashing: tokio::sync::Semaphore,
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
        AppState(Arc::new(App {
            store,
            problems: Problems::new(catalogue),
            languages,
            events: events::Hub::default(),
            queued: tokio::sync::Notify::new(),
            limits,
            hashing: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            ),
        }))
    }

    /// Records the built-in problems' versions (a changed problem must have a new one) and loads
    /// the problems teachers created.
    pub async fn load_problems(&self) -> Result<usize, grundy_store::StoreError> {
        self.problems.record_builtin_versions(&self.store).await?;
        self.problems.load_custom(&self.store).await
    }
}

impl std::ops::Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

/// The whole HTTP surface.
pub fn router(state: AppState) -> Router {
    api::routes(state)
}

/// Serves until `shutdown` completes; open event streams end then too, so shutdown is not held up.
pub async fn serve(
    state: AppState,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let stop = state.events.shutdown_token();
    let app = router(state);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            stop.cancel();
        })
        .await
}

/// Wall-clock milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
