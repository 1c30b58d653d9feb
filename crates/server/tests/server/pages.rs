//! The web pages in process, over a real port 0, on SQLite, without workers (submissions are
//! only queued, never judged): registration under each policy, the login form and where it
//! sends people, which pages need whom, "not found" as a page or as JSON, the problem list and
//! its tag filter, statements and the language cookie, static assets, the submit and answer
//! forms with their CSRF protection, and the teachers' pages (submission filters, users and
//! roles, package uploads).
//!
//! Requests are made as a browser makes them, but by hand: redirects are not followed (so 303s
//! and `Location` can be checked), the session cookie is sent explicitly, and form posts carry
//! the `Origin` and `Sec-Fetch-Site` a browser adds. What a real browser renders is covered by
//! the browser test, judging by `crates/cli/tests/cli/service.rs`.

use std::path::Path;

use crate::common;

use common::{Browser, Server, textarea, unescape, zip_of};
use grundy_server::domain::accounts;
use grundy_server::{Registration, RequestLimits, SESSION_COOKIE};
use grundy_store::{
    NewSubmission, Outcome, Role, Submission, SubmissionKind, SubmissionQuery, SubmissionStatus,
};
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, ORIGIN, RETRY_AFTER, SET_COOKIE};
use reqwest::multipart::{Form, Part};
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

/// A user in the store and a session cookie (`grundy_session=…`) to browse as them.
struct Account {
    id: i64,
    cookie: String,
}

impl Account {
    fn cookie(&self) -> Option<&str> {
        Some(&self.cookie)
    }
}

/// Starts the server with a registration policy.
async fn start(dir: &Path, registration: Registration) -> Server {
    let limits = RequestLimits {
        registration,
        ..RequestLimits::default()
    };
    Server::start(dir, limits).await
}

/// Signed-in users and requests as a browser makes them.
trait PagesServer {
    async fn user(&self, name: &str, role: Role) -> Account;
    async fn role_of(&self, name: &str) -> Option<Role>;
    async fn submission(&self, id: i64) -> (Submission, String);
    async fn submission_count(&self, user: &Account) -> usize;
    fn cross_site_posts(&self, path: &str, cookie: Option<&str>) -> [RequestBuilder; 2];
}

impl PagesServer for Server {
    /// A user with the password `<name>-password`, signed in.
    async fn user(&self, name: &str, role: Role) -> Account {
        let user = self.create_user(name, role).await;
        let secret = accounts::start_session(&self.state.domain, user.id, None)
            .await
            .unwrap();
        Account {
            id: user.id,
            cookie: format!("{}={secret}", SESSION_COOKIE),
        }
    }

    async fn role_of(&self, name: &str) -> Option<Role> {
        let user = self.state.domain.store.user_by_name(name).await.unwrap();
        user.map(|u| u.role)
    }

    async fn submission(&self, id: i64) -> (Submission, String) {
        let store = &self.state.domain.store;
        let found = store.submission(id).await.unwrap().expect("stored");
        let source = store.submission_source(id).await.unwrap().unwrap();
        (found, String::from_utf8(source).unwrap())
    }

    async fn submission_count(&self, user: &Account) -> usize {
        let query = SubmissionQuery {
            user: Some(user.id),
            ..SubmissionQuery::default()
        };
        self.state
            .domain
            .store
            .submissions(&query)
            .await
            .unwrap()
            .len()
    }

    /// The same post made by a page on another site, told either way a browser tells it.
    fn cross_site_posts(&self, path: &str, cookie: Option<&str>) -> [RequestBuilder; 2] {
        [
            self.request(Method::POST, path, cookie)
                .header("sec-fetch-site", "cross-site"),
            self.request(Method::POST, path, cookie)
                .header(ORIGIN, "https://evil.example"),
        ]
    }
}

/// A response, read whole.
#[derive(Debug)]
struct Page {
    status: u16,
    location: String,
    retry_after: String,
    content_type: String,
    set_cookies: Vec<String>,
    body: Vec<u8>,
    html: String,
}

async fn page(request: RequestBuilder) -> Page {
    let response = request.send().await.unwrap();
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (status, location, content_type, retry_after) = (
        response.status().as_u16(),
        header(LOCATION),
        header(CONTENT_TYPE),
        header(RETRY_AFTER),
    );
    let set_cookies = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::to_owned))
        .collect();
    let body = response.bytes().await.unwrap().to_vec();
    let html = String::from_utf8_lossy(&body).into_owned();
    Page {
        status,
        location,
        retry_after,
        content_type,
        set_cookies,
        body,
        html,
    }
}

impl Page {
    /// The whole `Set-Cookie` line for the cookie `name`.
    fn set_cookie(&self, name: &str) -> Option<&str> {
        let prefix = format!("{name}=");
        self.set_cookies
            .iter()
            .find(|c| c.starts_with(&prefix))
            .map(String::as_str)
    }

    /// The new session's `name=value`, as the browser would send it back.
    fn session(&self) -> String {
        let line = self
            .set_cookie(SESSION_COOKIE)
            .unwrap_or_else(|| panic!("a session cookie in {:?}", self.set_cookies));
        line.split(';').next().unwrap().to_owned()
    }

    fn has_error_message(&self) -> bool {
        self.html.contains(r#"class="error" role="alert""#)
    }

    /// The submission a form redirected to.
    fn submission_id(&self) -> i64 {
        self.location
            .strip_prefix("/submissions/")
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("redirected to a submission: {self:?}"))
    }
}

#[track_caller]
fn assert_html(page: &Page, status: u16) {
    assert_eq!(page.status, status, "{}", page.html);
    assert!(
        page.content_type.starts_with("text/html"),
        "an HTML page, not {:?}: {}",
        page.content_type,
        page.html
    );
}

#[track_caller]
fn assert_redirect(page: &Page, location: &str) {
    assert_eq!(
        (page.status, page.location.as_str()),
        (303, location),
        "{}",
        page.html
    );
}

fn lists(html: &str, slug: &str) -> bool {
    html.contains(&format!(r#"data-slug="{slug}""#))
}

fn shows_submission(html: &str, id: i64) -> bool {
    html.contains(&format!(r#"data-id="{id}""#))
}

// Registration.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_registration_says_so_and_creates_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let form = page(server.get("/register", None)).await;
    assert_html(&form, 200);
    assert!(
        form.html.contains("Registration is closed"),
        "{}",
        form.html
    );
    assert!(
        !form.html.contains(r#"action="/register""#),
        "no form to fill"
    );

    let refused = page(
        server
            .post("/register", None)
            .form(&[("name", "newbie"), ("password", "newbie-password")]),
    )
    .await;
    assert_html(&refused, 403);
    assert!(refused.set_cookie(SESSION_COOKIE).is_none());
    assert_eq!(server.role_of("newbie").await, None);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitation_registration_needs_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Invitation("letmein".into())).await;
    let form = page(server.get("/register", None)).await;
    assert_html(&form, 200);
    assert!(form.html.contains(r#"name="code""#), "{}", form.html);

    for code in ["", "letme", "LETMEIN", "letmein2"] {
        let refused = page(server.post("/register", None).form(&[
            ("name", "newbie"),
            ("password", "newbie-password"),
            ("code", code),
        ]))
        .await;
        assert_html(&refused, 403);
        assert!(refused.has_error_message(), "{code:?}: {}", refused.html);
        assert!(refused.set_cookie(SESSION_COOKIE).is_none());
        assert_eq!(server.role_of("newbie").await, None, "{code:?}");
    }

    let welcomed = page(server.post("/register", None).form(&[
        ("name", "newbie"),
        ("password", "newbie-password"),
        ("code", "letmein"),
    ]))
    .await;
    assert_redirect(&welcomed, "/problems");
    assert_eq!(server.role_of("newbie").await, Some(Role::Student));
    // Registering signs in at once.
    let mine = page(server.get("/submissions", Some(welcomed.session().as_str()))).await;
    assert_html(&mine, 200);
    assert!(mine.html.contains(">newbie<"), "{}", mine.html);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_registration_refuses_taken_names_and_short_passwords() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Open).await;
    let register = |name: &'static str, password: &'static str| {
        page(
            server
                .post("/register", None)
                .form(&[("name", name), ("password", password)]),
        )
    };
    let first = register("ana", "ana-password").await;
    assert_redirect(&first, "/problems");
    first.session();
    assert_eq!(server.role_of("ana").await, Some(Role::Student));

    let again = register("ana", "another-password").await;
    assert_html(&again, 409);
    assert!(again.has_error_message(), "{}", again.html);
    assert!(again.set_cookie(SESSION_COOKIE).is_none());
    let users = server.state.domain.store.users().await.unwrap();
    assert_eq!(users.iter().filter(|u| u.name == "ana").count(), 1);

    // Seven characters are one too few; eight will do.
    let short = register("bo", "seven77").await;
    assert_html(&short, 400);
    assert!(short.has_error_message(), "{}", short.html);
    assert_eq!(server.role_of("bo").await, None);
    assert_redirect(&register("bo", "eight888").await, "/problems");

    assert_html(&register("x y", "a-long-password").await, 400);
    assert_eq!(server.role_of("x y").await, None);

    // A form missing a field is refused by the extractor; a browser still gets a page.
    let missing = page(server.post("/register", None).form(&[("name", "cy")])).await;
    assert_html(&missing, 422);
    assert_eq!(server.role_of("cy").await, None);
    server.stop().await;
}

// Signing in and out, and who may see what.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_login_form_signs_in_sends_back_only_locally_and_signs_out() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    server.user("ana", Role::Student).await;
    let login = |password: &'static str, next: &'static str| {
        page(server.post("/login", None).form(&[
            ("name", "ana"),
            ("password", password),
            ("next", next),
        ]))
    };

    let form = page(server.get("/login?next=/problems/stones", None)).await;
    assert_html(&form, 200);
    assert!(
        form.html
            .contains(r#"name="next" value="/problems/stones""#),
        "{}",
        form.html
    );
    let form = page(server.get("/login?next=//evil.example/", None)).await;
    assert!(
        form.html.contains(r#"name="next" value="/problems""#),
        "{}",
        form.html
    );

    let signed_in = login("ana-password", "/problems/stones").await;
    assert_redirect(&signed_in, "/problems/stones");
    let line = signed_in.set_cookie(SESSION_COOKIE).unwrap();
    assert!(line.contains("HttpOnly"), "{line}");
    let cookie = signed_in.session();
    for hostile in [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
    ] {
        assert_redirect(&login("ana-password", hostile).await, "/problems");
    }

    let refused = login("not-ana-password", "/problems/stones").await;
    assert_html(&refused, 401);
    assert!(
        refused.html.contains("wrong name or password"),
        "{}",
        refused.html
    );
    assert!(refused.set_cookie(SESSION_COOKIE).is_none());
    assert!(refused.html.contains(r#"value="ana""#), "the name is kept");

    assert_html(
        &page(server.get("/submissions", Some(cookie.as_str()))).await,
        200,
    );
    let out = page(server.post("/logout", Some(cookie.as_str()))).await;
    assert_eq!(out.status, 303, "{}", out.html);
    let cleared = out.set_cookie(SESSION_COOKIE).unwrap();
    assert!(
        cleared.starts_with(&format!("{}=;", SESSION_COOKIE)) && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    let after = page(server.get("/submissions", Some(cookie.as_str()))).await;
    assert_eq!(after.status, 303);
    assert!(after.location.starts_with("/login?next="), "{after:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_ask_for_a_login_or_the_right_role() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let student = server.user("ana", Role::Student).await;
    let teacher = server.user("tom", Role::Teacher).await;
    let admin = server.user("root", Role::Admin).await;

    for path in ["/submissions", "/problems/stones/answers"] {
        let sent = page(server.get(path, None)).await;
        assert_eq!(sent.status, 303, "{path}");
        assert!(sent.location.starts_with("/login?next="), "{sent:?}");
        assert!(sent.location.contains(path), "{sent:?}");
        // The login page remembers where the visitor was going.
        let login = page(server.get(&sent.location, None)).await;
        assert_html(&login, 200);
        assert!(
            login
                .html
                .contains(&format!(r#"name="next" value="{path}""#)),
            "{}",
            login.html
        );
    }

    for path in [
        "/teach",
        "/teach/submissions",
        "/teach/users",
        "/teach/upload",
    ] {
        assert_html(&page(server.get(path, student.cookie())).await, 403);
    }
    for account in [&teacher, &admin] {
        let teach = page(server.get("/teach", account.cookie())).await;
        assert_html(&teach, 200);
        assert!(lists(&teach.html, "stones"), "{}", teach.html);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_addresses_get_a_page_or_json_as_fits() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let student = server.user("ana", Role::Student).await;
    assert_html(&page(server.get("/no-such-page", None)).await, 404);
    let problem = page(server.get("/problems/no-such-problem", None)).await;
    assert_html(&problem, 404);
    assert!(problem.html.contains("no-such-problem"), "{}", problem.html);
    // An error page that does not know who asks offers no "Log in" to someone signed in.
    let signed_in = page(server.get("/problems/no-such-problem", student.cookie())).await;
    assert_html(&signed_in, 404);
    assert!(
        !signed_in.html.contains(r#"href="/login""#),
        "{}",
        signed_in.html
    );
    assert_html(
        &page(server.get("/submissions/987654", student.cookie())).await,
        404,
    );

    let api = page(server.get("/api/v1/nope", None)).await;
    assert_eq!(api.status, 404);
    assert!(api.content_type.starts_with("application/json"), "{api:?}");
    let doc: Value = serde_json::from_slice(&api.body).unwrap();
    assert_eq!(doc["error"], "not_found");
    server.stop().await;
}

// Problems, statements and assets.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_problem_list_filters_by_tag_and_statements_follow_the_chosen_language() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    for path in ["/", "/problems"] {
        let list = page(server.get(path, None)).await;
        assert_html(&list, 200);
        assert!(
            lists(&list.html, "stones") && lists(&list.html, "nim"),
            "{path}"
        );
    }
    // Stones is tagged dp; Nim is not.
    let dp = page(server.get("/problems?tag=dp", None)).await;
    assert_html(&dp, 200);
    assert!(lists(&dp.html, "stones"), "{}", dp.html);
    assert!(!lists(&dp.html, "nim"), "{}", dp.html);

    let english = page(server.get("/problems/stones", None)).await;
    assert_html(&english, 200);
    assert!(english.html.contains("<math"), "MathML: {}", english.html);
    assert!(english.html.contains("<h1>Stones</h1>"), "{}", english.html);
    assert!(english.set_cookie("grundy_lang").is_none());

    // A statement language picked on the page is for that page; the interface's cookie (the
    // language switch's) chooses the statement elsewhere.
    let chosen = page(server.get("/problems/stones?lang=vi", None)).await;
    assert_html(&chosen, 200);
    assert!(chosen.html.contains("<h1>Bốc đá</h1>"), "{}", chosen.html);
    assert!(chosen.set_cookie("grundy_lang").is_none());
    let later = page(server.get("/problems/stones", Some("grundy_lang=vi"))).await;
    assert!(later.html.contains("<h1>Bốc đá</h1>"), "{}", later.html);

    // A language the statement is not written in is neither shown nor remembered.
    let unknown = page(server.get("/problems/stones?lang=xx", None)).await;
    assert_html(&unknown, 200);
    assert!(unknown.html.contains("<h1>Stones</h1>"), "{}", unknown.html);
    assert!(unknown.set_cookie("grundy_lang").is_none());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assets_are_served_with_their_types_and_nothing_else_is() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    for (path, content_type) in [
        ("/assets/htmx.min.js", "text/javascript"),
        ("/assets/grundy.js", "text/javascript"),
        ("/assets/grundy.css", "text/css"),
        ("/assets/statement.css", "text/css"),
        ("/assets/font/latinmodern-math.woff2", "font/woff2"),
    ] {
        let asset = page(server.get(path, None)).await;
        assert_eq!(asset.status, 200, "{path}");
        assert!(
            asset.content_type.starts_with(content_type),
            "{path}: {}",
            asset.content_type
        );
        assert!(!asset.body.is_empty(), "{path}");
    }
    let font = page(server.get("/assets/font/latinmodern-math.woff2", None)).await;
    assert!(font.body.starts_with(b"wOF2"), "a WOFF2 file");

    // Assets may be cached; pages, which show private things, may not.
    let cache_control = |path: &'static str| {
        let request = server.get(path, None);
        async move {
            let response = request.send().await.unwrap();
            response
                .headers()
                .get(CACHE_CONTROL)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        }
    };
    assert!(
        cache_control("/assets/grundy.css")
            .await
            .starts_with("public")
    );
    for path in ["/problems", "/problems/stones", "/login"] {
        assert_eq!(cache_control(path).await, "no-store", "{path}");
    }

    // Encoded slashes reach the handler as one name, which must not be read as a path.
    for path in [
        "/assets/font/..%2F..%2F..%2Fetc%2Fpasswd",
        "/assets/..%2F..%2FCargo.toml",
        "/assets/font/..%2Fgrundy.css",
        "/assets/font/nope.woff2",
        "/assets/nope.js",
    ] {
        let missing = page(server.get(path, None)).await;
        assert_eq!(missing.status, 404, "{path}: {}", missing.html);
    }
    server.stop().await;
}

// Submitting.

const PASTED: &str = "int main() { return 0; }\n";

fn program(language: &str, source: &str) -> Form {
    Form::new()
        .text("language", language.to_owned())
        .text("source", source.to_owned())
}

/// A course taught by `teacher` with `student` in it and an assignment of Stones: the teacher
/// sees what the student submits for it.
async fn teaches(server: &Server, teacher: &Account, student: &Account) -> i64 {
    let store = &server.state.domain.store;
    let course = store
        .create_course("Games", &format!("CODE{}", student.id), teacher.id, 1)
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            student.id,
            grundy_store::MemberRole::Student,
            grundy_store::MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    let spec = grundy_store::AssignmentSpec {
        title: "Week 1".into(),
        opens_at: 0,
        due_at: i64::from(i32::MAX) * 1000,
        closes_at: i64::from(i32::MAX) * 1000,
        penalty_percent: 0,
        penalty_step_ms: 86_400_000,
        scoring: grundy_store::Scoring::Best,
        feedback: grundy_store::Feedback::Tests,
        personal_tests: false,
        run_every_test: false,
        problems: vec!["stones".into()],
    };
    store
        .create_assignment(course.id, &spec, 1)
        .await
        .unwrap()
        .id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_are_queued_through_the_submit_form() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let bob = server.user("bob", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let zoe = server.user("zoe", Role::Teacher).await;
    teaches(&server, &tom, &ana).await;
    let submit = |form: Form| {
        page(
            server
                .post("/problems/stones/submit", ana.cookie())
                .multipart(form),
        )
    };

    // The form starts at the default C++, the language `cpp` names.
    let form = page(server.get("/problems/stones", ana.cookie())).await;
    assert!(
        form.html.contains(r#"<option value="cpp20" selected>"#),
        "{}",
        form.html
    );

    let pasted = submit(program("cpp20", PASTED)).await;
    let first = pasted.submission_id();
    assert_redirect(&pasted, &format!("/submissions/{first}"));
    let (stored, source) = server.submission(first).await;
    assert_eq!(
        (
            stored.user_id,
            stored.kind,
            stored.language.as_deref(),
            stored.status
        ),
        (
            ana.id,
            SubmissionKind::Program,
            Some("cpp20"),
            SubmissionStatus::Queued
        )
    );
    assert_eq!(source, PASTED);

    let uploaded = "int main() { return 7; }\n";
    let with_file = program("cpp20", "// pasted, then a file chosen\n").part(
        "file",
        Part::bytes(uploaded.as_bytes().to_vec()).file_name("main.cpp"),
    );
    let id = submit(with_file).await.submission_id();
    assert_eq!(server.submission(id).await.1, uploaded, "the file wins");
    // A browser sends an empty file part when no file is chosen.
    let no_file = program("cpp20", PASTED).part("file", Part::bytes(Vec::new()).file_name(""));
    let id = submit(no_file).await.submission_id();
    assert_eq!(server.submission(id).await.1, PASTED);
    assert_eq!(server.submission_count(&ana).await, 3);

    let typed = "int main() { return 1 < 2; }";
    let refused = submit(program("cobol", typed)).await;
    assert_html(&refused, 400);
    assert!(refused.has_error_message(), "{}", refused.html);
    let kept = textarea(&refused.html, "source");
    assert!(!kept.contains('<'), "escaped: {kept}");
    assert_eq!(unescape(kept), typed, "the source is kept");
    for request in server.cross_site_posts("/problems/stones/submit", ana.cookie()) {
        let refused = page(request.multipart(program("cpp20", PASTED))).await;
        assert_html(&refused, 403);
    }
    // Signed out, the form sends the visitor to log in and back to the problem, not the list.
    let signed_out = page(
        server
            .post("/problems/stones/submit", None)
            .multipart(program("cpp20", PASTED)),
    )
    .await;
    assert_redirect(&signed_out, "/login?next=/problems/stones");
    assert_eq!(
        server.submission_count(&ana).await,
        3,
        "nothing more queued"
    );

    let own = page(server.get(&format!("/submissions/{first}"), ana.cookie())).await;
    assert_html(&own, 200);
    assert!(own.html.contains(r#"data-live="true""#), "{}", own.html);
    assert!(own.html.contains(PASTED.trim()), "{}", own.html);
    assert_html(
        &page(server.get(&format!("/submissions/{first}"), bob.cookie())).await,
        404,
    );
    // Her teacher sees her assignments' work, not her practice.
    assert_html(
        &page(server.get(&format!("/submissions/{first}"), tom.cookie())).await,
        404,
    );
    assert_html(
        &page(server.get(&format!("/submissions/{first}"), zoe.cookie())).await,
        404,
    );
    let listed = page(server.get("/submissions", ana.cookie())).await;
    assert!(shows_submission(&listed.html, first), "{}", listed.html);
    let listed = page(server.get("/submissions", bob.cookie())).await;
    assert!(!shows_submission(&listed.html, first), "{}", listed.html);

    // Past the rate limit the form comes back with the reason and when to try again.
    let limited = loop {
        let sent = page(
            server
                .post("/problems/stones/submit", bob.cookie())
                .multipart(program("cpp20", PASTED)),
        )
        .await;
        if sent.status != 303 {
            break sent;
        }
        assert!(server.submission_count(&bob).await <= 20, "the limit holds");
    };
    assert_html(&limited, 429);
    assert!(limited.has_error_message(), "{}", limited.html);
    assert_eq!(limited.retry_after, "60");
    server.stop().await;
}

/// The `answer:<instance>` field names of an answer form.
fn answer_fields(html: &str) -> Vec<String> {
    html.split(r#"name=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| name.starts_with("answer:"))
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_queued_through_the_answer_form() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let version = server
        .state
        .domain
        .problems
        .get("stones")
        .unwrap()
        .problem
        .spec
        .version;

    let form = page(server.get("/problems/stones/answers", ana.cookie())).await;
    assert_html(&form, 200);
    let fields = answer_fields(&form.html);
    assert!(!fields.is_empty(), "{}", form.html);
    assert!(
        form.html
            .contains(&format!(r#"name="version" value="{version}""#))
    );

    // Every box is sent, as a browser sends them; only the filled one counts.
    let answered = |version: u32| -> Vec<(String, String)> {
        let mut body = vec![("version".to_owned(), version.to_string())];
        for (i, field) in fields.iter().enumerate() {
            let answer = if i == 0 { "First" } else { "" };
            body.push((field.clone(), answer.to_owned()));
        }
        body
    };
    let sent = page(
        server
            .post("/problems/stones/answers", ana.cookie())
            .form(&answered(version)),
    )
    .await;
    let id = sent.submission_id();
    assert_redirect(&sent, &format!("/submissions/{id}"));
    let (stored, source) = server.submission(id).await;
    assert_eq!(
        (stored.kind, stored.user_id),
        (SubmissionKind::Answers, ana.id)
    );
    let instance = fields[0].strip_prefix("answer:").unwrap();
    let source: Value = serde_json::from_str(&source).unwrap();
    assert_eq!(source, json!({ instance: "First" }));

    let stale = page(
        server
            .post("/problems/stones/answers", ana.cookie())
            .form(&answered(version + 1)),
    )
    .await;
    assert_html(&stale, 409);
    assert!(stale.has_error_message(), "{}", stale.html);
    // Answers typed for another version's instances are not put back in the new boxes.
    assert!(
        !stale.html.contains(">First</textarea>"),
        "stale answers are dropped"
    );
    for request in server.cross_site_posts("/problems/stones/answers", ana.cookie()) {
        assert_eq!(page(request.form(&answered(version))).await.status, 403);
    }
    assert_eq!(server.submission_count(&ana).await, 1);
    server.stop().await;
}

// Teachers' pages.

async fn queue_program(server: &Server, user: &Account, assignment: Option<i64>) -> i64 {
    let new = NewSubmission {
        user_id: user.id,
        problem: "stones".into(),
        kind: SubmissionKind::Program,
        language: Some("cpp20".into()),
        source: PASTED.as_bytes().to_vec(),
        priority: 0,
        assignment_id: assignment,
        instance_seed: None,
    };
    let now = grundy_server::now_ms();
    server
        .state
        .domain
        .store
        .create_submission(&new, now)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn teachers_filter_submissions_by_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let zoe = server.user("zoe", Role::Teacher).await;
    let homework = teaches(&server, &tom, &ana).await;
    let store = &server.state.domain.store;
    // One submission judged wrong, one still queued: a verdict filter tells them apart.
    let judged = queue_program(&server, &ana, Some(homework)).await;
    let now = grundy_server::now_ms();
    let claimed = store.claim("w1", now, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(claimed.id, judged);
    let outcome = Outcome {
        verdict: grundy_judge::Verdict::WrongAnswer,
        score: 0,
        max_score: 100,
        compile_message: None,
        problem_version: 1,
    };
    assert!(store.finish(judged, "w1", &outcome, now).await.unwrap());
    let queued = queue_program(&server, &ana, Some(homework)).await;
    let practice = queue_program(&server, &ana, None).await;

    let filtered =
        |query: &'static str| page(server.get(&format!("/teach/submissions{query}"), tom.cookie()));
    let all = filtered("").await;
    assert_html(&all, 200);
    assert!(shows_submission(&all.html, judged) && shows_submission(&all.html, queued));
    assert!(
        !shows_submission(&all.html, practice),
        "a student's practice is not their teacher's to see"
    );
    let outside = page(server.get("/teach/submissions", zoe.cookie())).await;
    assert!(
        !shows_submission(&outside.html, judged) && !shows_submission(&outside.html, queued),
        "a teacher sees only the students of their courses"
    );
    let wrong = filtered("?verdict=wrong_answer").await;
    assert_html(&wrong, 200);
    assert!(shows_submission(&wrong.html, judged), "{}", wrong.html);
    assert!(!shows_submission(&wrong.html, queued), "{}", wrong.html);
    assert!(
        wrong
            .html
            .contains(r#"<option value="wrong_answer" selected>"#),
        "the filter stays chosen"
    );
    let accepted = filtered("?verdict=accepted&problem=stones&user=ana").await;
    assert_html(&accepted, 200);
    assert!(!shows_submission(&accepted.html, judged) && !shows_submission(&accepted.html, queued));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admins_make_accounts_and_roles_and_teachers_list_their_courses_people() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let bea = server.user("bea", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let root = server.user("root", Role::Admin).await;
    let create = |who: &Account, name: &'static str, role: &'static str| {
        page(server.post("/teach/users", who.cookie()).form(&[
            ("name", name),
            ("role", role),
            ("password", "a-long-password"),
        ]))
    };

    // A teacher's list is no directory of the school: Ana is in no course of Tom's.
    let users = page(server.get("/teach/users", tom.cookie())).await;
    assert_html(&users, 200);
    assert!(!users.html.contains(r#"data-user="ana""#), "{}", users.html);
    assert!(users.html.contains(r#"id="users-hint""#), "{}", users.html);
    let users = page(server.get("/teach/users", root.cookie())).await;
    assert!(users.html.contains(r#"data-user="ana""#), "{}", users.html);

    // Accounts are made by admins, or by a course's import: a teacher's own would be nobody's.
    let created = create(&root, "sam", "student").await;
    assert_eq!(created.status, 303, "{}", created.html);
    assert!(created.location.starts_with("/teach/users"), "{created:?}");
    assert_eq!(server.role_of("sam").await, Some(Role::Student));
    for (name, role) in [("boss", "admin"), ("tess", "teacher"), ("sly", "student")] {
        assert_html(&create(&tom, name, role).await, 403);
        assert_eq!(server.role_of(name).await, None, "{role}");
    }
    assert_html(&create(&ana, "sly", "student").await, 403);
    assert_eq!(server.role_of("sly").await, None);

    let promote = |who: &Account, target: &Account| {
        page(
            server
                .post(&format!("/teach/users/{}", target.id), who.cookie())
                .form(&[("role", "teacher")]),
        )
    };
    let promoted = promote(&root, &ana).await;
    assert_eq!(promoted.status, 303, "{}", promoted.html);
    assert_eq!(server.role_of("ana").await, Some(Role::Teacher));
    assert_html(&promote(&tom, &bea).await, 403);
    assert_eq!(server.role_of("bea").await, Some(Role::Student));

    // A role that does not exist is a bad request, even from an admin.
    assert_html(&create(&root, "wiz", "wizard").await, 400);
    assert_eq!(server.role_of("wiz").await, None);
    let unknown = page(
        server
            .post(&format!("/teach/users/{}", bea.id), root.cookie())
            .form(&[("role", "wizard")]),
    )
    .await;
    assert_html(&unknown, 400);
    assert_eq!(server.role_of("bea").await, Some(Role::Student));
    server.stop().await;
}

/// A small Kattis package: "print First when n is odd".
fn pebbles() -> Vec<u8> {
    zip_of(&[
        (
            "pebbles/problem.yaml",
            "name: Pebbles\nlimits:\n  time_limit: 1\n  memory: 256\n",
        ),
        (
            "pebbles/statement/problem.en.md",
            "# Pebbles\n\nTake $n$ pebbles.\n",
        ),
        ("pebbles/data/sample/1.in", "3\n"),
        ("pebbles/data/sample/1.ans", "First\n"),
        ("pebbles/data/secret/a.in", "4\n"),
        ("pebbles/data/secret/a.ans", "Second\n"),
    ])
}

fn package(bytes: Vec<u8>) -> Form {
    let part = Part::bytes(bytes)
        .file_name("package.zip")
        .mime_str("application/zip")
        .unwrap();
    Form::new().part("package", part)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn teachers_upload_packages_through_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let upload = |who: &Account, form: Form| {
        page(server.post("/teach/upload", who.cookie()).multipart(form))
    };
    let version = || {
        server
            .state
            .domain
            .problems
            .get("pebbles")
            .map(|e| e.problem.spec.version)
    };

    assert_html(&upload(&ana, package(pebbles())).await, 403);
    for request in server.cross_site_posts("/teach/upload", tom.cookie()) {
        assert_eq!(
            page(request.multipart(package(pebbles()))).await.status,
            403
        );
    }
    assert_eq!(version(), None);

    let uploaded = upload(&tom, package(pebbles())).await;
    assert_eq!(uploaded.status, 303, "{}", uploaded.html);
    assert_redirect(&uploaded, "/teach?uploaded=pebbles");
    let notice = page(server.get(&uploaded.location, tom.cookie())).await;
    assert_html(&notice, 200);
    assert!(
        notice
            .html
            .contains("pebbles is stored at version 1 as a draft"),
        "{}",
        notice.html
    );
    // A draft: listed for its owner, with a button to publish it, and for nobody else.
    assert!(
        notice
            .html
            .contains(r#"action="/teach/problems/pebbles/publish""#)
    );
    assert!(lists(
        &page(server.get("/problems", tom.cookie())).await.html,
        "pebbles"
    ));
    for who in [None, ana.cookie()] {
        assert!(!lists(
            &page(server.get("/problems", who)).await.html,
            "pebbles"
        ));
        assert_html(&page(server.get("/problems/pebbles", who)).await, 404);
    }
    let publish = "/teach/problems/pebbles/publish";
    assert_html(&page(server.post(publish, ana.cookie())).await, 403);
    let published = page(server.post(publish, tom.cookie())).await;
    assert_redirect(&published, "/teach?published=pebbles");
    let notice = page(server.get(&published.location, tom.cookie())).await;
    assert!(
        notice
            .html
            .contains("pebbles is published: everyone sees it now"),
        "{}",
        notice.html
    );
    assert!(
        !notice
            .html
            .contains(r#"action="/teach/problems/pebbles/publish""#)
    );
    // Notices are worded by the page from what it can check: a crafted link shows nothing.
    for crafted in [
        "/teach?notice=Session+expired%3A+sign+in+at+evil.example",
        "/teach?published=Session+expired",
        "/teach?uploaded=Session+expired",
        "/teach/users?role_of=Session+expired",
    ] {
        let shown = page(server.get(crafted, tom.cookie())).await;
        assert_html(&shown, 200);
        assert!(
            !shown.html.contains(r#"class="notice""#),
            "{crafted}: {}",
            shown.html
        );
    }
    assert!(lists(
        &page(server.get("/problems", None)).await.html,
        "pebbles"
    ));
    assert_eq!(version(), Some(1));

    let broken = upload(&tom, package(b"not a zip at all".to_vec())).await;
    assert_html(&broken, 422);
    assert!(broken.has_error_message(), "{}", broken.html);
    // A browser sends an empty part when no file is chosen.
    assert_html(&upload(&tom, package(Vec::new())).await, 400);
    assert_eq!(version(), Some(1), "nothing more was published");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn course_pages_keep_each_course_to_its_members() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let tom = server.user("tom", Role::Teacher).await;
    let zoe = server.user("zoe", Role::Teacher).await;
    let ana = server.user("ana", Role::Student).await;
    let bob = server.user("bob", Role::Student).await;

    // A course from the form; a student joins with its code; creating one is for teachers.
    let made = page(
        server
            .post("/courses", tom.cookie())
            .form(&[("title", "Games 101")]),
    )
    .await;
    assert_eq!(made.status, 303, "{}", made.html);
    let course_path = made.location.clone();
    let course = page(server.get(&course_path, tom.cookie())).await;
    assert_html(&course, 200);
    let code = between(&course.html, r#"id="course-code" class="code">"#, "<").to_owned();
    assert_eq!(code.len(), 8, "{}", course.html);
    let joined = page(
        server
            .post("/courses/join", ana.cookie())
            .form(&[("code", code.as_str())]),
    )
    .await;
    assert_redirect(&joined, &course_path);
    let refused = page(
        server
            .post("/courses", ana.cookie())
            .form(&[("title", "Mine")]),
    )
    .await;
    assert_html(&refused, 403);
    assert_html(&page(server.get(&course_path, bob.cookie())).await, 404);
    assert_html(&page(server.get(&course_path, zoe.cookie())).await, 404);
    let seen_by_ana = page(server.get(&course_path, ana.cookie())).await;
    assert!(
        !seen_by_ana.html.contains(&code),
        "students are not shown the code"
    );

    // An assignment from the form: the multiple select sends `problems` twice.
    let new_path = format!("{course_path}/assignments");
    let fields = |closes: &'static str| {
        vec![
            ("title", "Week 1"),
            ("opens", "2020-01-01T00:00"),
            ("due", "2099-01-01T00:00"),
            ("closes", closes),
            ("penalty_percent", "10"),
            ("penalty_step_hours", "24"),
            ("scoring", "best"),
            ("feedback", "inputs"),
            ("personal_tests", "on"),
            ("problems", "stones"),
            ("problems", "nim"),
        ]
    };
    let refused = page(
        server
            .post(&new_path, tom.cookie())
            .form(&fields("2098-01-01T00:00")),
    )
    .await;
    assert_html(&refused, 400);
    assert!(
        refused.has_error_message() && refused.html.contains("value=\"Week 1\""),
        "{}",
        refused.html
    );
    assert_html(
        &page(
            server
                .post(&new_path, ana.cookie())
                .form(&fields("2099-01-02T00:00")),
        )
        .await,
        403,
    );
    let created = page(
        server
            .post(&new_path, tom.cookie())
            .form(&fields("2099-01-02T00:00")),
    )
    .await;
    assert_eq!(created.status, 303, "{}", created.html);
    let assignment_path = created.location.clone();
    let id: i64 = assignment_path.rsplit('/').next().unwrap().parse().unwrap();
    let stored = server
        .state
        .domain
        .store
        .assignment(id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.spec.problems, ["stones", "nim"]);
    assert!(stored.spec.personal_tests);
    assert_eq!(
        stored.spec.due_at, 4_070_908_800_000,
        "2099-01-01T00:00 read as UTC"
    );

    // Students see their standing, teachers the gradebook, outsiders nothing.
    let standing = page(server.get(&assignment_path, ana.cookie())).await;
    assert_html(&standing, 200);
    assert!(
        standing.html.contains(r#"id="standing""#) && !standing.html.contains(r#"id="gradebook""#)
    );
    let book = page(server.get(&assignment_path, tom.cookie())).await;
    assert!(
        book.html.contains(r#"tr data-student="ana""#),
        "{}",
        book.html
    );
    for outsider in [&bob, &zoe] {
        assert_html(
            &page(server.get(&assignment_path, outsider.cookie())).await,
            404,
        );
    }
    let for_assignment = format!("/problems/stones?assignment={id}");
    let problem = page(server.get(&for_assignment, ana.cookie())).await;
    assert!(
        problem
            .html
            .contains(&format!(r#"name="assignment" value="{id}""#))
    );
    assert_html(&page(server.get(&for_assignment, bob.cookie())).await, 404);
    assert_html(
        &page(server.get(&format!("/problems/wythoff?assignment={id}"), ana.cookie())).await,
        404,
    );

    // The program form submits to the assignment.
    let form = Form::new()
        .text("language", "cpp20")
        .text("source", "int main() {}")
        .text("assignment", id.to_string());
    let sent = page(
        server
            .post("/problems/stones/submit", ana.cookie())
            .multipart(form),
    )
    .await;
    assert_eq!(sent.status, 303, "{}", sent.html);
    let (submission, _) = server.submission(sent.submission_id()).await;
    assert_eq!(submission.assignment_id, Some(id));
    assert!(
        submission.instance_seed.is_some(),
        "the form's personal tests checkbox: programs also run on the student's instances"
    );

    // Personal answer instances, and the teacher's tools for them.
    let practice = page(server.get("/problems/nim/answers", ana.cookie())).await;
    let homework = page(server.get(
        &format!("/problems/nim/answers?assignment={id}"),
        ana.cookie(),
    ))
    .await;
    assert!(
        homework
            .html
            .contains(&format!(r#"name="assignment" value="{id}""#))
    );
    let last_input = |html: &str| {
        html.rsplit(r#"class="input">"#)
            .next()
            .unwrap()
            .split("</pre>")
            .next()
            .unwrap()
            .to_owned()
    };
    assert_ne!(last_input(&practice.html), last_input(&homework.html));
    let tools = format!("/assignments/{id}/students/{}/problems/nim", ana.id);
    let drawn = page(server.get(&tools, tom.cookie())).await;
    assert_html(&drawn, 200);
    assert!(drawn.html.contains("Expected answer"));
    assert_html(&page(server.get(&tools, ana.cookie())).await, 403);
    assert_html(&page(server.get(&tools, zoe.cookie())).await, 404);
    assert_redirect(
        &page(server.post(&format!("{tools}/regenerate"), tom.cookie())).await,
        &tools,
    );
    let again = page(server.get(
        &format!("/problems/nim/answers?assignment={id}"),
        ana.cookie(),
    ))
    .await;
    assert_ne!(
        last_input(&homework.html),
        last_input(&again.html),
        "a new draw"
    );
    assert_redirect(
        &page(
            server
                .post(&format!("{tools}/pin"), tom.cookie())
                .form(&[("pinned", "true")]),
        )
        .await,
        &tools,
    );
    let refused = page(server.post(&format!("{tools}/regenerate"), tom.cookie())).await;
    assert_html(&refused, 409);
    assert!(
        refused.html.contains("unpin it to regenerate"),
        "{}",
        refused.html
    );

    // Extensions: the teacher's; the student sees theirs.
    let extensions = format!("{assignment_path}/extensions");
    let ana_id = ana.id.to_string();
    let extension = [("user", ana_id.as_str()), ("due", "2099-01-05T12:00")];
    assert_html(
        &page(server.post(&extensions, zoe.cookie()).form(&extension)).await,
        404,
    );
    assert_html(
        &page(server.post(&extensions, ana.cookie()).form(&extension)).await,
        403,
    );
    assert_redirect(
        &page(server.post(&extensions, tom.cookie()).form(&extension)).await,
        &assignment_path,
    );
    let standing = page(server.get(&assignment_path, ana.cookie())).await;
    assert!(
        standing.html.contains("title=\"2099-01-05 12:00 UTC\""),
        "{}",
        standing.html
    );
}

/// The text between two markers.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).map(|i| i + start.len()).unwrap_or(0);
    text[from..].split(end).next().unwrap_or("")
}

// One's own account.

fn new_token(html: &str) -> String {
    let start = html
        .find(r#"<pre id="new-token">"#)
        .unwrap_or_else(|| panic!("a new token shown: {html}"))
        + r#"<pre id="new-token">"#.len();
    html[start..start + html[start..].find("</pre>").unwrap()].to_owned()
}

fn token_rows(html: &str) -> usize {
    html.matches("data-token=").count()
}

/// A student makes a token on their account page (shown once, and it works), revokes it (it
/// stops working), cannot revoke anyone else's, and changes their password: the wrong current
/// one is refused, the right one ends their other sessions but not this one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_page_makes_and_revokes_tokens_and_changes_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let bo = server.user("bo", Role::Student).await;

    let empty = page(server.get("/account", ana.cookie())).await;
    assert_html(&empty, 200);
    assert_eq!(token_rows(&empty.html), 0);
    assert_redirect(
        &page(server.get("/account", None)).await,
        "/login?next=/account",
    );

    let made = page(
        server
            .post("/account/tokens", ana.cookie())
            .form(&[("label", "laptop"), ("days", "7")]),
    )
    .await;
    assert_html(&made, 200);
    let token = new_token(&made.html);
    assert!(token.starts_with("grundy_"), "{token}");
    assert_eq!(token_rows(&made.html), 1);
    assert!(made.html.contains("laptop"));
    let again = page(server.get("/account", ana.cookie())).await;
    assert!(!again.html.contains(&token), "a token is shown only once");

    let as_ana = || {
        server
            .client
            .get(format!("{}/api/v1/me", server.url))
            .bearer_auth(&token)
    };
    assert_eq!(as_ana().send().await.unwrap().status(), 200);

    let too_long = page(
        server
            .post("/account/tokens", ana.cookie())
            .form(&[("label", "x"), ("days", "100000")]),
    )
    .await;
    assert_html(&too_long, 400);
    assert!(too_long.has_error_message());

    let id = made
        .html
        .split(r#"data-token=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    let by_bo = page(server.post(&format!("/account/tokens/{id}/revoke"), bo.cookie())).await;
    assert_html(&by_bo, 404);
    assert_eq!(as_ana().send().await.unwrap().status(), 200);
    let revoked = page(server.post(&format!("/account/tokens/{id}/revoke"), ana.cookie())).await;
    assert_redirect(&revoked, "/account");
    assert_eq!(as_ana().send().await.unwrap().status(), 401);

    let other_session = accounts::start_session(&server.state.domain, ana.id, None)
        .await
        .unwrap();
    let elsewhere = Account {
        id: ana.id,
        cookie: format!("{SESSION_COOKIE}={other_session}"),
    };
    let wrong = page(
        server
            .post("/account/password", ana.cookie())
            .form(&[("current", "not-it"), ("new", "a new long password")]),
    )
    .await;
    assert_html(&wrong, 403);
    assert!(wrong.has_error_message());
    let changed = page(
        server
            .post("/account/password", ana.cookie())
            .form(&[("current", "ana-password"), ("new", "a new long password")]),
    )
    .await;
    assert_html(&changed, 200);
    assert!(
        changed.html.contains(r#"class="notice""#),
        "{}",
        changed.html
    );
    assert_html(&page(server.get("/account", ana.cookie())).await, 200);
    assert_redirect(
        &page(server.get("/account", elsewhere.cookie())).await,
        "/login?next=/account",
    );
}

/// Every page a Vietnamese student and their teacher meet, with what each must say in
/// Vietnamese: (path, whose cookie, labels).
async fn vietnamese_pages(
    server: &Server,
    ana: &Account,
    tom: &Account,
) -> Vec<(String, Option<String>, Vec<&'static str>)> {
    let assignment = teaches(server, tom, ana).await;
    let course = server
        .state
        .domain
        .store
        .assignment(assignment)
        .await
        .unwrap()
        .unwrap()
        .course_id;
    let submission = queue_program(server, ana, None).await;
    let ana = ana.cookie.clone();
    let tom = tom.cookie.clone();
    vec![
        (
            "/problems".into(),
            None,
            vec!["Danh sách bài", "Bốc đá", "Độ khó"],
        ),
        (
            "/problems/stones".into(),
            Some(ana.clone()),
            vec![
                "<h1>Bốc đá</h1>",
                "Giới hạn thời gian",
                "Ví dụ",
                "Nộp chương trình",
                "Nhóm test 1",
            ],
        ),
        (
            format!("/submissions/{submission}"),
            Some(ana.clone()),
            vec!["Bài nộp", "Đang chờ chấm", "Bốc đá"],
        ),
        (
            "/submissions".into(),
            Some(ana.clone()),
            vec!["Bài nộp của tôi", "Đang chờ chấm", "C++20"],
        ),
        ("/login".into(), None, vec!["Đăng nhập", "Mật khẩu"]),
        ("/register".into(), None, vec!["Đăng ký", "Mật khẩu"]),
        (
            "/account".into(),
            Some(ana.clone()),
            vec!["Tài khoản của tôi", "Đổi mật khẩu"],
        ),
        (
            format!("/courses/{course}"),
            Some(ana.clone()),
            vec!["Bài tập", "Hạn nộp", "đang mở"],
        ),
        (
            format!("/assignments/{assignment}"),
            Some(tom),
            vec![
                "Bảng điểm",
                "Học sinh",
                "Bốc đá",
                "Điểm của em là điểm bài nộp cao nhất",
            ],
        ),
        (
            "/no-such-page".into(),
            None,
            vec!["Không tìm thấy", "Không có trang nào ở địa chỉ này."],
        ),
    ]
}

/// A page read as Vietnamese: declared so, and saying what it must.
fn assert_vietnamese(path: &str, got: &Page, labels: &[&str]) {
    assert!(
        got.html.contains(r#"<html lang="vi">"#),
        "{path}: {}",
        got.html
    );
    for label in labels {
        assert!(
            got.html.contains(label),
            "{path}: no {label:?} in {}",
            got.html
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_asking_for_vietnamese_reads_every_page_in_vietnamese() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Open).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    for (path, cookie, labels) in vietnamese_pages(&server, &ana, &tom).await {
        let asked = page(
            server
                .get(&path, cookie.as_deref())
                .header("accept-language", "vi-VN,vi;q=0.9,en;q=0.8"),
        )
        .await;
        assert_vietnamese(&path, &asked, &labels);
        // The switch's cookie says the same without the header.
        let with_cookie = match &cookie {
            Some(c) => format!("{c}; grundy_lang=vi"),
            None => "grundy_lang=vi".into(),
        };
        let switched = page(server.get(&path, Some(&with_cookie))).await;
        assert_vietnamese(&path, &switched, &labels);
    }
    // Without either, English.
    let english = page(
        server
            .get("/problems", None)
            .header("accept-language", "fr, en;q=0.5"),
    )
    .await;
    assert!(
        english.html.contains(r#"<html lang="en">"#),
        "{}",
        english.html
    );
    assert!(english.html.contains("Problems"), "{}", english.html);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_preference_outranks_the_cookie_and_the_browser() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let saved = page(
        server
            .post("/account/language", ana.cookie())
            .form(&[("locale", "vi")]),
    )
    .await;
    assert_eq!((saved.status, saved.location.as_str()), (303, "/account"));
    let cookie = format!("{}; grundy_lang=en", ana.cookie);
    for path in ["/problems", "/account", "/submissions"] {
        let got = page(
            server
                .get(path, Some(&cookie))
                .header("accept-language", "en"),
        )
        .await;
        assert!(
            got.html.contains(r#"<html lang="vi">"#),
            "{path}: {}",
            got.html
        );
    }
    let account = page(server.get("/account", ana.cookie())).await;
    assert!(
        account
            .html
            .contains(r#"<option value="vi" lang="vi" selected>"#),
        "{}",
        account.html
    );
    // Back to the browser's choice.
    page(
        server
            .post("/account/language", ana.cookie())
            .form(&[("locale", "")]),
    )
    .await;
    let got = page(
        server
            .get("/problems", ana.cookie())
            .header("accept-language", "en"),
    )
    .await;
    assert!(got.html.contains(r#"<html lang="en">"#), "{}", got.html);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_switch_sets_the_cookie_and_returns_to_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let list = page(server.get("/problems?tag=dp", None)).await;
    assert!(list.html.contains(r#"action="/language""#), "{}", list.html);
    assert!(
        list.html
            .contains(r#"name="next" value="/problems?tag=dp""#),
        "{}",
        list.html
    );
    let switched = page(
        server
            .post("/language", None)
            .form(&[("locale", "vi"), ("next", "/problems?tag=dp")]),
    )
    .await;
    assert_eq!(
        (switched.status, switched.location.as_str()),
        (303, "/problems?tag=dp")
    );
    let cookie = switched
        .set_cookie("grundy_lang")
        .expect("the switch's cookie");
    assert!(cookie.starts_with("grundy_lang=vi;"), "{cookie}");
    // Elsewhere is never a destination.
    let away = page(
        server
            .post("/language", None)
            .form(&[("locale", "en"), ("next", "//evil.example/")]),
    )
    .await;
    assert_eq!(away.location, "/problems");
    // Signed in, the switch also becomes the account's preference, which outranks the cookie.
    let ana = server.user("ana", Role::Student).await;
    page(
        server
            .post("/language", ana.cookie())
            .form(&[("locale", "vi"), ("next", "/account")]),
    )
    .await;
    let stored = server
        .state
        .domain
        .store
        .user_by_id(ana.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.locale.as_deref(), Some("vi"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_statement_follows_the_interface_unless_another_is_picked() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let vietnamese = page(server.get("/problems/stones", Some("grundy_lang=vi"))).await;
    assert!(
        vietnamese
            .html
            .contains(r#"<section class="statement" lang="vi">"#),
        "{}",
        vietnamese.html
    );
    let picked = page(server.get("/problems/stones?lang=en", Some("grundy_lang=vi"))).await;
    assert!(
        picked.html.contains(r#"<html lang="vi">"#),
        "{}",
        picked.html
    );
    assert!(
        picked
            .html
            .contains(r#"<section class="statement" lang="en">"#),
        "{}",
        picked.html
    );
    assert!(picked.html.contains("<h1>Stones</h1>"), "{}", picked.html);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_worded_in_the_readers_language() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let cookie = format!("{}; grundy_lang=vi", ana.cookie);
    let form = Form::new().text("language", "cpp20").text("source", "");
    let refused = page(
        server
            .post("/problems/stones/submit", Some(&cookie))
            .multipart(form),
    )
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("Mã nguồn đang trống."),
        "{}",
        refused.html
    );
    let login = page(
        server
            .post("/login", None)
            .header("accept-language", "vi")
            .form(&[("name", "ana"), ("password", "wrong")]),
    )
    .await;
    assert!(
        login.html.contains("Sai tên đăng nhập hoặc mật khẩu."),
        "{}",
        login.html
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_name_problems_and_languages_and_count_attempts_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let assignment = teaches(&server, &tom, &ana).await;
    queue_program(&server, &ana, Some(assignment)).await;
    let mine = page(server.get("/submissions", ana.cookie())).await;
    assert!(
        mine.html.contains(">Stones</a>"),
        "the title, not the slug: {}",
        mine.html
    );
    assert!(
        mine.html.contains("C++20 (GCC"),
        "the language's name: {}",
        mine.html
    );
    assert!(!mine.html.contains("<td>cpp20</td>"), "{}", mine.html);
    assert!(
        !mine.html.contains("<th>User</th>"),
        "one's own submissions: {}",
        mine.html
    );
    let all = page(server.get("/teach/submissions", tom.cookie())).await;
    assert!(all.html.contains("<th>User</th>"), "{}", all.html);
    let book = page(server.get(&format!("/assignments/{assignment}"), tom.cookie())).await;
    assert!(book.html.contains("<th>Stones</th>"), "{}", book.html);
    assert!(
        book.html.contains("1 attempt<") || book.html.contains("1 attempt "),
        "{}",
        book.html
    );
    assert!(!book.html.contains("1 attempts"), "{}", book.html);
    let sách = page(server.get(
        &format!("/assignments/{assignment}"),
        Some(&format!("{}; grundy_lang=vi", tom.cookie)),
    ))
    .await;
    assert!(sách.html.contains("1 lần nộp"), "{}", sách.html);
    queue_program(&server, &ana, Some(assignment)).await;
    let book = page(server.get(&format!("/assignments/{assignment}"), tom.cookie())).await;
    assert!(book.html.contains("2 attempts"), "{}", book.html);
    server.stop().await;
}

/// An invitation is answered on the pages, in the reader's language: it waits on her home page
/// and her course list, says what accepting shares, and only her answer puts her in the course.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_are_answered_on_the_pages_in_vietnamese() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Registration::Closed).await;
    let tam = server.user("tam", Role::Teacher).await;
    let lan = server.user("lan", Role::Student).await;
    let minh = server.user("minh", Role::Student).await;
    let store = &server.state.domain.store;
    for who in [lan.id, minh.id] {
        store.set_locale(who, Some("vi")).await.unwrap();
    }
    let course = store
        .create_course("Lớp 10A", "LOP10A23", tam.id, 1)
        .await
        .unwrap();
    let imported = page(
        server
            .post(&format!("/courses/{}/members", course.id), tam.cookie())
            .form(&[("names", "lan\nminh"), ("role", "student")]),
    )
    .await;
    assert_html(&imported, 200);
    assert!(
        imported.html.contains(r#"id="import-invited""#),
        "{}",
        imported.html
    );
    assert!(
        imported.html.contains(r#"data-invitee="lan""#),
        "{}",
        imported.html
    );

    for path in ["/", "/courses"] {
        let home = page(server.get(path, lan.cookie())).await;
        assert_html(&home, 200);
        assert!(
            home.html.contains(r#"id="invitations""#),
            "{path}: {}",
            home.html
        );
        assert!(
            home.html
                .contains("tam mời em vào lớp Lớp 10A với vai trò học sinh."),
            "{path}: {}",
            home.html
        );
        assert!(home.html.contains("Khi em nhận lời"), "{path}");
        assert!(home.html.contains("Nhận lời") && home.html.contains("Từ chối"));
    }
    let ids = |who: i64| async move {
        store
            .invitations_of(who)
            .await
            .unwrap()
            .into_iter()
            .map(|i| i.id)
            .collect::<Vec<_>>()
    };
    let (lans, minhs) = (ids(lan.id).await[0], ids(minh.id).await[0]);
    // Nobody answers for her: Minh's answer to Lan's invitation finds nothing.
    let meddled = page(
        server
            .post(&format!("/invitations/{lans}/accept"), minh.cookie())
            .form(&[("x", "")]),
    )
    .await;
    assert_html(&meddled, 404);
    assert!(
        meddled.html.contains("Không tìm thấy lời mời"),
        "{}",
        meddled.html
    );
    assert_eq!(store.member_role(course.id, minh.id).await.unwrap(), None);

    let accepted = page(
        server
            .post(&format!("/invitations/{lans}/accept"), lan.cookie())
            .form(&[("x", "")]),
    )
    .await;
    assert_eq!(accepted.status, 303, "{}", accepted.html);
    assert_eq!(accepted.location, format!("/courses/{}", course.id));
    let declined = page(
        server
            .post(&format!("/invitations/{minhs}/decline"), minh.cookie())
            .form(&[("x", "")]),
    )
    .await;
    assert_eq!(declined.status, 303, "{}", declined.html);
    assert_eq!(
        store.member_role(course.id, lan.id).await.unwrap(),
        Some(grundy_store::MemberRole::Student)
    );
    assert_eq!(store.member_role(course.id, minh.id).await.unwrap(), None);
    let home = page(server.get("/", lan.cookie())).await;
    assert!(!home.html.contains(r#"id="invitations""#), "answered");
    // The teacher sees who joined how, and who declined.
    let seen = page(server.get(&format!("/courses/{}", course.id), tam.cookie())).await;
    assert!(
        seen.html.contains("accepted an invitation"),
        "{}",
        seen.html
    );
    assert!(seen.html.contains(r#"data-invitee="minh""#));
    assert!(seen.html.contains("declined"));
    server.stop().await;
}
