//! What a teacher's problem may make the server generate, tried from the side of the teacher who
//! must be refused, on SQLite and PostgreSQL: caps on subtasks and tests (variants and
//! packages), generated tests charged to the owner's quota, instance responses held to their
//! bound, and a game from an octal code answered within its promise of 5 s.

use std::time::{Duration, Instant};

use crate::common;

use common::{Postgres, Server, zip_of};
use grundy_server::RequestLimits;
use grundy_server::domain::teaching;
use grundy_store::{Role, Store};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// The largest subtask `nim` allows: 10 000 lines of 20 piles up to 10⁷, some 0.7 to 1.8 MB a
/// test.
fn nim_at_most(tests: usize) -> Value {
    json!({
        "name": "all", "points": 5, "tests": tests,
        "generator": { "max_lines": 10000, "max_piles": 20, "max_pile": 10000000 }
    })
}

/// A variant of `nim` of `count` copies of `subtask`, named apart, their points adding up to 100.
fn variant(slug: &str, count: usize, subtask: Value) -> Value {
    let others = if count <= 100 { 1 } else { 0 };
    let subtasks: Vec<Value> = (0..count)
        .map(|i| {
            let mut s = subtask.clone();
            s["name"] = json!(format!("s{i}"));
            s["points"] = json!(if i == 0 {
                100 - (count - 1) * others
            } else {
                others
            });
            s
        })
        .collect();
    json!({ "slug": slug, "title": { "en": "Big nim" }, "subtasks": subtasks })
}

/// A package of `groups` test groups holding `per_group` one-line tests each.
fn package(slug: &str, groups: usize, per_group: usize) -> Vec<u8> {
    let yaml = format!("name: Pebbles\ngrundy:\n  slug: {slug}\n");
    let mut files: Vec<(String, String)> = vec![
        ("p/problem.yaml".into(), yaml),
        (
            "p/statement/problem.en.md".into(),
            "Take $n$ pebbles.\n".into(),
        ),
        ("p/data/sample/1.in".into(), "3\n".into()),
        ("p/data/sample/1.ans".into(), "First\n".into()),
    ];
    for g in 0..groups {
        for t in 0..per_group {
            files.push((format!("p/data/secret/g{g:03}/{t:03}.in"), "4\n".into()));
            files.push((
                format!("p/data/secret/g{g:03}/{t:03}.ans"),
                "Second\n".into(),
            ));
        }
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    zip_of(&borrowed)
}

async fn post(server: &Server, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
    server.call(Method::POST, path, token, Some(body)).await
}

/// A request in Vietnamese: its status and the refusal's message.
async fn post_vi(server: &Server, path: &str, token: &str, body: Value) -> (StatusCode, String) {
    let response = server
        .client
        .post(format!("{}{path}", server.url))
        .bearer_auth(token)
        .header("accept-language", "vi")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let doc: Value = response.json().await.unwrap();
    (
        status,
        doc["message"].as_str().unwrap_or_default().to_owned(),
    )
}

async fn upload(server: &Server, token: &str, zip: Vec<u8>) -> (StatusCode, Value) {
    let response = server
        .client
        .post(format!("{}/api/v1/problems", server.url))
        .bearer_auth(token)
        .header("content-type", "application/zip")
        .body(zip)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// What the teacher's problems take of their quota, as the upload page tells it.
async fn used(server: &Server, name: &str) -> u64 {
    let user = server
        .state
        .domain
        .store
        .user_by_name(name)
        .await
        .unwrap()
        .unwrap();
    teaching::usage(&server.state.domain, &user)
        .await
        .unwrap()
        .used_bytes
}

async fn variants_and_packages_keep_to_the_caps(store: Store) {
    let server = Server::start_with(
        store,
        RequestLimits::default(),
        grundy_server::Clock::system(),
    )
    .await;
    let tom = server.token("tom", Role::Teacher).await;
    let nim = "/api/v1/problems/nim/variants";

    // The 2.3 KB variant: 20 subtasks of 100 tests, 2000 in all.
    let (status, doc) = post(
        &server,
        nim,
        &tom,
        variant("nim-2000", 20, nim_at_most(100)),
    )
    .await;
    assert_eq!(status, 422, "{doc}");
    let message = doc["message"].as_str().unwrap();
    assert!(
        message.contains("2000 tests in all; a problem may have at most 400"),
        "{message}"
    );
    let (status, message) = post_vi(
        &server,
        nim,
        &tom,
        variant("nim-2000", 20, nim_at_most(100)),
    )
    .await;
    assert_eq!(status, 422);
    assert!(
        message.contains("có tổng cộng 2000 test") && message.contains("tối đa 400 test"),
        "{message}"
    );
    // The 46 KB variant of 400 subtasks, one test each.
    let (status, doc) = post(&server, nim, &tom, variant("nim-400", 400, nim_at_most(1))).await;
    assert_eq!(status, 422, "{doc}");
    let message = doc["message"].as_str().unwrap();
    assert!(
        message.contains("400 subtasks; a problem may have at most 20"),
        "{message}"
    );
    let (_, message) = post_vi(&server, nim, &tom, variant("nim-400", 400, nim_at_most(1))).await;
    assert!(message.contains("có 400 nhóm test"), "{message}");

    // Within the caps, but 20 subtasks of 5 of the largest tests generate some 80 MiB.
    let started = Instant::now();
    let (status, doc) = post(&server, nim, &tom, variant("nim-huge", 20, nim_at_most(5))).await;
    assert_eq!(status, 422, "{doc}");
    let message = doc["message"].as_str().unwrap();
    assert!(
        message.contains("come to more than 64 MiB, the most a problem's tests may take"),
        "{message}"
    );
    eprintln!("refusing nim-huge took {:?}", started.elapsed());

    // Packages: more groups, or more tests, than a problem may have.
    let (status, doc) = upload(&server, &tom, package("groups", 21, 1)).await;
    assert_eq!(status, 422, "{doc}");
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("21 test groups; a problem may have at most 20 subtasks"),
        "{doc}"
    );
    let (status, doc) = upload(&server, &tom, package("tests", 4, 101)).await;
    assert_eq!(status, 422, "{doc}");
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("404 tests in all; a problem may have at most 400"),
        "{doc}"
    );
    // Nothing of them is kept, and nothing counts against the quota.
    for slug in ["nim-2000", "nim-400", "nim-huge", "groups", "tests"] {
        let (status, _) = server
            .call(Method::GET, &format!("/api/v1/problems/{slug}"), &tom, None)
            .await;
        assert_eq!(status, 404, "{slug}");
    }
    assert_eq!(used(&server, "tom").await, 0);
    // At the caps, a package is taken.
    let (status, doc) = upload(&server, &tom, package("full", 20, 20)).await;
    assert_eq!(status, 201, "{doc}");
    server.stop().await;
}

async fn generated_tests_count_against_the_quota(store: Store) {
    let limits = RequestLimits {
        problem_quota_bytes: Some(2 << 20),
        ..RequestLimits::default()
    };
    let server = Server::start_with(store, limits, grundy_server::Clock::system()).await;
    let tom = server.token("tom", Role::Teacher).await;
    let nim = "/api/v1/problems/nim/variants";
    let small = json!({
        "slug": "nim-small", "title": { "en": "Small nim" },
        "subtasks": [{ "name": "all", "points": 100, "tests": 6,
            "generator": { "max_lines": 300, "max_piles": 20, "max_pile": 10000000 } }]
    });
    let (status, doc) = post(&server, nim, &tom, small).await;
    assert_eq!(status, 201, "{doc}");
    // What it takes: its files as stored plus every byte a judge writes into its test cache.
    let entry = server.state.domain.problems.get("nim-small").unwrap();
    let cache = tempfile::tempdir().unwrap();
    let set = grundy_judge::testset::materialize(&entry.problem, cache.path()).unwrap();
    let cached: u64 = std::fs::read_dir(&set.dir)
        .unwrap()
        .map(|f| f.unwrap().metadata().unwrap().len())
        .sum();
    let stored = server
        .state
        .domain
        .store
        .custom_problem_info("nim-small")
        .await
        .unwrap()
        .unwrap()
        .stored_bytes as u64;
    assert!(cached > 100_000, "{cached}");
    assert_eq!(used(&server, "tom").await, stored + cached);

    // Two of the largest tests, some 2.5 MB, do not fit in the 2 MiB quota: refused, and the
    // usage line stays.
    let big = json!({
        "slug": "nim-big", "title": { "en": "Big nim" },
        "subtasks": [{ "name": "all", "points": 100, "tests": 2,
            "generator": { "max_lines": 10000, "max_piles": 20, "max_pile": 10000000 } }]
    });
    let (status, doc) = post(&server, nim, &tom, big).await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (409, Some("conflict")),
        "{doc}"
    );
    let message = doc["message"].as_str().unwrap();
    assert!(
        message.starts_with("over your quota") && message.contains("the tests this one generates"),
        "{message}"
    );
    let (status, _) = server
        .call(Method::GET, "/api/v1/problems/nim-big", &tom, None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(used(&server, "tom").await, stored + cached);

    // The charge holds across a restart: the problem is loaded again with it.
    let store = server.state.domain.store.clone();
    let info = store
        .custom_problem_info("nim-small")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(info.unpacked_bytes as u64, cached);
    server.stop().await;
}

async fn instance_responses_stay_under_their_bound(store: Store) {
    let server = Server::start_with(
        store,
        RequestLimits::default(),
        grundy_server::Clock::system(),
    )
    .await;
    let tom = server.token("tom", Role::Teacher).await;
    // 20 subtasks of one test: 36 MB of tests, within every cap, but each student's 40
    // instances come to some 30 MB.
    let (status, doc) = post(
        &server,
        "/api/v1/problems/nim/variants",
        &tom,
        variant("nim-wide", 20, nim_at_most(1)),
    )
    .await;
    assert_eq!(status, 201, "{doc}");
    let (status, doc) = post(
        &server,
        "/api/v1/problems/nim-wide/publish",
        &tom,
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{doc}");
    let ann = server.token("ann", Role::Student).await;
    let response = server
        .client
        .get(format!("{}/api/v1/problems/nim-wide/instances", server.url))
        .bearer_auth(&ann)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    let body = response.bytes().await.unwrap();
    assert!(body.len() < 4096, "{} bytes", body.len());
    let doc: Value = serde_json::from_slice(&body).unwrap();
    assert!(
        doc["message"]
            .as_str()
            .unwrap()
            .contains("come to more than 24 MiB"),
        "{doc}"
    );
    // A built-in problem's instances are served as before.
    let (status, doc) = server
        .call(Method::GET, "/api/v1/problems/nim/instances", &ann, None)
        .await;
    assert_eq!(status, 200, "{doc}");
    server.stop().await;
}

/// `POST /api/v1/games` promises an answer within 5 s. The request, a 30-digit code with
/// `upto` 31110, took 10.8 s: its values were computed twice, and a long code's heaps ran for
/// seconds between two looks at the clock. Its values alone take some 30 s in this build, so the
/// answer is a refusal that says what to reduce.
async fn an_octal_game_answers_within_its_promise(store: Store) {
    let server = Server::start_with(
        store,
        RequestLimits::default(),
        grundy_server::Clock::system(),
    )
    .await;
    let tom = server.token("tom", Role::Teacher).await;
    let started = Instant::now();
    let (status, doc) = post(
        &server,
        "/api/v1/games",
        &tom,
        json!({
            "slug": "long-code",
            "title": { "en": "Long code" },
            "code": format!("0.{}", "7".repeat(30)),
            "upto": 31110,
        }),
    )
    .await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
    if status != 201 {
        assert_eq!(status, 422, "{doc}");
        let message = doc["message"].as_str().unwrap();
        assert!(
            message.contains("ask for a smaller range (`upto`) or a shorter code"),
            "{message}"
        );
    }
    server.stop().await;
}

const LIMIT: Duration = Duration::from_secs(300);

on_both!(
    variants_and_packages_keep_to_the_caps,
    generated_tests_count_against_the_quota,
    instance_responses_stay_under_their_bound,
    an_octal_game_answers_within_its_promise,
);
