//! The judging queue, kept on the submissions table. A worker's claim holds for `lease_ms` and is
//! renewed by its heartbeats; a lapsed lease lets another worker claim the submission, and only
//! the current holder's writes land, so a stale worker's late results are dropped.

use std::time::Duration;

use grundy_verdict::Verdict;

use crate::{Claimed, Result, Store, rows};

impl Store {
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

    /// Gives a claimed submission back to the queue, for a worker that cannot judge it after all;
    /// its attempt is not counted.
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

    /// Rejudges every submission of a problem, or only those `teacher` may see (see
    /// [`SubmissionQuery::teacher`](crate::SubmissionQuery)); returns how many.
    pub async fn rejudge_problem(&self, problem: &str, teacher: Option<i64>) -> Result<u64> {
        let scope = format!(
            "problem = $1 AND ($2 IS NULL OR {})",
            crate::submissions::seen_by_teacher("$2")
        );
        let queue = format!(
            "UPDATE submissions SET status = 'queued', worker = NULL, lease_until = NULL, attempts = 0, priority = -1, \
             verdict = NULL, score = NULL, max_score = NULL, compile_message = NULL, problem_version = NULL, judged_at = NULL \
             WHERE {scope}"
        );
        let clear = format!(
            "DELETE FROM test_results WHERE submission_id IN (SELECT id FROM submissions WHERE {scope})"
        );
        Ok(on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(sqlx::AssertSqlSafe(clear.as_str())).bind(problem).bind(teacher).execute(&mut *tx).await?;
            let changed = sqlx::query(sqlx::AssertSqlSafe(queue.as_str())).bind(problem).bind(teacher).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            changed
        }))
    }
}
