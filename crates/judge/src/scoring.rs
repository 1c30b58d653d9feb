//! Totalling points, kept apart from judging each test: programs, their personal tests and
//! answers all report each test's verdict here and read the subtask scores and the verdict back.
//!
//! The rules: the submission's verdict is that of its first failing test (accepted when none
//! fails); a subtask scores its points when it had tests and none of them failed (skipped tests
//! do not fail it), and its verdict is that of its first failing test; a subtask without tests
//! (answers to a problem that draws none) is skipped and scores nothing. Samples and personal
//! tests are worth no points, but their failures set the verdict.

use grundy_problems::Problem;
use grundy_verdict::Verdict;
use serde::Serialize;

use crate::naming::{self, Group};

#[derive(Debug, Clone, Serialize)]
pub struct SubtaskResult {
    /// The subtask's name in the problem (`small`), which tests' groups carry.
    pub name: String,
    /// As the statement lists it: `Subtask 1 (30 points)` (see [`naming::subtask_label`]).
    pub label: String,
    pub points: u32,
    /// `points` when every test passed, else 0.
    pub score: u32,
    pub verdict: Verdict,
    /// The place in the subtask (from 1) of its first failing test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_at: Option<u32>,
}

impl SubtaskResult {
    /// How it went, without its label: `30/30`, `0/30, failed at test 3`.
    pub fn outcome(&self) -> String {
        match self.failed_at {
            Some(test) => format!("{}/{}, failed at test {test}", self.score, self.points),
            None if self.verdict == Verdict::Skipped => {
                format!("{}/{}, not judged", self.score, self.points)
            }
            None => format!("{}/{}", self.score, self.points),
        }
    }
}

/// `Subtask 1 (30 points): 0/30, failed at test 3`.
impl std::fmt::Display for SubtaskResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.label, self.outcome())
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    tests: usize,
    /// The first failing test's verdict and place.
    first_failure: Option<(Verdict, u32)>,
}

/// The running totals of one submission.
#[derive(Debug)]
pub struct Scorer<'p> {
    problem: &'p Problem,
    subtasks: Vec<Tally>,
    first_failure: Option<Verdict>,
}

impl<'p> Scorer<'p> {
    pub fn new(problem: &'p Problem) -> Scorer<'p> {
        Scorer {
            problem,
            subtasks: vec![Tally::default(); problem.spec.subtasks.len()],
            first_failure: None,
        }
    }

    /// Counts the verdict of test `index` (from 1) of its group.
    pub fn record(&mut self, group: Group, index: u32, verdict: Verdict) {
        if verdict.is_failure() {
            self.first_failure.get_or_insert(verdict);
        }
        if let Group::Subtask(s) = group {
            let tally = &mut self.subtasks[s - 1];
            tally.tests += 1;
            if verdict.is_failure() {
                tally.first_failure.get_or_insert((verdict, index));
            }
        }
    }

    /// Whether a test of subtask `s` (1-based) failed already: the judge may skip the rest.
    pub fn subtask_failed(&self, s: usize) -> bool {
        self.subtasks[s - 1].first_failure.is_some()
    }

    /// Subtask `s` (1-based) as it stands.
    pub fn subtask(&self, s: usize) -> SubtaskResult {
        let spec = &self.problem.spec.subtasks[s - 1];
        let tally = self.subtasks[s - 1];
        let verdict = match tally {
            Tally { tests: 0, .. } => Verdict::Skipped,
            Tally {
                first_failure: Some((failed, _)),
                ..
            } => failed,
            Tally { .. } => Verdict::Accepted,
        };
        SubtaskResult {
            name: spec.name.clone(),
            label: naming::subtask_label(self.problem, s),
            points: spec.points,
            score: if verdict == Verdict::Accepted {
                spec.points
            } else {
                0
            },
            verdict,
            failed_at: tally.first_failure.map(|(_, index)| index),
        }
    }

    /// Every subtask, in order.
    pub fn subtasks(&self) -> Vec<SubtaskResult> {
        (1..=self.subtasks.len()).map(|s| self.subtask(s)).collect()
    }

    pub fn verdict(&self) -> Verdict {
        self.first_failure.unwrap_or(Verdict::Accepted)
    }

    pub fn score(&self) -> u32 {
        self.subtasks().iter().map(|s| s.score).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<T>(check: impl FnOnce(&Problem) -> T) -> T {
        let catalogue = grundy_problems::Catalogue::builtin().unwrap();
        check(catalogue.get("stones").unwrap())
    }

    #[test]
    fn a_subtask_scores_only_when_every_test_passes() {
        with(|stones| {
            assert_eq!(stones.spec.subtasks.len(), 2);
            let mut scorer = Scorer::new(stones);
            scorer.record(Group::Samples, 1, Verdict::Accepted);
            scorer.record(Group::Subtask(1), 1, Verdict::Accepted);
            scorer.record(Group::Subtask(1), 2, Verdict::Skipped);
            scorer.record(Group::Subtask(2), 1, Verdict::Accepted);
            scorer.record(Group::Subtask(2), 2, Verdict::TimeLimit);
            scorer.record(Group::Subtask(2), 3, Verdict::WrongAnswer);
            let subtasks = scorer.subtasks();
            assert_eq!(subtasks[0].verdict, Verdict::Accepted);
            assert_eq!(subtasks[0].score, stones.spec.subtasks[0].points);
            assert_eq!(
                (subtasks[1].verdict, subtasks[1].score),
                (Verdict::TimeLimit, 0)
            );
            assert_eq!(scorer.verdict(), Verdict::TimeLimit);
            assert_eq!(scorer.score(), stones.spec.subtasks[0].points);
            // Read as the statement lists the subtasks, with the first failing test.
            assert_eq!(subtasks[0].to_string(), "Subtask 1 (30 points): 30/30");
            assert_eq!(
                subtasks[1].to_string(),
                "Subtask 2 (70 points): 0/70, failed at test 2"
            );
            assert_eq!(subtasks[1].name, "full", "the name the tests' groups carry");
        });
    }

    #[test]
    fn samples_and_personal_tests_set_the_verdict_but_score_nothing() {
        with(|stones| {
            let mut scorer = Scorer::new(stones);
            scorer.record(Group::Samples, 1, Verdict::WrongAnswer);
            scorer.record(Group::Subtask(1), 1, Verdict::Accepted);
            scorer.record(Group::Subtask(2), 1, Verdict::Accepted);
            scorer.record(Group::Personal, 1, Verdict::RuntimeError);
            assert_eq!(scorer.verdict(), Verdict::WrongAnswer);
            assert_eq!(scorer.score(), 100);
        });
    }

    #[test]
    fn a_subtask_without_tests_is_skipped_and_scores_nothing() {
        with(|stones| {
            let mut scorer = Scorer::new(stones);
            scorer.record(Group::Subtask(1), 1, Verdict::Accepted);
            assert_eq!(scorer.subtask(2).verdict, Verdict::Skipped);
            assert_eq!(scorer.subtask(2).score, 0);
            assert_eq!(scorer.subtask(2).failed_at, None);
            assert_eq!(scorer.verdict(), Verdict::Accepted);
        });
    }
}
