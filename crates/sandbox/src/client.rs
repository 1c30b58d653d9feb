//! The judge's side: starts a supervisor process and exchanges one request and one report at a
//! time with it. Blocking by design; a server calls it from a blocking thread.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::protocol::{Hello, RunReport, RunSpec};

/// How to start a supervisor: usually the `grundy` binary itself with its hidden subcommand.
#[derive(Debug, Clone)]
pub struct SupervisorCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The machine cannot isolate programs and weak isolation was not allowed.
    #[error("isolation unavailable: {0}")]
    Refused(String),
    #[error("cannot start the sandbox supervisor {program}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("the sandbox supervisor stopped answering: {0}")]
    Protocol(String),
}

/// A running supervisor.
#[derive(Debug)]
pub struct Sandbox {
    /// How it was started, to start another like it.
    command: SupervisorCommand,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    weak: bool,
    fast_migrations: bool,
}

impl Sandbox {
    pub fn start(command: &SupervisorCommand) -> Result<Sandbox, SandboxError> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            // A process group of its own: a terminal's Ctrl-C goes to the judge, which decides
            // what becomes of the run in progress (a service lets it finish within its shutdown
            // grace period), instead of killing the supervisor mid-run, which would end the
            // submission as an internal error. It still ends with the judge: at the end of its
            // current run it finds its input closed.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| SandboxError::Spawn {
                program: command.program.display().to_string(),
                source,
            })?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| SandboxError::Protocol("no stdout".into()))?,
        );
        let mut sandbox = Sandbox {
            command: command.clone(),
            child,
            stdin,
            stdout,
            weak: false,
            fast_migrations: false,
        };
        match serde_json::from_str::<Hello>(&sandbox.read_line()?) {
            Ok(Hello::Ready {
                weak,
                fast_migrations,
            }) => {
                sandbox.weak = weak;
                sandbox.fast_migrations = fast_migrations;
                Ok(sandbox)
            }
            Ok(Hello::Refused(reason)) => Err(SandboxError::Refused(reason)),
            Err(e) => Err(SandboxError::Protocol(format!("greeting: {e}"))),
        }
    }

    /// A second supervisor started as this one was, for a run that must go on at the same time
    /// as one of this one's (a supervisor runs one program at a time): a Kattis interactor
    /// beside the program it talks with.
    pub fn start_another(&self) -> Result<Sandbox, SandboxError> {
        Sandbox::start(&self.command)
    }

    /// True when the supervisor runs without namespaces and cgroups (explicitly allowed).
    pub fn is_weak(&self) -> bool {
        self.weak
    }

    /// True when the kernel moves each run into its cgroups without waiting for an RCU grace
    /// period (`favordynmods`); false on kernels before 6.2 and under weak isolation.
    pub fn has_fast_migrations(&self) -> bool {
        self.fast_migrations
    }

    pub fn run(&mut self, spec: &RunSpec) -> Result<RunReport, SandboxError> {
        let mut line =
            serde_json::to_string(spec).map_err(|e| SandboxError::Protocol(e.to_string()))?;
        line.push('\n');
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| SandboxError::Protocol("closed".into()))?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| SandboxError::Protocol(e.to_string()))?;
        serde_json::from_str(&self.read_line()?)
            .map_err(|e| SandboxError::Protocol(format!("report: {e}")))
    }

    fn read_line(&mut self) -> Result<String, SandboxError> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(SandboxError::Protocol("the supervisor exited".into())),
            Ok(_) => Ok(line),
            Err(e) => Err(SandboxError::Protocol(e.to_string())),
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // EOF on its input makes the supervisor clean up (cgroups, mounts) and exit.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
