//! Users, their API tokens and their browser sessions: who is asking.

use crate::{Result, Role, Session, Store, Token, User, conflict, rows};

impl Store {
    pub async fn create_user(
        &self,
        name: &str,
        role: Role,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User> {
        const SQL: &str = "INSERT INTO users (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4) \
                           RETURNING id, name, role, password_hash, created_at, locale";
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
            "SELECT id, name, role, password_hash, created_at, locale FROM users WHERE name = $1";
        let row: Option<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(name).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        const SQL: &str =
            "SELECT id, name, role, password_hash, created_at, locale FROM users WHERE id = $1";
        let row: Option<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    pub async fn set_password(&self, user: i64, password_hash: Option<&str>) -> Result<()> {
        const SQL: &str = "UPDATE users SET password_hash = $1 WHERE id = $2";
        on_both!(self, pool => sqlx::query(SQL).bind(password_hash).bind(user).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// The interface language `user` chose (`None`: whatever their browser asks for).
    pub async fn set_locale(&self, user: i64, locale: Option<&str>) -> Result<()> {
        const SQL: &str = "UPDATE users SET locale = $1 WHERE id = $2";
        on_both!(self, pool => sqlx::query(SQL).bind(locale).bind(user).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// Everyone, by name.
    pub async fn users(&self) -> Result<Vec<User>> {
        const SQL: &str =
            "SELECT id, name, role, password_hash, created_at, locale FROM users ORDER BY name";
        let found: Vec<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await?);
        found.into_iter().map(TryInto::try_into).collect()
    }

    /// Gives `user` a role; false when there is no such user. A student's account teaches no
    /// course, so a demotion to student also ends the account's teaching memberships, in the same
    /// transaction: the account's role and its memberships always agree.
    pub async fn set_role(&self, user: i64, role: Role) -> Result<bool> {
        const ROLE: &str = "UPDATE users SET role = $1 WHERE id = $2";
        const UNTEACH: &str = "DELETE FROM course_members WHERE user_id = $1 AND role = 'teacher'";
        let changed = on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            let changed = sqlx::query(ROLE)
                .bind(role.as_str())
                .bind(user)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if role == Role::Student {
                sqlx::query(UNTEACH).bind(user).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            changed
        });
        Ok(changed == 1)
    }

    pub async fn count_users(&self) -> Result<i64> {
        const SQL: &str = "SELECT COUNT(*) FROM users";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL).fetch_one(pool).await?))
    }

    /// Stores the digest of a new API token, good until `expires_at`; returns its id.
    pub async fn create_token(
        &self,
        user_id: i64,
        digest: &[u8],
        label: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<i64> {
        const SQL: &str = "INSERT INTO api_tokens (user_id, digest, label, created_at, expires_at) \
                           VALUES ($1, $2, $3, $4, $5) RETURNING id";
        Ok(on_both!(self, pool => sqlx::query_scalar(SQL)
            .bind(user_id)
            .bind(digest)
            .bind(label)
            .bind(now)
            .bind(expires_at)
            .fetch_one(pool)
            .await
            .map_err(conflict("this token"))?))
    }

    /// The user a token digest belongs to, while it has not expired at `now`; marks it used.
    pub async fn user_by_token(&self, digest: &[u8], now: i64) -> Result<Option<User>> {
        const FIND: &str = "SELECT user_id, last_used_at FROM api_tokens \
                            WHERE digest = $1 AND expires_at > $2";
        // Written at most once a minute: every request would otherwise contend for SQLite's
        // single write lock with the workers.
        const TOUCH: &str = "UPDATE api_tokens SET last_used_at = $1 WHERE digest = $2";
        let found: Option<(i64, Option<i64>)> = on_both!(self, pool => sqlx::query_as(FIND)
            .bind(digest)
            .bind(now)
            .fetch_optional(pool)
            .await?);
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

    /// A user's tokens, newest first, expired ones included (until they are swept).
    pub async fn tokens(&self, user: i64) -> Result<Vec<Token>> {
        const SQL: &str = "SELECT id, label, created_at, last_used_at, expires_at FROM api_tokens \
                           WHERE user_id = $1 ORDER BY id DESC";
        Ok(on_both!(self, pool => sqlx::query_as(SQL).bind(user).fetch_all(pool).await?))
    }

    /// Revokes one of `user`'s tokens; false when they have no such token.
    pub async fn delete_token(&self, user: i64, id: i64) -> Result<bool> {
        const SQL: &str = "DELETE FROM api_tokens WHERE id = $1 AND user_id = $2";
        let deleted = on_both!(self, pool => sqlx::query(SQL).bind(id).bind(user).execute(pool).await?.rows_affected());
        Ok(deleted == 1)
    }

    /// Revokes every token of `user`; returns how many.
    pub async fn delete_user_tokens(&self, user: i64) -> Result<u64> {
        const SQL: &str = "DELETE FROM api_tokens WHERE user_id = $1";
        Ok(on_both!(self, pool => sqlx::query(SQL).bind(user).execute(pool).await?.rows_affected()))
    }

    /// Removes tokens that expired before `now`; returns how many.
    pub async fn delete_expired_tokens(&self, now: i64) -> Result<u64> {
        const SQL: &str = "DELETE FROM api_tokens WHERE expires_at <= $1";
        Ok(on_both!(self, pool => sqlx::query(SQL).bind(now).execute(pool).await?.rows_affected()))
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
}
