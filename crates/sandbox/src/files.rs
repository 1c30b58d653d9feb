//! Files across the box boundary. Host-side file handling is where judges have had their CVEs
//! (symlinked outputs read as root), so reading out of the box opens each name with
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)` and accepts only a
//! regular file with one link, within the size cap.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use nix::fcntl::{OFlag, OpenHow, ResolveFlag, openat2};
use nix::mount::{MsFlags, mount};
use nix::sys::stat::Mode;

use crate::protocol::{BoxFile, CopyOut, FileSource};

/// A name usable as a single path component in the box.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('\0')
        && name.len() <= 255
}

/// Writes the request's files into the (fresh, empty) box directory. With `bind_host`, host files
/// are bind-mounted read-only instead of copied (the box is then a tmpfs of its own).
pub(crate) fn populate(box_dir: &Path, files: &[BoxFile], bind_host: bool) -> io::Result<()> {
    for file in files {
        if !valid_name(&file.name) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("bad box file name {:?}", file.name),
            ));
        }
        let target = box_dir.join(&file.name);
        match &file.source {
            FileSource::Bytes(bytes) => File::create_new(&target)?.write_all(bytes)?,
            FileSource::Host(path) if bind_host => {
                File::create_new(&target)?;
                let none: Option<&str> = None;
                mount(Some(path.as_path()), &target, none, MsFlags::MS_BIND, none)?;
                let read_only = MsFlags::MS_BIND
                    | MsFlags::MS_REMOUNT
                    | MsFlags::MS_RDONLY
                    | MsFlags::MS_NOSUID
                    | MsFlags::MS_NODEV;
                mount(none, &target, none, read_only, none)?;
                continue;
            }
            FileSource::Host(path) => {
                io::copy(&mut File::open(path)?, &mut File::create_new(&target)?)?;
            }
        }
        let mode = if file.executable { 0o755 } else { 0o644 };
        fs::set_permissions(&target, fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// Names copied out, and names refused with the reason.
pub(crate) type CopiedAndRefused = (Vec<String>, Vec<(String, String)>);

/// Copies the matching regular files at the top of the box into `out.dir`.
pub(crate) fn copy_out(box_dir: &Path, out: &CopyOut) -> io::Result<CopiedAndRefused> {
    let dir = File::open(box_dir)?;
    let mut copied = Vec::new();
    let mut refused = Vec::new();
    let mut total = 0u64;
    let mut names: Vec<String> = fs::read_dir(box_dir)?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| {
            out.suffixes.is_empty() || out.suffixes.iter().any(|s| name.ends_with(s.as_str()))
        })
        .collect();
    names.sort();
    for name in names {
        match read_beneath(&dir, &name, out.max_bytes.saturating_sub(total)) {
            Ok(bytes) => {
                total += bytes.len() as u64;
                let target = out.dir.join(&name);
                File::create(&target)?.write_all(&bytes)?;
                fs::set_permissions(&target, fs::Permissions::from_mode(0o755))?;
                copied.push(name);
            }
            Err(reason) => refused.push((name, reason)),
        }
    }
    Ok((copied, refused))
}

/// Reads `name` beneath `dir` without following any link the program may have made.
fn read_beneath(dir: &File, name: &str, cap: u64) -> Result<Vec<u8>, String> {
    let how = OpenHow::new()
        .flags(OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC)
        .mode(Mode::empty())
        .resolve(
            ResolveFlag::RESOLVE_BENEATH
                | ResolveFlag::RESOLVE_NO_SYMLINKS
                | ResolveFlag::RESOLVE_NO_MAGICLINKS,
        );
    let fd = openat2(dir.as_fd(), name, how).map_err(|e| match e {
        nix::errno::Errno::ELOOP => "a symbolic link".to_owned(),
        other => format!("cannot be opened ({other})"),
    })?;
    let file = File::from(fd);
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err("not a regular file".into());
    }
    if meta.nlink() != 1 {
        return Err("a hard link".into());
    }
    if meta.len() > cap {
        return Err(format!("larger than the {cap}-byte cap"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!("larger than the {cap}-byte cap"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_single_components() {
        assert!(valid_name("main.cpp"));
        assert!(valid_name("Main$1.class"));
        for bad in ["", ".", "..", "a/b", "/etc/passwd", "x\0y"] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn copy_out_refuses_links_and_keeps_regular_files() {
        let box_dir = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        let secret = tempfile::NamedTempFile::new().unwrap();
        fs::write(secret.path(), "secret").unwrap();
        fs::write(box_dir.path().join("main"), "binary").unwrap();
        std::os::unix::fs::symlink(secret.path(), box_dir.path().join("link")).unwrap();
        fs::hard_link(box_dir.path().join("main"), box_dir.path().join("hard")).unwrap();
        fs::create_dir(box_dir.path().join("dir")).unwrap();
        let spec = CopyOut {
            dir: out.path().to_path_buf(),
            suffixes: vec![],
            max_bytes: 1 << 20,
            after_failure: false,
        };
        let (copied, refused) = copy_out(box_dir.path(), &spec).unwrap();
        assert!(copied.is_empty(), "{copied:?}");
        let reasons: std::collections::BTreeMap<_, _> = refused.into_iter().collect();
        assert_eq!(reasons["link"], "a symbolic link");
        assert_eq!(reasons["hard"], "a hard link");
        assert_eq!(reasons["main"], "a hard link");
        assert_eq!(reasons["dir"], "not a regular file");
        assert!(!out.path().join("link").exists());

        fs::remove_file(box_dir.path().join("hard")).unwrap();
        let (copied, _) = copy_out(
            box_dir.path(),
            &CopyOut {
                suffixes: vec!["ain".into()],
                ..spec.clone()
            },
        )
        .unwrap();
        assert_eq!(copied, ["main"]);
        assert_eq!(fs::read(out.path().join("main")).unwrap(), b"binary");
        let (_, refused) = copy_out(
            box_dir.path(),
            &CopyOut {
                max_bytes: 3,
                suffixes: vec!["main".into()],
                ..spec
            },
        )
        .unwrap();
        assert!(refused[0].1.contains("cap"), "{refused:?}");
    }
}
