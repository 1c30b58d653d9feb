//! The Grundy problem catalogue.
//!
//! A problem is a folder (`problem.toml`, `statement.<lang>.md`, `samples/`) bound to a game
//! family written in Rust: a strict input validator, seeded test generators, the reference solver
//! and the independent methods it is checked against. See `seed` for how tests derive from the
//! problem's seed. A variant of a family problem (`variant`) is such a folder too. A problem can
//! also come from an uploaded Kattis-style package (`package`): fixed tests, no family.

pub mod catalogue;
pub mod check;
pub mod explain;
pub mod families;
pub mod family;
pub mod package;
pub mod play;
pub mod seed;
pub mod spec;
pub mod strict;
pub mod variant;
pub mod verify;

pub use catalogue::{
    Catalogue, Instance, LoadError, OutputValidator, Problem, Sample, TestCase, is_valid_slug,
};
pub use package::{
    PackageError, ReadLimits, TestFiles, TestFolder, read_zip, read_zip_to, write_zip,
};
pub use strict::ValidationError;
pub use variant::{VariantRequest, VariantSubtask, variant};
