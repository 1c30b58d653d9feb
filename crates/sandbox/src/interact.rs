//! A run whose standard input and output are a conversation with the client: a referee reads
//! each line the program writes and answers, while the supervisor limits the program as always.
//!
//! The wiring is three FIFOs in a private directory. The client opens its ends before the
//! supervisor opens the program's, so no open ever blocks. The client's writes never block, so a
//! program that stops reading cannot hold it up. Its reads block once the program has written
//! (before that, an empty FIFO without a writer would read as its end): a round trip then costs
//! a `write` and a `read`, as between two plain processes, and a watchdog thread keeps the
//! idleness limit (wall time without a line from the program) by stopping the run, which ends
//! the read. The idleness limit and any decision of the peer end the run through the control
//! FIFO.

use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
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
        let watchdog = Watchdog::new(conversation.idle);
        std::thread::scope(|scope| {
            let runner = scope.spawn(move || {
                let report = self.run(&spec);
                let _ = nix::unistd::write(&done_w, b"d");
                report
            });
            scope.spawn(|| watchdog.watch(&control));
            let talk = Talk {
                to_program: Some(to_program),
                from_program,
                blocking: false,
                control: &control,
                done: done_r,
                conversation,
                watchdog: &watchdog,
            };
            let (ending, lines) = talk.run(peer);
            watchdog.finish();
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

/// Keeps the idleness limit while the client waits in a blocking read: when the program has
/// been silent for the limit, it stops the run, and the read ends with the program's output.
struct Watchdog {
    idle: Duration,
    start: Instant,
    /// Nanoseconds from `start` to the program's last line.
    last_line: AtomicU64,
    fired: AtomicBool,
    finished: Mutex<bool>,
    wake: Condvar,
}

impl Watchdog {
    fn new(idle: Duration) -> Watchdog {
        Watchdog {
            idle,
            start: Instant::now(),
            last_line: AtomicU64::new(0),
            fired: AtomicBool::new(false),
            finished: Mutex::new(false),
            wake: Condvar::new(),
        }
    }

    fn heard(&self) {
        let since = self.start.elapsed().as_nanos();
        self.last_line
            .store(u64::try_from(since).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    fn fired(&self) -> bool {
        self.fired.load(Ordering::Acquire)
    }

    fn watch(&self, control: &OwnedFd) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        while !*finished {
            let last = self.start + Duration::from_nanos(self.last_line.load(Ordering::Relaxed));
            let left = (last + self.idle).saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.fired.store(true, Ordering::Release);
                let _ = nix::unistd::write(control, b"k");
                return;
            }
            finished = self
                .wake
                .wait_timeout(finished, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn finish(&self) {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.wake.notify_one();
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

struct Talk<'a> {
    /// `None` once closed: the program reads EOF after what was written.
    to_program: Option<OwnedFd>,
    from_program: OwnedFd,
    /// Whether reads of `from_program` block: from the program's first bytes on.
    blocking: bool,
    control: &'a OwnedFd,
    done: OwnedFd,
    conversation: Conversation,
    watchdog: &'a Watchdog,
}

/// What one read of the program's output brought.
enum Read {
    Bytes(usize),
    End,
    Nothing,
}

impl Talk<'_> {
    fn run(mut self, peer: &mut dyn Peer) -> (Ending, u64) {
        let mut pending = peer.greeting();
        let mut close_after = false;
        let mut partial: Vec<u8> = Vec::new();
        let mut lines = 0u64;
        let mut buf = vec![0u8; 64 * 1024];
        let ending = 'talk: loop {
            self.flush(&mut pending, &mut close_after);
            if self.watchdog.fired() {
                break Ending::Idle;
            }
            let wants_out = !pending.is_empty() && self.to_program.is_some();
            let read = if self.blocking && !wants_out {
                self.read(&mut buf)
            } else {
                let mut fds = vec![
                    PollFd::new(self.from_program.as_fd(), PollFlags::POLLIN),
                    PollFd::new(self.done.as_fd(), PollFlags::POLLIN),
                ];
                if let (true, Some(to)) = (wants_out, self.to_program.as_ref()) {
                    fds.push(PollFd::new(to.as_fd(), PollFlags::POLLOUT));
                }
                match poll(&mut fds, PollTimeout::NONE) {
                    Ok(_) | Err(Errno::EINTR) => {}
                    Err(_) => break Ending::Exited,
                }
                let program_ready = fds[0].revents().is_some_and(|r| !r.is_empty());
                let run_over = fds[1].revents().is_some_and(|r| !r.is_empty());
                match (program_ready, run_over) {
                    (true, _) => self.read(&mut buf),
                    // The run ended without its output closing: it never opened it.
                    (false, true) => Read::End,
                    (false, false) => continue,
                }
            };
            if self.watchdog.fired() {
                break Ending::Idle;
            }
            match read {
                Read::Nothing => continue,
                Read::End => {
                    // A last line without its line break still counts.
                    if !partial.is_empty() {
                        lines += 1;
                        if let Next::Stop(_) = peer.line(&partial) {
                            break 'talk Ending::Stopped;
                        }
                    }
                    break 'talk self.await_exit();
                }
                Read::Bytes(n) => {
                    partial.extend_from_slice(&buf[..n]);
                    let mut start = 0;
                    while let Some(at) = partial[start..].iter().position(|&b| b == b'\n') {
                        let mut line = &partial[start..start + at];
                        start += at + 1;
                        if let [rest @ .., b'\r'] = line {
                            line = rest;
                        }
                        lines += 1;
                        self.watchdog.heard();
                        match peer.line(line) {
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
                    partial.drain(..start);
                    if partial.len() > self.conversation.max_line {
                        break 'talk Ending::LineTooLong;
                    }
                }
            }
        };
        if ending != Ending::Exited {
            // The supervisor ends the run; until it has, the program may still write, and a
            // full pipe must not matter, so nothing more is read.
            let _ = nix::unistd::write(self.control, b"k");
        }
        (ending, lines)
    }

    /// One read of the program's output; the first bytes make later reads blocking.
    fn read(&mut self, buf: &mut [u8]) -> Read {
        loop {
            return match nix::unistd::read(&self.from_program, buf) {
                Ok(0) => Read::End,
                Ok(n) => {
                    if !self.blocking {
                        // The program has opened its output: from now on an empty pipe means
                        // "not yet" and only the program's exit (or the watchdog's stop) ends
                        // the wait.
                        self.blocking = nix::fcntl::fcntl(
                            &self.from_program,
                            nix::fcntl::FcntlArg::F_SETFL(OFlag::empty()),
                        )
                        .is_ok();
                    }
                    Read::Bytes(n)
                }
                Err(Errno::EINTR) => continue,
                Err(Errno::EAGAIN) => Read::Nothing,
                Err(_) => Read::End,
            };
        }
    }

    /// The program has closed its output: it should be exiting. One that lingers is stopped at
    /// the idleness limit by the watchdog, like one that waits.
    fn await_exit(&self) -> Ending {
        let mut fds = [PollFd::new(self.done.as_fd(), PollFlags::POLLIN)];
        loop {
            match poll(&mut fds, PollTimeout::NONE) {
                Err(Errno::EINTR) => continue,
                _ if self.watchdog.fired() => return Ending::Idle,
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
