//! `problem.toml`: everything about a problem except its statement text and samples.

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// Must equal the folder name.
    pub slug: String,
    /// Title per language code; `en` is required.
    pub title: BTreeMap<String, String>,
    /// Which game family (generator, validator, reference) serves this problem.
    pub family: String,
    /// Bumped whenever tests or the reference change; results record the version that judged them.
    pub version: u32,
    pub difficulty: Difficulty,
    pub tags: Vec<String>,
    /// Where the format comes from, if it follows a public problem.
    #[serde(default)]
    pub source: Option<String>,
    pub time_limit_ms: u32,
    pub memory_limit_mib: u32,
    /// The root of every test's randomness (see `seed`).
    pub seed: u64,
    pub checker: CheckerSpec,
    pub subtasks: Vec<SubtaskSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CheckerSpec {
    pub kind: CheckerKind,
    /// For token comparison; a reference checker reads answers its own way.
    #[serde(default = "yes")]
    pub case_sensitive: bool,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    /// Whitespace-tolerant token comparison with the reference answer.
    Tokens,
    /// The family checks the answer by the game's rules and the reference: for problems where
    /// several answers are right (a winning move).
    Reference,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SubtaskSpec {
    pub name: String,
    pub points: u32,
    pub tests: usize,
    /// Family-specific generator parameters; also the subtask's extra constraints.
    pub generator: toml::Table,
}
