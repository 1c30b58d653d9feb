//! A test's message quotes its data (the expected answer, what was read) only for readers who may
//! see that data, on SQLite and PostgreSQL, tried from the side of the student who must not: at
//! the `tests` feedback level her own instances' rows name places only, by the API, the page and
//! the event stream, and her explanation leaves her instances' answers out; at `inputs`, and to
//! her teacher always, the quotes are there. Results judged before the two forms were kept apart
//! show no message at `tests`.
//!
//! Judging is done by the test itself through the store's queue, with results as a worker writes
//! them: the place in `message`, the quotes in `detail` where the judge keeps the test's data (a
//! real worker on the same path is `crates/cli/tests/cli/service.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::common;

use common::{Postgres, Server};
use grundy_judge::explain::{CertificateView, ExampleView, Explanation, WrongInstanceView};
use grundy_judge::{Shown, TestName, Verdict};
use grundy_server::domain::accounts;
use grundy_server::{Clock, RequestLimits};
use grundy_store::{Outcome, Role, Store, TestRow};
use reqwest::Method;
use serde_json::{Value, json};

/// 2026-09-01T00:00:00Z.
const T0: i64 = 1_788_220_800_000;
const DAY: i64 = 24 * 3_600_000;
const LIMIT: Duration = Duration::from_secs(120);

/// Her personal instance's answer, which `tests` keeps back.
const SECRET: &str = "expected \"Second\"";

/// A token for a new user of `role`.
async fn token(server: &Server, name: &str, role: Role) -> String {
    let user = server.create_user(name, role).await;
    accounts::issue_token(
        &server.state.domain.store,
        user.id,
        "test",
        T0,
        accounts::DEFAULT_TOKEN_DAYS,
    )
    .await
    .unwrap()
    .token
}

async fn send(server: &Server, method: Method, path: &str, who: &str, body: Value) -> Value {
    let (status, doc) = server.call(method, path, who, Some(body)).await;
    assert!(status.is_success(), "{path}: {status} {doc}");
    doc
}

async fn get(server: &Server, path: &str, who: &str) -> Value {
    let (status, doc) = server.call(Method::GET, path, who, None).await;
    assert_eq!(status, 200, "{path}: {doc}");
    doc
}

/// The submission page and the whole event stream (it ends once the explanation is sent), as
/// `who` reads them.
async fn page_and_stream(server: &Server, id: i64, who: &str) -> (String, String) {
    let read = |path: String| async move {
        let response = server
            .client
            .get(format!("{}{path}", server.url))
            .bearer_auth(who)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        tokio::time::timeout(Duration::from_secs(30), response.text())
            .await
            .expect("the page, or the stream, ends")
            .unwrap()
    };
    (
        read(format!("/submissions/{id}")).await,
        read(format!("/api/v1/submissions/{id}/events")).await,
    )
}

/// A failed test as a worker writes it.
fn failed(position: i64, group: &str, message: Option<&str>, detail: Option<&str>) -> TestRow {
    TestRow {
        position,
        name: TestName::new(group, 1),
        verdict: Verdict::WrongAnswer,
        cpu_ms: 1,
        wall_ms: 1,
        memory_kib: 1024,
        message: message.map(str::to_owned),
        detail: detail.map(str::to_owned),
        shown: None,
        transcript: None,
    }
}

/// Judges the next queued submission (which must be `id`) with `rows` and `explanation`.
async fn judge(server: &Server, id: i64, rows: &[TestRow], explanation: &Explanation) {
    let store = &server.state.domain.store;
    let claimed = store.claim("test-worker", T0, 60_000, 3).await.unwrap();
    assert_eq!(claimed.map(|c| c.id), Some(id));
    for row in rows {
        assert!(store.record_test(id, "test-worker", row).await.unwrap());
    }
    let problem = store.submission(id).await.unwrap().unwrap().problem;
    let version = server.state.domain.problems.get(&problem).unwrap();
    let outcome = Outcome {
        verdict: Verdict::WrongAnswer,
        score: 0,
        max_score: 100,
        compile_message: None,
        problem_version: i64::from(version.problem.spec.version),
    };
    assert!(
        store
            .finish(id, "test-worker", &outcome, T0 + DAY)
            .await
            .unwrap()
    );
    let body = serde_json::to_string(explanation).unwrap();
    assert!(
        store
            .save_explanation(id, T0 + DAY, &body, None, T0 + DAY)
            .await
            .unwrap()
    );
}

fn certificate(en: &str) -> CertificateView {
    CertificateView {
        en: en.into(),
        vi: format!("{en} (vi)"),
    }
}

/// An answer submission's explanation as the worker keeps it: her instance, answered "First",
/// is a loss ("Second"), and a smaller game outside her instances shows the same mistake.
fn explained() -> Explanation {
    Explanation {
        position: Some("2 3 3\n".into()),
        expected: Some("Second".into()),
        got: Some("First".into()),
        certificate: Some(certificate(
            "Her game is lost: the nim-sum of 3 and 3 is 0.",
        )),
        misconception: None,
        large: false,
        runs: 0,
        cpu_ms: 0,
        instances: vec![WrongInstanceView {
            name: "small-1".into(),
            position: "2 3 3\n".into(),
            expected: Some("Second".into()),
            got: "First".into(),
            certificate: Some(certificate(
                "Her game is lost: the nim-sum of 3 and 3 is 0.",
            )),
        }],
        example: Some(ExampleView {
            position: "2 1 1\n".into(),
            expected: "Second".into(),
            got: "First".into(),
            certificate: certificate("Another game is lost: the nim-sum of 1 and 1 is 0."),
        }),
        withheld: false,
    }
}

async fn quotes_follow_the_level(store: Store) {
    let clock = Arc::new(AtomicI64::new(T0 + DAY));
    let now = clock.clone();
    let server = Server::start_with(
        store,
        RequestLimits::default(),
        Clock::from_fn(move || now.load(Ordering::SeqCst)),
    )
    .await;
    let tom = token(&server, "tom", Role::Teacher).await;
    let sue = token(&server, "sue", Role::Student).await;
    let course = send(
        &server,
        Method::POST,
        "/api/v1/courses",
        &tom,
        json!({ "title": "Games" }),
    )
    .await;
    let code = course["join_code"].clone();
    send(
        &server,
        Method::POST,
        "/api/v1/courses/join",
        &sue,
        json!({ "code": code }),
    )
    .await;
    let mut spec = json!({
        "title": "Week 1", "opens_at": T0, "due_at": T0 + 7 * DAY, "closes_at": T0 + 8 * DAY,
        "feedback": "tests", "personal_tests": true, "problems": ["stones"],
    });
    let week = send(
        &server,
        Method::POST,
        &format!("/api/v1/courses/{}/assignments", course["id"]),
        &tom,
        spec.clone(),
    )
    .await["id"]
        .as_i64()
        .unwrap();

    // Her answers: a public sample, her own instance, and a row judged before the two forms were
    // kept apart (its one message, quoting, became its detail).
    let sheet = get(
        &server,
        &format!("/api/v1/assignments/{week}/problems/stones/instances"),
        &sue,
    )
    .await;
    let answers: serde_json::Map<String, Value> = sheet["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap().to_owned(), "First\n".into()))
        .collect();
    let id = send(
        &server,
        Method::POST,
        "/api/v1/submissions",
        &sue,
        json!({ "problem": "stones", "answers": answers, "assignment": week, "draw": sheet["draw"] }),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let sample_detail = "line 1: expected \"Second\", read \"First\"";
    let kept = |row: TestRow, input: &str| TestRow {
        shown: Some(Shown {
            input: input.into(),
            expected: "Second\n".into(),
            output: "First\n".into(),
        }),
        ..row
    };
    let rows = [
        kept(
            failed(0, "samples", Some("line 1 is wrong"), Some(sample_detail)),
            "1 2\n",
        ),
        kept(
            failed(
                1,
                "small",
                Some("line 1 is wrong"),
                Some("line 1: expected \"Second\", read \"First\""),
            ),
            "2 3 3\n",
        ),
        kept(
            failed(
                2,
                "full",
                None,
                Some("line 1: expected \"Second\", read \"First\""),
            ),
            "2 5 5\n",
        ),
    ];
    judge(&server, id, &rows, &explained()).await;
    let path = format!("/api/v1/submissions/{id}");
    let messages = |doc: &Value| -> Vec<Value> {
        doc["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["message"].clone())
            .collect()
    };

    // At `tests`: the sample's quotes (it is public), her instances' places only, or nothing.
    let hers = get(&server, &path, &sue).await;
    assert_eq!(hers["feedback"], "tests");
    assert_eq!(
        messages(&hers),
        [json!(sample_detail), json!("line 1 is wrong"), Value::Null]
    );
    let explanation = &hers["explanation"];
    assert_eq!(explanation["withheld"], true, "{explanation}");
    assert_eq!(
        (&explanation["position"], &explanation["got"]),
        (&json!("2 1 1\n"), &json!("First")),
        "the game worked through is none of hers"
    );
    assert_eq!(
        explanation["instances"],
        json!([{ "name": "small-1", "position": "2 3 3\n", "expected": null, "got": "First",
                 "certificate": null }])
    );
    let (page, stream) = page_and_stream(&server, id, &sue).await;
    assert!(stream.contains("event: explanation"), "{stream}");
    for (what, text) in [("the page", &page), ("the stream", &stream)] {
        assert!(!text.contains("nim-sum of 3 and 3"), "{what}: {text}");
        assert!(text.contains("nim-sum of 1 and 1"), "{what}: {text}");
    }
    // Only the sample's row quotes: once, on the stream; twice on the page (its row and its
    // data side by side).
    assert_eq!(
        stream.matches(&SECRET.replace('"', "\\\"")).count(),
        1,
        "{stream}"
    );
    assert_eq!(
        page.matches(&SECRET.replace('"', "&#34;")).count(),
        2,
        "{page}"
    );
    assert!(page.contains("A small game, none of yours"), "{page}");
    let (status, vietnamese) = {
        let response = server
            .client
            .get(format!("{}/submissions/{id}", server.url))
            .bearer_auth(&sue)
            .header("accept-language", "vi")
            .send()
            .await
            .unwrap();
        (response.status(), response.text().await.unwrap())
    };
    assert_eq!(status, 200);
    assert!(vietnamese.contains("Dòng 1 sai"), "{vietnamese}");
    assert_eq!(
        vietnamese.matches("cần &#34;Second").count(),
        2,
        "the sample's only: {vietnamese}"
    );

    // Her teacher reads every quote and the whole explanation.
    let toms = get(&server, &path, &tom).await;
    assert_eq!(toms["feedback"], "inputs");
    let quoted = json!("line 1: expected \"Second\", read \"First\"");
    assert_eq!(
        messages(&toms),
        [json!(sample_detail), quoted.clone(), quoted.clone()]
    );
    assert_eq!(toms["explanation"]["withheld"], false);
    assert_eq!(toms["explanation"]["position"], "2 3 3\n");
    assert_eq!(toms["explanation"]["instances"][0]["expected"], "Second");
    let (page, stream) = page_and_stream(&server, id, &tom).await;
    assert_eq!(
        stream.matches(&SECRET.replace('"', "\\\"")).count(),
        3,
        "{stream}"
    );
    assert!(page.contains("nim-sum of 3 and 3"), "{page}");

    // At `inputs`, so does she.
    spec["feedback"] = "inputs".into();
    send(
        &server,
        Method::PUT,
        &format!("/api/v1/assignments/{week}"),
        &tom,
        spec,
    )
    .await;
    let hers = get(&server, &path, &sue).await;
    assert_eq!(messages(&hers), messages(&toms));
    assert_eq!(hers["explanation"], toms["explanation"]);
    server.stop().await;
}

on_both!(quotes_follow_the_level);
