//! What a backup needs of the store: a consistent copy of a SQLite database taken while the
//! service runs, and, after a restore, the submissions that were being judged at the time put
//! back in the queue (their workers are not there any more). PostgreSQL is copied with its own
//! tools (`pg_dump`, `pg_restore`), which the command line runs.

use std::path::Path;

use crate::{Result, Store, StoreError};

impl Store {
    /// Writes a consistent copy of this SQLite database to `to`, which must not exist: SQLite's
    /// `VACUUM INTO`, which reads one snapshot while writers go on (the service need not stop).
    /// The copy is a database of its own, without a write-ahead log beside it.
    pub async fn copy_sqlite(&self, to: &Path) -> Result<()> {
        let Store::Sqlite(pool) = self else {
            return Err(StoreError::Unsupported(
                "copying with VACUUM INTO is for SQLite; back PostgreSQL up with pg_dump",
            ));
        };
        let to = to.to_str().ok_or(StoreError::Unsupported(
            "a backup's path must be valid UTF-8",
        ))?;
        sqlx::query("VACUUM INTO $1").bind(to).execute(pool).await?;
        Ok(())
    }

    /// Puts every submission that is being judged back in the queue at `now`, its attempt not
    /// counted: for a database just restored, whose claims were made by workers of the process
    /// that was backed up. Their partial results go; they are judged again from the start.
    /// Returns how many.
    pub async fn requeue_claims(&self, now: i64) -> Result<u64> {
        const CLEAR: &str = "DELETE FROM test_results WHERE submission_id IN \
                             (SELECT id FROM submissions WHERE status = 'judging')";
        const REQUEUE: &str = "UPDATE submissions SET status = 'queued', worker = NULL, \
             lease_until = NULL, started_at = NULL, queued_at = $1, \
             attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END \
             WHERE status = 'judging'";
        let requeued = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(CLEAR).execute(&mut *tx).await?;
            let requeued = sqlx::query(REQUEUE).bind(now).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            requeued
        });
        Ok(requeued)
    }
}
