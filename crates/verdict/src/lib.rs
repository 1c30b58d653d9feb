//! What a judged test or submission ended as, which test that was, and what it shows of its data
//! to whoever may see it: the words the judge writes, the store keeps and the service shows. They
//! live below all three so that none of them has to depend on another to name a verdict.
//!
//! A verdict travels as its wire name (`wrong_answer`) in the database, the JSON API and the
//! pages' CSS classes, and is shown to people by its label (`Wrong Answer`). Both come from one
//! table, [`Verdict::ALL`] with [`Verdict::as_str`] and [`Verdict::label`]; text is turned back
//! into a verdict only by [`Verdict::parse`], where it enters (a row, a request).

use std::fmt;

pub mod transcript;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The verdict of one test or of a whole submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    RuntimeError,
    CompilationError,
    SecurityViolation,
    /// The judge failed, not the program: never held against the student.
    InternalError,
    /// Not run: an earlier test of its subtask failed and the judge was told to stop there.
    Skipped,
}

/// Every verdict with its wire name and its English label, in the order people expect them.
const TABLE: [(Verdict, &str, &str); 10] = [
    (Verdict::Accepted, "accepted", "Accepted"),
    (Verdict::WrongAnswer, "wrong_answer", "Wrong Answer"),
    (Verdict::TimeLimit, "time_limit", "Time Limit Exceeded"),
    (
        Verdict::MemoryLimit,
        "memory_limit",
        "Memory Limit Exceeded",
    ),
    (
        Verdict::OutputLimit,
        "output_limit",
        "Output Limit Exceeded",
    ),
    (Verdict::RuntimeError, "runtime_error", "Runtime Error"),
    (
        Verdict::CompilationError,
        "compilation_error",
        "Compilation Error",
    ),
    (
        Verdict::SecurityViolation,
        "security_violation",
        "Security Violation",
    ),
    (Verdict::InternalError, "internal_error", "Internal Error"),
    (Verdict::Skipped, "skipped", "Skipped"),
];

impl Verdict {
    /// Every verdict, in the table's order.
    pub const ALL: [Verdict; 10] = {
        let mut all = [Verdict::Accepted; 10];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    fn entry(self) -> &'static (Verdict, &'static str, &'static str) {
        // The table lists the variants in declaration order.
        &TABLE[self as usize]
    }

    /// The wire name: `accepted`, `wrong_answer`, ….
    pub fn as_str(self) -> &'static str {
        self.entry().1
    }

    /// The English name people read.
    pub fn label(self) -> &'static str {
        self.entry().2
    }

    /// The verdict with this wire name.
    pub fn parse(text: &str) -> Option<Verdict> {
        TABLE.iter().find(|(_, wire, _)| *wire == text).map(|e| e.0)
    }

    /// Whether this verdict fails its test (a skipped test neither passes nor fails).
    pub fn is_failure(self) -> bool {
        !matches!(self, Verdict::Accepted | Verdict::Skipped)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Verdict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Verdict, D::Error> {
        let text = String::deserialize(deserializer)?;
        Verdict::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown verdict {text:?}")))
    }
}

/// Which test of a submission a result is for: its group (`samples`, a subtask's name, or
/// `personal`) and its place in that group, from 1. People read it as `samples #1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TestName {
    pub group: String,
    pub index: u32,
}

impl TestName {
    pub fn new(group: impl Into<String>, index: u32) -> TestName {
        TestName {
            group: group.into(),
            index,
        }
    }
}

impl fmt::Display for TestName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} #{}", self.group, self.index)
    }
}

/// A test's data as the contestant may see it when the test is theirs to see (a public sample, a
/// student's own instance): its input, the expected answer and what the program printed, side by
/// side, each cut to a few KiB by the judge. Hidden tests never carry one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    pub input: String,
    pub expected: String,
    pub output: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_variant_in_order_once() {
        for (position, (verdict, _, _)) in TABLE.iter().enumerate() {
            assert_eq!(*verdict as usize, position, "{verdict:?}");
        }
        assert_eq!(Verdict::ALL.len(), TABLE.len());
    }

    #[test]
    fn wire_names_round_trip_and_unknown_ones_are_refused() {
        for verdict in Verdict::ALL {
            assert_eq!(Verdict::parse(verdict.as_str()), Some(verdict));
            let json = serde_json::to_string(&verdict).unwrap();
            assert_eq!(json, format!("\"{}\"", verdict.as_str()));
            assert_eq!(serde_json::from_str::<Verdict>(&json).unwrap(), verdict);
        }
        assert_eq!(Verdict::WrongAnswer.as_str(), "wrong_answer");
        assert_eq!(Verdict::TimeLimit.label(), "Time Limit Exceeded");
        assert_eq!(Verdict::parse("Accepted"), None);
        assert!(serde_json::from_str::<Verdict>("\"ok\"").is_err());
    }

    #[test]
    fn only_run_tests_that_did_not_pass_are_failures() {
        assert!(!Verdict::Accepted.is_failure());
        assert!(!Verdict::Skipped.is_failure());
        assert!(Verdict::InternalError.is_failure());
        assert!(Verdict::WrongAnswer.is_failure());
    }

    #[test]
    fn tests_are_named_by_group_and_place() {
        assert_eq!(TestName::new("samples", 1).to_string(), "samples #1");
        assert!(TestName::new("full", 2) < TestName::new("full", 10));
    }
}
