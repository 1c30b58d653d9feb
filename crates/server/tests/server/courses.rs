//! Courses and homework through the API, on SQLite and PostgreSQL, with a clock the test moves:
//! a course with a co-teacher and imported students, an assignment of three problems (two
//! built-in, one variant), submissions before the opening, on time, late, under an extension
//! and after the hard deadline, personal instances and the feedback levels, who may see what,
//! and the gradebook's CSV.
//!
//! Judging is done by the test itself through the store's queue (claim, record, finish) with
//! the scores it chooses: this is about the coursework around the judge, which is covered end
//! to end in `crates/cli/tests/cli/service.rs` and the browser test.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::common;

use common::{Postgres, Server};
use grundy_judge::{TestName, Verdict};
use grundy_server::domain::accounts;
use grundy_server::{Clock, RequestLimits};
use grundy_store::{Outcome, Role, Store, TestRow};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// 2026-09-01T00:00:00Z.
const T0: i64 = 1_788_220_800_000;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

struct Class {
    server: Server,
    clock: Arc<AtomicI64>,
}

impl Class {
    fn at(&self, ms: i64) {
        self.clock.store(ms, Ordering::SeqCst);
    }

    async fn token(&self, name: &str, role: Role) -> String {
        self.server.token(name, role).await
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.server.call(method, path, token, body).await
    }

    async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(Method::GET, path, token, None).await
    }

    async fn post(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, token, Some(body)).await
    }

    async fn put(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(Method::PUT, path, token, Some(body)).await
    }

    /// Submits and returns the new id, or fails with what came back.
    async fn submit(&self, token: &str, body: Value) -> i64 {
        let (status, doc) = self.post("/api/v1/submissions", token, body).await;
        assert_eq!(status, 201, "{doc}");
        doc["id"].as_i64().unwrap()
    }

    /// Judges everything queued as a worker would, with the score and test rows the test chose
    /// for each submission.
    async fn judge(&self, results: &BTreeMap<i64, (i64, Vec<TestRow>)>) {
        let store = &self.server.state.domain.store;
        while let Some(claimed) = store.claim("test-worker", T0, 60_000, 3).await.unwrap() {
            let (score, rows) = results
                .get(&claimed.id)
                .unwrap_or_else(|| panic!("no result chosen for submission {}", claimed.id));
            for row in rows {
                assert!(
                    store
                        .record_test(claimed.id, "test-worker", row)
                        .await
                        .unwrap()
                );
            }
            let version = self
                .server
                .state
                .domain
                .problems
                .get(&claimed.problem)
                .unwrap()
                .problem
                .spec
                .version;
            let outcome = Outcome {
                verdict: if *score == 100 {
                    Verdict::Accepted
                } else {
                    Verdict::WrongAnswer
                },
                score: *score,
                max_score: 100,
                compile_message: None,
                problem_version: i64::from(version),
            };
            assert!(
                store
                    .finish(claimed.id, "test-worker", &outcome, T0)
                    .await
                    .unwrap()
            );
        }
    }
}

fn row(position: i64, group: &str, idx: i64, verdict: &str) -> TestRow {
    TestRow {
        position,
        name: TestName::new(group, idx as u32),
        verdict: Verdict::parse(verdict).unwrap(),
        cpu_ms: 1,
        wall_ms: 1,
        memory_kib: 1024,
        message: None,
        detail: None,
        shown: None,
        transcript: None,
    }
}

fn program(problem: &str, assignment: i64) -> Value {
    json!({ "problem": problem, "language": "cpp20", "source": "int main() {}", "assignment": assignment })
}

impl Class {
    /// The service on `store`, its clock at `T0` until the test moves it.
    async fn start(store: Store) -> Class {
        let clock = Arc::new(AtomicI64::new(T0));
        let now = clock.clone();
        let server = Server::start_with(
            store,
            RequestLimits::default(),
            Clock::from_fn(move || now.load(Ordering::SeqCst)),
        )
        .await;
        Class { server, clock }
    }
}

async fn the_whole_course(store: Store) {
    let class = Class::start(store).await;
    let tom = class.token("tom", Role::Teacher).await;
    let tess_token = class.token("tess", Role::Teacher).await;
    let zed = class.token("zed", Role::Teacher).await;
    let ann = class.token("ann", Role::Student).await;
    let bob = class.token("bob", Role::Student).await;

    // The course: created by a teacher only; joined by code, in any case.
    let (status, _) = class
        .post("/api/v1/courses", &ann, json!({ "title": "Games" }))
        .await;
    assert_eq!(status, 403);
    let (status, course) = class
        .post("/api/v1/courses", &tom, json!({ "title": "Games 101" }))
        .await;
    assert_eq!(status, 201, "{course}");
    let course_id = course["id"].as_i64().unwrap();
    let code = course["join_code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 8);
    for student in [&ann, &bob] {
        let (status, joined) = class
            .post(
                "/api/v1/courses/join",
                student,
                json!({ "code": code.to_lowercase() }),
            )
            .await;
        assert_eq!(
            (status, joined["role"].as_str()),
            (StatusCode::OK, Some("student"))
        );
        assert!(
            joined.get("join_code").is_none(),
            "students are not shown the code"
        );
    }
    let (status, _) = class
        .post("/api/v1/courses/join", &ann, json!({ "code": "NOSUCH22" }))
        .await;
    assert_eq!(status, 404);

    // Imports: new accounts for missing students, co-teachers from teachers' accounts.
    let members = format!("/api/v1/courses/{course_id}/members");
    let (status, report) = class
        .post(
            &members,
            &tom,
            json!({ "names": ["carl", "ann", "no way!"], "create_missing": true }),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["created"][0]["name"], "carl");
    assert_eq!(report["added"], json!(["carl"]));
    assert_eq!(report["already"], json!(["ann"]));
    assert_eq!(report["refused"][0]["name"], "no way!");
    let carl_password = report["created"][0]["password"].as_str().unwrap();
    let login = class
        .server
        .client
        .post(format!("{}/api/v1/login", class.server.url))
        .json(&json!({ "name": "carl", "password": carl_password }))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 200, "the password handed out works");
    let carl_id = class
        .server
        .state
        .domain
        .store
        .user_by_name("carl")
        .await
        .unwrap()
        .unwrap()
        .id;
    let carl = accounts::issue_token(
        &class.server.state.domain.store,
        carl_id,
        "t",
        grundy_server::now_ms(),
        accounts::DEFAULT_TOKEN_DAYS,
    )
    .await
    .unwrap()
    .token;
    let (_, report) = class
        .post(
            &members,
            &tom,
            json!({ "names": ["tess", "bob"], "role": "teacher" }),
        )
        .await;
    assert_eq!(report["added"], json!([]));
    assert_eq!(report["invited"], json!(["tess"]), "a co-teacher is asked");
    assert_eq!(
        report["refused"][0]["name"], "bob",
        "a student's account cannot teach"
    );
    let course_path = format!("/api/v1/courses/{course_id}");
    assert_eq!(
        class.get(&course_path, &tess_token).await.0,
        404,
        "not in the course before accepting"
    );
    let (status, invitations) = class.get("/api/v1/invitations", &tess_token).await;
    assert_eq!(status, 200, "{invitations}");
    let invitation = &invitations["invitations"][0];
    assert_eq!(
        (
            &invitation["course_title"],
            &invitation["role"],
            &invitation["invited_by"],
            &invitation["teachers"]
        ),
        (
            &json!("Games 101"),
            &json!("teacher"),
            &json!("tom"),
            &json!(["tom"])
        )
    );
    assert!(
        invitation["shares"]
            .as_str()
            .unwrap()
            .contains("draft problems"),
        "{invitation}"
    );
    let accept = format!("/api/v1/invitations/{}/accept", invitation["id"]);
    let (status, joined) = class.post(&accept, &tess_token, json!({})).await;
    assert_eq!(
        (status, joined["role"].as_str()),
        (StatusCode::OK, Some("teacher")),
        "{joined}"
    );
    assert_eq!(
        class
            .post(&members, &ann, json!({ "names": ["zed"] }))
            .await
            .0,
        403
    );
    assert_eq!(
        class
            .post(&members, &zed, json!({ "names": ["zed"] }))
            .await
            .0,
        404,
        "another teacher does not even see the course"
    );
    let (_, seen) = class
        .get(&format!("/api/v1/courses/{course_id}"), &ann)
        .await;
    let names: Vec<&str> = seen["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tess", "tom"], "students see the teachers only");
    let (_, seen) = class
        .get(&format!("/api/v1/courses/{course_id}"), &tess_token)
        .await;
    assert_eq!(seen["members"].as_array().unwrap().len(), 5);
    let (_, listed) = class.get("/api/v1/courses", &zed).await;
    assert_eq!(listed["courses"], json!([]));

    // A variant to be one of the three problems.
    let (status, doc) = class
        .post(
            "/api/v1/problems/stones/variants",
            &tom,
            json!({
                "slug": "stones-mini",
                "title": { "en": "Mini stones" },
                "subtasks": [
                    { "name": "all", "points": 100, "tests": 3, "generator": { "max_n": 2, "max_k": 10 } }
                ]
            }),
        )
        .await;
    assert_eq!(status, 201, "{doc}");

    // The assignment: open in an hour, due in a week, closed three days later, −10 % a day.
    let new_assignment = format!("/api/v1/courses/{course_id}/assignments");
    let body = json!({
        "title": "Week 1",
        "opens_at": T0 + HOUR,
        "due_at": T0 + 7 * DAY,
        "closes_at": T0 + 10 * DAY,
        "penalty_percent": 10,
        "feedback": "inputs",
        "problems": ["stones", "nim", "stones-mini"],
    });
    assert_eq!(class.post(&new_assignment, &ann, body.clone()).await.0, 403);
    assert_eq!(class.post(&new_assignment, &zed, body.clone()).await.0, 404);
    let mut unordered = body.clone();
    unordered["closes_at"] = (T0 + 6 * DAY).into();
    let (status, refused) = class.post(&new_assignment, &tom, unordered).await;
    assert_eq!(status, 400);
    assert!(refused["message"].as_str().unwrap().contains("order"));
    let mut unknown = body.clone();
    unknown["problems"] = json!(["stones", "no-such-game"]);
    assert_eq!(class.post(&new_assignment, &tom, unknown).await.0, 404);
    let (status, assignment) = class.post(&new_assignment, &tom, body.clone()).await;
    assert_eq!(status, 201, "{assignment}");
    let id = assignment["id"].as_i64().unwrap();

    // Before it opens: refused.
    let (status, refused) = class
        .post("/api/v1/submissions", &ann, program("stones", id))
        .await;
    assert_eq!(status, 409);
    assert!(refused["message"].as_str().unwrap().contains("opens at"));
    let early = format!("/api/v1/assignments/{id}/problems/nim/instances");
    assert_eq!(
        class.get(&early, &ann).await.0,
        409,
        "no instances before the opening"
    );
    assert_eq!(
        class.get(&early, &tom).await.0,
        200,
        "teachers may look ahead"
    );

    // Day 1: on time.
    class.at(T0 + DAY);
    let (status, _) = class
        .post("/api/v1/submissions", &ann, program("wythoff", id))
        .await;
    assert_eq!(status, 400, "not one of the assignment's problems");
    let (status, _) = class
        .post("/api/v1/submissions", &zed, program("stones", id))
        .await;
    assert_eq!(status, 404, "not in the course");
    let ann_stones = class.submit(&ann, program("stones", id)).await;
    let instances = format!("/api/v1/assignments/{id}/problems/nim/instances");
    let (status, ann_nim) = class.get(&instances, &ann).await;
    assert_eq!(status, 200, "{ann_nim}");
    let (_, bob_nim) = class.get(&instances, &bob).await;
    let inputs = |list: &Value, group_is_sample: bool| -> Vec<String> {
        list["instances"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| (i["group"] == "samples") == group_is_sample)
            .map(|i| i["input"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        inputs(&ann_nim, true),
        inputs(&bob_nim, true),
        "the samples are shared"
    );
    assert_ne!(
        inputs(&ann_nim, false),
        inputs(&bob_nim, false),
        "the rest are personal"
    );
    let (_, practice) = class.get("/api/v1/problems/nim/instances", &ann).await;
    assert_ne!(
        inputs(&ann_nim, false),
        inputs(&practice, false),
        "an assignment's instances are not the practice ones"
    );
    let first_personal = ann_nim["instances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["group"] != "samples")
        .unwrap()
        .clone();
    let answers: BTreeMap<String, String> = ann_nim["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap().to_owned(), "First".to_owned()))
        .collect();
    let ann_answers = class
        .submit(
            &ann,
            json!({ "problem": "nim", "answers": answers, "version": ann_nim["version"], "assignment": id, "draw": ann_nim["draw"] }),
        )
        .await;
    let (status, _) = class
        .post(
            "/api/v1/submissions",
            &ann,
            json!({ "problem": "nim", "answers": answers, "assignment": id }),
        )
        .await;
    assert_eq!(status, 400, "answers in an assignment name their draw");
    let bob_stones = class.submit(&bob, program("stones", id)).await;
    let stored = |id: i64| {
        let store = class.server.state.domain.store.clone();
        async move { store.submission(id).await.unwrap().unwrap() }
    };
    assert!(stored(ann_answers).await.instance_seed.is_some());
    assert!(
        stored(ann_stones).await.instance_seed.is_none(),
        "programs run on the shared tests unless the assignment asks for personal ones"
    );
    let failing_group = first_personal["group"].as_str().unwrap();
    class
        .judge(&BTreeMap::from([
            (ann_stones, (100, vec![row(0, "samples", 1, "accepted")])),
            (
                ann_answers,
                (
                    60,
                    vec![
                        row(0, "samples", 1, "accepted"),
                        row(1, failing_group, 1, "wrong_answer"),
                    ],
                ),
            ),
            (bob_stones, (40, vec![row(0, "samples", 1, "accepted")])),
        ]))
        .await;

    // Feedback "inputs": the student's own failing instance with its expected answer.
    let (status, detail) = class
        .get(&format!("/api/v1/submissions/{ann_answers}"), &ann)
        .await;
    assert_eq!(status, 200);
    assert_eq!(detail["feedback"], "inputs");
    assert_eq!(detail["assignment"], id);
    assert!(
        detail["tests"][0].get("input").is_none(),
        "passed: nothing shown"
    );
    assert!(
        detail["tests"][1]["input"] == first_personal["input"],
        "the failing instance's input is shown"
    );
    let ann_id = class
        .server
        .state
        .domain
        .store
        .user_by_name("ann")
        .await
        .unwrap()
        .unwrap()
        .id;
    let teachers_view = format!("/api/v1/assignments/{id}/students/{ann_id}/problems/nim");
    let (status, drawn) = class.get(&teachers_view, &tess_token).await;
    assert_eq!(status, 200, "{drawn}");
    let reference = drawn["instances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == first_personal["name"])
        .unwrap();
    assert!(reference["input"] == first_personal["input"]);
    assert!(detail["tests"][1]["expected"] == reference["answer"]);
    assert!(reference["answer"].as_str().is_some_and(|a| !a.is_empty()));

    // Nobody else sees it; teachers of other courses neither.
    for outsider in [&bob, &zed] {
        assert_eq!(
            class
                .get(&format!("/api/v1/submissions/{ann_answers}"), outsider)
                .await
                .0,
            404
        );
    }
    assert_eq!(class.get(&teachers_view, &bob).await.0, 403);
    assert_eq!(class.get(&teachers_view, &zed).await.0, 404);
    let (_, zeds) = class.get("/api/v1/submissions", &zed).await;
    assert_eq!(zeds["submissions"], json!([]), "zed teaches none of them");
    let (_, toms) = class
        .get(&format!("/api/v1/submissions?assignment={id}"), &tom)
        .await;
    assert_eq!(toms["submissions"].as_array().unwrap().len(), 3);
    let (_, bobs) = class.get("/api/v1/submissions", &bob).await;
    assert_eq!(bobs["submissions"].as_array().unwrap().len(), 1);
    assert_eq!(
        class
            .post(
                &format!("/api/v1/submissions/{ann_answers}/rejudge"),
                &zed,
                json!({})
            )
            .await
            .0,
        404
    );

    // The student's own standing.
    let (_, mine) = class.get(&format!("/api/v1/assignments/{id}"), &ann).await;
    assert_eq!(mine["role"], "student");
    assert_eq!(mine["mine"]["grade"]["cells"][1]["score"], 60.0);
    assert!(mine.get("extensions").is_none());
    assert_eq!(
        class
            .get(&format!("/api/v1/assignments/{id}/gradebook"), &ann)
            .await
            .0,
        403
    );
    assert_eq!(
        class
            .get(&format!("/api/v1/assignments/{id}"), &zed)
            .await
            .0,
        404
    );

    // Carl gets two more days; the deadline passes.
    let extension = |user: i64| format!("/api/v1/assignments/{id}/extensions/{user}");
    assert_eq!(
        class
            .put(&extension(carl_id), &ann, json!({ "due_at": T0 + 9 * DAY }))
            .await
            .0,
        403
    );
    let (status, _) = class
        .put(&extension(carl_id), &tom, json!({ "due_at": T0 + 9 * DAY }))
        .await;
    assert_eq!(status, 204);
    let tom_id = class
        .server
        .state
        .domain
        .store
        .user_by_name("tom")
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        class
            .put(&extension(tom_id), &tom, json!({ "due_at": T0 + 9 * DAY }))
            .await
            .0,
        404,
        "extensions are for the course's students"
    );
    class.at(T0 + 8 * DAY + HOUR);
    let bob_late = class.submit(&bob, program("stones", id)).await;
    let carl_mini = class.submit(&carl, program("stones-mini", id)).await;
    // Work on time is judged first: carl's, on time under his extension, goes ahead of bob's
    // late one though bob's came first; each is told their place.
    let place = |token: &str, id: i64| {
        let (class, token) = (&class, token.to_owned());
        async move {
            let (status, doc) = class
                .get(&format!("/api/v1/submissions/{id}"), &token)
                .await;
            assert_eq!(status, 200, "{doc}");
            doc["queue_position"].clone()
        }
    };
    assert_eq!(place(&carl, carl_mini).await, json!(1));
    assert_eq!(place(&bob, bob_late).await, json!(2));
    class.at(T0 + 9 * DAY + 2 * HOUR);
    let ann_late = class
        .submit(
            &ann,
            json!({ "problem": "nim", "answers": answers, "assignment": id, "draw": 0 }),
        )
        .await;
    class
        .judge(&BTreeMap::from([
            (bob_late, (100, vec![])),
            (carl_mini, (100, vec![])),
            (ann_late, (100, vec![])),
        ]))
        .await;
    assert_eq!(place(&bob, bob_late).await, json!(null), "judged: no place");
    class.at(T0 + 10 * DAY + HOUR);
    let (status, refused) = class
        .post("/api/v1/submissions", &bob, program("stones", id))
        .await;
    assert_eq!(status, 409, "after the hard deadline");
    assert!(refused["message"].as_str().unwrap().contains("closed"));
    // The extension moved carl's hard deadline too: a day and an hour late for him.
    let carl_nim = class.submit(&carl, program("nim", id)).await;
    class
        .judge(&BTreeMap::from([(carl_nim, (50, vec![]))]))
        .await;

    // The gradebook: best after penalties; the same through JSON and CSV.
    let (status, book) = class
        .get(&format!("/api/v1/assignments/{id}/gradebook"), &tess_token)
        .await;
    assert_eq!(status, 200);
    assert_eq!(book["rows"][0]["cells"][1]["penalty_percent"], 30);
    assert_eq!(book["rows"][0]["cells"][1]["raw_score"], 100);
    let response = class
        .server
        .client
        .get(format!(
            "{}/api/v1/assignments/{id}/gradebook.csv",
            class.server.url
        ))
        .bearer_auth(&tom)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    let csv = response.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines,
        [
            "student,due,stones score (of 100),stones penalty %,stones counted at,stones attempts,\
             nim score (of 100),nim penalty %,nim counted at,nim attempts,\
             stones-mini score (of 100),stones-mini penalty %,stones-mini counted at,stones-mini attempts,\
             total (of 300)",
            // 100 on time; nim 100 three started days late (70) beats 60 on time.
            "ann,2026-09-08T00:00:00Z,100,0,2026-09-02T00:00:00Z,1,70,30,2026-09-10T02:00:00Z,2,,0,,0,170",
            // 100 two started days late (80) beats 40 on time.
            "bob,2026-09-08T00:00:00Z,80,20,2026-09-09T01:00:00Z,2,,0,,0,,0,,0,80",
            // On time under the extension; after the class's hard deadline, 50 two started
            // days late under it (40).
            "carl,2026-09-10T00:00:00Z,,0,,0,40,20,2026-09-11T01:00:00Z,1,100,0,2026-09-09T01:00:00Z,1,140",
            // Means only, numbers only: attempts (1+2+0)/3, (2+0+1)/3, (0+0+1)/3.
            "class mean,,60,,,1,36.67,,,1,33.33,,,0.33,130",
        ]
    );
    assert_eq!(
        class
            .get(&format!("/api/v1/assignments/{id}/gradebook.csv"), &zed)
            .await
            .0,
        404
    );

    // Feedback "verdict": the student sees no rows; the teacher still does. Every test is to
    // run now; a subtask stopped at its first failure before.
    let (_, before) = class.get(&format!("/api/v1/assignments/{id}"), &tom).await;
    assert_eq!(before["run_every_test"], false, "{before}");
    let mut terse = body.clone();
    terse["feedback"] = "verdict".into();
    terse["run_every_test"] = true.into();
    let (status, _) = class
        .put(&format!("/api/v1/assignments/{id}"), &tom, terse)
        .await;
    assert_eq!(status, 200);
    let (_, after) = class.get(&format!("/api/v1/assignments/{id}"), &tom).await;
    assert_eq!(after["run_every_test"], true, "{after}");
    let (_, detail) = class
        .get(&format!("/api/v1/submissions/{ann_answers}"), &ann)
        .await;
    assert_eq!(
        (
            detail["feedback"].as_str(),
            detail["tests"].as_array().map(Vec::len)
        ),
        (Some("verdict"), Some(0))
    );
    let (_, detail) = class
        .get(&format!("/api/v1/submissions/{ann_answers}"), &tom)
        .await;
    assert_eq!(detail["tests"].as_array().unwrap().len(), 2);

    // Regenerate, then pin: new inputs for the student; a pinned draw stays.
    let (status, again) = class
        .post(&format!("{teachers_view}/regenerate"), &tom, json!({}))
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["generation"], 1);
    let (_, ann_now) = class.get(&instances, &ann).await;
    assert_ne!(inputs(&ann_now, false), inputs(&ann_nim, false));
    assert_eq!(
        class
            .post(&format!("{teachers_view}/regenerate"), &ann, json!({}))
            .await
            .0,
        403
    );
    let (status, pinned) = class
        .put(
            &format!("{teachers_view}/pin"),
            &tom,
            json!({ "pinned": true }),
        )
        .await;
    assert_eq!(
        (status, pinned["pinned"].as_bool()),
        (StatusCode::OK, Some(true))
    );
    let (status, _) = class
        .post(&format!("{teachers_view}/regenerate"), &tom, json!({}))
        .await;
    assert_eq!(status, 409);
    let (_, still) = class.get(&instances, &ann).await;
    assert_eq!(inputs(&still, false), inputs(&ann_now, false));

    // Answers to a draw since replaced are refused rather than judged on other inputs.
    let carl_nim = format!("/api/v1/assignments/{id}/problems/nim/instances");
    let (_, fresh) = class.get(&carl_nim, &carl).await;
    assert_eq!(fresh["draw"], 0);
    let carl_view = format!("/api/v1/assignments/{id}/students/{carl_id}/problems/nim");
    let (status, _) = class
        .post(&format!("{carl_view}/regenerate"), &tess_token, json!({}))
        .await;
    assert_eq!(status, 200, "a co-teacher may regenerate");
    let answers_to = |draw: i64| json!({ "problem": "nim", "answers": { "x": "First" }, "assignment": id, "draw": draw });
    let (status, refused) = class
        .post("/api/v1/submissions", &carl, answers_to(0))
        .await;
    assert_eq!(status, 409, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("drawn again"));
    class.submit(&carl, answers_to(1)).await;

    let state = class.server.state.clone();
    class.server.stop().await;
    drop(state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_course_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(120), the_whole_course(store))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_course_on_postgres() {
    let Some((store, database)) = Postgres::create("the_whole_course_on_postgres").await else {
        return;
    };
    tokio::time::timeout(Duration::from_secs(120), the_whole_course(store))
        .await
        .unwrap();
    database.drop_database().await;
}

/// Making accounts takes a teacher's account: one whose account an admin made a student's no
/// longer teaches the course at all, and nobody is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_teachers_account_makes_student_accounts_in_an_import() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    let class = Class::start(store).await;
    let tom = class.token("tom", Role::Teacher).await;
    let (status, course) = class
        .post("/api/v1/courses", &tom, json!({ "title": "Games" }))
        .await;
    assert_eq!(status, 201, "{course}");
    let members = format!("/api/v1/courses/{}/members", course["id"]);
    let store = class.server.state.domain.store.clone();
    let tom_id = store.user_by_name("tom").await.unwrap().unwrap().id;
    assert!(store.set_role(tom_id, Role::Student).await.unwrap());

    let import = json!({ "names": ["newcomer"], "create_missing": true });
    let (status, refused) = class.post(&members, &tom, import).await;
    assert_eq!(status, 404, "{refused}");
    assert!(store.user_by_name("newcomer").await.unwrap().is_none());

    class.server.stop().await;
}
