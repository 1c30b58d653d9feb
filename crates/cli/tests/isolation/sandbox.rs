//! Hostile programs against `grundy run`: each must get its verdict, leave nothing running, change
//! no file outside its box, and leave the next run clean. One test walks all cases in order, since
//! "nothing left running" can only be checked when no other run is under way.

use crate::common;
use crate::serial;

use std::collections::BTreeSet;
use std::path::Path;

use common::{
    grundy, isolation_available, json, programs, sandbox_leftovers, sandbox_processes,
    tool_available,
};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct Case {
    file: String,
    what: String,
    expect: Option<String>,
    #[serde(default)]
    expect_any: Vec<String>,
    #[serde(default)]
    stdin: String,
    stdout_contains: Option<String>,
    stdout_lacks: Option<String>,
    time_limit_ms: Option<u64>,
    memory_limit_mib: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Cases {
    case: Vec<Case>,
}

/// Host paths hostile programs try to create; none may exist afterwards.
const ESCAPE_TARGETS: [&str; 4] = [
    "/escape.txt",
    "/usr/escape.txt",
    "/etc/escape.txt",
    "/tmp/escape.txt",
];

fn hello_is_clean(hello: &Path) -> Result<(), String> {
    let out = grundy(&["run", "--json", hello.to_str().unwrap()], b"");
    let doc = json(&out);
    if doc["status"] != "ok" || doc["stdout"] != "hello\n" || !out.status.success() {
        return Err(format!("the next run is not clean: {doc}"));
    }
    Ok(())
}

#[test]
fn hostile_programs_get_their_verdict_and_leave_nothing_behind() {
    let _turn = serial();
    if !isolation_available("hostile programs")
        || !tool_available("hostile programs", "/usr/bin/gcc")
    {
        return;
    }
    let dir = programs().join("hostile");
    let cases: Cases =
        toml::from_str(&std::fs::read_to_string(dir.join("cases.toml")).unwrap()).unwrap();
    let host = tempfile::tempdir().unwrap();
    let secret = host.path().join("hidden-test.ans");
    std::fs::write(&secret, "judge-secret-answer").unwrap();
    let planted = host.path().join("planted.txt");
    let hello = programs().join("solutions/hello/hello.c");
    let before_leftovers: BTreeSet<String> = sandbox_leftovers().into_iter().collect();
    let judge_data =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/stones/samples/01.ans");

    let mut failures = Vec::new();
    for case in &cases.case {
        let mut stdin = case.stdin.clone();
        // The paths programs read or write include the judge's own files on the host.
        if case.file == "read_paths.c" {
            stdin.push_str(&format!(
                "{}\n{}\n",
                secret.display(),
                judge_data.canonicalize().unwrap().display()
            ));
        }
        if case.file == "write_paths.c" {
            stdin.push_str(&format!("{}\n", planted.display()));
        }
        let time = case.time_limit_ms.unwrap_or(1000).to_string();
        let memory = case.memory_limit_mib.unwrap_or(256).to_string();
        let path = dir.join(&case.file);
        let out = grundy(
            &[
                "run",
                "--json",
                "--time-limit",
                &time,
                "--memory-limit",
                &memory,
                path.to_str().unwrap(),
            ],
            stdin.as_bytes(),
        );
        let doc = json(&out);
        let status = doc["status"].as_str().unwrap_or("?").to_owned();
        let stdout = doc["stdout"].as_str().unwrap_or("").to_owned();
        let expected: Vec<String> = case
            .expect
            .iter()
            .cloned()
            .chain(case.expect_any.iter().cloned())
            .collect();
        let mut problems = Vec::new();
        if !expected.contains(&status) {
            problems.push(format!(
                "status {status} (detail {}), expected {expected:?}",
                doc["detail"]
            ));
        }
        if (status == "ok") != out.status.success() {
            problems.push(format!(
                "exit status {:?} does not match {status}",
                out.status.code()
            ));
        }
        if let Some(needle) = &case.stdout_contains
            && !stdout.contains(needle.as_str())
        {
            problems.push(format!("stdout lacks {needle:?}"));
        }
        if let Some(needle) = &case.stdout_lacks
            && stdout.contains(needle.as_str())
        {
            problems.push(format!("stdout contains {needle:?}"));
        }
        for leak in [
            "hunter2-leaked",
            "judge-secret-answer",
            "root:x:0:0",
            "GRUNDY_TEST_SECRET",
        ] {
            if stdout.contains(leak) {
                problems.push(format!("leaked {leak:?}"));
            }
        }
        let running = sandbox_processes();
        if !running.is_empty() {
            problems.push(format!("left running: {running:?}"));
        }
        for target in ESCAPE_TARGETS
            .iter()
            .map(Path::new)
            .chain([planted.as_path()])
        {
            if target.exists() {
                problems.push(format!("created {}", target.display()));
                let _ = std::fs::remove_file(target);
            }
        }
        let leftovers: BTreeSet<String> = sandbox_leftovers().into_iter().collect();
        let new: Vec<_> = leftovers.difference(&before_leftovers).collect();
        if !new.is_empty() {
            problems.push(format!("left behind: {new:?}"));
        }
        if let Err(e) = hello_is_clean(&hello) {
            problems.push(e);
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{} ({}): {}",
                case.file,
                case.what,
                problems.join("; ")
            ));
        }
    }
    assert_eq!(
        std::fs::read_to_string(&secret).unwrap(),
        "judge-secret-answer"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.case.len(),
        failures.join("\n")
    );
}

#[derive(Debug, Deserialize)]
struct CompileCase {
    file: String,
    what: String,
}

#[derive(Debug, Deserialize)]
struct CompileCases {
    case: Vec<CompileCase>,
}

#[test]
fn compile_time_attacks_end_in_compilation_error() {
    let _turn = serial();
    if !isolation_available("compile-time attacks")
        || !tool_available("compile-time attacks", "/usr/bin/g++")
    {
        return;
    }
    let dir = programs().join("hostile/compile");
    let cases: CompileCases =
        toml::from_str(&std::fs::read_to_string(dir.join("cases.toml")).unwrap()).unwrap();
    assert!(cases.case.len() >= 4);
    let mut failures = Vec::new();
    for case in &cases.case {
        let out = grundy(
            &["run", "--json", dir.join(&case.file).to_str().unwrap()],
            b"",
        );
        let doc = json(&out);
        let message = doc["compile"]["message"].as_str().unwrap_or("");
        if doc["status"] != "compilation_error" || out.status.success() {
            failures.push(format!("{} ({}): {doc}", case.file, case.what));
        }
        if message.contains("root:x:0:0") || message.contains("Second") {
            failures.push(format!(
                "{}: the compiler log quotes a host file: {message}",
                case.file
            ));
        }
        let running = sandbox_processes();
        if !running.is_empty() {
            failures.push(format!("{}: left running: {running:?}", case.file));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A "compiler" that leaves a symlink to a host file where the binary should be: the judge must
/// refuse to copy it out rather than read the host file as root.
#[test]
fn symlinked_build_outputs_are_never_followed() {
    let _turn = serial();
    if !isolation_available("symlinked outputs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::write(&secret, "host secret").unwrap();
    let table = dir.path().join("languages.toml");
    std::fs::write(
        &table,
        format!(
            r#"
            [[language]]
            id = "evil"
            name = "A compiler that links out of the box"
            extensions = ["evil"]
            source = "main.evil"
            compile = ["/bin/sh", "-c", "ln -s {} main; ln -s /etc/passwd main2"]
            artifacts = ["main"]
            run = ["./main"]
            "#,
            secret.display()
        ),
    )
    .unwrap();
    let source = dir.path().join("prog.evil");
    std::fs::write(&source, "x").unwrap();
    let out = grundy(
        &[
            "--languages",
            table.to_str().unwrap(),
            "run",
            "--json",
            source.to_str().unwrap(),
        ],
        b"",
    );
    let doc = json(&out);
    assert_eq!(doc["status"], "compilation_error", "{doc}");
    let message = doc["compile"]["message"].as_str().unwrap();
    assert!(
        message.contains("could not be taken out of the box"),
        "{message}"
    );
    assert!(!message.contains("host secret"));
}

#[test]
fn without_root_judging_refuses_unless_weak_isolation_is_asked_for() {
    // Meaningful only where isolation is missing; as root the refusal cannot be provoked.
    if common::nix_is_root() {
        eprintln!("SKIPPED refusal check: isolation is available here (root)");
        return;
    }
    let hello = programs().join("solutions/hello/hello.c");
    let out = grundy(&["run", hello.to_str().unwrap()], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-weak-isolation"));
    let weak = grundy(
        &[
            "--allow-weak-isolation",
            "run",
            "--json",
            hello.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(json(&weak)["stdout"], "hello\n");
    assert!(String::from_utf8_lossy(&weak.stderr).contains("WEAK ISOLATION"));
}
