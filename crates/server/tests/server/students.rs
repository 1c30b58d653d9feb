//! What a student meets on the pages, from issue 18: work is never lost (a refused submission
//! comes back to the form at its own address with the error beside it and the work kept; the
//! editor and the answer boxes keep the last work; "your attempts" on the problem page; "edit
//! and resubmit" for the author only), registration says its rules before anyone fails them,
//! and a Vietnamese reader meets no English label on any page they see, nor in the router's
//! errors or the API's messages.
//!
//! Requests are made by hand as a browser makes them (see `pages.rs`); the stories that store
//! submissions run on SQLite and, where a server answers, on PostgreSQL.

use std::time::Duration;

use crate::common;

use common::{Browser, Postgres, Server, textarea, unescape};
use grundy_judge::Verdict;
use grundy_judge::naming::TestName;
use grundy_server::domain::accounts;
use grundy_server::{Clock, Registration, RequestLimits, SESSION_COOKIE};
use grundy_store::{
    AssignmentSpec, Feedback, MemberRole, Outcome, Role, Scoring, Store, SubmissionKind, TestRow,
};
use reqwest::header::{CONTENT_TYPE, LOCATION, SET_COOKIE};
use reqwest::multipart::Form;
use reqwest::{Method, RequestBuilder};

/// A user in the store and the cookies to browse as them.
struct Account {
    id: i64,
    cookie: String,
}

impl Account {
    fn cookie(&self) -> Option<&str> {
        Some(&self.cookie)
    }
}

struct Page {
    status: u16,
    location: String,
    content_type: String,
    set_cookies: Vec<String>,
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
    let (status, location, content_type) = (
        response.status().as_u16(),
        header(LOCATION),
        header(CONTENT_TYPE),
    );
    let set_cookies = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok().map(str::to_owned))
        .collect();
    let html = response.text().await.unwrap();
    Page {
        status,
        location,
        content_type,
        set_cookies,
        html,
    }
}

impl Page {
    /// The submission a form redirected to.
    fn submission_id(&self) -> i64 {
        self.location
            .strip_prefix("/submissions/")
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("redirected to a submission: {} {}", self.status, self.html))
    }

    /// Where in the page `text` is first, for telling what comes before what.
    fn at(&self, text: &str) -> usize {
        self.html
            .find(text)
            .unwrap_or_else(|| panic!("no {text:?} in {}", self.html))
    }
}

/// This file's ways of talking to the server (a trait, since other test modules add theirs).
trait StudentsServer {
    async fn user(&self, name: &str, role: Role) -> Account;
}

impl StudentsServer for Server {
    async fn user(&self, name: &str, role: Role) -> Account {
        let user = self.create_user(name, role).await;
        let secret = accounts::start_session(&self.state.domain, user.id, None)
            .await
            .unwrap();
        Account {
            id: user.id,
            cookie: format!("{SESSION_COOKIE}={secret}"),
        }
    }
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

fn program(language: &str, source: &str) -> Form {
    Form::new()
        .text("language", language.to_owned())
        .text("source", source.to_owned())
}

/// A course taught by `teacher` with `student` in it and an open assignment of Stones.
async fn teaches(server: &Server, teacher: &Account, student: &Account) -> (i64, i64) {
    let store = &server.state.domain.store;
    let course = store
        .create_course("Games", &format!("CODE{}", student.id), teacher.id, 1)
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            student.id,
            MemberRole::Student,
            grundy_store::MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    let spec = AssignmentSpec {
        title: "Week 1".into(),
        opens_at: 0,
        due_at: i64::from(i32::MAX) * 1000,
        closes_at: i64::from(i32::MAX) * 1000,
        penalty_percent: 0,
        penalty_step_ms: 86_400_000,
        scoring: Scoring::Best,
        feedback: Feedback::Tests,
        personal_tests: false,
        run_every_test: false,
        problems: vec!["stones".into()],
    };
    let assignment = store.create_assignment(course.id, &spec, 1).await.unwrap();
    (course.id, assignment.id)
}

async fn start(store: Store, registration: Registration) -> Server {
    let limits = RequestLimits {
        registration,
        ..RequestLimits::default()
    };
    Server::start_with(store, limits, Clock::system()).await
}

const PROGRAM: &str = "#include <cstdio>\nint main() { puts(\"First\"); }\n";

async fn a_refused_program_comes_back_to_the_form_at_its_own_address(store: Store) {
    let server = start(store, Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let problem = page(server.get("/problems/stones", ana.cookie())).await;
    assert!(
        problem
            .html
            .contains(r##"action="/problems/stones#submit""##),
        "the form posts to the page's own address, scrolled to the form: {}",
        problem.html
    );
    // Empty: refused, with the error inside the form, above the editor, and the language kept.
    let empty = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("python3", "  \n")),
    )
    .await;
    assert_eq!(empty.status, 400, "{}", empty.html);
    assert!(empty.content_type.starts_with("text/html"));
    let form = empty.at(r#"<form method="post""#);
    let error = empty.at(r#"id="submit-error""#);
    let editor = empty.at(r#"<textarea id="source""#);
    assert!(form < error && error < editor, "{}", empty.html);
    assert!(
        empty.html.contains(r#"<option value="python3" selected>"#),
        "{}",
        empty.html
    );
    assert!(
        empty.html.contains(r#"aria-describedby="submit-error""#),
        "the editor names its error: {}",
        empty.html
    );
    // An unknown language: the source typed is kept, escaped.
    let unknown = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("cobol", PROGRAM)),
    )
    .await;
    assert_eq!(unknown.status, 400, "{}", unknown.html);
    assert_eq!(unescape(textarea(&unknown.html, "source")), PROGRAM);
    // The same form accepted goes to the submission, as the older address still does.
    let sent = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("cpp20", PROGRAM)),
    )
    .await;
    assert_eq!(sent.status, 303, "{}", sent.html);
    sent.submission_id();
    let older = page(
        server
            .post("/problems/stones/submit", ana.cookie())
            .multipart(program("cpp20", PROGRAM)),
    )
    .await;
    older.submission_id();
    // Signed out, the form leads to the login and back to the problem.
    let signed_out = page(
        server
            .post("/problems/stones", None)
            .multipart(program("cpp20", PROGRAM)),
    )
    .await;
    assert_eq!(
        (signed_out.status, signed_out.location.as_str()),
        (303, "/login?next=/problems/stones")
    );
    server.stop().await;
}

async fn the_problem_page_lists_attempts_and_keeps_the_last_program(store: Store) {
    let server = start(store, Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let bob = server.user("bob", Role::Student).await;
    let fresh = page(server.get("/problems/stones", ana.cookie())).await;
    assert!(fresh.html.contains(r#"id="attempts""#), "{}", fresh.html);
    assert!(!fresh.html.contains("data-id="), "{}", fresh.html);
    assert_eq!(textarea(&fresh.html, "source"), "");

    let first = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("cpp20", "int main() {}\n")),
    )
    .await
    .submission_id();
    let last = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("python3", "print('First')\n")),
    )
    .await
    .submission_id();
    let again = page(server.get("/problems/stones", ana.cookie())).await;
    for id in [first, last] {
        assert!(
            again.html.contains(&format!(r#"data-id="{id}""#)),
            "{id} among the attempts: {}",
            again.html
        );
    }
    assert!(again.at(&format!(r#"data-id="{last}""#)) < again.at(&format!(r#"data-id="{first}""#)));
    // The editor holds the last program, in its language, and says where it came from.
    assert_eq!(
        unescape(textarea(&again.html, "source")),
        "print('First')\n"
    );
    assert!(
        again.html.contains(r#"<option value="python3" selected>"#),
        "{}",
        again.html
    );
    assert!(
        again
            .html
            .contains(&format!(r#"href="/submissions/{last}">#{last}</a>"#)),
        "{}",
        again.html
    );
    // Someone else's attempts are not listed, nor their program.
    let other = page(server.get("/problems/stones", bob.cookie())).await;
    assert!(!other.html.contains("data-id="), "{}", other.html);
    assert_eq!(textarea(&other.html, "source"), "");
    // Signed out, there is nothing to list.
    let visitor = page(server.get("/problems/stones", None)).await;
    assert!(
        !visitor.html.contains(r#"id="attempts""#),
        "{}",
        visitor.html
    );
    server.stop().await;
}

async fn edit_and_resubmit_is_for_the_author_only(store: Store) {
    let server = start(store, Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let (_, assignment) = teaches(&server, &tom, &ana).await;
    let form = program("python3", "print('Second')\n").text("assignment", assignment.to_string());
    let id = page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(form),
    )
    .await
    .submission_id();
    // A newer program elsewhere: the link still brings back this one.
    page(
        server
            .post("/problems/stones", ana.cookie())
            .multipart(program("cpp20", PROGRAM)),
    )
    .await
    .submission_id();
    let mine = page(server.get(&format!("/submissions/{id}"), ana.cookie())).await;
    let address = format!("/problems/stones?from={id}&#38;assignment={assignment}#submit");
    assert!(
        mine.html
            .contains(&format!(r#"id="resubmit" href="{address}""#)),
        "{}",
        mine.html
    );
    let edit = page(server.get(
        &format!("/problems/stones?from={id}&assignment={assignment}"),
        ana.cookie(),
    ))
    .await;
    assert_eq!(edit.status, 200, "{}", edit.html);
    assert_eq!(
        unescape(textarea(&edit.html, "source")),
        "print('Second')\n"
    );
    assert!(edit.html.contains(r#"<option value="python3" selected>"#));
    assert!(
        edit.html
            .contains(&format!(r#"name="assignment" value="{assignment}""#)),
        "resubmitted to the same assignment: {}",
        edit.html
    );
    // Her teacher sees the submission but may not take her work into his form.
    let seen = page(server.get(&format!("/submissions/{id}"), tom.cookie())).await;
    assert_eq!(seen.status, 200, "{}", seen.html);
    assert!(!seen.html.contains(r#"id="resubmit""#), "{}", seen.html);
    let taken = page(server.get(&format!("/problems/stones?from={id}"), tom.cookie())).await;
    assert_eq!(taken.status, 404, "{}", taken.html);
    assert!(!taken.html.contains("Second"), "{}", taken.html);
    server.stop().await;
}

async fn answers_stay_in_their_boxes(store: Store) {
    let server = start(store, Registration::Closed).await;
    let ana = server.user("ana", Role::Student).await;
    let sheet = page(server.get("/problems/stones/answers", ana.cookie())).await;
    assert!(
        sheet
            .html
            .contains(r##"action="/problems/stones/answers#answers""##),
        "{}",
        sheet.html
    );
    let fields = answer_fields(&sheet.html);
    assert!(fields.len() > 2, "{}", sheet.html);
    let version = sheet
        .html
        .split(r#"name="version" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_owned();
    let typed = |answer: &dyn Fn(usize) -> &'static str| {
        let mut body = vec![("version".to_owned(), version.clone())];
        for (i, field) in fields.iter().enumerate() {
            body.push((field.clone(), answer(i).to_owned()));
        }
        body
    };
    let sent = page(
        server
            .post("/problems/stones/answers", ana.cookie())
            .form(&typed(&|i| if i % 2 == 0 { "First" } else { "Second" })),
    )
    .await;
    let id = sent.submission_id();
    // Back on the sheet, every box holds what was sent.
    let back = page(server.get("/problems/stones/answers", ana.cookie())).await;
    for (i, field) in fields.iter().enumerate() {
        let expected = if i % 2 == 0 { "First" } else { "Second" };
        assert_eq!(textarea(&back.html, field), expected, "{field}");
    }
    // "Edit and resubmit" on an answer submission leads to the sheet with its answers.
    let shown = page(server.get(&format!("/submissions/{id}"), ana.cookie())).await;
    assert!(
        shown.html.contains(&format!(
            r#"href="/problems/stones/answers?from={id}#answers""#
        )),
        "{}",
        shown.html
    );
    let redirected = page(server.get(&format!("/problems/stones?from={id}"), ana.cookie())).await;
    assert_eq!(
        (redirected.status, redirected.location.as_str()),
        (
            303,
            format!("/problems/stones/answers?from={id}#answers").as_str()
        )
    );
    // Answers to another version are refused, and they are not put in this version's boxes.
    let mut stale = typed(&|_| "First");
    stale[0].1 = "999".into();
    let refused = page(
        server
            .post("/problems/stones/answers", ana.cookie())
            .form(&stale),
    )
    .await;
    assert_eq!(refused.status, 409, "{}", refused.html);
    assert!(refused.at(r#"id="answers""#) < refused.at(r#"id="answers-error""#));
    server.stop().await;
}

const LIMIT: Duration = Duration::from_secs(120);

on_both!(
    a_refused_program_comes_back_to_the_form_at_its_own_address,
    the_problem_page_lists_attempts_and_keeps_the_last_program,
    edit_and_resubmit_is_for_the_author_only,
    answers_stay_in_their_boxes,
    vietnamese_pages_have_no_english_left,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_states_its_rules_before_the_first_failure() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(
        dir.path(),
        RequestLimits {
            registration: Registration::Open,
            ..RequestLimits::default()
        },
    )
    .await;
    let least = accounts::MIN_PASSWORD_CHARS;
    let english = page(server.get("/register", None)).await;
    assert!(
        english
            .html
            .contains(&format!("At least {least} characters.")),
        "{}",
        english.html
    );
    assert!(
        english.html.contains("letters without accents, digits"),
        "{}",
        english.html
    );
    assert!(
        english.html.contains(&format!(r#"minlength="{least}""#)),
        "{}",
        english.html
    );
    let vietnamese = page(server.get("/register", Some("grundy_lang=vi"))).await;
    assert!(
        vietnamese
            .html
            .contains(&format!("Mật khẩu có ít nhất {least} ký tự.")),
        "{}",
        vietnamese.html
    );
    assert!(
        vietnamese.html.contains("chữ cái không dấu"),
        "{}",
        vietnamese.html
    );
    server.stop().await;
}

/// Labels of the English interface that must not be met on a Vietnamese page: each is matched
/// as whole words in the page's text (program code, inputs and scripts left out) and in the
/// attributes people read.
const ENGLISH: &[&str] = &[
    "Problems",
    "My submissions",
    "Courses",
    "Log in",
    "Log out",
    "Register",
    "Signed in as",
    "Time limit",
    "Memory limit",
    "Difficulty",
    "Samples",
    "Input",
    "Output",
    "Copy",
    "Copied",
    "Submit",
    "Language",
    "Source",
    "Answer mode",
    "Your answer",
    "Your attempts",
    "Edit and resubmit",
    "Verdict",
    "Score",
    "Submitted",
    "Subtask",
    "Subtasks",
    "samples",
    "personal",
    "points",
    "failed at test",
    "not judged",
    "Grundy value",
    "Queued",
    "Judging",
    "Accepted",
    "Wrong Answer",
    "Memory",
    "Message",
    "Compiler output",
    "Failed tests",
    "Expected",
    "Password",
    "Name",
    "Account",
    "not found",
    "Not Found",
    "Not found",
    "Error",
    "error",
    "Back",
    "Due",
    "Total",
    "Attempts",
    "Assignments",
    "Course",
    "first",
    "second",
    "Older",
    "solved",
    "attempted",
    "easy",
    "medium",
    "hard",
    "characters",
    "letters",
    "Skip",
    "Tags",
    "Title",
    "User",
    "method",
    "request",
    "Bad Request",
    "Invalid",
    "Method Not Allowed",
    "the",
    "you",
    "your",
];

/// What a reader sees of a page: its text outside code, inputs and scripts, and the attributes
/// read aloud or shown on hover.
fn readable(html: &str) -> String {
    let mut text = html.to_owned();
    for (open, close) in [
        ("<script", "</script>"),
        ("<style", "</style>"),
        ("<pre", "</pre>"),
        ("<code", "</code>"),
        ("<textarea", "</textarea>"),
        ("<option", "</option>"),
        ("<math", "</math>"),
    ] {
        while let Some(start) = text.find(open) {
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |e| start + e + close.len());
            text.replace_range(start..end, " ");
        }
    }
    let mut read = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find('<') {
        read.push_str(&rest[..start]);
        read.push(' ');
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        let tag = &rest[start..end];
        for attribute in ["title=\"", "aria-label=\"", "placeholder=\"", "alt=\""] {
            if let Some(value) = tag.split(attribute).nth(1) {
                read.push_str(value.split('"').next().unwrap_or_default());
                read.push(' ');
            }
        }
        rest = &rest[end..];
    }
    read.push_str(rest);
    read
}

/// The English labels found in `html` as whole words.
fn english_in(html: &str) -> Vec<&'static str> {
    let text = readable(html);
    ENGLISH
        .iter()
        .copied()
        .filter(|label| {
            text.match_indices(label).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + label.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
        })
        .collect()
}

#[test]
fn the_english_detector_finds_labels_in_text_and_attributes_but_not_in_code() {
    assert_eq!(english_in("<p>Nộp bài</p>"), Vec::<&str>::new());
    assert_eq!(english_in("<p>Điểm: 30 points</p>"), vec!["points"]);
    assert_eq!(english_in(r#"<a title="Account">x</a>"#), vec!["Account"]);
    assert_eq!(
        english_in("<pre>Input the answer</pre><code>first</code>"),
        Vec::<&str>::new()
    );
    assert_eq!(english_in("<p>Firstly</p>"), Vec::<&str>::new());
}

/// A judged submission: the samples passed, the first subtask failed at its second test, the
/// second's test skipped; its source is `PROGRAM`.
async fn judged(server: &Server, user: &Account) -> i64 {
    let store = &server.state.domain.store;
    let new = grundy_store::NewSubmission {
        user_id: user.id,
        problem: "stones".into(),
        kind: SubmissionKind::Program,
        language: Some("cpp20".into()),
        source: PROGRAM.as_bytes().to_vec(),
        priority: 0,
        assignment_id: None,
        instance_seed: None,
    };
    let now = grundy_server::now_ms();
    let id = store.create_submission(&new, now).await.unwrap();
    let claimed = store.claim("w1", now, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(claimed.id, id);
    let row = |position, group: &str, index, verdict| TestRow {
        position,
        name: TestName::new(group, index),
        verdict,
        cpu_ms: 3,
        wall_ms: 4,
        memory_kib: 2048,
        message: None,
        detail: None,
        shown: None,
        transcript: None,
    };
    for test in [
        row(1, "samples", 1, Verdict::Accepted),
        row(2, "small", 1, Verdict::Accepted),
        row(3, "small", 2, Verdict::WrongAnswer),
        row(4, "full", 1, Verdict::Skipped),
    ] {
        assert!(store.record_test(id, "w1", &test).await.unwrap());
    }
    let outcome = Outcome {
        verdict: Verdict::WrongAnswer,
        score: 0,
        max_score: 100,
        compile_message: None,
        problem_version: 1,
    };
    assert!(store.finish(id, "w1", &outcome, now).await.unwrap());
    id
}

async fn vietnamese_pages_have_no_english_left(store: Store) {
    let server = start(store, Registration::Open).await;
    let ana = server.user("ana", Role::Student).await;
    let tom = server.user("tom", Role::Teacher).await;
    let (course, assignment) = teaches(&server, &tom, &ana).await;
    let submission = judged(&server, &ana).await;
    let vi = format!("{}; grundy_lang=vi", ana.cookie);
    let pages = [
        ("/problems".to_owned(), Some(vi.as_str()), 200),
        ("/problems?tag=dp".into(), None, 200),
        ("/problems/stones".into(), Some(&vi), 200),
        ("/problems/stones".into(), None, 200),
        ("/problems/stones/answers".into(), Some(&vi), 200),
        (format!("/submissions/{submission}"), Some(&vi), 200),
        ("/submissions".into(), Some(&vi), 200),
        ("/play/stones".into(), Some(&vi), 200),
        ("/play/stones?side=third".into(), Some(&vi), 200),
        ("/login".into(), None, 200),
        ("/register".into(), None, 200),
        ("/account".into(), Some(&vi), 200),
        ("/courses".into(), Some(&vi), 200),
        (format!("/courses/{course}"), Some(&vi), 200),
        (format!("/assignments/{assignment}"), Some(&vi), 200),
        ("/no-such-page".into(), None, 404),
        ("/submissions/not-a-number".into(), Some(&vi), 400),
        ("/submissions/999999".into(), Some(&vi), 404),
        ("/teach".into(), Some(&vi), 403),
    ];
    for (path, cookie, status) in pages {
        let cookie = cookie.unwrap_or("grundy_lang=vi");
        let got = page(server.get(&path, Some(cookie))).await;
        assert_eq!(got.status, status, "{path}: {}", got.html);
        assert!(
            got.html.contains(r#"<html lang="vi">"#),
            "{path}: {}",
            got.html
        );
        let left = english_in(&got.html);
        assert!(
            left.is_empty(),
            "{path}: {left:?} in {}",
            readable(&got.html)
        );
    }
    // The submission page names its tests and subtasks in Vietnamese.
    let shown = page(server.get(&format!("/submissions/{submission}"), Some(&vi))).await;
    for words in [
        "ví dụ #1",
        "Nhóm test 1 #2",
        "Nhóm test 1 (30 điểm): 0/30, sai từ test 2",
        // Skipped tests do not fail a subtask.
        "Nhóm test 2 (70 điểm): 70/70",
    ] {
        assert!(shown.html.contains(words), "{words:?}: {}", shown.html);
    }
    // A wrong method is the router's own error, worded for the reader.
    let method = page(server.get("/logout", Some("grundy_lang=vi"))).await;
    assert_eq!(method.status, 405);
    assert!(english_in(&method.html).is_empty(), "{}", method.html);
    assert!(
        method
            .html
            .contains("Địa chỉ này không nhận kiểu yêu cầu này."),
        "{}",
        method.html
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_and_the_login_follow_the_accounts_language() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    let token = server.token("ana", Role::Student).await;
    let ana = server
        .state
        .domain
        .store
        .user_by_name("ana")
        .await
        .unwrap()
        .unwrap();
    // In English before she chooses, whatever is asked of the API.
    let (status, body) = server
        .call(Method::GET, "/api/v1/submissions/999999", &token, None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["message"], "submission 999999 not found");
    accounts::set_locale(
        &server.state.domain,
        &ana,
        Some(grundy_server::locale::Locale::Vi),
    )
    .await
    .unwrap();
    let (status, body) = server
        .call(Method::GET, "/api/v1/submissions/999999", &token, None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], "not_found", "the code stays");
    assert_eq!(body["message"], "Không tìm thấy bài nộp 999999.");
    // The router's own errors too: a path that does not parse.
    let (status, body) = server
        .call(Method::GET, "/api/v1/submissions/abc", &token, None)
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "bad_request");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Yêu cầu không đọc được")),
        "{body}"
    );
    // Logging in copies the preference into the language cookie.
    let login = page(
        server
            .post("/login", None)
            .form(&[("name", "ana"), ("password", "ana-password")]),
    )
    .await;
    assert_eq!(login.status, 303);
    assert!(
        login
            .set_cookies
            .iter()
            .any(|c| c.starts_with("grundy_lang=vi;")),
        "{:?}",
        login.set_cookies
    );
    server.stop().await;
}
