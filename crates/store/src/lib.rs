//! Storage for the service, on SQLite (the zero-setup default) or PostgreSQL (to scale out):
//! users, API tokens and sessions (`accounts`), problem versions and custom problems
//! (`problems`), submissions (`submissions`), the judging queue, which lives on the submissions
//! table with a lease (`queue`), the results its lease holders write (`results`), and courses
//! with their assignments (`courses`). Each module adds its methods to the one [`Store`]; the types they
//! return are re-exported here.
//!
//! One [`Store`] with a variant per backend: most SQL text is shared (sqlx binds `$1` by number on
//! SQLite too) and written once through [`on_both!`]; where the dialects differ (claiming with
//! `FOR UPDATE SKIP LOCKED`) each backend has its own statement. Times are Unix milliseconds passed
//! in by the caller, so the queue's leases can be tested with a clock the test controls.

mod rows;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{PgPool, SqlitePool};

pub use rows::{
    Claimed, CustomProblem, CustomProblemInfo, NewCustomProblem, NewSubmission, Outcome,
    ProblemMark, ProblemVersion, Put, Role, Session, Submission, SubmissionKind, SubmissionQuery,
    SubmissionStatus, TestRow, Token, User,
};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migrating the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A unique constraint refused the row (a user name taken, a token digest reused).
    #[error("{0} already exists")]
    Conflict(&'static str),
    #[error("a stored row is invalid: {0}")]
    InvalidRow(String),
    #[error("unsupported database URL {0:?} (use sqlite:PATH or postgres://…)")]
    UnsupportedUrl(String),
    /// Asked of the wrong database, or with what it cannot take.
    #[error("{0}")]
    Unsupported(&'static str),
}

pub type Result<T> = std::result::Result<T, StoreError>;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// The database, whichever it is.
#[derive(Debug, Clone)]
pub enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs the same statement on whichever pool the store has: `$pool` is bound to it.
macro_rules! on_both {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            Store::Sqlite($pool) => $body,
            Store::Postgres($pool) => $body,
        }
    };
}

// After the macro, which they use.
mod accounts;
mod backup;
mod courses;
mod problems;
mod queue;
mod results;
mod submissions;

pub use accounts::{LOOKALIKE, composed_name, name_key, name_skeleton};
pub use courses::{
    Assignment, AssignmentSpec, Course, Extension, Feedback, InstanceDraw, Invitation, Invited,
    MadeByCourse, Member, MemberOrigin, MemberRole, Scoring,
};
pub use problems::Listing;
pub use queue::{FAIRNESS_WINDOW_MS, QueueClass, priority};

fn conflict(what: &'static str) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |e| match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict(what),
        _ => StoreError::Database(e),
    }
}

impl Store {
    /// `sqlite:PATH` (created if missing) or `postgres://…`; migrations are applied.
    pub async fn connect(url: &str) -> Result<Store> {
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            return Self::open_sqlite(Path::new(path)).await;
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)?;
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(options)
                .await?;
            POSTGRES_MIGRATIONS.run(&pool).await?;
            let store = Store::Postgres(pool);
            store.fold_names().await?;
            return Ok(store);
        }
        Err(StoreError::UnsupportedUrl(url.to_owned()))
    }

    /// A SQLite file in write-ahead mode, waiting on a busy database rather than failing.
    pub async fn open_sqlite(path: &Path) -> Result<Store> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        SQLITE_MIGRATIONS.run(&pool).await?;
        let store = Store::Sqlite(pool);
        store.fold_names().await?;
        Ok(store)
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    pub async fn close(&self) {
        on_both!(self, pool => pool.close().await)
    }
}
