//! Making submissions and reading them back: one, a filtered listing, a user's marks per problem,
//! the source (their results are in `results.rs`).

use grundy_verdict::Verdict;

use crate::{NewSubmission, ProblemMark, Result, Store, Submission, SubmissionQuery, rows};

impl Store {
    pub async fn create_submission(&self, new: &NewSubmission, now: i64) -> Result<i64> {
        const SQL: &str = "INSERT INTO submissions (user_id, problem, kind, language, source, priority, created_at, \
                           queued_at, assignment_id, instance_seed) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9) RETURNING id";
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
        self.notify_queued(id).await?;
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
             AND ($7 IS NULL OR {}) \
             AND ($8 IS NULL OR assignment_id IN (SELECT id FROM assignments WHERE course_id = $8)) \
             ORDER BY id DESC LIMIT $5",
            rows::SUBMISSION_SELECT,
            seen_by_teacher("$7")
        );
        let found: Vec<rows::SubmissionRow> = on_both!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(query.user)
            .bind(query.problem)
            .bind(query.verdict.map(Verdict::as_str))
            .bind(query.before)
            .bind(query.limit)
            .bind(query.assignment)
            .bind(query.teacher)
            .bind(query.course)
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
}

/// The submissions the teacher bound at `param` may see, as an SQL condition on `submissions`:
/// their own and those made for the assignments of the courses they teach. Owning a problem adds
/// nothing: other courses' work on it is their teachers' business.
pub(crate) fn seen_by_teacher(param: &str) -> String {
    format!(
        "(user_id = {param} OR assignment_id IN (SELECT a.id FROM assignments a \
         JOIN course_members t ON t.course_id = a.course_id AND t.user_id = {param} \
         AND t.role = 'teacher'))"
    )
}
