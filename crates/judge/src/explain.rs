//! Explaining a wrong answer with the program itself: the compiled program runs in the sandbox
//! on freshly generated small games of its problem (never a hidden test), within a budget, and
//! [`grundy_problems::explain::search`] finds, shrinks and explains the smallest one it gets
//! wrong.

use std::collections::BTreeMap;
use std::fs;
use std::time::{Duration, Instant};

use grundy_problems::Problem;
use grundy_problems::explain::{self, Attempt, Bounds, Explainer, Misconception, Words};
use grundy_problems::spec::CheckerKind;
use grundy_sandbox::{Limits, RunReport, Status};
use serde::{Deserialize, Serialize};

use crate::{Compiled, Judge, JudgeError, Language};

/// What one explanation may spend: runs, the program's CPU time, and wall time (a program that
/// sleeps spends none of the CPU budget).
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub runs: u32,
    pub cpu: Duration,
    pub wall: Duration,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            runs: 64,
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(10),
        }
    }
}

/// A misconception as stored: its id, its title and paragraph in English, and the same in every
/// other language it is written in, so that each reader gets her own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MisconceptionView {
    pub id: String,
    pub title: String,
    pub text: String,
    /// By language code; absent from explanations stored before the translations were written.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: BTreeMap<String, Words>,
}

impl MisconceptionView {
    fn of(misconception: Misconception, family: &str) -> MisconceptionView {
        MisconceptionView {
            id: misconception.id.to_owned(),
            title: misconception.title.to_owned(),
            text: misconception.text.to_owned(),
            translations: misconception.translations(family),
        }
    }

    /// Its title and paragraph in the language `code`; English where it is not written in
    /// that language or was stored before it was.
    pub fn words(&self, code: &str) -> Words {
        self.translations
            .get(code)
            .cloned()
            .unwrap_or_else(|| Words {
                title: self.title.clone(),
                text: self.text.clone(),
            })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertificateView {
    pub en: String,
    pub vi: String,
}

/// The explanation of a wrong answer. With nothing found within the budget, `position`,
/// `expected`, `got` and `certificate` are `null`: an honest "no small counterexample".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// A complete input in the problem's format holding that one game.
    pub position: Option<String>,
    pub expected: Option<String>,
    pub got: Option<String>,
    pub certificate: Option<CertificateView>,
    pub misconception: Option<MisconceptionView>,
    /// Whether the counterexample is one of the large games kept for mistakes that no small
    /// game shows (floating point near the limits).
    pub large: bool,
    pub runs: u32,
    pub cpu_ms: u64,
    /// For answer submissions: each instance answered wrong, with its first wrong game (the
    /// fields above are the first of them). Absent for programs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<WrongInstanceView>,
    /// For answer submissions whose answers agree with a misconception: a small game outside the
    /// student's instances on which it goes wrong, explained (see
    /// [`explain::worked_example`]); what [`Explanation::without_answers`] shows instead of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<ExampleView>,
    /// The expected answers of the student's instances, and the certificates that prove them,
    /// are left out for this reader; the fields above are then [`Explanation::example`]'s.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withheld: bool,
}

/// One instance of an answer submission answered wrong, explained. Its expected answer and
/// certificate are `None` where they are withheld (see [`Explanation::without_answers`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrongInstanceView {
    pub name: String,
    pub position: String,
    pub expected: Option<String>,
    pub got: String,
    pub certificate: Option<CertificateView>,
}

/// A small game that a misconception gets wrong: the game as an input, the right answer, the
/// misconception's, and why the right one is right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExampleView {
    pub position: String,
    pub expected: String,
    pub got: String,
    pub certificate: CertificateView,
}

impl Explanation {
    /// `family`: the problem's, whose words the misconception is named in.
    pub fn from_finding(finding: explain::Finding, family: &str, cpu_ms: u64) -> Explanation {
        let found = finding.counterexample;
        Explanation {
            position: found.as_ref().map(|c| c.position.clone()),
            expected: found.as_ref().map(|c| c.expected.clone()),
            got: found.as_ref().map(|c| c.got.clone()),
            certificate: found.as_ref().map(|c| CertificateView {
                en: c.certificate.en.clone(),
                vi: c.certificate.vi.clone(),
            }),
            misconception: found
                .as_ref()
                .and_then(|c| c.misconception)
                .map(|m| MisconceptionView::of(m, family)),
            large: found.as_ref().is_some_and(|c| c.large),
            runs: finding.runs,
            cpu_ms,
            instances: Vec::new(),
            example: None,
            withheld: false,
        }
    }

    /// Explains an answer submission: `None` when the problem cannot explain or nothing is
    /// wrong. Nothing runs; the answers are compared game by game.
    pub fn of_answers(
        problem: &Problem,
        instances: &[grundy_problems::Instance],
        answers: &BTreeMap<String, String>,
    ) -> Option<Explanation> {
        let explainer = problem.explainer()?;
        let answered: Vec<(String, String, String)> = instances
            .iter()
            .filter_map(|i| {
                let answer = answers.get(&i.name)?;
                Some((i.name.clone(), i.input.clone(), answer.clone()))
            })
            .collect();
        let (wrong, misconception) =
            explain::explain_answers(explainer, case_sensitive(problem), &answered);
        let first = wrong.first()?;
        let certificate = |c: &explain::Certificate| CertificateView {
            en: c.en.clone(),
            vi: c.vi.clone(),
        };
        let theirs: Vec<&str> = instances.iter().map(|i| i.input.as_str()).collect();
        let example = misconception.and_then(|m| {
            explain::worked_example(explainer, case_sensitive(problem), m, &first.got, &theirs)
        });
        Some(Explanation {
            position: Some(first.position.clone()),
            expected: Some(first.expected.clone()),
            got: Some(first.got.clone()),
            certificate: Some(certificate(&first.certificate)),
            misconception: misconception.map(|m| MisconceptionView::of(m, &problem.spec.family)),
            large: false,
            runs: 0,
            cpu_ms: 0,
            instances: wrong
                .iter()
                .map(|w| WrongInstanceView {
                    name: w.name.clone(),
                    position: w.position.clone(),
                    expected: Some(w.expected.clone()),
                    got: w.got.clone(),
                    certificate: Some(certificate(&w.certificate)),
                })
                .collect(),
            example: example.map(|e| ExampleView {
                certificate: certificate(&e.certificate),
                position: e.position,
                expected: e.expected,
                got: e.got,
            }),
            withheld: false,
        })
    }

    pub fn found(&self) -> bool {
        self.position.is_some()
    }

    /// The explanation for a reader who may not see the expected answers of the student's own
    /// instances. An answer submission's keeps which game of each instance was answered wrong,
    /// what was answered there and the misconception; the expected answers go, and so do the
    /// certificates, which prove them (a certificate says what the first player eats, or that
    /// the nim-sum is 0). The game worked through is then [`Explanation::example`], none of
    /// theirs, or none. A program's explanation is about small games the search made up, never
    /// one of the tests, and stays whole.
    pub fn without_answers(self) -> Explanation {
        // Only an answer submission's explanation names instances, at least the one wrong.
        if self.instances.is_empty() {
            return self;
        }
        let example = self.example;
        Explanation {
            position: example.as_ref().map(|e| e.position.clone()),
            expected: example.as_ref().map(|e| e.expected.clone()),
            got: example.as_ref().map(|e| e.got.clone()),
            certificate: example.as_ref().map(|e| e.certificate.clone()),
            instances: self
                .instances
                .into_iter()
                .map(|w| WrongInstanceView {
                    expected: None,
                    certificate: None,
                    ..w
                })
                .collect(),
            example: None,
            withheld: true,
            ..self
        }
    }
}

/// Whether answers compare case by case, as the problem's token checker does.
fn case_sensitive(problem: &Problem) -> bool {
    problem.spec.checker.kind != CheckerKind::Tokens || problem.spec.checker.case_sensitive
}

/// What a run that did not end normally looks like to the student.
pub fn failure_words(report: &RunReport) -> Option<String> {
    Some(match report.status {
        Status::Ok => return None,
        Status::TimeLimit => "time limit exceeded".to_owned(),
        Status::MemoryLimit => "memory limit exceeded".to_owned(),
        Status::OutputLimit => "output limit exceeded".to_owned(),
        Status::RuntimeError => match (&report.exit_code, &report.signal) {
            (Some(code), _) => format!("runtime error (exit code {code})"),
            (_, Some(signal)) => format!("runtime error (killed by {signal})"),
            _ => "runtime error".to_owned(),
        },
        Status::SecurityViolation => "a forbidden system call".to_owned(),
        Status::InternalError => "the judge failed to run it".to_owned(),
    })
}

/// Runs a compiled program on explanation inputs within a budget, counting its CPU time.
pub(crate) struct BudgetedRunner<'a> {
    judge: &'a mut Judge,
    language: &'a Language,
    compiled: &'a Compiled,
    limits: Limits,
    budget: Budget,
    started: Instant,
    pub(crate) cpu: Duration,
    /// A judge fault (the sandbox failed): the search stops and the error is returned.
    pub(crate) fault: Option<JudgeError>,
}

impl BudgetedRunner<'_> {
    pub(crate) fn run(&mut self, input: &str) -> Attempt {
        let wall_left = self.budget.wall.saturating_sub(self.started.elapsed());
        let cpu_left = self.budget.cpu.saturating_sub(self.cpu);
        if self.fault.is_some() || wall_left.is_zero() || cpu_left.is_zero() {
            return Attempt::OutOfBudget;
        }
        let mut limits = self.limits;
        limits.cpu_ms = limits.cpu_ms.min(cpu_left.as_millis() as u64).max(1);
        limits.wall_ms = limits.wall_ms.min(wall_left.as_millis() as u64).max(1);
        match self.run_once(input, limits) {
            Ok(report) => {
                self.cpu += Duration::from_millis(report.cpu_ms);
                if report.status == Status::InternalError {
                    tracing::error!(
                        detail = report.detail.as_deref().unwrap_or("unknown"),
                        "the sandbox failed during an explanation"
                    );
                    self.fault = Some(JudgeError::Internal);
                    return Attempt::OutOfBudget;
                }
                match failure_words(&report) {
                    Some(words) => Attempt::Failed(words),
                    None => Attempt::Output(String::from_utf8_lossy(&report.stdout).into_owned()),
                }
            }
            Err(e) => {
                self.fault = Some(e);
                Attempt::OutOfBudget
            }
        }
    }

    fn run_once(&mut self, input: &str, limits: Limits) -> Result<RunReport, JudgeError> {
        let path = self.judge.scratch.path().join("explain.in");
        fs::write(&path, input)?;
        self.judge
            .run(self.language, self.compiled, Some(&path), None, limits)
    }
}

impl Judge {
    /// Explains why `source` is wrong on `problem`: `None` when the problem's family cannot
    /// explain (an uploaded package, a game without small positions listed). Compiles again,
    /// which the compilation cache makes cheap after judging.
    pub fn explain(
        &mut self,
        problem: &Problem,
        language: &Language,
        source: &[u8],
        budget: Budget,
    ) -> Result<Option<Explanation>, JudgeError> {
        let Some(explainer) = problem.explainer() else {
            return Ok(None);
        };
        let compiled = self.compile(language, source)?;
        if !compiled.result.ok {
            return Ok(None);
        }
        let bounds = Bounds {
            runs: budget.runs,
            ..Bounds::default()
        };
        self.run_explaining(
            problem,
            language,
            &compiled,
            budget,
            |case_sensitive, run| explain::search(explainer, case_sensitive, bounds, run),
        )
        .map(Some)
    }

    /// Checks `source` against the reference on `games` (one-game inputs, random small ones)
    /// for a student before they submit: the first it gets wrong, shrunk and explained.
    /// `progress` hears how many games are done.
    pub fn stress(
        &mut self,
        problem: &Problem,
        explainer: &dyn Explainer,
        language: &Language,
        compiled: &Compiled,
        games: &[String],
        progress: &mut dyn FnMut(usize),
    ) -> Result<Explanation, JudgeError> {
        let unbounded = Budget {
            runs: u32::MAX,
            cpu: Duration::MAX,
            wall: Duration::MAX,
        };
        self.run_explaining(
            problem,
            language,
            compiled,
            unbounded,
            |case_sensitive, run| explain::stress(explainer, case_sensitive, games, run, progress),
        )
    }

    /// Runs `search` with the compiled program as its "program", within `budget`, and turns
    /// what it found into an [`Explanation`]; a fault of the sandbox is the judge's error.
    fn run_explaining(
        &mut self,
        problem: &Problem,
        language: &Language,
        compiled: &Compiled,
        budget: Budget,
        search: impl FnOnce(bool, &mut dyn FnMut(&str) -> Attempt) -> explain::Finding,
    ) -> Result<Explanation, JudgeError> {
        let mut runner = BudgetedRunner {
            judge: self,
            language,
            compiled,
            limits: crate::problem_limits(problem),
            budget,
            started: Instant::now(),
            cpu: Duration::ZERO,
            fault: None,
        };
        let finding = search(case_sensitive(problem), &mut |input| runner.run(input));
        if let Some(fault) = runner.fault {
            return Err(fault);
        }
        Ok(Explanation::from_finding(
            finding,
            &problem.spec.family,
            runner.cpu.as_millis() as u64,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(family: &str, id: &str) -> MisconceptionView {
        let explainer = grundy_problems::families::by_name(family).unwrap();
        let misconception = explainer
            .explainer()
            .unwrap()
            .misconceptions()
            .into_iter()
            .find(|m| m.id == id)
            .unwrap();
        MisconceptionView::of(misconception, family)
    }

    #[test]
    fn a_misconception_is_stored_in_every_language_and_read_in_the_readers() {
        // Four families name `sum-parity`, each in its own words.
        let nim = named("nim", "sum-parity");
        let misere = named("misere-nim", "sum-parity");
        assert_eq!(nim.words("en").title, nim.title);
        assert!(nim.words("vi").text.contains("que diêm"), "{nim:?}");
        assert!(misere.words("vi").text.contains("John"), "{misere:?}");
        assert_ne!(nim.words("vi").text, misere.words("vi").text);
        // A language it is not written in reads as English.
        assert_eq!(nim.words("fr").text, nim.text);
        // Stored and read back, with the explanations stored before the translations.
        let stored = serde_json::to_string(&nim).unwrap();
        assert_eq!(
            serde_json::from_str::<MisconceptionView>(&stored).unwrap(),
            nim
        );
        let before: MisconceptionView =
            serde_json::from_str(r#"{"id":"sum-parity","title":"T","text":"X"}"#).unwrap();
        assert_eq!(before.words("vi").title, "T");
    }
}
