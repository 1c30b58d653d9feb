//! A game family: the Rust half of a problem. It knows the input format (strict parser and
//! renderer), how to generate tests from subtask parameters, the reference answer, and the
//! independent methods (brute force, closed form, another programme) that must agree with it.

use crate::check::CheckOutcome;
use crate::explain::Explainer;
use crate::play::{Board, Play};
use crate::seed::TestRng;
use crate::strict::ValidationError;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// One independent evaluation of an input: its name and its answer, or `None` when the input is
/// beyond what the method can handle (a brute force on a large input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCheck {
    pub method: &'static str,
    pub answer: Option<String>,
}

impl CrossCheck {
    pub fn new(method: &'static str, answer: Option<String>) -> Self {
        CrossCheck { method, answer }
    }
}

/// The typed interface each family implements.
pub trait Family: Send + Sync + 'static {
    type Input: Debug;
    /// Generator parameters of one subtask; they double as the subtask's extra constraints.
    type Params: DeserializeOwned + Debug;

    /// Parses and validates against the statement's format and limits.
    fn parse(&self, text: &str) -> Result<Self::Input, ValidationError>;
    /// The canonical text of an input; `parse(render(x))` gives `x` back.
    fn render(&self, input: &Self::Input) -> String;
    /// Checks that a subtask's parameters lie within the statement's limits.
    fn check_params(&self, params: &Self::Params) -> Result<(), String>;
    /// Checks an input against a subtask's extra constraints.
    fn fits(&self, input: &Self::Input, params: &Self::Params) -> Result<(), String>;
    /// Test `index` (0-based) of a subtask. Low indices are the traps and extremes, in a fixed
    /// order, so a subtask with enough tests reaches every one of them.
    fn generate(&self, params: &Self::Params, index: usize, rng: &mut TestRng) -> Self::Input;
    /// The reference answer, as the expected output file.
    fn solve(&self, input: &Self::Input) -> String;
    /// Independent evaluations that must equal `solve`.
    fn cross_checks(&self, input: &Self::Input) -> Vec<CrossCheck>;
    /// Inputs covering every small position, for exhaustive agreement with the brute force.
    fn small_positions(&self) -> Vec<Self::Input>;
    /// Whether [`Family::check_answer`] is implemented.
    fn has_reference_checker(&self) -> bool {
        false
    }
    /// For problems with several right answers: judges `output` by the game's rules and the
    /// reference. `None` means the family has no such checker (answers compare as tokens).
    fn check_answer(&self, _input: &Self::Input, _output: &str) -> Option<CheckOutcome> {
        None
    }
    /// How the family explains wrong answers, when it implements
    /// [`Explain`](crate::explain::Explain): `Some(self)`.
    fn explainer(&self) -> Option<&dyn Explainer> {
        None
    }
    /// For interactive problems: how the reference referees a test, `Some(self)` when the family
    /// implements [`Play`].
    fn play(&self) -> Option<&dyn Play> {
        None
    }
    /// The game position by position, for a person to play against the reference: an
    /// interactive problem's own game, or for a catalogue problem the same game on positions
    /// that fit on a page.
    fn board(&self) -> Option<&dyn Board> {
        self.play().and_then(Play::board)
    }
}

/// Subtask parameters after checking, type-erased.
pub struct Params(Box<dyn std::any::Any + Send + Sync>);

impl Debug for Params {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Params(..)")
    }
}

/// The object-safe view of a [`Family`] used by the catalogue, the judge and the CLI: text in,
/// text out.
pub trait Solver: Send + Sync {
    fn validate(&self, text: &str) -> Result<(), ValidationError>;
    fn solve_text(&self, text: &str) -> Result<String, ValidationError>;
    fn params(&self, table: &toml::Table) -> Result<Params, String>;
    /// Generates a test and its reference answer.
    fn generate_test(&self, params: &Params, index: usize, rng: &mut TestRng) -> (String, String);
    /// Parses once and evaluates everything verification needs: the reference answer, the
    /// subtask's extra constraints (when `params` is given) and the cross-checks.
    fn examine(&self, text: &str, params: Option<&Params>) -> Result<Examination, ValidationError>;
    fn small_positions_text(&self) -> Vec<String>;
    fn has_reference_checker(&self) -> bool;
    /// Runs the family's checker on `output` for the input `input`.
    fn check_text(&self, input: &str, output: &str) -> CheckOutcome;
    /// See [`Family::explainer`].
    fn explainer(&self) -> Option<&dyn Explainer>;
    /// See [`Family::play`].
    fn play(&self) -> Option<&dyn Play>;
    /// See [`Family::board`].
    fn board(&self) -> Option<&dyn Board>;
}

/// What [`Solver::examine`] found about one input.
#[derive(Debug)]
pub struct Examination {
    pub answer: String,
    pub fits: Result<(), String>,
    pub cross_checks: Vec<CrossCheck>,
}

impl<F: Family> Solver for F
where
    F::Params: Send + Sync,
{
    fn validate(&self, text: &str) -> Result<(), ValidationError> {
        self.parse(text).map(drop)
    }

    fn solve_text(&self, text: &str) -> Result<String, ValidationError> {
        Ok(self.solve(&self.parse(text)?))
    }

    fn params(&self, table: &toml::Table) -> Result<Params, String> {
        let params: F::Params = table
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        self.check_params(&params)?;
        Ok(Params(Box::new(params)))
    }

    fn generate_test(&self, params: &Params, index: usize, rng: &mut TestRng) -> (String, String) {
        let input = self.generate(typed::<F>(params), index, rng);
        (self.render(&input), self.solve(&input))
    }

    fn examine(&self, text: &str, params: Option<&Params>) -> Result<Examination, ValidationError> {
        let input = self.parse(text)?;
        Ok(Examination {
            answer: self.solve(&input),
            fits: params.map_or(Ok(()), |p| self.fits(&input, typed::<F>(p))),
            cross_checks: self.cross_checks(&input),
        })
    }

    fn small_positions_text(&self) -> Vec<String> {
        self.small_positions()
            .iter()
            .map(|i| self.render(i))
            .collect()
    }

    fn has_reference_checker(&self) -> bool {
        Family::has_reference_checker(self)
    }

    fn explainer(&self) -> Option<&dyn Explainer> {
        Family::explainer(self)
    }

    fn play(&self) -> Option<&dyn Play> {
        Family::play(self)
    }

    fn board(&self) -> Option<&dyn Board> {
        Family::board(self)
    }

    fn check_text(&self, input: &str, output: &str) -> CheckOutcome {
        match self.parse(input) {
            Err(e) => CheckOutcome::CheckerFailed(format!("the test input is invalid: {e}")),
            Ok(input) => self.check_answer(&input, output).unwrap_or_else(|| {
                CheckOutcome::CheckerFailed("this family has no reference checker".into())
            }),
        }
    }
}

fn typed<F: Family>(params: &Params) -> &F::Params {
    params
        .0
        .downcast_ref::<F::Params>()
        .expect("parameters are checked by the family that uses them")
}
