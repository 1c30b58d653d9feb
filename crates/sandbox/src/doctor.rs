//! What isolation this machine gives, for `grundy doctor` and for refusing to judge without it.
#![allow(unsafe_code)] // the Landlock version query has no safe wrapper.

use std::path::Path;

use serde::Serialize;

use crate::cgroup::{self, Layout};

#[derive(Debug, Clone, Serialize)]
pub struct Isolation {
    pub root: bool,
    /// Namespaces the kernel offers (pid, mnt, net, ipc, uts, cgroup).
    pub namespaces: Vec<(String, bool)>,
    /// `v1` or `v2` with the directories used, or why neither works.
    pub cgroups: Result<String, String>,
    pub seccomp: bool,
    /// Landlock ABI version, when enabled.
    pub landlock_abi: Option<i64>,
}

const NAMESPACES: [&str; 6] = ["pid", "mnt", "net", "ipc", "uts", "cgroup"];

pub fn inspect(cgroup_parent: Option<&Path>) -> Isolation {
    let namespaces = NAMESPACES
        .iter()
        .map(|ns| (ns.to_string(), Path::new("/proc/self/ns").join(ns).exists()))
        .collect();
    let cgroups = cgroup::detect(cgroup_parent).map(|layout| match layout {
        Layout::V1 {
            memory,
            pids,
            cpuacct,
        } => format!(
            "v1 (memory {}, pids {}, cpuacct {})",
            memory.display(),
            pids.display(),
            cpuacct.display()
        ),
        Layout::V2 { parent } => format!("v2 (runs under {})", parent.display()),
    });
    let seccomp =
        std::fs::read_to_string("/proc/self/status").is_ok_and(|s| s.contains("\nSeccomp:"));
    // SAFETY: the version query takes no pointers (NULL attr, size 0).
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    Isolation {
        root: nix::unistd::geteuid().is_root(),
        namespaces,
        cgroups,
        seccomp,
        landlock_abi: (abi > 0).then_some(abi),
    }
}

impl Isolation {
    /// What stands between this machine and full isolation; empty when nothing does.
    pub fn shortcomings(&self) -> Vec<String> {
        let mut missing = Vec::new();
        if !self.root {
            missing.push(
                "not running as root (needed for namespaces, cgroups and per-run uids)".to_owned(),
            );
        }
        for (ns, present) in &self.namespaces {
            if !present {
                missing.push(format!("the kernel has no {ns} namespace"));
            }
        }
        if let Err(reason) = &self.cgroups {
            missing.push(format!("cgroups: {reason}"));
        }
        if !self.seccomp {
            missing.push("the kernel has no seccomp".to_owned());
        }
        missing
    }
}
