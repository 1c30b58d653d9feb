//! Runs one untrusted process under limits and reports what happened.
//!
//! The work is done by a separate, single-threaded **supervisor** process ([`supervisor::main`],
//! reached through the hidden `grundy sandbox-supervisor` subcommand or the `grundy-sandbox`
//! binary): forking a multi-threaded server is unsafe, the server stays unprivileged, and a crash in
//! sandbox code cannot take the service down. [`Sandbox`] is the client: it starts a supervisor and
//! sends it one [`RunSpec`] at a time over a pipe, getting a [`RunReport`] back.
//!
//! Each run gets fresh pid/mount/ipc/uts/cgroup namespaces, a `pivot_root` into a read-only tmpfs
//! with read-only binds of the system's `/usr`, a writable tmpfs `/box`, the supervisor's empty
//! network namespace, its own uid, no capabilities, `NO_NEW_PRIVS`, rlimits, Landlock where the
//! kernel has it, and a seccomp deny-list ([`seccomp`]). Memory, pids and CPU time are limited and
//! measured by cgroups, v1 or v2 by detection ([`cgroup`]).

pub mod cgroup;
mod child;
mod client;
pub mod doctor;
mod files;
mod interact;
mod protocol;
mod relay;
pub mod seccomp;
pub mod supervisor;

pub use client::{Sandbox, SandboxError, SupervisorCommand};
pub use doctor::Isolation;
pub use interact::{Conversation, Ending, Interaction, Next, Peer};
pub use protocol::{
    Bind, BoxFile, CopyOut, FileSource, Limits, Pipes, RunKind, RunReport, RunSpec, Status,
};
pub use relay::{BACKLOG, Party, RelayEnding, RelayLimits, Relayed};
