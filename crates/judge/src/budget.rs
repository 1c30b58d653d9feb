//! One budget per submission: the CPU and wall time that judging it may take in all, compiling,
//! every test, the checking of each output (an output validator or an interactor) and the
//! explanation that follows a wrong answer. Each run's limits are cut to what is left, so no
//! part of a submission, however it behaves, holds a worker past the budget; when it runs out
//! the judging ends with the verdict so far and says so.
//!
//! The budget is the sum of what each part may take on its own (the compiler's limits, each
//! test's time limit, the explanation's budget), except checking: an output validator or an
//! interactor may take [`VALIDATOR_CPU_MS`](crate) on one test but [`CHECKING_CPU_MS`] across
//! the submission, since a checker that loops is the problem's fault and should cost one
//! submission seconds, not minutes.

use std::time::Instant;

use grundy_problems::Problem;
use grundy_sandbox::Limits;
use serde::Serialize;

use crate::{compile_limits, explain, problem_limits};

/// CPU time for checking outputs across one submission's tests.
pub const CHECKING_CPU_MS: u64 = 30_000;

/// Wall time for checking outputs across one submission's tests.
const CHECKING_WALL_MS: u64 = 2 * CHECKING_CPU_MS;

/// A run's time, below which a run cut short by the budget is not worth starting.
const SMALLEST_RUN_MS: u64 = 10;

/// What judging one submission may take in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SubmissionBudget {
    pub cpu_ms: u64,
    pub wall_ms: u64,
}

impl SubmissionBudget {
    /// The budget of a submission to `problem` run on `tests` tests (samples, subtasks' tests
    /// and personal tests).
    pub fn of(problem: &Problem, tests: usize) -> SubmissionBudget {
        let (compile, run) = (compile_limits(), problem_limits(problem));
        let explaining = explain::Budget::default();
        let tests = tests as u64;
        SubmissionBudget {
            cpu_ms: compile.cpu_ms
                + tests * run.cpu_ms
                + CHECKING_CPU_MS
                + explaining.cpu.as_millis() as u64,
            wall_ms: compile.wall_ms
                + tests * run.wall_ms
                + CHECKING_WALL_MS
                + explaining.wall.as_millis() as u64,
        }
    }

    /// The budget of a submission to `problem` on its shared tests, as its statement states it.
    pub fn stated(problem: &Problem) -> SubmissionBudget {
        SubmissionBudget::of(problem, problem.samples.len() + problem.test_count())
    }

    /// The words a test not run (or cut short) carries once the budget is spent. Kept in one
    /// shape so that pages can word it in their reader's language (see [`crate::messages`]).
    pub fn spent_message(&self) -> String {
        format!(
            "judging stopped: this submission used up its budget ({} s of CPU time, {} s in all)",
            self.cpu_ms.div_ceil(1000),
            self.wall_ms.div_ceil(1000)
        )
    }
}

/// What one submission has spent so far against its budget.
#[derive(Debug, Clone)]
pub(crate) struct Spending {
    pub(crate) budget: SubmissionBudget,
    started: Instant,
    cpu_ms: u64,
    checking_cpu_ms: u64,
    /// A run was cut short by the budget, or the budget was gone before a run.
    exhausted: bool,
}

/// What [`Spending::cut`] left of a run's limits.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cut {
    pub(crate) limits: Limits,
    /// The budget, not the run's own limit, bounds it: a time limit it hits is the budget's.
    pub(crate) by_budget: bool,
}

impl Spending {
    pub(crate) fn new(budget: SubmissionBudget) -> Spending {
        Spending {
            budget,
            started: Instant::now(),
            cpu_ms: 0,
            checking_cpu_ms: 0,
            exhausted: false,
        }
    }

    fn wall_left_ms(&self) -> u64 {
        let spent = self.started.elapsed().as_millis() as u64;
        self.budget.wall_ms.saturating_sub(spent)
    }

    fn cpu_left_ms(&self) -> u64 {
        self.budget.cpu_ms.saturating_sub(self.cpu_ms)
    }

    /// Whether the budget is gone: nothing more runs.
    pub(crate) fn exhausted(&mut self) -> bool {
        if self.cpu_left_ms() < SMALLEST_RUN_MS || self.wall_left_ms() < SMALLEST_RUN_MS {
            self.exhausted = true;
        }
        self.exhausted
    }

    /// `limits` of a program's run, cut to what is left.
    pub(crate) fn cut(&self, limits: Limits) -> Cut {
        cut_to(limits, self.cpu_left_ms(), self.wall_left_ms())
    }

    /// `limits` of a checker's run, cut to what is left of checking's share and of the whole.
    pub(crate) fn cut_checking(&self, limits: Limits) -> Cut {
        let checking_left = CHECKING_CPU_MS.saturating_sub(self.checking_cpu_ms);
        cut_to(
            limits,
            self.cpu_left_ms().min(checking_left),
            self.wall_left_ms(),
        )
    }

    /// Counts a program's run.
    pub(crate) fn charge(&mut self, cpu_ms: u64) {
        self.cpu_ms += cpu_ms;
    }

    /// Counts a checker's run, against checking's share and the whole.
    pub(crate) fn charge_checking(&mut self, cpu_ms: u64) {
        self.cpu_ms += cpu_ms;
        self.checking_cpu_ms += cpu_ms;
    }

    /// A run cut by the budget hit its limit: the budget is gone.
    pub(crate) fn run_out(&mut self) {
        self.exhausted = true;
    }

    /// The CPU and wall time spent so far.
    pub(crate) fn spent(&self) -> (u64, u64) {
        (self.cpu_ms, self.started.elapsed().as_millis() as u64)
    }

    pub(crate) fn was_exhausted(&self) -> bool {
        self.exhausted
    }
}

fn cut_to(mut limits: Limits, cpu_left_ms: u64, wall_left_ms: u64) -> Cut {
    let by_budget = limits.cpu_ms > cpu_left_ms || limits.wall_ms > wall_left_ms;
    limits.cpu_ms = limits.cpu_ms.min(cpu_left_ms);
    limits.wall_ms = limits.wall_ms.min(wall_left_ms);
    Cut { limits, by_budget }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(cpu_ms: u64, wall_ms: u64) -> SubmissionBudget {
        SubmissionBudget { cpu_ms, wall_ms }
    }

    #[test]
    fn runs_are_cut_to_what_is_left() {
        let mut spending = Spending::new(budget(5_000, 600_000));
        let limits = Limits::for_run(2_000, 1 << 18);
        let cut = spending.cut(limits);
        assert_eq!((cut.limits.cpu_ms, cut.by_budget), (2_000, false));
        spending.charge(4_000);
        let cut = spending.cut(limits);
        assert_eq!((cut.limits.cpu_ms, cut.by_budget), (1_000, true));
        assert!(!spending.exhausted());
        spending.charge(995);
        assert!(spending.exhausted(), "5 ms left is not worth a run");
    }

    #[test]
    fn checking_has_its_own_share_of_the_whole() {
        let mut spending = Spending::new(budget(1_000_000, 6_000_000));
        let validator = Limits::for_run(10_000, 1 << 20);
        spending.charge_checking(CHECKING_CPU_MS - 4_000);
        let cut = spending.cut_checking(validator);
        assert_eq!((cut.limits.cpu_ms, cut.by_budget), (4_000, true));
        assert_eq!(
            spending.cut(Limits::for_run(10_000, 1 << 20)).limits.cpu_ms,
            10_000,
            "programs still have the rest"
        );
    }
}
