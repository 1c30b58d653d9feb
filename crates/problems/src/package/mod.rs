//! Kattis/ICPC problem packages: an uploaded zip read into a [`Problem`] backed by its tests, and
//! any problem written out as one.
//!
//! What [`read_zip`] understands, at the zip's root or inside one top-level folder:
//!
//! - `problem.yaml`: `name` (a string, or a map from language to title as in the 2023-07
//!   format), `limits.time_limit` (seconds; else a legacy `.timelimit` file; else 1 s, since the
//!   format leaves it to the judge), `limits.memory` (MiB; default 2048 as in the format),
//!   `type` (`pass-fail` or `scoring`), legacy `validation` (`default` or `custom`),
//!   `validator_flags`, `source`, and our extension map `grundy` (`slug`, `version`,
//!   `difficulty`, `tags`, and `subtasks`: the secret groups in order, as `{name, points}`).
//!   Other standard keys (author, license, uuid, …) are ignored.
//! - `statement/problem.<lang>.md` (or the legacy `problem_statement/`); English is required.
//!   LaTeX statements are not read.
//! - `data/sample/*.in|ans` and `data/secret/*.in|ans`, or the secret tests split into group
//!   folders `data/secret/<group>/`, each a subtask. Tests run in the order of their file names.
//!   Without `grundy.subtasks`, groups are taken in name order and share 100 points evenly (the
//!   last one takes the remainder); a flat secret folder is one subtask `secret` of 100 points.
//! - Output validator flags, from `problem.yaml`'s `validator_flags` and any `testdata.yaml`'s
//!   `output_validator_flags` (where the 2023-07 format moved them): only `case_sensitive` is
//!   supported, and it must be set alike everywhere, since Grundy judges a whole problem with one
//!   setting. As in Kattis, comparison ignores case unless it is set.
//! - `output_validators/` (or the 2023-07 `output_validator/`): one single-file program,
//!   directly inside or inside one folder, which makes the validation custom (a legacy
//!   `validation` key, when present, must agree). It is carried as text for the judge to run.
//!
//! Test and group names are lower-cased, with any character other than `a-z0-9_-` replaced by
//! `_`. Everything else in the package (submissions, generators, input validators, …) is
//! ignored. The archive is untrusted: sizes are counted while unpacking, paths that could leave
//! the package and links are refused, and every refusal names the file at fault.
//!
//! [`Problem`]: crate::Problem

use crate::spec::Difficulty;
use serde::{Deserialize, Serialize};
use zip::result::ZipError;

mod read;
mod write;

pub use read::read_zip;
pub use write::write_zip;

/// How much an uploaded archive may unpack to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Uncompressed bytes of all files together, counted while decompressing.
    pub max_total_bytes: u64,
    /// Entries in the archive, folders included.
    pub max_files: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_total_bytes: 256 << 20,
            max_files: 10_000,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("the upload is not a zip archive that can be read: {0}")]
    NotZip(ZipError),
    #[error("the archive has {found} entries; at most {max} are allowed")]
    TooManyFiles { found: usize, max: usize },
    #[error("{path}: the package unpacks to more than {max} bytes")]
    TooLarge { path: String, max: u64 },
    /// Something is wrong with one file of the package.
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// Something is wrong with the package as a whole (a missing file or folder).
    #[error("{0}")]
    Layout(String),
    #[error("problem {slug} cannot be exported as a package: {reason}")]
    NotExportable { slug: String, reason: String },
    #[error("writing the package: {0}")]
    Write(ZipError),
}

// The parts of `problem.yaml` that are both read and written, shared so that an export reads
// back as it was written.

#[derive(Default, Deserialize, Serialize)]
struct Limits {
    /// Seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit: Option<f64>,
    /// MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory: Option<u64>,
}

/// Our keys in `problem.yaml`, under `grundy`.
#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Extension {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    difficulty: Option<Difficulty>,
    #[serde(default)]
    tags: Vec<String>,
    /// The secret groups in subtask order, with their points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subtasks: Option<Vec<GroupPoints>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct GroupPoints {
    name: String,
    points: u32,
}
