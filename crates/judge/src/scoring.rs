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

use crate::naming::Group;

#[derive(Debug, Clone, Serialize)]
pub struct SubtaskResult {
    pub name: String,
    pub points: u32,
    /// `points` when every test passed, else 0.
    pub score: u32,
    pub verdict: Verdict,
}

#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    tests: usize,
    first_failure: Option<Verdict>,
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

    /// Counts one test's verdict in its group.
    pub fn record(&mut self, group: Group, verdict: Verdict) {
        if verdict.is_failure() {
            self.first_failure.get_or_insert(verdict);
        }
        if let Group::Subtask(s) = group {
            let tally = &mut self.subtasks[s - 1];
            tally.tests += 1;
            if verdict.is_failure() {
                tally.first_failure.get_or_insert(verdict);
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
                first_failure: Some(failed),
                ..
            } => failed,
            Tally { .. } => Verdict::Accepted,
        };
        SubtaskResult {
            name: spec.name.clone(),
            points: spec.points,
            score: if verdict == Verdict::Accepted {
                spec.points
            } else {
                0
            },
            verdict,
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
            scorer.record(Group::Samples, Verdict::Accepted);
            scorer.record(Group::Subtask(1), Verdict::Accepted);
            scorer.record(Group::Subtask(1), Verdict::Skipped);
            scorer.record(Group::Subtask(2), Verdict::Accepted);
            scorer.record(Group::Subtask(2), Verdict::TimeLimit);
            scorer.record(Group::Subtask(2), Verdict::WrongAnswer);
            let subtasks = scorer.subtasks();
            assert_eq!(subtasks[0].verdict, Verdict::Accepted);
            assert_eq!(subtasks[0].score, stones.spec.subtasks[0].points);
            assert_eq!(
                (subtasks[1].verdict, subtasks[1].score),
                (Verdict::TimeLimit, 0)
            );
            assert_eq!(scorer.verdict(), Verdict::TimeLimit);
            assert_eq!(scorer.score(), stones.spec.subtasks[0].points);
        });
    }

    #[test]
    fn samples_and_personal_tests_set_the_verdict_but_score_nothing() {
        with(|stones| {
            let mut scorer = Scorer::new(stones);
            scorer.record(Group::Samples, Verdict::WrongAnswer);
            scorer.record(Group::Subtask(1), Verdict::Accepted);
            scorer.record(Group::Subtask(2), Verdict::Accepted);
            scorer.record(Group::Personal, Verdict::RuntimeError);
            assert_eq!(scorer.verdict(), Verdict::WrongAnswer);
            assert_eq!(scorer.score(), 100);
        });
    }

    #[test]
    fn a_subtask_without_tests_is_skipped_and_scores_nothing() {
        with(|stones| {
            let mut scorer = Scorer::new(stones);
            scorer.record(Group::Subtask(1), Verdict::Accepted);
            assert_eq!(scorer.subtask(2).verdict, Verdict::Skipped);
            assert_eq!(scorer.subtask(2).score, 0);
            assert_eq!(scorer.verdict(), Verdict::Accepted);
        });
    }
}
