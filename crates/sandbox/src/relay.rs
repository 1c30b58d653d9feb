//! Two runs talking to each other, each in a box of its own: a program under test and an
//! interactor (a Kattis package's output validator run interactively) that decides about it.
//! Each supervisor runs one program at a time, so the interactor's run needs a second one
//! ([`Sandbox::start_another`]).
//!
//! The bytes go through the client rather than down a pipe from box to box. That costs a copy
//! each way, and buys every guarantee of [`Sandbox::interact`]: the client's reads and writes are
//! non-blocking and driven by `poll`, so neither side can hold it up; it sees every byte, so the
//! idleness limit (wall time in which neither side writes anything) applies; it notices each
//! side's end at once and closes the other's input, as a direct pipe would; and it ends either
//! run through its control pipe. What it holds for one side is bounded: past [`BACKLOG`] it stops
//! reading the other, whose writes then block in its own box.

use std::os::fd::{AsFd, OwnedFd};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::client::{Sandbox, SandboxError};
use crate::interact::{Wiring, done_pipe, wired};
use crate::protocol::{RunReport, RunSpec};

/// Bytes held for one side before the relay stops reading from the other.
pub const BACKLOG: usize = 1 << 20;

/// The two sides of a relay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    Program,
    Interactor,
}

/// How a relay ended, as the client saw it; each run's report says the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelayEnding {
    /// Both runs ended by themselves.
    Ended,
    /// The interactor's run ended in a way that settles the test, and the program was stopped.
    Settled,
    /// Neither side wrote anything within the idleness limit: both were stopped.
    Idle,
}

/// The limits the client enforces itself.
#[derive(Debug, Clone, Copy)]
pub struct RelayLimits {
    /// Wall time in which neither side writes a byte, after which both are stopped.
    pub idle: Duration,
    /// How much of what the program wrote is kept in [`Relayed::program_wrote`].
    pub keep: usize,
}

#[derive(Debug)]
pub struct Relayed {
    pub program: RunReport,
    pub interactor: RunReport,
    /// The side whose output ended first (it exited, or closed it): after that, the other read
    /// end of file. `None` when both were stopped while still talking.
    pub first: Option<Party>,
    pub ending: RelayEnding,
    /// Whether the program's run was still going when the idleness limit was met.
    pub program_alive_at_idle: bool,
    /// The start of what the program wrote, up to [`RelayLimits::keep`] bytes.
    pub program_wrote: Vec<u8>,
}

impl Sandbox {
    /// Runs `program` here and `interactor` in `other` at the same time, the interactor's
    /// standard output being the program's standard input and the other way round (neither may
    /// set `stdin`, `stdout_path` or `pipes`: they are set here). When the interactor's run ends
    /// while the program's goes on, `settles` is asked about its report: if it says so, the
    /// program is stopped at once; otherwise the program reads end of file and may finish.
    pub fn relay(
        &mut self,
        program: &RunSpec,
        other: &mut Sandbox,
        interactor: &RunSpec,
        limits: RelayLimits,
        settles: &dyn Fn(&RunReport) -> bool,
    ) -> Result<Relayed, SandboxError> {
        let program_wiring = Wiring::new()?;
        let interactor_wiring = Wiring::new()?;
        let program_spec = wired(program, program_wiring.pipes.clone());
        let interactor_spec = wired(interactor, interactor_wiring.pipes.clone());
        let (program_done, program_done_w) = done_pipe()?;
        let (interactor_done, interactor_done_w) = done_pipe()?;
        let (program_tx, program_rx) = mpsc::channel();
        let (interactor_tx, interactor_rx) = mpsc::channel();
        std::thread::scope(|scope| {
            // The report goes first, so that it is there when the byte wakes the relay.
            scope.spawn(move || {
                let _ = program_tx.send(self.run(&program_spec));
                let _ = nix::unistd::write(&program_done_w, b"d");
            });
            scope.spawn(move || {
                let _ = interactor_tx.send(other.run(&interactor_spec));
                let _ = nix::unistd::write(&interactor_done_w, b"d");
            });
            let ends = [
                End::new(program_wiring, program_done, program_rx),
                End::new(interactor_wiring, interactor_done, interactor_rx),
            ];
            Relay {
                ends,
                limits,
                first: None,
                ending: None,
                program_alive_at_idle: false,
                program_wrote: Vec::new(),
            }
            .run(settles)
        })
    }
}

/// The client's side of one run.
struct End {
    /// Holds the FIFOs until the run is over.
    _wiring_dir: tempfile::TempDir,
    /// Our end of the run's standard input; `None` once closed.
    input: Option<OwnedFd>,
    /// Our end of its standard output; `None` after its end.
    output: Option<OwnedFd>,
    control: OwnedFd,
    done: OwnedFd,
    /// Bytes for its input not yet written.
    pending: Vec<u8>,
    /// Close its input once `pending` is written: the other side's output has ended.
    closing: bool,
    reports: mpsc::Receiver<Result<RunReport, SandboxError>>,
    report: Option<Result<RunReport, SandboxError>>,
    stopped: bool,
}

impl End {
    fn new(
        wiring: Wiring,
        done: OwnedFd,
        reports: mpsc::Receiver<Result<RunReport, SandboxError>>,
    ) -> End {
        End {
            _wiring_dir: wiring.dir,
            input: Some(wiring.to_program),
            output: Some(wiring.from_program),
            control: wiring.control,
            done,
            pending: Vec::new(),
            closing: false,
            reports,
            report: None,
            stopped: false,
        }
    }

    fn over(&self) -> bool {
        self.report.is_some()
    }

    /// Writes what its input takes now; closes the input once all is written, if asked.
    fn flush(&mut self) {
        let Some(input) = self.input.as_ref() else {
            self.pending.clear();
            return;
        };
        while !self.pending.is_empty() {
            match nix::unistd::write(input, &self.pending) {
                Ok(n) => {
                    self.pending.drain(..n);
                }
                Err(Errno::EINTR) => continue,
                Err(_) => break,
            }
        }
        if self.pending.is_empty() && self.closing {
            self.input = None;
        }
    }

    /// Ends the run through its control pipe (once; a run already over ignores it).
    fn stop(&mut self) {
        if !self.stopped && !self.over() {
            let _ = nix::unistd::write(&self.control, b"k");
        }
        self.stopped = true;
    }
}

struct Relay {
    /// The program's, then the interactor's.
    ends: [End; 2],
    limits: RelayLimits,
    first: Option<Party>,
    ending: Option<RelayEnding>,
    program_alive_at_idle: bool,
    program_wrote: Vec<u8>,
}

const PROGRAM: usize = 0;
const INTERACTOR: usize = 1;

fn party(side: usize) -> Party {
    if side == PROGRAM {
        Party::Program
    } else {
        Party::Interactor
    }
}

/// What the relay waits for on one descriptor.
#[derive(Clone, Copy)]
enum Wait {
    Output(usize),
    Done(usize),
    Input,
}

impl Relay {
    fn run(mut self, settles: &dyn Fn(&RunReport) -> bool) -> Result<Relayed, SandboxError> {
        let mut last = Instant::now();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            for end in &mut self.ends {
                end.flush();
            }
            if self.ends.iter().all(End::over) {
                break;
            }
            let mut timeout = PollTimeout::MAX;
            if self.ending.is_none() {
                let left = self.limits.idle.saturating_sub(last.elapsed());
                if left.is_zero() {
                    self.ending = Some(RelayEnding::Idle);
                    self.program_alive_at_idle = !self.ends[PROGRAM].over();
                    for end in &mut self.ends {
                        end.stop();
                    }
                    continue;
                }
                timeout = PollTimeout::try_from(left.as_millis().max(1) as u64)
                    .unwrap_or(PollTimeout::MAX);
            }
            let mut waits = Vec::with_capacity(6);
            let mut fds = Vec::with_capacity(6);
            for side in [PROGRAM, INTERACTOR] {
                let (end, other) = (&self.ends[side], &self.ends[1 - side]);
                if let Some(output) = &end.output
                    && other.pending.len() < BACKLOG
                {
                    fds.push(PollFd::new(output.as_fd(), PollFlags::POLLIN));
                    waits.push(Wait::Output(side));
                }
                if !end.over() {
                    fds.push(PollFd::new(end.done.as_fd(), PollFlags::POLLIN));
                    waits.push(Wait::Done(side));
                }
                if let Some(input) = &end.input
                    && !end.pending.is_empty()
                {
                    fds.push(PollFd::new(input.as_fd(), PollFlags::POLLOUT));
                    waits.push(Wait::Input);
                }
            }
            match poll(&mut fds, timeout) {
                Ok(0) | Err(Errno::EINTR) => continue,
                Err(e) => {
                    return Err(SandboxError::Protocol(format!("relay poll: {e}")));
                }
                Ok(_) => {}
            }
            let ready: Vec<Wait> = waits
                .into_iter()
                .zip(fds.iter())
                .filter(|(_, fd)| fd.revents().is_some_and(|r| !r.is_empty()))
                .map(|(wait, _)| wait)
                .collect();
            drop(fds);
            for wait in ready {
                match wait {
                    // Written at the top of the loop.
                    Wait::Input => {}
                    Wait::Output(side) => {
                        if self.pass_on(side, &mut buf) {
                            last = Instant::now();
                        }
                    }
                    Wait::Done(side) => {
                        last = Instant::now();
                        self.run_over(side, &mut buf, settles);
                    }
                }
            }
        }
        let [program, interactor] = self.ends;
        let report = |end: End| {
            end.report
                .unwrap_or_else(|| Err(SandboxError::Protocol("a run gave no report".into())))
        };
        Ok(Relayed {
            program: report(program)?,
            interactor: report(interactor)?,
            first: self.first,
            ending: self.ending.unwrap_or(RelayEnding::Ended),
            program_alive_at_idle: self.program_alive_at_idle,
            program_wrote: self.program_wrote,
        })
    }

    /// Moves what `side` wrote to the other side's input; true when anything moved or the
    /// output ended.
    fn pass_on(&mut self, side: usize, buf: &mut [u8]) -> bool {
        let mut moved = false;
        loop {
            let Some(output) = self.ends[side].output.as_ref() else {
                return moved;
            };
            match nix::unistd::read(output, buf) {
                Ok(0) => {
                    self.output_ended(side);
                    return true;
                }
                Ok(n) => {
                    moved = true;
                    if side == PROGRAM {
                        let room = self.limits.keep.saturating_sub(self.program_wrote.len());
                        self.program_wrote.extend_from_slice(&buf[..n.min(room)]);
                    }
                    let other = &mut self.ends[1 - side];
                    if other.input.is_some() {
                        other.pending.extend_from_slice(&buf[..n]);
                    }
                    // A short read took all there was; the next poll says when there is more.
                    if n < buf.len() || other.pending.len() >= BACKLOG {
                        return moved;
                    }
                }
                Err(Errno::EINTR) => continue,
                Err(Errno::EAGAIN) => return moved,
                Err(_) => {
                    self.output_ended(side);
                    return true;
                }
            }
        }
    }

    /// `side` will write no more: the other reads end of file once it has what was sent.
    fn output_ended(&mut self, side: usize) {
        self.ends[side].output = None;
        self.ends[1 - side].closing = true;
        // An end the relay caused by stopping the runs says nothing of who stopped talking.
        if self.ending.is_none() {
            self.first.get_or_insert(party(side));
        }
    }

    fn run_over(&mut self, side: usize, buf: &mut [u8], settles: &dyn Fn(&RunReport) -> bool) {
        let end = &mut self.ends[side];
        let _ = nix::unistd::read(&end.done, &mut [0u8; 4]);
        end.report = Some(
            end.reports
                .try_recv()
                .unwrap_or_else(|_| Err(SandboxError::Protocol("a run gave no report".into()))),
        );
        // Nothing reads its input any more.
        end.input = None;
        end.pending.clear();
        // Its last words still count (and are read now, whatever the other's backlog); with the
        // run over, its output ends here even if something outside the box kept it open.
        while self.ends[side].output.is_some()
            && self.ends[1 - side].pending.len() < BACKLOG
            && self.pass_on(side, buf)
        {}
        if self.ends[side].output.is_some() {
            self.output_ended(side);
        }
        if side == INTERACTOR && self.ending.is_none() && !self.ends[PROGRAM].over() {
            let settled = match &self.ends[INTERACTOR].report {
                Some(Ok(report)) => settles(report),
                _ => true,
            };
            if settled {
                self.ending = Some(RelayEnding::Settled);
                self.ends[PROGRAM].stop();
            }
        }
    }
}
