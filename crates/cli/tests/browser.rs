//! The pages in a real browser: Debian's chromium driven by playwright-core (both installed by
//! `scripts/install-test-deps`) through `tests/browser/flow.mjs`, against `grundy serve` with
//! in-process workers and the sandbox. A student registers, reads Stones (MathML), submits a
//! correct and a wrong C++ solution and watches them judged live; a teacher uploads a package
//! and filters submissions. Screenshots land in `target/tmp/browser-artifacts/`.

mod common;

use std::path::Path;
use std::process::Command;

use common::service::{grundy_command, pebbles, serve};
use common::{isolation_available, programs, tool_available};

#[test]
fn a_student_and_a_teacher_in_chromium() {
    let test = "a_student_and_a_teacher_in_chromium";
    let flow = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let playwright = flow.join("node_modules/playwright-core/package.json");
    if !isolation_available(test)
        || !tool_available(test, "/usr/bin/g++")
        || !tool_available(test, "/usr/bin/chromium")
        || !tool_available(test, "/usr/bin/node")
        || !tool_available(test, playwright.to_str().unwrap())
    {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(&["--registration", "open"], data.path());

    let teacher_password = "tina-password-1";
    let created = grundy_command(&[
        "admin",
        "create-user",
        "--name",
        "tina",
        "--role",
        "teacher",
        "--password-stdin",
        "--data-dir",
        data.path().to_str().unwrap(),
    ])
    .stdin(std::process::Stdio::piped())
    .spawn()
    .and_then(|mut child| {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{teacher_password}\n").as_bytes())?;
        child.wait_with_output()
    })
    .unwrap();
    assert!(created.status.success(), "{created:?}");

    let package = data.path().join("pebbles-web.zip");
    std::fs::write(&package, pebbles("pebbles-web", false)).unwrap();
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-artifacts");
    let _ = std::fs::remove_dir_all(&artifacts);

    let status = Command::new("/usr/bin/node")
        .arg(flow.join("flow.mjs"))
        .current_dir(&flow)
        .env("GRUNDY_URL", &url)
        .env("GRUNDY_ARTIFACTS", &artifacts)
        .env("GRUNDY_CORRECT", programs().join("solutions/stones/ok.cpp"))
        .env("GRUNDY_WRONG", flow.join("stones_wrong_on_sample_3.cpp"))
        .env(
            "GRUNDY_SUM_PARITY",
            programs().join("misconceptions/stones/sum-parity.cpp"),
        )
        .env("GRUNDY_PACKAGE", &package)
        .env("GRUNDY_PACKAGE_SLUG", "pebbles-web")
        .env("GRUNDY_TEACHER", "tina")
        .env("GRUNDY_TEACHER_PASSWORD", teacher_password)
        .status()
        .unwrap();
    eprintln!("screenshots: {}", artifacts.display());
    assert!(status.success(), "the browser flow failed ({status})");
}
