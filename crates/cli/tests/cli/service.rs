//! The service as users meet it: `grundy serve` on a real port, `grundy admin`, `grundy submit`,
//! the JSON API and its errors; on SQLite with in-process workers, and on PostgreSQL with
//! separate `grundy worker` processes, one of them killed mid-judging.

use crate::common;

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use common::service::{Process, admin_create, grundy_command, guess, pebbles, serve, start_serve};
use common::{isolation_available, programs, tool_available};
use grundy_server::telemetry::{Sample, names, parse_exposition};
use serde_json::{Value, json};

fn submit(url: &str, token: &str, problem: &str, file: &str, extra: &[&str]) -> (bool, String) {
    let path = programs().join("solutions").join(file);
    let mut args = vec![
        "submit",
        "--server",
        url,
        "--token",
        token,
        "--problem",
        problem,
    ];
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let out = grundy_command(&args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

async fn call(
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<reqwest::Body>,
) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut request = client.request(method, url);
    if let Some(t) = token {
        request = request.bearer_auth(t);
    }
    if let Some(b) = body {
        request = request.header("content-type", "application/json").body(b);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn wait_done(url: &str, token: &str, id: i64, within: Duration) -> Value {
    wait_for(url, token, id, within, "judged", |doc| {
        doc["status"] == "done"
    })
    .await
}

/// Reads submission `id` until `ready` holds (`what` it is waiting for, for the failure).
async fn wait_for(
    url: &str,
    token: &str,
    id: i64,
    within: Duration,
    what: &str,
    ready: fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let (_, doc) = call(
            reqwest::Method::GET,
            &format!("{url}/api/v1/submissions/{id}"),
            Some(token),
            None,
        )
        .await;
        if ready(&doc) {
            return doc;
        }
        assert!(
            start.elapsed() < within,
            "submission {id} not {what} in {within:?}: {doc}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits for a judged submission's explanation, found after its verdict.
async fn wait_explained(url: &str, token: &str, id: i64, within: Duration) -> Value {
    wait_for(url, token, id, within, "explained", |doc| {
        !doc["explanation"].is_null()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_and_submit_on_sqlite() {
    if !isolation_available("service on SQLite")
        || !tool_available("service on SQLite", "/usr/bin/g++")
    {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, admin) = serve(&["--workers", "1"], data.path());
    let admin = admin.expect("a fresh database prints the first admin's token");

    let (accepted, out) = submit(&url, &admin, "stones", "stones/ok.cpp", &[]);
    assert!(accepted, "{out}");
    assert!(out.contains("accepted, score 100/100"), "{out}");
    assert!(out.contains("full"), "the per-test table: {out}");
    // Named as people type it: the server keeps the id (checked below).
    let (accepted, out) = submit(
        &url,
        &admin,
        "stones",
        "stones/wrong.cpp",
        &["--lang", "G++"],
    );
    assert!(!accepted);
    assert!(out.contains("wrong_answer, score 30/100"), "{out}");
    // The subtasks as the statement lists them, with where the second first failed.
    assert!(out.contains("Subtask 1 (30 points): 30/30\n"), "{out}");
    assert!(
        out.contains("Subtask 2 (70 points): 0/70, failed at test "),
        "{out}"
    );

    // An interactive problem through a worker: its referee plays the program. The sample's games
    // come back move by move; a hidden test names the game and move of the mistake, not the
    // position.
    let (accepted, out) = submit(&url, &admin, "nim-play", "../play/nim-play/blunder.c", &[]);
    assert!(!accepted, "{out}");
    assert!(out.contains("wrong_answer"), "{out}");
    let (status, doc) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions/3"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let tests = doc["tests"].as_array().unwrap();
    let sample = &tests[0];
    assert_eq!(sample["group"], "samples", "{doc}");
    assert_eq!(sample["verdict"], "wrong_answer", "{doc}");
    let games = sample["transcript"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{sample}");
    assert!(
        games[1]["mistake"].as_str().unwrap().contains("from ("),
        "{sample}"
    );
    let hidden = tests
        .iter()
        .find(|t| t["group"] != "samples" && t["verdict"] == "wrong_answer")
        .unwrap();
    assert!(hidden.get("transcript").is_none(), "{hidden}");
    let message = hidden["message"].as_str().unwrap();
    assert!(
        message.starts_with("game ") && !message.contains('('),
        "{message}"
    );

    let (status, doc) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions/1"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (
            doc["verdict"].as_str(),
            doc["problem_version"].as_i64(),
            doc["attempts"].as_i64()
        ),
        (Some("accepted"), Some(1), Some(1))
    );
    let tests = doc["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 6 + 24, "samples and both subtasks");
    assert!(tests.iter().all(|t| t["verdict"] == "accepted"
        && t["cpu_ms"].is_i64()
        && t["memory_kib"].as_i64() > Some(0)));
    assert_eq!(
        doc["source"].as_str(),
        Some(
            std::fs::read_to_string(programs().join("solutions/stones/ok.cpp"))
                .unwrap()
                .as_str()
        ),
        "the owner sees the source"
    );

    // A student, created while the server runs, sees only their own submissions.
    let data_args = ["--data-dir", data.path().to_str().unwrap()];
    let student = admin_create(&data_args, "stu", "student");
    let (status, _) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions/1"),
        Some(&student),
        None,
    )
    .await;
    assert_eq!(
        status, 404,
        "someone else's submission does not exist for a student"
    );
    let (_, list) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions"),
        Some(&student),
        None,
    )
    .await;
    assert_eq!(list["submissions"].as_array().unwrap().len(), 0);
    let (status, _) = call(
        reqwest::Method::POST,
        &format!("{url}/api/v1/submissions/1/rejudge"),
        Some(&student),
        None,
    )
    .await;
    assert_eq!(status, 403);

    // Rejudging by the admin: judged again, once more.
    let (status, _) = call(
        reqwest::Method::POST,
        &format!("{url}/api/v1/submissions/1/rejudge"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, 202);
    let again = wait_done(&url, &admin, 1, Duration::from_secs(60)).await;
    assert_eq!(
        (again["verdict"].as_str(), again["attempts"].as_i64()),
        (Some("accepted"), Some(1))
    );

    // Errors: JSON bodies with the right status, nothing else affected.
    let submissions = format!("{url}/api/v1/submissions");
    let cases: Vec<(Option<&str>, reqwest::Body, u16, &str)> = vec![
        (Some(&admin), "{not json".into(), 400, "bad_request"),
        (
            Some(&admin),
            json!({"problem": "nope", "language": "c", "source": "x"})
                .to_string()
                .into(),
            404,
            "not_found",
        ),
        (
            Some(&admin),
            json!({"problem": "stones", "language": "cobol", "source": "x"})
                .to_string()
                .into(),
            400,
            "bad_request",
        ),
        (
            Some(&admin),
            json!({"problem": "stones", "language": "c", "source": "x", "extra": 1})
                .to_string()
                .into(),
            422,
            "invalid",
        ),
        (
            Some(&admin),
            vec![b' '; (1 << 20) + 1024].into(),
            413,
            "too_large",
        ),
        (
            None,
            json!({"problem": "stones", "language": "c", "source": "x"})
                .to_string()
                .into(),
            401,
            "unauthorized",
        ),
        (
            Some("grundy_0000"),
            json!({"problem": "stones", "language": "c", "source": "x"})
                .to_string()
                .into(),
            401,
            "unauthorized",
        ),
    ];
    for (token, body, want, code) in cases {
        let (status, doc) = call(reqwest::Method::POST, &submissions, token, Some(body)).await;
        assert_eq!((status, doc["error"].as_str()), (want, Some(code)), "{doc}");
        assert!(doc["message"].is_string());
    }
    let (status, doc) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/nothing-here"),
        None,
        None,
    )
    .await;
    assert_eq!((status, doc["error"].as_str()), (404, Some("not_found")));
    let (status, doc) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/problems/stones?lang=vi"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(doc["title"], "Bốc đá");
    assert!(
        doc["languages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == "cpp20")
    );
    let (_, list) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/problems?tag=nim"),
        None,
        None,
    )
    .await;
    assert!(
        list["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["tags"].as_array().unwrap().contains(&json!("nim")))
    );
    let (_, mine) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions"),
        Some(&admin),
        None,
    )
    .await;
    // Two Stones programs and the Nim player: the refused requests stored nothing.
    let mine = mine["submissions"].as_array().unwrap();
    assert_eq!(mine.len(), 3, "the refused requests stored nothing");
    let wrong = mine.iter().find(|s| s["id"] == 2).unwrap();
    assert_eq!(wrong["language"], "cpp20", "stored by its id: {wrong}");
}

async fn submit_json(url: &str, token: &str, body: Value) -> i64 {
    let (status, doc) = call(
        reqwest::Method::POST,
        &format!("{url}/api/v1/submissions"),
        Some(token),
        Some(body.to_string().into()),
    )
    .await;
    assert_eq!(status, 201, "{doc}");
    doc["id"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_packages_and_the_problem_tools_on_sqlite() {
    let test = "answers and packages on SQLite";
    if !isolation_available(test)
        || !tool_available(test, "/usr/bin/python3")
        || !tool_available(test, "/usr/bin/gcc")
    {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    let file = |name: &str| data.path().join(name).to_str().unwrap().to_owned();

    // A teacher with a password read from stdin, and a token.
    let mut child = grundy_command(&[
        "admin",
        "create-user",
        "--name",
        "tina",
        "--role",
        "teacher",
        "--password-stdin",
        "--print-token",
        "--data-dir",
        data_dir,
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .spawn()
    .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"tina-password-1\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let teacher = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_owned();

    // The problem tools: export a built-in problem, import a package into the database.
    let run = |args: &[&str]| grundy_command(args).output().unwrap();
    let exported = |args: &[&str], zip: &str| {
        let out = run(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        grundy_problems::read_zip(
            &std::fs::read(file(zip)).unwrap(),
            &grundy_problems::ReadLimits::default(),
        )
        .unwrap()
    };
    let stones = exported(
        &["problems", "export", "stones", "--out", &file("stones.zip")],
        "stones.zip",
    );
    assert_eq!(stones.slug(), "stones");
    let out = run(&[
        "problems",
        "import",
        &file("stones.zip"),
        "--data-dir",
        data_dir,
    ]);
    assert!(!out.status.success(), "a built-in slug is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("built-in"));
    std::fs::write(file("pebbles.zip"), pebbles("pebbles", false)).unwrap();
    let out = run(&[
        "problems",
        "import",
        &file("pebbles.zip"),
        "--owner",
        "tina",
        "--data-dir",
        data_dir,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("imported pebbles version 1"));
    std::fs::write(file("broken.zip"), b"PK not really").unwrap();
    let out = run(&[
        "problems",
        "import",
        &file("broken.zip"),
        "--data-dir",
        data_dir,
    ]);
    assert!(!out.status.success());

    let (_server, url, admin) = serve(&["--workers", "1"], data.path());
    assert!(admin.is_none(), "a database with users gets no new admin");
    let (status, _) = call(
        reqwest::Method::POST,
        &format!("{url}/api/v1/login"),
        None,
        Some(
            json!({"name": "tina", "password": "tina-password-1"})
                .to_string()
                .into(),
        ),
    )
    .await;
    assert_eq!(status, 200, "the password given on stdin signs in");

    // The imported package judges programs.
    let parity = "n = int(input())\nprint('First' if n % 2 else 'Second')\n";
    let lower = "n = int(input())\nprint('first' if n % 2 else 'second')\n";
    let initial = "n = int(input())\nprint('F' if n % 2 else 'S')\n";
    let program = |problem: &str, source: &str| json!({"problem": problem, "language": "python3", "source": source});
    let id = submit_json(&url, &teacher, program("pebbles", parity)).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["score"].as_i64()),
        (Some("accepted"), Some(100)),
        "{doc}"
    );
    assert_eq!(doc["tests"].as_array().unwrap().len(), 3);
    let id = submit_json(&url, &teacher, program("pebbles", lower)).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        doc["verdict"], "accepted",
        "Kattis's default comparison ignores case: {doc}"
    );
    let id = submit_json(&url, &teacher, program("pebbles", initial)).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(doc["verdict"], "wrong_answer", "{doc}");

    // An uploaded package with an output validator, run in the sandbox.
    let response = reqwest::Client::new()
        .post(format!("{url}/api/v1/problems"))
        .bearer_auth(&teacher)
        .header("content-type", "application/zip")
        .body(pebbles("pebbles-anycase", true))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
    let id = submit_json(&url, &teacher, program("pebbles-anycase", initial)).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["score"].as_i64()),
        (Some("accepted"), Some(100)),
        "{doc}"
    );
    let wrong = "print('first')\n";
    let id = submit_json(&url, &teacher, program("pebbles-anycase", wrong)).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["score"].as_i64()),
        (Some("wrong_answer"), Some(0)),
        "{doc}"
    );

    // An interactive package: its interactor, in C, judges each program from a second sandbox.
    let kattis =
        |file: &str| std::fs::read_to_string(programs().join("kattis").join(file)).unwrap();
    let response = reqwest::Client::new()
        .post(format!("{url}/api/v1/problems"))
        .bearer_auth(&teacher)
        .header("content-type", "application/zip")
        .body(guess("guess-number", &kattis("interactor.c")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
    let (status, view) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/problems/guess-number"),
        Some(&teacher),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (&view["interactive"], &view["playable"]),
        (&json!(true), &json!(false)),
        "{view}"
    );
    let c =
        |file: &str| json!({"problem": "guess-number", "language": "c", "source": kattis(file)});
    let id = submit_json(&url, &teacher, c("right.c")).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["score"].as_i64()),
        (Some("accepted"), Some(100)),
        "{doc}"
    );
    let id = submit_json(&url, &teacher, c("linear.c")).await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(doc["verdict"], "wrong_answer", "{doc}");
    assert_eq!(
        doc["tests"][0]["message"], "20 wrong guesses; the number was 37",
        "the sample's message from the interactor: {doc}"
    );

    // Answers without a program: right ones are accepted; wrong answers to the full subtask's
    // instances cost its points only.
    let (status, list) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/problems/stones/instances"),
        Some(&teacher),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let catalogue = grundy_problems::Catalogue::builtin().unwrap();
    let solver = catalogue.get("stones").unwrap().solver().unwrap();
    let mut right = serde_json::Map::new();
    let mut partly = serde_json::Map::new();
    for instance in list["instances"].as_array().unwrap() {
        let name = instance["name"].as_str().unwrap().to_owned();
        let answer = solver
            .solve_text(instance["input"].as_str().unwrap())
            .unwrap();
        let flipped = if answer.trim() == "First" {
            "Second"
        } else {
            "First"
        };
        right.insert(name.clone(), answer.clone().into());
        let given = if instance["group"] == "full" {
            flipped.to_owned()
        } else {
            answer
        };
        partly.insert(name, given.into());
    }
    let id = submit_json(
        &url,
        &teacher,
        json!({"problem": "stones", "answers": right}),
    )
    .await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (
            doc["verdict"].as_str(),
            doc["score"].as_i64(),
            doc["kind"].as_str()
        ),
        (Some("accepted"), Some(100), Some("answers")),
        "{doc}"
    );
    assert_eq!(
        doc["tests"].as_array().unwrap().len(),
        list["instances"].as_array().unwrap().len()
    );
    let id = submit_json(
        &url,
        &teacher,
        json!({"problem": "stones", "answers": partly.clone()}),
    )
    .await;
    let doc = wait_done(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["score"].as_i64()),
        (Some("wrong_answer"), Some(30)),
        "{doc}"
    );
    // Each instance answered wrong is explained: its game and what was answered there. Practice
    // shows the `tests` level at most, where the right answers of one's own instances, and the
    // certificates that prove them, are not shown: copied back, they would score.
    let doc = wait_explained(&url, &teacher, id, Duration::from_secs(60)).await;
    assert_eq!(doc["explanation"]["withheld"], true, "{doc}");
    let wrong = doc["explanation"]["instances"].as_array().unwrap();
    let flipped: Vec<&Value> = list["instances"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["group"] == "full")
        .collect();
    assert_eq!(wrong.len(), flipped.len(), "{doc}");
    for (explained, instance) in wrong.iter().zip(flipped) {
        assert_eq!(explained["name"], instance["name"]);
        assert_eq!(
            explained["position"], instance["input"],
            "Stones: one game each"
        );
        assert_eq!(explained["got"], partly[instance["name"].as_str().unwrap()]);
        assert!(
            explained["certificate"].is_null() && explained["expected"].is_null(),
            "{explained}"
        );
    }
    drop(_server);

    // Problems made in the service export from its database.
    let back = exported(
        &[
            "problems",
            "export",
            "pebbles-anycase",
            "--out",
            &file("anycase.zip"),
            "--data-dir",
            data_dir,
        ],
        "anycase.zip",
    );
    assert!(back.output_validator().is_some());
}

/// A fresh PostgreSQL database for one test, dropped at the end.
struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PgDatabase {
    fn create(test: &str) -> Option<PgDatabase> {
        let admin_url = std::env::var("GRUNDY_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let admin = match psql(&admin_url) {
            Some(p) => p,
            None => {
                if std::env::var("CI").is_ok_and(|v| v == "true") {
                    panic!("{test}: PostgreSQL at {admin_url} is required in CI");
                }
                eprintln!("SKIPPED {test}: no PostgreSQL at {admin_url}");
                return None;
            }
        };
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "grundy_service_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        admin.execute(&format!("CREATE DATABASE {name}"));
        let url = format!("{}/{name}", admin_url.rsplit_once('/').unwrap().0);
        Some(PgDatabase {
            admin_url,
            name,
            url,
        })
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // psql is on every machine with the server; a failure only leaves a scratch database.
        let _ = Command::new("psql")
            .args([
                &self.admin_url,
                "-q",
                "-c",
                &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
            ])
            .output();
    }
}

/// Creating and dropping the scratch database goes through psql, which comes with the server.
struct Psql(String);

impl Psql {
    fn execute(&self, sql: &str) {
        let out = Command::new("psql")
            .args([&self.0, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn psql(url: &str) -> Option<Psql> {
    let out = Command::new("psql")
        .args([url, "-q", "-c", "SELECT 1"])
        .output()
        .ok()?;
    out.status.success().then(|| Psql(url.to_owned()))
}

fn worker(url: &str, data_dir: &Path, lease_secs: &str) -> Process {
    start_worker(url, data_dir, lease_secs, &[]).0
}

/// A `grundy worker` with `extra` arguments; where it serves `/metrics`, if it does.
fn start_worker(
    url: &str,
    data_dir: &Path,
    lease_secs: &str,
    extra: &[&str],
) -> (Process, Option<String>) {
    let mut args = vec![
        "worker",
        "--database-url",
        url,
        "--data-dir",
        data_dir.to_str().unwrap(),
        "--workers",
        "1",
        "--lease-secs",
        lease_secs,
    ];
    args.extend_from_slice(extra);
    let mut child = grundy_command(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut metrics = None;
    loop {
        let line = lines.next().expect("the worker reports").unwrap();
        if let Some(m) = line.strip_prefix("metrics on ") {
            metrics = Some(m.to_owned());
            continue;
        }
        assert!(line.starts_with("worker ready"), "{line}");
        break;
    }
    std::thread::spawn(move || for _ in lines {});
    (Process(child), metrics)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_on_postgres_judge_each_submission_once_even_when_one_dies() {
    let test = "service on PostgreSQL";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/g++") {
        return;
    }
    let Some(db) = PgDatabase::create(test) else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let (_server, url, admin) = serve(&["--database-url", &db.url, "--workers", "0"], data.path());
    let admin = admin.expect("a fresh database prints the first admin's token");
    let first = worker(&db.url, &data.path().join("w1"), "3");
    let _second = worker(&db.url, &data.path().join("w2"), "3");

    let source = std::fs::read_to_string(programs().join("solutions/stones/ok.cpp")).unwrap();
    let mut ids = Vec::new();
    for _ in 0..4 {
        let body = json!({"problem": "stones", "language": "cpp20", "source": source}).to_string();
        let (status, doc) = call(
            reqwest::Method::POST,
            &format!("{url}/api/v1/submissions"),
            Some(&admin),
            Some(body.into()),
        )
        .await;
        assert_eq!(status, 201, "{doc}");
        ids.push(doc["id"].as_i64().unwrap());
    }
    for id in &ids {
        let doc = wait_done(&url, &admin, *id, Duration::from_secs(120)).await;
        assert_eq!(
            (doc["verdict"].as_str(), doc["attempts"].as_i64()),
            (Some("accepted"), Some(1)),
            "{doc}"
        );
        assert_eq!(doc["tests"].as_array().unwrap().len(), 30);
    }

    // A slow solution; its worker is killed mid-judging; the other judges it after the lease.
    let slow = std::fs::read_to_string(programs().join("solutions/stones/slow.cpp")).unwrap();
    drop(_second);
    let body = json!({"problem": "stones", "language": "cpp20", "source": slow}).to_string();
    let (_, doc) = call(
        reqwest::Method::POST,
        &format!("{url}/api/v1/submissions"),
        Some(&admin),
        Some(body.into()),
    )
    .await;
    let id = doc["id"].as_i64().unwrap();
    let start = Instant::now();
    loop {
        let (_, doc) = call(
            reqwest::Method::GET,
            &format!("{url}/api/v1/submissions/{id}"),
            Some(&admin),
            None,
        )
        .await;
        if doc["status"] == "judging" && !doc["tests"].as_array().unwrap().is_empty() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never started judging: {doc}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(first); // SIGKILL, mid-judging
    let (_third, metrics) = start_worker(
        &db.url,
        &data.path().join("w3"),
        "3",
        &["--metrics-listen", "127.0.0.1:0"],
    );
    let doc = wait_done(&url, &admin, id, Duration::from_secs(180)).await;
    assert_eq!(
        (doc["verdict"].as_str(), doc["attempts"].as_i64()),
        (Some("time_limit"), Some(2)),
        "{doc}"
    );
    assert_eq!(
        doc["tests"].as_array().unwrap().len(),
        30,
        "the dead attempt's partial results are gone"
    );

    // The third worker's own figures: the one verdict it stored, its worker alive; the queue,
    // shared, is empty.
    let samples = scrape(test, &metrics.expect("the worker serves its figures")).await;
    assert_eq!(
        figure(&samples, names::VERDICTS, &[("verdict", "time_limit")]),
        1.0
    );
    assert_eq!(figure(&samples, names::VERDICTS, &[]), 1.0);
    assert_eq!(
        figure(
            &samples,
            &format!("{}_count", names::TIME_TO_VERDICT),
            &[("class", "practice")]
        ),
        1.0
    );
    assert_eq!(figure(&samples, names::WORKERS_ALIVE, &[]), 1.0);
    assert_eq!(figure(&samples, names::QUEUE_DEPTH, &[]), 0.0);
    assert!(
        samples.iter().all(|s| s.name != names::HTTP_REQUESTS),
        "a worker serves no requests"
    );
}

/// The figures of the series `name` whose labels include `labels`, added up.
fn figure(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|s| s.name == name && labels.iter().all(|(k, v)| s.label(k) == *v))
        .map(|s| s.value)
        .sum()
}

/// `/metrics` read, and checked by promtool where it is installed (in CI it must be).
async fn scrape(test: &str, metrics: &str) -> Vec<Sample> {
    let text = reqwest::get(metrics)
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .text()
        .await
        .unwrap();
    if tool_available(test, "/usr/bin/promtool") {
        use std::io::Write;
        let mut promtool = Command::new("/usr/bin/promtool")
            .args(["check", "metrics"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        promtool
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = promtool.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "promtool check metrics: {}{}\n{text}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    parse_exposition(&text).unwrap_or_else(|| panic!("not the text format:\n{text}"))
}

/// The cells of the row of a table printed by `grundy` whose first cell is `first`.
fn row(table: &str, first: &str) -> Option<Vec<String>> {
    table.lines().find_map(|line| {
        let cells: Vec<String> = line
            .split(['│', '┆', '|'])
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty())
            .collect();
        (cells.first().map(String::as_str) == Some(first)).then_some(cells)
    })
}

/// `grundy serve --metrics-listen`: after judging a few submissions, its figures agree with
/// what the API says was judged (verdicts, tests run and skipped, time to verdict counted once
/// each), a program judged twice is compiled once, the queue is empty, the worker is alive; and
/// `grundy admin status` prints the same figures.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_read_back_after_judging_and_admin_status_prints_them() {
    let test = "metrics after judging";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/gcc") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let started = start_serve(
        &["--workers", "1", "--metrics-listen", "127.0.0.1:0"],
        data.path(),
    );
    let (url, metrics) = (started.url.clone(), started.metrics.clone().unwrap());
    let admin = started.token.clone().unwrap();
    let before = grundy_server::now_ms() as f64 / 1000.0;

    let source = std::fs::read_to_string(programs().join("solutions/stones/ok.c")).unwrap();
    let program = json!({"problem": "stones", "language": "c", "source": source});
    let answers = json!({"problem": "stones", "answers": {"1": "Second"}});
    let mut ids = Vec::new();
    for body in [&program, &program, &answers] {
        let (status, doc) = call(
            reqwest::Method::POST,
            &format!("{url}/api/v1/submissions"),
            Some(&admin),
            Some(body.to_string().into()),
        )
        .await;
        assert_eq!(status, 201, "{doc}");
        ids.push(doc["id"].as_i64().unwrap());
    }
    // What the API says was judged, to hold the figures against.
    let mut verdicts: std::collections::BTreeMap<String, f64> = Default::default();
    let mut tests: std::collections::BTreeMap<String, f64> = Default::default();
    for id in &ids {
        let doc = wait_done(&url, &admin, *id, Duration::from_secs(120)).await;
        *verdicts
            .entry(doc["verdict"].as_str().unwrap().to_owned())
            .or_default() += 1.0;
        for t in doc["tests"].as_array().unwrap() {
            *tests
                .entry(t["verdict"].as_str().unwrap().to_owned())
                .or_default() += 1.0;
        }
    }
    assert_eq!(verdicts.get("accepted"), Some(&2.0), "{verdicts:?}");

    let samples = scrape(test, &metrics).await;
    for verdict in grundy_judge::Verdict::ALL {
        let wire = verdict.as_str();
        assert_eq!(
            figure(&samples, names::VERDICTS, &[("verdict", wire)]),
            verdicts.get(wire).copied().unwrap_or(0.0),
            "{wire}"
        );
    }
    for (verdict, count) in &tests {
        let counted = if verdict == "skipped" {
            figure(&samples, names::TESTS_SKIPPED, &[])
        } else {
            figure(&samples, names::TESTS_RUN, &[("verdict", verdict)])
        };
        assert_eq!(counted, *count, "tests {verdict}");
    }
    let all_tests: f64 = tests.values().sum();
    assert_eq!(
        figure(&samples, names::TESTS_RUN, &[]) + figure(&samples, names::TESTS_SKIPPED, &[]),
        all_tests
    );
    let waited = format!("{}_count", names::TIME_TO_VERDICT);
    assert_eq!(figure(&samples, &waited, &[("class", "practice")]), 3.0);
    assert_eq!(
        figure(
            &samples,
            &format!("{}_bucket", names::TIME_TO_VERDICT),
            &[("class", "practice"), ("le", "+Inf")]
        ),
        3.0
    );
    assert!(figure(&samples, &format!("{}_sum", names::TIME_TO_VERDICT), &[]) > 0.0);
    // The same source twice: compiled, then taken from the cache; answers build nothing.
    assert_eq!(
        figure(&samples, names::COMPILATIONS, &[("cache", "miss")]),
        1.0
    );
    assert_eq!(
        figure(&samples, names::COMPILATIONS, &[("cache", "hit")]),
        1.0
    );
    for class in ["assignment", "practice", "rejudge"] {
        assert_eq!(
            figure(&samples, names::QUEUE_DEPTH, &[("class", class)]),
            0.0
        );
    }
    assert_eq!(figure(&samples, names::WORKERS_ALIVE, &[]), 1.0);
    let beats: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.name == names::WORKER_HEARTBEAT)
        .collect();
    assert_eq!(beats.len(), 1, "{beats:?}");
    let now = grundy_server::now_ms() as f64 / 1000.0;
    assert!(
        beats[0].value >= before && beats[0].value <= now,
        "{beats:?}"
    );
    assert_eq!(
        figure(
            &samples,
            names::HTTP_REQUESTS,
            &[
                ("route", "/api/v1/submissions"),
                ("method", "POST"),
                ("status", "201")
            ]
        ),
        3.0
    );
    assert!(
        figure(
            &samples,
            names::HTTP_REQUESTS,
            &[
                ("route", "/api/v1/submissions/{id}"),
                ("method", "GET"),
                ("status", "200")
            ]
        ) >= 3.0
    );

    let out = grundy_command(&["admin", "status", "--metrics-url", &metrics])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{table}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(row(&table, "practice").unwrap()[1], "0", "{table}");
    for (verdict, count) in &verdicts {
        let shown = row(&table, &format!("verdict {verdict}")).unwrap();
        assert_eq!(shown[1], count.to_string(), "{table}");
    }
    assert_eq!(row(&table, "compile cache hit").unwrap()[1], "1", "{table}");
    assert!(table.contains("Workers (this process): 1 alive"), "{table}");
    let posted = row(&table, "/api/v1/submissions").unwrap();
    assert_eq!(posted[1..], ["POST", "201", "3"], "{table}");
    // The time-to-verdict row: its class, then the count.
    let times: Vec<String> = table
        .lines()
        .skip_while(|l| !l.starts_with("Time to verdict"))
        .find_map(|l| row(l, "practice"))
        .unwrap();
    assert_eq!(times[1], "3", "{table}");
}

/// `grundy serve` or `grundy worker` in a process group of its own, so that a test can send it
/// what a terminal's Ctrl-C sends (SIGINT to the whole group) without reaching itself. Its
/// standard output is read up to the line that starts with `ready`; the lines read are returned.
fn start_in_group(args: &[&str], ready: &str) -> (Process, Vec<String>) {
    let mut child = grundy_command(args)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    while !seen
        .last()
        .is_some_and(|line: &String| line.starts_with(ready))
    {
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("{args:?} ended before saying {ready:?}: {seen:?}"));
        seen.push(line.unwrap());
    }
    std::thread::spawn(move || for _ in lines {});
    (Process(child), seen)
}

/// [`start_in_group`] for `grundy serve`: the process, its URL and the first admin's token.
fn serve_in_group(extra: &[&str], data_dir: &Path) -> (Process, String, Option<String>) {
    let mut args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
        data_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (process, lines) = start_in_group(&args, "listening on ");
    let url = lines.last().unwrap()["listening on ".len()..].to_owned();
    let token = lines
        .iter()
        .find_map(|line| line.split("(shown only now): ").nth(1))
        .map(str::to_owned);
    (process, url, token)
}

/// [`start_in_group`] for `grundy worker` with one judging worker.
fn worker_in_group(url: &str, data_dir: &Path, extra: &[&str]) -> Process {
    let mut args = vec![
        "worker",
        "--database-url",
        url,
        "--data-dir",
        data_dir.to_str().unwrap(),
        "--workers",
        "1",
    ];
    args.extend_from_slice(extra);
    start_in_group(&args, "worker ready").0
}

/// How a service is told to stop.
#[derive(Debug, Clone, Copy)]
enum Stop {
    /// SIGTERM to the process, as `docker stop` and `docker compose down` send.
    Term,
    /// SIGINT to its whole process group, as a terminal sends on Ctrl-C.
    CtrlC,
}

/// Tells `process` to stop and waits for it to exit; fails if it is still running after
/// `within`. Returns how it exited.
fn stop(process: &mut Process, how: Stop, within: Duration) -> ExitStatus {
    use nix::sys::signal::{Signal, kill, killpg};
    let pid = nix::unistd::Pid::from_raw(process.0.id() as i32);
    match how {
        Stop::Term => kill(pid, Signal::SIGTERM),
        Stop::CtrlC => killpg(pid, Signal::SIGINT),
    }
    .unwrap();
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = process.0.try_wait().unwrap() {
            return status;
        }
        assert!(
            Instant::now() < deadline,
            "still running {within:?} after {how:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A correct Stones program that waits 0.3 s before each answer: some ten seconds for the whole
/// test set, long enough to be caught mid-judging and to outlast a grace period of a second,
/// short enough to finish within a long one.
fn slow_but_correct() -> Value {
    let ok = std::fs::read_to_string(programs().join("solutions/stones/ok.py")).unwrap();
    let source = format!("import time\ntime.sleep(0.3)\n{ok}");
    json!({"problem": "stones", "language": "python3", "source": source})
}

/// What the margin on a shutdown covers: giving a claim back, closing the database, leaving.
const EXIT_MARGIN: Duration = Duration::from_secs(15);

async fn submission(url: &str, token: &str, id: i64) -> Value {
    call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions/{id}"),
        Some(token),
        None,
    )
    .await
    .1
}

/// `grundy serve` on SQLite told to stop: with a grace period shorter than the submission in
/// hand, it gives the submission back to the queue (not counted as an attempt; its lease, far
/// longer than the test, released) and exits; with a longer one, after Ctrl-C, it finishes it
/// first; idle, it exits at once. Every exit is clean.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_on_sqlite_stops_within_its_grace_period() {
    let test = "shutdown on SQLite";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/python3") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let with_grace = |grace: &'static str| {
        [
            "--workers",
            "1",
            "--lease-secs",
            "600",
            "--shutdown-grace-secs",
            grace,
        ]
    };
    let (mut first, url, admin) = serve_in_group(&with_grace("1"), data.path());
    let admin = admin.expect("a fresh database prints the first admin's token");
    let id = submit_json(&url, &admin, slow_but_correct()).await;
    wait_for(
        &url,
        &admin,
        id,
        Duration::from_secs(60),
        "judging",
        |doc| doc["status"] == "judging",
    )
    .await;
    let exit = stop(&mut first, Stop::Term, Duration::from_secs(1) + EXIT_MARGIN);
    assert!(exit.success(), "{exit}");

    let (mut second, url, _) = serve_in_group(&with_grace("120"), data.path());
    wait_for(
        &url,
        &admin,
        id,
        Duration::from_secs(60),
        "judged again on its first counted attempt",
        |doc| doc["status"] == "judging" && doc["attempts"] == 1,
    )
    .await;
    let exit = stop(
        &mut second,
        Stop::CtrlC,
        Duration::from_secs(120) + EXIT_MARGIN,
    );
    assert!(exit.success(), "{exit}");

    let (mut third, url, _) = serve_in_group(&with_grace("1"), data.path());
    let doc = submission(&url, &admin, id).await;
    assert_eq!(
        (
            doc["status"].as_str(),
            doc["verdict"].as_str(),
            doc["attempts"].as_i64()
        ),
        (Some("done"), Some("accepted"), Some(1)),
        "finished before the service stopped: {doc}"
    );
    assert_eq!(doc["tests"].as_array().unwrap().len(), 30, "{doc}");
    let exit = stop(&mut third, Stop::Term, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");
}

/// The same on PostgreSQL, where an idle `grundy worker`, or `grundy serve` with workers, used to
/// log that it was shutting down and never end: its queue listener kept a connection that
/// closing the database waited for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_on_postgres_stop_within_their_grace_period() {
    let test = "shutdown on PostgreSQL";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/python3") {
        return;
    }
    let Some(db) = PgDatabase::create(test) else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let (mut judging, _, admin) = serve_in_group(
        &["--database-url", &db.url, "--workers", "1"],
        &data.path().join("s1"),
    );
    let admin = admin.expect("a fresh database prints the first admin's token");
    let exit = stop(&mut judging, Stop::Term, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");
    let (mut server, url, _) = serve_in_group(
        &["--database-url", &db.url, "--workers", "0"],
        &data.path().join("s2"),
    );
    let mut idle = worker_in_group(&db.url, &data.path().join("w1"), &[]);
    let exit = stop(&mut idle, Stop::CtrlC, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");

    let id = submit_json(&url, &admin, slow_but_correct()).await;
    let long_lease = ["--lease-secs", "600", "--shutdown-grace-secs"];
    let mut short = worker_in_group(
        &db.url,
        &data.path().join("w2"),
        &[&long_lease[..], &["1"]].concat(),
    );
    wait_for(
        &url,
        &admin,
        id,
        Duration::from_secs(60),
        "judging",
        |doc| doc["status"] == "judging",
    )
    .await;
    let exit = stop(&mut short, Stop::Term, Duration::from_secs(1) + EXIT_MARGIN);
    assert!(exit.success(), "{exit}");
    let doc = submission(&url, &admin, id).await;
    assert_eq!(
        (doc["status"].as_str(), doc["attempts"].as_i64()),
        (Some("queued"), Some(0)),
        "given back, its attempt not counted: {doc}"
    );

    let mut long = worker_in_group(
        &db.url,
        &data.path().join("w3"),
        &[&long_lease[..], &["120"]].concat(),
    );
    wait_for(
        &url,
        &admin,
        id,
        Duration::from_secs(60),
        "judged again on its first counted attempt",
        |doc| doc["status"] == "judging" && doc["attempts"] == 1,
    )
    .await;
    let exit = stop(
        &mut long,
        Stop::Term,
        Duration::from_secs(120) + EXIT_MARGIN,
    );
    assert!(exit.success(), "{exit}");
    let doc = submission(&url, &admin, id).await;
    assert_eq!(
        (
            doc["status"].as_str(),
            doc["verdict"].as_str(),
            doc["attempts"].as_i64()
        ),
        (Some("done"), Some("accepted"), Some(1)),
        "finished before the worker stopped: {doc}"
    );
    assert_eq!(doc["tests"].as_array().unwrap().len(), 30, "{doc}");
    let exit = stop(&mut server, Stop::Term, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");
}

/// An assignment that also runs programs on each student's personal instances, with feedback
/// `inputs`: a correct program passes them and is shown nothing more; one that prints nothing
/// fails them, and the student is shown those inputs with the expected answers, which are what
/// the teacher sees for that student.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_runs_on_the_students_own_instances_in_an_assignment() {
    let test = "personal program tests";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/g++") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--workers", "1"], data.path());
    let data_args = ["--data-dir", data.path().to_str().unwrap()];
    let teacher = admin_create(&data_args, "tina", "teacher");
    let student = admin_create(&data_args, "stu", "student");
    let post = |path: &str, token: &str, body: Value| {
        let url = format!("{url}{path}");
        let token = token.to_owned();
        async move {
            call(
                reqwest::Method::POST,
                &url,
                Some(&token),
                Some(body.to_string().into()),
            )
            .await
        }
    };
    let (status, course) = post("/api/v1/courses", &teacher, json!({ "title": "CGT" })).await;
    assert_eq!(status, 201, "{course}");
    let (status, _) = post(
        "/api/v1/courses/join",
        &student,
        json!({ "code": course["join_code"] }),
    )
    .await;
    assert_eq!(status, 200);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let (status, assignment) = post(
        &format!("/api/v1/courses/{}/assignments", course["id"]),
        &teacher,
        json!({
            "title": "Stones at home",
            "opens_at": now - 60_000,
            "due_at": now + 86_400_000,
            "feedback": "inputs",
            "personal_tests": true,
            "problems": ["stones"],
        }),
    )
    .await;
    assert_eq!(status, 201, "{assignment}");
    let id = assignment["id"].as_i64().unwrap();
    // Whatever the drawn instances, a correct program passes them all and one that prints
    // nothing fails them all.
    let judged = |source: String| {
        let (url, student) = (url.clone(), student.clone());
        async move {
            let submission = submit_json(
                &url,
                &student,
                json!({ "problem": "stones", "language": "cpp20", "source": source, "assignment": id }),
            )
            .await;
            let done = wait_done(&url, &student, submission, Duration::from_secs(180)).await;
            assert_eq!(done["feedback"], "inputs");
            done
        }
    };
    let personal_rows = |done: &Value| -> Vec<Value> {
        done["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["group"] == "personal")
            .cloned()
            .collect()
    };
    let ok = std::fs::read_to_string(programs().join("solutions/stones/ok.cpp")).unwrap();
    let done = judged(ok).await;
    assert_eq!(
        (done["verdict"].as_str(), done["score"].as_i64()),
        (Some("accepted"), Some(100))
    );
    let passed = personal_rows(&done);
    assert!(!passed.is_empty(), "{done}");
    assert!(
        passed
            .iter()
            .all(|t| t["verdict"] == "accepted" && t.get("input").is_none()),
        "nothing shown for passed instances: {done}"
    );
    let done = judged("int main() { return 0; }\n".to_owned()).await;
    assert_eq!(
        (done["verdict"].as_str(), done["score"].as_i64()),
        (Some("wrong_answer"), Some(0))
    );
    let failing = personal_rows(&done);
    assert_eq!(failing.len(), passed.len(), "the same instances");
    assert!(failing.iter().all(|t| t["verdict"] == "wrong_answer"));
    let (_, me) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/me"),
        Some(&student),
        None,
    )
    .await;
    let (status, drawn) = call(
        reqwest::Method::GET,
        &format!(
            "{url}/api/v1/assignments/{id}/students/{}/problems/stones",
            me["id"]
        ),
        Some(&teacher),
        None,
    )
    .await;
    assert_eq!(status, 200, "{drawn}");
    let theirs: Vec<&Value> = drawn["instances"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["group"] != "samples")
        .collect();
    assert_eq!(theirs.len(), failing.len(), "one run per personal instance");
    for shown in &failing {
        let n = shown["index"].as_u64().unwrap() as usize;
        assert!(shown["input"] == theirs[n - 1]["input"], "test {n}'s input");
        assert!(
            shown["expected"] == theirs[n - 1]["answer"],
            "test {n}'s answer"
        );
    }
    // Past a subtask's first failure the rest of it is skipped (it cannot change the score),
    // unless the teacher asks for every test to run.
    let stopped = subtask_verdicts(&done);
    assert!(stopped.values().any(|v| v.len() > 1), "{stopped:?}");
    for (group, verdicts) in &stopped {
        assert_eq!(verdicts[0], "wrong_answer", "{group}: {verdicts:?}");
        assert!(
            verdicts[1..].iter().all(|v| v == "skipped"),
            "{group}: {verdicts:?}"
        );
    }
    let (status, every) = post(
        &format!("/api/v1/courses/{}/assignments", course["id"]),
        &teacher,
        json!({
            "title": "Stones, every test",
            "opens_at": now - 60_000,
            "due_at": now + 86_400_000,
            "feedback": "inputs",
            "run_every_test": true,
            "problems": ["stones"],
        }),
    )
    .await;
    assert_eq!(status, 201, "{every}");
    let submission = submit_json(
        &url,
        &student,
        json!({ "problem": "stones", "language": "cpp20",
                "source": "int main() { return 0; }\n", "assignment": every["id"] }),
    )
    .await;
    let all_run = wait_done(&url, &student, submission, Duration::from_secs(180)).await;
    assert_eq!(all_run["score"], done["score"], "the same score either way");
    let ran = subtask_verdicts(&all_run);
    assert_eq!(
        ran.iter().map(|(g, v)| (g, v.len())).collect::<Vec<_>>(),
        stopped
            .iter()
            .map(|(g, v)| (g, v.len()))
            .collect::<Vec<_>>(),
        "the same tests"
    );
    assert!(
        ran.values().flatten().all(|v| v == "wrong_answer"),
        "{ran:?}"
    );
}

/// Each subtask's test verdicts in order, by subtask name.
fn subtask_verdicts(done: &Value) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut groups = std::collections::BTreeMap::<String, Vec<String>>::new();
    for test in done["tests"].as_array().unwrap() {
        let group = test["group"].as_str().unwrap();
        if group != "samples" && group != "personal" {
            groups
                .entry(group.to_owned())
                .or_default()
                .push(test["verdict"].as_str().unwrap().to_owned());
        }
    }
    groups
}

/// `grundy admin memberships` lists, for an admin's review, the memberships that a teacher made
/// without asking (from before invitations), and says so when there are none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_reviews_memberships_nobody_agreed_to() {
    use grundy_store::{MemberOrigin, MemberRole, Role, Store};
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap();
    let review = || {
        let out = grundy_command(&["admin", "memberships", "--data-dir", data_dir])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(review().contains("no memberships to review"));
    let store = Store::open_sqlite(&data.path().join("grundy.db"))
        .await
        .unwrap();
    let tom = store
        .create_user("tom", Role::Teacher, None, 1)
        .await
        .unwrap();
    let sue = store
        .create_user("sue", Role::Student, None, 1)
        .await
        .unwrap();
    let ann = store
        .create_user("ann", Role::Student, None, 1)
        .await
        .unwrap();
    let course = store
        .create_course("Games 10A", "GAME2345", tom.id, 1)
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            sue.id,
            MemberRole::Student,
            MemberOrigin::Course,
            2,
        )
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            ann.id,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            2,
        )
        .await
        .unwrap();
    store.close().await;
    let listed = review();
    assert!(
        listed.contains("Games 10A") && listed.contains("sue"),
        "{listed}"
    );
    assert!(
        !listed.contains("ann") && !listed.contains("│ tom"),
        "{listed}"
    );
    assert!(listed.contains("to review: 1 "), "{listed}");
}

/// The path, from the side of the student who must not copy her expected answers back:
/// an assignment at the `tests` feedback level on `sc4`, answered wrong and judged by a real
/// worker. What she reads by the API, on the submission page and on its event stream names
/// places only, and her explanation works through a game that is none of hers; her teacher
/// reads the quotes and certificates all along, and at `inputs` she reads them too.
async fn expected_answers_stay_with_the_judge(url: &str, data: &[&str]) {
    let teacher = admin_create(data, "tina", "teacher");
    let student = admin_create(data, "sue", "student");
    let send = |method: reqwest::Method, path: &str, token: &str, body: Option<Value>| {
        let (url, token) = (format!("{url}{path}"), token.to_owned());
        async move {
            call(
                method,
                &url,
                Some(&token),
                body.map(|b| b.to_string().into()),
            )
            .await
        }
    };
    let post =
        |path: &str, token: &str, body: Value| send(reqwest::Method::POST, path, token, Some(body));
    let get = |path: &str, token: &str| send(reqwest::Method::GET, path, token, None);
    let (status, course) = post("/api/v1/courses", &teacher, json!({ "title": "CGT" })).await;
    assert_eq!(status, 201, "{course}");
    let (status, _) = post(
        "/api/v1/courses/join",
        &student,
        json!({ "code": course["join_code"] }),
    )
    .await;
    assert_eq!(status, 200);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let mut spec = json!({
        "title": "Chestnuts at home",
        "opens_at": now - 60_000,
        "due_at": now + 86_400_000,
        "feedback": "tests",
        "problems": ["sc4"],
    });
    let (status, assignment) = post(
        &format!("/api/v1/courses/{}/assignments", course["id"]),
        &teacher,
        spec.clone(),
    )
    .await;
    assert_eq!(status, 201, "{assignment}");
    let id = assignment["id"].as_i64().unwrap();
    let (status, sheet) = get(
        &format!("/api/v1/assignments/{id}/problems/sc4/instances"),
        &student,
    )
    .await;
    assert_eq!(status, 200, "{sheet}");
    // Nobody eats a thousand chestnuts from a pile of at most a hundred.
    let answers: serde_json::Map<String, Value> = sheet["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["name"].as_str().unwrap().to_owned(), "1000\n".into()))
        .collect();
    let (status, made) = post(
        "/api/v1/submissions",
        &student,
        json!({ "problem": "sc4", "answers": answers, "assignment": id, "draw": sheet["draw"] }),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let submission = made["id"].as_i64().unwrap();
    // Her event stream, followed from the start; it ends once the explanation is sent.
    let stream = reqwest::Client::new()
        .get(format!("{url}/api/v1/submissions/{submission}/events"))
        .bearer_auth(&student)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let streamed = tokio::time::timeout(Duration::from_secs(120), stream.text())
        .await
        .expect("the stream ends after the explanation")
        .unwrap();
    assert!(streamed.contains("event: explanation"), "{streamed}");

    // The teacher: every quote, and each instance's right answer with its certificate.
    let theirs = wait_explained(url, &teacher, submission, Duration::from_secs(60)).await;
    assert_eq!(theirs["feedback"], "inputs");
    let (status, me) = get("/api/v1/me", &student).await;
    assert_eq!(status, 200);
    let (status, drawn) = get(
        &format!(
            "/api/v1/assignments/{id}/students/{}/problems/sc4",
            me["id"]
        ),
        &teacher,
    )
    .await;
    assert_eq!(status, 200, "{drawn}");
    // Her own instances (the samples are public, and quoted at every level) and their answers.
    let instances = drawn["instances"].as_array().unwrap();
    let answer = |i: &Value| format!("expected \"{}\"", i["answer"].as_str().unwrap().trim());
    let (samples, own): (Vec<&Value>, Vec<&Value>) =
        instances.iter().partition(|i| i["group"] == "samples");
    let public: Vec<String> = samples.iter().map(|i| answer(i)).collect();
    let quotes: Vec<String> = own.iter().map(|i| answer(i)).collect();
    let messages = |doc: &Value| -> Vec<(String, String)> {
        doc["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let message = t["message"].as_str().unwrap_or("").to_owned();
                (t["group"].as_str().unwrap().to_owned(), message)
            })
            .collect()
    };
    let wrong = messages(&theirs);
    assert_eq!(wrong.len(), instances.len(), "{theirs}");
    for quote in &quotes {
        assert!(
            wrong.iter().any(|(_, m)| m.contains(quote.as_str())),
            "the teacher reads {quote}: {theirs}"
        );
    }
    let explained = theirs["explanation"]["instances"].as_array().unwrap();
    assert_eq!(explained.len(), instances.len(), "{theirs}");
    let certificates: Vec<&str> = explained
        .iter()
        .map(|w| w["certificate"]["en"].as_str().unwrap())
        .collect();
    for w in explained {
        let i = instances.iter().find(|i| i["name"] == w["name"]).unwrap();
        assert_eq!(
            w["expected"].as_str(),
            Some(i["answer"].as_str().unwrap().trim())
        );
    }

    // The student at `tests`: by the API, the page and the stream, places only.
    let hers = wait_explained(url, &student, submission, Duration::from_secs(60)).await;
    assert_eq!(
        (hers["feedback"].as_str(), hers["verdict"].as_str()),
        (Some("tests"), Some("wrong_answer"))
    );
    for (group, message) in messages(&hers) {
        if group != "samples" {
            assert!(
                !message.is_empty() && !message.contains('"') && !message.contains("expected"),
                "{message}"
            );
        }
    }
    let explanation = &hers["explanation"];
    assert_eq!(explanation["withheld"], true, "{explanation}");
    for w in explanation["instances"].as_array().unwrap() {
        assert!(w["expected"].is_null() && w["certificate"].is_null(), "{w}");
    }
    // The game worked through is none of hers.
    let worked = explanation["position"].as_str().unwrap_or("");
    assert!(
        instances.iter().all(|i| i["input"] != worked),
        "{explanation}"
    );
    let (status, page) = {
        let response = reqwest::Client::new()
            .get(format!("{url}/submissions/{submission}"))
            .bearer_auth(&student)
            .send()
            .await
            .unwrap();
        (response.status(), response.text().await.unwrap())
    };
    assert_eq!(status, 200);
    // A quote that a sample shares is public; the others must not be anywhere.
    let secret: Vec<&String> = quotes.iter().filter(|q| !public.contains(q)).collect();
    assert!(!secret.is_empty(), "{quotes:?} {public:?}");
    let api = hers.to_string();
    for (what, text) in [
        ("the API", &api),
        ("the page", &page),
        ("the stream", &streamed),
    ] {
        for quote in &secret {
            let escaped = quote.replace('"', "\\\"");
            let html = quote.replace('"', "&#34;");
            let plain = quote.as_str();
            assert!(
                !text.contains(plain) && !text.contains(&escaped) && !text.contains(&html),
                "{what} quotes her expected answer ({quote}): {text}"
            );
        }
        for certificate in &certificates {
            assert!(
                !text.contains(certificate),
                "{what} proves an expected answer: {text}"
            );
        }
    }

    // At `inputs` she reads what her teacher does.
    spec["feedback"] = "inputs".into();
    let (status, changed) = send(
        reqwest::Method::PUT,
        &format!("/api/v1/assignments/{id}"),
        &teacher,
        Some(spec),
    )
    .await;
    assert_eq!(status, 200, "{changed}");
    let (_, hers) = get(&format!("/api/v1/submissions/{submission}"), &student).await;
    assert_eq!(messages(&hers), wrong);
    assert_eq!(hers["explanation"]["withheld"], false, "{hers}");
    assert_eq!(
        hers["explanation"]["instances"],
        theirs["explanation"]["instances"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expected_answers_stay_with_the_judge_below_inputs_on_sqlite() {
    if !isolation_available("expected answers on SQLite") {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--workers", "1"], data.path());
    expected_answers_stay_with_the_judge(&url, &["--data-dir", data.path().to_str().unwrap()])
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expected_answers_stay_with_the_judge_below_inputs_on_postgres() {
    let test = "expected answers on PostgreSQL";
    if !isolation_available(test) {
        return;
    }
    let Some(db) = PgDatabase::create(test) else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--database-url", &db.url, "--workers", "1"], data.path());
    expected_answers_stay_with_the_judge(&url, &["--database-url", &db.url]).await;
}

/// Where a backup's service keeps its data, and where it is restored.
enum Backing<'a> {
    Sqlite,
    /// The database served, and the empty one restored into.
    Postgres {
        served: &'a str,
        restored: &'a str,
    },
}

/// `grundy admin backup` taken while a slow program is being judged and others wait: restored
/// into a fresh place, the service there judges what was waiting or being judged (the claim of
/// a worker that is gone is given back at once, not after its lease) to the verdicts they got
/// where they were made, keeps what was judged, and knows nothing made after the backup.
async fn backup_while_judging(backing: Backing<'_>) {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("grundy.backup");
    let served_args: Vec<&str> = match &backing {
        Backing::Sqlite => vec![],
        Backing::Postgres { served, .. } => vec!["--database-url", served],
    };
    let workers = ["--workers", "1", "--lease-secs", "600"];
    let (mut first, url, admin) = serve_in_group(
        &[&served_args[..], &workers[..]].concat(),
        &data.path().join("a"),
    );
    let admin = admin.expect("a fresh database prints the first admin's token");
    let wrong =
        |source: &str| json!({"problem": "stones", "language": "python3", "source": source});
    let judged_before = submit_json(&url, &admin, wrong("print('First')")).await;
    wait_done(&url, &admin, judged_before, Duration::from_secs(60)).await;
    let slow = submit_json(&url, &admin, slow_but_correct()).await;
    let waiting = [
        submit_json(&url, &admin, wrong("print()")).await,
        submit_json(&url, &admin, wrong("print('Second')")).await,
    ];
    wait_for(
        &url,
        &admin,
        slow,
        Duration::from_secs(60),
        "judging",
        |doc| doc["status"] == "judging",
    )
    .await;

    let data_dir = data.path().join("a");
    let mut backup = vec!["admin", "backup", "--out", file.to_str().unwrap()];
    backup.extend(["--data-dir", data_dir.to_str().unwrap()]);
    backup.extend_from_slice(&served_args);
    let out = grundy_command(&backup).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("backed up to "), "{said}");
    let after = submit_json(&url, &admin, wrong("print('Second')")).await;
    let mut verdicts = Vec::new();
    for id in [judged_before, slow, waiting[0], waiting[1]] {
        let done = wait_done(&url, &admin, id, Duration::from_secs(120)).await;
        verdicts.push(done["verdict"].clone());
    }
    assert_eq!(verdicts[1], "accepted");
    assert_ne!(verdicts[2], "accepted");
    let exit = stop(&mut first, Stop::Term, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");

    // A backup is never written over, nor restored over a database.
    let again = grundy_command(&backup).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
    let restored_dir = data.path().join("b");
    let restored_args: Vec<&str> = match &backing {
        Backing::Sqlite => vec![],
        Backing::Postgres { restored, .. } => vec!["--database-url", restored],
    };
    let mut restore = vec!["admin", "restore", "--from", file.to_str().unwrap()];
    restore.extend(["--data-dir", restored_dir.to_str().unwrap()]);
    restore.extend_from_slice(&restored_args);
    let out = grundy_command(&restore).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("1 submission(s) that were being judged are queued again"),
        "{said}"
    );
    if matches!(backing, Backing::Sqlite) {
        let twice = grundy_command(&restore).output().unwrap();
        assert!(!twice.status.success(), "restored over a database");
    }

    let (mut second, url, fresh) =
        serve_in_group(&[&restored_args[..], &workers[..]].concat(), &restored_dir);
    assert!(
        fresh.is_none(),
        "the accounts came back: no new first admin"
    );
    // The slow one's claim would hold for the lease's 600 s; given back, it is judged at once,
    // its attempt in the backup not counted.
    for (id, verdict) in [judged_before, slow, waiting[0], waiting[1]]
        .into_iter()
        .zip(&verdicts)
    {
        let done = wait_done(&url, &admin, id, Duration::from_secs(120)).await;
        assert_eq!(&done["verdict"], verdict, "submission {id}: {done}");
        assert_eq!(done["attempts"], 1, "submission {id}: {done}");
    }
    let (status, _) = call(
        reqwest::Method::GET,
        &format!("{url}/api/v1/submissions/{after}"),
        Some(&admin),
        None,
    )
    .await;
    assert_eq!(status, 404, "made after the backup");
    let exit = stop(&mut second, Stop::Term, EXIT_MARGIN);
    assert!(exit.success(), "{exit}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_judging_restores_and_judges_on_sqlite() {
    let test = "backup on SQLite";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/python3") {
        return;
    }
    backup_while_judging(Backing::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_judging_restores_and_judges_on_postgres() {
    let test = "backup on PostgreSQL";
    if !isolation_available(test)
        || !tool_available(test, "/usr/bin/python3")
        || !tool_available(test, "/usr/bin/pg_dump")
    {
        return;
    }
    let (Some(served), Some(restored)) = (PgDatabase::create(test), PgDatabase::create(test))
    else {
        return;
    };
    backup_while_judging(Backing::Postgres {
        served: &served.url,
        restored: &restored.url,
    })
    .await;
}
