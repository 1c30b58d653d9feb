//! schemathesis against our own `/api/openapi.json`, with a teacher's token and a student's, every
//! check on (`--checks all`): no server error, no response off its schema, no undocumented status,
//! no schema-valid request refused, no invalid one taken. schemathesis comes from
//! `scripts/install-test-deps` into `<target>/test-tools/venv`; without it the test skips
//! visibly, except in CI (`CI=true`), where its absence fails.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::service::{admin_create, serve};

/// Test cases per operation and phase: enough to reach every operation's refusals, few enough
/// that both runs take about a minute.
const EXAMPLES: &str = "20";
/// A fixed seed: a failure here is the same failure on the next run.
const SEED: &str = "1";

/// Where `scripts/install-test-deps` puts schemathesis: beside the binaries under test.
fn schemathesis() -> PathBuf {
    let target = Path::new(env!("CARGO_BIN_EXE_grundy"))
        .ancestors()
        .nth(2)
        .expect("the binary lies in <target>/<profile>/");
    target.join("test-tools/venv/bin/schemathesis")
}

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/api_fuzz")
}

#[test]
fn schemathesis_finds_nothing_for_a_teacher_or_a_student() {
    let tool = schemathesis();
    if !tool.exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "{} is missing in CI: run scripts/install-test-deps",
                tool.display()
            );
        }
        eprintln!(
            "SKIPPED schemathesis_finds_nothing_for_a_teacher_or_a_student: {} is not installed \
             (scripts/install-test-deps installs it)",
            tool.display()
        );
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    // Nothing is judged: submissions wait in the queue, which is all the API needs.
    let (_server, url, _) = serve(&["--workers", "0"], data.path());
    let teacher = admin_create(&["--data-dir", dir], "fuzz-teacher", "teacher");
    let student = admin_create(&["--data-dir", dir], "fuzz-student", "student");
    let scratch = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for (who, token) in [("teacher", &teacher), ("student", &student)] {
        let output = Command::new(&tool)
            .arg("--config-file")
            .arg(here().join("schemathesis.toml"))
            .args(["run", &format!("{url}/api/openapi.json"), "--url", &url])
            .args(["-H", &format!("Authorization: Bearer {token}")])
            .args([
                "--checks",
                "all",
                "--max-examples",
                EXAMPLES,
                "--seed",
                SEED,
            ])
            // One worker: CPython 3.11's `ast.parse`, which hypothesis calls to describe its
            // filters, fails now and then when threads call it at once ("AST constructor
            // recursion depth mismatch"), and schemathesis reports that as an error of its own.
            .args(["--workers", "1", "--no-color"])
            .env("SCHEMATHESIS_HOOKS", "hooks")
            .env("PYTHONPATH", here())
            // Hypothesis keeps its example database in the working directory.
            .current_dir(scratch.path())
            .stdin(Stdio::null())
            .output()
            .expect("schemathesis runs");
        if !output.status.success() {
            reports.push(format!(
                "schemathesis with the {who}'s token ({}):\n{}\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(reports.is_empty(), "{}", reports.join("\n\n"));
}
