//! Shared by the tests that start real supervisors.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use grundy_sandbox::{BoxFile, FileSource, Limits, RunKind, RunSpec, SupervisorCommand};

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The sandbox needs root; elsewhere the test says so and passes, in CI it fails.
pub fn root() -> bool {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
    });
    if !root {
        if in_ci() {
            panic!("CI runs as root, but this process is not root");
        }
        eprintln!("SKIPPED: the sandbox needs root");
    }
    root
}

pub fn supervisor() -> SupervisorCommand {
    SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy-sandbox").into(),
        args: vec![],
    }
}

pub fn shell(script: &str) -> RunSpec {
    RunSpec {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        files: vec![],
        stdin: None,
        stdout_path: None,
        binds: vec![],
        copy_out: None,
        limits: Limits::for_run(1000, 64 * 1024),
        kind: RunKind::Program,
        pipes: None,
    }
}

/// `tests/probe/probe.c`, compiled once per test binary; `None` (after saying why) without gcc.
pub fn probe_binary() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let gcc = Path::new("/usr/bin/gcc");
            if !gcc.exists() {
                if in_ci() {
                    panic!("{} is missing in CI", gcc.display());
                }
                eprintln!("SKIPPED: {} is not installed", gcc.display());
                return None;
            }
            let dir = tempfile::tempdir().unwrap();
            let binary = dir.path().join("probe");
            let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/probe/probe.c");
            let out = Command::new(gcc)
                .args(["-std=gnu11", "-O2", "-Wall", "-Werror", "-o"])
                .arg(&binary)
                .arg(&source)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some((dir, binary))
        })
        .as_ref()
        .map(|(_, binary)| binary.as_path())
}

/// A run of the probe with `args`, the binary bound into the box as `./probe`.
pub fn probe_run(binary: &Path, args: &[&str]) -> RunSpec {
    let mut spec = shell("");
    spec.argv = ["./probe"]
        .iter()
        .chain(args)
        .map(|s| (*s).to_owned())
        .collect();
    spec.files.push(BoxFile {
        name: "probe".into(),
        source: FileSource::Host(binary.to_path_buf()),
        executable: true,
    });
    spec
}
