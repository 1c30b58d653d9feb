//! Kattis/ICPC problem packages: an uploaded zip read into a [`Problem`] backed by its tests, and
//! any problem written out as one.
//!
//! What [`read_zip`] understands, at the zip's root or inside one top-level folder:
//!
//! - `problem.yaml`: `name` (a string, or a map from language to title as in the 2023-07
//!   format), `limits.time_limit` (seconds; else a legacy `.timelimit` file; else 1 s, since the
//!   format leaves it to the judge), `limits.memory` (MiB; default 2048 as in the format),
//!   `type` (`pass-fail`, `scoring`, `interactive`; not `multi-pass` or `submit-answer`),
//!   legacy `validation` (`default`, `custom` or `custom interactive`; not `score`),
//!   `validator_flags`, `source`, and our extension map `grundy` (`slug`, `version`,
//!   `difficulty`, `tags`, `subtasks`: the secret groups in order, as `{name, points}`, and
//!   `line_answers`: what one line of the output answers, as in `problem.toml`'s checker).
//!   Other standard keys (author, license, uuid, …) are ignored.
//! - `statement/problem.<lang>.md` (or the legacy `problem_statement/`); English is required.
//!   LaTeX statements are not read.
//! - `data/sample/*.in|ans` and `data/secret/*.in|ans`, or the secret tests split into group
//!   folders `data/secret/<group>/`, each a subtask. Tests run in the order of their file names.
//!   Without `grundy.subtasks`, groups are taken in name order and share 100 points evenly (the
//!   last one takes the remainder); a flat secret folder is one subtask `secret` of 100 points.
//! - Output validator flags, from `problem.yaml`'s `validator_flags` and any `testdata.yaml`'s
//!   `output_validator_flags` (where the 2023-07 format moved them), set alike everywhere, since
//!   Grundy judges a whole problem with one setting. Without a custom validator only
//!   `case_sensitive` is supported; as in Kattis, comparison ignores case unless it is set. A
//!   custom validator is given the flags as arguments after its three.
//! - `output_validators/` (or the 2023-07 `output_validator/`): one single-file program,
//!   directly inside or inside one folder, which makes the validation custom (a legacy
//!   `validation` key, when present, must agree). It is carried as text for the judge to run.
//!   An interactive problem (`type: interactive`, or legacy `validation: custom interactive`)
//!   must have one: it is the interactor, run beside the submission and talking with it.
//!
//! Test and group names are lower-cased, with any character other than `a-z0-9_-` replaced by
//! `_`. Everything else in the package (submissions, generators, input validators, …) is
//! ignored. The archive is untrusted: sizes are counted while unpacking, paths that could leave
//! the package and links are refused, and every refusal names the file at fault.
//!
//! [`read_zip`] holds the tests in memory, for tools and tests; [`read_zip_to`] streams them
//! into a [`TestFolder`] on disk, so that a service keeps in memory only what it shows
//! (`problem.yaml`, statements, samples, the validator's source), which [`ReadLimits`] bounds on
//! its own.
//!
//! [`Problem`]: crate::Problem

use crate::spec::Difficulty;
use serde::{Deserialize, Serialize};
use zip::result::ZipError;

mod folder;
mod read;
mod write;

pub use folder::{TestFiles, TestFolder};
pub use read::{read_zip, read_zip_to};
pub use write::write_zip;

/// How much an uploaded archive may unpack to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Uncompressed bytes of all files together, counted while decompressing.
    pub max_total_bytes: u64,
    /// Uncompressed bytes of the files a loaded problem keeps in memory: `problem.yaml`,
    /// `.timelimit`, `testdata.yaml` files, statements, samples and the output validator.
    pub max_kept_bytes: u64,
    /// Entries in the archive, folders included.
    pub max_files: usize,
}

/// The default unpacked cap, as large as the zipped upload the service takes by default. The
/// largest built-in problem, exported as a package, unpacks to 59.5 MiB (green-hackenbush-multi;
/// three more take 47 to 58 MiB), and a teacher may edit such an export and upload it again: the
/// cap is the round figure just above it. A bomb of a few dozen KiB now claims at most this much
/// (on disk with [`read_zip_to`], in memory with [`read_zip`]), not 256 MiB.
pub const MAX_UNPACKED_BYTES: u64 = 64 << 20;

/// The default cap on what a loaded problem keeps in memory: a statement page shows all of it,
/// and a megabyte is already far more than anyone reads there.
pub const MAX_KEPT_BYTES: u64 = 1 << 20;

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_total_bytes: MAX_UNPACKED_BYTES,
            max_kept_bytes: MAX_KEPT_BYTES,
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
    #[error(
        "{path}: problem.yaml, the statements, the samples and the output validator come to \
         more than {max} bytes together (they are kept in memory; only the tests may be larger)"
    )]
    TooMuchKept { path: String, max: u64 },
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
    /// The tests' folder could not be written or read (the disk, not the package, failed).
    #[error("the tests' folder: {0}")]
    Io(#[from] std::io::Error),
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
    /// What one line of the output answers (`game`), for the checker's messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line_answers: Option<String>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct GroupPoints {
    name: String,
    points: u32,
}
