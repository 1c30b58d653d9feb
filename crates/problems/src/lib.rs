//! The Grundy problem catalogue.
//!
//! A problem is a folder (`problem.toml`, `statement.<lang>.md`, `samples/`) bound to a game
//! family written in Rust: a strict input validator, seeded test generators, the reference solver
//! and the independent methods it is checked against. See `seed` for how tests derive from the
//! problem's seed.

pub mod catalogue;
pub mod check;
pub mod families;
pub mod family;
pub mod seed;
pub mod spec;
pub mod strict;
pub mod verify;

pub use catalogue::{Catalogue, LoadError, Problem, Sample, TestCase};
pub use strict::ValidationError;
