//! What a student is shown of a program's failed tests, through the API and the submission page,
//! on SQLite and PostgreSQL: a failing sample's input, expected answer and output side by side
//! (samples are public), never a hidden test's, and the subtasks as the statement lists them.
//!
//! Judging is done by the test itself through the store's queue, with results as a worker would
//! write them (the judge's own side of this is tested in `crates/judge` and
//! `crates/cli/tests/judging.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

mod common;

use common::{Postgres, Server};
use grundy_judge::{Shown, TestName, Verdict};
use grundy_problems::Catalogue;
use grundy_server::domain::accounts;
use grundy_server::{Clock, RequestLimits, SESSION_COOKIE};
use grundy_store::{Outcome, Role, Store, TestRow};
use reqwest::Method;
use reqwest::header::COOKIE;
use serde_json::{Value, json};

/// 2026-09-01T00:00:00Z.
const T0: i64 = 1_788_220_800_000;
const DAY: i64 = 24 * 3_600_000;

struct Person {
    token: String,
    cookie: String,
}

async fn person(server: &Server, name: &str, role: Role) -> Person {
    let user = server.create_user(name, role).await;
    let domain = &server.state.domain;
    let token = accounts::issue_token(
        &domain.store,
        user.id,
        "test",
        T0,
        accounts::DEFAULT_TOKEN_DAYS,
    )
    .await
    .unwrap()
    .token;
    let secret = accounts::start_session(domain, user.id, None)
        .await
        .unwrap();
    Person {
        token,
        cookie: format!("{SESSION_COOKIE}={secret}"),
    }
}

async fn post(server: &Server, path: &str, who: &Person, body: Value) -> Value {
    let (status, doc) = server
        .call(Method::POST, path, &who.token, Some(body))
        .await;
    assert!(status.is_success(), "{path}: {status} {doc}");
    doc
}

async fn detail(server: &Server, id: i64, who: &Person) -> Value {
    let path = format!("/api/v1/submissions/{id}");
    let (status, doc) = server.call(Method::GET, &path, &who.token, None).await;
    assert_eq!(status, 200, "{doc}");
    doc
}

async fn page(server: &Server, id: i64, who: &Person) -> String {
    let response = server
        .client
        .get(format!("{}/submissions/{id}", server.url))
        .header(COOKIE, &who.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

fn row(position: i64, group: &str, index: u32, verdict: Verdict) -> TestRow {
    TestRow {
        position,
        name: TestName::new(group, index),
        verdict,
        cpu_ms: 1,
        wall_ms: 1,
        memory_kib: 1024,
        message: verdict.is_failure().then(|| "line 1 is wrong".to_owned()),
        shown: None,
    }
}

/// Judges the next queued submission (which must be `id`) with `rows`, as a worker would.
async fn judge(server: &Server, id: i64, rows: &[TestRow], score: i64) {
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
        score,
        max_score: 100,
        compile_message: None,
        problem_version: i64::from(version.problem.spec.version),
    };
    assert!(store.finish(id, "test-worker", &outcome, T0).await.unwrap());
}

fn program(problem: &str, assignment: Option<i64>) -> Value {
    let mut body = json!({ "problem": problem, "language": "cpp20", "source": "int main() {}" });
    if let Some(id) = assignment {
        body["assignment"] = id.into();
    }
    body
}

/// The rows of a test by its group and index.
fn test<'a>(doc: &'a Value, group: &str, index: u32) -> &'a Value {
    doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["group"] == group && t["index"] == index)
        .unwrap_or_else(|| panic!("no {group} #{index} in {doc}"))
}

/// What of a test's data a response carries: input, expected answer, output, too large.
fn data(test: &Value) -> (Option<&str>, Option<&str>, Option<&str>, bool) {
    (
        test["input"].as_str(),
        test["expected"].as_str(),
        test["output"].as_str(),
        test["too_large_to_show"].as_bool().unwrap_or(false),
    )
}

async fn feedback(store: Store) {
    let clock = Arc::new(AtomicI64::new(T0 + DAY));
    let now = clock.clone();
    let server = Server::start_with(
        store,
        RequestLimits::default(),
        Clock::from_fn(move || now.load(Ordering::SeqCst)),
    )
    .await;
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let tom = person(&server, "tom", Role::Teacher).await;
    let sue = person(&server, "sue", Role::Student).await;

    // Tom sets Stones in his course, at the `inputs` level.
    let course = post(
        &server,
        "/api/v1/courses",
        &tom,
        json!({ "title": "Games" }),
    )
    .await;
    let course = course["id"].as_i64().unwrap();
    let members = format!("/api/v1/courses/{course}/members");
    post(&server, &members, &tom, json!({ "names": ["sue"] })).await;
    let assignment = json!({
        "title": "Week 1", "opens_at": T0, "due_at": T0 + 7 * DAY, "closes_at": T0 + 8 * DAY,
        "feedback": "inputs", "problems": ["stones"],
    });
    let made = post(
        &server,
        &format!("/api/v1/courses/{course}/assignments"),
        &tom,
        assignment.clone(),
    )
    .await;
    let week = made["id"].as_i64().unwrap();

    // Stones in the assignment: the second sample and the third test of the first subtask
    // fail; the judge kept the sample's data, as it does for every failed sample.
    let sample = &stones.samples[1];
    let shown_sample = Shown {
        input: sample.input.clone(),
        expected: sample.answer.clone(),
        output: "Nobody\n".to_owned(),
    };
    let small = stones.spec.subtasks[0].tests as u32;
    let mut rows = vec![
        row(0, "samples", 1, Verdict::Accepted),
        TestRow {
            shown: Some(shown_sample.clone()),
            ..row(1, "samples", 2, Verdict::WrongAnswer)
        },
    ];
    for index in 1..=small {
        let verdict = if index == 3 {
            Verdict::WrongAnswer
        } else {
            Verdict::Accepted
        };
        rows.push(row(rows.len() as i64, "small", index, verdict));
    }
    rows.push(row(rows.len() as i64, "full", 1, Verdict::Accepted));
    let in_week = post(
        &server,
        "/api/v1/submissions",
        &sue,
        program("stones", Some(week)),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    judge(&server, in_week, &rows, 70).await;

    let doc = detail(&server, in_week, &sue).await;
    assert_eq!(doc["feedback"], "inputs");
    // The sample side by side: public input and answer, and what her program printed.
    assert_eq!(
        data(test(&doc, "samples", 2)),
        (
            Some(sample.input.as_str()),
            Some(sample.answer.as_str()),
            Some("Nobody\n"),
            false
        )
    );
    assert_eq!(data(test(&doc, "samples", 1)), (None, None, None, false));
    // The failing hidden test shows nothing of its data.
    assert_eq!(data(test(&doc, "small", 3)), (None, None, None, false));
    // The subtasks as the statement lists them.
    let summaries: Vec<&str> = doc["subtasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["summary"].as_str().unwrap())
        .collect();
    assert_eq!(
        summaries,
        [
            "Subtask 1 (30 points): 0/30, failed at test 3",
            "Subtask 2 (70 points): 70/70"
        ]
    );
    let first = &doc["subtasks"][0];
    assert_eq!(
        (
            &first["name"],
            &first["label"],
            &first["failed_at"],
            &first["verdict"]
        ),
        (
            &json!("small"),
            &json!("Subtask 1 (30 points)"),
            &json!(3),
            &json!("wrong_answer")
        ),
        "the name the tests' groups carry, beside the statement's"
    );
    // The page: the same, side by side, and the subtasks by their statement names.
    let html = page(&server, in_week, &sue).await;
    assert!(html.contains("id=\"failed-1\""), "{html}");
    assert!(html.contains("<pre class=\"shown-output\">Nobody\n</pre>"));
    assert!(html.contains("Subtask 1 (30 points): 0/30, failed at test 3"));
    assert!(
        html.contains("Subtask 1 #3"),
        "the test rows name the subtask too"
    );

    // At the `tests` level: the sample still (it is public), the hidden test no more.
    let mut tests_level = assignment.clone();
    tests_level["feedback"] = "tests".into();
    let (status, _) = server
        .call(
            Method::PUT,
            &format!("/api/v1/assignments/{week}"),
            &tom.token,
            Some(tests_level),
        )
        .await;
    assert_eq!(status, 200);
    let doc = detail(&server, in_week, &sue).await;
    assert_eq!(doc["feedback"], "tests");
    assert_eq!(data(test(&doc, "samples", 2)).2, Some("Nobody\n"));
    assert_eq!(data(test(&doc, "small", 3)), (None, None, None, false));
    assert_eq!(doc["subtasks"].as_array().unwrap().len(), 2);
    // At the `verdict` level: nothing of either, and no subtasks.
    let mut verdict_level = assignment.clone();
    verdict_level["feedback"] = "verdict".into();
    let (status, _) = server
        .call(
            Method::PUT,
            &format!("/api/v1/assignments/{week}"),
            &tom.token,
            Some(verdict_level),
        )
        .await;
    assert_eq!(status, 200);
    let doc = detail(&server, in_week, &sue).await;
    assert_eq!((&doc["tests"], &doc["subtasks"]), (&json!([]), &json!([])));
    assert!(!page(&server, in_week, &sue).await.contains("Nobody"));
    let (status, _) = server
        .call(
            Method::PUT,
            &format!("/api/v1/assignments/{week}"),
            &tom.token,
            Some(assignment.clone()),
        )
        .await;
    assert_eq!(status, 200);

    // Practice, outside the assignment (it closes after eight days): the `tests` level.
    clock.store(T0 + 9 * DAY, Ordering::SeqCst);
    let practice = post(
        &server,
        "/api/v1/submissions",
        &sue,
        program("stones", None),
    )
    .await;
    let practice = practice["id"].as_i64().unwrap();
    judge(&server, practice, &rows, 70).await;
    let doc = detail(&server, practice, &sue).await;
    assert_eq!(doc["feedback"], "tests");
    assert_eq!(
        data(test(&doc, "samples", 2)),
        (
            Some(sample.input.as_str()),
            Some(sample.answer.as_str()),
            Some("Nobody\n"),
            false
        )
    );
    assert_eq!(data(test(&doc, "small", 3)), (None, None, None, false));
    clock.store(T0 + DAY, Ordering::SeqCst);

    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feedback_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    feedback(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feedback_on_postgres() {
    let Some((store, database)) = Postgres::create("feedback_on_postgres").await else {
        return;
    };
    feedback(store).await;
    database.drop_database().await;
}
