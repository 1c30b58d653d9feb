//! Users, their API tokens and their browser sessions: who is asking.

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;

use crate::{Result, Role, Session, Store, StoreError, Token, User, conflict, rows};

/// What the store says of a name that is free by its key but looks like one that is taken.
pub const LOOKALIKE: &str = "a user with a name that looks the same";

/// What a user name is unique by: the name in lower case and in Unicode's compatibility composed
/// form ("Sam" and "sam" are one name, so are "Đức" typed with a precomposed "ứ" and with "u", a
/// horn and an acute, as Vietnamese keyboards give either, and "ａlice" typed full width and
/// "alice"). The name itself is kept as typed, composed ([`composed_name`]).
pub fn name_key(name: &str) -> String {
    // Lower-casing can leave a composable pair, so the composition comes last as well.
    name.nfkc()
        .collect::<String>()
        .to_lowercase()
        .nfkc()
        .collect()
}

/// A name as it is stored: as typed, but in compatibility composed form (NFKC, which composes as
/// NFC does and also reads full-width and other compatibility letters as the letters they are),
/// so that it reads and sorts like its twins.
pub fn composed_name(name: &str) -> String {
    name.nfkc().collect()
}

/// What two names that look alike have in common: the confusable skeleton (UTS #39) of the
/// folded name. "аdmin" (Cyrillic "а") and "admin" share one, and so do "l", "I" and "1";
/// "Đức" and "Duc" do not, the marks being kept.
pub fn name_skeleton(name: &str) -> String {
    skeleton(&name_key(name)).collect()
}

impl Store {
    pub async fn create_user(
        &self,
        name: &str,
        role: Role,
        password_hash: Option<&str>,
        now: i64,
    ) -> Result<User> {
        const ALIKE: &str = "SELECT name_key FROM users WHERE name_skeleton = $1";
        const SQL: &str = "INSERT INTO users (name, name_key, name_skeleton, role, password_hash, created_at) \
                           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, name, role, password_hash, created_at, locale, time_zone";
        let (key, skeleton) = (name_key(name), name_skeleton(name));
        // Said apart from the unique indexes, which cannot tell the two clashes apart on SQLite;
        // they still settle two registrations racing for one name.
        let alike: Option<String> = on_both!(self, pool => sqlx::query_scalar(ALIKE)
            .bind(&skeleton)
            .fetch_optional(pool)
            .await?);
        match alike {
            Some(taken) if taken == key => {
                return Err(StoreError::Conflict("a user with this name"));
            }
            Some(_) => return Err(StoreError::Conflict(LOOKALIKE)),
            None => {}
        }
        let row: rows::UserRow = on_both!(self, pool => sqlx::query_as(SQL)
            .bind(composed_name(name))
            .bind(&key)
            .bind(&skeleton)
            .bind(role.as_str())
            .bind(password_hash)
            .bind(now)
            .fetch_one(pool)
            .await
            .map_err(conflict("a user with this name"))?);
        row.try_into()
    }

    /// The user whose name is `name` regardless of case ("Sam" finds "sam").
    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        const SQL: &str = "SELECT id, name, role, password_hash, created_at, locale, time_zone \
                           FROM users WHERE name_key = $1";
        let key = name_key(name);
        let row: Option<rows::UserRow> =
            on_both!(self, pool => sqlx::query_as(SQL).bind(&key).fetch_optional(pool).await?);
        row.map(TryInto::try_into).transpose()
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        const SQL: &str = "SELECT id, name, role, password_hash, created_at, locale, time_zone FROM users WHERE id = $1";
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

    /// The time zone `user` reads times in (an IANA name; `None`: their browser's).
    pub async fn set_time_zone(&self, user: i64, zone: Option<&str>) -> Result<()> {
        const SQL: &str = "UPDATE users SET time_zone = $1 WHERE id = $2";
        on_both!(self, pool => sqlx::query(SQL).bind(zone).bind(user).execute(pool).await?.rows_affected());
        Ok(())
    }

    /// Sets every name's key by [`name_key`], after the migrations (whose SQL folds ASCII only on
    /// SQLite, and by the collation on PostgreSQL). Names that now clash are settled as migration
    /// 0010 settles them: the oldest account keeps its name, each later one is renamed to its
    /// name, "~" and its id. Then every account gets its skeleton ([`Self::fill_skeletons`]).
    pub(crate) async fn fold_names(&self) -> Result<()> {
        const ALL: &str = "SELECT id, name, name_key FROM users ORDER BY id";
        // Keys that change are first moved aside ("~" and the id, which no folded name is), so
        // that no statement meets a key another row is about to give up.
        const ASIDE: &str = "UPDATE users SET name_key = $1 WHERE id = $2";
        const SET: &str = "UPDATE users SET name = $1, name_key = $2 WHERE id = $3";
        let found: Vec<(i64, String, Option<String>)> =
            on_both!(self, pool => sqlx::query_as(ALL).fetch_all(pool).await?);
        let mut keys = std::collections::HashSet::new();
        let mut changes = Vec::new();
        for (id, name, key) in found {
            let mut wanted = (name.clone(), name_key(&name));
            if !keys.insert(wanted.1.clone()) {
                let renamed = format!("{name}~{id}");
                wanted = (renamed.clone(), name_key(&renamed));
                keys.insert(wanted.1.clone());
            }
            if (Some(&wanted.1), &wanted.0) != (key.as_ref(), &name) {
                changes.push((id, wanted));
            }
        }
        if changes.is_empty() {
            return self.fill_skeletons().await;
        }
        on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            for (id, _) in &changes {
                sqlx::query(ASIDE).bind(format!("~{id}")).bind(id).execute(&mut *tx).await?;
            }
            for (id, (name, key)) in &changes {
                sqlx::query(SET).bind(name).bind(key).bind(id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        self.fill_skeletons().await
    }

    /// Gives every account its [`name_skeleton`], oldest first: an account whose name looks like
    /// an older one's (made before the rule) keeps its name and holds no skeleton, so neither name
    /// can be taken again by a lookalike.
    async fn fill_skeletons(&self) -> Result<()> {
        const ALL: &str = "SELECT id, name, name_skeleton FROM users ORDER BY id";
        const CLEAR: &str = "UPDATE users SET name_skeleton = NULL WHERE id = $1";
        const SET: &str = "UPDATE users SET name_skeleton = $1 WHERE id = $2";
        let found: Vec<(i64, String, Option<String>)> =
            on_both!(self, pool => sqlx::query_as(ALL).fetch_all(pool).await?);
        let mut held = std::collections::HashSet::new();
        let mut changes = Vec::new();
        for (id, name, stored) in found {
            let skeleton = name_skeleton(&name);
            let wanted = held.insert(skeleton.clone()).then_some(skeleton);
            if wanted != stored {
                changes.push((id, wanted));
            }
        }
        if changes.is_empty() {
            return Ok(());
        }
        on_both!(self, pool => {
            let mut tx = pool.begin().await?;
            for (id, _) in &changes {
                sqlx::query(CLEAR).bind(id).execute(&mut *tx).await?;
            }
            for (id, skeleton) in &changes {
                if let Some(skeleton) = skeleton {
                    sqlx::query(SET).bind(skeleton).bind(id).execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Everyone, by name.
    pub async fn users(&self) -> Result<Vec<User>> {
        const SQL: &str = "SELECT id, name, role, password_hash, created_at, locale, time_zone FROM users ORDER BY name";
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS, StoreError};

    /// The last migration before names were folded.
    const BEFORE_FOLDING: i64 = 9;

    /// Accounts a database could hold before migration 0010, oldest first.
    const OLD_ACCOUNTS: &str = "INSERT INTO users (name, role, created_at) VALUES \
        ('sam', 'student', 1), ('Sam', 'student', 2), ('Đức', 'student', 3), \
        ('SAM', 'teacher', 4), ('đức', 'student', 5), ('ann', 'student', 6)";

    async fn names_after_folding(store: &Store) -> Vec<(i64, String)> {
        const SQL: &str = "SELECT id, name FROM users ORDER BY id";
        on_both!(store, pool => sqlx::query_as(SQL).fetch_all(pool).await.unwrap())
    }

    async fn check_folded(store: &Store) {
        let expected = [
            (1, "sam"),
            (2, "Sam~2"),
            (3, "Đức"),
            (4, "SAM~4"),
            (5, "đức~5"),
            (6, "ann"),
        ]
        .map(|(id, name)| (id, name.to_owned()));
        assert_eq!(names_after_folding(store).await, expected);
        let id_of = async |name: &str| store.user_by_name(name).await.unwrap().map(|u| u.id);
        assert_eq!(id_of("SAM").await, Some(1));
        assert_eq!(id_of("ĐỨC").await, Some(3));
        assert_eq!(id_of("sam~2").await, Some(2));
        // "ứ" as "u", a horn and an acute.
        assert_eq!(id_of("\u{111}u\u{31b}\u{301}c").await, Some(3));
        assert!(matches!(
            store.create_user("Ann", Role::Student, None, 7).await,
            Err(StoreError::Conflict(_))
        ));
        let made = store.create_user("Bình", Role::Student, None, 8).await;
        assert_eq!(made.unwrap().name, "Bình", "a name is kept as typed");
        let decomposed = store
            .create_user("Thu\u{309}y", Role::Student, None, 9)
            .await;
        assert_eq!(decomposed.unwrap().name, "Thủy", "… but composed");
    }

    #[tokio::test]
    async fn names_that_differ_only_in_case_are_settled_oldest_first_on_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&path)
            .create_if_missing(true);
        let old = sqlx::SqlitePool::connect_with(options).await.unwrap();
        SQLITE_MIGRATIONS
            .run_to(BEFORE_FOLDING, &old)
            .await
            .unwrap();
        sqlx::query(OLD_ACCOUNTS).execute(&old).await.unwrap();
        old.close().await;
        let store = Store::open_sqlite(&path).await.unwrap();
        check_folded(&store).await;
        // Opening again changes nothing.
        let before = names_after_folding(&store).await;
        store.close().await;
        let store = Store::open_sqlite(&path).await.unwrap();
        assert_eq!(names_after_folding(&store).await, before);
        store.close().await;
    }

    #[tokio::test]
    async fn names_that_differ_only_in_case_are_settled_oldest_first_on_postgres() {
        let admin_url = std::env::var("GRUNDY_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let admin = match sqlx::PgPool::connect(&admin_url).await {
            Ok(pool) => pool,
            Err(e) => {
                assert!(
                    !std::env::var("CI").is_ok_and(|v| v == "true"),
                    "PostgreSQL at {admin_url} is required in CI: {e}"
                );
                eprintln!("SKIPPED on PostgreSQL: no server at {admin_url} ({e})");
                return;
            }
        };
        let name = format!("grundy_fold_{}", std::process::id());
        let create = format!("CREATE DATABASE {name}");
        sqlx::query(sqlx::AssertSqlSafe(create))
            .execute(&admin)
            .await
            .unwrap();
        let url = format!("{}/{name}", admin_url.rsplit_once('/').unwrap().0);
        let old = sqlx::PgPool::connect(&url).await.unwrap();
        POSTGRES_MIGRATIONS
            .run_to(BEFORE_FOLDING, &old)
            .await
            .unwrap();
        sqlx::query(OLD_ACCOUNTS).execute(&old).await.unwrap();
        old.close().await;
        let store = Store::connect(&url).await.unwrap();
        check_folded(&store).await;
        store.close().await;
        let drop = format!("DROP DATABASE {name}");
        sqlx::query(sqlx::AssertSqlSafe(drop))
            .execute(&admin)
            .await
            .unwrap();
    }
}
