//! The trust boundary between users, tried from the side of the user who must be refused, on
//! SQLite and PostgreSQL, with a clock the test moves: password resets across courses, package
//! downloads, a problem's owner and other courses' work, a demoted teacher, API tokens that
//! expire and are revoked, practice feedback while an assignment keeps its tests back,
//! explanations of wrong answers, which follow the feedback level, and consent: nobody is put in
//! a course, or made a co-teacher, without saying yes.
//!
//! Judging is done by the test itself through the store's queue, as in `courses.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use crate::common;

use common::{Postgres, Server, zip_of};
use grundy_judge::{TestName, Verdict};
use grundy_server::domain::accounts;
use grundy_server::locale::Locale;
use grundy_server::{Clock, RequestLimits, SESSION_COOKIE};
use grundy_store::{MemberOrigin, MemberRole, Outcome, Role, Store, TestRow, User};
use reqwest::header::{COOKIE, ORIGIN};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// 2026-09-01T00:00:00Z.
const T0: i64 = 1_788_220_800_000;
const DAY: i64 = 24 * 3_600_000;

struct World {
    server: Server,
    clock: Arc<AtomicI64>,
}

/// Someone with an API token and a browser session.
struct Person {
    user: User,
    token: String,
    cookie: String,
}

impl World {
    async fn start(store: Store) -> World {
        let clock = Arc::new(AtomicI64::new(T0));
        let now = clock.clone();
        let server = Server::start_with(
            store,
            RequestLimits::default(),
            Clock::from_fn(move || now.load(Ordering::SeqCst)),
        )
        .await;
        World { server, clock }
    }

    fn now(&self) -> i64 {
        self.clock.load(Ordering::SeqCst)
    }

    fn at(&self, ms: i64) {
        self.clock.store(ms, Ordering::SeqCst);
    }

    async fn person(&self, name: &str, role: Role) -> Person {
        let user = self.server.create_user(name, role).await;
        let domain = &self.server.state.domain;
        let token = accounts::issue_token(
            &domain.store,
            user.id,
            "test",
            self.now(),
            accounts::DEFAULT_TOKEN_DAYS,
        )
        .await
        .unwrap()
        .token;
        let secret = accounts::start_session(domain, user.id, None)
            .await
            .unwrap();
        Person {
            user,
            token,
            cookie: format!("{SESSION_COOKIE}={secret}"),
        }
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

    async fn get(&self, path: &str, who: &Person) -> (StatusCode, Value) {
        self.call(Method::GET, path, &who.token, None).await
    }

    async fn post(&self, path: &str, who: &Person, body: Value) -> (StatusCode, Value) {
        self.call(Method::POST, path, &who.token, Some(body)).await
    }

    /// A page as `who`'s browser gets it: the status and the HTML.
    async fn page(&self, path: &str, who: &Person) -> (StatusCode, String) {
        let response = self
            .server
            .client
            .get(format!("{}{path}", self.server.url))
            .header(COOKIE, &who.cookie)
            .send()
            .await
            .unwrap();
        (response.status(), response.text().await.unwrap())
    }

    /// A form post from the site's own pages, as a browser makes it; the status.
    async fn form(&self, path: &str, who: &Person, fields: &[(&str, &str)]) -> StatusCode {
        self.server
            .client
            .post(format!("{}{path}", self.server.url))
            .header(COOKIE, &who.cookie)
            .header(ORIGIN, &self.server.url)
            .header("sec-fetch-site", "same-origin")
            .form(fields)
            .send()
            .await
            .unwrap()
            .status()
    }

    async fn logs_in(&self, name: &str, password: &str) -> bool {
        let response = self
            .server
            .client
            .post(format!("{}/api/v1/login", self.server.url))
            .json(&json!({ "name": name, "password": password }))
            .send()
            .await
            .unwrap();
        response.status() == StatusCode::OK
    }

    /// A course `teacher` makes, which `students` join by accepting the invitation its import
    /// sends them.
    async fn course(&self, teacher: &Person, title: &str, students: &[&Person]) -> i64 {
        let (status, course) = self
            .post("/api/v1/courses", teacher, json!({ "title": title }))
            .await;
        assert_eq!(status, 201, "{course}");
        let id = course["id"].as_i64().unwrap();
        let names: Vec<&str> = students.iter().map(|s| s.user.name.as_str()).collect();
        let (status, report) = self
            .post(
                &format!("/api/v1/courses/{id}/members"),
                teacher,
                json!({ "names": names }),
            )
            .await;
        assert_eq!(status, 200, "{report}");
        assert_eq!(report["invited"].as_array().unwrap().len(), students.len());
        for student in students {
            self.server.accept_invitations(&student.token).await;
        }
        id
    }

    /// A student whose account the import of `course` (taught by `teacher`) makes; with the
    /// password the import handed out.
    async fn made_by(&self, teacher: &Person, course: i64, name: &str) -> (Person, String) {
        let (status, report) = self
            .post(
                &format!("/api/v1/courses/{course}/members"),
                teacher,
                json!({ "names": [name], "create_missing": true }),
            )
            .await;
        assert_eq!(status, 200, "{report}");
        assert_eq!(report["added"], json!([name]), "{report}");
        let password = report["created"][0]["password"]
            .as_str()
            .unwrap()
            .to_owned();
        let store = &self.server.state.domain.store;
        let user = store.user_by_name(name).await.unwrap().unwrap();
        let person = self
            .fresh(&Person {
                user,
                token: String::new(),
                cookie: String::new(),
            })
            .await;
        (person, password)
    }

    async fn assignment(&self, teacher: &Person, course: i64, body: Value) -> i64 {
        let (status, made) = self
            .post(
                &format!("/api/v1/courses/{course}/assignments"),
                teacher,
                body,
            )
            .await;
        assert_eq!(status, 201, "{made}");
        made["id"].as_i64().unwrap()
    }

    async fn submit(&self, who: &Person, body: Value) -> i64 {
        let (status, doc) = self.post("/api/v1/submissions", who, body).await;
        assert_eq!(status, 201, "{doc}");
        doc["id"].as_i64().unwrap()
    }

    /// Judges everything queued as a worker would: wrong answer on the first test.
    async fn judge_all(&self) {
        let store = &self.server.state.domain.store;
        while let Some(claimed) = store
            .claim("test-worker", self.now(), 60_000, 3)
            .await
            .unwrap()
        {
            let row = TestRow {
                position: 0,
                name: TestName::new("secret", 1),
                verdict: Verdict::WrongAnswer,
                cpu_ms: 1,
                wall_ms: 1,
                memory_kib: 1024,
                message: Some("line 1 is wrong".into()),
                detail: None,
                shown: None,
                transcript: None,
            };
            assert!(
                store
                    .record_test(claimed.id, "test-worker", &row)
                    .await
                    .unwrap()
            );
            let version = self
                .server
                .state
                .domain
                .problems
                .get(&claimed.problem)
                .unwrap();
            let outcome = Outcome {
                verdict: Verdict::WrongAnswer,
                score: 0,
                max_score: 100,
                compile_message: None,
                problem_version: i64::from(version.problem.spec.version),
            };
            assert!(
                store
                    .finish(claimed.id, "test-worker", &outcome, self.now())
                    .await
                    .unwrap()
            );
        }
    }

    async fn submission(&self, who: &Person, id: i64) -> (StatusCode, Value) {
        self.get(&format!("/api/v1/submissions/{id}"), who).await
    }

    async fn revoke(&self, who: &Person, token: i64) -> (StatusCode, Value) {
        let path = format!("/api/v1/tokens/{token}");
        self.call(Method::DELETE, &path, &who.token, None).await
    }

    async fn status_of(&self, submission: i64) -> String {
        let found = self.server.state.domain.store.submission(submission).await;
        found.unwrap().unwrap().status.as_str().to_owned()
    }
}

fn program(problem: &str) -> Value {
    json!({ "problem": problem, "language": "cpp20", "source": "int main() {}" })
}

async fn trust(store: Store) {
    let world = World::start(store).await;
    let root = world.person("root", Role::Admin).await;
    let ann = world.person("ann", Role::Teacher).await;
    let bob = world.person("bob", Role::Teacher).await;
    let sam = world.person("sam", Role::Student).await;
    // Sue's account was made by the import of Ann's course, where she is alone; Sam registered
    // himself and accepted both courses' invitations.
    let course_a = world.course(&ann, "A", &[&sam]).await;
    let (sue, sue_password) = world.made_by(&ann, course_a, "sue").await;
    let course_b = world.course(&bob, "B", &[&sam]).await;

    // A teacher resets the passwords of the students a course of theirs made, while every
    // course they are in is the teacher's, and no others': a new password is a way into every
    // course the student is in, and into her practice.
    let reset = |target: &Person| format!("/teach/users/{}", target.user.id);
    let new_password = [("password", "a-new-password")];
    assert_eq!(
        world.form(&reset(&sue), &bob, &new_password).await,
        StatusCode::FORBIDDEN,
        "Sue is not in Bob's course"
    );
    assert_eq!(
        world.form(&reset(&sam), &bob, &new_password).await,
        StatusCode::FORBIDDEN,
        "Sam's account is his own"
    );
    assert_eq!(
        world.form(&reset(&sam), &ann, &new_password).await,
        StatusCode::FORBIDDEN,
        "no course of Ann's made Sam's account"
    );
    assert!(world.logs_in("sue", &sue_password).await);
    assert!(world.logs_in("sam", "sam-password").await);
    assert_eq!(world.get("/api/v1/me", &sue).await.0, 200);
    // A reset by her own teacher works, and ends her sessions and her API tokens, which whoever
    // knew the old password could have made.
    assert_eq!(
        world.form(&reset(&sue), &ann, &new_password).await,
        StatusCode::SEE_OTHER
    );
    assert!(world.logs_in("sue", "a-new-password").await);
    assert_eq!(world.get("/api/v1/me", &sue).await.0, 401);
    let sue = world.fresh(&sue).await;
    // An admin resets anyone's.
    assert_eq!(
        world.form(&reset(&sam), &root, &new_password).await,
        StatusCode::SEE_OTHER
    );
    let sam = world.fresh(&sam).await;

    // Hidden tests: a built-in problem's package is any teacher's, an upload only its owner's.
    let pebbles = zip_of(&[
        ("pebbles/problem.yaml", "name: Pebbles\n"),
        (
            "pebbles/statement/problem.en.md",
            "# Pebbles\n\nTake $n$ pebbles.\n",
        ),
        ("pebbles/data/sample/1.in", "3\n"),
        ("pebbles/data/sample/1.ans", "First\n"),
        ("pebbles/data/secret/a.in", "4\n"),
        ("pebbles/data/secret/a.ans", "Second\n"),
    ]);
    let uploaded = world
        .server
        .client
        .post(format!("{}/api/v1/problems", world.server.url))
        .bearer_auth(&ann.token)
        .header("content-type", "application/zip")
        .body(pebbles)
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), 201, "{}", uploaded.text().await.unwrap());
    let download = |who: &Person, slug: &str| {
        world
            .server
            .client
            .get(format!(
                "{}/api/v1/problems/{slug}/package",
                world.server.url
            ))
            .bearer_auth(who.token.clone())
            .send()
    };
    let refused = download(&bob, "pebbles").await.unwrap();
    let status = refused.status();
    let body = refused.bytes().await.unwrap();
    assert!(
        matches!(status, StatusCode::FORBIDDEN | StatusCode::NOT_FOUND),
        "another teacher downloads the upload: {status}"
    );
    assert!(!body.starts_with(b"PK"), "no zip comes back");
    assert_eq!(download(&sue, "pebbles").await.unwrap().status(), 403);
    assert_eq!(download(&ann, "pebbles").await.unwrap().status(), 200);
    assert_eq!(download(&root, "pebbles").await.unwrap().status(), 200);
    assert_eq!(download(&bob, "stones").await.unwrap().status(), 200);

    // Owning a problem does not cross into other courses: Bob's variant used in Ann's course.
    let (status, doc) = world
        .post(
            "/api/v1/problems/stones/variants",
            &bob,
            json!({
                "slug": "stones-bob",
                "title": { "en": "Bob's stones" },
                "subtasks": [
                    { "name": "all", "points": 100, "tests": 2, "generator": { "max_n": 3, "max_k": 10 } }
                ]
            }),
        )
        .await;
    assert_eq!(status, 201, "{doc}");
    let (status, doc) = world
        .post("/api/v1/problems/stones-bob/publish", &bob, json!({}))
        .await;
    assert_eq!(status, 200, "{doc}");
    let homework = world
        .assignment(
            &ann,
            course_a,
            json!({
                "title": "Week 1", "opens_at": T0, "due_at": T0 + 7 * DAY,
                "closes_at": T0 + 8 * DAY, "problems": ["stones-bob"],
            }),
        )
        .await;
    let mut in_course = program("stones-bob");
    in_course["assignment"] = homework.into();
    let sues = world.submit(&sue, in_course).await;
    let bobs = world.submit(&bob, program("stones-bob")).await;
    world.judge_all().await;
    let (status, listed) = world
        .get("/api/v1/submissions?problem=stones-bob", &bob)
        .await;
    assert_eq!(status, 200, "{listed}");
    let ids: Vec<i64> = listed["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [bobs], "the owner lists only his own work on it");
    assert_eq!(
        world
            .get(&format!("/api/v1/submissions/{sues}"), &bob)
            .await
            .0,
        404
    );
    assert_eq!(
        world
            .post(
                &format!("/api/v1/submissions/{sues}/rejudge"),
                &bob,
                json!({})
            )
            .await
            .0,
        404
    );
    let (status, queued) = world
        .post("/api/v1/problems/stones-bob/rejudge", &bob, json!({}))
        .await;
    assert_eq!(status, 202, "{queued}");
    assert_eq!(queued["queued"], 1, "only his own submission: {queued}");
    assert_eq!(world.status_of(sues).await, "done", "Sue's grade stands");
    assert_eq!(world.status_of(bobs).await, "queued");
    assert_eq!(
        world
            .get(&format!("/api/v1/submissions/{sues}"), &ann)
            .await
            .0,
        200,
        "her own teacher sees it"
    );
    world.judge_all().await;

    // Practice on a problem of an open assignment shows no more than the assignment does.
    world
        .assignment(
            &bob,
            course_b,
            json!({
                "title": "Quiz", "opens_at": T0, "due_at": T0 + DAY, "closes_at": T0 + 2 * DAY,
                "feedback": "verdict", "problems": ["nim"],
            }),
        )
        .await;
    let sams = world.submit(&sam, program("nim")).await;
    let sues_practice = world.submit(&sue, program("nim")).await;
    world.judge_all().await;
    let (_, seen) = world.submission(&sam, sams).await;
    assert_eq!(seen["feedback"], "verdict", "{seen}");
    assert_eq!(seen["tests"], json!([]), "{seen}");
    let (_, seen) = world.submission(&sue, sues_practice).await;
    assert_eq!(
        seen["feedback"], "tests",
        "Sue has no such assignment: {seen}"
    );
    assert_eq!(seen["tests"].as_array().unwrap().len(), 1, "{seen}");
    world.at(T0 + 3 * DAY);
    let (_, seen) = world.submission(&sam, sams).await;
    assert_eq!(seen["feedback"], "tests", "the quiz has closed: {seen}");
    assert_eq!(seen["tests"].as_array().unwrap().len(), 1, "{seen}");

    // API tokens expire, are listed and revoked by their owner only.
    let (status, made) = world
        .post(
            "/api/v1/tokens",
            &sam,
            json!({ "label": "laptop", "expires_in_days": 1 }),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["expires_at"], world.now() + DAY);
    let laptop = Person {
        user: sam.user.clone(),
        token: made["token"].as_str().unwrap().to_owned(),
        cookie: sam.cookie.clone(),
    };
    let laptop_id = made["id"].as_i64().unwrap();
    assert_eq!(world.get("/api/v1/me", &laptop).await.0, 200);
    for days in [0, 91] {
        let (status, _) = world
            .post("/api/v1/tokens", &sam, json!({ "expires_in_days": days }))
            .await;
        assert_eq!(status, 400, "{days} days");
    }
    let (status, mine) = world.get("/api/v1/tokens", &sam).await;
    assert_eq!(status, 200);
    let labels: Vec<&str> = mine
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["laptop", "test"], "newest first");
    assert!(
        mine.as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("token").is_none())
    );
    let (_, theirs) = world.get("/api/v1/tokens", &sue).await;
    assert!(
        theirs
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != laptop_id),
        "nobody lists another's tokens"
    );
    assert_eq!(world.revoke(&sue, laptop_id).await.0, 404);
    assert_eq!(world.get("/api/v1/me", &laptop).await.0, 200);
    world.at(world.now() + DAY);
    assert_eq!(world.get("/api/v1/me", &laptop).await.0, 401, "expired");
    assert_eq!(world.get("/api/v1/me", &sam).await.0, 200, "90 days");
    assert_eq!(world.revoke(&sam, laptop_id).await.0, 204);
    let own = mine[1]["id"].as_i64().unwrap();
    assert_eq!(world.revoke(&sam, own).await.0, 204);
    assert_eq!(world.get("/api/v1/me", &sam).await.0, 401, "revoked");

    // A teacher made a student keeps no course powers.
    let gradebook = format!("/api/v1/assignments/{homework}/gradebook");
    assert_eq!(world.get(&gradebook, &ann).await.0, 200);
    assert_eq!(
        world
            .form(
                &format!("/teach/users/{}", ann.user.id),
                &root,
                &[("role", "student")]
            )
            .await,
        StatusCode::SEE_OTHER
    );
    let store = &world.server.state.domain.store;
    assert_eq!(
        store.member_role(course_a, ann.user.id).await.unwrap(),
        None
    );
    assert_eq!(world.get(&gradebook, &ann).await.0, 404);
    assert_eq!(
        world
            .get(&format!("/api/v1/courses/{course_a}"), &ann)
            .await
            .0,
        404
    );
    let (status, _) = world
        .post(
            &format!("/api/v1/courses/{course_a}/members"),
            &ann,
            json!({ "names": ["newbie"], "create_missing": true }),
        )
        .await;
    assert_eq!(status, 404);
    assert!(store.user_by_name("newbie").await.unwrap().is_none());
    // Promoted again, she is not given her courses back by the role alone.
    assert_eq!(
        world
            .form(
                &format!("/teach/users/{}", ann.user.id),
                &root,
                &[("role", "teacher")]
            )
            .await,
        StatusCode::SEE_OTHER
    );
    assert_eq!(world.get(&gradebook, &ann).await.0, 404);
    assert_eq!(
        store.member_role(course_b, sam.user.id).await.unwrap(),
        Some(MemberRole::Student),
        "nobody else's memberships change"
    );
    world.server.stop().await;
}

impl World {
    /// A fresh token and session for someone whose old ones were ended.
    async fn fresh(&self, who: &Person) -> Person {
        let domain = &self.server.state.domain;
        let token = accounts::issue_token(
            &domain.store,
            who.user.id,
            "test",
            self.now(),
            accounts::DEFAULT_TOKEN_DAYS,
        )
        .await
        .unwrap()
        .token;
        let secret = accounts::start_session(domain, who.user.id, None)
            .await
            .unwrap();
        Person {
            user: who.user.clone(),
            token,
            cookie: format!("{SESSION_COOKIE}={secret}"),
        }
    }
}

/// A worker's explanation of a Nim-like wrong answer, as it stores it after the verdict.
fn explanation_body() -> String {
    use grundy_judge::explain::{CertificateView, Explanation, MisconceptionView};
    use grundy_problems::explain::Words;
    serde_json::to_string(&Explanation {
        position: Some("1\n1\n".into()),
        expected: Some("Brother".into()),
        got: Some("John".into()),
        certificate: Some(CertificateView {
            en: "John loses: one box of one candy, and he must eat it.".into(),
            vi: "John thua.".into(),
        }),
        misconception: Some(MisconceptionView {
            id: "sum-parity".into(),
            title: "The parity of the total".into(),
            text: "…".into(),
            translations: [(
                "vi".to_owned(),
                Words {
                    title: "Tính chẵn lẻ của tổng".into(),
                    text: "…".into(),
                },
            )]
            .into(),
        }),
        large: false,
        runs: 3,
        cpu_ms: 4,
        instances: Vec::new(),
        example: None,
        withheld: false,
    })
    .unwrap()
}

/// Explanations follow the feedback level: not at `verdict`, at `tests`, to teachers always;
/// a rejudge makes the old one stale; the teacher's gradebook counts the class's misconceptions.
async fn explanations(store: Store) {
    let world = World::start(store).await;
    let ann = world.person("ann", Role::Teacher).await;
    let sam = world.person("sam", Role::Student).await;
    let sue = world.person("sue", Role::Student).await;
    let course = world.course(&ann, "Games", &[&sam, &sue]).await;
    let window = |title: &str, feedback: &str| {
        json!({
            "title": title, "opens_at": T0, "due_at": T0 + DAY, "closes_at": T0 + 2 * DAY,
            "feedback": feedback, "problems": ["misere-nim"],
        })
    };
    let quiz = world
        .assignment(&ann, course, window("Quiz", "verdict"))
        .await;
    let homework = world
        .assignment(&ann, course, window("Homework", "tests"))
        .await;
    let to = |assignment: i64| {
        json!({
            "problem": "misere-nim", "language": "cpp20", "source": "int main() {}",
            "assignment": assignment,
        })
    };
    let sams_quiz = world.submit(&sam, to(quiz)).await;
    let sams_homework = world.submit(&sam, to(homework)).await;
    let sues_homework = world.submit(&sue, to(homework)).await;
    world.judge_all().await;
    let store = &world.server.state.domain.store;
    let (_, seen) = world.submission(&sam, sams_homework).await;
    assert!(seen["explanation"].is_null(), "not found yet: {seen}");
    for id in [sams_quiz, sams_homework, sues_homework] {
        assert!(
            store
                .save_explanation(
                    id,
                    world.now(),
                    &explanation_body(),
                    Some("sum-parity"),
                    world.now()
                )
                .await
                .unwrap()
        );
    }

    let (_, seen) = world.submission(&sam, sams_quiz).await;
    assert_eq!(seen["feedback"], "verdict", "{seen}");
    assert!(
        seen["explanation"].is_null(),
        "the quiz shows the verdict only: {seen}"
    );
    let (_, seen) = world.submission(&sam, sams_homework).await;
    let explanation = &seen["explanation"];
    assert_eq!(explanation["position"], "1\n1\n", "{seen}");
    assert_eq!(explanation["misconception"]["id"], "sum-parity", "{seen}");
    assert_eq!(explanation["certificate"]["vi"], "John thua.", "{seen}");
    let (_, seen) = world.submission(&ann, sams_quiz).await;
    assert_eq!(
        seen["explanation"]["misconception"]["id"], "sum-parity",
        "teachers see it whatever the level: {seen}"
    );
    assert_eq!(world.submission(&sue, sams_homework).await.0, 404);

    // The class's misconceptions, for its teachers only.
    let (status, book) = world
        .get(&format!("/api/v1/assignments/{homework}/gradebook"), &ann)
        .await;
    assert_eq!(status, 200, "{book}");
    assert_eq!(
        book["misconceptions"],
        json!([{
            "id": "sum-parity", "title": "The parity of the total", "problems": ["misere-nim"],
            "students": ["sam", "sue"], "count": 2,
        }]),
        "{book}"
    );
    let (status, _) = world
        .get(&format!("/api/v1/assignments/{homework}/gradebook"), &sam)
        .await;
    assert_eq!(status, 403);
    let (status, html) = world.page(&format!("/assignments/{homework}"), &ann).await;
    assert_eq!(status, 200);
    assert!(
        html.contains(r#"<tr data-misconception="sum-parity">"#),
        "{html}"
    );
    assert!(html.contains("<strong>2</strong>: sam, sue"), "{html}");
    let (status, html) = world.page(&format!("/assignments/{homework}"), &sam).await;
    assert_eq!(status, 200);
    assert!(
        !html.contains("data-misconception"),
        "a student's page has no class table"
    );
    // The submission page: the explanation for the student at `tests`, nothing at `verdict`,
    // once, in her language.
    let (_, html) = world
        .page(&format!("/submissions/{sams_homework}"), &sam)
        .await;
    assert!(
        html.contains(r#"<code id="misconception-id">sum-parity</code>"#),
        "{html}"
    );
    assert!(html.contains("John loses: one box"), "{html}");
    assert!(html.contains("The parity of the total"), "{html}");
    assert!(
        !html.contains("John thua."),
        "one certificate, hers: {html}"
    );
    accounts::set_locale(&world.server.state.domain, &sam.user, Some(Locale::Vi))
        .await
        .unwrap();
    let (_, html) = world
        .page(&format!("/submissions/{sams_homework}"), &sam)
        .await;
    assert!(html.contains("John thua."), "{html}");
    assert!(html.contains("Tính chẵn lẻ của tổng"), "{html}");
    assert!(!html.contains("John loses"), "{html}");
    assert!(!html.contains("The parity of the total"), "{html}");
    let (_, seen) = world.submission(&sam, sams_homework).await;
    assert_eq!(
        seen["explanation"]["misconception"]["title"], "Tính chẵn lẻ của tổng",
        "the API in her language: {seen}"
    );
    let (_, seen) = world
        .get(
            &format!("/api/v1/submissions/{sams_homework}?lang=en"),
            &sam,
        )
        .await;
    assert_eq!(
        seen["explanation"]["misconception"]["title"], "The parity of the total",
        "?lang= picks another: {seen}"
    );
    let (_, html) = world.page(&format!("/submissions/{sams_quiz}"), &sam).await;
    assert!(!html.contains("John thua."), "{html}");

    // A rejudge gives a new verdict: the old explanation is not shown, nor stored late.
    let first_verdict = world.now();
    world.at(first_verdict + 60_000);
    let (status, body) = world
        .post(
            &format!("/api/v1/submissions/{sams_homework}/rejudge"),
            &ann,
            json!({}),
        )
        .await;
    assert!(status.is_success(), "{status} {body}");
    world.judge_all().await;
    let (_, seen) = world.submission(&sam, sams_homework).await;
    assert!(seen["explanation"].is_null(), "{seen}");
    assert!(
        !store
            .save_explanation(
                sams_homework,
                first_verdict,
                &explanation_body(),
                None,
                world.now()
            )
            .await
            .unwrap(),
        "an explanation of the first verdict is dropped"
    );
    let (_, book) = world
        .get(&format!("/api/v1/assignments/{homework}/gradebook"), &ann)
        .await;
    assert_eq!(
        book["misconceptions"][0]["students"],
        json!(["sue"]),
        "{book}"
    );
    world.server.stop().await;
}

/// A small package, "print First when n is odd", under `slug`, with the secret test `4`.
fn pebbles(slug: &str) -> Vec<u8> {
    let yaml = format!("name: Pebbles\ngrundy:\n  slug: {slug}\n");
    zip_of(&[
        ("p/problem.yaml", yaml.as_str()),
        ("p/statement/problem.en.md", "Take $n$ pebbles.\n"),
        ("p/data/sample/1.in", "3\n"),
        ("p/data/sample/1.ans", "First\n"),
        ("p/data/secret/1.in", "4\n"),
        ("p/data/secret/1.ans", "Second\n"),
    ])
}

impl World {
    async fn upload(&self, who: &Person, zip: Vec<u8>) {
        let uploaded = self
            .server
            .client
            .post(format!("{}/api/v1/problems", self.server.url))
            .bearer_auth(&who.token)
            .header("content-type", "application/zip")
            .body(zip)
            .send()
            .await
            .unwrap();
        assert_eq!(uploaded.status(), 201, "{}", uploaded.text().await.unwrap());
    }

    /// Adds `names` to `course` as `teacher` asks: the import's report.
    async fn import(&self, teacher: &Person, course: i64, names: &[&str], role: &str) -> Value {
        let (status, report) = self
            .post(
                &format!("/api/v1/courses/{course}/members"),
                teacher,
                json!({ "names": names, "role": role }),
            )
            .await;
        assert_eq!(status, 200, "{report}");
        report
    }

    /// The ids of the invitations waiting for `who`.
    async fn invitations(&self, who: &Person) -> Vec<i64> {
        let (status, listed) = self.get("/api/v1/invitations", who).await;
        assert_eq!(status, 200, "{listed}");
        listed["invitations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_i64().unwrap())
            .collect()
    }

    /// Whether `who`'s users page lists `name`, and with a form to set their password.
    async fn users_page_shows(&self, who: &Person, name: &str) -> (bool, bool) {
        let (status, html) = self.page("/teach/users", who).await;
        assert_eq!(status, 200, "{html}");
        let Some(at) = html.find(&format!(r#"data-user="{name}""#)) else {
            return (false, false);
        };
        let row = &html[at..at + html[at..].find("</tr>").unwrap()];
        (true, row.contains(r#"name="password""#))
    }
}

/// The issue's two paths into what is not one's own, each refused: a teacher who makes another
/// teacher (or an admin) a co-teacher to read their drafts, and a teacher who imports a student
/// of nobody's course to reset her password and sign in as her.
async fn consent(store: Store) {
    let world = World::start(store).await;
    let root = world.person("root", Role::Admin).await;
    let ada = world.person("ada", Role::Teacher).await;
    let ben = world.person("ben", Role::Teacher).await;
    let sam = world.person("sam", Role::Student).await;
    // Sam registered himself and is in no course.
    world.upload(&ada, pebbles("adas-draft")).await;
    world.upload(&root, pebbles("roots-draft")).await;
    let course = world.course(&ben, "Ben's", &[]).await;
    let course_path = format!("/api/v1/courses/{course}");
    let reaches = |slug: &'static str| {
        let world = &world;
        let ben = &ben;
        async move { world.get(&format!("/api/v1/problems/{slug}"), ben).await.0 }
    };

    // Co-teaching is asked, not imposed: until Ada says yes, Ben sees none of her drafts.
    let report = world
        .import(&ben, course, &["ada", "root"], "teacher")
        .await;
    assert_eq!(report["invited"], json!(["ada", "root"]), "{report}");
    assert_eq!(report["added"], json!([]));
    for slug in ["adas-draft", "roots-draft"] {
        assert_eq!(reaches(slug).await, 404, "{slug}");
        let (status, _) = world
            .post(
                &format!("{course_path}/assignments"),
                &ben,
                json!({ "title": "W", "opens_at": T0, "due_at": T0 + DAY,
                        "feedback": "inputs", "problems": [slug] }),
            )
            .await;
        assert_eq!(status, 404, "{slug} is no problem of Ben's assignment");
    }
    assert_eq!(world.get(&course_path, &ada).await.0, 404, "not a member");
    let (_, detail) = world.get(&course_path, &ben).await;
    let invitees: Vec<(&str, &str)> = detail["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap(), i["role"].as_str().unwrap()))
        .collect();
    assert_eq!(invitees, [("ada", "teacher"), ("root", "teacher")]);
    // Ada declines; asked again, she is not. Root's invitation is withdrawn.
    let adas = world.invitations(&ada).await;
    assert_eq!(adas.len(), 1);
    let decline = format!("/api/v1/invitations/{}/decline", adas[0]);
    assert_eq!(
        world.post(&decline, &ben, json!({})).await.0,
        404,
        "hers to answer"
    );
    assert_eq!(world.post(&decline, &ada, json!({})).await.0, 204);
    let again = world.import(&ben, course, &["ada"], "teacher").await;
    assert_eq!(again["refused"][0]["name"], "ada", "{again}");
    assert!(world.invitations(&ada).await.is_empty());
    let withdraw = format!("{course_path}/invitations/{}", root.user.id);
    assert_eq!(
        world
            .call(Method::DELETE, &withdraw, &ada.token, None)
            .await
            .0,
        404,
        "Ada is no teacher of the course"
    );
    assert_eq!(
        world
            .call(Method::DELETE, &withdraw, &ben.token, None)
            .await
            .0,
        204
    );
    assert!(world.invitations(&root).await.is_empty());
    assert_eq!(reaches("adas-draft").await, 404);

    // A co-teacher put in a course before invitations existed stays, marked for review, and
    // shares nothing: Ben still does not see Ada's draft.
    let store = &world.server.state.domain.store;
    store
        .add_member(
            course,
            ada.user.id,
            MemberRole::Teacher,
            MemberOrigin::Course,
            T0,
        )
        .await
        .unwrap();
    assert_eq!(reaches("adas-draft").await, 404);
    let review = "/api/v1/admin/memberships";
    assert_eq!(world.get(review, &ben).await.0, 403);
    let (status, listed) = world.get(review, &root).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["memberships"][0]["name"], "ada", "{listed}");
    assert_eq!(listed["memberships"].as_array().unwrap().len(), 1);
    assert_eq!(
        world
            .call(
                Method::DELETE,
                &format!("{course_path}/members/{}", ada.user.id),
                &root.token,
                None
            )
            .await
            .0,
        204
    );
    // Said yes to another course of Ben's, Ada shares her drafts with him there.
    let second = world.course(&ben, "Ben's second", &[]).await;
    world.import(&ben, second, &["ada"], "teacher").await;
    assert_eq!(reaches("adas-draft").await, 404, "not before she accepts");
    assert_eq!(world.server.accept_invitations(&ada.token).await, 1);
    assert_eq!(reaches("adas-draft").await, 200);

    // A student of nobody's course is invited, never taken: Ben may neither list her nor set her
    // password, before she answers or after she accepts.
    let reset = format!("/teach/users/{}", sam.user.id);
    let new_password = [("password", "ben-knows-this")];
    let report = world.import(&ben, course, &["sam"], "student").await;
    assert_eq!(report["invited"], json!(["sam"]), "{report}");
    assert_eq!(store.member_role(course, sam.user.id).await.unwrap(), None);
    assert_eq!(world.users_page_shows(&ben, "sam").await, (false, false));
    assert_eq!(
        world.form(&reset, &ben, &new_password).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(world.server.accept_invitations(&sam.token).await, 1);
    assert_eq!(
        store.member_role(course, sam.user.id).await.unwrap(),
        Some(MemberRole::Student)
    );
    assert_eq!(world.users_page_shows(&ben, "sam").await, (true, false));
    assert_eq!(
        world.form(&reset, &ben, &new_password).await,
        StatusCode::FORBIDDEN
    );
    assert!(world.logs_in("sam", "sam-password").await);
    assert!(!world.logs_in("sam", "ben-knows-this").await);

    // An account Ben's course made is his to reset, until it joins another teacher's course;
    // taken out of his course it stays his, and no other teacher gains it by importing it.
    let (kid, _) = world.made_by(&ben, course, "kid").await;
    let (pip, _) = world.made_by(&ben, course, "pip").await;
    assert_eq!(world.users_page_shows(&ben, "kid").await, (true, true));
    let reset_kid = format!("/teach/users/{}", kid.user.id);
    assert_eq!(
        world.form(&reset_kid, &ben, &new_password).await,
        StatusCode::SEE_OTHER
    );
    let adas_course = world.course(&ada, "Ada's", &[]).await;
    let (_, adas) = world
        .get(&format!("/api/v1/courses/{adas_course}"), &ada)
        .await;
    let code = adas["join_code"].as_str().unwrap();
    let kid = world.fresh(&kid).await;
    let (status, _) = world
        .post("/api/v1/courses/join", &kid, json!({ "code": code }))
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        world.form(&reset_kid, &ben, &new_password).await,
        StatusCode::FORBIDDEN,
        "Kid is in Ada's course now"
    );
    assert_eq!(
        world.form(&reset_kid, &ada, &new_password).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        world
            .call(
                Method::DELETE,
                &format!("{course_path}/members/{}", pip.user.id),
                &ben.token,
                None
            )
            .await
            .0,
        204
    );
    assert_eq!(world.users_page_shows(&ben, "pip").await, (true, true));
    let report = world.import(&ada, adas_course, &["pip"], "student").await;
    assert_eq!(report["invited"], json!(["pip"]), "{report}");
    let reset_pip = format!("/teach/users/{}", pip.user.id);
    assert_eq!(
        world.form(&reset_pip, &ada, &new_password).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        world.form(&reset_pip, &ben, &new_password).await,
        StatusCode::SEE_OTHER
    );
    // The admin's list is everyone's; a teacher's, her courses' people only.
    assert_eq!(world.users_page_shows(&root, "sam").await, (true, true));
    assert_eq!(world.users_page_shows(&ada, "sam").await, (false, false));
    world.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    consent(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_on_postgres() {
    let Some((store, database)) = Postgres::create("consent_on_postgres").await else {
        return;
    };
    consent(store).await;
    database.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explanations_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    explanations(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explanations_on_postgres() {
    let Some((store, database)) = Postgres::create("explanations_on_postgres").await else {
        return;
    };
    explanations(store).await;
    database.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trust_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    trust(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trust_on_postgres() {
    let Some((store, database)) = Postgres::create("trust_on_postgres").await else {
        return;
    };
    trust(store).await;
    database.drop_database().await;
}
