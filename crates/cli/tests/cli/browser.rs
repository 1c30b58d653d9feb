//! The pages in a real browser: Debian's chromium driven by playwright-core (both installed by
//! `scripts/install-test-deps`) against `grundy serve` with in-process workers and the sandbox.
//! `tests/browser/flow.mjs`: a student registers, reads Stones (MathML), submits a correct and a
//! wrong C++ solution and watches them judged live; a teacher uploads a package and filters
//! submissions. `tests/browser/flow_vi.mjs`: the same class in Vietnamese, on a phone, where every
//! page must be free of English labels. Both measure every page at 390 and 1,280 px.
//! Screenshots land in `target/tmp/browser-artifacts/` and `target/tmp/browser-artifacts-vi/`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::service::{grundy_command, pebbles, serve};
use common::{isolation_available, programs, tool_available};

const TEACHER: &str = "tina";
const TEACHER_PASSWORD: &str = "tina-password-1";

fn flow_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Whether this machine can run a browser flow; says which part is missing when not.
fn browser_available(test: &str) -> bool {
    let playwright = flow_dir().join("node_modules/playwright-core/package.json");
    isolation_available(test)
        && tool_available(test, "/usr/bin/g++")
        && tool_available(test, "/usr/bin/chromium")
        && tool_available(test, "/usr/bin/node")
        && tool_available(test, playwright.to_str().unwrap())
}

/// A teacher account, made the way an operator makes one.
fn create_teacher(data: &Path) {
    let created = grundy_command(&[
        "admin",
        "create-user",
        "--name",
        TEACHER,
        "--role",
        "teacher",
        "--password-stdin",
        "--data-dir",
        data.to_str().unwrap(),
    ])
    .stdin(std::process::Stdio::piped())
    .spawn()
    .and_then(|mut child| {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{TEACHER_PASSWORD}\n").as_bytes())?;
        child.wait_with_output()
    })
    .unwrap();
    assert!(created.status.success(), "{created:?}");
}

/// Runs `script` against `url` with what every flow needs, plus `extra`.
fn run_flow(script: &str, url: &str, artifacts: &Path, extra: &[(&str, PathBuf)]) {
    let _ = std::fs::remove_dir_all(artifacts);
    let flow = flow_dir();
    let status = Command::new("/usr/bin/node")
        .arg(flow.join(script))
        .current_dir(&flow)
        .env("GRUNDY_URL", url)
        .env("GRUNDY_ARTIFACTS", artifacts)
        .env("GRUNDY_CORRECT", programs().join("solutions/stones/ok.cpp"))
        .env("GRUNDY_WRONG", flow.join("stones_wrong_on_sample_3.cpp"))
        .env("GRUNDY_TEACHER", TEACHER)
        .env("GRUNDY_TEACHER_PASSWORD", TEACHER_PASSWORD)
        .envs(extra.iter().map(|(k, v)| (k, v)))
        .status()
        .unwrap();
    eprintln!("screenshots: {}", artifacts.display());
    assert!(
        status.success(),
        "the browser flow {script} failed ({status})"
    );
}

#[test]
fn a_student_and_a_teacher_in_chromium() {
    let test = "a_student_and_a_teacher_in_chromium";
    if !browser_available(test) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--registration", "open"], data.path());
    create_teacher(data.path());
    let package = data.path().join("pebbles-web.zip");
    std::fs::write(&package, pebbles("pebbles-web", false)).unwrap();
    run_flow(
        "flow.mjs",
        &url,
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-artifacts"),
        &[
            (
                "GRUNDY_SUM_PARITY",
                programs().join("misconceptions/stones/sum-parity.cpp"),
            ),
            ("GRUNDY_PACKAGE", package),
            ("GRUNDY_PACKAGE_SLUG", "pebbles-web".into()),
        ],
    );
}

#[test]
fn a_vietnamese_class_on_a_phone_in_chromium() {
    let test = "a_vietnamese_class_on_a_phone_in_chromium";
    if !browser_available(test) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--registration", "open"], data.path());
    create_teacher(data.path());
    run_flow(
        "flow_vi.mjs",
        &url,
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-artifacts-vi"),
        &[(
            "GRUNDY_UI_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src/web/ui"),
        )],
    );
}
