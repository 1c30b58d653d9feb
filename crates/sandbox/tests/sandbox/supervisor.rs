//! The supervisor as the judge talks to it: a broken request gets an internal-error report and
//! costs nothing else; limits and statuses come back as documented.

use crate::common;

use common::{probe_binary, probe_run, root, shell, supervisor};
use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::Command;

use grundy_sandbox::{Bind, RunKind, RunReport, Sandbox, Status};

#[test]
fn malformed_requests_cost_nothing_else() {
    if !root() {
        return;
    }
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy-sandbox"))
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
        let report: RunReport = serde_json::from_str(&line).unwrap();
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
    let offered = std::fs::read_to_string("/sys/kernel/cgroup/features")
        .is_ok_and(|f| f.lines().any(|l| l == "favordynmods"));
    assert_eq!(sandbox.has_fast_migrations(), offered);

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

/// Runs the probe's `call NAME` in a fresh supervisor; `None` where the test cannot run.
fn call(name: &str) -> Option<RunReport> {
    if !root() {
        return None;
    }
    let probe = probe_binary()?;
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    Some(sandbox.run(&probe_run(probe, &["call", name])).unwrap())
}

/// Only the query and the default pass: ASLR off, `READ_IMPLIES_EXEC` and the 32-bit
/// personality are refused and leave the default in place.
#[test]
fn personality_keeps_the_default() {
    let Some(report) = call("personality") else {
        return;
    };
    assert_eq!(report.status, Status::Ok, "{report:?}");
    assert_eq!(
        String::from_utf8_lossy(&report.stdout),
        "query 0\ndefault 0\nset 0x40000 EPERM\nset 0x400000 EPERM\nset 0x8 EPERM\nnow 0\n"
    );
}

#[test]
fn secret_memory_is_absent() {
    let Some(report) = call("memfd_secret") else {
        return;
    };
    assert_eq!(
        (report.status, String::from_utf8_lossy(&report.stdout)),
        (Status::Ok, "memfd_secret ENOSYS\n".into()),
        "{report:?}"
    );
}

#[test]
fn touching_the_segment_tables_ends_the_run() {
    let Some(report) = call("modify_ldt") else {
        return;
    };
    assert_eq!(
        (report.status, report.detail.as_deref()),
        (
            Status::SecurityViolation,
            Some("forbidden system call: modify_ldt")
        ),
        "{report:?}"
    );
    assert!(report.stdout.is_empty(), "{report:?}");
}

/// A shared library every box maps, the system's library directory, and one test input that two
/// runs read at once: the same inodes in every box.
fn shared_paths() -> Vec<&'static str> {
    ["/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/os-release"]
        .into_iter()
        .filter(|p| Path::new(p).exists())
        .take(1)
        .chain(["/usr/lib"])
        .collect()
}

/// One box tries to lock the files both boxes see and holds what it got while the other box
/// looks: neither can lock anything (so there is nothing to see), and the lines that would carry
/// a bit (`locked` against `free`) never appear.
#[test]
fn two_boxes_running_at_once_cannot_signal_through_locks() {
    if !root() {
        return;
    }
    let Some(probe) = probe_binary() else {
        return;
    };
    // Not under /tmp, which every box has a /tmp of its own over: under the target directory,
    // unless that is itself under /tmp (a checkout there), then under /var/tmp.
    let base = match env!("CARGO_TARGET_TMPDIR") {
        under_tmp if Path::new(under_tmp).starts_with("/tmp") => "/var/tmp",
        target => target,
    };
    let dir = tempfile::tempdir_in(base).unwrap();
    let input = dir.path().join("input");
    std::fs::write(&input, "3\n1 2 3\n").unwrap();
    let until = dir.path().join("until");
    let made = Command::new("mkfifo").arg(&until).status().unwrap();
    assert!(made.success());
    let shared = shared_paths();

    let mut holder = probe_run(probe, &[]);
    holder.argv.push("hold".into());
    holder.argv.push(until.to_str().unwrap().into());
    holder.argv.push(input.to_str().unwrap().into());
    holder.argv.extend(shared.iter().map(|p| p.to_string()));
    holder.binds.push(Bind::same(dir.path()));
    holder.stdin = Some(input.clone());
    let holding = std::thread::spawn(move || {
        let mut sandbox = Sandbox::start(&supervisor()).unwrap();
        sandbox.run(&holder).unwrap()
    });
    // The holder opens its end only after trying every lock.
    let release = loop {
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&until)
        {
            Ok(file) => break file,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) && !holding.is_finished() => {
                std::thread::yield_now()
            }
            Err(e) if holding.is_finished() => panic!(
                "the holding box ended before it got to its locks ({e}): {:?}",
                holding.join()
            ),
            Err(e) => panic!("the holding box never got to its locks: {e}"),
        }
    };

    let mut looking = vec!["stdin"];
    looking.extend(&shared);
    let mut looker = probe_run(probe, &["probe"]);
    looker.argv.extend(looking.iter().map(|p| p.to_string()));
    looker.stdin = Some(input.clone());
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    let looked = sandbox.run(&looker).unwrap();
    drop(release);
    let held = holding.join().unwrap();

    assert_eq!(held.status, Status::Ok, "{held:?}");
    let expected_held: String = std::iter::once(input.to_str().unwrap())
        .chain(shared.iter().copied())
        .map(|p| format!("cannot lock {p}: ENOLCK\n"))
        .collect();
    assert_eq!(String::from_utf8_lossy(&held.stdout), expected_held);

    assert_eq!(looked.status, Status::Ok, "{looked:?}");
    let mut expected_looked = String::from("self cannot lock: ENOLCK\n");
    for who in ["self", "other"] {
        for path in &looking {
            let kinds: &[&str] = if *path == "/usr/lib" {
                &["flock"]
            } else {
                &["flock", "posix", "ofd"]
            };
            for kind in kinds {
                expected_looked.push_str(&format!("{who} {path} {kind} ENOLCK\n"));
            }
        }
    }
    assert_eq!(String::from_utf8_lossy(&looked.stdout), expected_looked);
}

/// A box told whenever another box opens a library they share could read a message in the
/// timing of those opens: neither inotify nor dnotify is there for a program.
#[test]
fn a_box_cannot_watch_the_files_it_shares() {
    if !root() {
        return;
    }
    let Some(probe) = probe_binary() else {
        return;
    };
    let shared = shared_paths();
    let mut watcher = probe_run(probe, &["watch"]);
    watcher.argv.extend(shared.iter().map(|p| p.to_string()));
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    let report = sandbox.run(&watcher).unwrap();
    assert_eq!(report.status, Status::Ok, "{report:?}");
    assert_eq!(
        String::from_utf8_lossy(&report.stdout),
        "inotify_init1 ENOSYS\ndnotify /usr/lib EINVAL\n"
    );
}

/// Compilers are not programs under test: `go build` locks its cache, so a toolchain run keeps
/// its locks (inside its own box, where the probe's child holds them and the parent sees them).
#[test]
fn a_toolchain_keeps_its_locks() {
    if !root() {
        return;
    }
    let Some(probe) = probe_binary() else {
        return;
    };
    let mut compiler = probe_run(probe, &["probe", "probe"]);
    compiler.kind = RunKind::Toolchain;
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    let report = sandbox.run(&compiler).unwrap();
    assert_eq!(report.status, Status::Ok, "{report:?}");
    assert_eq!(
        String::from_utf8_lossy(&report.stdout),
        "self probe flock locked\nself probe posix locked\nself probe ofd locked\n\
         other probe flock free\nother probe posix free\nother probe ofd free\n"
    );
}

#[test]
fn feedback_files_come_out_of_a_failed_run_only_when_asked() {
    if !root() {
        return;
    }
    let mut sandbox = Sandbox::start(&supervisor()).unwrap();
    let run = |sandbox: &mut Sandbox, after_failure: bool| {
        let out = tempfile::tempdir().unwrap();
        let mut spec =
            shell("echo 'guessed 7, too high' > judgemessage.txt; echo x > other; exit 43");
        spec.copy_out = Some(grundy_sandbox::CopyOut {
            dir: out.path().to_path_buf(),
            suffixes: vec!["message.txt".into()],
            max_bytes: 1 << 10,
            after_failure,
        });
        let report = sandbox.run(&spec).unwrap();
        assert_eq!(report.exit_code, Some(43));
        (report.copied, out)
    };
    let (copied, out) = run(&mut sandbox, true);
    assert_eq!(copied, ["judgemessage.txt"]);
    assert_eq!(
        std::fs::read_to_string(out.path().join("judgemessage.txt")).unwrap(),
        "guessed 7, too high\n"
    );
    // A compiler that failed leaves nothing behind.
    let (copied, out) = run(&mut sandbox, false);
    assert!(copied.is_empty());
    assert!(!out.path().join("judgemessage.txt").exists());
}
