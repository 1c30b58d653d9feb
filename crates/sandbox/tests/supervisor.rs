//! The supervisor as the judge talks to it: a broken request gets an internal-error report and
//! costs nothing else; limits and statuses come back as documented.

use grundy_sandbox::{Limits, RunSpec, Sandbox, Status, SupervisorCommand};

fn root() -> bool {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
    });
    if !root {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI runs as root, but this process is not root");
        }
        eprintln!("SKIPPED: the sandbox needs root");
    }
    root
}

fn supervisor() -> SupervisorCommand {
    SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy-sandbox").into(),
        args: vec![],
    }
}

fn shell(script: &str) -> RunSpec {
    RunSpec {
        argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        files: vec![],
        stdin: None,
        stdout_path: None,
        binds: vec![],
        copy_out: None,
        limits: Limits::for_run(1000, 64 * 1024),
    }
}

#[test]
fn malformed_requests_cost_nothing_else() {
    if !root() {
        return;
    }
    use std::io::{BufRead, BufReader, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy-sandbox"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    output.read_line(&mut line).unwrap();
    assert!(line.contains("Ready"), "{line}");
    let good = serde_json::to_string(&shell("echo fine")).unwrap();
    let mut empty_argv = shell("");
    empty_argv.argv.clear();
    let bad_name = {
        let mut spec = shell("true");
        spec.files.push(grundy_sandbox::BoxFile {
            name: "../escape".into(),
            source: grundy_sandbox::FileSource::Bytes(b"x".to_vec()),
            executable: false,
        });
        serde_json::to_string(&spec).unwrap()
    };
    for request in [
        "{not json",
        "{\"argv\": 3}",
        &serde_json::to_string(&empty_argv).unwrap(),
        &bad_name,
        &good,
    ] {
        writeln!(input, "{request}").unwrap();
        line.clear();
        output.read_line(&mut line).unwrap();
        let report: grundy_sandbox::RunReport = serde_json::from_str(&line).unwrap();
        if request == good {
            assert_eq!(report.status, Status::Ok, "{report:?}");
            assert_eq!(report.stdout, b"fine\n");
        } else {
            assert_eq!(
                report.status,
                Status::InternalError,
                "{request}: {report:?}"
            );
        }
    }
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn statuses_limits_and_figures() {
    if !root() {
        return;
    }
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    assert!(!sandbox.is_weak());

    let exit = sandbox
        .run(&shell("echo out; echo err >&2; exit 5"))
        .unwrap();
    assert_eq!(
        (exit.status, exit.exit_code),
        (Status::RuntimeError, Some(5))
    );
    assert_eq!(
        (exit.stdout.as_slice(), exit.stderr.as_slice()),
        (&b"out\n"[..], &b"err\n"[..])
    );

    let signal = sandbox.run(&shell("kill -SEGV $$")).unwrap();
    assert_eq!(signal.status, Status::RuntimeError);
    assert_eq!(signal.signal.as_deref(), Some("SIGSEGV"));

    let abort = sandbox.run(&shell("kill -ABRT $$")).unwrap();
    assert_eq!(
        abort.signal.as_deref(),
        Some("SIGABRT"),
        "the program is not pid 1: its signals work"
    );

    let mut spin = shell("while :; do :; done");
    spin.limits.cpu_ms = 300;
    let spun = sandbox.run(&spin).unwrap();
    assert_eq!(
        (spun.status, spun.detail.as_deref()),
        (Status::TimeLimit, Some("cpu"))
    );
    assert!(spun.cpu_ms >= 300, "{spun:?}");

    let mut sleep = shell("sleep 30");
    sleep.limits.wall_ms = 300;
    let slept = sandbox.run(&sleep).unwrap();
    assert_eq!(
        (slept.status, slept.detail.as_deref()),
        (Status::TimeLimit, Some("wall"))
    );
    assert!(slept.wall_ms >= 300 && slept.wall_ms < 5000, "{slept:?}");

    let mut chatty = shell("yes");
    chatty.limits.stdout_bytes = 1 << 16;
    let chatted = sandbox.run(&chatty).unwrap();
    assert_eq!(chatted.status, Status::OutputLimit);
    assert_eq!(chatted.stdout.len(), 1 << 16);

    let mut absent = shell("true");
    absent.argv = vec!["/no/such/program".into()];
    let missing = sandbox.run(&absent).unwrap();
    assert_eq!(missing.status, Status::InternalError);
    assert!(missing.detail.unwrap().contains("cannot execute"));

    // No signal ignored or blocked is inherited from the supervisor (Rust ignores SIGPIPE).
    let signals = sandbox
        .run(&shell("grep -E '^Sig(Ign|Blk)' /proc/self/status"))
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&signals.stdout),
        "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n"
    );

    // Files from the host reach the box read-only; standard input comes from a host file.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::write(&data, "from the host\n").unwrap();
    let mut read = shell("cat given; echo x >> given || echo read-only; cat");
    read.files.push(grundy_sandbox::BoxFile {
        name: "given".into(),
        source: grundy_sandbox::FileSource::Host(data.clone()),
        executable: false,
    });
    read.stdin = Some(data.clone());
    let out = sandbox.run(&read).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "from the host\nread-only\nfrom the host\n",
        "{out:?}"
    );
    assert_eq!(std::fs::read_to_string(&data).unwrap(), "from the host\n");
}
