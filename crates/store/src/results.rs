//! A submission's results: each test's row and the final verdict, written only by the worker
//! that holds its lease (see `queue.rs`), and read back test by test.

use crate::{Outcome, Result, Store, StoreError, TestRow, rows};

impl Store {
    /// Records one test's result; false (and nothing written) when `worker` no longer holds it.
    pub async fn record_test(&self, id: i64, worker: &str, test: &TestRow) -> Result<bool> {
        const SQLITE: &str = "INSERT INTO test_results (submission_id, position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message, shown_input, shown_expected, shown_output, transcript, detail) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $11, $12, $13, $14, $15 \
             WHERE EXISTS (SELECT 1 FROM submissions WHERE id = $1 AND worker = $10 AND status = 'judging')";
        // FOR SHARE: a claim by another worker committing meanwhile is waited for and re-checked,
        // so a stale worker's row cannot land after the new holder cleared the old results.
        const POSTGRES: &str = "INSERT INTO test_results (submission_id, position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message, shown_input, shown_expected, shown_output, transcript, detail) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $11, $12, $13, $14, $15 \
             WHERE EXISTS (SELECT 1 FROM submissions WHERE id = $1 AND worker = $10 AND status = 'judging' FOR SHARE)";
        let sql = match self {
            Store::Sqlite(_) => SQLITE,
            Store::Postgres(_) => POSTGRES,
        };
        let transcript = test
            .transcript
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| StoreError::InvalidRow(format!("transcript: {e}")))?;
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
            .bind(test.shown.as_ref().map(|s| &s.input))
            .bind(test.shown.as_ref().map(|s| &s.expected))
            .bind(test.shown.as_ref().map(|s| &s.output))
            .bind(&transcript)
            .bind(&test.detail)
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

    /// Every result of a submission's current attempt, in judging order.
    pub async fn test_results(&self, submission: i64) -> Result<Vec<TestRow>> {
        const SQL: &str = "SELECT position, grp, idx, verdict, cpu_ms, wall_ms, memory_kib, message, detail, \
                           shown_input, shown_expected, shown_output, transcript \
                           FROM test_results WHERE submission_id = $1 ORDER BY position";
        let found: Vec<rows::TestResultRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(submission).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// Keeps the explanation of the verdict stored at `judged_at`; false when the submission
    /// has a newer verdict or none (a rejudge), which drops it.
    pub async fn save_explanation(
        &self,
        id: i64,
        judged_at: i64,
        body: &str,
        misconception: Option<&str>,
        now: i64,
    ) -> Result<bool> {
        const SQL: &str = "INSERT INTO explanations (submission_id, judged_at, body, misconception, created_at) \
             SELECT $1, $2, $3, $4, $5 WHERE EXISTS \
             (SELECT 1 FROM submissions WHERE id = $1 AND judged_at = $2 AND status = 'done') \
             ON CONFLICT (submission_id) DO UPDATE SET judged_at = excluded.judged_at, \
             body = excluded.body, misconception = excluded.misconception, \
             created_at = excluded.created_at";
        Ok(on_both!(self, pool => sqlx::query(SQL)
            .bind(id)
            .bind(judged_at)
            .bind(body)
            .bind(misconception)
            .bind(now)
            .execute(pool)
            .await?
            .rows_affected())
            == 1)
    }

    /// The explanation of a submission's current verdict, as stored (JSON).
    pub async fn explanation(&self, id: i64) -> Result<Option<String>> {
        const SQL: &str = "SELECT e.body FROM explanations e JOIN submissions s ON s.id = e.submission_id \
             WHERE e.submission_id = $1 AND e.judged_at = s.judged_at AND s.status = 'done'";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).bind(id).fetch_optional(pool).await?))
    }

    /// (student, problem, misconception id) for each explained submission to an assignment
    /// that named one, current verdicts only.
    pub async fn assignment_misconceptions(
        &self,
        assignment: i64,
    ) -> Result<Vec<(i64, String, String)>> {
        const SQL: &str = "SELECT s.user_id, s.problem, e.misconception FROM explanations e \
             JOIN submissions s ON s.id = e.submission_id \
             WHERE s.assignment_id = $1 AND e.judged_at = s.judged_at AND s.status = 'done' \
             AND e.misconception IS NOT NULL \
             ORDER BY s.user_id, s.id";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(assignment).fetch_all(pool).await?))
    }
}
