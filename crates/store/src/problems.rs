//! Problem versions (which content judged a submission) and the problems created through the
//! service rather than compiled in: their versions, their owners' quotas, drafts and publishing,
//! and the facts that decide who sees a draft.

use crate::{
    CustomProblem, CustomProblemInfo, MemberOrigin, MemberRole, NewCustomProblem, ProblemVersion,
    Put, Result, Store, StoreError,
};

/// A problem listed by an assignment of a course someone belongs to, with their part in the
/// course and when the assignment opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub problem: String,
    pub role: MemberRole,
    pub opens_at: i64,
}

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

    /// Stores a new custom problem (version 1, a draft) or replaces one its owner owns (next
    /// version, published or not as it was), unless the owner's problems would then take more than
    /// `quota` bytes, each counted by [`NewCustomProblem::charge`] (the version replaced does not
    /// count). A slug owned by someone else is a conflict.
    pub async fn put_custom_problem(
        &self,
        new: &NewCustomProblem<'_>,
        quota: Option<i64>,
    ) -> Result<Put> {
        // One statement, so two uploads of one slug cannot both become version 2; on PostgreSQL
        // the owner's row is locked first, so that two uploads of other slugs cannot both fit
        // in what is left of the quota (SQLite has one writer at a time).
        const LOCK: &str = "SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE";
        const PUT: &str = "INSERT INTO custom_problems (slug, origin, owner_id, version, content, created_at, unpacked_bytes) \
                           SELECT $1, $2, $3, 1, $4, $5, $6 \
                           WHERE (SELECT COALESCE(SUM(length(content) + unpacked_bytes), 0) FROM custom_problems \
                                  WHERE owner_id = $3 AND slug <> $1) + $7 <= $8 \
                           ON CONFLICT (slug) DO UPDATE SET version = custom_problems.version + 1, \
                           content = excluded.content, origin = excluded.origin, created_at = excluded.created_at, \
                           unpacked_bytes = excluded.unpacked_bytes \
                           WHERE custom_problems.owner_id = excluded.owner_id \
                           RETURNING version, published_at";
        const OWNER: &str = "SELECT owner_id FROM custom_problems WHERE slug = $1";
        let lock = matches!(self, Store::Postgres(_)).then_some(LOCK);
        let (stored, owner, used) = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            if let Some(lock) = lock {
                sqlx::query(lock).bind(new.owner).execute(&mut *tx).await?;
            }
            let stored: Option<(i64, Option<i64>)> = sqlx::query_as(PUT)
                .bind(new.slug)
                .bind(new.origin)
                .bind(new.owner)
                .bind(new.content)
                .bind(new.now)
                .bind(new.unpacked_bytes)
                .bind(new.charge())
                .bind(quota.unwrap_or(i64::MAX))
                .fetch_optional(&mut *tx)
                .await?;
            let (owner, used): (Option<i64>, i64) = match stored {
                Some(_) => (None, 0),
                None => (
                    sqlx::query_scalar(OWNER).bind(new.slug).fetch_optional(&mut *tx).await?,
                    sqlx::query_scalar(USAGE).bind(new.owner).bind(new.slug).fetch_one(&mut *tx).await?,
                ),
            };
            tx.commit().await?;
            (stored, owner, used)
        });
        match (stored, owner) {
            (Some((version, published_at)), _) => Ok(Put::Stored {
                version,
                published: published_at.is_some(),
            }),
            (None, Some(owner)) if owner != new.owner => Err(StoreError::Conflict(
                "a problem with this slug owned by someone else",
            )),
            (None, _) => Ok(Put::OverQuota { used }),
        }
    }

    /// What `owner`'s problems take, each counted by [`NewCustomProblem::charge`], leaving out
    /// `except` (the slug about to be replaced, if any).
    pub async fn custom_problem_usage(&self, owner: i64, except: &str) -> Result<i64> {
        Ok(
            on_both!(self, pool => sqlx::query_scalar(USAGE).bind(owner).bind(except).fetch_one(pool).await?),
        )
    }

    /// Publishes a custom problem (again: nothing changes); false when there is none.
    pub async fn publish_custom_problem(&self, slug: &str, now: i64) -> Result<bool> {
        const SQL: &str = "UPDATE custom_problems SET published_at = COALESCE(published_at, $2) \
                           WHERE slug = $1";
        Ok(
            on_both!(self, pool => sqlx::query(SQL).bind(slug).bind(now).execute(pool).await?.rows_affected())
                > 0,
        )
    }

    /// Corrects what a stored version unpacks to (problems stored before it was recorded).
    pub async fn set_unpacked_bytes(&self, slug: &str, version: i64, bytes: i64) -> Result<()> {
        const SQL: &str =
            "UPDATE custom_problems SET unpacked_bytes = $3 WHERE slug = $1 AND version = $2";
        on_both!(self, pool => sqlx::query(SQL).bind(slug).bind(version).bind(bytes).execute(pool).await?.rows_affected());
        Ok(())
    }

    pub async fn custom_problem(&self, slug: &str) -> Result<Option<CustomProblem>> {
        const SQL: &str = "SELECT slug, origin, owner_id, version, content, created_at \
                           FROM custom_problems WHERE slug = $1";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(slug).fetch_optional(pool).await?))
    }

    /// A custom problem without its content.
    pub async fn custom_problem_info(&self, slug: &str) -> Result<Option<CustomProblemInfo>> {
        const SQL: &str = "SELECT slug, origin, owner_id, version, published_at, \
                           CAST(length(content) AS BIGINT) AS stored_bytes, unpacked_bytes \
                           FROM custom_problems WHERE slug = $1";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(slug).fetch_optional(pool).await?))
    }

    /// Every custom problem without its content, by slug: loading them one at a time keeps only
    /// one package's content in memory at once.
    pub async fn custom_problem_infos(&self) -> Result<Vec<CustomProblemInfo>> {
        const SQL: &str = "SELECT slug, origin, owner_id, version, published_at, \
                           CAST(length(content) AS BIGINT) AS stored_bytes, unpacked_bytes \
                           FROM custom_problems ORDER BY slug";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?))
    }

    /// The teachers whose drafts and hidden tests `user` may see: `user` when they teach any
    /// course, and the other teachers of the courses `user` teaches who teach there by their own
    /// act (they made the course or accepted an invitation that said what it shares).
    pub async fn teachers_sharing_with(&self, user: i64) -> Result<Vec<i64>> {
        const SQL: &str = "SELECT DISTINCT other.user_id, other.origin FROM course_members mine \
                           JOIN course_members other ON other.course_id = mine.course_id \
                           WHERE mine.user_id = $1 AND mine.role = 'teacher' AND other.role = 'teacher'";
        let found: Vec<(i64, String)> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(user).fetch_all(pool).await?);
        let mut sharing = Vec::new();
        for (other, origin) in found {
            let origin = MemberOrigin::parse(&origin)
                .ok_or_else(|| StoreError::InvalidRow(format!("membership origin {origin:?}")))?;
            if other == user || origin.shares_own_work() {
                sharing.push(other);
            }
        }
        sharing.sort_unstable();
        sharing.dedup();
        Ok(sharing)
    }

    /// The problems the assignments of `user`'s courses list, with their part in each course and
    /// when each assignment opens.
    pub async fn listings(&self, user: i64) -> Result<Vec<Listing>> {
        const SQL: &str = "SELECT p.problem, m.role, a.opens_at FROM assignment_problems p \
                           JOIN assignments a ON a.id = p.assignment_id \
                           JOIN course_members m ON m.course_id = a.course_id WHERE m.user_id = $1";
        let found: Vec<(String, String, i64)> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(user).fetch_all(pool).await?);
        found
            .into_iter()
            .map(|(problem, role, opens_at)| {
                let role = MemberRole::parse(&role)
                    .ok_or_else(|| StoreError::InvalidRow(format!("course role {role:?}")))?;
                Ok(Listing {
                    problem,
                    role,
                    opens_at,
                })
            })
            .collect()
    }
}

/// What an owner's problems take but one slug's: the quota's count.
const USAGE: &str = "SELECT CAST(COALESCE(SUM(length(content) + unpacked_bytes), 0) AS BIGINT) \
                     FROM custom_problems WHERE owner_id = $1 AND slug <> $2";
