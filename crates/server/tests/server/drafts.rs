//! Uploaded problems through the API, on SQLite and PostgreSQL: a new package or variant is a
//! draft that only its owner, their co-teachers and admins see (list, read, submit, export)
//! until it is published, or until an assignment listing it opens for that course's students;
//! and each owner's problems keep to a quota.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::common;

use common::{Postgres, Server, zip_of};
use grundy_server::{Clock, RequestLimits};
use grundy_store::{Role, Store};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// 2026-09-01T00:00:00Z.
const T0: i64 = 1_788_220_800_000;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

struct Service {
    server: Server,
    clock: Arc<AtomicI64>,
}

impl Service {
    /// The service on `store`, its clock at `T0` until the test moves it.
    async fn start(store: Store, limits: RequestLimits) -> Service {
        let clock = Arc::new(AtomicI64::new(T0));
        let now = clock.clone();
        let server = Server::start_with(
            store,
            limits,
            Clock::from_fn(move || now.load(Ordering::SeqCst)),
        )
        .await;
        Service { server, clock }
    }

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

    async fn upload(&self, token: &str, zip: Vec<u8>) -> (StatusCode, Value) {
        let response = self
            .server
            .client
            .post(format!("{}/api/v1/problems", self.server.url))
            .bearer_auth(token)
            .header("content-type", "application/zip")
            .body(zip)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let bytes = response.bytes().await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// The slugs `token` sees listed.
    async fn listed(&self, token: &str) -> Vec<String> {
        let (status, list) = self.get("/api/v1/problems", token).await;
        assert_eq!(status, 200, "{list}");
        list["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["slug"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Whether `token` sees `slug` everywhere a problem is seen (listed, read, its instances,
    /// exported by a teacher), asserting that these agree.
    async fn sees(&self, token: &str, slug: &str) -> bool {
        let listed = self.listed(token).await.iter().any(|s| s == slug);
        let (status, _) = self.get(&format!("/api/v1/problems/{slug}"), token).await;
        assert_eq!(
            status == 200,
            listed,
            "{slug}: read {status}, listed {listed}"
        );
        if !listed {
            assert_eq!(status, 404, "a draft not seen is not found");
        }
        if !token.is_empty() {
            let (status, _) = self
                .get(&format!("/api/v1/problems/{slug}/instances"), token)
                .await;
            assert_eq!(status == 200, listed, "{slug}: instances {status}");
        }
        listed
    }

    /// Submits a program to `slug` (in `assignment`, if any): the status.
    async fn submit(&self, token: &str, slug: &str, assignment: Option<i64>) -> StatusCode {
        let mut body = json!({ "problem": slug, "language": "cpp20", "source": "int main() {}" });
        if let Some(id) = assignment {
            body["assignment"] = id.into();
        }
        self.post("/api/v1/submissions", token, body).await.0
    }
}

/// A small package, "print First when n is odd", under `slug`.
fn package(slug: &str, secret: &str) -> Vec<u8> {
    let yaml = format!("name: Pebbles\ngrundy:\n  slug: {slug}\n");
    zip_of(&[
        ("p/problem.yaml", yaml.as_str()),
        ("p/statement/problem.en.md", "Take $n$ pebbles.\n"),
        ("p/data/sample/1.in", "3\n"),
        ("p/data/sample/1.ans", "First\n"),
        ("p/data/secret/1.in", secret),
        ("p/data/secret/1.ans", "Second\n"),
    ])
}

async fn drafts_are_seen_by_their_owners_co_teachers_and_opened_assignments(store: Store) {
    let service = Service::start(store, RequestLimits::default()).await;
    let tom = service.token("tom", Role::Teacher).await;
    let tess = service.token("tess", Role::Teacher).await;
    let zed = service.token("zed", Role::Teacher).await;
    let ann = service.token("ann", Role::Student).await;
    let bob = service.token("bob", Role::Student).await;
    let root = service.token("root", Role::Admin).await;
    let nobody = "";

    // Tom teaches a course with Tess; Ann is a student there, Bob nowhere.
    let (status, course) = service
        .post("/api/v1/courses", &tom, json!({ "title": "Games" }))
        .await;
    assert_eq!(status, 201, "{course}");
    let course_id = course["id"].as_i64().unwrap();
    let members = format!("/api/v1/courses/{course_id}/members");
    let (status, report) = service
        .post(
            &members,
            &tom,
            json!({ "names": ["tess"], "role": "teacher" }),
        )
        .await;
    assert_eq!(
        (status.as_u16(), &report["invited"]),
        (200, &json!(["tess"]))
    );
    let (status, _) = service
        .post(&members, &tom, json!({ "names": ["ann"] }))
        .await;
    assert_eq!(status, 200);
    assert_eq!(service.server.accept_invitations(&tess).await, 1);
    assert_eq!(service.server.accept_invitations(&ann).await, 1);

    // An upload and a variant are drafts.
    let (status, doc) = service.upload(&tom, package("pebbles", "4\n")).await;
    assert_eq!(status, 201, "{doc}");
    assert_eq!(doc["published"], false);
    let (status, doc) = service
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
    assert_eq!((status.as_u16(), &doc["published"]), (201, &json!(false)));

    // The refused side: nobody signed in, a student, a student of the course before any
    // assignment, another teacher. Not listed, not found, not submittable, not exported, not
    // published, not a base for a variant or a problem of an assignment.
    for slug in ["pebbles", "stones-mini"] {
        for (who, token) in [
            ("nobody", nobody),
            ("bob", &bob),
            ("ann", &ann),
            ("zed", &zed),
        ] {
            assert!(!service.sees(token, slug).await, "{who} sees {slug}");
        }
        for (who, token) in [("bob", &bob), ("ann", &ann), ("zed", &zed)] {
            assert_eq!(service.submit(token, slug, None).await, 404, "{who}");
        }
        let (status, _) = service
            .get(&format!("/api/v1/problems/{slug}/package"), &zed)
            .await;
        assert_eq!(status, 404);
        let publish = format!("/api/v1/problems/{slug}/publish");
        assert_eq!(service.post(&publish, nobody, json!({})).await.0, 401);
        assert_eq!(service.post(&publish, &ann, json!({})).await.0, 403);
        assert_eq!(service.post(&publish, &zed, json!({})).await.0, 404);
        assert_eq!(
            service.post(&publish, &tess, json!({})).await.0,
            403,
            "a co-teacher sees a draft but does not publish it"
        );
    }
    let (status, _) = service
        .post(
            "/api/v1/problems/stones-mini/variants",
            &zed,
            json!({ "slug": "zeds", "title": { "en": "Z" }, "subtasks": [] }),
        )
        .await;
    assert_eq!(status, 404, "another teacher's draft is no base");
    let (_, zeds_course) = service
        .post("/api/v1/courses", &zed, json!({ "title": "Zed's" }))
        .await;
    let week = |problems: Value, opens_at: i64| {
        json!({
            "title": "Week 1",
            "opens_at": opens_at,
            "due_at": opens_at + 7 * DAY,
            "problems": problems,
        })
    };
    let (status, refused) = service
        .post(
            &format!("/api/v1/courses/{}/assignments", zeds_course["id"]),
            &zed,
            week(json!(["nim", "pebbles"]), T0),
        )
        .await;
    assert_eq!(status, 404, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("pebbles"));

    // The owner, a co-teacher and an admin see both, marked as drafts.
    for (who, token) in [("tom", &tom), ("tess", &tess), ("root", &root)] {
        for slug in ["pebbles", "stones-mini"] {
            assert!(service.sees(token, slug).await, "{who} sees {slug}");
        }
        assert_eq!(service.submit(token, "pebbles", None).await, 201, "{who}");
    }
    let (_, doc) = service.get("/api/v1/problems/pebbles", &tess).await;
    assert_eq!(doc["published"], false);

    // An assignment of the course lists the draft: its students see it from the opening on.
    let (status, assignment) = service
        .post(
            &format!("/api/v1/courses/{course_id}/assignments"),
            &tess,
            week(json!(["nim", "pebbles"]), T0 + HOUR),
        )
        .await;
    assert_eq!(status, 201, "{assignment}");
    let assignment = assignment["id"].as_i64();
    assert!(!service.sees(&ann, "pebbles").await, "before the opening");
    assert_eq!(service.submit(&ann, "pebbles", assignment).await, 404);
    service.at(T0 + HOUR);
    assert!(service.sees(&ann, "pebbles").await, "from the opening");
    assert_eq!(service.submit(&ann, "pebbles", assignment).await, 201);
    assert!(!service.sees(&ann, "stones-mini").await, "not listed");
    assert!(!service.sees(&bob, "pebbles").await, "not in the course");
    assert!(!service.sees(&zed, "pebbles").await);
    assert!(!service.sees(nobody, "pebbles").await);

    // Published: everyone sees it, a new version stays published, and publishing again is
    // harmless.
    let (status, doc) = service
        .post("/api/v1/problems/pebbles/publish", &tom, json!({}))
        .await;
    assert_eq!((status.as_u16(), &doc["published"]), (200, &json!(true)));
    for token in [nobody, &bob, &zed] {
        assert!(service.sees(token, "pebbles").await);
    }
    assert_eq!(service.submit(&bob, "pebbles", None).await, 201);
    let (status, doc) = service.upload(&tom, package("pebbles", "6\n")).await;
    assert_eq!((status.as_u16(), &doc["version"]), (201, &json!(2)));
    assert_eq!(doc["published"], true);
    let (status, doc) = service
        .post("/api/v1/problems/pebbles/publish", &root, json!({}))
        .await;
    assert_eq!((status.as_u16(), &doc["version"]), (200, &json!(2)));
    let (status, _) = service
        .post("/api/v1/problems/nim/publish", &root, json!({}))
        .await;
    assert_eq!(status, 409, "a built-in problem is published already");
    // An admin publishes anyone's draft.
    let (status, _) = service
        .post("/api/v1/problems/stones-mini/publish", &root, json!({}))
        .await;
    assert_eq!(status, 200);
    assert!(service.sees(&bob, "stones-mini").await);
    service.server.stop().await;
}

async fn each_owners_problems_keep_to_a_quota(store: Store) {
    // Room for one of the packages below, not two.
    let one = package("first", &"7".repeat(60_000)).len() as u64 + 60_000 + 100;
    let limits = RequestLimits {
        problem_quota_bytes: Some(one + 100),
        ..RequestLimits::default()
    };
    let service = Service::start(store, limits).await;
    let tom = service.token("tom", Role::Teacher).await;
    let zed = service.token("zed", Role::Teacher).await;
    let big = "7".repeat(60_000);
    let (status, doc) = service.upload(&tom, package("first", &big)).await;
    assert_eq!(status, 201, "{doc}");
    let (status, doc) = service.upload(&tom, package("second", &big)).await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (409, Some("conflict")),
        "{doc}"
    );
    let message = doc["message"].as_str().unwrap();
    assert!(message.starts_with("over your quota"), "{message}");
    let (status, _) = service.get("/api/v1/problems/second", &tom).await;
    assert_eq!(status, 404, "nothing of it is kept");
    // A new version replaces the old one's share; another teacher has a quota of their own.
    let (status, doc) = service.upload(&tom, package("first", &big)).await;
    assert_eq!(
        (status.as_u16(), &doc["version"]),
        (201, &json!(2)),
        "{doc}"
    );
    let (status, doc) = service.upload(&zed, package("second", &big)).await;
    assert_eq!(status, 201, "{doc}");
    service.server.stop().await;
}

const LIMIT: Duration = Duration::from_secs(120);

on_both!(
    drafts_are_seen_by_their_owners_co_teachers_and_opened_assignments,
    each_owners_problems_keep_to_a_quota,
);
