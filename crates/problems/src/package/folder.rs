//! An uploaded package's samples and tests as files on disk: unpacked once from the zip, run
//! from there by the judge, never held in memory.

use std::io;
use std::path::{Path, PathBuf};

/// The folder of one read package's samples and tests (`sample-<n>` and `<subtask>-<index>`,
/// each `.in` and `.ans`, numbered from 1). The problem read into it owns it: the folder is
/// removed when the problem is dropped, so a replaced version leaves nothing behind once the
/// last judge using it is done.
#[derive(Debug)]
pub struct TestFolder {
    dir: tempfile::TempDir,
}

/// The two files of a sample or test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFiles {
    pub input: PathBuf,
    pub answer: PathBuf,
}

impl TestFolder {
    /// A new, empty folder inside `parent` (created if missing).
    pub(crate) fn create(parent: &Path) -> io::Result<TestFolder> {
        std::fs::create_dir_all(parent)?;
        Ok(TestFolder {
            dir: tempfile::Builder::new()
                .prefix("package-")
                .tempdir_in(parent)?,
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Sample `number` (1-based).
    pub fn sample(&self, number: usize) -> TestFiles {
        self.files(&format!("sample-{number}"))
    }

    /// Test `index` of subtask `subtask` (both 1-based).
    pub fn test(&self, subtask: usize, index: usize) -> TestFiles {
        self.files(&format!("{subtask}-{index}"))
    }

    /// Where an archive entry is unpacked before the reader knows which test it is.
    pub(crate) fn staging(&self, entry: usize) -> PathBuf {
        self.dir.path().join(format!("entry-{entry}"))
    }

    fn files(&self, stem: &str) -> TestFiles {
        TestFiles {
            input: self.dir.path().join(format!("{stem}.in")),
            answer: self.dir.path().join(format!("{stem}.ans")),
        }
    }
}
