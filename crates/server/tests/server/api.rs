//! The API in process, over a real port 0, on SQLite, without workers: the OpenAPI document and
//! Swagger UI, password logins and cookie sessions with CSRF protection, answer instances, the
//! rate limit, teachers' packages, variants and exports, and problems surviving a restart.
//! Judging itself is covered end to end in `crates/cli/tests/cli/service.rs`.

use std::time::Duration;

use crate::common;

use common::{Server, promtool_accepts, zip_of};
use grundy_problems::{Catalogue, ReadLimits};
use grundy_server::domain::accounts;
use grundy_server::telemetry::{Sample, names, parse_exposition};
use grundy_server::{Clock, RequestLimits};
use grundy_store::Role;
use reqwest::StatusCode;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use serde_json::{Value, json};

/// Tokens for the API tests.
trait ApiServer {
    async fn user(&self, name: &str, role: Role) -> String;
}

impl ApiServer for Server {
    /// A user with a password and a token.
    async fn user(&self, name: &str, role: Role) -> String {
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
}

/// A token for the teacher `tom` made before a restart.
async fn teacher_again(server: &Server) -> String {
    let tom = server
        .state
        .domain
        .store
        .user_by_name("tom")
        .await
        .unwrap()
        .unwrap();
    accounts::issue_token(
        &server.state.domain.store,
        tom.id,
        "again",
        grundy_server::now_ms(),
        accounts::DEFAULT_TOKEN_DAYS,
    )
    .await
    .unwrap()
    .token
}

fn limits() -> RequestLimits {
    RequestLimits {
        submissions_per_minute: 3,
        package_bytes: 256 << 10,
        ..RequestLimits::default()
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

async fn json_of(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    let body = response.bytes().await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

async fn get(url: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut request = client().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    json_of(request.send().await.unwrap()).await
}

async fn post(url: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
    let mut request = client().post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    json_of(request.send().await.unwrap()).await
}

async fn upload(url: &str, token: &str, zip: Vec<u8>) -> (StatusCode, Value) {
    json_of(
        client()
            .post(format!("{url}/api/v1/problems"))
            .bearer_auth(token)
            .header("content-type", "application/zip")
            .body(zip)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// A small package: "print First when n is odd".
fn pebbles(statement: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "pebbles/problem.yaml",
            "name: Pebbles\nlimits:\n  time_limit: 1\n  memory: 256\n".into(),
        ),
        ("pebbles/statement/problem.en.md", statement.into()),
        ("pebbles/data/sample/1.in", "3\n".into()),
        ("pebbles/data/sample/1.ans", "First\n".into()),
        ("pebbles/data/secret/a.in", "4\n".into()),
        ("pebbles/data/secret/a.ans", "Second\n".into()),
        ("pebbles/data/secret/b.in", "5\n".into()),
        ("pebbles/data/secret/b.ans", "First\n".into()),
    ]
}

fn zip_owned(files: &[(&'static str, String)]) -> Vec<u8> {
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    zip_of(&borrowed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_and_swagger_ui_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let (status, doc) = get(&format!("{}/api/openapi.json", server.url), None).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/v1/health",
        "/api/v1/problems",
        "/api/v1/problems/{slug}",
        "/api/v1/problems/{slug}/instances",
        "/api/v1/problems/{slug}/variants",
        "/api/v1/problems/{slug}/package",
        "/api/v1/problems/{slug}/publish",
        "/api/v1/submissions",
        "/api/v1/submissions/{id}",
        "/api/v1/submissions/{id}/events",
        "/api/v1/login",
        "/api/v1/tokens",
    ] {
        assert!(paths.contains_key(path), "{path} is not described");
    }
    assert!(paths["/api/v1/submissions"]["post"].is_object());
    assert!(paths["/api/v1/submissions"]["get"].is_object());
    let schemes = &doc["components"]["securitySchemes"];
    assert_eq!(schemes["bearer"]["scheme"], "bearer");
    assert_eq!(schemes["session"]["name"], "grundy_session");
    assert!(doc["components"]["schemas"]["SubmissionDetail"].is_object());
    // What a submission shows of its tests and subtasks is documented as it is sent: the data
    // fields absent unless shown (never null), the subtasks always there.
    let schemas = &doc["components"]["schemas"];
    let test = &schemas["TestView"];
    for field in ["input", "expected", "output"] {
        assert_eq!(test["properties"][field]["type"], "string", "{field}");
    }
    assert_eq!(test["properties"]["too_large_to_show"]["type"], "boolean");
    let required = |schema: &Value, field: &str| {
        schema["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|f| f == field))
    };
    for optional in ["input", "expected", "output", "too_large_to_show"] {
        assert!(!required(test, optional), "{optional}");
    }
    let detail = &schemas["SubmissionDetail"]["allOf"][1];
    assert!(required(detail, "subtasks"), "{detail}");
    let subtask = &schemas["SubtaskResultView"];
    for field in ["name", "label", "points", "score", "verdict", "summary"] {
        assert!(required(subtask, field), "{field}");
    }
    assert!(!required(subtask, "failed_at"));
    assert_eq!(subtask["properties"]["failed_at"]["type"], "integer");
    // The document the server serves is the one the library builds.
    assert_eq!(doc, serde_json::to_value(grundy_server::openapi()).unwrap());

    let page = client()
        .get(format!("{}/api/docs/", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("swagger-ui"), "{html}");
    // Vendored: the page's script comes from this server, not a CDN.
    assert!(
        !html.contains("unpkg.com") && !html.contains("cdn."),
        "{html}"
    );
    let script = client()
        .get(format!("{}/api/docs/swagger-ui-bundle.js", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(script.status(), 200);
    server.stop().await;
}

fn session_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .find(|h| h.starts_with("grundy_session="))
        .map(str::to_owned)
}

async fn login(url: &str, name: &str, password: &str) -> reqwest::Response {
    client()
        .post(format!("{url}/api/v1/login"))
        .json(&json!({ "name": name, "password": password }))
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_logins_give_cookie_sessions_guarded_against_other_sites() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let url = server.url.clone();
    server.user("ana", Role::Student).await;

    for (name, password) in [("ana", "wrong-password"), ("nobody", "ana-password")] {
        let response = login(&url, name, password).await;
        assert!(session_cookie(&response).is_none());
        let (status, doc) = json_of(response).await;
        assert_eq!(status, 401);
        // The same answer whether the name exists or not.
        assert_eq!(doc["message"], "wrong name or password");
    }

    let response = login(&url, "ana", "ana-password").await;
    let cookie = session_cookie(&response).expect("a session cookie");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let (status, me) = json_of(response).await;
    assert_eq!((status, me["name"].as_str()), (StatusCode::OK, Some("ana")));
    let pair = cookie.split(';').next().unwrap().to_owned();
    let second = session_cookie(&login(&url, "ana", "ana-password").await).unwrap();
    assert_ne!(
        second.split(';').next().unwrap(),
        pair,
        "every login starts a new session"
    );

    let with_cookie = |request: reqwest::RequestBuilder| request.header(COOKIE, pair.clone());
    let (status, me) = json_of(
        with_cookie(client().get(format!("{url}/api/v1/me")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, me["role"].as_str()),
        (StatusCode::OK, Some("student"))
    );

    // A same-origin write with the cookie works; another site's is refused.
    let (status, token) = json_of(
        with_cookie(client().post(format!("{url}/api/v1/tokens")))
            .header(ORIGIN, url.clone())
            .json(&json!({ "label": "laptop" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{token}");
    let token = token["token"].as_str().unwrap().to_owned();
    let (status, _) = get(&format!("{url}/api/v1/me"), Some(&token)).await;
    assert_eq!(
        status, 200,
        "the token made in the browser works for scripts"
    );
    for (header, value) in [
        ("sec-fetch-site", "cross-site"),
        ("origin", "http://evil.example"),
    ] {
        let (status, doc) = json_of(
            with_cookie(client().post(format!("{url}/api/v1/submissions")))
                .header(header, value)
                .json(&json!({ "problem": "stones", "answers": { "1": "First" } }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(
            (status, doc["error"].as_str()),
            (StatusCode::FORBIDDEN, Some("forbidden")),
            "{header}: {value}"
        );
    }
    let (_, list) = get(&format!("{url}/api/v1/submissions"), Some(&token)).await;
    assert_eq!(list["submissions"].as_array().unwrap().len(), 0);

    // Changing the password needs the current one.
    let change = |body: Value| {
        with_cookie(client().put(format!("{url}/api/v1/me/password")))
            .json(&body)
            .send()
    };
    let (status, _) = json_of(
        change(json!({ "current": "nope-nope", "new": "a-new-password" }))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403, "signed in, but not with that password");
    let elsewhere = session_cookie(&login(&url, "ana", "ana-password").await).unwrap();
    let elsewhere = elsewhere.split(';').next().unwrap().to_owned();
    let (status, doc) = json_of(
        change(json!({ "current": "ana-password", "new": "short" }))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 400, "{doc}");
    let response = change(json!({ "current": "ana-password", "new": "a-new-password" }))
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(login(&url, "ana", "a-new-password").await.status(), 200);
    let me_with = |cookie: String| {
        client()
            .get(format!("{url}/api/v1/me"))
            .header(COOKIE, cookie)
            .send()
    };
    assert_eq!(
        me_with(elsewhere).await.unwrap().status(),
        401,
        "other sessions end"
    );
    assert_eq!(
        me_with(pair.clone()).await.unwrap().status(),
        200,
        "this one goes on"
    );

    // Logging out ends the session.
    let response = with_cookie(client().post(format!("{url}/api/v1/logout")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
    let cleared = session_cookie(&response).unwrap();
    assert!(cleared.contains("Max-Age=0"));
    let (status, _) = json_of(
        with_cookie(client().get(format!("{url}/api/v1/me")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_create_users_and_nobody_else_does() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let url = format!("{}/api/v1/users", server.url);
    let admin = server.user("root", Role::Admin).await;
    let teacher = server.user("tom", Role::Teacher).await;
    let new = json!({ "name": "sam", "role": "student", "password": "sam-password" });
    assert_eq!(post(&url, Some(&teacher), new.clone()).await.0, 403);
    let (status, doc) = post(&url, Some(&admin), new.clone()).await;
    assert_eq!(
        (status, doc["role"].as_str()),
        (StatusCode::CREATED, Some("student"))
    );
    assert_eq!(post(&url, Some(&admin), new).await.0, 409);
    let (status, doc) = post(
        &url,
        Some(&admin),
        json!({ "name": "x y", "role": "student" }),
    )
    .await;
    assert_eq!(status, 400, "{doc}");
    let (status, _) = post(&url, Some(&admin), json!({ "name": "z", "role": "wizard" })).await;
    assert_eq!(status, 422, "not a role the document lists");
    assert_eq!(
        login(&server.url, "sam", "sam-password").await.status(),
        200
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answer_instances_are_personal_and_carry_no_answers() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let url = format!("{}/api/v1/problems/stones/instances", server.url);
    let ana = server.user("ana", Role::Student).await;
    let bob = server.user("bob", Role::Student).await;
    assert_eq!(get(&url, None).await.0, 401);
    let (status, a1) = get(&url, Some(&ana)).await;
    assert_eq!(status, 200);
    let (_, a2) = get(&url, Some(&ana)).await;
    let (_, b) = get(&url, Some(&bob)).await;
    assert_eq!(a1, a2, "the same instances every time");
    let instances = a1["instances"].as_array().unwrap();
    let stones = Catalogue::builtin().unwrap();
    let stones = stones.get("stones").unwrap();
    let samples = stones.samples.len();
    assert_eq!(instances.len(), samples + 2 * stones.spec.subtasks.len());
    assert!(instances.iter().all(|i| i.get("answer").is_none()));
    assert_eq!(instances[0]["group"], "samples");
    assert_eq!(instances[0]["input"], stones.samples[0].input.as_str());
    let inputs = |doc: &Value| -> Vec<String> {
        doc["instances"].as_array().unwrap()[samples..]
            .iter()
            .map(|i| i["input"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_ne!(inputs(&a1), inputs(&b), "another student, other instances");
    // Not the hidden tests (the small subtask's inputs are few enough to meet by chance; the
    // full one's are not).
    let hidden: Vec<String> = stones.tests().map(|t| t.input).collect();
    let full: Vec<&Value> = instances.iter().filter(|i| i["group"] == "full").collect();
    assert_eq!(full.len(), 2);
    assert!(
        full.iter()
            .all(|i| !hidden.iter().any(|h| i["input"] == h.as_str()))
    );
    assert_eq!(
        get(
            &format!("{}/api/v1/problems/nope/instances", server.url),
            Some(&ana)
        )
        .await
        .0,
        404
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submissions_are_checked_and_limited_per_user() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let url = format!("{}/api/v1/submissions", server.url);
    let ana = server.user("ana", Role::Student).await;
    let bob = server.user("bob", Role::Student).await;
    for (body, want) in [
        // Neither of the document's two shapes, a program and answers.
        (
            json!({ "problem": "stones", "language": "c", "source": "x", "answers": {"1": "First"} }),
            422,
        ),
        (json!({ "problem": "stones" }), 422),
        (json!({ "problem": "stones", "language": "c" }), 422),
        (json!({ "problem": "stones", "answers": { "1": 1 } }), 422),
        (json!([ "stones", { "1": "First" } ]), 422),
        (json!({ "problem": "stones", "answers": {} }), 400),
        (
            json!({ "problem": "chess", "answers": { "1": "First" } }),
            404,
        ),
        (
            json!({ "problem": "stones", "answers": { "1": "First" }, "version": 99 }),
            409,
        ),
        // JSON Schema's integers include 99.0, so the server takes it as 99.
        (
            json!({ "problem": "stones", "answers": { "1": "First" }, "version": 99.0 }),
            409,
        ),
        (
            json!({ "problem": "stones", "answers": { "1": "First" }, "version": 99.5 }),
            422,
        ),
    ] {
        let (status, doc) = post(&url, Some(&ana), body.clone()).await;
        assert_eq!(status, want, "{body}: {doc}");
        assert!(doc["message"].is_string());
    }
    for _ in 0..3 {
        let (status, doc) = post(
            &url,
            Some(&ana),
            json!({ "problem": "stones", "answers": { "1": "First" } }),
        )
        .await;
        assert_eq!(status, 201, "{doc}");
    }
    let response = client()
        .post(&url)
        .bearer_auth(&ana)
        .json(&json!({ "problem": "stones", "answers": { "1": "First" } }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["retry-after"], "60");
    let (status, doc) = json_of(response).await;
    assert_eq!(
        (status, doc["error"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("too_many_requests"))
    );
    let (status, _) = post(
        &url,
        Some(&bob),
        json!({ "problem": "stones", "answers": { "1": "First" } }),
    )
    .await;
    assert_eq!(status, 201, "the limit is per user");
    let (_, list) = get(&url, Some(&ana)).await;
    let list = list["submissions"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    assert!(
        list.iter()
            .all(|s| s["kind"] == "answers" && s["status"] == "queued")
    );
    let (_, one) = get(&format!("{url}/{}", list[0]["id"]), Some(&ana)).await;
    assert_eq!(one["source"], r#"{"1":"First"}"#);
    server.stop().await;
}

/// The names the issue promised to people who type a language (teaching material uses them).
const ALIASES: [(&str, &str); 9] = [
    ("cpp", "cpp20"),
    ("c++", "cpp20"),
    ("g++", "cpp20"),
    ("python", "python3"),
    ("py", "python3"),
    ("java", "java17"),
    ("js", "javascript"),
    ("node", "javascript"),
    ("rs", "rust"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_name_their_language_by_id_or_alias_and_keep_the_id() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let url = format!("{}/api/v1/submissions", server.url);
    let ana = server.user("ana", Role::Student).await;
    let program = |language: &str| json!({ "problem": "stones", "language": language, "source": "int main() {}" });
    let stored = |id: &Value| {
        let id = id.as_i64().unwrap();
        let store = &server.state.domain.store;
        async move { store.submission(id).await.unwrap().unwrap().language }
    };

    let (status, created) = post(&url, Some(&ana), program("G++")).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(stored(&created["id"]).await.as_deref(), Some("cpp20"));
    let (_, shown) = get(&format!("{url}/{}", created["id"]), Some(&ana)).await;
    assert_eq!(shown["language"], "cpp20", "{shown}");

    let python = std::path::Path::new("/usr/bin/python3").exists();
    if python {
        let (status, created) = post(&url, Some(&ana), program("py")).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(stored(&created["id"]).await.as_deref(), Some("python3"));
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("/usr/bin/python3 is missing in CI");
    } else {
        eprintln!("SKIPPED submitting with \"py\": /usr/bin/python3 is not installed");
    }

    let (status, refused) = post(&url, Some(&ana), program("pascal")).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"], "bad_request");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.starts_with(r#"unknown language "pascal"; accepted, in any case: "#),
        "{message}"
    );
    assert!(message.contains("cpp20 (also cpp, c++, g++)"), "{message}");
    assert!(
        !python || message.contains("python3 (also python, py)"),
        "{message}"
    );
    assert!(!message.contains('\n'), "one paragraph: {message}");

    // The problem lists each language's aliases, and the document names every one.
    let (_, stones) = get(&format!("{}/api/v1/problems/stones", server.url), None).await;
    let cpp = stones["languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "cpp20")
        .unwrap();
    assert_eq!(cpp["aliases"], json!(["cpp", "c++", "g++"]));
    let (_, doc) = get(&format!("{}/api/openapi.json", server.url), None).await;
    let field = &doc["components"]["schemas"]["NewProgram"]["properties"]["language"];
    assert_eq!(field["type"], "string", "{field}");
    let described = field["description"].as_str().unwrap();
    for (alias, id) in ALIASES {
        assert!(
            described.contains(&format!("`{alias}`")),
            "{alias}: {described}"
        );
        assert!(described.contains(&format!("`{id}`")), "{id}: {described}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn teachers_publish_packages_and_variants_that_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let base = server.url.clone();
    let teacher = server.user("tom", Role::Teacher).await;
    let other = server.user("tess", Role::Teacher).await;
    let student = server.user("ana", Role::Student).await;
    let good = zip_owned(&pebbles("# Pebbles\n\nTake $n$ pebbles.\n"));

    let (status, _) = upload(&base, &student, good.clone()).await;
    assert_eq!(status, 403);
    let (status, doc) = upload(&base, &teacher, good.clone()).await;
    assert_eq!(status, 201, "{doc}");
    assert_eq!(
        (
            doc["slug"].as_str(),
            doc["version"].as_u64(),
            doc["origin"].as_str()
        ),
        (Some("pebbles"), Some(1), Some("package"))
    );
    // A draft until its owner publishes it (drafts.rs tells who else sees one).
    assert_eq!(doc["published"], false);
    let (status, _) = get(&format!("{base}/api/v1/problems/pebbles"), None).await;
    assert_eq!(status, 404);
    let (status, doc) = post(
        &format!("{base}/api/v1/problems/pebbles/publish"),
        Some(&teacher),
        json!({}),
    )
    .await;
    assert_eq!((status.as_u16(), &doc["published"]), (200, &json!(true)));
    let (status, doc) = get(&format!("{base}/api/v1/problems/pebbles"), None).await;
    assert_eq!(status, 200);
    assert!(
        doc["statement_html"].as_str().unwrap().contains("<math"),
        "{doc}"
    );
    assert_eq!(doc["samples"][0]["answer"], "First\n");
    let (status, doc) = upload(&base, &teacher, good.clone()).await;
    assert_eq!((status.as_u16(), doc["version"].as_u64()), (201, Some(2)));
    let (status, doc) = upload(&base, &other, good.clone()).await;
    assert_eq!(status, 409, "another teacher's slug: {doc}");

    // Broken packages: a clear 422 naming the problem, nothing stored.
    let mut no_answer = pebbles("x");
    no_answer.retain(|(p, _)| *p != "pebbles/data/secret/b.ans");
    let mut no_statement = pebbles("x");
    no_statement.retain(|(p, _)| !p.contains("statement"));
    for (zip, mentions) in [
        (b"not a zip at all".to_vec(), "zip"),
        (zip_owned(&no_answer), "b.ans"),
        (zip_owned(&no_statement), "statement"),
        (zip_of(&[("../evil/problem.yaml", "name: x\n")]), ".."),
    ] {
        let (status, doc) = upload(&base, &teacher, zip).await;
        assert_eq!(
            (status.as_u16(), doc["error"].as_str()),
            (422, Some("invalid")),
            "{doc}"
        );
        assert!(doc["message"].as_str().unwrap().contains(mentions), "{doc}");
    }
    let mut builtin = pebbles("x");
    builtin[0].1 = "name: Stones\ngrundy:\n  slug: stones\n".into();
    let (status, _) = upload(&base, &teacher, zip_owned(&builtin)).await;
    assert_eq!(status, 409, "a built-in slug cannot be taken");
    let huge = vec![0u8; 300 << 10];
    let (status, doc) = upload(&base, &teacher, huge).await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (413, Some("too_large"))
    );

    // A variant of Stones from parameters.
    let variant = json!({
        "slug": "stones-tiny",
        "title": { "en": "Tiny stones" },
        "time_limit_ms": 1000,
        "subtasks": [
            { "name": "all", "points": 100, "tests": 5, "generator": { "max_n": 2, "max_k": 10 } }
        ]
    });
    let url = format!("{base}/api/v1/problems/stones/variants");
    assert_eq!(post(&url, Some(&student), variant.clone()).await.0, 403);
    let (status, doc) = post(&url, Some(&teacher), variant.clone()).await;
    assert_eq!(status, 201, "{doc}");
    assert_eq!(doc["origin"], "variant");
    let publish = format!("{base}/api/v1/problems/stones-tiny/publish");
    assert_eq!(post(&publish, Some(&teacher), json!({})).await.0, 200);
    let mut outside = variant.clone();
    outside["slug"] = "stones-huge".into();
    outside["subtasks"][0]["generator"]["max_k"] = 1_000_000_000.into();
    let (status, doc) = post(&url, Some(&teacher), outside).await;
    assert_eq!(status, 422, "{doc}");
    let (status, doc) = get(&format!("{base}/api/v1/problems/stones-tiny"), None).await;
    assert_eq!(status, 200);
    assert!(
        doc["statement_markdown"]
            .as_str()
            .unwrap()
            .contains("This variant")
    );
    assert_eq!(doc["time_limit_ms"], 1000);

    // Export: any problem as a package, for teachers.
    let export = |slug: &str, token: &str| {
        client()
            .get(format!("{base}/api/v1/problems/{slug}/package"))
            .bearer_auth(token)
            .send()
    };
    assert_eq!(export("stones", &student).await.unwrap().status(), 403);
    // A problem judged by its family's own checker does not fit a package: a conflict with what
    // it is, not a malformed request.
    let refused = export("chomp", &teacher).await.unwrap();
    assert_eq!(refused.status(), 409);
    assert_eq!(json_of(refused).await.1["error"], "conflict");
    let response = export("stones", &teacher).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let zip = response.bytes().await.unwrap();
    let exported = grundy_problems::read_zip(&zip, &ReadLimits::default()).unwrap();
    let stones = Catalogue::builtin().unwrap();
    let stones = stones.get("stones").unwrap();
    assert_eq!(
        exported.tests().map(|t| t.input).collect::<Vec<_>>(),
        stones.tests().map(|t| t.input).collect::<Vec<_>>()
    );
    server.stop().await;

    // A restart loads the custom problems back, at their versions.
    let server = Server::start(dir.path(), limits()).await;
    let (_, list) = get(&format!("{}/api/v1/problems", server.url), None).await;
    let find = |slug: &str| {
        list["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == slug)
            .cloned()
            .unwrap_or_else(|| panic!("{slug} is listed"))
    };
    assert_eq!(find("pebbles")["version"], 2);
    assert_eq!(find("stones-tiny")["origin"], "variant");
    assert_eq!(find("stones")["origin"], "builtin");
    let (status, doc) = post(
        &format!("{}/api/v1/submissions", server.url),
        Some(&teacher_again(&server).await),
        json!({ "problem": "pebbles", "answers": { "1": "First" } }),
    )
    .await;
    assert_eq!(
        status, 400,
        "a package's hidden tests cannot be answered: {doc}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_from_the_router_itself_are_json_too() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let ana = server.user("ana", Role::Student).await;
    let (status, doc) = get(
        &format!("{}/api/v1/submissions/abc", server.url),
        Some(&ana),
    )
    .await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (400, Some("bad_request")),
        "{doc}"
    );
    assert!(
        doc["message"].as_str().unwrap().contains("abc")
            || !doc["message"].as_str().unwrap().is_empty()
    );
    let (status, doc) = json_of(
        client()
            .delete(format!("{}/api/v1/problems", server.url))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (405, Some("method_not_allowed")),
        "{doc}"
    );
    let (status, doc) = get(&format!("{}/api/v1/nothing", server.url), None).await;
    assert_eq!(
        (status.as_u16(), doc["error"].as_str()),
        (404, Some("not_found"))
    );
    server.stop().await;
}

/// Reads server-sent events one at a time from a streaming response.
struct EventReader {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl EventReader {
    /// The next `(event, data)`, skipping keep-alive comments; fails after `within`.
    async fn next(&mut self) -> (String, Value) {
        let within = Duration::from_secs(10);
        let mut name = String::new();
        loop {
            while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let line = String::from_utf8(line).unwrap();
                let line = line.trim_end();
                if let Some(n) = line.strip_prefix("event:") {
                    name = n.trim().to_owned();
                } else if let Some(data) = line.strip_prefix("data:") {
                    return (name, serde_json::from_str(data.trim()).unwrap());
                }
            }
            let chunk = tokio::time::timeout(within, self.response.chunk())
                .await
                .expect("an event within 10 s")
                .unwrap()
                .expect("the stream goes on");
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_starts_over_when_another_worker_takes_over() {
    use grundy_store::{NewSubmission, Outcome, SubmissionKind, TestRow};

    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let ana = server.user("ana", Role::Student).await;
    let store = &server.state.domain.store;
    let user = store.user_by_name("ana").await.unwrap().unwrap();
    let now = grundy_server::now_ms();
    let id = store
        .create_submission(
            &NewSubmission {
                user_id: user.id,
                problem: "stones".into(),
                kind: SubmissionKind::Program,
                language: Some("cpp20".into()),
                source: b"int main() {}".to_vec(),
                priority: 0,
                assignment_id: None,
                instance_seed: None,
            },
            now,
        )
        .await
        .unwrap();
    let response = client()
        .get(format!("{}/api/v1/submissions/{id}/events", server.url))
        .bearer_auth(&ana)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut events = EventReader {
        response,
        buffer: Vec::new(),
    };
    let (name, data) = events.next().await;
    assert_eq!(
        (name.as_str(), data["status"].as_str()),
        ("state", Some("queued"))
    );

    let row = |position: i64, verdict: &str| TestRow {
        position,
        name: grundy_judge::TestName::new("samples", position as u32 + 1),
        verdict: grundy_judge::Verdict::parse(verdict).unwrap(),
        cpu_ms: 1,
        wall_ms: 1,
        memory_kib: 1024,
        message: None,
        detail: None,
        shown: None,
        transcript: None,
    };
    // The first worker judges two tests, then dies: its lease runs out.
    let lease = 60_000;
    store.claim("w1", now, lease, 3).await.unwrap().unwrap();
    for position in 0..2 {
        assert!(
            store
                .record_test(id, "w1", &row(position, "accepted"))
                .await
                .unwrap()
        );
    }
    server.state.domain.events.publish(id);
    let (name, data) = events.next().await;
    assert_eq!(
        (name.as_str(), data["attempt"].as_i64()),
        ("state", Some(1))
    );
    for position in 0..2 {
        let (name, data) = events.next().await;
        assert_eq!(
            (name.as_str(), data["position"].as_i64()),
            ("test", Some(position))
        );
    }

    // Another worker takes it over and starts from the first test again.
    let later = now + lease + 1;
    let claimed = store.claim("w2", later, lease, 3).await.unwrap().unwrap();
    assert_eq!((claimed.id, claimed.attempts), (id, 2));
    assert!(
        !store
            .record_test(id, "w1", &row(2, "accepted"))
            .await
            .unwrap(),
        "the stale worker writes nothing"
    );
    // A failed sample, with the data the judge keeps for it: the live row carries it.
    let failed = TestRow {
        shown: Some(grundy_judge::Shown {
            input: "2 4\n2 3\n".into(),
            expected: "First\n".into(),
            output: "Second\n".into(),
        }),
        ..row(0, "wrong_answer")
    };
    assert!(store.record_test(id, "w2", &failed).await.unwrap());
    server.state.domain.events.publish(id);
    let (name, data) = events.next().await;
    assert_eq!(
        (name.as_str(), data["attempt"].as_i64()),
        ("state", Some(2))
    );
    let (name, data) = events.next().await;
    assert_eq!(
        (
            name.as_str(),
            data["position"].as_i64(),
            data["verdict"].as_str()
        ),
        ("test", Some(0), Some("wrong_answer"))
    );
    assert_eq!(
        (
            data["input"].as_str(),
            data["expected"].as_str(),
            data["output"].as_str()
        ),
        (Some("2 4\n2 3\n"), Some("First\n"), Some("Second\n"))
    );
    let outcome = Outcome {
        verdict: grundy_judge::Verdict::WrongAnswer,
        score: 0,
        max_score: 100,
        compile_message: None,
        problem_version: 1,
    };
    assert!(store.finish(id, "w2", &outcome, later).await.unwrap());
    server.state.domain.events.publish(id);
    let (name, data) = events.next().await;
    assert_eq!(
        (name.as_str(), data["verdict"].as_str()),
        ("done", Some("wrong_answer"))
    );
    let labels: Vec<&str> = data["subtasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Subtask 1 (30 points)", "Subtask 2 (70 points)"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_messages_follow_accept_language_and_codes_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), limits()).await;
    let asked = |lang: &'static str| {
        client()
            .get(format!("{}/api/v1/problems/no-such-problem", server.url))
            .header("accept-language", lang)
            .send()
    };
    let (status, english) = json_of(asked("en").await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(english["error"], "not_found");
    assert!(
        english["message"].as_str().unwrap().contains("not found"),
        "{english}"
    );
    let (status, vietnamese) = json_of(asked("vi-VN,vi;q=0.9").await.unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(vietnamese["error"], "not_found");
    // With its detail: what was not found.
    assert_eq!(
        vietnamese["message"],
        "Không tìm thấy bài \"no-such-problem\"."
    );
    let (_, unauthorized) = json_of(
        client()
            .get(format!("{}/api/v1/submissions", server.url))
            .header("accept-language", "vi")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(unauthorized["error"], "unauthorized");
    assert!(
        unauthorized["message"]
            .as_str()
            .unwrap()
            .starts_with("Em cần đăng nhập"),
        "{unauthorized}"
    );
    server.stop().await;
}

/// The figure of the series `name` whose labels include `labels`, if it is shown.
fn figure(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    samples
        .iter()
        .find(|s| s.name == name && labels.iter().all(|(k, v)| s.label(k) == *v))
        .map(|s| s.value)
}

async fn scrape(url: &str) -> (String, Vec<Sample>) {
    let response = client().get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = response.text().await.unwrap();
    let samples = parse_exposition(&text).unwrap_or_else(|| panic!("unreadable:\n{text}"));
    (text, samples)
}

/// The operator's figures on a listener of their own: the queue per class read from the
/// database at each scrape (a rejudge waits from its rejudge, not from the submission), requests
/// counted by their route's template and never by their path; a second server in the same
/// process keeps counts of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_the_queue_and_requests_by_route_apart_from_the_api() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI64, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let store = grundy_store::Store::open_sqlite(&dir.path().join("grundy.db"))
        .await
        .unwrap();
    let now = Arc::new(AtomicI64::new(grundy_server::now_ms()));
    let read = now.clone();
    let clock = Clock::from_fn(move || read.load(Ordering::SeqCst));
    let server = Server::start_observed(store, RequestLimits::default(), clock).await;
    let other_dir = tempfile::tempdir().unwrap();
    let other_store = grundy_store::Store::open_sqlite(&other_dir.path().join("grundy.db"))
        .await
        .unwrap();
    let other =
        Server::start_observed(other_store, RequestLimits::default(), Clock::system()).await;
    let metrics = server.metrics_url.clone().unwrap();

    let student = server.user("sam", Role::Student).await;
    let admin = server.user("ada", Role::Admin).await;
    let submissions = format!("{}/api/v1/submissions", server.url);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, doc) = post(
            &submissions,
            Some(&student),
            json!({ "problem": "stones", "answers": { "1": "First" } }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{doc}");
        ids.push(doc["id"].as_i64().unwrap());
    }
    now.fetch_add(90_000, Ordering::SeqCst);
    let (status, doc) = post(
        &format!("{submissions}/{}/rejudge", ids[1]),
        Some(&admin),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{doc}");
    now.fetch_add(30_000, Ordering::SeqCst);
    let (status, _) = get(&format!("{submissions}/{}", ids[0]), Some(&student)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = get(&format!("{}/api/v1/no-such-thing", server.url), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Not beside the API.
    let (status, _) = get(&format!("{}/metrics", server.url), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (text, samples) = scrape(&metrics).await;
    promtool_accepts("metrics on their own listener", &text);
    let queue = |class: &str| {
        (
            figure(&samples, names::QUEUE_DEPTH, &[("class", class)]),
            figure(&samples, names::QUEUE_OLDEST_AGE, &[("class", class)]),
        )
    };
    assert_eq!(queue("practice"), (Some(1.0), Some(120.0)), "{text}");
    assert_eq!(queue("rejudge"), (Some(1.0), Some(30.0)), "{text}");
    assert_eq!(queue("assignment"), (Some(0.0), Some(0.0)), "{text}");
    let requests = |route: &str, method: &str, status: &str| {
        figure(
            &samples,
            names::HTTP_REQUESTS,
            &[("route", route), ("method", method), ("status", status)],
        )
    };
    assert_eq!(requests("/api/v1/submissions", "POST", "201"), Some(2.0));
    assert_eq!(
        requests("/api/v1/submissions/{id}/rejudge", "POST", "202"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        requests("/api/v1/submissions/{id}", "GET", "200"),
        Some(1.0)
    );
    assert_eq!(requests("unmatched", "GET", "404"), Some(2.0), "{text}");
    for sample in samples.iter().filter(|s| s.name == names::HTTP_REQUESTS) {
        assert!(
            !sample
                .label("route")
                .split('/')
                .any(|part| part.parse::<i64>().is_ok()),
            "a raw path: {sample:?}"
        );
    }
    // Nothing judged in process: no workers here.
    assert_eq!(
        figure(&samples, names::VERDICTS, &[("verdict", "accepted")]),
        Some(0.0)
    );
    assert_eq!(figure(&samples, names::WORKERS_ALIVE, &[]), Some(0.0));

    // The queue moves on between scrapes: the practice class emptied reads 0.
    judged_at_once(&server, ids[0]).await;
    let (_, samples) = scrape(&metrics).await;
    assert_eq!(
        figure(&samples, names::QUEUE_DEPTH, &[("class", "practice")]),
        Some(0.0)
    );

    // The other server saw none of these requests and none of this queue.
    let (_, theirs) = scrape(other.metrics_url.as_deref().unwrap()).await;
    assert!(
        theirs.iter().all(|s| s.name != names::HTTP_REQUESTS),
        "{theirs:?}"
    );
    assert_eq!(
        figure(&theirs, names::QUEUE_DEPTH, &[("class", "practice")]),
        Some(0.0)
    );
    other.stop().await;
    server.stop().await;
}

/// Takes submission `id` out of the queue as a worker would, judged at once.
async fn judged_at_once(server: &Server, id: i64) {
    let store = &server.state.domain.store;
    let claimed = store
        .claim("test-worker", grundy_server::now_ms(), 60_000, 3)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, id);
    let outcome = grundy_store::Outcome {
        verdict: grundy_judge::Verdict::Accepted,
        score: 100,
        max_score: 100,
        compile_message: None,
        problem_version: 1,
    };
    assert!(
        store
            .finish(id, "test-worker", &outcome, grundy_server::now_ms())
            .await
            .unwrap()
    );
}
