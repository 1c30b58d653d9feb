//! The judging queue, kept on the submissions table. A worker's claim holds for `lease_ms` and is
//! renewed by its heartbeats; a lapsed lease lets another worker claim the submission, and only
//! the current holder's writes land, so a stale worker's late results are dropped.
//!
//! The queue is fair between people, not between submissions: within a priority class (work for
//! an assignment before its deadline, then practice, then rejudges), a claim takes the oldest
//! submission of the user who has had the least judging in the last [`FAIRNESS_WINDOW_MS`], and
//! nobody has two submissions judged at once. One student's twenty looping programs then wait
//! behind each classmate's one, instead of the class waiting behind them.

use std::time::Duration;

use grundy_verdict::Verdict;

use crate::{Claimed, Result, Store, rows};

/// How far back a user's judging counts against their next claim.
pub const FAIRNESS_WINDOW_MS: i64 = 10 * 60 * 1000;

/// The judging the author of the row `s` has had lately: the time their submissions judged in
/// the window took; `now` and `window` name the statement's parameters.
fn recent_judging(now: &str, window: &str) -> String {
    format!(
        "(SELECT COALESCE(SUM(u.judged_at - u.started_at), 0) FROM submissions u \
         WHERE u.user_id = s.user_id AND u.judged_at >= {now} - {window} AND u.started_at IS NOT NULL)"
    )
}

/// What a claim may take: queued, or judging under a lease that ran out (its worker died) and
/// not yet given up on; never a submission of someone with another one being judged.
const CLAIMABLE: &str = "(s.status = 'queued' OR (s.status = 'judging' AND s.lease_until < $3 AND s.attempts < $4)) \
     AND NOT EXISTS (SELECT 1 FROM submissions b WHERE b.user_id = s.user_id AND b.id <> s.id \
                     AND b.status = 'judging' AND b.lease_until >= $3)";

/// The priority classes, highest first, as stored in `submissions.priority`.
pub mod priority {
    /// For an assignment, on time.
    pub const ASSIGNMENT: i64 = 1;
    /// Practice, and late work for an assignment.
    pub const PRACTICE: i64 = 0;
    /// A teacher's rejudge: nobody is waiting for it in class.
    pub const REJUDGE: i64 = -1;

    /// Every class, highest first, with the name an operator reads it by.
    pub const CLASSES: [(i64, &str); 3] = [
        (ASSIGNMENT, "assignment"),
        (PRACTICE, "practice"),
        (REJUDGE, "rejudge"),
    ];

    /// The name of the class `priority`; `None` for a value no class has.
    pub fn name(priority: i64) -> Option<&'static str> {
        CLASSES.iter().find(|(p, _)| *p == priority).map(|c| c.1)
    }
}

impl Store {
    /// Calls `on_notice` whenever another process queues a submission or gives one back
    /// (PostgreSQL `NOTIFY`), until `stop` resolves or the store is closed; returns at once on
    /// SQLite, whose workers share the server's process. Reconnects on its own; returns early only
    /// if listening cannot start.
    ///
    /// The listener holds one of the pool's connections, and closing the pool waits for every
    /// connection to come back: a listener that outlived its process's shutdown kept `close`
    /// waiting forever, so this returns its connection as soon as either happens.
    pub async fn watch_queue(
        &self,
        on_notice: impl Fn(),
        stop: impl Future<Output = ()>,
    ) -> Result<()> {
        let Store::Postgres(pool) = self else {
            return Ok(());
        };
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen(QUEUE_CHANNEL).await?;
        let listening = async {
            loop {
                match listener.recv().await {
                    Ok(_) => on_notice(),
                    Err(sqlx::Error::PoolClosed) => return,
                    // The connection dropped: recv reconnects on the next call; polling covers the
                    // gap.
                    Err(_) => tokio::time::sleep(Duration::from_secs(1)).await,
                }
            }
        };
        tokio::select! {
            () = listening => {}
            () = stop => {}
        }
        // Dropping the listener sends UNLISTEN and gives its connection back to the pool.
        drop(listener);
        Ok(())
    }

    /// Claims the next submission to judge for `worker` until `now + lease_ms`, by the fair rule
    /// of this module: a queued one, or one whose lease has run out (its worker died). Results
    /// of an earlier attempt are cleared. A submission whose lease ran out `max_attempts` times is
    /// left for [`Store::fail_exhausted`].
    pub async fn claim(
        &self,
        worker: &str,
        now: i64,
        lease_ms: i64,
        max_attempts: i64,
    ) -> Result<Option<Claimed>> {
        let pick = format!(
            "SELECT s.id FROM submissions s WHERE {CLAIMABLE} \
             ORDER BY s.priority DESC, {}, s.id LIMIT 1",
            recent_judging("$3", "$5")
        );
        let take = |pick: &str| {
            format!(
                "UPDATE submissions SET status = 'judging', worker = $1, lease_until = $2, \
                 attempts = attempts + 1, started_at = $3 WHERE id = ({pick}) \
                 RETURNING id, user_id, problem, kind, language, source, attempts, instance_seed, \
                 priority, queued_at, \
                 COALESCE((SELECT a.run_every_test FROM assignments a \
                           WHERE a.id = submissions.assignment_id), FALSE) AS run_every_test"
            )
        };
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id = $1";
        let claimed: Option<rows::ClaimedRow> = match self {
            // SQLite has one writer at a time: the statement is atomic without row locks.
            Store::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                let row: Option<rows::ClaimedRow> =
                    sqlx::query_as(sqlx::AssertSqlSafe(take(&pick)))
                        .bind(worker)
                        .bind(now + lease_ms)
                        .bind(now)
                        .bind(max_attempts)
                        .bind(FAIRNESS_WINDOW_MS)
                        .fetch_optional(&mut *tx)
                        .await?;
                if let Some(row) = &row {
                    sqlx::query(CLEAR).bind(row.id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                row
            }
            // Claims take turns (a lock for the transaction): two workers claiming at once could
            // otherwise each take a submission of one user, neither seeing the other's yet. Rows
            // stay locked as they are taken, so a rejudge or a heartbeat never waits on a claim
            // and vice versa.
            Store::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(CLAIM_LOCK)
                    .execute(&mut *tx)
                    .await?;
                let locked = format!("{pick} FOR UPDATE OF s SKIP LOCKED");
                let row: Option<rows::ClaimedRow> =
                    sqlx::query_as(sqlx::AssertSqlSafe(take(&locked)))
                        .bind(worker)
                        .bind(now + lease_ms)
                        .bind(now)
                        .bind(max_attempts)
                        .bind(FAIRNESS_WINDOW_MS)
                        .fetch_optional(&mut *tx)
                        .await?;
                if let Some(row) = &row {
                    sqlx::query(CLEAR).bind(row.id).execute(&mut *tx).await?;
                }
                tx.commit().await?;
                row
            }
        };
        claimed.map(TryInto::try_into).transpose()
    }

    /// Where a queued submission stands: how many queued submissions the fair rule takes before
    /// it at `now` (its place is one more); `None` once it is no longer queued. Judging in the
    /// meantime may move it either way: a number to show, not a promise.
    pub async fn queue_ahead(&self, id: i64, now: i64) -> Result<Option<i64>> {
        let sql = format!(
            "WITH q AS (SELECT s.id, s.priority, {} AS used FROM submissions s \
                        WHERE s.status = 'queued') \
             SELECT (SELECT COUNT(*) FROM q WHERE q.priority > me.priority \
                     OR (q.priority = me.priority AND (q.used < me.used \
                         OR (q.used = me.used AND q.id < me.id)))) \
             FROM q AS me WHERE me.id = $1",
            recent_judging("$2", "$3")
        );
        Ok(
            on_both!(self, pool => sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(now)
            .bind(FAIRNESS_WINDOW_MS)
            .fetch_optional(pool)
            .await?),
        )
    }

    /// How many submissions wait in each priority class, and since when the oldest of each has
    /// waited (when it was queued, by its creation or its rejudge): the operator's view of the
    /// queue. Classes with nothing queued are left out.
    pub async fn queue_depth(&self) -> Result<Vec<QueueClass>> {
        const SQL: &str = "SELECT priority, COUNT(*), MIN(queued_at) FROM submissions \
                           WHERE status = 'queued' GROUP BY priority ORDER BY priority DESC";
        let found: Vec<(i64, i64, i64)> =
            on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?);
        Ok(found
            .into_iter()
            .map(|(priority, queued, oldest_queued_at)| QueueClass {
                priority,
                queued,
                oldest_queued_at,
            })
            .collect())
    }

    /// Extends the lease; false when `worker` no longer holds the submission.
    pub async fn heartbeat(&self, id: i64, worker: &str, now: i64, lease_ms: i64) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET lease_until = $1 WHERE id = $2 AND worker = $3 AND status = 'judging'";
        Ok(
            on_both!(self, pool => sqlx::query(SQL).bind(now + lease_ms).bind(id).bind(worker).execute(pool).await?.rows_affected())
                == 1,
        )
    }

    /// Gives a claimed submission back to the queue, for a worker that cannot judge it after all
    /// or is shutting down; its attempt is not counted. On PostgreSQL other processes' workers
    /// are woken for it, as for a new submission.
    pub async fn release(&self, id: i64, worker: &str) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, \
             attempts = attempts - 1, started_at = NULL WHERE id = $1 AND worker = $2 AND status = 'judging'";
        let released = on_both!(self, pool => sqlx::query(SQL).bind(id).bind(worker).execute(pool).await?.rows_affected())
            == 1;
        if released {
            self.notify_queued(id).await?;
        }
        Ok(released)
    }

    /// Wakes `grundy worker`s listening on other machines for submission `id` (PostgreSQL;
    /// nothing to do on SQLite, whose workers share one process). Polling covers a lost notice.
    pub(crate) async fn notify_queued(&self, id: i64) -> Result<()> {
        if let Store::Postgres(pool) = self {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(QUEUE_CHANNEL)
                .bind(id.to_string())
                .execute(pool)
                .await?;
        }
        Ok(())
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

    /// Puts one submission back in the queue at `now`, whatever its state; a worker judging it
    /// now will find its lease gone. Returns false for an unknown id.
    pub async fn rejudge(&self, id: i64, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, attempts = 0, priority = -1, \
             verdict = NULL, score = NULL, max_score = NULL, compile_message = NULL, problem_version = NULL, judged_at = NULL, \
             started_at = NULL, queued_at = $2 WHERE id = $1";
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id = $1";
        let changed = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let changed = sqlx::query(SQL).bind(id).bind(now).execute(&mut *tx).await?.rows_affected();
            sqlx::query(CLEAR).bind(id).execute(&mut *tx).await?;
            tx.commit().await?;
            changed
        });
        Ok(changed == 1)
    }

    /// Rejudges every submission of a problem at `now`, or only those `teacher` may see (see
    /// [`SubmissionQuery::teacher`](crate::SubmissionQuery)); returns how many.
    pub async fn rejudge_problem(
        &self,
        problem: &str,
        teacher: Option<i64>,
        now: i64,
    ) -> Result<u64> {
        let scope = format!(
            "problem = $1 AND ($2 IS NULL OR {})",
            crate::submissions::seen_by_teacher("$2")
        );
        let queue = format!(
            "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, attempts = 0, priority = -1, \
             verdict = NULL, score = NULL, max_score = NULL, compile_message = NULL, problem_version = NULL, judged_at = NULL, \
             started_at = NULL, queued_at = $3 WHERE {scope}"
        );
        let clear = format!(
            "DELETE FROM test_results WHERE submission_id IN (SELECT id FROM submissions WHERE {scope})"
        );
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(sqlx::AssertSqlSafe(clear.as_str())).bind(problem).bind(teacher).execute(&mut *tx).await?;
            let changed = sqlx::query(sqlx::AssertSqlSafe(queue.as_str())).bind(problem).bind(teacher).bind(now).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            changed
        }))
    }
}

/// The channel of [`Store::watch_queue`]'s notices.
const QUEUE_CHANNEL: &str = "grundy_queue";

/// A key for the claims' turn-taking lock on PostgreSQL (any number no other lock uses).
const CLAIM_LOCK: i64 = 0x6772_756e_6479;

/// One priority class of the queue, as [`Store::queue_depth`] counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueClass {
    /// See [`priority`].
    pub priority: i64,
    pub queued: i64,
    /// When the submission that has waited longest was queued.
    pub oldest_queued_at: i64,
}
