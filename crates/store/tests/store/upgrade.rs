//! Databases made by earlier releases upgrade in place: the migrations up to a release are run
//! on a fresh database, rows are written as that release wrote them, and opening it with the
//! current [`Store`] runs the rest. On SQLite and, where a server answers, PostgreSQL.

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use grundy_store::{MemberOrigin, MemberRole, Store, StoreError};
use sqlx::migrate::Migrator;

/// The migrations of `backend` (`sqlite` or `postgres`) up to and including `version`.
async fn migrations_up_to(backend: &str, version: i64) -> Migrator {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../migrations")
        .join(backend);
    let all = Migrator::new(dir).await.unwrap();
    Migrator::with_migrations(
        all.iter()
            .filter(|m| m.version <= version)
            .cloned()
            .collect(),
    )
}

/// Rows as release 0010 (before consent) wrote them: Tom made course 1 and then added Bob as a
/// co-teacher, Sue (registered long before) as a student, and Ann, whose account his import made
/// moments before adding her.
const BEFORE_CONSENT: &[&str] = &[
    "INSERT INTO users (id, name, name_key, role, password_hash, created_at) VALUES \
     (1, 'tom', 'tom', 'teacher', NULL, 1000), (2, 'bob', 'bob', 'teacher', NULL, 1000), \
     (3, 'ann', 'ann', 'student', NULL, 5000), (4, 'sue', 'sue', 'student', NULL, 1000)",
    "INSERT INTO courses (id, title, join_code, created_at) VALUES (1, 'Games', 'GAME2345', 2000)",
    "INSERT INTO course_members (course_id, user_id, role, joined_at) VALUES \
     (1, 1, 'teacher', 2000), (1, 2, 'teacher', 3000), (1, 3, 'student', 5003), \
     (1, 4, 'student', 60000)",
];

/// What the consent migration makes of [`BEFORE_CONSENT`].
async fn memberships_are_kept_and_marked(store: Store) {
    let origins: Vec<(String, MemberRole, MemberOrigin)> = store
        .members(1)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.name, m.role, m.origin))
        .collect();
    assert_eq!(
        origins,
        [
            ("bob".into(), MemberRole::Teacher, MemberOrigin::Course),
            ("tom".into(), MemberRole::Teacher, MemberOrigin::Created),
            ("ann".into(), MemberRole::Student, MemberOrigin::NewAccount),
            ("sue".into(), MemberRole::Student, MemberOrigin::Course),
        ],
        "everyone stays; only the maker and the import's own account are anyone's act"
    );
    // The course's teachers manage the account its import made, never Sue's.
    assert_eq!(store.accounts_managed_by(1).await.unwrap(), [3]);
    assert_eq!(store.accounts_managed_by(2).await.unwrap(), [3]);
    // Bob, added unasked, shares nothing of his; he still sees what Tom shares by making it.
    assert_eq!(store.teachers_sharing_with(1).await.unwrap(), [1]);
    assert_eq!(store.teachers_sharing_with(2).await.unwrap(), [1, 2]);
    let review: Vec<String> = store
        .memberships_made_by_courses()
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(review, ["bob", "sue"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memberships_from_before_consent_are_kept_and_marked_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.db");
    sqlite_at_release(&path, 10, BEFORE_CONSENT).await;
    let store = Store::open_sqlite(&path).await.unwrap();
    memberships_are_kept_and_marked(store.clone()).await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memberships_from_before_consent_are_kept_and_marked_on_postgres() {
    let test = "memberships_from_before_consent_are_kept_and_marked_on_postgres";
    let Some(database) = Database::create(test).await else {
        return;
    };
    postgres_at_release(&database.url, 10, BEFORE_CONSENT).await;
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    // Rows written with their ids leave the sequences behind; the release's own inserts never
    // did.
    for table in ["users", "courses"] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))"
        )))
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let store = Store::connect(&database.url).await.unwrap();
    memberships_are_kept_and_marked(store.clone()).await;
    store.close().await;
    database.drop().await;
}

/// Results as release 0016 wrote them, each test's message whole: Sue's answers (instance 1 wrong,
/// its message quoting the expected answer; instance 2 unanswered), and her program (a failed
/// sample whose data was kept, a hidden test named by its place only, a time limit).
const BEFORE_DETAIL: &[&str] = &[
    "INSERT INTO users (id, name, name_key, role, password_hash, created_at) VALUES \
     (4, 'sue', 'sue', 'student', NULL, 1000)",
    "INSERT INTO submissions (id, user_id, problem, kind, language, source, status, verdict, \
     created_at) VALUES (1, 4, 'sc4', 'answers', NULL, '{}', 'done', 'wrong_answer', 2000), \
     (2, 4, 'stones', 'program', 'cpp20', 'int main() {}', 'done', 'wrong_answer', 3000)",
    "INSERT INTO test_results (submission_id, position, grp, idx, verdict, cpu_ms, wall_ms, \
     memory_kib, message, shown_input, shown_expected, shown_output) VALUES \
     (1, 0, 'small', 1, 'wrong_answer', 0, 0, 0, 'line 1: expected \"7\", read \"0\"', \
      '12 3\n', '7\n', '0\n'), \
     (1, 1, 'small', 2, 'wrong_answer', 0, 0, 0, 'no answer for small-2', NULL, NULL, NULL), \
     (2, 0, 'samples', 1, 'wrong_answer', 1, 1, 1, 'line 1: expected \"First\", read \"Second\"', \
      '3\n', 'First\n', 'Second\n'), \
     (2, 1, 'small', 1, 'wrong_answer', 1, 1, 1, 'line 1 is wrong', NULL, NULL, NULL), \
     (2, 2, 'small', 2, 'time_limit', 1, 1, 1, 'cpu', NULL, NULL, NULL)",
];

/// What the detail migration makes of [`BEFORE_DETAIL`]: every message that quoted, or could
/// have (an answered instance's), is a detail now, which only readers of the data are shown;
/// the rows keep no message in its place. A place alone stays a message.
async fn old_messages_become_details(store: Store) {
    let moved = |id| {
        let store = store.clone();
        async move {
            store
                .test_results(id)
                .await
                .unwrap()
                .into_iter()
                .map(|t| (t.message, t.detail))
                .collect::<Vec<_>>()
        }
    };
    let some = |text: &str| Some(text.to_owned());
    assert_eq!(
        moved(1).await,
        [
            (None, some("line 1: expected \"7\", read \"0\"")),
            (None, some("no answer for small-2")),
        ]
    );
    assert_eq!(
        moved(2).await,
        [
            (None, some("line 1: expected \"First\", read \"Second\"")),
            (some("line 1 is wrong"), None),
            (some("cpu"), None),
        ]
    );
}

/// A fresh SQLite database at `path` as release `version` left it, with `rows` written.
async fn sqlite_at_release(path: &Path, version: i64, rows: &[&'static str]) {
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .foreign_keys(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    migrations_up_to("sqlite", version)
        .await
        .run(&pool)
        .await
        .unwrap();
    for statement in rows {
        sqlx::query(*statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
}

/// A fresh PostgreSQL database at `url` as release `version` left it, with `rows` written.
async fn postgres_at_release(url: &str, version: i64, rows: &[&'static str]) {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    migrations_up_to("postgres", version)
        .await
        .run(&pool)
        .await
        .unwrap();
    for statement in rows {
        sqlx::query(*statement).execute(&pool).await.unwrap();
    }
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_messages_become_details_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.db");
    sqlite_at_release(&path, 16, BEFORE_DETAIL).await;
    let store = Store::open_sqlite(&path).await.unwrap();
    old_messages_become_details(store.clone()).await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_messages_become_details_on_postgres() {
    let Some(database) = Database::create("old_messages_become_details_on_postgres").await else {
        return;
    };
    postgres_at_release(&database.url, 16, BEFORE_DETAIL).await;
    let store = Store::connect(&database.url).await.unwrap();
    old_messages_become_details(store.clone()).await;
    store.close().await;
    database.drop().await;
}

/// Accounts made before lookalike names were refused (release 0019): "admin", then "аdmin" with a
/// Cyrillic "а", then "ａdmin" full width (a different key before NFKC).
const BEFORE_SKELETONS: &[&str] = &[
    "INSERT INTO users (id, name, name_key, role, password_hash, created_at) VALUES \
     (1, 'admin', 'admin', 'admin', NULL, 1000), (2, '\u{430}dmin', '\u{430}dmin', 'student', NULL, 2000), \
     (3, '\u{ff41}dmin', '\u{ff41}dmin', 'student', NULL, 3000), (4, 'sue', 'sue', 'student', NULL, 4000)",
];

/// What opening [`BEFORE_SKELETONS`] makes of it: everyone can still sign in with the name they
/// had (the full-width one, now the same key as "admin", is renamed as 0010 renames), and no new
/// account can take any name that looks like theirs.
async fn lookalikes_keep_their_names_and_take_no_more(store: Store) {
    let mut names: Vec<String> = store
        .users()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect();
    names.sort();
    assert_eq!(names, ["admin", "sue", "\u{430}dmin", "\u{ff41}dmin~3"]);
    assert_eq!(
        store.user_by_name("\u{430}dmin").await.unwrap().unwrap().id,
        2
    );
    for lookalike in ["\u{430}dmin", "\u{430}dm\u{456}n", "ADMIN", "adm\u{131}n"] {
        assert!(
            matches!(
                store
                    .create_user(lookalike, grundy_store::Role::Student, None, 5000)
                    .await,
                Err(StoreError::Conflict(_))
            ),
            "{lookalike}"
        );
    }
    store
        .create_user("sam", grundy_store::Role::Student, None, 5000)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookalike_names_from_before_the_rule_are_kept_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grundy.db");
    sqlite_at_release(&path, 19, BEFORE_SKELETONS).await;
    let store = Store::open_sqlite(&path).await.unwrap();
    lookalikes_keep_their_names_and_take_no_more(store.clone()).await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookalike_names_from_before_the_rule_are_kept_on_postgres() {
    let test = "lookalike_names_from_before_the_rule_are_kept_on_postgres";
    let Some(database) = Database::create(test).await else {
        return;
    };
    postgres_at_release(&database.url, 19, BEFORE_SKELETONS).await;
    let pool = sqlx::PgPool::connect(&database.url).await.unwrap();
    sqlx::query("SELECT setval(pg_get_serial_sequence('users', 'id'), 4)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let store = Store::connect(&database.url).await.unwrap();
    lookalikes_keep_their_names_and_take_no_more(store.clone()).await;
    store.close().await;
    database.drop().await;
}

/// A fresh PostgreSQL database, or `None` (the test skips, saying so) where no server answers
/// outside CI.
struct Database {
    admin_url: String,
    name: String,
    url: String,
}

impl Database {
    async fn create(test: &str) -> Option<Database> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let admin_url = std::env::var("GRUNDY_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let admin = match sqlx::PgPool::connect(&admin_url).await {
            Ok(pool) => pool,
            Err(e) => {
                if std::env::var("CI").is_ok_and(|v| v == "true") {
                    panic!("{test}: PostgreSQL at {admin_url} is required in CI: {e}");
                }
                eprintln!("SKIPPED {test}: no PostgreSQL at {admin_url} ({e})");
                return None;
            }
        };
        let name = format!(
            "grundy_upgrade_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let (base, _) = admin_url.rsplit_once('/').expect("a database URL");
        let url = format!("{base}/{name}");
        Some(Database {
            admin_url,
            name,
            url,
        })
    }

    async fn drop(self) {
        let admin = sqlx::PgPool::connect(&self.admin_url).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "DROP DATABASE {} WITH (FORCE)",
            self.name
        )))
        .execute(&admin)
        .await
        .unwrap();
        admin.close().await;
    }
}
