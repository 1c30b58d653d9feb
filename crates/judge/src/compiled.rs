//! The compiled-program cache: the same language, compile command, toolchain and source give the
//! same program, so a rejudge or a resubmission takes it from here instead of compiling again.
//!
//! Entries are `<cache>/compiled/<key>/`: the files the compilation left and `compile.json` (its
//! [`CompileResult`]), written to a staging directory and renamed into place, so a reader never
//! sees half an entry. A hit sets the entry's modification time; when the entries together pass
//! the size cap, the least recently used go until they are under nine tenths of it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::CompileResult;
use crate::languages::Language;

const RESULT: &str = "compile.json";
/// Part of every key: changing how entries are laid out or what they mean changes it.
const FORMAT: &str = "grundy-compiled-v1";

/// The key of a compilation: the language, the command as run (limits filled in), the toolchain
/// binary's identity, the box's environment, and the source.
pub(crate) fn key(language: &Language, argv: &[String], source: &[u8]) -> String {
    let mut hasher = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    field(FORMAT.as_bytes());
    field(language.id().as_bytes());
    field(language.spec.source.as_bytes());
    field(language.spec.artifacts.join("\0").as_bytes());
    field(argv.join("\0").as_bytes());
    field(language.toolchain_identity().as_bytes());
    for (k, v) in language.env() {
        field(k.as_bytes());
        field(v.as_bytes());
    }
    field(source);
    hex(&hasher.finalize())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cache of compiled programs under one directory, at most `max_bytes` in all.
#[derive(Debug, Clone)]
pub(crate) struct CompiledCache {
    dir: PathBuf,
    max_bytes: u64,
}

impl CompiledCache {
    pub(crate) fn new(dir: PathBuf, max_bytes: u64) -> CompiledCache {
        CompiledCache { dir, max_bytes }
    }

    /// The cached compilation `key`, its files copied into `into`; `None` when absent or
    /// unreadable (then it is compiled again).
    pub(crate) fn load(&self, key: &str, into: &Path) -> Option<CompileResult> {
        let entry = self.dir.join(key);
        let result = fs::read(entry.join(RESULT)).ok()?;
        let result: CompileResult = serde_json::from_slice(&result).ok()?;
        let copied = (|| -> io::Result<()> {
            for file in fs::read_dir(&entry)? {
                let file = file?;
                if file.file_name() == RESULT {
                    continue;
                }
                let target = into.join(file.file_name());
                // A link is free where the scratch space shares the cache's file system.
                if fs::hard_link(file.path(), &target).is_err() {
                    fs::copy(file.path(), &target)?;
                }
            }
            Ok(())
        })();
        if let Err(error) = copied {
            // Evicted by another judge while being read: compile instead.
            tracing::debug!(%error, key, "cached compilation unreadable");
            for file in fs::read_dir(into).into_iter().flatten().flatten() {
                let _ = fs::remove_file(file.path());
            }
            return None;
        }
        let _ = fs::File::options()
            .write(true)
            .open(entry.join(RESULT))
            .and_then(|f| f.set_modified(SystemTime::now()));
        Some(result)
    }

    /// Keeps the compilation `key`: the files in `from` and its result. Errors are logged: a
    /// cache that cannot be written only costs compiles.
    pub(crate) fn store(&self, key: &str, from: &Path, result: &CompileResult) {
        if let Err(error) = self.try_store(key, from, result) {
            tracing::warn!(%error, dir = %self.dir.display(), "could not cache a compilation");
            return;
        }
        if let Err(error) = self.evict() {
            tracing::warn!(%error, dir = %self.dir.display(), "could not trim the compilation cache");
        }
    }

    fn try_store(&self, key: &str, from: &Path, result: &CompileResult) -> io::Result<()> {
        let entry = self.dir.join(key);
        if entry.exists() {
            return Ok(());
        }
        fs::create_dir_all(&self.dir)?;
        let staging = tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(&self.dir)?;
        for file in fs::read_dir(from)? {
            let file = file?;
            fs::copy(file.path(), staging.path().join(file.file_name()))?;
        }
        fs::write(staging.path().join(RESULT), serde_json::to_vec(result)?)?;
        let staging = staging.keep();
        if let Err(error) = fs::rename(&staging, &entry) {
            let _ = fs::remove_dir_all(&staging);
            // Another judge stored the same compilation first.
            if !entry.join(RESULT).exists() {
                return Err(error);
            }
        }
        Ok(())
    }

    /// Removes the least recently used entries while all of them pass the cap.
    fn evict(&self) -> io::Result<()> {
        let mut entries = Vec::new();
        let mut total = 0u64;
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(used) = fs::metadata(entry.path().join(RESULT)).and_then(|m| m.modified())
            else {
                continue;
            };
            let size: u64 = fs::read_dir(entry.path())?
                .flatten()
                .filter_map(|f| f.metadata().ok())
                .map(|m| m.len())
                .sum();
            total += size;
            entries.push((used, size, entry.path()));
        }
        if total <= self.max_bytes {
            return Ok(());
        }
        entries.sort();
        let goal = self.max_bytes / 10 * 9;
        for (_, size, path) in entries {
            if total <= goal {
                break;
            }
            // Another judge may be evicting too.
            if fs::remove_dir_all(&path).is_ok() {
                total = total.saturating_sub(size);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(message: &str) -> CompileResult {
        CompileResult {
            ok: true,
            message: message.to_owned(),
            cpu_ms: 5,
            memory_kib: 6,
            build: crate::Build::Compiled,
        }
    }

    fn stored(cache: &CompiledCache, key: &str, bytes: usize) {
        let build = tempfile::tempdir().unwrap();
        fs::write(build.path().join("main"), vec![7u8; bytes]).unwrap();
        cache.store(key, build.path(), &result(key));
    }

    #[test]
    fn a_stored_compilation_comes_back_with_its_files_and_result() {
        let root = tempfile::tempdir().unwrap();
        let cache = CompiledCache::new(root.path().join("compiled"), 1 << 20);
        let into = tempfile::tempdir().unwrap();
        assert!(cache.load("k1", into.path()).is_none());
        stored(&cache, "k1", 100);
        let back = cache.load("k1", into.path()).unwrap();
        assert_eq!(back.message, "k1");
        assert_eq!((back.cpu_ms, back.memory_kib), (5, 6));
        assert_eq!(fs::read(into.path().join("main")).unwrap(), vec![7u8; 100]);
        let names: Vec<_> = fs::read_dir(into.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "only the program, not the result file");
        // No staging directory is left behind.
        assert_eq!(
            fs::read_dir(root.path().join("compiled")).unwrap().count(),
            1
        );
    }

    #[test]
    fn the_least_recently_used_go_when_the_cap_is_passed() {
        let root = tempfile::tempdir().unwrap();
        let cache = CompiledCache::new(root.path().to_path_buf(), 2500);
        stored(&cache, "old", 1000);
        stored(&cache, "used", 1000);
        // Make "old" the least recently used whatever the clock's resolution.
        let past = SystemTime::now() - std::time::Duration::from_secs(60);
        fs::File::options()
            .write(true)
            .open(root.path().join("old").join(RESULT))
            .unwrap()
            .set_modified(past)
            .unwrap();
        stored(&cache, "new", 1000);
        let into = tempfile::tempdir().unwrap();
        assert!(cache.load("old", into.path()).is_none());
        assert!(
            cache
                .load("used", tempfile::tempdir().unwrap().path())
                .is_some()
        );
        assert!(
            cache
                .load("new", tempfile::tempdir().unwrap().path())
                .is_some()
        );
    }
}
