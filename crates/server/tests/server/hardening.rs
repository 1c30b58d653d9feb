//! The service's defences against guessing and abuse, in process over a real port 0 on SQLite:
//! backoff after failed logins and registrations (per name, per address, the proxy's address
//! only when trusted), registration that tells a taken name only to a form otherwise right,
//! `Secure` cookies over HTTPS, and the cap on a user's open event streams. Time is a clock the
//! tests move, never a sleep.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::common;

use common::Server;
use grundy_server::domain::accounts;
use grundy_server::throttle::{Backoff, ThrottleLimits};
use grundy_server::{Clock, Registration, RequestLimits, SESSION_COOKIE};
use grundy_store::{NewSubmission, Outcome, Role, Store, SubmissionKind};
use reqwest::header::{HeaderMap, RETRY_AFTER, SET_COOKIE};
use reqwest::{RequestBuilder, StatusCode};
use serde_json::{Value, json};

/// A server on a clock the test moves (it starts at the real time: sessions keep the system's).
async fn start(limits: RequestLimits) -> (Server, Arc<AtomicI64>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    let now = Arc::new(AtomicI64::new(grundy_server::now_ms()));
    let read = now.clone();
    let clock = Clock::from_fn(move || read.load(Ordering::SeqCst));
    (Server::start_with(store, limits, clock).await, now, dir)
}

/// One second's wait after the free failures, doubling; a long memory.
fn backoff(free_failures: u32) -> Backoff {
    Backoff {
        free_failures,
        first_wait_ms: 1000,
        max_wait_ms: 60_000,
        forget_after_ms: 3_600_000,
    }
}

fn throttled(per_name: u32, per_address: u32) -> RequestLimits {
    RequestLimits {
        login_throttle: ThrottleLimits {
            per_name: backoff(per_name),
            per_address: backoff(per_address),
            capacity: 10_000,
        },
        ..RequestLimits::default()
    }
}

/// A response read whole.
#[derive(Debug)]
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    fn session_cookie(&self) -> Option<&str> {
        self.headers
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with(&format!("{SESSION_COOKIE}=")))
    }

    /// The refusal a page shows.
    fn page_error(&self) -> &str {
        let start = self
            .text
            .find(r#"<p class="error" role="alert">"#)
            .unwrap_or_else(|| panic!("an error message in {}", self.text));
        let rest = &self.text[start..];
        &rest[..rest.find("</p>").unwrap()]
    }
}

async fn send(request: RequestBuilder) -> Answer {
    let response = request.send().await.unwrap();
    Answer {
        status: response.status(),
        headers: response.headers().clone(),
        text: response.text().await.unwrap(),
    }
}

/// This file's ways of talking to the server (a trait, since other test modules add theirs).
trait HardeningServer {
    fn api_login(&self, name: &str, password: &str) -> RequestBuilder;
    fn form(&self, path: &str, fields: &[(&str, &str)]) -> RequestBuilder;
    fn page_login(&self, name: &str, password: &str) -> RequestBuilder;
    fn register(&self, name: &str, password: &str) -> RequestBuilder;
}

impl HardeningServer for Server {
    fn api_login(&self, name: &str, password: &str) -> RequestBuilder {
        self.client
            .post(format!("{}/api/v1/login", self.url))
            .json(&json!({ "name": name, "password": password }))
    }

    fn form(&self, path: &str, fields: &[(&str, &str)]) -> RequestBuilder {
        self.client.post(format!("{}{path}", self.url)).form(fields)
    }

    fn page_login(&self, name: &str, password: &str) -> RequestBuilder {
        self.form("/login", &[("name", name), ("password", password)])
    }

    fn register(&self, name: &str, password: &str) -> RequestBuilder {
        self.form("/register", &[("name", name), ("password", password)])
    }
}

#[track_caller]
fn assert_waits(answer: &Answer, secs: u64) {
    assert_eq!(
        answer.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        answer.text
    );
    assert_eq!(answer.header("retry-after"), secs.to_string());
}

// Logins.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_for_one_name_wait_longer_each_time_until_one_succeeds() {
    let (server, now, _dir) = start(throttled(2, 1000)).await;
    server.create_user("ana", Role::Student).await;
    let advance = |secs: i64| now.fetch_add(secs * 1000, Ordering::SeqCst);

    for _ in 0..3 {
        let answer = send(server.api_login("ana", "wrong-password")).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    // Even the right password waits: a refused attempt checks nothing.
    let refused = send(server.api_login("ana", "ana-password")).await;
    assert_waits(&refused, 1);
    assert_eq!(refused.json()["error"], "too_many_requests");
    assert!(refused.session_cookie().is_none());
    // The same for a name that does not exist: a wait says nothing about who has an account.
    for _ in 0..3 {
        send(server.api_login("nobody", "wrong-password")).await;
    }
    assert_waits(&send(server.api_login("nobody", "ana-password")).await, 1);
    // Another name from the same address goes on.
    let other = send(server.api_login("bob", "wrong-password")).await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);

    advance(1);
    assert_eq!(
        send(server.api_login("ana", "wrong-password")).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_waits(&send(server.api_login("ana", "ana-password")).await, 2);
    // The page says so too, and keeps the name typed.
    let page = send(server.page_login("ana", "ana-password")).await;
    assert_waits(&page, 2);
    assert!(
        page.page_error().contains("try again in 2 s"),
        "{}",
        page.text
    );
    assert!(page.text.contains(r#"value="ana""#));

    advance(2);
    let signed_in = send(server.api_login("ana", "ana-password")).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    // A success starts the name afresh: its free failures again, no wait.
    for _ in 0..3 {
        let answer = send(server.page_login("ana", "wrong-password")).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    }
    assert_waits(&send(server.page_login("ana", "ana-password")).await, 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_trying_many_names_waits_and_a_forwarded_address_counts_only_behind_a_trusted_proxy()
 {
    for trust_proxy in [false, true] {
        let (server, _now, _dir) = start(RequestLimits {
            trust_proxy,
            ..throttled(1000, 3)
        })
        .await;
        server.create_user("ana", Role::Student).await;
        let from = |address: &str, request: RequestBuilder| {
            request.header("x-forwarded-for", format!("192.0.2.77, {address}"))
        };
        for name in ["bob", "cy", "dee", "eve"] {
            let answer = send(from("203.0.113.1", server.api_login(name, "guess-1234"))).await;
            assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        }
        let guessed = send(from("203.0.113.1", server.api_login("fay", "guess-1234"))).await;
        assert_waits(&guessed, 1);
        // Another client behind the proxy.
        let elsewhere = send(from("203.0.113.2", server.api_login("ana", "ana-password"))).await;
        if trust_proxy {
            assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text);
        } else {
            // Untrusted, the header is the client's own word: every request is the peer's.
            assert_waits(&elsewhere, 1);
        }
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classroom_signing_in_from_one_address_is_never_held_up() {
    let (server, _now, _dir) = start(throttled(2, 2)).await;
    for i in 0..12 {
        let name = format!("student{i}");
        server.create_user(&name, Role::Student).await;
        let answer = send(server.page_login(&name, &format!("{name}-password"))).await;
        assert_eq!(
            answer.status,
            StatusCode::SEE_OTHER,
            "{name}: {}",
            answer.text
        );
    }
    server.stop().await;
}

// Registration.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_tells_a_taken_name_only_to_a_form_otherwise_right() {
    let (server, _now, _dir) = start(RequestLimits {
        registration: Registration::Open,
        ..throttled(1000, 1000)
    })
    .await;
    server.create_user("ana", Role::Student).await;
    for password in ["short", &"x".repeat(accounts::MAX_PASSWORD_CHARS + 1)] {
        let taken = send(server.register("ana", password)).await;
        let free = send(server.register("zed", password)).await;
        assert_eq!(taken.status, StatusCode::BAD_REQUEST, "{}", taken.text);
        assert_eq!(
            (taken.status, taken.page_error()),
            (free.status, free.page_error()),
            "a taken and a free name read the same"
        );
    }
    let taken = send(server.register("ana", "a-long-password")).await;
    assert_eq!(taken.status, StatusCode::CONFLICT);
    assert!(taken.session_cookie().is_none());
    server.stop().await;

    let (server, _now, _dir) = start(RequestLimits {
        registration: Registration::Invitation("letmein".into()),
        ..throttled(1000, 1000)
    })
    .await;
    server.create_user("ana", Role::Student).await;
    let with_code = |name: &str| {
        server.form(
            "/register",
            &[
                ("name", name),
                ("password", "a-long-password"),
                ("code", "guess"),
            ],
        )
    };
    let (taken, free) = (send(with_code("ana")).await, send(with_code("zed")).await);
    assert_eq!(taken.status, StatusCode::FORBIDDEN);
    assert_eq!(
        (taken.status, taken.page_error()),
        (free.status, free.page_error())
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trying_names_at_registration_is_throttled_like_logins() {
    let (server, now, _dir) = start(RequestLimits {
        registration: Registration::Open,
        ..throttled(1000, 3)
    })
    .await;
    for name in ["ana", "bob", "cy", "dee", "eve"] {
        server.create_user(name, Role::Student).await;
    }
    // Accounts made on the way do not count against the address.
    for i in 0..6 {
        let made = send(server.register(&format!("new{i}"), "a-long-password")).await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.text);
    }
    for name in ["ana", "bob", "cy", "dee"] {
        let answer = send(server.register(name, "a-long-password")).await;
        assert_eq!(answer.status, StatusCode::CONFLICT, "{name}");
    }
    // Now every name reads the same, taken or free: wait.
    let taken = send(server.register("eve", "a-long-password")).await;
    let free = send(server.register("zed", "a-long-password")).await;
    assert_waits(&taken, 1);
    assert_waits(&free, 1);
    assert_eq!(taken.page_error(), free.page_error());
    assert!(!taken.text.contains("exists"), "{}", taken.text);
    let zed = server.state.domain.store.user_by_name("zed").await.unwrap();
    assert!(zed.is_none(), "a refusal made no account");
    now.fetch_add(1000, Ordering::SeqCst);
    assert_eq!(
        send(server.register("zed", "a-long-password")).await.status,
        StatusCode::SEE_OTHER
    );
    server.stop().await;
}

/// A script creating accounts in bulk where registration is open (each one a success, which the
/// backoff forgives) is stopped after the address's share for the hour; a class behind one
/// address registering with an invitation code is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_registered_in_bulk_from_one_address_are_stopped() {
    let (server, now, _dir) = start(RequestLimits {
        registration: Registration::Open,
        registrations_per_address_hour: 3,
        ..throttled(1000, 1000)
    })
    .await;
    for i in 0..3 {
        let made = send(server.register(&format!("bot{i}"), "a-long-password")).await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.text);
    }
    let refused = send(server.register("bot3", "a-long-password")).await;
    assert_waits(&refused, 3600);
    assert!(
        refused
            .page_error()
            .contains("too many accounts registered from this address"),
        "{}",
        refused.text
    );
    let vietnamese = send(
        server
            .register("bot3", "a-long-password")
            .header("accept-language", "vi"),
    )
    .await;
    assert!(
        vietnamese
            .page_error()
            .contains("quá nhiều tài khoản được đăng ký từ địa chỉ này"),
        "{}",
        vietnamese.text
    );
    let store = &server.state.domain.store;
    assert!(store.user_by_name("bot3").await.unwrap().is_none());
    now.fetch_add(3_600_000, Ordering::SeqCst);
    let later = send(server.register("bot3", "a-long-password")).await;
    assert_eq!(later.status, StatusCode::SEE_OTHER, "{}", later.text);
    server.stop().await;

    let (server, _now, _dir) = start(RequestLimits {
        registration: Registration::Invitation("letmein".into()),
        registrations_per_address_hour: 3,
        ..throttled(1000, 1000)
    })
    .await;
    for i in 0..6 {
        let name = format!("pupil{i}");
        let fields = [
            ("name", name.as_str()),
            ("password", "a-long-password"),
            ("code", "letmein"),
        ];
        let made = send(server.form("/register", &fields)).await;
        assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.text);
    }
    server.stop().await;
}

/// "аdmin" with a Cyrillic "а" and "ａdmin" typed full width would read as the admin's name in
/// every list: both are refused, in the reader's language, and no account is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_look_like_a_taken_one_are_refused() {
    let (server, _now, _dir) = start(RequestLimits {
        registration: Registration::Open,
        ..throttled(1000, 1000)
    })
    .await;
    server.create_user("admin", Role::Admin).await;
    let lookalike = send(server.register("\u{430}dmin", "a-long-password")).await;
    assert_eq!(lookalike.status, StatusCode::CONFLICT, "{}", lookalike.text);
    assert!(
        lookalike.page_error().contains("looks the same"),
        "{}",
        lookalike.text
    );
    let vietnamese = send(
        server
            .register("\u{430}dmin", "a-long-password")
            .header("accept-language", "vi"),
    )
    .await;
    assert!(
        vietnamese.page_error().contains("trông giống hệt"),
        "{}",
        vietnamese.text
    );
    let full_width = send(server.register("\u{ff41}dmin", "a-long-password")).await;
    assert_eq!(
        full_width.status,
        StatusCode::CONFLICT,
        "{}",
        full_width.text
    );
    assert_eq!(server.state.domain.store.count_users().await.unwrap(), 1);
    server.stop().await;
}

// One's own password.

/// Someone holding Ana's session (left signed in on a shared computer) guesses her password on
/// the form that changes it, to learn it or to take the account: throttled with the logins of
/// her name, on the API and the page alike, in both languages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_the_current_password_is_throttled_like_logins() {
    let (server, now, _dir) = start(throttled(2, 1000)).await;
    let before = server.create_user("ana", Role::Student).await.password_hash;
    let signed_in = send(server.api_login("ana", "ana-password")).await;
    let cookie = signed_in
        .session_cookie()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let change = |current: &str| {
        server
            .client
            .put(format!("{}/api/v1/me/password", server.url))
            .header("cookie", &cookie)
            .json(&json!({ "current": current, "new": "taken-over" }))
    };
    for guess in ["guess-one", "guess-two", "guess-three"] {
        let answer = send(change(guess)).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    }
    // Even the right password waits, and so do her logins: one record for the name.
    let refused = send(change("ana-password")).await;
    assert_waits(&refused, 1);
    assert_eq!(refused.json()["error"], "too_many_requests");
    let vietnamese = send(change("ana-password").header("accept-language", "vi")).await;
    assert_eq!(
        vietnamese.json()["message"],
        "Có quá nhiều lần thử; hãy thử lại sau 1 giây."
    );
    assert_waits(&send(server.api_login("ana", "ana-password")).await, 1);
    let page = send(
        server
            .form(
                "/account/password",
                &[("current", "ana-password"), ("new", "taken-over")],
            )
            .header("cookie", &cookie)
            .header("origin", &server.url)
            .header("sec-fetch-site", "same-origin"),
    )
    .await;
    assert_waits(&page, 1);
    assert!(
        page.page_error().contains("try again in 1 s"),
        "{}",
        page.text
    );
    let store = &server.state.domain.store;
    let hash = store
        .user_by_name("ana")
        .await
        .unwrap()
        .unwrap()
        .password_hash;
    assert_eq!(hash, before, "the password is as it was");

    now.fetch_add(1000, Ordering::SeqCst);
    assert_eq!(
        send(change("ana-password")).await.status,
        StatusCode::NO_CONTENT
    );
    server.stop().await;
}

// Headers.

/// The opening tags of every `<script>` in a page, and every attribute that runs script
/// (`onclick=`, `onload=`, …) or a `javascript:` address: what a policy without inline script
/// would block, so a page of ours must have none of them.
fn inline_script(page: &str) -> Vec<String> {
    let lower = page.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("<script") {
        let tag = &rest[at..at + rest[at..].find('>').unwrap_or(rest.len() - at)];
        let external = tag.contains(" src=");
        let data = tag.contains(r#"type="application/json""#);
        if !external && !data {
            found.push(tag.to_owned());
        }
        rest = &rest[at + 7..];
    }
    for (at, _) in lower.match_indices(" on") {
        let name: String = lower[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if lower[at + 1 + name.len()..].starts_with('=') && name.len() > 2 {
            found.push(lower[at..(at + 40).min(lower.len())].to_owned());
        }
    }
    if lower.contains("javascript:") {
        found.push("javascript:".to_owned());
    }
    found
}

/// Every answer, page, API, error or the API's documentation, forbids framing and sniffing and
/// sets a policy that lets scripts come only from our own files; and the pages need nothing
/// more (no inline script or handler that the policy would silently break).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_a_policy_without_inline_script_and_the_pages_keep_to_it() {
    let (server, _now, _dir) = start(RequestLimits::default()).await;
    server.create_user("tess", Role::Teacher).await;
    let login = send(server.page_login("tess", "tess-password")).await;
    let cookie = login
        .session_cookie()
        .unwrap_or_else(|| panic!("signed in: {login:?}"))
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let pages = [
        "/problems",
        "/problems/stones",
        "/login",
        "/register",
        "/no-such-page",
        "/courses",
        "/submissions",
        "/teach",
        "/teach/users",
        "/teach/upload",
        "/teach/submissions",
        "/account",
    ];
    for signed_in in [false, true] {
        for path in pages {
            let mut request = server.client.get(format!("{}{path}", server.url));
            if signed_in {
                request = request.header("cookie", &cookie);
            }
            let answer = send(request).await;
            if signed_in && !["/no-such-page", "/register"].contains(&path) {
                assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text);
            }
            let policy = answer.header("content-security-policy");
            let script_src = policy
                .split(';')
                .map(str::trim)
                .find(|d| d.starts_with("script-src"))
                .unwrap_or_else(|| panic!("{path}: a script-src in {policy:?}"));
            assert_eq!(script_src, "script-src 'self'", "{path}");
            assert!(
                policy.contains("frame-ancestors 'none'"),
                "{path}: {policy}"
            );
            assert!(policy.contains("object-src 'none'"), "{path}: {policy}");
            assert_eq!(answer.header("x-content-type-options"), "nosniff", "{path}");
            assert_eq!(answer.header("x-frame-options"), "DENY", "{path}");
            if answer.header("content-type").starts_with("text/html") {
                assert_eq!(inline_script(&answer.text), Vec::<String>::new(), "{path}");
            }
        }
    }
    for path in [
        "/api/v1/problems",
        "/api/v1/no-such-route",
        "/api/openapi.json",
        "/api/docs/",
    ] {
        let answer = send(server.client.get(format!("{}{path}", server.url))).await;
        let policy = answer.header("content-security-policy");
        assert!(policy.contains("script-src 'self';"), "{path}: {policy}");
        assert_eq!(answer.header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(answer.header("x-frame-options"), "DENY", "{path}");
        if path == "/api/docs/" {
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
            assert_eq!(inline_script(&answer.text), Vec::<String>::new());
        }
    }
}

#[test]
fn the_inline_script_finder_finds_what_a_policy_blocks() {
    let page = r#"<script src="/assets/a.js"></script><script type="application/json">{}</script>"#;
    assert!(inline_script(page).is_empty());
    assert_eq!(inline_script("<script>alert(1)</script>").len(), 1);
    assert_eq!(inline_script(r#"<button onclick="x()">"#).len(), 1);
    assert_eq!(inline_script(r#"<a href="javascript:x()">"#).len(), 1);
    assert!(inline_script(r#"<p class="on">online</p>"#).is_empty());
}

// Cookies.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_cookies_are_secure_when_the_request_came_over_https() {
    let (server, _now, _dir) = start(RequestLimits {
        registration: Registration::Open,
        ..RequestLimits::default()
    })
    .await;
    server.create_user("ana", Role::Student).await;
    let over_https = |request: RequestBuilder| request.header("x-forwarded-proto", "https");
    let secure = |answer: &Answer| {
        let cookie = answer
            .session_cookie()
            .unwrap_or_else(|| panic!("a session cookie: {answer:?}"));
        cookie.split(';').any(|a| a.trim() == "Secure")
    };
    assert!(!secure(
        &send(server.api_login("ana", "ana-password")).await
    ));
    assert!(secure(
        &send(over_https(server.api_login("ana", "ana-password"))).await
    ));
    assert!(!secure(
        &send(server.page_login("ana", "ana-password")).await
    ));
    assert!(secure(
        &send(over_https(server.page_login("ana", "ana-password"))).await
    ));
    let forwarded = server
        .page_login("ana", "ana-password")
        .header("forwarded", "for=192.0.2.1;proto=https");
    assert!(secure(&send(forwarded).await));
    assert!(secure(
        &send(over_https(server.register("bob", "bob-password"))).await
    ));
    server.stop().await;

    let (server, _now, _dir) = start(RequestLimits {
        secure_cookies: true,
        ..RequestLimits::default()
    })
    .await;
    server.create_user("ana", Role::Student).await;
    assert!(
        secure(&send(server.api_login("ana", "ana-password")).await),
        "always when the operator says so"
    );
    server.stop().await;
}

// Event streams.

async fn queue(server: &Server, user: i64) -> i64 {
    server
        .state
        .domain
        .store
        .create_submission(
            &NewSubmission {
                user_id: user,
                problem: "stones".into(),
                kind: SubmissionKind::Program,
                language: Some("cpp20".into()),
                source: b"int main() {}".to_vec(),
                priority: 0,
                assignment_id: None,
                instance_seed: None,
            },
            grundy_server::now_ms(),
        )
        .await
        .unwrap()
}

async fn judge(server: &Server, id: i64) {
    let store = &server.state.domain.store;
    let now = grundy_server::now_ms();
    let claimed = store.claim("w1", now, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(claimed.id, id);
    let outcome = Outcome {
        verdict: grundy_judge::Verdict::Accepted,
        score: 100,
        max_score: 100,
        compile_message: None,
        problem_version: 1,
    };
    assert!(store.finish(id, "w1", &outcome, now).await.unwrap());
    server.state.domain.events.publish(id);
}

/// Reads an event stream until it ends; the names of its events.
async fn events_to_the_end(mut response: reqwest::Response) -> Vec<String> {
    let mut text = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), response.chunk())
        .await
        .expect("the stream goes on or ends within 10 s")
        .unwrap()
    {
        text.extend_from_slice(&chunk);
    }
    String::from_utf8(text)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("event:"))
        .map(|e| e.trim().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_has_only_so_many_event_streams_open_and_gets_one_back_when_it_ends() {
    let (server, _now, _dir) = start(RequestLimits {
        event_streams_per_user: 1,
        ..RequestLimits::default()
    })
    .await;
    let ana = server.create_user("ana", Role::Student).await;
    let bob = server.create_user("bob", Role::Student).await;
    let token = |id| {
        let days = accounts::DEFAULT_TOKEN_DAYS;
        accounts::issue_token(
            &server.state.domain.store,
            id,
            "test",
            grundy_server::now_ms(),
            days,
        )
    };
    let (ana_token, bob_token) = (
        token(ana.id).await.unwrap().token,
        token(bob.id).await.unwrap().token,
    );
    let (first, second, bobs) = (
        queue(&server, ana.id).await,
        queue(&server, ana.id).await,
        queue(&server, bob.id).await,
    );
    let follow = |id: i64, token: &str| {
        server
            .client
            .get(format!("{}/api/v1/submissions/{id}/events", server.url))
            .bearer_auth(token)
            .send()
    };

    let open = follow(first, &ana_token).await.unwrap();
    assert_eq!(open.status(), StatusCode::OK);
    let refused = follow(second, &ana_token).await.unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key(RETRY_AFTER));
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "too_many_requests");
    let others = follow(bobs, &bob_token).await.unwrap();
    assert_eq!(others.status(), StatusCode::OK, "the cap is per user");

    // The first one's judging ends, and so does its stream: its place is free again.
    judge(&server, first).await;
    let seen = events_to_the_end(open).await;
    assert_eq!(seen.last().map(String::as_str), Some("done"), "{seen:?}");
    let again = follow(second, &ana_token).await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    drop((again, others));
    server.stop().await;
}
