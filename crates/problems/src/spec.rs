//! `problem.toml`: everything about a problem except its statement text and samples.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `family` of a problem built from an uploaded package rather than a game family.
pub const PACKAGE_FAMILY: &str = "package";

/// The most subtasks a problem may have, built-in, variant or package. The built-in problems
/// have at most 3 and a full IOI task about a dozen; a subtask draws instances and names a row
/// of every result, so hundreds of them only multiply what is generated and shown.
pub const MAX_SUBTASKS: usize = 20;

/// The most tests a problem may have in all its subtasks (samples not counted). The built-in
/// problems have at most 26 and an ICPC package rarely more than a couple of hundred; every
/// submission runs each of them, so at a second each a full run stays under seven minutes.
pub const MAX_TESTS: usize = 400;

/// The most bytes a problem's tests may take, generated or unpacked: what an uploaded package
/// may unpack to ([`crate::package::MAX_UNPACKED_BYTES`]), so that a variant is held to what a
/// package is, and its export reads back.
pub const MAX_TEST_BYTES: u64 = crate::package::MAX_UNPACKED_BYTES;

/// The most bytes one student's draw of instances of a problem may come to, inputs and answers
/// ([`crate::Problem::instances_within`]): what one response or page holds. Instances are
/// answered by hand or pasted from a program run at home; the largest built-in draw comes to
/// 16.7 MB (its large subtask's instances), and the bound leaves it half as much again (checked in
/// `tests/problems/bounds.rs`).
pub const MAX_INSTANCE_BYTES: u64 = 24 << 20;

/// Whether `subtasks` keep within [`MAX_SUBTASKS`] and [`MAX_TESTS`]; the refusal in words.
pub fn check_counts(subtasks: &[SubtaskSpec]) -> Result<(), String> {
    if subtasks.len() > MAX_SUBTASKS {
        return Err(format!(
            "{} subtasks; a problem may have at most {MAX_SUBTASKS}",
            subtasks.len()
        ));
    }
    let tests: usize = subtasks.iter().map(|s| s.tests).sum();
    if tests > MAX_TESTS {
        return Err(format!(
            "{tests} tests in all; a problem may have at most {MAX_TESTS}"
        ));
    }
    Ok(())
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// Must equal the folder name.
    pub slug: String,
    /// Title per language code; `en` is required.
    pub title: BTreeMap<String, String>,
    /// Which game family (generator, validator, reference) serves this problem;
    /// [`PACKAGE_FAMILY`] for a problem whose tests were uploaded.
    pub family: String,
    /// The game of a family configured by its rules (`octal`: `code = "0.77"`); absent for
    /// every other family.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<toml::Table>,
    /// Bumped whenever tests or the reference change; results record the version that judged them.
    pub version: u32,
    pub difficulty: Difficulty,
    pub tags: Vec<String>,
    /// Where the format comes from, if it follows a public problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub time_limit_ms: u32,
    pub memory_limit_mib: u32,
    /// The root of every test's randomness (see `seed`). An uploaded package has no randomness:
    /// its seed is a digest of the judged data, so anything keyed on (slug, version, seed), such
    /// as a cache of test files, tells two uploads apart.
    pub seed: u64,
    pub checker: CheckerSpec,
    pub subtasks: Vec<SubtaskSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CheckerSpec {
    pub kind: CheckerKind,
    /// For token comparison; a reference checker reads answers its own way.
    #[serde(default = "yes")]
    pub case_sensitive: bool,
    /// What one line of the output answers, in the statement's words (`game`, `test case`,
    /// `query`): token comparison names it in its messages (`game 2 (line 2) is wrong`).
    /// [`PLAIN_LINES`], the default, where a line is not one answer (a single number, a string
    /// of letters, a list of cells): the messages then name lines and words.
    #[serde(default = "plain_lines", skip_serializing_if = "is_plain_lines")]
    pub line_answers: String,
}

/// The `line_answers` of a problem whose output lines are just lines.
pub const PLAIN_LINES: &str = "line";

fn yes() -> bool {
    true
}

fn plain_lines() -> String {
    PLAIN_LINES.to_string()
}

fn is_plain_lines(unit: &String) -> bool {
    unit == PLAIN_LINES
}

/// Whether `unit` may be a checker's `line_answers`: one to three lower-case words of letters
/// (`game`, `test case`, `heap size`), at most 24 characters, since messages are built around it.
pub fn is_valid_line_answers(unit: &str) -> bool {
    (1..=24).contains(&unit.len())
        && unit.split(' ').count() <= 3
        && unit
            .split(' ')
            .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()))
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    /// Whitespace-tolerant token comparison with the reference answer.
    Tokens,
    /// The family checks the answer by the game's rules and the reference: for problems where
    /// several answers are right (a winning move).
    Reference,
    /// An uploaded package's own output validator, a program run outside this process with the
    /// Kattis interface. Only packages have one; `problem.toml` cannot name it.
    Custom,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SubtaskSpec {
    pub name: String,
    pub points: u32,
    pub tests: usize,
    /// Family-specific generator parameters; also the subtask's extra constraints. Empty for an
    /// uploaded package, whose tests are files.
    pub generator: toml::Table,
}
