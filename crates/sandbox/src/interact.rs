//! A run whose standard input and output are a conversation with the client: a referee reads
//! each line the program writes and answers, while the supervisor limits the program as always.
//!
//! The wiring is three FIFOs in a private directory. The client opens its ends before the
//! supervisor opens the program's, so no open ever blocks; every read and write of the client is
//! non-blocking and driven by `poll`, so a program that stops reading, never writes, or writes
//! without end cannot hold the client up. The idleness limit (wall time without a line from the
//! program) and any decision of the peer end the run through the control FIFO.

use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::stat::Mode;

use crate::client::{Sandbox, SandboxError};
use crate::protocol::{Pipes, RunReport, RunSpec};

/// The client's side of a conversation: what it writes first and how it answers each line.
pub trait Peer {
    /// Written as soon as the program starts.
    fn greeting(&mut self) -> Vec<u8>;
    /// A complete line from the program, without its line break.
    fn line(&mut self, line: &[u8]) -> Next;
}

/// What the peer wants after a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Write these bytes (possibly none) and go on.
    Write(Vec<u8>),
    /// Write these bytes, then close the program's input: it has been told everything and should
    /// exit. Its further lines still reach the peer.
    Close(Vec<u8>),
    /// Write these bytes if the pipe takes them at once, then end the run now.
    Stop(Vec<u8>),
}

/// How a conversation ended, as the client saw it; the run's own report says the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program closed its output (normally by exiting).
    Exited,
    /// The peer asked to stop.
    Stopped,
    /// No line from the program within the idleness limit.
    Idle,
    /// A line longer than the limit: not an answer to anything.
    LineTooLong,
}

/// The limits the client enforces itself.
#[derive(Debug, Clone, Copy)]
pub struct Conversation {
    /// Wall time without a line from the program after which it is stopped.
    pub idle: Duration,
    /// The longest line the peer is given.
    pub max_line: usize,
}

#[derive(Debug)]
pub struct Interaction {
    pub report: RunReport,
    pub ending: Ending,
    /// Lines the peer heard.
    pub lines: u64,
}

impl Sandbox {
    /// Runs `spec` (without `stdin`, `stdout_path` or `pipes`: they are set here) with its
    /// standard streams wired to `peer`.
    pub fn interact(
        &mut self,
        spec: &RunSpec,
        peer: &mut dyn Peer,
        conversation: Conversation,
    ) -> Result<Interaction, SandboxError> {
        let Wiring {
            dir: _dir,
            pipes,
            to_program,
            from_program,
            control,
        } = Wiring::new()?;
        let (done_r, done_w) = done_pipe()?;
        let spec = wired(spec, pipes);
        std::thread::scope(|scope| {
            let runner = scope.spawn(move || {
                let report = self.run(&spec);
                let _ = nix::unistd::write(&done_w, b"d");
                report
            });
            let talk = Talk {
                to_program: Some(to_program),
                from_program,
                control,
                done: done_r,
                conversation,
            };
            let (ending, lines) = talk.run(peer);
            let report = runner
                .join()
                .map_err(|_| SandboxError::Protocol("the run thread panicked".into()))??;
            Ok(Interaction {
                report,
                ending,
                lines,
            })
        })
    }
}

/// A run's standard streams as FIFOs in a private directory, with the client's ends open
/// already, so that the supervisor's opens never block.
pub(crate) struct Wiring {
    /// Holds the FIFOs until the run is over.
    pub(crate) dir: tempfile::TempDir,
    pub(crate) pipes: Pipes,
    /// Written by the client, read by the program; read-write, so the open never blocks and a
    /// write to an exited program fills the buffer rather than raising SIGPIPE.
    pub(crate) to_program: OwnedFd,
    pub(crate) from_program: OwnedFd,
    pub(crate) control: OwnedFd,
}

impl Wiring {
    pub(crate) fn new() -> Result<Wiring, SandboxError> {
        let dir = tempfile::Builder::new()
            .prefix("grundy-pipes-")
            .tempdir()
            .map_err(|e| local("directory", &e))?;
        let pipes = Pipes {
            to_program: dir.path().join("in"),
            from_program: dir.path().join("out"),
            control: dir.path().join("control"),
        };
        for path in [&pipes.to_program, &pipes.from_program, &pipes.control] {
            nix::unistd::mkfifo(path, Mode::S_IRUSR | Mode::S_IWUSR)
                .map_err(|e| local("mkfifo", &e))?;
        }
        // Read-write opens of a FIFO never block (Linux).
        let to_program = open(&pipes.to_program, OFlag::O_RDWR).map_err(|e| local("in", &e))?;
        let from_program =
            open(&pipes.from_program, OFlag::O_RDONLY).map_err(|e| local("out", &e))?;
        let control = open(&pipes.control, OFlag::O_RDWR).map_err(|e| local("control", &e))?;
        Ok(Wiring {
            dir,
            pipes,
            to_program,
            from_program,
            control,
        })
    }
}

/// `spec` with its standard input and output on `pipes`.
pub(crate) fn wired(spec: &RunSpec, pipes: Pipes) -> RunSpec {
    let mut spec = spec.clone();
    spec.stdin = None;
    spec.stdout_path = None;
    spec.pipes = Some(pipes);
    spec
}

/// The pipe a run's thread writes to when the run is over, which wakes the client's poll even
/// when the program ended without closing its output first (it never started, or its output
/// is held by something else).
pub(crate) fn done_pipe() -> Result<(OwnedFd, OwnedFd), SandboxError> {
    nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK).map_err(|e| local("pipe", &e))
}

fn local(what: &str, e: &dyn std::fmt::Display) -> SandboxError {
    SandboxError::Protocol(format!("interactive pipes, {what}: {e}"))
}

fn open(path: &Path, flags: OFlag) -> nix::Result<OwnedFd> {
    nix::fcntl::open(
        path,
        flags | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
}

struct Talk {
    /// `None` once closed: the program reads EOF after what was written.
    to_program: Option<OwnedFd>,
    from_program: OwnedFd,
    control: OwnedFd,
    done: OwnedFd,
    conversation: Conversation,
}

impl Talk {
    fn run(mut self, peer: &mut dyn Peer) -> (Ending, u64) {
        let mut pending = peer.greeting();
        let mut close_after = false;
        let mut partial: Vec<u8> = Vec::new();
        let mut lines = 0u64;
        let mut last_line = Instant::now();
        let mut buf = vec![0u8; 64 * 1024];
        let ending = 'talk: loop {
            self.flush(&mut pending, &mut close_after);
            let idle_left = self.conversation.idle.saturating_sub(last_line.elapsed());
            if idle_left.is_zero() {
                break Ending::Idle;
            }
            let wants_out = !pending.is_empty() && self.to_program.is_some();
            let mut fds = vec![
                PollFd::new(self.from_program.as_fd(), PollFlags::POLLIN),
                PollFd::new(self.done.as_fd(), PollFlags::POLLIN),
            ];
            if let (true, Some(to)) = (wants_out, self.to_program.as_ref()) {
                fds.push(PollFd::new(to.as_fd(), PollFlags::POLLOUT));
            }
            let timeout = PollTimeout::try_from(idle_left.as_millis().max(1) as u64)
                .unwrap_or(PollTimeout::MAX);
            match poll(&mut fds, timeout) {
                Ok(0) | Err(Errno::EINTR) => continue,
                Err(_) => break Ending::Exited,
                Ok(_) => {}
            }
            let program_ready = fds[0].revents().is_some_and(|r| !r.is_empty());
            let run_over = fds[1].revents().is_some_and(|r| !r.is_empty());
            drop(fds);
            if program_ready || run_over {
                // Read everything there is; EOF means every writer (the program) is gone.
                loop {
                    match nix::unistd::read(&self.from_program, &mut buf) {
                        Ok(0) => {
                            // A last line without its line break still counts.
                            if !partial.is_empty() {
                                lines += 1;
                                if let Next::Stop(_) = peer.line(&partial) {
                                    break 'talk Ending::Stopped;
                                }
                            }
                            break 'talk self.await_exit(last_line, run_over);
                        }
                        Ok(n) => {
                            partial.extend_from_slice(&buf[..n]);
                            while let Some(end) = partial.iter().position(|&b| b == b'\n') {
                                let mut line: Vec<u8> = partial.drain(..=end).collect();
                                line.pop();
                                if line.last() == Some(&b'\r') {
                                    line.pop();
                                }
                                lines += 1;
                                last_line = Instant::now();
                                match peer.line(&line) {
                                    Next::Write(bytes) => pending.extend(bytes),
                                    Next::Close(bytes) => {
                                        pending.extend(bytes);
                                        close_after = true;
                                    }
                                    Next::Stop(bytes) => {
                                        pending.extend(bytes);
                                        self.flush(&mut pending, &mut close_after);
                                        break 'talk Ending::Stopped;
                                    }
                                }
                            }
                            if partial.len() > self.conversation.max_line {
                                break 'talk Ending::LineTooLong;
                            }
                            // A short read took all there was: the next poll says when there is
                            // more, and a read now would only find the pipe empty (a system call
                            // per move, which an interactive judge cannot spare).
                            if n < buf.len() {
                                break;
                            }
                        }
                        Err(Errno::EINTR) => continue,
                        Err(_) => break,
                    }
                }
                if run_over {
                    break Ending::Exited;
                }
            }
        };
        if ending != Ending::Exited {
            // The supervisor ends the run; until it has, the program may still write, and a
            // full pipe must not matter, so nothing more is read.
            let _ = nix::unistd::write(&self.control, b"k");
        }
        (ending, lines)
    }

    /// The program has closed its output: it should be exiting. One that lingers is stopped at
    /// the idleness limit like one that waits.
    fn await_exit(&self, last_line: Instant, run_over: bool) -> Ending {
        if run_over {
            return Ending::Exited;
        }
        let left = self.conversation.idle.saturating_sub(last_line.elapsed());
        let mut fds = [PollFd::new(self.done.as_fd(), PollFlags::POLLIN)];
        let timeout =
            PollTimeout::try_from(left.as_millis().max(1) as u64).unwrap_or(PollTimeout::MAX);
        loop {
            match poll(&mut fds, timeout) {
                Err(Errno::EINTR) => continue,
                Ok(0) => return Ending::Idle,
                _ => return Ending::Exited,
            }
        }
    }

    /// Writes what the pipe takes now; closes the program's input once all is written, if asked.
    fn flush(&mut self, pending: &mut Vec<u8>, close_after: &mut bool) {
        let Some(to) = self.to_program.as_ref() else {
            pending.clear();
            return;
        };
        while !pending.is_empty() {
            match nix::unistd::write(to, pending) {
                Ok(n) => {
                    pending.drain(..n);
                }
                Err(Errno::EINTR) => continue,
                Err(_) => break,
            }
        }
        if pending.is_empty() && *close_after {
            self.to_program = None;
        }
    }
}
