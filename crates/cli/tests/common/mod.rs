//! Shared by the tests that run programs in the sandbox.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The sandbox needs root (namespaces, cgroups, uids). Elsewhere these tests say so and skip;
/// in CI (`CI=true`, root on this machine kind) a missing privilege is a failure, not a skip.
pub fn isolation_available(test: &str) -> bool {
    if nix_is_root() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: CI runs as root, but this process is not root");
    }
    eprintln!("SKIPPED {test}: the sandbox needs root (run the tests as root to include them)");
    false
}

/// A compiler or interpreter the test needs; in CI its absence fails the test.
pub fn tool_available(test: &str, path: &str) -> bool {
    if Path::new(path).exists() {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: {path} is missing in CI");
    }
    eprintln!("SKIPPED {test}: {path} is not installed");
    false
}

pub fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(2) == Some("0"))
        })
        .unwrap_or(false)
}

pub fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// Where `grundy run` and `grundy judge` keep compiled programs and precompiled headers when a
/// test names no `--cache-dir`: under the target directory (a clean clone starts without it), not
/// in the home directory's cache.
pub fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-cache")
}

/// Runs `grundy` with `args`, feeding `stdin`; the environment carries a secret that must never
/// reach a sandboxed program.
pub fn grundy(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env("GRUNDY_CACHE_DIR", cache_dir())
        .env("GRUNDY_TEST_SECRET", "hunter2-leaked")
        .env_remove("GRUNDY_ALLOW_WEAK_ISOLATION")
        .env_remove("GRUNDY_LANGUAGES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout {:?}, stderr {:?}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// Processes running under the sandbox's per-run uids (2 000 000 000 and up).
pub fn sandbox_processes() -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid: u64 = status
            .lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|u| u.parse().ok())
            .unwrap_or(0);
        if uid >= 2_000_000_000 {
            let command = status.lines().next().unwrap_or("").to_owned();
            found.push(format!("pid {name} uid {uid} {command}"));
        }
    }
    found
}

/// Cgroups and work directories a supervisor leaves behind when it fails to clean up.
pub fn sandbox_leftovers() -> Vec<String> {
    let mut left = Vec::new();
    let parents: Vec<PathBuf> = match grundy_sandbox::cgroup::detect(None) {
        Ok(grundy_sandbox::cgroup::Layout::V1 {
            memory,
            pids,
            cpuacct,
        }) => vec![memory, pids, cpuacct],
        Ok(grundy_sandbox::cgroup::Layout::V2 { parent }) => vec![parent],
        Err(_) => vec![],
    };
    for dir in parents.iter().chain([&std::env::temp_dir()]) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("grundy-sandbox-")
                    || (name.starts_with("grundy-") && dir != &std::env::temp_dir())
                {
                    left.push(entry.path().display().to_string());
                }
            }
        }
    }
    left
}
pub mod service;
