//! The HTTP service: the JSON API (`/api/v1/…`), the web pages, live judging progress over SSE,
//! token and session authentication, and the workers that judge queued submissions.
//!
//! The server is built from its state, a bound listener and a shutdown future, so tests run it on
//! port 0 and end it when they like. Nothing here forks: programs run in the sandbox supervisor
//! processes the workers start.

pub mod access;
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
    /// The time submissions are stamped with and deadlines are judged by.
    pub clock: Clock,
    /// The key of students' personal instance seeds, read from the database on first use.
    seed_key: tokio::sync::OnceCell<grundy_coursework::SeedKey>,
}

/// Milliseconds since the Unix epoch: the system's, or one a test sets.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> i64 + Send + Sync>);

impl Clock {
    pub fn system() -> Clock {
        Clock(Arc::new(now_ms))
    }

    /// A clock reading `now` (tests move it to cross a deadline).
    pub fn manual(now: Arc<std::sync::atomic::AtomicI64>) -> Clock {
        Clock(Arc::new(move || {
            now.load(std::sync::atomic::Ordering::SeqCst)
        }))
    }

    pub fn now(&self) -> i64 {
        (self.0)()
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Clock({})", self.now())
    }
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
            clock,
            seed_key: tokio::sync::OnceCell::new(),
        }))
    }

    /// The key of personal instance seeds: made once, kept in the database, so every node and
    /// every restart draws the same instances.
    pub async fn seed_key(&self) -> Result<&grundy_coursework::SeedKey, ApiError> {
        self.seed_key
            .get_or_try_init(|| async {
                use rand::RngExt;
                let fresh: [u8; 32] = rand::rng().random();
                let stored = self
                    .store
                    .setting_or_insert("instance_seed_key", &fresh)
                    .await?;
                grundy_coursework::SeedKey::new(&stored)
                    .ok_or_else(|| ApiError::Internal("the stored seed key is too short".into()))
            })
            .await
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
