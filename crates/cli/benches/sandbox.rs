//! Sandbox overhead, measured side by side in one run on a noisy shared machine:
//! 1. one run of a static do-nothing binary through the sandbox (fresh namespaces, pivot_root,
//!    cgroups, seccomp, copying the binary into the box) against a plain fork + exec + wait of the
//!    same binary, printed as a ratio of medians (target ≤ 2.5×);
//! 2. judging a C solution on 100 tests: total wall time against the sum of the program's own
//!    CPU times.
//!
//! Needs root and gcc; says so and exits otherwise. `cargo bench -p grundy-cli --bench sandbox`.
#![allow(unsafe_code)] // the baseline is a bare fork/exec/wait

use std::ffi::CString;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use grundy_judge::{Judge, Languages};
use grundy_sandbox::{
    BoxFile, FileSource, Limits, RunKind, RunSpec, Sandbox, Status, SupervisorCommand,
};

const ROUNDS: usize = 15;
const PER_ROUND: usize = 20;

fn supervisor() -> SupervisorCommand {
    SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy").into(),
        args: vec!["sandbox-supervisor".into()],
    }
}

fn fork_exec_wait(path: &CString) {
    let argv = [path.as_ptr(), std::ptr::null()];
    let env: [*const libc::c_char; 1] = [std::ptr::null()];
    // SAFETY: the child only calls execve and _exit.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::execve(path.as_ptr(), argv.as_ptr(), env.as_ptr());
            libc::_exit(127);
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    }
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
    });
    if !root || !Path::new("/usr/bin/gcc").exists() {
        eprintln!("SKIPPED sandbox benchmark: needs root and gcc");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("true.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
    let binary = dir.path().join("true");
    let built = Command::new("gcc")
        .args(["-static", "-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap();
    assert!(built.success(), "gcc -static failed (libc.a missing?)");
    let c_path = CString::new(binary.to_str().unwrap()).unwrap();

    let mut sandbox = Sandbox::start(&supervisor()).expect("supervisor");
    let spec = RunSpec {
        argv: vec!["./true".into()],
        env: vec![],
        files: vec![BoxFile {
            name: "true".into(),
            source: FileSource::Host(binary.clone()),
            executable: true,
        }],
        stdin: None,
        stdout_path: None,
        binds: vec![],
        copy_out: None,
        limits: Limits::for_run(1000, 64 * 1024),
        kind: RunKind::Program,
        pipes: None,
    };
    // Warm up both paths (page cache, cgroup directories, the supervisor's first allocations).
    for _ in 0..10 {
        fork_exec_wait(&c_path);
        assert_eq!(sandbox.run(&spec).unwrap().status, Status::Ok);
    }
    // Interleaved rounds: both sides see the same machine noise.
    let (mut plain, mut boxed) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        for _ in 0..PER_ROUND {
            let t = Instant::now();
            fork_exec_wait(&c_path);
            plain.push(t.elapsed());
        }
        for _ in 0..PER_ROUND {
            let t = Instant::now();
            let report = sandbox.run(&spec).unwrap();
            boxed.push(t.elapsed());
            assert_eq!(report.status, Status::Ok);
        }
    }
    let (plain_median, boxed_median) = (median(plain), median(boxed));
    println!(
        "per-run overhead ({} runs each, interleaved)",
        ROUNDS * PER_ROUND
    );
    println!(
        "  fork + exec + wait of a static binary: {:.3} ms (median)",
        ms(plain_median)
    );
    println!(
        "  full sandbox run of the same binary:  {:.3} ms (median)",
        ms(boxed_median)
    );
    println!(
        "  ratio: {:.2}x (target <= 2.5x)",
        boxed_median.as_secs_f64() / plain_median.as_secs_f64()
    );
    drop(sandbox);

    // 100 tests of a C solution to Stones, compiled once.
    let catalogue = grundy_problems::Catalogue::builtin().unwrap();
    let problem = catalogue.get("stones").unwrap();
    let cache = tempfile::tempdir().unwrap();
    let tests = grundy_judge::testset::materialize(problem, cache.path()).unwrap();
    let mut judge = Judge::new(
        Sandbox::start(&supervisor()).unwrap(),
        Languages::load(None).unwrap(),
        cache.path().into(),
    )
    .unwrap();
    let language = judge.languages().get("c").unwrap().clone();
    let solution =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/solutions/stones/ok.c");
    let compiled = judge
        .compile(&language, &std::fs::read(solution).unwrap())
        .unwrap();
    assert!(compiled.result.ok);
    let limits = Limits::for_run(2000, 256 * 1024);
    let output = dir.path().join("out");
    let started = Instant::now();
    let mut cpu_ms = 0;
    for test in tests.tests.iter().cycle().take(100) {
        let _ = std::fs::remove_file(&output);
        let report = judge
            .run(
                &language,
                &compiled,
                Some(&test.input),
                Some(&output),
                limits,
            )
            .unwrap();
        assert_eq!(report.status, Status::Ok);
        let got = std::fs::read_to_string(&output).unwrap();
        let want = std::fs::read_to_string(&test.answer).unwrap();
        assert_eq!(
            problem.check("", &want, &got),
            grundy_problems::check::CheckOutcome::Accepted
        );
        cpu_ms += report.cpu_ms;
    }
    let wall = started.elapsed();
    println!("judging stones/ok.c on 100 tests (compiled once)");
    println!(
        "  total wall time: {:.0} ms; sum of the program's CPU times: {cpu_ms} ms",
        ms(wall)
    );
    println!(
        "  judge overhead per test: {:.2} ms",
        (ms(wall) - cpu_ms as f64) / 100.0
    );
}
