//! Storage for the service, on SQLite (the zero-setup default) or PostgreSQL (to scale out):
//! users, API tokens, sessions, problem versions, submissions with their per-test results, and
//! the judging queue, which lives on the submissions table with a lease.
//!
//! One [`Store`] with a variant per backend: most SQL text is shared (sqlx binds `$1` by number on
//! SQLite too) and written once through [`on_both!`]; where the dialects differ (claiming with
//! `FOR UPDATE SKIP LOCKED`) each backend has its own statement. Times are Unix milliseconds passed
//! in by the caller, so the queue's leases can be tested with a clock the test controls.

mod rows;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use grundy_verdict::Verdict;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{PgPool, SqlitePool};

pub use rows::{
    Claimed, CustomProblem, NewSubmission, Outcome, ProblemMark, ProblemVersion, Role, Session,
    Submission, SubmissionKind, SubmissionQuery, SubmissionStatus, TestRow, User,
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

// After the macro, which it uses.
mod courses;

pub use courses::{
    Assignment, AssignmentSpec, Course, Extension, Feedback, InstanceDraw, Member, MemberRole,
    Scoring,
};

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
            return Ok(Store::Postgres(pool));
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
        Ok(Store::Sqlite(pool))
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

    // ---- users, tokens, sessions -------------------------------------------------------------

    pub async fn create_user(
        &self,
        name: &str,
        role: Role,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User> {
        const SQL: &str = "INSERT INTO users (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4) \
                           RETURNING id, name, role, password_hash, created_at";
        let row: rows::UserRow = on_both!(self, pool => sqlx::query_as(SQL)
            .bind(name)
            .bind(role.as_str())
            .bind(password_hash)
            .bind(now)
            .fetch_one(pool)
            .await
            .map_err(conflict("a user with this name"))?);
        row.try_into()
    }

    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        const SQL: &str =
            "SELECT id, name, role, password_hash, created_at FROM users WHERE name = $1";
        let row: Option<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(name).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        const SQL: &str =
            "SELECT id, name, role, password_hash, created_at FROM users WHERE id = $1";
        let row: Option<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    pub async fn set_password(&self, user: i64, password_hash: Option<&str>) -> Result<()> {
        const SQL: &str = "UPDATE users SET password_hash = $1 WHERE id = $2";
        on_both!(self, pool => sqlx::query(SQL).bind(password_hash).bind(user).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// Everyone, by name.
    pub async fn users(&self) -> Result<Vec<User>> {
        const SQL: &str =
            "SELECT id, name, role, password_hash, created_at FROM users ORDER BY name";
        let found: Vec<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// False when there is no such user.
    pub async fn set_role(&self, user: i64, role: Role) -> Result<bool> {
        const SQL: &str = "UPDATE users SET role = $1 WHERE id = $2";
        let changed = on_both!(self, pool => sqlx::query(SQL).bind(role.as_str()).bind(user).execute(pool).await?.rows_affected());
        Ok(changed == 1)
    }

    pub async fn count_users(&self) -> Result<i64> {
        const SQL: &str = "SELECT COUNT(*) FROM users";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).fetch_one(pool).await?))
    }

    /// Stores the digest of a new API token.
    pub async fn create_token(
        &self,
        user_id: i64,
        digest: &[u8],
        label: &str,
        now: i64,
    ) -> Result<()> {
        const SQL: &str =
            "INSERT INTO api_tokens (user_id, digest, label, created_at) VALUES ($1, $2, $3, $4)";
        on_both!(self, pool => sqlx::query(SQL)
            .bind(user_id)
            .bind(digest)
            .bind(label)
            .bind(now)
            .execute(pool)
            .await
            .map_err(conflict("this token"))?
            .rows_affected());
        Ok(())
    }

    /// The user a token digest belongs to; marks the token used.
    pub async fn user_by_token(&self, digest: &[u8], now: i64) -> Result<Option<User>> {
        const FIND: &str = "SELECT user_id, last_used_at FROM api_tokens WHERE digest = $1";
        // Written at most once a minute: every request would otherwise contend for SQLite's
        // single write lock with the workers.
        const TOUCH: &str = "UPDATE api_tokens SET last_used_at = $1 WHERE digest = $2";
        let found: Option<(i64, Option<i64>)> =
            on_both!(self, pool => sqlx::query_as(FIND).bind(digest).fetch_optional(pool).await?);
        if let Some((_, last)) = found
            && last.is_none_or(|t| t < now - 60_000)
        {
            on_both!(self, pool => sqlx::query(TOUCH).bind(now).bind(digest).execute(pool).await?.rows_affected());
        }
        let user_id = found.map(|(user, _)| user);
        match user_id {
            Some(id) => self.user_by_id(id).await,
            None => Ok(None),
        }
    }

    pub async fn put_session(&self, session: &Session) -> Result<()> {
        const SQL: &str = "INSERT INTO sessions (id, user_id, data, expires_at) VALUES ($1, $2, $3, $4) \
                           ON CONFLICT (id) DO UPDATE SET user_id = $2, data = $3, expires_at = $4";
        on_both!(self, pool => sqlx::query(SQL)
            .bind(&session.id)
            .bind(session.user_id)
            .bind(&session.data)
            .bind(session.expires_at)
            .execute(pool)
            .await?
            .rows_affected());
        Ok(())
    }

    /// A session that has not expired at `now`.
    pub async fn session(&self, id: &str, now: i64) -> Result<Option<Session>> {
        const SQL: &str =
            "SELECT id, user_id, data, expires_at FROM sessions WHERE id = $1 AND expires_at > $2";
        Ok(
            on_both!(self, pool => sqlx::query_as(SQL).bind(id).bind(now).fetch_optional(pool).await?),
        )
    }

    pub async fn delete_session(&self, id: &str) -> Result<()> {
        const SQL: &str = "DELETE FROM sessions WHERE id = $1";
        on_both!(self, pool => sqlx::query(SQL).bind(id).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// Ends every session of `user` but `keep`.
    pub async fn delete_user_sessions(&self, user: i64, keep: Option<&str>) -> Result<u64> {
        const SQL: &str = "DELETE FROM sessions WHERE user_id = $1 AND ($2 IS NULL OR id <> $2)";
        Ok(
            on_both!(self, pool => sqlx::query(SQL).bind(user).bind(keep).execute(pool).await?.rows_affected()),
        )
    }

    /// Removes expired sessions; returns how many.
    pub async fn delete_expired_sessions(&self, now: i64) -> Result<u64> {
        const SQL: &str = "DELETE FROM sessions WHERE expires_at <= $1";
        Ok(on_both!(self, pool => sqlx::query(SQL).bind(now).execute(pool).await?.rows_affected()))
    }

    // ---- problem versions ----------------------------------------------------------------------

    /// Records a problem version; the same (slug, version) with another digest is a conflict (a
    /// changed problem must get a new version).
    pub async fn record_problem_version(&self, version: &ProblemVersion) -> Result<()> {
        const INSERT: &str = "INSERT INTO problem_versions (slug, version, digest, origin, created_at) \
                              VALUES ($1, $2, $3, $4, $5) ON CONFLICT (slug, version) DO NOTHING";
        on_both!(self, pool => sqlx::query(INSERT)
            .bind(&version.slug)
            .bind(version.version)
            .bind(&version.digest)
            .bind(&version.origin)
            .bind(version.created_at)
            .execute(pool)
            .await?
            .rows_affected());
        let stored = self
            .problem_version(&version.slug, version.version)
            .await?
            .ok_or_else(|| StoreError::InvalidRow("problem version vanished".into()))?;
        if stored.digest != version.digest {
            return Err(StoreError::Conflict(
                "this problem version with different content",
            ));
        }
        Ok(())
    }

    pub async fn problem_version(
        &self,
        slug: &str,
        version: i64,
    ) -> Result<Option<ProblemVersion>> {
        const SQL: &str = "SELECT slug, version, digest, origin, created_at FROM problem_versions \
                           WHERE slug = $1 AND version = $2";
        Ok(
            on_both!(self, pool => sqlx::query_as(SQL).bind(slug).bind(version).fetch_optional(pool).await?),
        )
    }

    // ---- problems created through the service -------------------------------------------------

    /// Stores a new custom problem (version 1) or replaces one `owner` owns (next version).
    /// Returns the stored version; a slug owned by someone else is a conflict.
    pub async fn put_custom_problem(
        &self,
        slug: &str,
        origin: &str,
        owner: i64,
        content: &[u8],
        now: i64,
    ) -> Result<i64> {
        // One statement, so two uploads of one slug cannot both become version 2.
        const SQL: &str = "INSERT INTO custom_problems (slug, origin, owner_id, version, content, created_at) \
                           VALUES ($1, $2, $3, 1, $4, $5) \
                           ON CONFLICT (slug) DO UPDATE SET version = custom_problems.version + 1, \
                           content = excluded.content, origin = excluded.origin, created_at = excluded.created_at \
                           WHERE custom_problems.owner_id = excluded.owner_id \
                           RETURNING version";
        let version: Option<i64> = on_both!(self, pool => sqlx::query_scalar(SQL)
            .bind(slug)
            .bind(origin)
            .bind(owner)
            .bind(content)
            .bind(now)
            .fetch_optional(pool)
            .await?);
        version.ok_or(StoreError::Conflict(
            "a problem with this slug owned by someone else",
        ))
    }

    pub async fn custom_problem(&self, slug: &str) -> Result<Option<CustomProblem>> {
        const SQL: &str = "SELECT slug, origin, owner_id, version, content, created_at \
                           FROM custom_problems WHERE slug = $1";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(slug).fetch_optional(pool).await?))
    }

    /// The stored version of a custom problem, without its content.
    pub async fn custom_problem_version(&self, slug: &str) -> Result<Option<i64>> {
        const SQL: &str = "SELECT version FROM custom_problems WHERE slug = $1";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).bind(slug).fetch_optional(pool).await?))
    }

    pub async fn custom_problems(&self) -> Result<Vec<CustomProblem>> {
        const SQL: &str = "SELECT slug, origin, owner_id, version, content, created_at \
                           FROM custom_problems ORDER BY slug";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?))
    }

    // ---- submissions -------------------------------------------------------------------------

    pub async fn create_submission(&self, new: &NewSubmission, now: i64) -> Result<i64> {
        const SQL: &str = "INSERT INTO submissions (user_id, problem, kind, language, source, priority, created_at, \
                           assignment_id, instance_seed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id";
        let id: i64 = on_both!(self, pool => sqlx::query_scalar(SQL)
            .bind(new.user_id)
            .bind(&new.problem)
            .bind(new.kind.as_str())
            .bind(&new.language)
            .bind(&new.source)
            .bind(new.priority)
            .bind(now)
            .bind(new.assignment_id)
            .bind(new.instance_seed)
            .fetch_one(pool)
            .await?);
        if let Store::Postgres(pool) = self {
            // Wakes `grundy worker`s listening on other machines; polling covers a lost notice.
            sqlx::query("SELECT pg_notify('grundy_queue', $1)")
                .bind(id.to_string())
                .execute(pool)
                .await?;
        }
        Ok(id)
    }

    pub async fn submission(&self, id: i64) -> Result<Option<Submission>> {
        let sql = format!("{} WHERE id = $1", rows::SUBMISSION_SELECT);
        let row: Option<rows::SubmissionRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    /// Newest first, narrowed by whatever the query gives.
    pub async fn submissions(&self, query: &SubmissionQuery<'_>) -> Result<Vec<Submission>> {
        let sql = format!(
            "{} WHERE ($1 IS NULL OR user_id = $1) AND ($2 IS NULL OR problem = $2) \
             AND ($3 IS NULL OR verdict = $3) AND ($4 IS NULL OR id < $4) \
             AND ($6 IS NULL OR assignment_id = $6) \
             AND ($7 IS NULL OR user_id = $7 \
                  OR assignment_id IN (SELECT a.id FROM assignments a JOIN course_members t \
                                       ON t.course_id = a.course_id AND t.user_id = $7 AND t.role = 'teacher') \
                  OR problem IN (SELECT slug FROM custom_problems WHERE owner_id = $7)) \
             ORDER BY id DESC LIMIT $5",
            rows::SUBMISSION_SELECT
        );
        let found: Vec<rows::SubmissionRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(query.user)
            .bind(query.problem)
            .bind(query.verdict.map(Verdict::as_str))
            .bind(query.before)
            .bind(query.limit)
            .bind(query.assignment)
            .bind(query.teacher)
            .fetch_all(pool)
            .await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// Per problem the user submitted to: attempts, best score, and whether any was accepted.
    pub async fn problem_marks(&self, user: i64) -> Result<Vec<ProblemMark>> {
        const SQL: &str = "SELECT problem, COUNT(*) AS attempts, MAX(score) AS best_score, \
             MAX(CASE WHEN verdict = $2 THEN 1 ELSE 0 END) AS solved \
             FROM submissions WHERE user_id = $1 GROUP BY problem ORDER BY problem";
        let found: Vec<(String, i64, Option<i64>, i32)> = on_both!(self, pool => sqlx::query_as(SQL)
            .bind(user)
            .bind(Verdict::Accepted.as_str())
            .fetch_all(pool)
            .await?);
        Ok(found
            .into_iter()
            .map(|(problem, attempts, best_score, solved)| ProblemMark {
                problem,
                attempts,
                best_score,
                solved: solved != 0,
            })
            .collect())
    }

    /// The program, or the answers as JSON, of a submission.
    pub async fn submission_source(&self, id: i64) -> Result<Option<Vec<u8>>> {
        const SQL: &str = "SELECT source FROM submissions WHERE id = $1";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).bind(id).fetch_optional(pool).await?))
    }

    /// How many submissions `user` made at or after `since` (the rate limit's window).
    pub async fn count_submissions_since(&self, user: i64, since: i64) -> Result<i64> {
        const SQL: &str =
            "SELECT COUNT(*) FROM submissions WHERE user_id = $1 AND created_at >= $2";
        Ok(
            on_both!(self, pool => sqlx::query_scalar(SQL).bind(user).bind(since).fetch_one(pool).await?),
        )
    }

    pub async fn test_results(&self, submission: i64) -> Result<Vec<TestRow>> {
        const SQL: &str = "SELECT position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message \
                           FROM test_results WHERE submission_id = $1 ORDER BY position";
        let found: Vec<rows::TestResultRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(submission).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    // ---- the queue ---------------------------------------------------------------------------

    /// Calls `on_notice` whenever another process queues a submission (PostgreSQL `NOTIFY`);
    /// returns at once on SQLite, whose workers share the server's process. Reconnects on its own;
    /// returns only if listening cannot start.
    pub async fn watch_queue(&self, on_notice: impl Fn()) -> Result<()> {
        let Store::Postgres(pool) = self else {
            return Ok(());
        };
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen("grundy_queue").await?;
        loop {
            match listener.recv().await {
                Ok(_) => on_notice(),
                // The connection dropped: recv reconnects on the next call; polling covers the gap.
                Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
            }
        }
    }

    /// Claims the next submission to judge for `worker` until `now + lease_ms`: a queued one, or
    /// one whose lease has run out (its worker died). Results of an earlier attempt are cleared.
    /// A submission whose lease ran out `max_attempts` times is left for [`Store::fail_exhausted`].
    pub async fn claim(
        &self,
        worker: &str,
        now: i64,
        lease_ms: i64,
        max_attempts: i64,
    ) -> Result<Option<Claimed>> {
        const POSTGRES: &str = "UPDATE submissions SET status = 'judging', worker = $1, lease_until = $2, attempts = attempts + 1 \
             WHERE id = (SELECT id FROM submissions \
                         WHERE status = 'queued' OR (status = 'judging' AND lease_until < $3 AND attempts < $4) \
                         ORDER BY priority DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED) \
             RETURNING id, user_id, problem, kind, language, source, attempts, instance_seed";
        // SQLite has one writer at a time: the statement is atomic without row locks.
        const SQLITE: &str = "UPDATE submissions SET status = 'judging', worker = $1, lease_until = $2, attempts = attempts + 1 \
             WHERE id = (SELECT id FROM submissions \
                         WHERE status = 'queued' OR (status = 'judging' AND lease_until < $3 AND attempts < $4) \
                         ORDER BY priority DESC, id LIMIT 1) \
             RETURNING id, user_id, problem, kind, language, source, attempts, instance_seed";
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id = $1";
        let sql = match self {
            Store::Sqlite(_) => SQLITE,
            Store::Postgres(_) => POSTGRES,
        };
        let claimed: Option<rows::ClaimedRow> = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let row: Option<rows::ClaimedRow> = sqlx::query_as(sql)
                .bind(worker)
                .bind(now + lease_ms)
                .bind(now)
                .bind(max_attempts)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = &row {
                sqlx::query(CLEAR).bind(row.id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            row
        });
        claimed.map(TryInto::try_into).transpose()
    }

    /// Extends the lease; false when `worker` no longer holds the submission.
    pub async fn heartbeat(&self, id: i64, worker: &str, now: i64, lease_ms: i64) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET lease_until = $1 WHERE id = $2 AND worker = $3 AND status = 'judging'";
        Ok(
            on_both!(self, pool => sqlx::query(SQL).bind(now + lease_ms).bind(id).bind(worker).execute(pool).await?.rows_affected())
                == 1,
        )
    }

    /// Records one test's result; false (and nothing written) when `worker` no longer holds it.
    pub async fn record_test(&self, id: i64, worker: &str, test: &TestRow) -> Result<bool> {
        const SQLITE: &str = "INSERT INTO test_results (submission_id, position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 \
             WHERE EXISTS (SELECT 1 FROM submissions WHERE id = $1 AND worker = $10 AND status = 'judging')";
        // FOR SHARE: a claim by another worker committing meanwhile is waited for and re-checked,
        // so a stale worker's row cannot land after the new holder cleared the old results.
        const POSTGRES: &str = "INSERT INTO test_results (submission_id, position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 \
             WHERE EXISTS (SELECT 1 FROM submissions WHERE id = $1 AND worker = $10 AND status = 'judging' FOR SHARE)";
        let sql = match self {
            Store::Sqlite(_) => SQLITE,
            Store::Postgres(_) => POSTGRES,
        };
        Ok(on_both!(self, pool => sqlx::query(sql)
            .bind(id)
            .bind(test.position)
            .bind(&test.name.group)
            .bind(i64::from(test.name.index))
            .bind(test.verdict.as_str())
            .bind(test.cpu_ms)
            .bind(test.wall_ms)
            .bind(test.memory_kib)
            .bind(&test.message)
            .bind(worker)
            .execute(pool)
            .await?
            .rows_affected())
            == 1)
    }

    /// Writes the final result, once, by the worker holding the lease; false for a stale worker.
    pub async fn finish(&self, id: i64, worker: &str, outcome: &Outcome, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET status = 'done', verdict = $1, score = $2, max_score = $3, \
             compile_message = $4, problem_version = $5, judged_at = $6, lease_until = NULL \
             WHERE id = $7 AND worker = $8 AND status = 'judging'";
        Ok(on_both!(self, pool => sqlx::query(SQL)
            .bind(outcome.verdict.as_str())
            .bind(outcome.score)
            .bind(outcome.max_score)
            .bind(&outcome.compile_message)
            .bind(outcome.problem_version)
            .bind(now)
            .bind(id)
            .bind(worker)
            .execute(pool)
            .await?
            .rows_affected())
            == 1)
    }

    /// Gives a claimed submission back to the queue (a worker shutting down mid-judging).
    pub async fn release(&self, id: i64, worker: &str) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, \
             attempts = attempts - 1 WHERE id = $1 AND worker = $2 AND status = 'judging'";
        Ok(
            on_both!(self, pool => sqlx::query(SQL).bind(id).bind(worker).execute(pool).await?.rows_affected())
                == 1,
        )
    }

    /// Submissions whose lease ran out `max_attempts` times are finished as internal errors
    /// instead of being claimed forever (a submission that kills its worker every time).
    pub async fn fail_exhausted(&self, now: i64, max_attempts: i64) -> Result<u64> {
        const SQL: &str = "UPDATE submissions SET status = 'done', verdict = $3, score = 0, \
             judged_at = $1, lease_until = NULL \
             WHERE status = 'judging' AND lease_until < $1 AND attempts >= $2";
        Ok(on_both!(self, pool => sqlx::query(SQL)
            .bind(now)
            .bind(max_attempts)
            .bind(Verdict::InternalError.as_str())
            .execute(pool)
            .await?
            .rows_affected()))
    }

    /// Puts one submission back in the queue, whatever its state; a worker judging it now will
    /// find its lease gone. Returns false for an unknown id.
    pub async fn rejudge(&self, id: i64) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, attempts = 0, priority = -1, \
             verdict = NULL, score = NULL, max_score = NULL, compile_message = NULL, problem_version = NULL, judged_at = NULL \
             WHERE id = $1";
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id = $1";
        let changed = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let changed = sqlx::query(SQL).bind(id).execute(&mut *tx).await?.rows_affected();
            sqlx::query(CLEAR).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            changed
        });
        Ok(changed == 1)
    }

    /// Rejudges every submission of a problem; returns how many.
    pub async fn rejudge_problem(&self, problem: &str) -> Result<u64> {
        const SQL: &str = "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, attempts = 0, priority = -1, \
             verdict = NULL, score = NULL, max_score = NULL, compile_message = NULL, problem_version = NULL, judged_at = NULL \
             WHERE problem = $1";
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id IN (SELECT id FROM submissions WHERE problem = $1)";
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(CLEAR).bind(problem).execute(&mut *tx).await?;
            let changed = sqlx::query(SQL).bind(problem).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            changed
        }))
    }
}
