//! Precompiled headers: GCC parses `bits/stdc++.h` in a fraction of the time from a `.gch` built
//! with the same flags. It is built in the box by the language's own compile command (its `-o` and
//! source taken out), once per toolchain and flags, under `<cache>/pch/<language>-<key>/`, laid
//! out as the include names it (`bits/stdc++.h.gch`), and mounted read-only into every box at
//! `/grundy-pch/<language>-<key>`, which compiles then search first (`-I`). GCC looks for the
//! `.gch` before the header in each directory and takes it only when the flags match and the
//! header comes before any code; otherwise it goes on to the real header, so a source that does
//! not include it compiles exactly as it would without.
//!
//! One judge builds while holding `<name>.lock` (others compile without it meanwhile), into a
//! staging directory renamed into place; a changed compiler or flags is a new key, and the
//! language's stale headers are removed.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::compiled::hex;
use crate::languages::{Language, PrecompiledHeader};

const FORMAT: &str = "grundy-pch-v1";
/// Where the headers appear in the box: outside every per-run mount.
const IN_BOX: &str = "/grundy-pch";

/// One language's precompiled header: where it is, and where it will be.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// `<language>-<key>`.
    pub name: String,
    /// The directory to search on the host.
    pub host_dir: PathBuf,
    /// The `.gch` itself.
    pub file: PathBuf,
    /// The compile command without its output and source: the flags the header is built with.
    pub flags: Vec<String>,
}

impl Plan {
    pub(crate) fn new(
        root: &Path,
        language: &Language,
        header: &PrecompiledHeader,
        argv: &[String],
    ) -> Plan {
        let flags = flags(argv, &language.spec.source);
        let mut hasher = Sha256::new();
        for part in [
            FORMAT,
            language.id(),
            &header.header,
            &header.kind,
            &flags.join("\0"),
            &language.toolchain_identity(),
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        for (k, v) in language.env() {
            hasher.update(format!("{k}={v}\0").as_bytes());
        }
        let name = format!("{}-{}", language.id(), &hex(&hasher.finalize())[..16]);
        let host_dir = root.join(&name);
        let file = host_dir.join(format!("{}.gch", header.header));
        Plan {
            name,
            host_dir,
            file,
            flags,
        }
    }

    /// The directory compiles search, as the box sees it (the host's under weak isolation,
    /// where nothing is mounted).
    pub(crate) fn search_dir(&self, weak: bool) -> PathBuf {
        if weak {
            self.host_dir.clone()
        } else {
            Path::new(IN_BOX).join(&self.name)
        }
    }

    pub(crate) fn ready(&self) -> bool {
        self.file.is_file()
    }

    pub(crate) fn lock_path(&self) -> PathBuf {
        self.host_dir.with_extension("lock")
    }

    /// Moves the built header (`built`, a file) into place, readable by every run's uid.
    pub(crate) fn install(&self, staging: &Path, built: &Path) -> io::Result<()> {
        let target_in_staging =
            staging.join(self.file.strip_prefix(&self.host_dir).expect("under"));
        let parent = target_in_staging.parent().expect("a file has a parent");
        fs::create_dir_all(parent)?;
        fs::rename(built, &target_in_staging)?;
        fs::set_permissions(&target_in_staging, fs::Permissions::from_mode(0o644))?;
        let mut dir = Some(parent);
        while let Some(d) = dir.filter(|d| d.starts_with(staging)) {
            fs::set_permissions(d, fs::Permissions::from_mode(0o755))?;
            dir = d.parent();
        }
        fs::rename(staging, &self.host_dir)
    }

    /// Removes this language's headers for other toolchains or flags.
    pub(crate) fn remove_stale(&self, language: &str) {
        let Some(root) = self.host_dir.parent() else {
            return;
        };
        let prefix = format!("{language}-");
        for entry in fs::read_dir(root).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix)
                && name != self.name
                && name[prefix.len()..].len() == 16
                && entry.path().is_dir()
            {
                let _ = fs::remove_dir_all(entry.path());
                let _ = fs::remove_file(root.join(format!("{name}.lock")));
            }
        }
    }
}

/// The compile command without `-o <output>` and the source file.
fn flags(argv: &[String], source: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut args = argv.iter();
    while let Some(arg) = args.next() {
        if arg == "-o" {
            args.next();
        } else if arg != source {
            flags.push(arg.clone());
        }
    }
    flags
}

/// The path of the header GCC's `-H` reports first (`. /usr/include/…/bits/stdc++.h`).
pub(crate) fn first_included(stderr: &str, header: &str) -> Option<PathBuf> {
    let line = stderr.lines().find(|l| l.starts_with(". "))?;
    let path = PathBuf::from(line[2..].trim());
    (path.is_absolute() && path.ends_with(header)).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_are_the_compile_command_without_output_and_source() {
        let argv: Vec<String> = [
            "/usr/bin/g++",
            "-std=gnu++17",
            "-O2",
            "-o",
            "main",
            "main.cpp",
        ]
        .map(str::to_owned)
        .into();
        assert_eq!(
            flags(&argv, "main.cpp"),
            ["/usr/bin/g++", "-std=gnu++17", "-O2"]
        );
    }

    #[test]
    fn the_header_is_read_from_gcc_dash_h() {
        let stderr = "warning: x\n. /usr/include/x86_64-linux-gnu/c++/12/bits/stdc++.h\n.. /usr/include/c++/12/cassert\n";
        assert_eq!(
            first_included(stderr, "bits/stdc++.h").unwrap(),
            Path::new("/usr/include/x86_64-linux-gnu/c++/12/bits/stdc++.h")
        );
        assert_eq!(
            first_included(". /usr/include/stdio.h\n", "bits/stdc++.h"),
            None
        );
        assert_eq!(first_included("", "bits/stdc++.h"), None);
    }
}
