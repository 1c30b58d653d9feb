//! Verification of a problem: every generated test is valid and within its subtask, the reference
//! agrees with every independent method wherever that method applies (brute force on every small
//! position and small test, closed forms, other programmes), and the samples reproduce.
//!
//! An uploaded package has no family to check against: its verification digests the tests,
//! checks that samples and tests exist and that the checker accepts each test's own answer (when
//! the checker runs in this process), and leaves the rest to the package's author.

use crate::catalogue::{Problem, Sample};
use crate::check::CheckOutcome;
use crate::family::Solver;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
pub struct Report {
    pub slug: String,
    pub tests: usize,
    pub samples: usize,
    pub small_positions: usize,
    /// Number of agreeing inputs per independent method.
    pub agreements: BTreeMap<&'static str, usize>,
    /// Number of small positions each method answered (agreeing or not): a method that answers
    /// all of them checks the reference exhaustively there.
    pub small_coverage: BTreeMap<&'static str, usize>,
    /// For an interactive problem: the tests a perfect player (the reference's winning moves,
    /// through the referee) won, and the most moves one of them took.
    pub perfect_wins: usize,
    pub most_moves: usize,
    /// SHA-256 of every generated test and answer, in order: the published test set of this
    /// problem version.
    pub digest: String,
    pub failures: Vec<String>,
    pub elapsed: Duration,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Units of work `verify` reports progress in: tests, small positions and samples.
pub fn work_units(problem: &Problem) -> u64 {
    let small = problem
        .solver()
        .map_or(0, |solver| solver.small_positions_text().len());
    (problem.test_count() + small + problem.samples.len()) as u64
}

/// Verifies one problem, calling `progress` once per unit of work.
pub fn verify(problem: &Problem, progress: &mut dyn FnMut()) -> Report {
    let started = Instant::now();
    let mut report = Report {
        slug: problem.slug().to_string(),
        ..Report::default()
    };
    if problem.samples.is_empty() {
        report.failures.push("the problem has no samples".into());
    }
    if problem.test_count() == 0 {
        report.failures.push("the problem has no tests".into());
    }
    let solver = problem.solver();

    let mut hasher = Sha256::new();
    for test in problem.tests() {
        for part in [&test.input, &test.answer] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        let place = format!("subtask {} test {}", test.subtask, test.index);
        let Some(solver) = solver else {
            check_own_answer(&mut report, problem, &place, &test.input, &test.answer);
            report.tests += 1;
            progress();
            continue;
        };
        match solver.examine(&test.input, problem.subtask_params(test.subtask)) {
            Err(e) => report
                .failures
                .push(format!("{place}: the validator rejects it: {e}")),
            Ok(exam) => {
                if let Err(e) = exam.fits {
                    report
                        .failures
                        .push(format!("{place}: outside its subtask: {e}"));
                }
                if exam.answer != test.answer {
                    report.failures.push(format!(
                        "{place}: the answer changes when the input is read back"
                    ));
                }
                check_own_answer(&mut report, problem, &place, &test.input, &test.answer);
                compare(&mut report, &place, &exam.answer, &exam.cross_checks);
            }
        }
        if let Some(play) = solver.play() {
            // Each test with its own seed, so the referee's varied moves are varied here too.
            let seed = (test.subtask * 1000 + test.index) as u64;
            match crate::play::play_perfectly(play, &test.input, seed) {
                Ok(moves) => {
                    report.perfect_wins += 1;
                    report.most_moves = report.most_moves.max(moves);
                }
                Err(why) => report
                    .failures
                    .push(format!("{place}: a perfect player does not win: {why}")),
            }
        }
        report.tests += 1;
        progress();
    }

    if let Some(solver) = solver {
        for (number, text) in solver.small_positions_text().iter().enumerate() {
            let place = format!("small position {}", number + 1);
            match solver.examine(text, None) {
                Err(e) => report
                    .failures
                    .push(format!("{place}: the validator rejects it: {e}")),
                Ok(exam) => {
                    for cross in exam.cross_checks.iter().filter(|c| c.answer.is_some()) {
                        *report.small_coverage.entry(cross.method).or_default() += 1;
                    }
                    compare(&mut report, &place, &exam.answer, &exam.cross_checks);
                }
            }
            report.small_positions += 1;
            progress();
        }
    }

    for sample in &problem.samples {
        // A package's samples are its author's word: there is no reference to reproduce them.
        if let Some(solver) = solver {
            check_sample(&mut report, problem, solver, sample);
        }
        report.samples += 1;
        progress();
    }

    report.digest = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    report.elapsed = started.elapsed();
    report
}

/// The checker accepts a test's own answer and refuses an empty output. A package's output
/// validator runs only in the judge's sandbox, so its tests are not checked here.
fn check_own_answer(
    report: &mut Report,
    problem: &Problem,
    place: &str,
    input: &str,
    answer: &str,
) {
    if problem.output_validator().is_some() {
        return;
    }
    if let Some(why) = problem.check(input, answer, answer).complaint() {
        report.failures.push(format!(
            "{place}: the checker refuses the reference answer: {why}"
        ));
    }
    if problem.check(input, answer, "") == CheckOutcome::Accepted {
        report
            .failures
            .push(format!("{place}: the checker accepts an empty output"));
    }
}

fn check_sample(report: &mut Report, problem: &Problem, solver: &dyn Solver, sample: &Sample) {
    let place = format!("sample {}", sample.name);
    match solver.solve_text(&sample.input) {
        Err(e) => report
            .failures
            .push(format!("{place}: the validator rejects it: {e}")),
        Ok(answer) => {
            // Both ways round: the reference's answer is accepted where the sample's is
            // expected, and (for checkers of several right answers) the sample's is accepted.
            for (expected, output) in [(&sample.answer, &answer), (&answer, &sample.answer)] {
                if let Some(why) = problem.check(&sample.input, expected, output).complaint() {
                    report.failures.push(format!(
                        "{place}: the reference does not reproduce it: {why}"
                    ));
                    break;
                }
            }
        }
    }
}

fn compare(report: &mut Report, place: &str, answer: &str, checks: &[crate::family::CrossCheck]) {
    for cross in checks {
        if let Some(other) = &cross.answer {
            if other == answer {
                *report.agreements.entry(cross.method).or_default() += 1;
            } else {
                report.failures.push(format!(
                    "{place}: the reference and the {} disagree",
                    cross.method
                ));
            }
        }
    }
}
