//! Comparing a contestant's output with the expected answer.

use std::fmt;

use crate::spec::{CheckerKind, CheckerSpec};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Accepted,
    WrongAnswer(Mismatch),
    /// The checker itself could not run (a judge fault, never the contestant's).
    CheckerFailed(String),
}

impl CheckOutcome {
    /// What went wrong, in full (quotes included), for the people who hold the tests; `None`
    /// when the output was accepted.
    pub fn complaint(&self) -> Option<String> {
        match self {
            CheckOutcome::Accepted => None,
            CheckOutcome::WrongAnswer(mismatch) => Some(mismatch.to_string()),
            CheckOutcome::CheckerFailed(why) => Some(why.clone()),
        }
    }
}

/// Why an output is wrong, for the contestant: `reason` names positions and rules, never test
/// data; `quote` is the piece of the contestant's own output it is about. The quote is shown
/// only on tests whose input the contestant sees anyway (samples, their personal instances): on
/// a hidden test a program that prints its input would read the test out through it, a piece
/// per submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    reason: String,
    quote: Option<String>,
}

impl Mismatch {
    pub fn new(reason: impl Into<String>) -> Mismatch {
        Mismatch {
            reason: reason.into(),
            quote: None,
        }
    }

    /// About `output`, a piece of the contestant's output (shortened when long).
    pub fn quoting(reason: impl Into<String>, output: &str) -> Mismatch {
        Mismatch {
            reason: reason.into(),
            quote: Some(shorten(output)),
        }
    }

    /// The message for a test whose input the contestant may see (`true`) or not.
    pub fn message(&self, input_visible: bool) -> String {
        match &self.quote {
            Some(quote) if input_visible => format!("{} (read \"{quote}\")", self.reason),
            _ => self.reason.clone(),
        }
    }
}

/// The whole message, quote included: for the people who hold the tests (verification, the
/// command line).
impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(true))
    }
}

/// Token comparison with the problem's settings; `None` for checkers that need the input or run
/// outside this process.
pub fn check_tokens(spec: &CheckerSpec, expected: &str, output: &str) -> Option<CheckOutcome> {
    match spec.kind {
        CheckerKind::Tokens => Some(compare_tokens(expected, output, spec.case_sensitive)),
        CheckerKind::Reference | CheckerKind::Custom => None,
    }
}

/// Whitespace-tolerant token comparison: any run of spaces, tabs and line ends separates tokens.
pub fn compare_tokens(expected: &str, output: &str, case_sensitive: bool) -> CheckOutcome {
    let mut want = expected.split_ascii_whitespace();
    let mut got = output.split_ascii_whitespace();
    for position in 1.. {
        match (want.next(), got.next()) {
            (None, None) => return CheckOutcome::Accepted,
            (Some(_), None) => {
                return CheckOutcome::WrongAnswer(Mismatch::new(format!(
                    "the output ends after {} token{}; more were expected",
                    position - 1,
                    if position == 2 { "" } else { "s" }
                )));
            }
            (None, Some(_)) => {
                return CheckOutcome::WrongAnswer(Mismatch::new(format!(
                    "token {position}: the output goes on after the expected answer"
                )));
            }
            (Some(w), Some(g)) => {
                let equal = if case_sensitive {
                    w == g
                } else {
                    w.eq_ignore_ascii_case(g)
                };
                if !equal {
                    return CheckOutcome::WrongAnswer(Mismatch::quoting(
                        format!("token {position}: not the expected answer"),
                        g,
                    ));
                }
            }
        }
    }
    unreachable!("the loop returns once both token streams end")
}

fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    if token.chars().count() <= MAX {
        token.to_string()
    } else {
        let head: String = token.chars().take(MAX).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_tolerated() {
        assert_eq!(
            compare_tokens("First\n", "  First", true),
            CheckOutcome::Accepted
        );
        assert_eq!(
            compare_tokens("1\n0\n", "1 0\r\n\n", true),
            CheckOutcome::Accepted
        );
        assert_eq!(compare_tokens("", "\n \t", true), CheckOutcome::Accepted);
    }

    fn message(outcome: CheckOutcome, input_visible: bool) -> String {
        match outcome {
            CheckOutcome::WrongAnswer(m) => m.message(input_visible),
            other => panic!("not a wrong answer: {other:?}"),
        }
    }

    #[test]
    fn mismatches_are_located() {
        assert_eq!(
            message(compare_tokens("Yes\nNo\n", "Yes\nYes\n", true), true),
            "token 2: not the expected answer (read \"Yes\")"
        );
        assert!(
            message(compare_tokens("1 2\n", "1\n", true), true).contains("ends after 1 token;")
        );
        assert!(message(compare_tokens("1\n", "1 2\n", true), true).contains("token 2"));
        let long = "x".repeat(100);
        assert!(message(compare_tokens("y\n", &long, true), true).len() < 100);
    }

    #[test]
    fn hidden_tests_quote_nothing_of_the_output() {
        let printed_input = "secret-input-line";
        let hidden = message(compare_tokens("7\n", printed_input, true), false);
        assert_eq!(hidden, "token 1: not the expected answer");
        assert!(!hidden.contains("secret"));
        let visible = message(compare_tokens("7\n", printed_input, true), true);
        assert!(visible.contains(printed_input));
    }

    #[test]
    fn case_sensitivity_is_a_setting() {
        assert!(matches!(
            compare_tokens("Yes\n", "yes\n", true),
            CheckOutcome::WrongAnswer(_)
        ));
        assert_eq!(
            compare_tokens("Yes\n", "YES\n", false),
            CheckOutcome::Accepted
        );
    }
}
