//! A problem's tests as files on disk (the sandbox takes standard input from a host file), cached
//! per problem version: `<cache>/<slug>-v<version>-<digest>/`, where the digest covers the whole
//! problem description, so an edited package never reuses stale tests. Written to a temporary
//! directory and renamed into place, so a crash or a concurrent judge never sees half a set.
//! A package unpacked to disk (`read_zip_to`) is its own test set: it is run from its folder,
//! never copied.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use grundy_problems::Problem;
use sha2::{Digest, Sha256};

use crate::naming::Group;

#[derive(Debug, Clone)]
pub struct TestFile {
    /// The samples or a subtask: a test set holds no personal tests.
    pub group: Group,
    /// 1-based within its group.
    pub index: usize,
    pub input: PathBuf,
    pub answer: PathBuf,
}

#[derive(Debug, Clone)]
pub struct TestSet {
    pub dir: PathBuf,
    pub tests: Vec<TestFile>,
}

/// A short digest of everything that defines a problem's tests: two problems with the same slug
/// and version but another digest have different tests.
pub fn digest(problem: &Problem) -> String {
    let mut hasher = Sha256::new();
    // A family's tests follow from its spec; an uploaded package's seed is the digest of its
    // tests and validator (taken while reading it), so the spec covers them too without
    // reading megabytes of tests again.
    hasher.update(format!("{:?}|{:?}", problem.spec, problem.samples).as_bytes());
    let digest = hasher.finalize();
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn key(problem: &Problem) -> String {
    format!(
        "{}-v{}-{}",
        problem.slug(),
        problem.spec.version,
        digest(problem)
    )
}

fn layout(dir: &Path, problem: &Problem) -> Vec<TestFile> {
    let mut tests = Vec::new();
    for (i, _) in problem.samples.iter().enumerate() {
        tests.push(file(dir, Group::Samples, i + 1));
    }
    for (s, subtask) in problem.spec.subtasks.iter().enumerate() {
        for i in 1..=subtask.tests {
            tests.push(file(dir, Group::Subtask(s + 1), i));
        }
    }
    tests
}

fn file(dir: &Path, group: Group, index: usize) -> TestFile {
    let stem = match group {
        Group::Subtask(s) => format!("{s}-{index:02}"),
        Group::Samples | Group::Personal => format!("sample-{index:02}"),
    };
    TestFile {
        group,
        index,
        input: dir.join(format!("{stem}.in")),
        answer: dir.join(format!("{stem}.ans")),
    }
}

/// The tests of a package unpacked to disk, where they lie.
fn in_folder(problem: &Problem) -> Option<TestSet> {
    let folder = problem.test_folder()?;
    let mut tests = Vec::new();
    for i in 1..=problem.samples.len() {
        let files = folder.sample(i);
        tests.push(TestFile {
            group: Group::Samples,
            index: i,
            input: files.input,
            answer: files.answer,
        });
    }
    for (s, subtask) in problem.spec.subtasks.iter().enumerate() {
        for i in 1..=subtask.tests {
            let files = folder.test(s + 1, i);
            tests.push(TestFile {
                group: Group::Subtask(s + 1),
                index: i,
                input: files.input,
                answer: files.answer,
            });
        }
    }
    Some(TestSet {
        dir: folder.path().to_owned(),
        tests,
    })
}

/// The test set of `problem`, generated into the cache the first time (a package unpacked to
/// disk is used where it lies).
pub fn materialize(problem: &Problem, cache: &Path) -> io::Result<TestSet> {
    if let Some(set) = in_folder(problem) {
        return Ok(set);
    }
    let dir = cache.join(key(problem));
    if !dir.join("complete").exists() {
        fs::create_dir_all(cache)?;
        let staging = tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(cache)?;
        let files = layout(staging.path(), problem);
        let mut files = files.iter();
        for sample in &problem.samples {
            let f = files.next().expect("one file per sample");
            fs::write(&f.input, &sample.input)?;
            fs::write(&f.answer, &sample.answer)?;
        }
        for test in problem.tests() {
            let f = files.next().expect("one file per test");
            fs::write(&f.input, &test.input)?;
            fs::write(&f.answer, &test.answer)?;
        }
        fs::write(staging.path().join("complete"), "")?;
        let staged = staging.keep();
        if fs::rename(&staged, &dir).is_err() {
            // Another judge finished the same set first: theirs is as good as ours.
            let _ = fs::remove_dir_all(&staged);
            if !dir.join("complete").exists() {
                return Err(io::Error::other(format!(
                    "cannot place the test set at {}",
                    dir.display()
                )));
            }
        }
    }
    Ok(TestSet {
        tests: layout(&dir, problem),
        dir,
    })
}
