//! One's own account, tried from the side of whoever must be refused, on SQLite and PostgreSQL:
//! what a new password ends (the sessions and tokens someone may have made with the old one).

use crate::common;

use common::{Postgres, Server};
use grundy_server::{Clock, RequestLimits, SESSION_COOKIE};
use grundy_store::{Role, Store};
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};

/// The ways a request can say who sends it.
#[derive(Debug, Clone)]
enum As {
    Cookie(String),
    Token(String),
}

/// This file's ways of talking to the server (a trait, since other test modules add theirs).
trait AccountsServer {
    fn request(&self, method: Method, path: &str, who: &As) -> RequestBuilder;
    async fn log_in(&self, name: &str, password: &str) -> As;
    async fn make_token(&self, who: &As) -> As;
    async fn signed_in(&self, who: &As) -> bool;
    async fn change_password(&self, who: &As, current: &str, new: &str) -> StatusCode;
}

impl AccountsServer for Server {
    fn request(&self, method: Method, path: &str, who: &As) -> RequestBuilder {
        let request = self.client.request(method, format!("{}{path}", self.url));
        match who {
            As::Cookie(cookie) => request.header(COOKIE, cookie),
            As::Token(token) => request.bearer_auth(token),
        }
    }

    /// A browser's session after logging in with this password.
    async fn log_in(&self, name: &str, password: &str) -> As {
        let response = self
            .client
            .post(format!("{}/api/v1/login", self.url))
            .json(&json!({ "name": name, "password": password }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{name} logs in");
        let cookie = response
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with(&format!("{SESSION_COOKIE}=")))
            .expect("a session cookie")
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        As::Cookie(cookie)
    }

    /// A new API token made by `who`.
    async fn make_token(&self, who: &As) -> As {
        let response = self
            .request(Method::POST, "/api/v1/tokens", who)
            .json(&json!({ "label": "script" }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
        let made: Value = response.json().await.unwrap();
        As::Token(made["token"].as_str().unwrap().to_owned())
    }

    /// Whether `who` is still signed in.
    async fn signed_in(&self, who: &As) -> bool {
        let response = self
            .request(Method::GET, "/api/v1/me", who)
            .send()
            .await
            .unwrap();
        match response.status() {
            StatusCode::OK => true,
            StatusCode::UNAUTHORIZED => false,
            other => panic!("/api/v1/me: {other}"),
        }
    }

    async fn change_password(&self, who: &As, current: &str, new: &str) -> StatusCode {
        self.request(Method::PUT, "/api/v1/me/password", who)
            .json(&json!({ "current": current, "new": new }))
            .send()
            .await
            .unwrap()
            .status()
    }
}

/// Someone who learnt Ana's password signed in with it and made a token to outlast a change of
/// it: her change ends both, and her other sessions; the session she changes it from stays. A
/// change made with a token keeps nothing, not even a session whose cookie came along.
async fn a_new_password_ends_what_the_old_one_opened(store: Store) {
    let server = Server::start_with(store, RequestLimits::default(), Clock::system()).await;
    server.create_user("ana", Role::Student).await;

    // By the API, from her laptop's session.
    let thief = server.log_in("ana", "ana-password").await;
    let thiefs_token = server.make_token(&thief).await;
    let phone = server.log_in("ana", "ana-password").await;
    let laptop = server.log_in("ana", "ana-password").await;
    let own_token = server.make_token(&laptop).await;
    assert_eq!(
        server
            .change_password(&laptop, "ana-password", "second-password")
            .await,
        StatusCode::NO_CONTENT
    );
    for (who, what) in [
        (&thiefs_token, "the thief's token"),
        (&thief, "the thief's session"),
        (&phone, "her phone's session"),
        (&own_token, "her own token from before"),
    ] {
        assert!(!server.signed_in(who).await, "{what} is refused");
    }
    assert!(
        server.signed_in(&laptop).await,
        "the session she used stays"
    );

    // By the page's form.
    let thief = server.log_in("ana", "second-password").await;
    let thiefs_token = server.make_token(&thief).await;
    let As::Cookie(cookie) = &laptop else {
        unreachable!()
    };
    let page = server
        .client
        .post(format!("{}/account/password", server.url))
        .header(COOKIE, cookie)
        .header(ORIGIN, &server.url)
        .header("sec-fetch-site", "same-origin")
        .form(&[("current", "second-password"), ("new", "third-password")])
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(!server.signed_in(&thiefs_token).await, "the thief's token");
    assert!(!server.signed_in(&thief).await, "the thief's session");
    assert!(server.signed_in(&laptop).await);

    // With a token, and her laptop's cookie sent along: the token speaks for the request, so
    // there is no session of the change's to keep.
    let script = server.make_token(&laptop).await;
    let As::Token(token) = &script else {
        unreachable!()
    };
    let changed = server
        .request(Method::PUT, "/api/v1/me/password", &laptop)
        .bearer_auth(token)
        .json(&json!({ "current": "third-password", "new": "fourth-password" }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::NO_CONTENT);
    assert!(
        !server.signed_in(&script).await,
        "the token that changed it"
    );
    assert!(
        !server.signed_in(&laptop).await,
        "the session it did not use"
    );
    server.log_in("ana", "fourth-password").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_ends_what_the_old_one_opened_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    a_new_password_ends_what_the_old_one_opened(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_password_ends_what_the_old_one_opened_on_postgres() {
    let Some((store, database)) = Postgres::create("new_password_on_postgres").await else {
        return;
    };
    a_new_password_ends_what_the_old_one_opened(store).await;
    database.drop_database().await;
}
