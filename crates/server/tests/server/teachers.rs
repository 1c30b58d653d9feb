//! Teachers' pages and time zones, through the pages as a browser without JavaScript uses them, on
//! SQLite and PostgreSQL: deadlines typed in a named zone and kept in UTC, moments shown in each
//! reader's zone (UTC, marked for the browser, without one), names unique regardless of case,
//! editing and deleting assignments (refused to whoever must be refused), removing a member only
//! after a confirmation, the problem picker's order, the submissions filter by course and
//! assignment, and the empty states.

use crate::common;

use common::{Postgres, Server};
use grundy_server::domain::accounts;
use grundy_server::{Clock, Registration, RequestLimits, SESSION_COOKIE};
use grundy_store::{NewSubmission, Role, Store, SubmissionKind};
use reqwest::header::{COOKIE, LOCATION, ORIGIN, SET_COOKIE};
use reqwest::{Method, RequestBuilder};

/// 2026-12-01T16:59:00Z, worked out by hand: 23:59 in Ho Chi Minh City (UTC+7, no summer time).
const DUE_UTC: i64 = 1_796_144_340_000;

/// A signed-in user: their id, a session cookie and an API token.
struct Account {
    id: i64,
    cookie: String,
    token: String,
}

struct Site {
    server: Server,
    postgres: Option<Postgres>,
    _dir: tempfile::TempDir,
}

/// A response read whole.
struct Page {
    status: u16,
    location: String,
    /// The session cookie it set (`name=value`), if any.
    session: Option<String>,
    html: String,
}

impl Site {
    async fn sqlite() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_sqlite(&dir.path().join("grundy.db"))
            .await
            .unwrap();
        Site::on(store, None, dir).await
    }

    async fn postgres(test: &str) -> Option<Site> {
        let (store, postgres) = Postgres::create(test).await?;
        Some(Site::on(store, Some(postgres), tempfile::tempdir().unwrap()).await)
    }

    async fn on(store: Store, postgres: Option<Postgres>, dir: tempfile::TempDir) -> Site {
        let limits = RequestLimits {
            registration: Registration::Open,
            ..RequestLimits::default()
        };
        let server = Server::start_with(store, limits, Clock::system()).await;
        Site {
            server,
            postgres,
            _dir: dir,
        }
    }

    async fn finish(self) {
        self.server.stop().await;
        if let Some(pg) = self.postgres {
            pg.drop_database().await;
        }
    }

    fn store(&self) -> &Store {
        &self.server.state.domain.store
    }

    async fn user(&self, name: &str, role: Role) -> Account {
        let user = self.server.create_user(name, role).await;
        let domain = &self.server.state.domain;
        let secret = accounts::start_session(domain, user.id, None)
            .await
            .unwrap();
        let token = accounts::issue_token(
            &domain.store,
            user.id,
            "test",
            grundy_server::now_ms(),
            accounts::DEFAULT_TOKEN_DAYS,
        )
        .await
        .unwrap()
        .token;
        Account {
            id: user.id,
            cookie: format!("{SESSION_COOKIE}={secret}"),
            token,
        }
    }

    fn request(&self, method: Method, path: &str, who: Option<&Account>) -> RequestBuilder {
        let request = self
            .server
            .client
            .request(method.clone(), format!("{}{path}", self.server.url));
        let request = match who {
            Some(a) => request.header(COOKIE, &a.cookie),
            None => request,
        };
        if method == Method::POST {
            request
                .header(ORIGIN, &self.server.url)
                .header("sec-fetch-site", "same-origin")
        } else {
            request
        }
    }

    async fn get(&self, path: &str, who: &Account) -> Page {
        read(self.request(Method::GET, path, Some(who))).await
    }

    async fn post(&self, path: &str, who: Option<&Account>, form: &[(&str, &str)]) -> Page {
        read(self.request(Method::POST, path, who).form(form)).await
    }

    async fn api(&self, path: &str, who: &Account) -> (u16, serde_json::Value) {
        let (status, body) = self.server.call(Method::GET, path, &who.token, None).await;
        (status.as_u16(), body)
    }

    async fn api_delete(&self, path: &str, who: &Account) -> u16 {
        let (status, _) = self
            .server
            .call(Method::DELETE, path, &who.token, None)
            .await;
        status.as_u16()
    }

    /// A course `teacher` creates, with `students` enrolled; its id.
    async fn course(&self, teacher: &Account, title: &str, students: &[&Account]) -> i64 {
        let made = self
            .post("/courses", Some(teacher), &[("title", title)])
            .await;
        assert_eq!(made.status, 303, "{}", made.html);
        let id: i64 = made.location["/courses/".len()..].parse().unwrap();
        for student in students {
            self.store()
                .add_member(
                    id,
                    student.id,
                    grundy_store::MemberRole::Student,
                    grundy_store::MemberOrigin::JoinCode,
                    0,
                )
                .await
                .unwrap();
        }
        id
    }

    /// An assignment set through the form; its id.
    async fn assignment(&self, teacher: &Account, course: i64, extra: &[(&str, &str)]) -> i64 {
        let mut form = vec![
            ("title", "Week 1"),
            ("zone", "UTC"),
            ("opens", "2026-01-01T00:00"),
            ("due", "2026-12-01T23:59"),
            ("closes", "2026-12-03T23:59"),
            ("penalty_percent", "10"),
            ("penalty_step_hours", "24"),
            ("scoring", "best"),
            ("feedback", "tests"),
        ];
        form.extend_from_slice(extra);
        if !extra.iter().any(|(k, _)| *k == "problems") {
            form.push(("problems", "stones"));
        }
        let made = self
            .post(
                &format!("/courses/{course}/assignments"),
                Some(teacher),
                &form,
            )
            .await;
        assert_eq!(made.status, 303, "{}", made.html);
        made.location["/assignments/".len()..].parse().unwrap()
    }

    async fn submit(&self, who: &Account, assignment: i64) -> i64 {
        let new = NewSubmission {
            user_id: who.id,
            problem: "stones".into(),
            kind: SubmissionKind::Program,
            language: Some("python3".into()),
            source: b"print(1)".to_vec(),
            priority: 0,
            assignment_id: Some(assignment),
            instance_seed: None,
        };
        self.store()
            .create_submission(&new, grundy_server::now_ms())
            .await
            .unwrap()
    }
}

async fn read(request: RequestBuilder) -> Page {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let session = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with(&format!("{SESSION_COOKIE}=")))
        .map(|c| c.split(';').next().unwrap().to_owned());
    let html = response.text().await.unwrap();
    Page {
        status,
        location,
        session,
        html,
    }
}

/// Runs `story` on SQLite, then on PostgreSQL where a server answers.
macro_rules! on_both_databases {
    ($sqlite:ident, $postgres:ident, $story:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            let site = Site::sqlite().await;
            $story(&site).await;
            site.finish().await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            if let Some(site) = Site::postgres(stringify!($postgres)).await {
                $story(&site).await;
                site.finish().await;
            }
        }
    };
}

on_both_databases!(
    deadlines_are_typed_in_a_named_zone_and_shown_in_each_readers_on_sqlite,
    deadlines_are_typed_in_a_named_zone_and_shown_in_each_readers_on_postgres,
    deadlines_in_zones
);

async fn deadlines_in_zones(site: &Site) {
    let teacher = site.user("tam", Role::Teacher).await;
    let student = site.user("lan", Role::Student).await;
    let bare = site.user("khoa", Role::Student).await;
    let saved = site
        .post(
            "/account/zone",
            Some(&teacher),
            &[("zone", "Asia/Ho_Chi_Minh")],
        )
        .await;
    assert_eq!((saved.status, saved.location.as_str()), (303, "/account"));
    let course = site.course(&teacher, "10A", &[&student, &bare]).await;

    // The form starts in the account's zone, named beside every time, with nothing to guess.
    let form = site
        .get(&format!("/courses/{course}/assignments/new"), &teacher)
        .await;
    assert_eq!(form.status, 200);
    assert!(
        form.html
            .contains("<option translate=\"no\" selected>Asia/Ho_Chi_Minh</option>")
    );
    assert!(
        form.html
            .contains("(<span class=\"zone-name\">Asia/Ho_Chi_Minh</span>)")
    );
    assert!(!form.html.contains("(UTC)"));
    assert!(!form.html.contains("data-zone-guess"));

    let id = site
        .assignment(&teacher, course, &[("zone", "Asia/Ho_Chi_Minh")])
        .await;
    let (status, body) = site
        .api(&format!("/api/v1/assignments/{id}"), &teacher)
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["due_at"], DUE_UTC, "the API keeps UTC");

    // The edit form shows the time back as it was typed, in the teacher's zone.
    let edit = site.get(&format!("/assignments/{id}/edit"), &teacher).await;
    assert!(
        edit.html.contains("value=\"2026-12-01T23:59\""),
        "{}",
        edit.html
    );

    // A student in New York reads the same moment in their zone (winter: UTC−5), in
    // Vietnamese if they read Vietnamese, with UTC on hover.
    site.store()
        .set_time_zone(student.id, Some("America/New_York"))
        .await
        .unwrap();
    site.store()
        .set_locale(student.id, Some("vi"))
        .await
        .unwrap();
    let page = site.get(&format!("/assignments/{id}"), &student).await;
    assert_eq!(page.status, 200);
    assert!(
        page.html.contains(
            "<time datetime=\"2026-12-01T16:59:00Z\" title=\"2026-12-01 16:59 UTC\">\
             01/12/2026 11:59 (GMT−5)</time>"
        ),
        "{}",
        page.html
    );
    // Without a zone: UTC, marked for the browser to rewrite.
    let page = site.get(&format!("/assignments/{id}"), &bare).await;
    assert!(page.html.contains(
        "<time datetime=\"2026-12-01T16:59:00Z\" title=\"2026-12-01 16:59 UTC\" \
         data-zone=\"browser\">1 Dec 2026, 16:59 (UTC)</time>"
    ));

    // An extension typed in the teacher's zone.
    let extended = site
        .post(
            &format!("/assignments/{id}/extensions"),
            Some(&teacher),
            &[
                ("user", &student.id.to_string()),
                ("due", "2026-12-02T07:00"),
                ("zone", "Asia/Ho_Chi_Minh"),
            ],
        )
        .await;
    assert_eq!(extended.status, 303, "{}", extended.html);
    let extensions = site.store().extensions(id).await.unwrap();
    assert_eq!(extensions[0].due_at, DUE_UTC + 7 * 3_600_000 + 60_000);

    // Unknown zones are refused where they enter, and change nothing.
    let refused = site
        .post(
            "/account/zone",
            Some(&teacher),
            &[("zone", "Mars/Olympus_Mons")],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("unknown time zone"),
        "{}",
        refused.html
    );
    let kept = site.store().user_by_name("tam").await.unwrap().unwrap();
    assert_eq!(kept.time_zone.as_deref(), Some("Asia/Ho_Chi_Minh"));
    let before = site.store().assignments(course).await.unwrap().len();
    let refused = site
        .post(
            &format!("/courses/{course}/assignments"),
            Some(&teacher),
            &[
                ("title", "Week 2"),
                ("zone", "Nowhere/Town"),
                ("opens", "2026-01-01T00:00"),
                ("due", "2026-12-01T23:59"),
                ("closes", "2026-12-03T23:59"),
                ("penalty_percent", "0"),
                ("penalty_step_hours", "24"),
                ("problems", "stones"),
            ],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("role=\"alert\""));
    assert!(
        refused.html.contains("value=\"Week 2\""),
        "the form keeps what was typed"
    );
    assert_eq!(
        site.store().assignments(course).await.unwrap().len(),
        before
    );

    // Back to the browser's zone.
    site.post("/account/zone", Some(&teacher), &[("zone", "")])
        .await;
    let form = site
        .get(&format!("/courses/{course}/assignments/new"), &teacher)
        .await;
    assert!(form.html.contains("data-zone-guess"));
}

on_both_databases!(
    names_are_one_regardless_of_case_on_sqlite,
    names_are_one_regardless_of_case_on_postgres,
    names_regardless_of_case
);

async fn names_regardless_of_case(site: &Site) {
    let teacher = site.user("tam", Role::Teacher).await;
    let sam = site.user("sam", Role::Student).await;
    let course = site.course(&teacher, "10A", &[]).await;
    let users_before = site.store().count_users().await.unwrap();
    let imported = site
        .post(
            &format!("/courses/{course}/members"),
            Some(&teacher),
            &[
                ("names", "Sam\nNEW-one"),
                ("role", "student"),
                ("create_missing", "on"),
            ],
        )
        .await;
    assert_eq!(imported.status, 200);
    // "Sam" is sam: no second account, but an invitation to him; only the new name gets an
    // account, made and added.
    assert_eq!(site.store().count_users().await.unwrap(), users_before + 1);
    let members = site.store().members(course).await.unwrap();
    let mut names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["NEW-one", "tam"], "names are kept as typed");
    let invited = site.store().course_invitations(course).await.unwrap();
    assert_eq!(
        invited.iter().map(|i| i.user_id).collect::<Vec<_>>(),
        [sam.id]
    );
    assert!(imported.html.contains("id=\"new-accounts-hint\""));

    // Registration and the admin's form refuse a name taken in another case.
    let registered = site
        .post(
            "/register",
            None,
            &[("name", "SAM"), ("password", "a-long-password")],
        )
        .await;
    assert_eq!(registered.status, 409, "{}", registered.html);
    // Logging in matches regardless of case too.
    let login = site
        .post(
            "/login",
            None,
            &[
                ("name", "SaM"),
                ("password", "sam-password"),
                ("next", "/courses"),
            ],
        )
        .await;
    assert_eq!((login.status, login.location.as_str()), (303, "/courses"));

    // Some Vietnamese keyboards send "ứ" as "u", a horn and an acute. Such a name registers
    // (the marks alone are no letters), is kept composed, and is one name with its composed
    // twin: for registering, for logging in and for the attempts a login is allowed.
    let decomposed = "\u{110}u\u{31b}\u{301}c";
    let registered = site
        .post(
            "/register",
            None,
            &[("name", decomposed), ("password", "a-long-password")],
        )
        .await;
    assert_eq!(registered.status, 303, "{}", registered.html);
    let duc = site.store().user_by_name("đức").await.unwrap();
    assert_eq!(duc.map(|u| u.name).as_deref(), Some("Đức"));
    let twin = site
        .post(
            "/register",
            None,
            &[("name", "ĐỨC"), ("password", "a-long-password")],
        )
        .await;
    assert_eq!(twin.status, 409, "{}", twin.html);
    let login = site
        .post(
            "/login",
            None,
            &[("name", "Đức"), ("password", "a-long-password")],
        )
        .await;
    assert_eq!(login.status, 303, "{}", login.html);

    // The imported student signs in with the handed-out password, finds their account page
    // from the header of the page they land on, and changes the password there.
    let password = imported
        .html
        .split("<tr data-user=\"NEW-one\">")
        .nth(1)
        .and_then(|row| row.split("<code>").nth(1))
        .and_then(|cell| cell.split("</code>").next())
        .expect("a password for the new account")
        .to_owned();
    let login = site
        .post(
            "/login",
            None,
            &[("name", "new-ONE"), ("password", &password)],
        )
        .await;
    assert_eq!(login.status, 303, "{}", login.html);
    let new_one = Account {
        id: 0,
        cookie: login.session.expect("a session"),
        token: String::new(),
    };
    let landed = site.get(&login.location, &new_one).await;
    assert_eq!(landed.status, 200);
    assert!(
        landed.html.contains("<a href=\"/account\""),
        "{}",
        landed.html
    );
    let account = site.get("/account", &new_one).await;
    assert!(account.html.contains("action=\"/account/password\""));
    let changed = site
        .post(
            "/account/password",
            Some(&new_one),
            &[("current", &password), ("new", "my-own-password")],
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.html);
    let again = site
        .post(
            "/login",
            None,
            &[("name", "NEW-one"), ("password", "my-own-password")],
        )
        .await;
    assert_eq!(again.status, 303);
}

on_both_databases!(
    assignments_are_edited_and_deleted_by_their_teachers_only_on_sqlite,
    assignments_are_edited_and_deleted_by_their_teachers_only_on_postgres,
    edit_and_delete
);

async fn edit_and_delete(site: &Site) {
    let teacher = site.user("tam", Role::Teacher).await;
    let other = site.user("vy", Role::Teacher).await;
    let student = site.user("lan", Role::Student).await;
    let course = site.course(&teacher, "10A", &[&student]).await;
    let id = site
        .assignment(
            &teacher,
            course,
            &[
                ("problems", "nim"),
                ("problems", "stones"),
                ("order.nim", "2"),
                ("order.stones", "1"),
            ],
        )
        .await;
    let stored = site.store().assignment(id).await.unwrap().unwrap();
    assert_eq!(stored.spec.problems, ["stones", "nim"], "the order typed");

    let change = [
        ("title", "Week 1 (again)"),
        ("zone", "UTC"),
        ("opens", "2026-01-01T00:00"),
        ("due", "2026-12-05T12:00"),
        ("closes", "2026-12-05T12:00"),
        ("penalty_percent", "0"),
        ("penalty_step_hours", "24"),
        ("scoring", "last"),
        ("feedback", "verdict"),
        ("problems", "stones"),
    ];
    // Another teacher does not even see it; a student of the course may not change it.
    for (who, status) in [(&other, 404), (&student, 403)] {
        let edit = site.get(&format!("/assignments/{id}/edit"), who).await;
        assert_eq!(edit.status, status, "{}", edit.html);
        let posted = site
            .post(&format!("/assignments/{id}/edit"), Some(who), &change)
            .await;
        assert_eq!(posted.status, status);
        let deleted = site
            .post(&format!("/assignments/{id}/delete"), Some(who), &[])
            .await;
        assert_eq!(deleted.status, status);
        let confirm = site.get(&format!("/assignments/{id}/delete"), who).await;
        assert_eq!(confirm.status, status);
        assert_eq!(
            site.api_delete(&format!("/api/v1/assignments/{id}"), who)
                .await,
            status
        );
    }
    let unchanged = site.store().assignment(id).await.unwrap().unwrap();
    assert_eq!(unchanged.spec.title, "Week 1");

    let edited = site
        .post(&format!("/assignments/{id}/edit"), Some(&teacher), &change)
        .await;
    assert_eq!(
        (edited.status, edited.location.clone()),
        (303, format!("/assignments/{id}"))
    );
    let changed = site.store().assignment(id).await.unwrap().unwrap();
    assert_eq!(changed.spec.title, "Week 1 (again)");
    assert_eq!(changed.spec.problems, ["stones"]);

    // Once a student has submitted, it is edited but not deleted.
    site.submit(&student, id).await;
    let refused = site
        .post(&format!("/assignments/{id}/delete"), Some(&teacher), &[])
        .await;
    assert_eq!(refused.status, 409);
    assert!(refused.html.contains("can be edited but not deleted"));
    let path = format!("/api/v1/assignments/{id}");
    assert_eq!(site.api_delete(&path, &teacher).await, 409);
    assert!(site.store().assignment(id).await.unwrap().is_some());

    // Without submissions: a confirmation page, then gone.
    let fresh = site.assignment(&teacher, course, &[]).await;
    let confirm = site
        .get(&format!("/assignments/{fresh}/delete"), &teacher)
        .await;
    assert_eq!(confirm.status, 200);
    assert!(
        confirm
            .html
            .contains(&format!("action=\"/assignments/{fresh}/delete\""))
    );
    assert!(site.store().assignment(fresh).await.unwrap().is_some());
    let deleted = site
        .post(&format!("/assignments/{fresh}/delete"), Some(&teacher), &[])
        .await;
    assert_eq!(
        (deleted.status, deleted.location),
        (303, format!("/courses/{course}"))
    );
    assert!(site.store().assignment(fresh).await.unwrap().is_none());

    // Scripts delete through the API.
    let scripted = site.assignment(&teacher, course, &[]).await;
    let path = format!("/api/v1/assignments/{scripted}");
    assert_eq!(site.api_delete(&path, &teacher).await, 204);
    assert_eq!(site.api(&path, &teacher).await.0, 404);
    assert!(site.store().assignment(scripted).await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removing_a_member_asks_first_and_empty_courses_say_what_to_do() {
    let site = Site::sqlite().await;
    let teacher = site.user("tam", Role::Teacher).await;
    let student = site.user("lan", Role::Student).await;
    let course = site.course(&teacher, "10A", &[]).await;
    let id = site.assignment(&teacher, course, &[]).await;

    let empty = site.get(&format!("/courses/{course}"), &teacher).await;
    assert!(empty.html.contains("id=\"no-students\""));
    let book = site.get(&format!("/assignments/{id}"), &teacher).await;
    assert!(book.html.contains("id=\"no-students\""));
    assert!(!book.html.contains("id=\"gradebook\""), "no table of zeros");

    site.store()
        .add_member(
            course,
            student.id,
            grundy_store::MemberRole::Student,
            grundy_store::MemberOrigin::JoinCode,
            0,
        )
        .await
        .unwrap();
    let page = site.get(&format!("/courses/{course}"), &teacher).await;
    assert!(!page.html.contains("id=\"no-students\""));
    let remove = format!("/courses/{course}/members/{}/remove", student.id);
    // The button is a link to a question; asking removes nobody.
    assert!(page.html.contains(&format!("href=\"{remove}\"")));
    let asked = site.get(&remove, &teacher).await;
    assert_eq!(asked.status, 200);
    assert!(asked.html.contains(&format!("action=\"{remove}\"")));
    assert!(asked.html.contains("lan"));
    assert_eq!(site.store().members(course).await.unwrap().len(), 2);
    // The student may not even ask.
    assert_eq!(site.get(&remove, &student).await.status, 403);
    let removed = site.post(&remove, Some(&teacher), &[]).await;
    assert_eq!(removed.status, 303);
    assert_eq!(site.store().members(course).await.unwrap().len(), 1);
    site.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_picker_shows_titles_and_submissions_filter_by_course_and_assignment() {
    let site = Site::sqlite().await;
    let teacher = site.user("tam", Role::Teacher).await;
    let ann = site.user("ann", Role::Student).await;
    let bob = site.user("bob", Role::Student).await;
    let first = site.course(&teacher, "10A", &[&ann]).await;
    let second = site.course(&teacher, "10B", &[&bob]).await;

    let form = site
        .get(&format!("/courses/{first}/assignments/new"), &teacher)
        .await;
    assert!(
        form.html
            .contains("type=\"checkbox\" name=\"problems\" value=\"stones\"")
    );
    assert!(form.html.contains("name=\"order.stones\""));
    assert!(
        !form.html.contains("<select id=\"problems\""),
        "no multi-select"
    );
    assert!(!form.html.contains("(stones)"), "titles, not slugs");

    let a1 = site.assignment(&teacher, first, &[]).await;
    let a2 = site.assignment(&teacher, first, &[]).await;
    let b1 = site.assignment(&teacher, second, &[]).await;
    let in_a1 = site.submit(&ann, a1).await;
    let in_a2 = site.submit(&ann, a2).await;
    let in_b1 = site.submit(&bob, b1).await;
    let shown = |html: &str| -> Vec<i64> {
        [in_a1, in_a2, in_b1]
            .into_iter()
            .filter(|id| html.contains(&format!("data-id=\"{id}\"")))
            .collect()
    };
    let all = site.get("/teach/submissions", &teacher).await;
    assert_eq!(shown(&all.html), [in_a1, in_a2, in_b1]);
    assert!(
        all.html
            .contains(&format!("<option value=\"{first}\" >10A</option>"))
    );
    let by_course = site
        .get(
            &format!("/teach/submissions?course={first}&assignment="),
            &teacher,
        )
        .await;
    assert_eq!(shown(&by_course.html), [in_a1, in_a2]);
    let by_assignment = site
        .get(
            &format!("/teach/submissions?course=&assignment={a2}"),
            &teacher,
        )
        .await;
    assert_eq!(shown(&by_assignment.html), [in_a2]);
    let older = site
        .get(&format!("/teach/submissions?course={second}"), &teacher)
        .await;
    assert_eq!(shown(&older.html), [in_b1]);
    assert_eq!(
        site.get("/teach/submissions?course=ten", &teacher)
            .await
            .status,
        400
    );
    site.finish().await;
}
