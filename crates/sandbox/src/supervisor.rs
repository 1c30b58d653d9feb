//! The supervisor: a single-threaded process that owns the isolation and runs one program at a
//! time. It reads one [`RunSpec`] per line on standard input and answers one [`RunReport`] per line
//! on standard output; its first line says whether it is ready and how strongly it isolates.
//!
//! At start it moves itself into a private mount namespace (the boxes it mounts are invisible to
//! the host and vanish with it) and an empty network namespace that every run inherits (one per
//! worker: creating network namespaces takes a global kernel lock), creates its cgroup, and builds
//! the seccomp filters once.

use std::ffi::CString;
use std::fs::{self, File};
use std::io::{self, BufRead, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, kill};
use nix::sys::socket::{
    AddressFamily, ControlMessageOwned, MsgFlags, SockFlag, SockType, recvmsg, socketpair,
};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, pipe2};

use crate::cgroup::{self, Group};
use crate::child::{self, Fds, Plan, TAG_EXEC_FAILED, TAG_SETUP_FAILED, TAG_STATUS};
use crate::files;
use crate::protocol::{Bind, Hello, Pipes, RunKind, RunReport, RunSpec, Status};
use crate::seccomp;

/// Host paths every box sees read-only: the system's programs and libraries, and the few files
/// under `/etc` that the loader and Debian's alternatives need. Never `/etc` wholesale.
const SYSTEM_BINDS: &[&str] = &["/usr", "/etc/alternatives", "/etc/ld.so.cache"];
/// Top-level names that merged-usr systems make symlinks into `/usr` (bound when real dirs).
const TOP_LEVEL: &[&str] = &["bin", "sbin", "lib", "lib32", "lib64", "libx32"];
/// Uids of runs: far above any account; 64 per supervisor pid (pids below 2²²), one per run in
/// turn, so concurrent supervisors never share one.
const UID_BASE: u32 = 2_000_000_000;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Run without namespaces, cgroups or uid changes when isolation is unavailable.
    pub allow_weak: bool,
    /// Where cgroup v2 runs go (default `<cgroup2 mount>/grundy`).
    pub cgroup_parent: Option<PathBuf>,
}

/// Entry point of the supervisor process; returns its exit code.
pub fn main(options: Options) -> i32 {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let mut supervisor = match Supervisor::start(&options) {
        Ok(s) => s,
        Err(reason) => {
            let _ = writeln!(
                stdout,
                "{}",
                serde_json::to_string(&Hello::Refused(reason)).unwrap_or_default()
            );
            return 2;
        }
    };
    let hello = Hello::Ready {
        weak: supervisor.group.is_none(),
        fast_migrations: supervisor.fast_migrations,
    };
    if writeln!(
        stdout,
        "{}",
        serde_json::to_string(&hello).unwrap_or_default()
    )
    .and_then(|_| stdout.flush())
    .is_err()
    {
        return 1;
    }
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let report = match serde_json::from_str::<RunSpec>(&line) {
            Ok(spec) => supervisor.run(&spec),
            Err(e) => RunReport::internal(format!("bad request: {e}")),
        };
        let Ok(json) = serde_json::to_string(&report) else {
            break;
        };
        if writeln!(stdout, "{json}")
            .and_then(|_| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    0
}

struct Supervisor {
    /// None under weak isolation.
    group: Option<Group>,
    work: PathBuf,
    /// Whether the kernel was asked, and agreed, to move runs into cgroups without waiting.
    fast_migrations: bool,
    program_filters: Filters,
    toolchain_filters: Filters,
    /// Host paths bound into the template root so far.
    binds: Vec<PathBuf>,
    runs: u32,
    last_capability: libc::c_ulong,
    /// Runs whose init is still tearing its namespaces down: reaped and their cgroups removed
    /// later, so that teardown overlaps the judge's work instead of delaying the report.
    /// The pid is `None` once reaped (a reaped pid may already belong to a newer init).
    retired: Vec<(Option<Pid>, Group)>,
}

/// The seccomp programs for one kind of run: with violations notified, and with them failing
/// with EPERM where the kernel has no user notifications.
struct Filters {
    notify: Vec<libc::sock_filter>,
    eperm: Vec<libc::sock_filter>,
}

impl Filters {
    fn for_kind(kind: RunKind) -> Filters {
        Filters {
            notify: seccomp::filter(true, kind),
            eperm: seccomp::filter(false, kind),
        }
    }
}

impl Supervisor {
    fn start(options: &Options) -> Result<Supervisor, String> {
        let strong = Self::isolate(options);
        let group = match strong {
            Ok(group) => Some(group),
            Err(reason) if !options.allow_weak => return Err(reason),
            Err(_) => None,
        };
        let work = std::env::temp_dir().join(format!("grundy-sandbox-{}", std::process::id()));
        fresh_private_dir(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        if group.is_some() {
            mount(
                Some("tmpfs"),
                &work,
                Some("tmpfs"),
                MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
                Some("size=1m,mode=0700"),
            )
            .map_err(|e| format!("work tmpfs: {e}"))?;
        }
        // Not having it costs time, not isolation: the supervisor goes on without.
        let fast_migrations =
            group.is_some() && cgroup::favor_migrations(&work.join("cgroup-favor")).is_ok();
        let (binds, symlinks) = system_layout();
        if group.is_some() {
            child::build_template(&work.join("root"), &binds, &symlinks)?;
        }
        Ok(Supervisor {
            group,
            work,
            fast_migrations,
            program_filters: Filters::for_kind(RunKind::Program),
            toolchain_filters: Filters::for_kind(RunKind::Toolchain),
            binds,
            runs: 0,
            last_capability: fs::read_to_string("/proc/sys/kernel/cap_last_cap")
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(63),
            retired: Vec::new(),
        })
    }

    /// Private mounts, an empty network namespace, and this supervisor's cgroup.
    fn isolate(options: &Options) -> Result<Group, String> {
        if !nix::unistd::geteuid().is_root() {
            return Err(
                "not running as root: namespaces, cgroups and per-run uids need root \
                        (or CAP_SYS_ADMIN); see `grundy doctor`"
                    .into(),
            );
        }
        let layout = cgroup::detect(options.cgroup_parent.as_deref())?;
        nix::sched::unshare(
            nix::sched::CloneFlags::CLONE_NEWNS | nix::sched::CloneFlags::CLONE_NEWNET,
        )
        .map_err(|e| format!("new mount and network namespaces: {e}"))?;
        let none: Option<&str> = None;
        mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none)
            .map_err(|e| format!("private mounts: {e}"))?;
        layout
            .create_group(&format!("grundy-{}", std::process::id()))
            .map_err(|e| format!("creating the cgroup (v{}): {e}", layout.version()))
    }

    fn run(&mut self, spec: &RunSpec) -> RunReport {
        if spec.argv.is_empty() {
            return RunReport::internal("empty argv");
        }
        self.runs = self.runs.wrapping_add(1);
        let box_dir = self.work.join(format!("box-{}", self.runs));
        let root = self.work.join("root");
        let uid = self
            .group
            .as_ref()
            .map(|_| UID_BASE + (std::process::id() % (1 << 22)) * 64 + self.runs % 64);
        let report = self
            .prepare_box(&box_dir, spec, uid)
            .map_err(|e| format!("preparing the box: {e}"))
            .and_then(|()| self.add_binds(&root, &spec.binds))
            .and_then(|()| self.execute(&box_dir, &root, spec, uid));
        let mut report = report.unwrap_or_else(RunReport::internal);
        if let Some(out) = &spec.copy_out
            && (report.status == Status::Ok
                || (out.after_failure && report.status != Status::InternalError))
        {
            match files::copy_out(&box_dir, out) {
                Ok((copied, refused)) => (report.copied, report.refused) = (copied, refused),
                Err(e) => report = RunReport::internal(format!("copying out: {e}")),
            }
        }
        self.clean_box(&box_dir);
        report
    }

    /// Host paths a language needs (a toolchain outside /usr, a precompiled header) join the
    /// template the first time they are asked for and stay: read-only, shared by later runs.
    fn add_binds(&mut self, root: &Path, binds: &[Bind]) -> Result<(), String> {
        if self.group.is_none() {
            return Ok(());
        }
        for bind in binds {
            let target = bind.target();
            if bind.at.is_some() && !valid_bind_target(target) {
                return Err(format!(
                    "bind target {} is not a fresh absolute path outside the per-run mounts",
                    target.display()
                ));
            }
            if !bind.host.is_absolute()
                || !bind.host.exists()
                || self.binds.iter().any(|b| target.starts_with(b))
            {
                continue;
            }
            child::add_bind(root, &bind.host, target)?;
            self.binds.push(target.to_path_buf());
        }
        Ok(())
    }

    /// Reaps the inits of earlier runs and removes their cgroups; `wait` blocks until all are
    /// gone (at exit), otherwise only finished ones are collected.
    fn collect_retired(&mut self, wait: bool) {
        self.retired.retain_mut(|(pid, group)| {
            if let Some(p) = *pid {
                let flag = if wait {
                    None
                } else {
                    Some(WaitPidFlag::WNOHANG)
                };
                if let Ok(WaitStatus::StillAlive) = waitpid(p, flag) {
                    return true;
                }
                *pid = None;
            }
            group.destroy().is_err() && !wait
        });
    }

    fn prepare_box(&self, box_dir: &Path, spec: &RunSpec, uid: Option<u32>) -> io::Result<()> {
        fs::create_dir_all(box_dir)?;
        if self.group.is_some() {
            let mut size = spec.limits.file_bytes;
            for file in &spec.files {
                if let crate::FileSource::Bytes(b) = &file.source {
                    size += b.len() as u64 + 4096;
                }
            }
            let options = format!("size={},nr_inodes=4096,mode=0755", size.max(1 << 20));
            mount(
                Some("tmpfs"),
                box_dir,
                Some("tmpfs"),
                MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
                Some(options.as_str()),
            )?;
        }
        // Host files are bound read-only rather than copied: a compiled program is megabytes.
        files::populate(box_dir, &spec.files, self.group.is_some())?;
        if let Some(uid) = uid {
            nix::unistd::chown(
                box_dir,
                Some(nix::unistd::Uid::from_raw(uid)),
                Some(nix::unistd::Gid::from_raw(uid)),
            )?;
        }
        Ok(())
    }

    fn clean_box(&self, box_dir: &Path) {
        if self.group.is_some() {
            // Unmounting drops whatever the program left, without walking paths it controls.
            let _ = umount2(box_dir, MntFlags::MNT_DETACH);
            let _ = fs::remove_dir(box_dir);
        } else {
            let _ = fs::remove_dir_all(box_dir);
        }
    }

    fn execute(
        &mut self,
        box_dir: &Path,
        root: &Path,
        spec: &RunSpec,
        uid: Option<u32>,
    ) -> Result<RunReport, String> {
        let limits = spec.limits;
        let cstrings = |items: Vec<String>| -> Result<Vec<CString>, String> {
            items
                .into_iter()
                .map(|s| CString::new(s).map_err(|_| "NUL in argv or environment".to_owned()))
                .collect()
        };
        let argv = cstrings(spec.argv.clone())?;
        let env = cstrings(spec.env.iter().map(|(k, v)| format!("{k}={v}")).collect())?;
        let filters = match spec.kind {
            RunKind::Program => &self.program_filters,
            RunKind::Toolchain => &self.toolchain_filters,
        };
        let plan = Plan {
            root: root.to_path_buf(),
            box_dir: box_dir.to_path_buf(),
            uid,
            last_capability: self.last_capability,
            argv,
            env,
            limits,
            filter_notify: &filters.notify,
            filter_eperm: &filters.eperm,
        };

        let io = |what: &'static str| move |e: nix::Error| format!("{what}: {e}");
        let pipes = spec.pipes.as_ref().map(PipeEnds::open).transpose()?;
        let stdin: OwnedFd = match (&pipes, &spec.stdin) {
            (Some(pipes), _) => pipes.stdin.try_clone().map_err(|e| format!("stdin: {e}"))?,
            (None, Some(path)) => File::open(path)
                .map_err(|e| format!("stdin {}: {e}", path.display()))?
                .into(),
            (None, None) => File::open("/dev/null")
                .map_err(|e| format!("/dev/null: {e}"))?
                .into(),
        };
        let mut stdout_sink = match &spec.stdout_path {
            Some(path) => Sink::File(io::BufWriter::new(
                File::create_new(path)
                    .map_err(|e| format!("stdout file {}: {e}", path.display()))?,
            )),
            None => Sink::Memory(Vec::new()),
        };
        let (out_r, out_w) = pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK).map_err(io("pipe"))?;
        let (err_r, err_w) = pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK).map_err(io("pipe"))?;
        let (rep_r, rep_w) = pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK).map_err(io("pipe"))?;
        let (go_r, go_w) = pipe2(OFlag::O_CLOEXEC).map_err(io("pipe"))?;
        let (sock_parent, sock_child) = socketpair(
            AddressFamily::Unix,
            SockType::SeqPacket,
            None,
            SockFlag::SOCK_CLOEXEC | SockFlag::SOCK_NONBLOCK,
        )
        .map_err(io("socketpair"))?;
        // The program's ends must be blocking.
        for fd in [&out_w, &err_w] {
            nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETFL(OFlag::empty()))
                .map_err(io("fcntl"))?;
        }

        // With pipes the program writes to the client directly; the capture pipe then has no
        // writer and is at EOF from the start.
        let stdout = match pipes.as_ref() {
            Some(pipes) => {
                drop(out_w);
                pipes
                    .stdout
                    .try_clone()
                    .map_err(|e| format!("stdout: {e}"))?
            }
            None => out_w,
        };
        let control = pipes.map(|p| p.control);
        let fds = Fds {
            stdin,
            stdout,
            stderr: err_w,
            go: go_r,
            report: rep_w,
            notify: sock_child,
        };
        // Init builds its root while, here, the last run's cgroup goes and this run's is made.
        let spawned = if self.group.is_some() {
            child::spawn(&plan, fds)
        } else {
            child::spawn_weak(&plan, fds)
        };
        // `fds` moved into the child call and were dropped here in the supervisor: only the
        // child holds the program's ends now, so EOF means the program side is gone.
        let pid = Pid::from_raw(spawned.map_err(|e| format!("clone: {e}"))?);
        self.collect_retired(false);
        let run_group = match &self.group {
            Some(group) => {
                let made = group
                    .create_run(
                        &format!("run-{}", self.runs),
                        limits.memory_kib * 1024,
                        limits.pids,
                    )
                    .and_then(|g| g.add(pid.as_raw()).map(|()| g));
                match made {
                    Ok(g) => Some(g),
                    Err(e) => {
                        let _ = kill(pid, Signal::SIGKILL);
                        let _ = waitpid(pid, None);
                        return Err(format!("run cgroup: {e}"));
                    }
                }
            }
            None => None,
        };
        let started = Instant::now();
        let _ = nix::unistd::write(&go_w, b"g");
        drop(go_w);

        let mut monitor = Monitor {
            pid,
            weak: run_group.is_none(),
            group: run_group.as_ref(),
            limits,
            started,
            stdout_len: 0,
            stderr: Vec::new(),
            report: Vec::new(),
            kill_reason: None,
            killed: false,
            reaped: false,
            exit: None,
        };
        let watched = monitor.watch(
            &out_r,
            &err_r,
            &rep_r,
            &sock_parent,
            control.as_ref(),
            &mut stdout_sink,
        );
        let monitor_reaped = monitor.reaped;
        let wall_ms = started.elapsed().as_millis() as u64;
        let _ = stdout_sink.flush();
        let (cpu_ns, peak, ooms) = match &run_group {
            Some(g) => (
                g.cpu_ns().unwrap_or(0),
                g.peak_memory_bytes().unwrap_or(0),
                g.oom_kills().unwrap_or(0),
            ),
            None => monitor.weak_usage(),
        };
        let outcome = watched.map(|()| monitor.classify(cpu_ns, peak, ooms));
        if let Some(group) = run_group {
            // Init may still be tearing its namespaces down, and removing a cgroup takes a
            // while: both are finished while the next run's init builds its root.
            let unreaped = (!monitor_reaped).then_some(pid);
            if let Some(pid) = unreaped {
                let _ = kill(pid, Signal::SIGKILL);
            }
            self.retired.push((unreaped, group));
        }
        let mut report = outcome?;
        report.wall_ms = wall_ms;
        if let Sink::Memory(bytes) = stdout_sink {
            report.stdout = bytes;
        }
        Ok(report)
    }
}

/// The supervisor's ends of a run's [`Pipes`]: the program's standard input and output, and the
/// control pipe the monitor watches.
struct PipeEnds {
    stdin: OwnedFd,
    stdout: OwnedFd,
    control: OwnedFd,
}

impl PipeEnds {
    /// Opens without blocking: the client holds the other end of each FIFO open already. The
    /// program's ends are then made blocking, as a program expects of its standard streams.
    fn open(pipes: &Pipes) -> Result<PipeEnds, String> {
        let open = |path: &Path, flags: OFlag| -> Result<OwnedFd, String> {
            let fd = nix::fcntl::open(
                path,
                flags | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
                nix::sys::stat::Mode::empty(),
            )
            .map_err(|e| format!("pipe {}: {e}", path.display()))?;
            Ok(fd)
        };
        let blocking = |fd: &OwnedFd| {
            nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETFL(OFlag::empty()))
                .map(drop)
                .map_err(|e| format!("fcntl: {e}"))
        };
        let stdin = open(&pipes.to_program, OFlag::O_RDONLY)?;
        let stdout = open(&pipes.from_program, OFlag::O_WRONLY)?;
        blocking(&stdin)?;
        blocking(&stdout)?;
        let control = open(&pipes.control, OFlag::O_RDONLY)?;
        Ok(PipeEnds {
            stdin,
            stdout,
            control,
        })
    }
}

/// Where captured standard output goes: a host file the client named, or the report.
enum Sink {
    File(io::BufWriter<File>),
    Memory(Vec<u8>),
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(f) => f.write(bytes),
            Sink::Memory(v) => v.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Memory(_) => Ok(()),
        }
    }
}

/// Why the supervisor ended a run itself.
#[derive(Debug, Clone)]
enum KillReason {
    Cpu,
    Wall,
    Output,
    Violation(String),
    /// The client asked through the control pipe.
    Stopped,
}

struct Monitor<'a> {
    pid: Pid,
    weak: bool,
    group: Option<&'a Group>,
    limits: crate::Limits,
    started: Instant,
    stdout_len: u64,
    stderr: Vec<u8>,
    report: Vec<u8>,
    kill_reason: Option<KillReason>,
    killed: bool,
    /// The direct child (init, or the program under weak isolation) has been reaped.
    reaped: bool,
    /// Wait status of the program (from init's report, or waitpid under weak isolation) and its
    /// rusage under weak isolation.
    exit: Option<(i32, Option<libc::rusage>)>,
}

const POLL_MS: u16 = 10;

impl Monitor<'_> {
    fn watch(
        &mut self,
        out: &OwnedFd,
        err: &OwnedFd,
        rep: &OwnedFd,
        sock: &OwnedFd,
        control: Option<&OwnedFd>,
        sink: &mut Sink,
    ) -> Result<(), String> {
        let mut open = [true, true, true];
        let mut listener: Option<OwnedFd> = None;
        let mut awaiting_listener = true;
        let mut reaped_at: Option<Instant> = None;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let mut polled: Vec<PollFd<'_>> = Vec::with_capacity(6);
            let pipes = [out, err, rep];
            let mut which = Vec::with_capacity(5);
            for (i, fd) in pipes.iter().enumerate() {
                if open[i] {
                    polled.push(PollFd::new(fd.as_fd(), PollFlags::POLLIN));
                    which.push(i);
                }
            }
            // The socket carries one listener at most; after that (or at EOF, when the program
            // never got as far as seccomp, or the kernel has no user notifications) it is done.
            if awaiting_listener {
                polled.push(PollFd::new(sock.as_fd(), PollFlags::POLLIN));
                which.push(3);
            }
            if let Some(l) = &listener {
                polled.push(PollFd::new(l.as_fd(), PollFlags::POLLIN));
                which.push(4);
            }
            if let Some(c) = control {
                polled.push(PollFd::new(c.as_fd(), PollFlags::POLLIN));
                which.push(5);
            }
            let ready = poll(&mut polled, PollTimeout::from(POLL_MS)).unwrap_or(0);
            let events: Vec<(usize, PollFlags)> = which
                .iter()
                .zip(polled.iter())
                .map(|(&w, p)| (w, p.revents().unwrap_or(PollFlags::empty())))
                .collect();
            drop(polled);
            if ready > 0 {
                for (w, revents) in events {
                    if revents.is_empty() {
                        continue;
                    }
                    match w {
                        0..=2 => {
                            if !self.drain(w, pipes[w], &mut buf, sink) {
                                open[w] = false;
                            }
                        }
                        3 => {
                            listener = receive_listener(sock);
                            awaiting_listener = false;
                        }
                        5 => {
                            // Any byte: the client has heard enough. Reading it keeps the poll
                            // from waking again for the same byte.
                            if let Some(c) = control {
                                let _ = nix::unistd::read(c, &mut [0u8; 16]);
                            }
                            // A program that has ended already keeps its own status: the
                            // client decided without knowing yet.
                            if !self.program_ended() {
                                self.kill_reason.get_or_insert(KillReason::Stopped);
                            }
                        }
                        _ => {
                            if revents.contains(PollFlags::POLLIN) {
                                if let Some(call) = listener.as_ref().and_then(receive_violation) {
                                    self.kill_reason.get_or_insert(KillReason::Violation(call));
                                }
                            } else {
                                listener = None; // no program left under the filter
                            }
                        }
                    }
                }
            }
            self.check_limits();
            if self.kill_reason.is_some() && !self.killed {
                self.kill();
            }
            if reaped_at.is_none() && self.reap() {
                reaped_at = Some(Instant::now());
                self.reaped = true;
            }
            // Once init has reported the program's status and the program's pipes are at EOF,
            // the run is over: init's own exit and namespace teardown need not delay the report.
            let status_in =
                !open[2] || (self.report.first() == Some(&TAG_STATUS) && self.report.len() >= 5);
            if !self.weak && !open[0] && !open[1] && status_in {
                return Ok(());
            }
            if let Some(at) = reaped_at {
                // Init is gone, so the kernel has killed the rest of the pid namespace: the pipes
                // reach EOF at once. A bound keeps a kernel oddity from hanging the worker.
                if !open.iter().any(|o| *o) || at.elapsed() > Duration::from_secs(2) {
                    return Ok(());
                }
            }
        }
    }

    /// Whether the program's wait status is in: from init's report, or (weak isolation) from
    /// reaping it.
    fn program_ended(&self) -> bool {
        self.exit.is_some() || (self.report.first() == Some(&TAG_STATUS) && self.report.len() >= 5)
    }

    /// Reads what is available; false at EOF.
    fn drain(&mut self, which: usize, fd: &OwnedFd, buf: &mut [u8], sink: &mut dyn Write) -> bool {
        loop {
            match nix::unistd::read(fd, buf) {
                Ok(0) => return false,
                Ok(n) => {
                    let chunk = &buf[..n];
                    match which {
                        0 => {
                            let room =
                                self.limits.stdout_bytes.saturating_sub(self.stdout_len) as usize;
                            let _ = sink.write_all(&chunk[..n.min(room)]);
                            self.stdout_len += n as u64;
                            if self.stdout_len > self.limits.stdout_bytes {
                                self.kill_reason.get_or_insert(KillReason::Output);
                                // Stop reading: the program is about to die, and more is waste.
                                return true;
                            }
                        }
                        1 => {
                            let room = (self.limits.stderr_bytes as usize)
                                .saturating_sub(self.stderr.len());
                            self.stderr.extend_from_slice(&chunk[..n.min(room)]);
                        }
                        _ => self.report.extend_from_slice(chunk),
                    }
                }
                Err(nix::errno::Errno::EAGAIN) => return true,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return false,
            }
        }
    }

    fn check_limits(&mut self) {
        if self.kill_reason.is_some() {
            return;
        }
        if self.started.elapsed().as_millis() as u64 > self.limits.wall_ms {
            self.kill_reason = Some(KillReason::Wall);
        } else if self.cpu_ns_now() > self.limits.cpu_ms * 1_000_000 {
            self.kill_reason = Some(KillReason::Cpu);
        }
    }

    fn cpu_ns_now(&self) -> u64 {
        match self.group {
            Some(g) => g.cpu_ns().unwrap_or(0),
            None => weak_cpu_ns(self.pid),
        }
    }

    fn kill(&mut self) {
        self.killed = true;
        if self.weak {
            let _ = nix::sys::signal::killpg(self.pid, Signal::SIGKILL);
        } else {
            // Init's death takes the whole pid namespace with it.
            let _ = kill(self.pid, Signal::SIGKILL);
            if let Some(g) = self.group {
                g.kill_all();
            }
        }
    }

    /// True once the direct child has been reaped.
    #[allow(unsafe_code)]
    fn reap(&mut self) -> bool {
        if self.weak {
            let mut status = 0;
            // SAFETY: an all-zero rusage is a valid value; wait4 fills it.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: wait4 on our own child with valid out-pointers.
            let reaped =
                unsafe { libc::wait4(self.pid.as_raw(), &mut status, libc::WNOHANG, &mut usage) };
            if reaped == self.pid.as_raw() {
                let _ = nix::sys::signal::killpg(self.pid, Signal::SIGKILL);
                self.exit = Some((status, Some(usage)));
                return true;
            }
            return false;
        }
        matches!(waitpid(self.pid, Some(WaitPidFlag::WNOHANG)), Ok(s) if !matches!(s, WaitStatus::StillAlive))
    }

    fn weak_usage(&self) -> (u64, u64, u64) {
        match &self.exit {
            Some((_, Some(u))) => {
                let tv =
                    |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
                (
                    tv(u.ru_utime) + tv(u.ru_stime),
                    u.ru_maxrss as u64 * 1024,
                    0,
                )
            }
            _ => (0, 0, 0),
        }
    }

    fn classify(&mut self, cpu_ns: u64, peak_bytes: u64, ooms: u64) -> RunReport {
        let mut report = RunReport::internal("");
        report.detail = None;
        report.cpu_ms = cpu_ns / 1_000_000;
        report.memory_kib = peak_bytes / 1024;
        report.stderr = std::mem::take(&mut self.stderr);

        let mut setup_error = None;
        let mut exec_errno = None;
        let mut status = self.exit.map(|(s, _)| s);
        let mut rest = self.report.as_slice();
        while let Some((&tag, body)) = rest.split_first() {
            match tag {
                TAG_STATUS if body.len() >= 4 => {
                    status = Some(i32::from_le_bytes(body[..4].try_into().unwrap_or_default()));
                    rest = &body[4..];
                }
                TAG_EXEC_FAILED if body.len() >= 4 => {
                    exec_errno = Some(i32::from_le_bytes(body[..4].try_into().unwrap_or_default()));
                    rest = &body[4..];
                }
                TAG_SETUP_FAILED => {
                    setup_error = Some(String::from_utf8_lossy(body).into_owned());
                    rest = &[];
                }
                _ => rest = &[],
            }
        }
        let (code, signal) = match status {
            Some(s) if libc::WIFEXITED(s) => (Some(libc::WEXITSTATUS(s)), None),
            Some(s) if libc::WIFSIGNALED(s) => (None, Some(libc::WTERMSIG(s))),
            _ => (None, None),
        };
        report.exit_code = code;
        report.signal = signal.map(signal_name);
        let memory_limit = self.limits.memory_kib * 1024;
        let (status, detail) = if let Some(message) = setup_error {
            (
                Status::InternalError,
                Some(format!("sandbox set-up failed: {message}")),
            )
        } else if let Some(errno) = exec_errno {
            let err = io::Error::from_raw_os_error(errno);
            (
                Status::InternalError,
                Some(format!("cannot execute the program: {err}")),
            )
        } else if let Some(reason) = self.kill_reason.clone() {
            match reason {
                KillReason::Violation(call) => (
                    Status::SecurityViolation,
                    Some(format!("forbidden system call: {call}")),
                ),
                KillReason::Cpu => (Status::TimeLimit, Some("cpu".into())),
                KillReason::Wall => (Status::TimeLimit, Some("wall".into())),
                KillReason::Output => (Status::OutputLimit, Some("stdout".into())),
                KillReason::Stopped => (Status::RuntimeError, Some("stopped".into())),
            }
        } else if report.cpu_ms > self.limits.cpu_ms {
            (Status::TimeLimit, Some("cpu".into()))
        } else if ooms > 0 || (self.weak && peak_bytes > memory_limit) {
            (Status::MemoryLimit, None)
        } else {
            match (code, signal) {
                (Some(0), _) => (Status::Ok, None),
                (Some(_), _) => (Status::RuntimeError, None),
                (None, Some(libc::SIGXFSZ)) => (Status::OutputLimit, Some("file size".into())),
                (None, Some(libc::SIGXCPU)) => (Status::TimeLimit, Some("cpu".into())),
                (None, Some(libc::SIGSYS)) => (
                    Status::SecurityViolation,
                    Some("forbidden system call: a foreign ABI (x32 or 32-bit)".into()),
                ),
                (None, Some(libc::SIGKILL)) if peak_bytes >= memory_limit / 100 * 99 => {
                    (Status::MemoryLimit, None)
                }
                (None, Some(_)) => (Status::RuntimeError, None),
                (None, None) => (
                    Status::InternalError,
                    Some("the box ended without a status".into()),
                ),
            }
        };
        report.status = status;
        report.detail = detail;
        report
    }
}

fn signal_name(signal: i32) -> String {
    Signal::try_from(signal)
        .map(|s| s.as_str().to_owned())
        .unwrap_or_else(|_| format!("signal {signal}"))
}

/// CPU time of the direct child from /proc (weak isolation has no cgroup).
fn weak_cpu_ns(pid: Pid) -> u64 {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    let Some(after) = stat.rsplit_once(')').map(|(_, a)| a) else {
        return 0;
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime) of the whole line are 12 and 13 after the command.
    let ticks: u64 = fields
        .get(11..13)
        .map(|f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum())
        .unwrap_or(0);
    let per_second = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .unwrap_or(100) as u64;
    ticks * 1_000_000_000 / per_second.max(1)
}

fn receive_listener(sock: &OwnedFd) -> Option<OwnedFd> {
    let mut data = [0u8; 8];
    let mut iov = [io::IoSliceMut::new(&mut data)];
    let mut space = nix::cmsg_space!([std::os::fd::RawFd; 1]);
    let message = recvmsg::<()>(
        sock.as_raw_fd(),
        &mut iov,
        Some(&mut space),
        MsgFlags::MSG_CMSG_CLOEXEC,
    )
    .ok()?;
    for cmsg in message.cmsgs().ok()? {
        if let ControlMessageOwned::ScmRights(fds) = cmsg
            && let Some(&fd) = fds.first()
        {
            #[allow(unsafe_code)]
            // SAFETY: the kernel just installed this descriptor for us; we own it.
            return Some(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) });
        }
    }
    None
}

/// Takes one seccomp notification and names the call. The run is killed right after, which also
/// releases the waiting thread, so no answer is sent.
fn receive_violation(listener: &OwnedFd) -> Option<String> {
    #[allow(unsafe_code)]
    // SAFETY: seccomp_notif is plain data; the ioctl fills it (the kernel wants it zeroed first).
    let notification = unsafe {
        let mut n: libc::seccomp_notif = std::mem::zeroed();
        (libc::ioctl(listener.as_raw_fd(), libc::SECCOMP_IOCTL_NOTIF_RECV, &mut n) == 0)
            .then_some(n)
    }?;
    Some(seccomp::describe(notification.data.nr))
}

/// Creates `dir` anew, mode 0700. Whatever has its name (a directory left by a dead supervisor
/// with the same pid, or a symlink someone planted in /tmp) is removed first, never followed.
fn fresh_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => {
            let _ = umount2(dir, MntFlags::MNT_DETACH);
            fs::remove_dir_all(dir)?;
        }
        Ok(_) => fs::remove_file(dir)?,
        Err(_) => {}
    }
    fs::DirBuilder::new().mode(0o700).create(dir)
}

/// Whether a bind may be mounted at `target`: absolute, plain components, and not where each run
/// mounts its own box, scratch space, `/proc` or `/dev` (which would hide it).
fn valid_bind_target(target: &Path) -> bool {
    use std::path::Component;
    target.is_absolute()
        && target
            .components()
            .skip(1)
            .all(|c| matches!(c, Component::Normal(_)))
        && target.components().count() > 1
        && !["/box", "/tmp", "/proc", "/dev"]
            .iter()
            .any(|p| target.starts_with(p))
}

/// The system binds and top-level symlinks, as this host lays them out.
fn system_layout() -> (Vec<PathBuf>, Vec<(PathBuf, PathBuf)>) {
    let mut binds: Vec<PathBuf> = SYSTEM_BINDS
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    let mut symlinks = Vec::new();
    for name in TOP_LEVEL {
        let path = Path::new("/").join(name);
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = fs::read_link(&path) {
                    symlinks.push((path, target));
                }
            }
            Ok(m) if m.is_dir() => binds.push(path),
            _ => {}
        }
    }
    (binds, symlinks)
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        self.collect_retired(true);
        if let Some(group) = &self.group {
            let _ = group.destroy();
            let _ = umount2(&self.work, MntFlags::MNT_DETACH);
        }
        let _ = fs::remove_dir_all(&self.work);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_targets_stay_out_of_the_per_run_mounts() {
        assert!(valid_bind_target(Path::new("/grundy-pch/cpp20-0123")));
        for bad in [
            "relative/pch",
            "/",
            "/tmp/pch",
            "/box",
            "/dev/shm/x",
            "/proc/1",
            "/a/../tmp",
        ] {
            assert!(!valid_bind_target(Path::new(bad)), "{bad}");
        }
    }
}
