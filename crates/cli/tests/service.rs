//! The service as users meet it: `grundy serve` on a real port, `grundy admin`, `grundy submit`,
//! the JSON API and its errors; on SQLite with in-process workers, and on PostgreSQL with
//! separate `grundy worker` processes, one of them killed mid-judging.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::service::{Process, admin_create, grundy_command, guess, pebbles, serve};
use common::{isolation_available, programs, tool_available};
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
    // Each instance answered wrong is explained: its game, the right answer, and why.
    let doc = wait_explained(&url, &teacher, id, Duration::from_secs(60)).await;
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
            explained["certificate"]["en"].as_str().unwrap().len() > 20,
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
        // Tests of one process run at once: each its own database.
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let name = format!(
            "grundy_service_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
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
    let mut child = grundy_command(&[
        "worker",
        "--database-url",
        url,
        "--data-dir",
        data_dir.to_str().unwrap(),
        "--workers",
        "1",
        "--lease-secs",
        lease_secs,
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::inherit())
    .spawn()
    .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let ready = lines.next().expect("the worker reports").unwrap();
    assert!(ready.starts_with("worker ready"), "{ready}");
    std::thread::spawn(move || for _ in lines {});
    Process(child)
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
    let _third = worker(&db.url, &data.path().join("w3"), "3");
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
