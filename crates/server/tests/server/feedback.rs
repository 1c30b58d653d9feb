//! What a student is shown of a program's failed tests, through the API and the submission page,
//! on SQLite and PostgreSQL: a failing sample's input, expected answer and output side by side
//! (samples are public), the subtasks as the statement lists them, and at the `inputs` level the
//! failing hidden tests' inputs with their expected answers, except where they are not the
//! assignment's teachers' to give away (a package owned by someone who does not teach the
//! course), tried from the side of the student who must not see them.
//!
//! Judging is done by the test itself through the store's queue, with results as a worker would
//! write them (the judge's own side of this is tested in `crates/judge` and
//! `crates/cli/tests/cli/judging.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::common;

use common::{Postgres, Server, zip_of};
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

/// The hidden test of the uploaded package: nobody outside its owner's courses may read it
/// through a submission.
const SECRET_INPUT: &str = "31415\n";
const SECRET_ANSWER: &str = "Second\n";

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
        detail: None,
        shown: None,
        transcript: None,
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
    let bob = person(&server, "bob", Role::Teacher).await;
    let root = person(&server, "root", Role::Admin).await;
    let sue = person(&server, "sue", Role::Student).await;

    // Bob publishes a package; Tom, who does not own it, sets it in his course with Stones and
    // the DAG game, at the `inputs` level.
    let pebbles = zip_of(&[
        ("pebbles/problem.yaml", "name: Pebbles\n"),
        (
            "pebbles/statement/problem.en.md",
            "# Pebbles\n\nTake pebbles.\n",
        ),
        ("pebbles/data/sample/1.in", "3\n"),
        ("pebbles/data/sample/1.ans", "First\n"),
        ("pebbles/data/secret/a.in", SECRET_INPUT),
        ("pebbles/data/secret/a.ans", SECRET_ANSWER),
    ]);
    let uploaded = server
        .client
        .post(format!("{}/api/v1/problems", server.url))
        .bearer_auth(&bob.token)
        .header("content-type", "application/zip")
        .body(pebbles)
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), 201, "{}", uploaded.text().await.unwrap());
    post(&server, "/api/v1/problems/pebbles/publish", &bob, json!({})).await;
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
    assert_eq!(server.accept_invitations(&sue.token).await, 1);
    let assignment = json!({
        "title": "Week 1", "opens_at": T0, "due_at": T0 + 7 * DAY, "closes_at": T0 + 8 * DAY,
        "feedback": "inputs", "problems": ["stones", "pebbles", "dag-game"],
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
            transcript: None,
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
    // The failing hidden test of a built-in problem: its input and expected answer, generated
    // again from the problem's seed; never her program's output on it.
    let third = stones.generate_test(1, 3).unwrap();
    assert_eq!(
        data(test(&doc, "small", 3)),
        (
            Some(third.input.as_str()),
            Some(third.answer.as_str()),
            None,
            false
        )
    );
    assert_eq!(data(test(&doc, "small", 2)), (None, None, None, false));
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
    assert!(html.contains(&format!("<pre class=\"shown-input\">{}</pre>", third.input)));
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

    // Bob's package in Tom's course: Bob does not teach it, so its hidden test stays hidden
    // from Sue, whatever Tom's level; the public sample does not.
    let in_pebbles = post(
        &server,
        "/api/v1/submissions",
        &sue,
        program("pebbles", Some(week)),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let pebble_rows = [
        TestRow {
            shown: Some(Shown {
                input: "3\n".into(),
                expected: "First\n".into(),
                output: "Second\n".into(),
            }),
            ..row(0, "samples", 1, Verdict::WrongAnswer)
        },
        row(1, "secret", 1, Verdict::WrongAnswer),
    ];
    judge(&server, in_pebbles, &pebble_rows, 0).await;
    let refused = detail(&server, in_pebbles, &sue).await;
    assert_eq!(refused["feedback"], "inputs");
    assert_eq!(
        data(test(&refused, "secret", 1)),
        (None, None, None, false),
        "{refused}"
    );
    assert_eq!(data(test(&refused, "samples", 1)).0, Some("3\n"));
    let html = page(&server, in_pebbles, &sue).await;
    assert!(
        !html.contains("31415"),
        "the page shows the package's hidden test"
    );
    assert!(html.contains("<pre class=\"shown-input\">3\n</pre>"));
    // Nor does Tom, who teaches the course but does not own the package, read it through her
    // submission; an admin, who owns everything, does.
    let toms = detail(&server, in_pebbles, &tom).await;
    assert_eq!(data(test(&toms, "secret", 1)).0, None);
    let roots = detail(&server, in_pebbles, &root).await;
    assert_eq!(
        data(test(&roots, "secret", 1)),
        (Some(SECRET_INPUT), Some(SECRET_ANSWER), None, false)
    );
    // Invited to co-teach, Bob shows nothing until he accepts; then showing it is his
    // course's choice too.
    post(
        &server,
        &members,
        &tom,
        json!({ "names": ["bob"], "role": "teacher" }),
    )
    .await;
    let hidden = detail(&server, in_pebbles, &sue).await;
    assert_eq!(data(test(&hidden, "secret", 1)).0, None);
    assert_eq!(server.accept_invitations(&bob.token).await, 1);
    let shown = detail(&server, in_pebbles, &sue).await;
    assert_eq!(
        data(test(&shown, "secret", 1)),
        (Some(SECRET_INPUT), Some(SECRET_ANSWER), None, false)
    );

    // A failing input too large to show is said to be.
    let dag = catalogue.get("dag-game").unwrap();
    let (big_subtask, big_index) = dag
        .spec
        .subtasks
        .iter()
        .enumerate()
        .flat_map(|(s, subtask)| (1..=subtask.tests).map(move |i| (s + 1, i)))
        .find(|&(s, i)| dag.generate_test(s, i).unwrap().input.len() > 4 << 20)
        .expect("the DAG game has a test over 4 MiB");
    let big_group = dag.spec.subtasks[big_subtask - 1].name.clone();
    let in_dag = post(
        &server,
        "/api/v1/submissions",
        &sue,
        program("dag-game", Some(week)),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let dag_rows = [row(0, &big_group, big_index as u32, Verdict::TimeLimit)];
    judge(&server, in_dag, &dag_rows, 0).await;
    let doc = detail(&server, in_dag, &sue).await;
    assert_eq!(
        data(test(&doc, &big_group, big_index as u32)),
        (None, None, None, true)
    );
    assert!(
        page(&server, in_dag, &sue)
            .await
            .contains("The input is too large to show.")
    );
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
