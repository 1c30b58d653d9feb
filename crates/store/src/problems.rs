//! Problem versions (which content judged a submission) and the problems created through the
//! service rather than compiled in.

use crate::{CustomProblem, ProblemVersion, Result, Store, StoreError};

impl Store {
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
}
