//! `grundy judge` and `grundy run` on real solutions: correct ones in every language are
//! accepted, wrong, slow and crashing ones get their verdicts, and the JSON has the promised shape.

use crate::common;

use std::path::Path;

use common::{cache_dir, grundy, isolation_available, json, programs, tool_available};

/// `grundy judge --json` of `file` on `problem` with its compile caches in `cache`: the document
/// and whether it exited 0.
fn judge_path(
    problem: &str,
    file: &Path,
    cache: &Path,
    extra: &[&str],
) -> (serde_json::Value, bool) {
    let mut args = vec![
        "judge",
        "--json",
        "--problem",
        problem,
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push(file.to_str().unwrap());
    let out = grundy(&args, b"");
    (json(&out), out.status.success())
}

/// `judge_path` of one of `tests/programs/solutions/`.
fn judge(problem: &str, file: &str, extra: &[&str]) -> (serde_json::Value, bool) {
    let path = programs().join("solutions").join(file);
    judge_path(problem, &path, &cache_dir(), extra)
}

const TOOLS: [(&str, &str); 5] = [
    ("c", "/usr/bin/gcc"),
    ("cpp", "/usr/bin/g++"),
    ("py", "/usr/bin/python3"),
    ("rs", "/usr/bin/cc"),
    ("java", "/usr/bin/javac"),
];

#[test]
fn correct_solutions_in_five_languages_are_accepted() {
    if !isolation_available("correct solutions") {
        return;
    }
    let mut failures = Vec::new();
    for problem in ["stones", "nim", "wythoff"] {
        for (ext, tool) in TOOLS {
            if !tool_available("correct solutions", tool) {
                continue;
            }
            let (doc, success) = judge(problem, &format!("{problem}/ok.{ext}"), &[]);
            if doc["verdict"] != "accepted" || doc["score"] != 100 || !success {
                failures.push(format!(
                    "{problem}/ok.{ext}: {} {}",
                    doc["verdict"], doc["compile"]["message"]
                ));
            }
            let tests = doc["tests"].as_array().unwrap();
            assert!(
                tests
                    .iter()
                    .all(|t| t["cpu_ms"].is_u64() && t["memory_kib"].as_u64().unwrap() > 0),
                "{doc}"
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn each_kind_of_wrong_solution_gets_its_verdict() {
    if !isolation_available("wrong solutions") || !tool_available("wrong solutions", "/usr/bin/g++")
    {
        return;
    }
    // (file, overall verdict, score): the small subtask (30 points) is passed by the slow and the
    // wrong solution alike.
    for (file, verdict, score) in [
        ("wrong.cpp", "wrong_answer", 30),
        ("slow.cpp", "time_limit", 30),
        ("crash.cpp", "runtime_error", 0),
        ("exit3.cpp", "runtime_error", 0),
    ] {
        let (doc, success) = judge("stones", &format!("stones/{file}"), &[]);
        assert_eq!(doc["verdict"], verdict, "{file}: {doc}");
        assert_eq!(doc["score"], score, "{file}");
        assert!(!success, "{file}: exit status must be non-zero");
        let failing = doc["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["verdict"] != "accepted")
            .unwrap();
        match file {
            "crash.cpp" => assert_eq!(failing["message"], "killed by SIGSEGV"),
            "exit3.cpp" => assert_eq!(failing["message"], "exit code 3"),
            "slow.cpp" => assert_eq!(failing["message"], "cpu"),
            // A hidden test: its place, in plain words, and nothing of its data.
            _ => assert_eq!(failing["message"], "line 1 is wrong", "{failing}"),
        }
    }
}

#[test]
fn stopping_at_the_first_failure_skips_the_rest_of_the_subtask() {
    if !isolation_available("stop at first failure")
        || !tool_available("stop at first failure", "/usr/bin/g++")
    {
        return;
    }
    let (doc, _) = judge("stones", "stones/crash.cpp", &["--stop-at-first-failure"]);
    let verdicts: Vec<&str> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["verdict"].as_str().unwrap())
        .collect();
    assert!(verdicts.contains(&"skipped"), "{verdicts:?}");
    assert_eq!(doc["score"], 0);
    let subtasks = doc["subtasks"].as_array().unwrap();
    assert_eq!(subtasks.len(), 2);
    assert!(subtasks.iter().all(|s| s["verdict"] == "runtime_error"));
    // Named as the statement lists them, beside the name the tests' groups carry, with the
    // first failing test (the first: it crashes on every input).
    let named: Vec<_> = subtasks
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["label"].as_str().unwrap(),
                &s["failed_at"],
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("small", "Subtask 1 (30 points)", &serde_json::json!(1)),
            ("full", "Subtask 2 (70 points)", &serde_json::json!(1))
        ]
    );
    // The table says the same.
    let out = grundy(
        &[
            "judge",
            "--problem",
            "stones",
            "--cache-dir",
            cache_dir().to_str().unwrap(),
            programs()
                .join("solutions/stones/crash.cpp")
                .to_str()
                .unwrap(),
        ],
        b"",
    );
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("Subtask 1 (30 points)"), "{printed}");
    assert!(printed.contains("0/70, failed at test 1"), "{printed}");
}

/// Stopping a subtask at its first failure changes no verdict and no score, and no subtask's:
/// each program judged both ways.
#[test]
fn stopping_at_the_first_failure_changes_no_score() {
    let test = "stopping changes no score";
    if !isolation_available(test)
        || !tool_available(test, "/usr/bin/g++")
        || !tool_available(test, "/usr/bin/python3")
    {
        return;
    }
    for file in ["wrong.cpp", "crash.cpp", "exit3.cpp", "echo.py", "ok.cpp"] {
        let file = format!("stones/{file}");
        let (every, _) = judge("stones", &file, &[]);
        let (stopped, _) = judge("stones", &file, &["--stop-at-first-failure"]);
        let outcome = |doc: &serde_json::Value| {
            let subtasks: Vec<_> = doc["subtasks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["verdict"].clone(),
                        s["score"].clone(),
                        s["failed_at"].clone(),
                    )
                })
                .collect();
            (doc["verdict"].clone(), doc["score"].clone(), subtasks)
        };
        assert_eq!(outcome(&stopped), outcome(&every), "{file}");
        let ran = |doc: &serde_json::Value| {
            doc["tests"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t["verdict"] != "skipped")
                .count()
        };
        assert!(ran(&stopped) <= ran(&every), "{file}");
    }

    // A program that loops costs one time limit on the samples and one in each subtask: the
    // samples after one that ran out of time are skipped too (judged every test, it would take
    // one time limit per test).
    let (stopped, _) = judge("stones", "stones/loop.py", &["--stop-at-first-failure"]);
    assert_eq!(stopped["verdict"], "time_limit", "{stopped}");
    let tests = stopped["tests"].as_array().unwrap();
    let ran: Vec<&str> = tests
        .iter()
        .filter(|t| t["verdict"] != "skipped")
        .map(|t| t["name"].as_str().unwrap_or_default())
        .collect();
    let subtasks = stopped["subtasks"].as_array().unwrap().len();
    assert_eq!(ran.len(), 1 + subtasks, "{ran:?}");
    assert!(tests.len() > ran.len() + 5, "{}", tests.len());
}

#[test]
fn deep_recursion_in_cpp_passes_under_default_limits() {
    if !isolation_available("deep recursion") || !tool_available("deep recursion", "/usr/bin/g++") {
        return;
    }
    // dag-game's largest tests are paths of 10^5 and more vertices: one frame per vertex.
    let (doc, success) = judge("dag-game", "dag-game/deep.cpp", &[]);
    assert_eq!(doc["verdict"], "accepted", "{doc}");
    assert!(success);
}

#[test]
fn hello_worlds_run_under_default_limits() {
    if !isolation_available("hello worlds") {
        return;
    }
    for (file, tool) in [
        ("hello.java", "/usr/bin/java"),
        ("hello.py", "/usr/bin/python3"),
        ("hello.js", "/usr/bin/node"),
    ] {
        if !tool_available("hello worlds", tool) {
            continue;
        }
        let path = programs().join("solutions/hello").join(file);
        let out = grundy(&["run", "--json", path.to_str().unwrap()], b"");
        let doc = json(&out);
        assert_eq!(doc["status"], "ok", "{file}: {doc}");
        assert_eq!(doc["stdout"], "hello\n", "{file}");
        assert!(out.status.success());
        for key in [
            "exit_code",
            "signal",
            "cpu_ms",
            "wall_ms",
            "memory_kib",
            "stderr",
        ] {
            assert!(doc.get(key).is_some(), "{key} missing: {doc}");
        }
    }
}

/// `grundy judge --json` of `source`, saved as `name`, on Nim: it must be a compilation error;
/// the compiler's message.
fn compilation_error(dir: &Path, name: &str, source: &str) -> String {
    let file = dir.join(name);
    std::fs::write(&file, source).unwrap();
    let (doc, passed) = judge_path("nim", &file, &cache_dir(), &[]);
    assert_eq!(doc["verdict"], "compilation_error", "{doc}");
    assert_eq!(doc["score"], 0);
    assert!(!passed);
    doc["compile"]["message"].as_str().unwrap().to_owned()
}

#[test]
fn compilation_errors_carry_the_compiler_message() {
    if !isolation_available("compilation error")
        || !tool_available("compilation error", "/usr/bin/gcc")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let message = compilation_error(
        dir.path(),
        "broken.c",
        "int main(void) { return missing_name; }\n",
    );
    assert!(message.contains("missing_name"), "{message}");

    // Python's check is the compiler's alone: the error where it is, no traceback of the check.
    if !tool_available("compilation error", "/usr/bin/python3") {
        return;
    }
    let message = compilation_error(
        dir.path(),
        "broken.py",
        "n = int(input())\nif n > 0\n    print(n)\n",
    );
    assert!(message.contains(r#"File "main.py", line 2"#), "{message}");
    assert!(message.contains("SyntaxError"), "{message}");
    assert!(!message.contains("Traceback"), "{message}");
}

#[test]
fn run_reports_limits_and_exit_status() {
    if !isolation_available("run limits") || !tool_available("run limits", "/usr/bin/python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let echo = dir.path().join("echo.py");
    std::fs::write(
        &echo,
        "import sys\nprint(sys.stdin.read().upper(), end='')\n",
    )
    .unwrap();
    let out = grundy(&["run", "--json", echo.to_str().unwrap()], b"first\n");
    assert_eq!(json(&out)["stdout"], "FIRST\n");
    assert!(out.status.success());

    // Reopening standard input by name, as many solutions do.
    let reopen = dir.path().join("reopen.py");
    std::fs::write(
        &reopen,
        "print(open('/dev/stdin').read().upper(), end='')\n",
    )
    .unwrap();
    let doc = json(&grundy(
        &["run", "--json", reopen.to_str().unwrap()],
        b"second\n",
    ));
    assert_eq!(doc["stdout"], "SECOND\n", "{doc}");
    if tool_available("run limits", "/usr/bin/node") {
        let node = dir.path().join("reopen.js");
        std::fs::write(
            &node,
            "process.stdout.write(require('fs').readFileSync('/dev/stdin', 'utf8'))\n",
        )
        .unwrap();
        let doc = json(&grundy(
            &["run", "--json", node.to_str().unwrap()],
            b"third\n",
        ));
        assert_eq!(doc["stdout"], "third\n", "{doc}");
    }

    let hog = dir.path().join("hog.py");
    std::fs::write(&hog, "x = bytearray(200 * 1024 * 1024)\nprint(len(x))\n").unwrap();
    let out = grundy(
        &[
            "run",
            "--json",
            "--memory-limit",
            "64",
            hog.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(json(&out)["status"], "memory_limit");
    assert!(!out.status.success());
    let out = grundy(
        &[
            "run",
            "--json",
            "--memory-limit",
            "512",
            hog.to_str().unwrap(),
        ],
        b"",
    );
    let doc = json(&out);
    assert_eq!(doc["status"], "ok", "{doc}");
    assert!(doc["memory_kib"].as_u64().unwrap() >= 200 * 1024, "{doc}");

    let exit = dir.path().join("exit.py");
    std::fs::write(&exit, "raise SystemExit(7)\n").unwrap();
    let doc = json(&grundy(&["run", "--json", exit.to_str().unwrap()], b""));
    assert_eq!(doc["status"], "runtime_error");
    assert_eq!(doc["exit_code"], 7);
}

#[test]
fn run_takes_the_usual_language_names() {
    if !isolation_available("language names") || !tool_available("language names", "/usr/bin/g++") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // No extension to guess from: the name alone picks the language. `<=>` compiles only from
    // C++20 on, so this also shows which standard `cpp` means.
    let hello = dir.path().join("hello.txt");
    std::fs::write(
        &hello,
        "#include <compare>\n#include <iostream>\n#include <string>\n\
         int main() { std::string n; std::cin >> n; \
         std::cout << ((1 <=> 2) < 0 ? \"hello \" : \"?\") << n << \"\\n\"; }\n",
    )
    .unwrap();
    let file = hello.to_str().unwrap();
    for name in ["cpp", "c++", "g++", "CPP", "cpp20"] {
        let out = grundy(&["run", "--json", "--lang", name, file], b"ann\n");
        let doc = json(&out);
        assert_eq!(doc["status"], "ok", "--lang {name}: {doc}");
        assert_eq!(doc["stdout"], "hello ann\n", "--lang {name}");
        assert!(out.status.success(), "--lang {name}");
    }

    let out = grundy(&["run", "--lang", "pascal", file], b"");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(r#"unknown language "pascal"; accepted, in any case: "#),
        "{stderr}"
    );
    assert!(stderr.contains("cpp20 (also cpp, c++, g++)"), "{stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "one paragraph: {stderr}"
    );

    if tool_available("language names", "/usr/bin/python3") {
        let script = dir.path().join("script.txt");
        std::fs::write(&script, "print(input().upper())\n").unwrap();
        let file = script.to_str().unwrap();
        for name in ["py", "python", "Python3"] {
            let doc = json(&grundy(&["run", "--json", "--lang", name, file], b"bo\n"));
            assert_eq!(doc["stdout"], "BO\n", "--lang {name}: {doc}");
        }
    }
}

#[test]
fn doctor_states_the_default_cpp_and_lists_the_aliases() {
    let out = grundy(&["doctor"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("default C++: cpp20 — C++20 (GCC, GNU++20)"),
        "{text}"
    );
    let doc = json(&grundy(&["doctor", "--json"], b""));
    assert_eq!(doc["default_cpp"]["id"], "cpp20", "{doc}");
    if let Some(cpp) = doc["languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "cpp20")
    {
        assert_eq!(cpp["aliases"], serde_json::json!(["cpp", "c++", "g++"]));
        assert!(text.contains("(also cpp, c++, g++)"), "{text}");
    }
}

#[test]
fn doctor_reports_isolation_and_languages() {
    let out = grundy(&["doctor", "--json"], b"");
    let doc = json(&out);
    assert!(
        doc["languages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == "c")
            || !common::nix_is_root()
    );
    assert!(doc["isolation"]["namespaces"].is_array());
    if common::nix_is_root() {
        assert!(doc["self_test"]["Ok"].is_object(), "{doc}");
        assert!(out.status.success(), "{doc}");
        // Where the kernel offers it, every supervisor asks for quick migrations.
        let offered = std::fs::read_to_string("/sys/kernel/cgroup/features")
            .is_ok_and(|f| f.lines().any(|l| l == "favordynmods"));
        assert_eq!(doc["fast_migrations"], offered, "{doc}");
    } else {
        assert!(!out.status.success(), "doctor must not pretend: {doc}");
    }
}

#[test]
fn wrong_answers_on_hidden_tests_quote_nothing_of_the_output() {
    if !isolation_available("quoting") || !tool_available("quoting", "/usr/bin/python3") {
        return;
    }
    // A program that prints its input would read hidden tests out through the checker's quote
    // of its output; on samples (whose inputs are in the statement) the quote helps.
    let (doc, _) = judge("stones", "stones/echo.py", &[]);
    let tests = doc["tests"].as_array().unwrap();
    let (samples, hidden): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) = tests
        .iter()
        .filter(|t| t["verdict"] == "wrong_answer")
        .partition(|t| t["group"] == "samples");
    assert!(!samples.is_empty() && !hidden.is_empty(), "{doc}");
    for test in &samples {
        // A sample shows its input, expected answer and output side by side: the program
        // printed its input.
        let shown = &test["shown"];
        assert_eq!(shown["output"], shown["input"], "{test}");
        assert!(
            ["First\n", "Second\n"].contains(&shown["expected"].as_str().unwrap()),
            "{test}"
        );
        assert!(!shown["input"].as_str().unwrap().is_empty(), "{test}");
    }
    for test in &hidden {
        assert!(test.get("shown").is_none(), "{test}");
    }
    for test in samples {
        // The place for everyone; in plain words beside it, the expected answer and what was
        // read, for whoever may see the sample.
        assert_eq!(test["message"], "line 1, word 1 is wrong", "{test}");
        let detail = test["detail"].as_str().unwrap();
        assert!(detail.starts_with("line 1, word 1: expected \""), "{test}");
        assert!(detail.contains(", read \""), "{test}");
    }
    for test in hidden {
        // The input's first word is where the answer should be; nothing is quoted.
        assert_eq!(test["message"], "line 1, word 1 is wrong", "{test}");
        assert!(test.get("detail").is_none(), "{test}");
    }
}

/// What a judgement decides, without the times and memory that differ between runs.
fn decided(doc: &serde_json::Value) -> serde_json::Value {
    let tests: Vec<_> = doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| serde_json::json!([t["group"], t["index"], t["verdict"], t["message"]]))
        .collect();
    serde_json::json!({
        "verdict": doc["verdict"],
        "score": doc["score"],
        "subtasks": doc["subtasks"],
        "compiled": doc["compile"]["ok"],
        "compiler_says": doc["compile"]["message"],
        "tests": tests,
    })
}

#[test]
fn verdicts_are_the_same_with_the_compile_caches_off_cold_and_warm() {
    if !isolation_available("compile caches")
        || !tool_available("compile caches", "/usr/bin/g++")
        || !tool_available("compile caches", "/usr/bin/python3")
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.cpp");
    std::fs::write(
        &broken,
        "#include <bits/stdc++.h>\nint main() { return missing_name; }\n",
    )
    .unwrap();
    let solutions = programs().join("solutions");
    let files = [
        ("stones", solutions.join("stones/ok.cpp")),
        ("stones", solutions.join("stones/wrong.cpp")),
        ("stones", solutions.join("stones/crash.cpp")),
        ("nim", broken),
        ("nim", solutions.join("nim/ok.py")),
    ];
    let cache = dir.path().join("cache");
    let uncached = dir.path().join("uncached");
    let judge_with = |problem: &str, file: &Path, cache: &Path, off: bool| {
        let extra: &[&str] = if off { &["--no-compile-cache"] } else { &[] };
        judge_path(problem, file, cache, extra).0
    };
    for (problem, file) in &files {
        let off = judge_with(problem, file, &uncached, true);
        let cold = judge_with(problem, file, &cache, false);
        let warm = judge_with(problem, file, &cache, false);
        let name = file.file_name().unwrap().to_string_lossy();
        assert_eq!(decided(&off), decided(&cold), "{name}: off and cold");
        assert_eq!(decided(&cold), decided(&warm), "{name}: cold and warm");
        // The warm compilation is the cold one's, figures and all, not a second compile.
        assert_eq!(cold["compile"], warm["compile"], "{name}");
    }
    // One header per C++ language used, built in the cache; none when the caches are off.
    let headers: Vec<_> = std::fs::read_dir(cache.join("pch"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("bits/stdc++.h.gch").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        headers.len() == 1 && headers[0].starts_with("cpp20-"),
        "{headers:?}"
    );
    assert!(!uncached.join("pch").exists());
    assert!(!uncached.join("compiled").exists());
}
