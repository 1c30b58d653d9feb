//! What the client asks the supervisor for and what it gets back: one JSON document per line.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Limits of one run. CPU time counts every thread and child; the wall limit catches sleepers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    /// Processes and threads together.
    pub pids: u64,
    /// Bytes of standard output kept; more is an output limit.
    pub stdout_bytes: u64,
    /// Bytes of standard error kept; more is dropped silently (it is diagnostics, not an answer).
    pub stderr_bytes: u64,
    /// Size of the writable `/box` and the largest file the program may write.
    pub file_bytes: u64,
}

impl Limits {
    /// Limits for running a program with the given time and memory limit; the wall limit is three
    /// times the CPU limit plus a second for start-up.
    pub fn for_run(cpu_ms: u64, memory_kib: u64) -> Self {
        Limits {
            cpu_ms,
            wall_ms: cpu_ms.saturating_mul(3).saturating_add(1000),
            memory_kib,
            pids: 64,
            stdout_bytes: 64 << 20,
            stderr_bytes: 64 << 10,
            file_bytes: 64 << 20,
        }
    }
}

/// Where the bytes of a file put into the box come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileSource {
    Bytes(Vec<u8>),
    /// A file on the host, read by the supervisor (never by the program).
    Host(PathBuf),
}

/// A file placed in `/box` before the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxFile {
    /// A plain file name: no `/`, not `.` or `..`.
    pub name: String,
    pub source: FileSource,
    pub executable: bool,
}

/// After the run, copy the regular files at the top of `/box` whose names end with one of
/// `suffixes` (all when empty) into `dir` on the host. Symlinks, hardlinks and anything else the
/// program may have put there are refused, never followed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyOut {
    pub dir: PathBuf,
    pub suffixes: Vec<String>,
    pub max_bytes: u64,
    /// Copy also when the run did not end with exit code 0 (but not after an internal error):
    /// a Kattis validator writes its feedback files and then exits with 42 or 43. A compiler's
    /// output is wanted only from a success.
    #[serde(default)]
    pub after_failure: bool,
}

/// Whose code a run executes, which decides what it may share with other boxes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunKind {
    /// A program under test (or a teacher's validator): no file locks and no file-change
    /// notifications, since a lock or a watch on a file that two boxes both see (a system
    /// library, a test input shared by two runs) is a signal from one box to the other.
    #[default]
    Program,
    /// A compiler working on a program: it runs no code of the program's author, and build
    /// tools lock their caches (`go build`).
    Toolchain,
}

/// A host path mounted read-only in the box, at the same place unless `at` says where. Once
/// mounted it stays for the supervisor's later runs (read-only software and caches).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bind {
    pub host: PathBuf,
    /// An absolute path outside the per-run mounts (`/box`, `/tmp`, `/proc`, `/dev`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<PathBuf>,
}

impl Bind {
    /// `host` at the same path in the box.
    pub fn same(host: impl Into<PathBuf>) -> Bind {
        Bind {
            host: host.into(),
            at: None,
        }
    }

    /// `host` at `at` in the box.
    pub fn at(host: impl Into<PathBuf>, at: impl Into<PathBuf>) -> Bind {
        Bind {
            host: host.into(),
            at: Some(at.into()),
        }
    }

    /// Where it appears in the box.
    pub fn target(&self) -> &std::path::Path {
        self.at.as_deref().unwrap_or(&self.host)
    }
}

/// Standard input and output wired to the client instead of files, for a program that talks with
/// a referee while it runs. Each is a FIFO on the host that the client made and has already
/// opened its own end of (so the supervisor's opens never block): the program reads
/// `to_program` and writes `from_program`. A byte written to `control` ends the run at once (the
/// referee's idleness limit, or a program that goes on after the referee has decided).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pipes {
    pub to_program: PathBuf,
    pub from_program: PathBuf,
    pub control: PathBuf,
}

/// One run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSpec {
    /// `argv[0]` is a path inside the sandbox (the system's `/usr` is there, the box is `/box`).
    pub argv: Vec<String>,
    /// The whole environment: nothing of the supervisor's leaks in.
    pub env: Vec<(String, String)>,
    pub files: Vec<BoxFile>,
    /// Host file given as standard input; empty input when absent.
    pub stdin: Option<PathBuf>,
    /// Where on the host the captured standard output is written (created, must not exist).
    /// When absent it comes back in the report.
    pub stdout_path: Option<PathBuf>,
    /// Extra host paths mounted read-only (a toolchain outside `/usr`, a precompiled header).
    pub binds: Vec<Bind>,
    pub copy_out: Option<CopyOut>,
    pub limits: Limits,
    #[serde(default)]
    pub kind: RunKind,
    /// When present, `stdin` and `stdout_path` must be absent: standard input and output are
    /// these pipes, and nothing of the output is captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipes: Option<Pipes>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    RuntimeError,
    SecurityViolation,
    InternalError,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::TimeLimit => "time_limit",
            Status::MemoryLimit => "memory_limit",
            Status::OutputLimit => "output_limit",
            Status::RuntimeError => "runtime_error",
            Status::SecurityViolation => "security_violation",
            Status::InternalError => "internal_error",
        }
    }
}

/// What happened in one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    pub status: Status,
    pub exit_code: Option<i32>,
    /// The signal that ended the program, by name (`SIGSEGV`).
    pub signal: Option<String>,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    /// Peak memory of the whole run (all processes), KiB.
    pub memory_kib: u64,
    /// Why, in a few words, when the status alone does not say: which limit (`cpu`, `wall`), the
    /// forbidden system call, the reason of an internal error.
    pub detail: Option<String>,
    /// Captured standard output when no `stdout_path` was given.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Files copied out of the box, and those refused (name and reason).
    pub copied: Vec<String>,
    pub refused: Vec<(String, String)>,
}

impl RunReport {
    pub(crate) fn internal(detail: impl Into<String>) -> Self {
        RunReport {
            status: Status::InternalError,
            exit_code: None,
            signal: None,
            cpu_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            detail: Some(detail.into()),
            stdout: Vec::new(),
            stderr: Vec::new(),
            copied: Vec::new(),
            refused: Vec::new(),
        }
    }
}

/// First line the supervisor writes: what isolation it has, or why it has none.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Hello {
    Ready {
        weak: bool,
        /// Whether moving a run into its cgroups is quick (see `cgroup::favor_migrations`).
        fast_migrations: bool,
    },
    Refused(String),
}
