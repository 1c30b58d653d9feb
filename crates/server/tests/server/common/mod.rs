//! The server in process on port 0 with SQLite and no workers, shared by the API and page tests.

use std::path::Path;
use std::time::Duration;

use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_server::domain::accounts;
use grundy_server::{AppState, Clock, RequestLimits, Telemetry};
use grundy_store::{Role, Store, User};
use reqwest::{Method, RequestBuilder};
use tokio::sync::oneshot;

pub struct Server {
    pub url: String,
    /// Follows no redirects, so tests see each 303 and where it points (the page tests').
    #[allow(dead_code)]
    pub client: reqwest::Client,
    pub state: AppState,
    /// `/metrics` on a listener of its own, for a server started by [`Server::start_observed`].
    #[allow(dead_code)]
    pub metrics_url: Option<String>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    #[allow(dead_code)]
    pub async fn start(dir: &Path, limits: RequestLimits) -> Server {
        let store = Store::open_sqlite(&dir.join("grundy.db")).await.unwrap();
        Server::start_with(store, limits, Clock::system()).await
    }

    /// On a given store, with a given clock.
    pub async fn start_with(store: Store, limits: RequestLimits, clock: Clock) -> Server {
        Server::launch(store, limits, clock, Telemetry::off()).await
    }

    /// As [`Server::start_with`], with the operator's figures served on a port 0 of their own.
    #[allow(dead_code)]
    pub async fn start_observed(store: Store, limits: RequestLimits, clock: Clock) -> Server {
        Server::launch(store, limits, clock, Telemetry::prometheus()).await
    }

    async fn launch(
        store: Store,
        limits: RequestLimits,
        clock: Clock,
        telemetry: Telemetry,
    ) -> Server {
        let state = AppState::build(
            store,
            Catalogue::builtin().unwrap(),
            Languages::load(None).unwrap(),
            limits,
            clock.clone(),
            telemetry,
        );
        state
            .load_problems(&std::env::temp_dir().join("grundy-test-packages"))
            .await
            .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let (metrics_url, metrics) = if state.telemetry.is_on() {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/metrics", listener.local_addr().unwrap());
            let (telemetry, store) = (state.telemetry.clone(), state.domain.store.clone());
            let (done, ended) = oneshot::channel::<()>();
            let task = tokio::spawn(grundy_server::serve_metrics(
                telemetry,
                store,
                clock,
                listener,
                async move {
                    let _ = ended.await;
                },
            ));
            (Some(url), Some((done, task)))
        } else {
            (None, None)
        };
        let task = tokio::spawn(grundy_server::serve(state.clone(), listener, async move {
            let _ = stopped.await;
        }));
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        Server {
            url,
            client,
            state,
            metrics_url,
            stop: Some(stop),
            task: Some(tokio::spawn(async move {
                task.await.unwrap().unwrap();
                if let Some((done, metrics)) = metrics {
                    let _ = done.send(());
                    metrics.await.unwrap().unwrap();
                }
            })),
        }
    }

    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap();
        self.state.domain.store.close().await;
    }

    /// A user whose password is `<name>-password`.
    pub async fn create_user(&self, name: &str, role: Role) -> User {
        let hash = accounts::hash_password(&format!("{name}-password")).unwrap();
        self.state
            .domain
            .store
            .create_user(name, role, Some(&hash), grundy_server::now_ms())
            .await
            .unwrap()
    }
}

/// JSON API calls as a user, for the tests that drive the API by token.
#[allow(dead_code)] // each test binary uses its own part
impl Server {
    /// A user of `role` with an API token; the token.
    pub async fn token(&self, name: &str, role: Role) -> String {
        let user = self.create_user(name, role).await;
        accounts::issue_token(
            &self.state.domain.store,
            user.id,
            "test",
            grundy_server::now_ms(),
            accounts::DEFAULT_TOKEN_DAYS,
        )
        .await
        .unwrap()
        .token
    }

    /// A request as `token` (`""`: nobody signed in); the status and the body read as JSON
    /// (`null` when it is not).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<serde_json::Value>,
    ) -> (reqwest::StatusCode, serde_json::Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.url));
        if !token.is_empty() {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let bytes = response.bytes().await.unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
        )
    }
}

#[allow(dead_code)] // each test binary uses its own part
impl Server {
    /// Accepts, as the holder of `token`, every invitation waiting for them; how many there were.
    pub async fn accept_invitations(&self, token: &str) -> usize {
        let (status, listed) = self
            .call(Method::GET, "/api/v1/invitations", token, None)
            .await;
        assert_eq!(status, 200, "{listed}");
        let invitations = listed["invitations"].as_array().unwrap();
        for invitation in invitations {
            let path = format!("/api/v1/invitations/{}/accept", invitation["id"]);
            let (status, joined) = self.call(Method::POST, &path, token, None).await;
            assert_eq!(status, 200, "{joined}");
        }
        invitations.len()
    }
}

/// A zip of `(path, text)` files: a problem package to upload.
#[allow(dead_code)]
pub fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, text) in files {
        zip.start_file(*path, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A fresh PostgreSQL database for one test, dropped by [`Postgres::drop_database`].
/// `GRUNDY_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`) names the
/// server. Where none answers the test says so and skips; in CI (`CI=true`) that is a failure.
#[allow(dead_code)]
pub struct Postgres {
    admin_url: String,
    name: String,
}

#[allow(dead_code)]
impl Postgres {
    pub async fn create(test: &str) -> Option<(Store, Postgres)> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let admin_url = std::env::var("GRUNDY_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let admin = match sqlx::PgPool::connect(&admin_url).await {
            Ok(pool) => pool,
            Err(e) => {
                if std::env::var("CI").is_ok_and(|v| v == "true") {
                    panic!("{test}: PostgreSQL at {admin_url} is required in CI: {e}");
                }
                eprintln!("SKIPPED {test} on PostgreSQL: no server at {admin_url} ({e})");
                return None;
            }
        };
        let name = format!(
            "grundy_server_test_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let (base, _) = admin_url.rsplit_once('/').expect("a database URL");
        let store = Store::connect(&format!("{base}/{name}")).await.unwrap();
        Some((store, Postgres { admin_url, name }))
    }

    pub async fn drop_database(self) {
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

/// What the textarea named `name` holds, as written in the HTML.
#[allow(dead_code)] // the page tests'
pub fn textarea<'a>(html: &'a str, name: &str) -> &'a str {
    let start = html
        .find(&format!(r#"name="{name}""#))
        .unwrap_or_else(|| panic!("a textarea {name}: {html}"));
    let rest = &html[start..];
    let open = rest.find('>').unwrap() + 1;
    &rest[open..rest.find("</textarea>").unwrap()]
}

/// The few character references an escaped source can hold, in either spelling.
#[allow(dead_code)]
pub fn unescape(text: &str) -> String {
    [
        ("&lt;", "<"),
        ("&#60;", "<"),
        ("&gt;", ">"),
        ("&#62;", ">"),
        ("&quot;", "\""),
        ("&#34;", "\""),
        ("&#39;", "'"),
        ("&amp;", "&"),
        ("&#38;", "&"),
    ]
    .iter()
    .fold(text.to_owned(), |text, (entity, plain)| {
        text.replace(entity, plain)
    })
}

/// Runs `story` on SQLite and, where a server answers, on PostgreSQL. The invoking test file
/// provides `LIMIT` and imports `Postgres`.
#[allow(unused_macros)] // the tests that take a store
macro_rules! on_both {
    ($($story:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    let dir = tempfile::tempdir().unwrap();
                    let store = grundy_store::Store::open_sqlite(&dir.path().join("grundy.db"))
                        .await
                        .unwrap();
                    tokio::time::timeout(super::LIMIT, super::$story(store))
                        .await
                        .unwrap();
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    let Some((store, database)) =
                        super::Postgres::create(stringify!($story)).await
                    else {
                        return;
                    };
                    tokio::time::timeout(super::LIMIT, super::$story(store))
                        .await
                        .unwrap();
                    database.drop_database().await;
                }
            )*
        }
    };
}

/// Checks an exposition with `promtool check metrics` (Debian's `prometheus` package, installed
/// by scripts/install-test-deps); false when promtool is missing, which the test says and skips
/// past, unless in CI (`CI=true`), where it fails.
#[allow(dead_code)]
pub fn promtool_accepts(test: &str, exposition: &str) -> bool {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{test}: promtool is missing in CI (scripts/install-test-deps installs it)");
            }
            eprintln!("SKIPPED {test}: checking with promtool, which is not installed");
            return false;
        }
        Err(e) => panic!("{test}: starting promtool: {e}"),
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(exposition.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool check metrics: {}{}\n{exposition}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

/// Requests as a browser makes them, signed in by a session cookie or not: for the page tests.
pub trait Browser {
    fn request(&self, method: Method, path: &str, cookie: Option<&str>) -> RequestBuilder;

    fn get(&self, path: &str, cookie: Option<&str>) -> RequestBuilder {
        self.request(Method::GET, path, cookie)
    }

    /// A form post from one of this site's own pages, with the headers a browser adds.
    fn post(&self, path: &str, cookie: Option<&str>) -> RequestBuilder;
}

impl Browser for Server {
    fn request(&self, method: Method, path: &str, cookie: Option<&str>) -> RequestBuilder {
        let request = self.client.request(method, format!("{}{path}", self.url));
        match cookie {
            Some(cookie) => request.header(reqwest::header::COOKIE, cookie),
            None => request,
        }
    }

    fn post(&self, path: &str, cookie: Option<&str>) -> RequestBuilder {
        self.request(Method::POST, path, cookie)
            .header(reqwest::header::ORIGIN, &self.url)
            .header("sec-fetch-site", "same-origin")
    }
}
