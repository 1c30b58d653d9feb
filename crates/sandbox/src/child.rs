//! What runs in the new namespaces: the box's init (pid 1) and, beneath it, the program.
//!
//! The supervisor is single-threaded, so after `clone` this code may allocate and use std freely.
//! Init builds the root, forks the program, waits for it and reports its wait status through the
//! report pipe; when init exits, the kernel kills everything else in the pid namespace, which is
//! how orphans and daemons of the program end. The program is never pid 1, so signals (`abort`,
//! `raise`) behave for it as anywhere else.
#![allow(unsafe_code)] // clone, fork, seccomp and close_range have no safe wrappers that fit.

use std::ffi::CString;
use std::fs;
use std::io::{IoSlice, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::Signal;
use nix::sys::socket::{ControlMessage, MsgFlags, sendmsg};
use nix::unistd::{Gid, Uid, chdir, pivot_root, setgroups, sethostname, setresgid, setresuid};

use crate::protocol::Limits;

/// Report pipe messages: init's wait status of the program, or why setting up failed.
pub(crate) const TAG_STATUS: u8 = b'S';
pub(crate) const TAG_EXEC_FAILED: u8 = b'E';
pub(crate) const TAG_SETUP_FAILED: u8 = b'X';

/// Everything the child needs, prepared before `clone` by the supervisor.
pub(crate) struct Plan<'a> {
    /// The template root (see [`build_template`]).
    pub root: PathBuf,
    pub box_dir: PathBuf,
    /// The run's uid and gid; `None` under weak isolation (no root to change them).
    pub uid: Option<u32>,
    /// The highest capability number this kernel knows (`/proc/sys/kernel/cap_last_cap`).
    pub last_capability: libc::c_ulong,
    pub argv: Vec<CString>,
    pub env: Vec<CString>,
    pub limits: Limits,
    pub filter_notify: &'a [libc::sock_filter],
    pub filter_eperm: &'a [libc::sock_filter],
}

pub(crate) struct Fds {
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
    /// Init waits for one byte here: the supervisor has put it into the run's cgroups.
    pub go: OwnedFd,
    pub report: OwnedFd,
    /// The program sends its seccomp listener to the supervisor over this socket.
    pub notify: OwnedFd,
}

const NAMESPACES: libc::c_int =
    libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;

/// Weak isolation (no root): the program is forked directly, in its own process group, with the
/// limits, no-new-privileges and seccomp but none of the namespaces, cgroups or uid change.
pub(crate) fn spawn_weak(plan: &Plan<'_>, fds: Fds) -> std::io::Result<i32> {
    // SAFETY: fork of a single-threaded process.
    match unsafe { libc::fork() } {
        -1 => Err(std::io::Error::last_os_error()),
        0 => {
            // A session of its own: no controlling terminal to inject input into, and one
            // process group to kill.
            let _ = nix::unistd::setsid();
            let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
            exec_program(plan, fds)
        }
        pid => Ok(pid),
    }
}

/// Clones init into fresh namespaces. Returns its pid in the supervisor; never returns in the child.
pub(crate) fn spawn(plan: &Plan<'_>, fds: Fds) -> std::io::Result<i32> {
    // SAFETY: a fork-like clone (no new stack, SIGCHLD on exit) of a single-threaded process.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            (NAMESPACES | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    match pid {
        -1 => Err(std::io::Error::last_os_error()),
        0 => init(plan, fds),
        pid => Ok(pid as i32),
    }
}

fn init(plan: &Plan<'_>, fds: Fds) -> ! {
    let report = fds.report.as_raw_fd();
    if let Err(message) = prepare_init(plan, &fds) {
        fail(report, TAG_SETUP_FAILED, message.as_bytes());
    }
    // SAFETY: single-threaded, so the child may keep using the allocator.
    let program = unsafe { libc::fork() };
    if program == -1 {
        fail(report, TAG_SETUP_FAILED, b"fork of the program failed");
    }
    if program == 0 {
        exec_program(plan, fds);
    }
    let Fds {
        report: report_fd, ..
    } = fds; // the rest closes here: the supervisor sees EOF on them
    let report = report_fd.as_raw_fd();
    close_all_but(report);
    loop {
        let mut status = 0;
        // SAFETY: plain waitpid on our own children.
        let reaped = unsafe { libc::waitpid(-1, &mut status, 0) };
        if reaped == program {
            let mut message = vec![TAG_STATUS];
            message.extend_from_slice(&status.to_le_bytes());
            write_all(report, &message);
            exit(0);
        }
        if reaped == -1 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            exit(0);
        }
    }
}

/// Waits for the supervisor, then builds the new root and enters it.
fn prepare_init(plan: &Plan<'_>, fds: &Fds) -> Result<(), String> {
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(|e| format!("pdeathsig: {e}"))?;
    // The root is built while the supervisor sets up the run's cgroups: the two overlap.
    build_root(plan)?;
    sethostname("grundy").map_err(|e| format!("hostname: {e}"))?;
    let mut byte = [0u8; 1];
    if nix::unistd::read(&fds.go, &mut byte)
        .map_err(|e| format!("waiting for the supervisor: {e}"))?
        != 1
    {
        return Err("the supervisor went away".into());
    }
    // After the move into the run's cgroups, so /proc/self/cgroup shows "/" and nothing above.
    nix::sched::unshare(nix::sched::CloneFlags::CLONE_NEWCGROUP)
        .map_err(|e| format!("cgroup namespace: {e}"))?;
    Ok(())
}

/// The root every run starts from, built once by the supervisor in its own mount namespace: a
/// tmpfs with read-only binds of the system, empty mount points, and a minimal read-only `/dev`.
/// Each run's clone copies these mounts, which is far cheaper than making them again.
pub(crate) fn build_template(
    root: &Path,
    binds: &[PathBuf],
    symlinks: &[(PathBuf, PathBuf)],
) -> Result<(), String> {
    let none: Option<&str> = None;
    fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    mount(
        Some("tmpfs"),
        root,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some("size=1m,mode=0755"),
    )
    .map_err(|e| format!("root tmpfs: {e}"))?;
    for source in binds {
        add_bind(root, source, source)?;
    }
    for (link, target) in symlinks {
        std::os::unix::fs::symlink(target, inside(root, link))
            .map_err(|e| format!("symlink {}: {e}", link.display()))?;
    }
    for dir in ["box", "tmp", "proc", "dev"] {
        fs::create_dir(root.join(dir)).map_err(|e| format!("mkdir /{dir}: {e}"))?;
    }
    let dev = root.join("dev");
    mount(
        Some("tmpfs"),
        &dev,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        Some("size=64k,mode=0755"),
    )
    .map_err(|e| format!("/dev: {e}"))?;
    for node in ["null", "zero", "full", "random", "urandom"] {
        bind(
            &Path::new("/dev").join(node),
            &dev.join(node),
            MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        )?;
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        std::os::unix::fs::symlink(target, dev.join(name))
            .map_err(|e| format!("/dev/{name}: {e}"))?;
    }
    fs::create_dir(dev.join("shm")).map_err(|e| format!("/dev/shm: {e}"))?;
    mount(
        none,
        &dev,
        none,
        MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
        none,
    )
    .map_err(|e| format!("/dev read-only: {e}"))
}

/// Adds a read-only bind of a host path to the template, at the same path.
pub(crate) fn add_bind(root: &Path, source: &Path, target: &Path) -> Result<(), String> {
    bind(
        source,
        &inside(root, target),
        MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
    )
}

fn inside(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// The per-run part: the box, fresh scratch space and /proc for this pid namespace, then
/// `pivot_root` into the template's copy and make it read-only for this run alone.
fn build_root(plan: &Plan<'_>) -> Result<(), String> {
    let none: Option<&str> = None;
    let root = &plan.root;
    bind(
        &plan.box_dir,
        &root.join("box"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
    )?;
    // Writes to these count against the run's memory; the inode cap stops file-creation bombs
    // long before they cost seconds.
    let scratch = format!(
        "size={},nr_inodes=16384,mode=1777",
        plan.limits.memory_kib.max(1024) * 1024
    );
    for dir in ["tmp", "dev/shm"] {
        mount(
            Some("tmpfs"),
            &root.join(dir),
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some(scratch.as_str()),
        )
        .map_err(|e| format!("/{dir}: {e}"))?;
    }
    mount(
        Some("proc"),
        &root.join("proc"),
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        Some("hidepid=invisible,subset=pid"),
    )
    .map_err(|e| format!("/proc: {e}"))?;

    chdir(root).map_err(|e| format!("chdir root: {e}"))?;
    pivot_root(".", ".").map_err(|e| format!("pivot_root: {e}"))?;
    umount2(".", MntFlags::MNT_DETACH).map_err(|e| format!("detaching the old root: {e}"))?;
    chdir("/").map_err(|e| format!("chdir /: {e}"))?;
    // A bind remount changes this mount only, not the template's superblock.
    mount(
        none,
        "/",
        none,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        none,
    )
    .map_err(|e| format!("read-only root: {e}"))?;
    Ok(())
}

/// A bind mount, then a remount to apply `flags` (a bind ignores them on the first call).
fn bind(source: &Path, target: &Path, flags: MsFlags) -> Result<(), String> {
    let none: Option<&str> = None;
    let meta = fs::metadata(source).map_err(|e| format!("{}: {e}", source.display()))?;
    if meta.is_dir() {
        fs::create_dir_all(target)
    } else {
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        fs::File::create(target).map(drop)
    }
    .map_err(|e| format!("{}: {e}", target.display()))?;
    mount(
        Some(source),
        target,
        none,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        none,
    )
    .map_err(|e| format!("bind {}: {e}", source.display()))?;
    mount(
        none,
        target,
        none,
        MsFlags::MS_BIND | MsFlags::MS_REMOUNT | flags,
        none,
    )
    .map_err(|e| format!("remount {}: {e}", source.display()))
}

fn exec_program(plan: &Plan<'_>, fds: Fds) -> ! {
    let report = fds.report.as_raw_fd();
    if let Err(message) = confine(plan, &fds) {
        fail(report, TAG_SETUP_FAILED, message.as_bytes());
    }
    let mut argv: Vec<*const libc::c_char> = plan.argv.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut env: Vec<*const libc::c_char> = plan.env.iter().map(|a| a.as_ptr()).collect();
    env.push(std::ptr::null());
    // SAFETY: null-terminated arrays of pointers into CStrings that outlive the call.
    unsafe { libc::execve(argv[0], argv.as_ptr(), env.as_ptr()) };
    let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    fail(report, TAG_EXEC_FAILED, &errno.to_le_bytes());
}

/// Everything between fork and exec, in the order that keeps each step possible: descriptors,
/// credentials, limits, no-new-privileges, Landlock, seccomp last.
fn confine(plan: &Plan<'_>, fds: &Fds) -> Result<(), String> {
    if plan.uid.is_some() {
        nix::unistd::setsid().map_err(|e| format!("setsid: {e}"))?;
    }
    // The supervisor (a Rust program) ignores SIGPIPE, whatever started it may ignore more, and
    // ignored signals survive execve: the program gets every default disposition and an empty
    // signal mask, as from a shell.
    // The raw call: glibc refuses to touch the two real-time signals it reserves for itself.
    let default = [0u64; 4]; // kernel sigaction: handler SIG_DFL, no flags, no restorer, no mask
    for signal in 1..=64 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            // SAFETY: installs no handler; the kernel reads 32 bytes from `default`.
            unsafe {
                libc::syscall(
                    libc::SYS_rt_sigaction,
                    signal,
                    default.as_ptr(),
                    std::ptr::null::<u64>(),
                    8usize,
                )
            };
        }
    }
    let _ = nix::sys::signal::sigprocmask(
        nix::sys::signal::SigmaskHow::SIG_SETMASK,
        Some(&nix::sys::signal::SigSet::empty()),
        None,
    );
    nix::unistd::dup2_stdin(&fds.stdin).map_err(|e| format!("stdin: {e}"))?;
    nix::unistd::dup2_stdout(&fds.stdout).map_err(|e| format!("stdout: {e}"))?;
    nix::unistd::dup2_stderr(&fds.stderr).map_err(|e| format!("stderr: {e}"))?;
    // Close-on-exec for everything else: the report pipe and the socket are still needed below.
    // SAFETY: close_range only marks descriptors.
    unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if let Some(uid) = plan.uid {
        chdir("/box").map_err(|e| format!("chdir /box: {e}"))?;
        for cap in 0..=plan.last_capability {
            // SAFETY: plain prctl; EINVAL past the last capability is expected.
            unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) };
        }
        let (uid, gid) = (Uid::from_raw(uid), Gid::from_raw(uid));
        setgroups(&[]).map_err(|e| format!("setgroups: {e}"))?;
        setresgid(gid, gid, gid).map_err(|e| format!("setresgid: {e}"))?;
        // Leaving uid 0 clears the permitted, effective and ambient capability sets.
        setresuid(uid, uid, uid).map_err(|e| format!("setresuid: {e}"))?;
    } else {
        chdir(&plan.box_dir).map_err(|e| format!("chdir box: {e}"))?;
    }

    let limits = &plan.limits;
    let memory = limits.memory_kib * 1024;
    let cpu_seconds = limits.cpu_ms.div_ceil(1000) + 1;
    for (resource, value) in [
        (Resource::RLIMIT_CPU, cpu_seconds),
        (Resource::RLIMIT_FSIZE, limits.file_bytes),
        (Resource::RLIMIT_NOFILE, 512),
        (Resource::RLIMIT_STACK, memory),
        (Resource::RLIMIT_CORE, 0),
        (Resource::RLIMIT_MSGQUEUE, 0),
    ] {
        let hard = if resource == Resource::RLIMIT_CPU {
            value + 1
        } else {
            value
        };
        setrlimit(resource, value, hard).map_err(|e| format!("{resource:?}: {e}"))?;
    }
    // Counted per uid across the host: a backstop to the pids cgroup only where the uid is the
    // run's own (under weak isolation it is the developer's, with hundreds of tasks already).
    if plan.uid.is_some() {
        setrlimit(Resource::RLIMIT_NPROC, limits.pids, limits.pids)
            .map_err(|e| format!("RLIMIT_NPROC: {e}"))?;
    }
    nix::sys::prctl::set_no_new_privs().map_err(|e| format!("no_new_privs: {e}"))?;
    let box_path = if plan.uid.is_some() {
        Path::new("/box")
    } else {
        plan.box_dir.as_path()
    };
    landlock_best_effort(box_path);
    install_seccomp(plan, fds)
}

/// Read and execute anywhere (the mounts already make it read-only), write only in the box and
/// the scratch directories. Best effort: kernels without Landlock still have the mounts.
fn landlock_best_effort(box_path: &Path) {
    use landlock::{
        ABI, Access, AccessFs, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
    };
    let abi = ABI::V3;
    let attempt = || -> Result<(), landlock::RulesetError> {
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(abi))?
            .create()?;
        for (path, access) in [
            (Path::new("/"), AccessFs::from_read(abi)),
            (box_path, AccessFs::from_all(abi)),
            (Path::new("/tmp"), AccessFs::from_all(abi)),
            (Path::new("/dev/shm"), AccessFs::from_all(abi)),
            (
                Path::new("/dev"),
                AccessFs::from_read(abi) | AccessFs::WriteFile,
            ),
        ] {
            if let Ok(fd) = PathFd::new(path) {
                ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
            }
        }
        // Standard input is a host file outside the root the rules above see; reopening it
        // (`/dev/stdin`, a common idiom) must still work. A pipe is not subject to Landlock.
        let stdin = std::io::stdin();
        if is_file_or_device(&stdin) {
            ruleset = ruleset.add_rule(PathBeneath::new(stdin.as_fd(), AccessFs::ReadFile))?;
        }
        ruleset.restrict_self()?;
        Ok(())
    };
    let _ = attempt();
}

fn is_file_or_device(fd: &impl AsFd) -> bool {
    nix::sys::stat::fstat(fd)
        .is_ok_and(|st| matches!(st.st_mode & libc::S_IFMT, libc::S_IFREG | libc::S_IFCHR))
}

fn install_seccomp(plan: &Plan<'_>, fds: &Fds) -> Result<(), String> {
    let load = |filter: &[libc::sock_filter], flags: libc::c_ulong| {
        let program = libc::sock_fprog {
            len: filter.len() as u16,
            filter: filter.as_ptr() as *mut _,
        };
        // SAFETY: the program outlives the call; the kernel copies it.
        unsafe {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                flags,
                &program as *const _,
            )
        }
    };
    let listener = load(plan.filter_notify, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER);
    if listener >= 0 {
        let fd = listener as RawFd;
        let rights = [fd];
        sendmsg::<()>(
            fds.notify.as_raw_fd(),
            &[IoSlice::new(b"L")],
            &[ControlMessage::ScmRights(&rights)],
            MsgFlags::empty(),
            None,
        )
        .map_err(|e| format!("passing the seccomp listener: {e}"))?;
        // SAFETY: our own descriptor, not used again.
        unsafe { libc::close(fd) };
        return Ok(());
    }
    // No user notifications on this kernel: violations fail with EPERM instead of being named.
    if load(plan.filter_eperm, 0) == 0 {
        Ok(())
    } else {
        Err(format!("seccomp: {}", std::io::Error::last_os_error()))
    }
}

fn close_all_but(keep: RawFd) {
    // SAFETY: closing descriptors this process owns; `keep` survives.
    unsafe {
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
    }
}

fn write_all(fd: RawFd, bytes: &[u8]) {
    // SAFETY: a borrowed descriptor for the duration of the write.
    let mut file = std::mem::ManuallyDrop::new(unsafe {
        <fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd)
    });
    let _ = file.write_all(bytes);
}

fn fail(report: RawFd, tag: u8, detail: &[u8]) -> ! {
    let mut message = vec![tag];
    message.extend_from_slice(&detail[..detail.len().min(400)]);
    write_all(report, &message);
    exit(127)
}

fn exit(code: i32) -> ! {
    // SAFETY: _exit skips atexit handlers and stdio buffers that belong to the supervisor.
    unsafe { libc::_exit(code) }
}
