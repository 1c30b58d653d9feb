//! The system-call policy: a deny-list, since language runtimes need broad sets of calls.
//!
//! Built once per supervisor as a classic BPF program (a few dozen instructions, so written here
//! rather than through a filter compiler; none of the pure-Rust ones guards against x32 numbers):
//! - a foreign architecture or an x32 system-call number kills the process (SIGSYS);
//! - calls that runtimes probe and cope without (`clone3`, io_uring, bpf, perf, userfaultfd,
//!   keyrings, secret memory) fail with `ENOSYS`: glibc then falls back to `clone`, whose flags
//!   the filter sees;
//! - `personality` may only read the personality or set the default one (`PER_LINUX`); any other
//!   (ASLR off, `READ_IMPLIES_EXEC`, a mapped page zero, …) fails with `EPERM`, the answer
//!   runtimes that ask for one (SBCL, the sanitizers' re-exec without ASLR) already cope with;
//! - for a program under test ([`RunKind::Program`]), file locks (`flock`, POSIX and
//!   open-file-description locks, their queries) fail with `ENOLCK`, and leases and directory
//!   notifications (`F_NOTIFY`) with `EINVAL`, what a kernel without them answers: the system's
//!   files and a shared test input are the same inodes in every box, so a lock or a watch on one
//!   would be a signal between two boxes running at once. Inotify is absent for everyone (see
//!   below); compilers keep their locks (`go build` locks its cache);
//! - sockets other than `AF_UNIX` fail with `EAFNOSUPPORT`: runtimes probe them at start (the
//!   JVM opens an `AF_INET6` socket to learn whether IPv6 exists), and the run's network
//!   namespace has no interface anyway, so refusing the family is enough;
//! - calls no contest program has a reason to make (namespaces, mounts, ptrace, modules, kexec,
//!   reboot, setting clocks, …) are **violations**: they go to the supervisor as seccomp user
//!   notifications, which names the call and ends the run. Where the kernel has no user
//!   notifications they fail with `EPERM` instead.

use libc::sock_filter;

use crate::protocol::RunKind;

/// BPF_LD | BPF_W | BPF_ABS (the first two are zero).
const BPF_LD_W_ABS: u16 = 0x20;
const BPF_JEQ_K: u16 = 0x05 | 0x10;
const BPF_JGE_K: u16 = 0x05 | 0x30;
const BPF_JSET_K: u16 = 0x05 | 0x40;
const BPF_RET_K: u16 = 0x06;

const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
/// Low 32 bits of the first argument (little-endian).
const OFFSET_ARG0: u32 = 16;
/// Low 32 bits of the second argument.
const OFFSET_ARG1: u32 = 24;

const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_USER_NOTIF: u32 = 0x7fc0_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_ALLOW: u32 = 0x7fff_0000;

/// Namespace flags `clone` can carry (`CLONE_NEWTIME` shares its bit with the exit signal there).
const CLONE_NAMESPACE_FLAGS: u32 =
    0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000;

/// Answered with ENOSYS: probed by runtimes (glibc's `pthread_create`, libuv, the JVM).
pub const UNSUPPORTED: &[(i64, &str)] = &[
    (435, "clone3"),
    (425, "io_uring_setup"),
    (426, "io_uring_enter"),
    (427, "io_uring_register"),
    (321, "bpf"),
    (298, "perf_event_open"),
    (323, "userfaultfd"),
    (248, "add_key"),
    (249, "request_key"),
    (250, "keyctl"),
    (300, "fanotify_init"),
    // Secret memory leaves the kernel's direct map (fragmenting it for every process on the
    // machine) and cannot be swapped. ENOSYS is what a kernel without it answers, so every
    // caller already copes.
    (447, "memfd_secret"),
    // Watching a file every box sees (a system library) shows when another box opens it. A
    // kernel without inotify answers ENOSYS; runtimes open it only to watch files (Node's
    // `fs.watch`), which no contest program needs.
    (253, "inotify_init"),
    (294, "inotify_init1"),
];

/// Violations: the run ends with a security verdict naming the call.
pub const FORBIDDEN: &[(i64, &str)] = &[
    (272, "unshare"),
    (308, "setns"),
    (165, "mount"),
    (166, "umount2"),
    (155, "pivot_root"),
    (161, "chroot"),
    (428, "open_tree"),
    (429, "move_mount"),
    (430, "fsopen"),
    (431, "fsconfig"),
    (432, "fsmount"),
    (433, "fspick"),
    (442, "mount_setattr"),
    (101, "ptrace"),
    (310, "process_vm_readv"),
    (311, "process_vm_writev"),
    (438, "pidfd_getfd"),
    (246, "kexec_load"),
    (320, "kexec_file_load"),
    (175, "init_module"),
    (313, "finit_module"),
    (176, "delete_module"),
    (169, "reboot"),
    (227, "clock_settime"),
    (164, "settimeofday"),
    (159, "adjtimex"),
    (305, "clock_adjtime"),
    (167, "swapon"),
    (168, "swapoff"),
    (163, "acct"),
    (179, "quotactl"),
    (303, "name_to_handle_at"),
    (304, "open_by_handle_at"),
    (172, "iopl"),
    (173, "ioperm"),
    // The x86 segment tables: emulators (Wine, DOSEMU) use them, contest programs never; a
    // favourite of kernel exploits.
    (154, "modify_ldt"),
    (103, "syslog"),
    (153, "vhangup"),
    (134, "uselib"),
];

const SYS_CLONE: u32 = 56;
const SYS_SOCKET: u32 = 41;
const AF_UNIX: u32 = 1;
const SYS_PERSONALITY: u32 = 135;
/// The kernel takes the personality as an `unsigned int`, so the low 32 bits the filter reads
/// are exactly what it would act on.
const PER_LINUX: u32 = 0;
const PERSONALITY_QUERY: u32 = 0xffff_ffff;
const SYS_FCNTL: u32 = 72;
const SYS_FLOCK: u32 = 73;
/// `F_GETLK`, `F_SETLK`, `F_SETLKW` and the open-file-description `F_OFD_GETLK`,
/// `F_OFD_SETLK`, `F_OFD_SETLKW`: a query reveals another box's lock as well as a lock does.
const FCNTL_LOCKS: [u32; 6] = [5, 6, 7, 36, 37, 38];
/// `F_SETLEASE`, `F_GETLEASE`, `F_NOTIFY` (dnotify: a signal when a file in a watched directory
/// is read, by anyone).
const FCNTL_NOTICES: [u32; 3] = [1024, 1025, 1026];

/// The filter for a run of `kind`; `notify` selects user notification (true) or EPERM for
/// violations.
pub fn filter(notify: bool, kind: RunKind) -> Vec<sock_filter> {
    let violation = if notify {
        RET_USER_NOTIF
    } else {
        RET_ERRNO | libc::EPERM as u32
    };
    let mut p = vec![
        stmt(BPF_LD_W_ABS, OFFSET_ARCH),
        jump(BPF_JEQ_K, AUDIT_ARCH_X86_64, 1, 0),
        stmt(BPF_RET_K, RET_KILL_PROCESS),
        stmt(BPF_LD_W_ABS, OFFSET_NR),
        jump(BPF_JGE_K, X32_SYSCALL_BIT, 0, 1),
        stmt(BPF_RET_K, RET_KILL_PROCESS),
    ];
    for &(nr, _) in UNSUPPORTED {
        p.push(jump(BPF_JEQ_K, nr as u32, 0, 1));
        p.push(stmt(BPF_RET_K, RET_ERRNO | libc::ENOSYS as u32));
    }
    for &(nr, _) in FORBIDDEN {
        p.push(jump(BPF_JEQ_K, nr as u32, 0, 1));
        p.push(stmt(BPF_RET_K, violation));
    }
    // clone: a violation only with namespace flags (threads and fork are plain clones).
    p.extend([
        jump(BPF_JEQ_K, SYS_CLONE, 0, 4),
        stmt(BPF_LD_W_ABS, OFFSET_ARG0),
        jump(BPF_JSET_K, CLONE_NAMESPACE_FLAGS, 0, 1),
        stmt(BPF_RET_K, violation),
        stmt(BPF_RET_K, RET_ALLOW),
    ]);
    p.extend([
        jump(BPF_JEQ_K, SYS_PERSONALITY, 0, 5),
        stmt(BPF_LD_W_ABS, OFFSET_ARG0),
        jump(BPF_JEQ_K, PER_LINUX, 2, 0),
        jump(BPF_JEQ_K, PERSONALITY_QUERY, 1, 0),
        stmt(BPF_RET_K, RET_ERRNO | libc::EPERM as u32),
        stmt(BPF_RET_K, RET_ALLOW),
    ]);
    p.extend([
        jump(BPF_JEQ_K, SYS_SOCKET, 0, 4),
        stmt(BPF_LD_W_ABS, OFFSET_ARG0),
        jump(BPF_JEQ_K, AF_UNIX, 0, 1),
        stmt(BPF_RET_K, RET_ALLOW),
        stmt(BPF_RET_K, RET_ERRNO | libc::EAFNOSUPPORT as u32),
    ]);
    if kind == RunKind::Program {
        p.extend([
            jump(BPF_JEQ_K, SYS_FLOCK, 0, 1),
            stmt(BPF_RET_K, RET_ERRNO | libc::ENOLCK as u32),
        ]);
        let refusals = FCNTL_LOCKS
            .iter()
            .map(|&cmd| (cmd, libc::ENOLCK))
            .chain(FCNTL_NOTICES.iter().map(|&cmd| (cmd, libc::EINVAL)));
        let mut fcntl = vec![stmt(BPF_LD_W_ABS, OFFSET_ARG1)];
        for (cmd, errno) in refusals {
            fcntl.push(jump(BPF_JEQ_K, cmd, 0, 1));
            fcntl.push(stmt(BPF_RET_K, RET_ERRNO | errno as u32));
        }
        fcntl.push(stmt(BPF_RET_K, RET_ALLOW));
        p.push(jump(BPF_JEQ_K, SYS_FCNTL, 0, fcntl.len() as u8));
        p.extend(fcntl);
    }
    p.push(stmt(BPF_RET_K, RET_ALLOW));
    p
}

/// How a notified call is shown in a verdict: `ptrace`, `clone with namespace flags`.
pub fn describe(nr: i32) -> String {
    let nr = i64::from(nr);
    if let Some((_, name)) = FORBIDDEN.iter().chain(UNSUPPORTED).find(|(n, _)| *n == nr) {
        return (*name).to_owned();
    }
    match nr as u32 {
        SYS_CLONE => "clone with namespace flags".to_owned(),
        _ => format!("system call {nr}"),
    }
}

fn stmt(code: u16, k: u32) -> sock_filter {
    sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A classic-BPF interpreter for the instructions the filter uses, to check the policy without
    /// loading it.
    fn run(program: &[sock_filter], arch: u32, nr: u32, [arg0, arg1]: [u32; 2]) -> u32 {
        let mut acc = 0u32;
        let mut pc = 0usize;
        loop {
            let ins = program[pc];
            pc += 1;
            match ins.code {
                BPF_LD_W_ABS => {
                    acc = match ins.k {
                        OFFSET_NR => nr,
                        OFFSET_ARCH => arch,
                        OFFSET_ARG0 => arg0,
                        OFFSET_ARG1 => arg1,
                        other => panic!("load of offset {other}"),
                    }
                }
                BPF_RET_K => return ins.k,
                code => {
                    let taken = match code {
                        BPF_JEQ_K => acc == ins.k,
                        BPF_JGE_K => acc >= ins.k,
                        BPF_JSET_K => acc & ins.k != 0,
                        other => panic!("opcode {other:#x}"),
                    };
                    pc += usize::from(if taken { ins.jt } else { ins.jf });
                }
            }
        }
    }

    fn decide(nr: u32, arg0: u32) -> u32 {
        run(
            &filter(true, RunKind::Program),
            AUDIT_ARCH_X86_64,
            nr,
            [arg0, 0],
        )
    }

    fn decide_fcntl(kind: RunKind, cmd: u32) -> u32 {
        run(&filter(true, kind), AUDIT_ARCH_X86_64, SYS_FCNTL, [3, cmd])
    }

    #[test]
    fn ordinary_calls_pass() {
        for nr in [0, 1, 9, 12, 60, 231, 202, 57, 59, 62] {
            assert_eq!(decide(nr, 0), RET_ALLOW, "syscall {nr}");
        }
    }

    #[test]
    fn foreign_abi_is_killed() {
        assert_eq!(
            run(&filter(true, RunKind::Program), 0x4000_0003, 20, [0, 0]),
            RET_KILL_PROCESS,
            "i386"
        );
        assert_eq!(
            decide(X32_SYSCALL_BIT | 39, 0),
            RET_KILL_PROCESS,
            "x32 getpid"
        );
    }

    #[test]
    fn probed_calls_get_enosys() {
        assert_eq!(decide(435, 0), RET_ERRNO | libc::ENOSYS as u32);
        assert_eq!(decide(425, 0), RET_ERRNO | libc::ENOSYS as u32);
    }

    #[test]
    fn clone_is_judged_by_its_flags() {
        let thread_flags = 0x3d0f00; // glibc's pthread_create
        assert_eq!(decide(SYS_CLONE, thread_flags), RET_ALLOW);
        assert_eq!(decide(SYS_CLONE, 17), RET_ALLOW, "fork = clone(SIGCHLD)");
        assert_eq!(
            decide(SYS_CLONE, 0x1000_0000 | 17),
            RET_USER_NOTIF,
            "CLONE_NEWUSER"
        );
        assert_eq!(
            decide(SYS_CLONE, 0x2000_0000),
            RET_USER_NOTIF,
            "CLONE_NEWPID"
        );
    }

    #[test]
    fn only_unix_sockets() {
        let refused = RET_ERRNO | libc::EAFNOSUPPORT as u32;
        assert_eq!(decide(SYS_SOCKET, 1), RET_ALLOW);
        assert_eq!(decide(SYS_SOCKET, 2), refused, "AF_INET");
        assert_eq!(decide(SYS_SOCKET, 10), refused, "AF_INET6");
        assert_eq!(decide(SYS_SOCKET, 16), refused, "AF_NETLINK");
    }

    #[test]
    fn personality_only_reads_or_keeps_the_default() {
        assert_eq!(decide(SYS_PERSONALITY, 0xffff_ffff), RET_ALLOW, "query");
        assert_eq!(decide(SYS_PERSONALITY, 0), RET_ALLOW, "PER_LINUX");
        let refused = RET_ERRNO | libc::EPERM as u32;
        for (flags, what) in [
            (0x0004_0000, "ADDR_NO_RANDOMIZE"),
            (0x0040_0000, "READ_IMPLIES_EXEC"),
            (0x0010_0000, "MMAP_PAGE_ZERO"),
            (0x0800_0000, "ADDR_LIMIT_32BIT"),
            (0x0000_0008, "PER_LINUX32"),
            (0xffff_fffe, "all but the query"),
        ] {
            assert_eq!(decide(SYS_PERSONALITY, flags), refused, "{what}");
        }
    }

    #[test]
    fn secret_memory_and_segment_tables_are_refused() {
        assert_eq!(
            decide(447, 0),
            RET_ERRNO | libc::ENOSYS as u32,
            "memfd_secret"
        );
        assert_eq!(decide(154, 0), RET_USER_NOTIF, "modify_ldt");
        assert_eq!(describe(154), "modify_ldt");
    }

    #[test]
    fn violations_fall_back_to_eperm() {
        assert_eq!(
            run(
                &filter(false, RunKind::Program),
                AUDIT_ARCH_X86_64,
                101,
                [0, 0]
            ),
            RET_ERRNO | libc::EPERM as u32
        );
        for &(nr, name) in FORBIDDEN {
            assert_eq!(decide(nr as u32, 0), RET_USER_NOTIF, "{name}");
            assert_eq!(describe(nr as i32), name);
        }
    }

    #[test]
    fn the_program_fits_classic_bpf() {
        // Jumps are 8-bit; the kernel caps programs at 4096 instructions.
        for kind in [RunKind::Program, RunKind::Toolchain] {
            assert!(filter(true, kind).len() < 256);
        }
    }

    #[test]
    fn programs_take_no_locks_and_watch_nothing() {
        let enolck = RET_ERRNO | libc::ENOLCK as u32;
        let einval = RET_ERRNO | libc::EINVAL as u32;
        assert_eq!(decide(SYS_FLOCK, 3), enolck, "flock");
        for (cmd, what) in [(libc::F_SETLK, "F_SETLK"), (libc::F_SETLKW, "F_SETLKW")]
            .into_iter()
            .chain([
                (libc::F_GETLK, "F_GETLK"),
                (libc::F_OFD_SETLK, "F_OFD_SETLK"),
            ])
            .chain([
                (libc::F_OFD_SETLKW, "F_OFD_SETLKW"),
                (libc::F_OFD_GETLK, "F_OFD_GETLK"),
            ])
        {
            assert_eq!(decide_fcntl(RunKind::Program, cmd as u32), enolck, "{what}");
        }
        for (cmd, what) in [
            (libc::F_NOTIFY, "F_NOTIFY"),
            (libc::F_SETLEASE, "F_SETLEASE"),
            (libc::F_GETLEASE, "F_GETLEASE"),
        ] {
            assert_eq!(decide_fcntl(RunKind::Program, cmd as u32), einval, "{what}");
        }
        for (cmd, what) in [
            (libc::F_GETFL, "F_GETFL"),
            (libc::F_SETFL, "F_SETFL"),
            (libc::F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC"),
            (libc::F_SETFD, "F_SETFD"),
        ] {
            assert_eq!(
                decide_fcntl(RunKind::Program, cmd as u32),
                RET_ALLOW,
                "{what}"
            );
        }
        let enosys = RET_ERRNO | libc::ENOSYS as u32;
        assert_eq!(decide(libc::SYS_inotify_init1 as u32, 0), enosys);
        assert_eq!(decide(libc::SYS_inotify_init as u32, 0), enosys);
    }

    #[test]
    fn toolchains_keep_their_locks() {
        let toolchain = |nr, args| {
            run(
                &filter(true, RunKind::Toolchain),
                AUDIT_ARCH_X86_64,
                nr,
                args,
            )
        };
        assert_eq!(toolchain(SYS_FLOCK, [3, 2]), RET_ALLOW, "flock");
        assert_eq!(
            decide_fcntl(RunKind::Toolchain, libc::F_SETLKW as u32),
            RET_ALLOW
        );
        assert_eq!(
            decide_fcntl(RunKind::Toolchain, libc::F_OFD_SETLK as u32),
            RET_ALLOW
        );
        assert_eq!(
            toolchain(101, [0, 0]),
            RET_USER_NOTIF,
            "violations are the same for both"
        );
    }
}
