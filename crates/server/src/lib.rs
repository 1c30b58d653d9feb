//! The HTTP service: the JSON API (`/api/v1/…`), live judging progress over SSE, bearer-token
//! authentication, and the workers that judge queued submissions.
//!
//! The server is built from its state, a bound listener and a shutdown future, so tests run it on
//! port 0 and end it when they like. Nothing here forks: programs run in the sandbox supervisor
//! processes the workers start.

mod api;
pub mod auth;
mod error;
pub mod events;
pub mod worker;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_store::Store;
use tokio::net::TcpListener;

pub use error::ApiError;

/// Everything a request handler needs.
#[derive(Debug, Clone)]
pub struct AppState(Arc<App>);

#[derive(Debug)]
pub struct App {
    pub store: Store,
    pub catalogue: Catalogue,
    /// The languages programs may be submitted in (the workers' table).
    pub languages: Languages,
    pub events: events::Hub,
    /// Wakes in-process workers when a submission arrives.
    pub queued: tokio::sync::Notify,
    pub limits: RequestLimits,
}

/// Sizes and rates the API enforces.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    pub body_bytes: usize,
    pub source_bytes: usize,
    pub timeout: Duration,
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            body_bytes: 1 << 20,
            source_bytes: 64 << 10,
            timeout: Duration::from_secs(30),
        }
    }
}

impl AppState {
    pub fn new(store: Store, catalogue: Catalogue, languages: Languages) -> AppState {
        AppState(Arc::new(App {
            store,
            catalogue,
            languages,
            events: events::Hub::default(),
            queued: tokio::sync::Notify::new(),
            limits: RequestLimits::default(),
        }))
    }

    /// Records the version of every catalogue problem (a changed problem must have a new one).
    pub async fn record_problem_versions(&self) -> Result<(), grundy_store::StoreError> {
        for problem in self.catalogue.iter() {
            let version = grundy_store::ProblemVersion {
                slug: problem.slug().to_owned(),
                version: i64::from(problem.spec.version),
                digest: grundy_judge::testset::digest(problem),
                origin: "builtin".into(),
                created_at: now_ms(),
            };
            self.store.record_problem_version(&version).await?;
        }
        Ok(())
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
