//! Memory, pids and CPU accounting for one run, on cgroup v1 or v2 as the machine has it.
//!
//! Detection reads `/proc/self/mountinfo` and `/proc/self/cgroup`: v2 is used when the unified
//! hierarchy has the `memory`, `pids` and `cpu` controllers; otherwise v1 when the `memory`, `pids`
//! and `cpuacct` hierarchies are mounted (hybrid machines have a cgroup2 mount with no controllers,
//! which must not be mistaken for v2). The parsing is pure so both layouts are unit-tested here.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Which cgroup layout the machine has, with the directories this process may create under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// One directory per controller: our own cgroup in each hierarchy.
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: PathBuf,
    },
    /// The unified hierarchy: the directory runs are created under.
    V2 { parent: PathBuf },
}

/// One cgroup mount from mountinfo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    pub point: PathBuf,
    pub version: u8,
    /// v1: the controllers of the hierarchy (from the super options). v2: empty.
    pub controllers: Vec<String>,
}

const V1_NEEDED: [&str; 3] = ["memory", "pids", "cpuacct"];
const V2_NEEDED: [&str; 3] = ["memory", "pids", "cpu"];

/// The cgroup mounts in a mountinfo text.
pub fn parse_mountinfo(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let point = left.split(' ').nth(4)?;
            let mut right = right.split(' ');
            let fstype = right.next()?;
            let _source = right.next()?;
            let options = right.next().unwrap_or("");
            let point = PathBuf::from(unescape_mount_path(point));
            match fstype {
                "cgroup2" => Some(Mount {
                    point,
                    version: 2,
                    controllers: Vec::new(),
                }),
                "cgroup" => Some(Mount {
                    point,
                    version: 1,
                    controllers: options
                        .split(',')
                        .filter(|o| !o.contains('=') && *o != "rw" && *o != "ro")
                        .map(str::to_owned)
                        .collect(),
                }),
                _ => None,
            }
        })
        .collect()
}

/// mountinfo escapes spaces and a few other bytes as `\ooo`.
fn unescape_mount_path(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && i + 3 < bytes.len()
            && bytes[i + 1..i + 4]
                .iter()
                .all(|b| (b'0'..=b'7').contains(b))
        {
            out.push(
                (bytes[i + 1] - b'0') * 64 + (bytes[i + 2] - b'0') * 8 + (bytes[i + 3] - b'0'),
            );
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `/proc/self/cgroup`: (hierarchy controllers, path) pairs; v2's line has no controllers.
pub fn parse_proc_cgroup(text: &str) -> Vec<(Vec<String>, String)> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let _id = parts.next()?;
            let controllers = parts.next()?;
            let path = parts.next()?;
            let controllers = controllers
                .split(',')
                .filter(|c| !c.is_empty())
                .map(str::to_owned)
                .collect();
            Some((controllers, path.to_owned()))
        })
        .collect()
}

/// The value of `key` in a flat keyed file (`memory.events`, `memory.oom_control`, `cpu.stat`).
pub fn keyed_value(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// Chooses the layout from the texts of mountinfo and /proc/self/cgroup, and the controllers the
/// v2 hierarchy offers (`cgroup.controllers` of its root). `v2_parent` overrides where v2 runs go.
pub fn detect_from(
    mountinfo: &str,
    proc_cgroup: &str,
    v2_controllers: &str,
    v2_parent: Option<&Path>,
) -> Result<Layout, String> {
    let mounts = parse_mountinfo(mountinfo);
    let memberships = parse_proc_cgroup(proc_cgroup);
    if let Some(v2) = mounts.iter().find(|m| m.version == 2) {
        let offered: Vec<&str> = v2_controllers.split_whitespace().collect();
        if V2_NEEDED.iter().all(|c| offered.contains(c)) {
            let parent = v2_parent
                .map(Path::to_path_buf)
                .unwrap_or_else(|| v2.point.join("grundy"));
            return Ok(Layout::V2 { parent });
        }
    }
    let own = |controller: &str| -> Result<PathBuf, String> {
        let mount = mounts
            .iter()
            .find(|m| m.version == 1 && m.controllers.iter().any(|c| c == controller))
            .ok_or_else(|| format!("no cgroup v1 hierarchy with the {controller} controller"))?;
        let path = memberships
            .iter()
            .find(|(cs, _)| cs.iter().any(|c| c == controller))
            .map(|(_, p)| p.as_str())
            .unwrap_or("/");
        let relative = path.trim_start_matches('/');
        Ok(if relative.is_empty() {
            mount.point.clone()
        } else {
            mount.point.join(relative)
        })
    };
    if mounts.iter().any(|m| m.version == 1) {
        return Ok(Layout::V1 {
            memory: own(V1_NEEDED[0])?,
            pids: own(V1_NEEDED[1])?,
            cpuacct: own(V1_NEEDED[2])?,
        });
    }
    Err(if mounts.is_empty() {
        "no cgroup filesystem is mounted".to_owned()
    } else {
        format!(
            "the cgroup2 hierarchy does not offer {} (offered: {})",
            V2_NEEDED.join(", "),
            if v2_controllers.trim().is_empty() {
                "none"
            } else {
                v2_controllers.trim()
            }
        )
    })
}

/// The layout of this machine.
pub fn detect(v2_parent: Option<&Path>) -> Result<Layout, String> {
    let mountinfo =
        fs::read_to_string("/proc/self/mountinfo").map_err(|e| format!("mountinfo: {e}"))?;
    let proc_cgroup = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let v2_controllers = parse_mountinfo(&mountinfo)
        .iter()
        .find(|m| m.version == 2)
        .and_then(|m| fs::read_to_string(m.point.join("cgroup.controllers")).ok())
        .unwrap_or_default();
    detect_from(&mountinfo, &proc_cgroup, &v2_controllers, v2_parent)
}

impl Layout {
    pub fn version(&self) -> u8 {
        match self {
            Layout::V1 { .. } => 1,
            Layout::V2 { .. } => 2,
        }
    }

    /// Creates this supervisor's own group, under which each run gets a fresh one. Groups left
    /// by supervisors that died (`grundy-<pid>` whose pid is gone) are removed first.
    pub fn create_group(&self, name: &str) -> io::Result<Group> {
        let parents: Vec<&PathBuf> = match self {
            Layout::V1 {
                memory,
                pids,
                cpuacct,
            } => vec![memory, pids, cpuacct],
            Layout::V2 { parent } => vec![parent],
        };
        for parent in parents {
            sweep_stale(parent);
        }
        match self {
            Layout::V1 {
                memory,
                pids,
                cpuacct,
            } => {
                let dirs = [memory.join(name), pids.join(name), cpuacct.join(name)];
                for dir in &dirs {
                    create_dir(dir)?;
                }
                Ok(Group::V1 { dirs })
            }
            Layout::V2 { parent } => {
                create_dir(parent)?;
                enable_controllers(parent)?;
                let dir = parent.join(name);
                create_dir(&dir)?;
                enable_controllers(&dir)?;
                Ok(Group::V2 { dir })
            }
        }
    }
}

/// Removes `grundy-<pid>` groups (and their runs) whose supervisor no longer exists. Best effort:
/// a group still holding processes stays.
fn sweep_stale(parent: &Path) {
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("grundy-")
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new("/proc").join(pid.to_string()).exists() {
            continue;
        }
        if let Ok(runs) = fs::read_dir(entry.path()) {
            for run in runs.flatten().filter(|r| r.path().is_dir()) {
                let _ = fs::remove_dir(run.path());
            }
        }
        let _ = fs::remove_dir(entry.path());
    }
}

fn create_dir(dir: &Path) -> io::Result<()> {
    match fs::create_dir(dir) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

fn enable_controllers(dir: &Path) -> io::Result<()> {
    let wanted: Vec<String> = V2_NEEDED.iter().map(|c| format!("+{c}")).collect();
    fs::write(dir.join("cgroup.subtree_control"), wanted.join(" "))
}

/// Asks the kernel to favour moving processes between cgroups over forks and exits
/// (`favordynmods`, Linux 6.2 and later).
///
/// Every run moves its init into fresh cgroups. Without the option each move waits for an RCU
/// grace period (9–15 ms measured on cgroup v1), most of what a one-shot run costs above the
/// program itself. The option belongs to a hierarchy, so an empty named v1 hierarchy carries it,
/// mounted under `mount_point` in the supervisor's private mount namespace: the host's own
/// hierarchies are left as they are. The price, forks and exits taking one more uncontended lock,
/// is small beside a judge's runs.
///
/// Making that hierarchy costs a grace period itself (6–30 ms measured), and so would the kernel
/// turning the option off when it goes. An empty child group keeps it after the supervisor
/// exits, as v1 keeps any hierarchy that has groups, so every later supervisor's mount finds it
/// (0.1 ms) and the option stays on until the host restarts.
pub fn favor_migrations(mount_point: &Path) -> Result<(), String> {
    create_dir(mount_point).map_err(|e| format!("{}: {e}", mount_point.display()))?;
    nix::mount::mount(
        Some("cgroup"),
        mount_point,
        Some("cgroup"),
        nix::mount::MsFlags::MS_NOSUID
            | nix::mount::MsFlags::MS_NODEV
            | nix::mount::MsFlags::MS_NOEXEC,
        Some("none,name=grundy,favordynmods"),
    )
    .map_err(|e| match e {
        nix::errno::Errno::EINVAL => "the kernel has no favordynmods (Linux 6.2+)".to_owned(),
        e => format!("mounting a cgroup hierarchy with favordynmods: {e}"),
    })?;
    create_dir(&mount_point.join("keep")).map_err(|e| format!("keeping the hierarchy: {e}"))
}

/// A cgroup: the supervisor's own (with runs beneath it) or one run's.
#[derive(Debug)]
pub enum Group {
    /// memory, pids, cpuacct.
    V1 {
        dirs: [PathBuf; 3],
    },
    V2 {
        dir: PathBuf,
    },
}

impl Group {
    /// A fresh child group with the limits set. `pids` is what the program may have; the box's
    /// init takes one more.
    pub fn create_run(&self, name: &str, memory_bytes: u64, pids: u64) -> io::Result<Group> {
        let pids = pids + 1;
        let run = match self {
            Group::V1 { dirs } => Group::V1 {
                dirs: dirs.clone().map(|d| d.join(name)),
            },
            Group::V2 { dir } => Group::V2 {
                dir: dir.join(name),
            },
        };
        for dir in run.dirs() {
            // A leftover from a supervisor that died mid-run: empty it and start afresh.
            if dir.exists() {
                run.kill_all();
                let _ = fs::remove_dir(dir);
            }
            fs::create_dir(dir)?;
        }
        match &run {
            Group::V1 {
                dirs: [memory, pids_dir, _],
            } => {
                fs::write(
                    memory.join("memory.limit_in_bytes"),
                    memory_bytes.to_string(),
                )?;
                // With swap accounting, the same figure for memory+swap means no swap at all.
                let memsw = memory.join("memory.memsw.limit_in_bytes");
                if memsw.exists() {
                    fs::write(memsw, memory_bytes.to_string())?;
                }
                fs::write(pids_dir.join("pids.max"), pids.to_string())?;
            }
            Group::V2 { dir } => {
                fs::write(dir.join("memory.max"), memory_bytes.to_string())?;
                let swap = dir.join("memory.swap.max");
                if swap.exists() {
                    fs::write(swap, "0")?;
                }
                fs::write(dir.join("pids.max"), pids.to_string())?;
            }
        }
        Ok(run)
    }

    fn dirs(&self) -> &[PathBuf] {
        match self {
            Group::V1 { dirs } => dirs,
            Group::V2 { dir } => std::slice::from_ref(dir),
        }
    }

    pub fn add(&self, pid: i32) -> io::Result<()> {
        for dir in self.dirs() {
            fs::write(dir.join("cgroup.procs"), pid.to_string())?;
        }
        Ok(())
    }

    /// CPU time of every thread and process that ever ran in the group, in nanoseconds.
    pub fn cpu_ns(&self) -> io::Result<u64> {
        match self {
            Group::V1 {
                dirs: [_, _, cpuacct],
            } => parse_u64(&fs::read_to_string(cpuacct.join("cpuacct.usage"))?),
            Group::V2 { dir } => {
                let stat = fs::read_to_string(dir.join("cpu.stat"))?;
                keyed_value(&stat, "usage_usec")
                    .map(|us| us * 1000)
                    .ok_or_else(|| invalid("cpu.stat has no usage_usec"))
            }
        }
    }

    pub fn peak_memory_bytes(&self) -> io::Result<u64> {
        match self {
            Group::V1 { dirs: [memory, ..] } => parse_u64(&fs::read_to_string(
                memory.join("memory.max_usage_in_bytes"),
            )?),
            // memory.peak needs Linux 5.19; before that the current figure is the best there is.
            Group::V2 { dir } => fs::read_to_string(dir.join("memory.peak"))
                .or_else(|_| fs::read_to_string(dir.join("memory.current")))
                .and_then(|t| parse_u64(&t)),
        }
    }

    /// How many times the kernel's OOM killer acted inside the group.
    pub fn oom_kills(&self) -> io::Result<u64> {
        let (file, key) = match self {
            Group::V1 { dirs: [memory, ..] } => (memory.join("memory.oom_control"), "oom_kill"),
            Group::V2 { dir } => (dir.join("memory.events"), "oom_kill"),
        };
        Ok(keyed_value(&fs::read_to_string(file)?, key).unwrap_or(0))
    }

    /// SIGKILL to everything in the group.
    pub fn kill_all(&self) {
        if let Group::V2 { dir } = self
            && fs::write(dir.join("cgroup.kill"), "1").is_ok()
        {
            return;
        }
        for dir in self.dirs() {
            if let Ok(procs) = fs::read_to_string(dir.join("cgroup.procs")) {
                for pid in procs.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.dirs().iter().all(|dir| {
            fs::read_to_string(dir.join("cgroup.procs"))
                .map(|p| p.trim().is_empty())
                .unwrap_or(true)
        })
    }

    /// Kills what is left and removes the group. Processes SIGKILLed a moment ago may still be
    /// exiting, so emptiness is awaited (bounded) before the directories go.
    pub fn destroy(&self) -> io::Result<()> {
        for attempt in 0..2000 {
            if self.is_empty() {
                break;
            }
            if attempt % 100 == 0 {
                self.kill_all();
            }
            std::thread::sleep(std::time::Duration::from_micros(500));
        }
        let mut result = Ok(());
        for dir in self.dirs() {
            if let Err(e) = fs::remove_dir(dir)
                && e.kind() != io::ErrorKind::NotFound
            {
                result = Err(e);
            }
        }
        result
    }
}

fn parse_u64(text: &str) -> io::Result<u64> {
    text.trim().parse().map_err(|_| invalid("not a number"))
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Read off this project's CI machine (hybrid: v1 controllers, an empty cgroup2 mount).
    const HYBRID_MOUNTINFO: &str = "\
24 1 0:22 / / rw,relatime - overlay overlay rw,lowerdir=/a
30 24 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate
32 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 30 0:29 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
34 30 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
35 30 0:31 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
36 30 0:32 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
";
    // With the named hierarchy `favor_migrations` leaves, which has no controllers.
    const HYBRID_CGROUP: &str = "\
266:name=grundy:/
9:name=systemd:/
8:pids:/
4:memory:/process_api/e3f6
2:cpuacct:/
1:cpu:/
0::/
";
    // A typical Debian 12 / Ubuntu 22.04 host: pure v2.
    const V2_MOUNTINFO: &str = "\
22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
26 22 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
";
    const V2_CGROUP: &str = "0::/user.slice/user-1000.slice/session-2.scope\n";
    // Ubuntu 20.04 style: cpu and cpuacct co-mounted.
    const COMOUNTED: &str = "\
30 24 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct
34 30 0:30 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory
35 30 0:31 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids
";

    #[test]
    fn hybrid_machine_uses_v1_with_own_memory_path() {
        let layout = detect_from(HYBRID_MOUNTINFO, HYBRID_CGROUP, "", None).unwrap();
        assert_eq!(
            layout,
            Layout::V1 {
                memory: "/sys/fs/cgroup/memory/process_api/e3f6".into(),
                pids: "/sys/fs/cgroup/pids".into(),
                cpuacct: "/sys/fs/cgroup/cpuacct".into(),
            }
        );
    }

    #[test]
    fn empty_unified_mount_is_not_v2() {
        // Only cgroup.kill and cpu.stat there: the controllers live in v1.
        let layout = detect_from(HYBRID_MOUNTINFO, HYBRID_CGROUP, "\n", None).unwrap();
        assert_eq!(layout.version(), 1);
    }

    #[test]
    fn pure_v2_machine_uses_the_unified_hierarchy() {
        let layout = detect_from(
            V2_MOUNTINFO,
            V2_CGROUP,
            "cpuset cpu io memory hugetlb pids rdma misc\n",
            None,
        )
        .unwrap();
        assert_eq!(
            layout,
            Layout::V2 {
                parent: "/sys/fs/cgroup/grundy".into()
            }
        );
        let custom = detect_from(
            V2_MOUNTINFO,
            V2_CGROUP,
            "cpu memory pids",
            Some(Path::new("/sys/fs/cgroup/judge.slice")),
        )
        .unwrap();
        assert_eq!(
            custom,
            Layout::V2 {
                parent: "/sys/fs/cgroup/judge.slice".into()
            }
        );
    }

    #[test]
    fn v2_without_memory_controller_is_refused_with_reason() {
        let err = detect_from(V2_MOUNTINFO, V2_CGROUP, "cpu pids", None).unwrap_err();
        assert!(err.contains("memory"), "{err}");
        assert!(err.contains("cpu pids"), "{err}");
    }

    #[test]
    fn comounted_cpu_cpuacct_is_found() {
        let layout = detect_from(
            COMOUNTED,
            "3:cpu,cpuacct:/x\n4:memory:/\n5:pids:/\n",
            "",
            None,
        )
        .unwrap();
        match layout {
            Layout::V1 { cpuacct, .. } => {
                assert_eq!(cpuacct, PathBuf::from("/sys/fs/cgroup/cpu,cpuacct/x"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn no_cgroups_at_all() {
        assert!(detect_from("22 1 0:1 / / rw - ext4 /dev/x rw\n", "", "", None).is_err());
    }

    #[test]
    fn escaped_mount_points() {
        let mounts = parse_mountinfo("1 2 0:3 / /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw\n");
        assert_eq!(mounts[0].point, PathBuf::from("/sys/fs/my cgroup"));
    }

    #[test]
    fn keyed_files_of_both_versions() {
        let v1_oom = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(keyed_value(v1_oom, "oom_kill"), Some(3));
        let v2_events = "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(keyed_value(v2_events, "oom_kill"), Some(1));
        let cpu_stat = "usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\n";
        assert_eq!(keyed_value(cpu_stat, "usage_usec"), Some(123456));
        assert_eq!(keyed_value(cpu_stat, "missing"), None);
    }
}
