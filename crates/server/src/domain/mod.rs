//! The product's operations: what students, teachers and admins can do, apart from how they
//! ask. An operation on someone's behalf takes the caller and typed inputs, decides the caller's
//! permission through [`access`], and returns a typed result or one [`Error`]; the few that act
//! for nobody in particular (logging in, registering, reading the catalogue) take only what they
//! need. The JSON API (`api/`) and the pages (`web/`) only translate requests into these calls
//! and their results into responses.
//!
//! - [`problems`]: the catalogue, and the instances students answer without a program;
//! - [`submissions`]: submitting, reading results and their feedback, following judging;
//! - [`courses`] and [`assignments`]: courses, members, homework, extensions, personal
//!   instances and the gradebook;
//! - [`teaching`]: teachers' problems (packages, variants, export) and rejudging;
//! - [`accounts`]: passwords, sessions, API tokens, users and registration.

pub mod access;
pub mod accounts;
pub mod assignments;
pub mod courses;
mod error;
pub mod named;
pub mod play;
pub mod problems;
pub mod submissions;
pub mod teaching;

use std::sync::Arc;

use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_store::Store;

pub use error::{Error, Result};

use crate::clock::Clock;
use crate::events::Hub;
use crate::registry::Problems;

/// What the operations work with.
#[derive(Debug)]
pub struct Domain {
    pub store: Store,
    /// Built-in and teachers' problems.
    pub problems: Arc<Problems>,
    /// The languages programs may be submitted in (the workers' table).
    pub languages: Languages,
    /// Tells those following a submission that it changed.
    pub events: Hub,
    /// Wakes in-process workers when a submission arrives.
    pub queued: Arc<tokio::sync::Notify>,
    /// Password hashing and checking at once (Argon2 is memory- and CPU-hungry on purpose).
    pub hashing: tokio::sync::Semaphore,
    /// The time submissions are stamped with and deadlines are judged by (a test moves it);
    /// sessions, tokens and problem versions are stamped with the system's time.
    pub clock: Clock,
    pub policy: Policy,
    /// The key of students' personal instance seeds, read from the database on first use.
    seed_key: tokio::sync::OnceCell<grundy_coursework::SeedKey>,
}

/// The rules an operator sets for what users may send.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The largest program source, in bytes.
    pub source_bytes: usize,
    /// Submissions a user may make in any minute; 0 for no limit.
    pub submissions_per_minute: u32,
    /// Who may create an account from the registration page.
    pub registration: Registration,
    /// How long an API token lasts, in days: the default and the most one may ask for.
    pub token_days: u32,
    /// What each owner's problems may take, stored and unpacked; `None` for no limit.
    pub problem_quota_bytes: Option<u64>,
}

/// Who is registering accounts, as the operator chose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Registration {
    /// Accounts come from admins and teachers only.
    #[default]
    Closed,
    /// Anyone may register as a student.
    Open,
    /// Anyone who knows this code may register as a student.
    Invitation(String),
}

impl Domain {
    pub fn new(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        policy: Policy,
        clock: Clock,
    ) -> Domain {
        Domain {
            store,
            problems: Arc::new(Problems::new(catalogue)),
            languages,
            events: Hub::default(),
            queued: Arc::new(tokio::sync::Notify::new()),
            hashing: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            ),
            clock,
            policy,
            seed_key: tokio::sync::OnceCell::new(),
        }
    }

    /// The key of personal instance seeds: made once, kept in the database, so every node and
    /// every restart draws the same instances.
    pub(crate) async fn seed_key(&self) -> Result<&grundy_coursework::SeedKey> {
        self.seed_key
            .get_or_try_init(|| async {
                use rand::RngExt;
                let fresh: [u8; 32] = rand::rng().random();
                let stored = self
                    .store
                    .setting_or_insert("instance_seed_key", &fresh)
                    .await?;
                grundy_coursework::SeedKey::new(&stored)
                    .ok_or_else(|| Error::Internal("the stored seed key is too short".into()))
            })
            .await
    }

    /// Whether the database answers; the backend's name (`sqlite` or `postgres`).
    pub async fn health(&self) -> Result<&'static str> {
        self.store.count_users().await?;
        Ok(self.store.backend())
    }

    pub(crate) fn now(&self) -> i64 {
        self.clock.now()
    }
}
