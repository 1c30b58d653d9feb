//! Comparing a contestant's output with the expected answer.

use crate::spec::{CheckerKind, CheckerSpec};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    Accepted,
    /// With a message that may be shown to the contestant: it names positions, never test data
    /// beyond the contestant's own output.
    WrongAnswer(String),
    /// The checker itself could not run (a judge fault, never the contestant's).
    CheckerFailed(String),
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
                return CheckOutcome::WrongAnswer(format!(
                    "the output ends after {} token{}; more were expected",
                    position - 1,
                    if position == 2 { "" } else { "s" }
                ));
            }
            (None, Some(_)) => {
                return CheckOutcome::WrongAnswer(format!(
                    "token {position}: the output goes on after the expected answer"
                ));
            }
            (Some(w), Some(g)) => {
                let equal = if case_sensitive {
                    w == g
                } else {
                    w.eq_ignore_ascii_case(g)
                };
                if !equal {
                    return CheckOutcome::WrongAnswer(format!(
                        "token {position}: read \"{}\", which is not the expected answer",
                        shorten(g)
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

    #[test]
    fn mismatches_are_located() {
        assert_eq!(
            compare_tokens("Yes\nNo\n", "Yes\nYes\n", true),
            CheckOutcome::WrongAnswer(
                "token 2: read \"Yes\", which is not the expected answer".into()
            )
        );
        assert!(
            matches!(compare_tokens("1 2\n", "1\n", true), CheckOutcome::WrongAnswer(m) if m.contains("ends after 1 token;"))
        );
        assert!(
            matches!(compare_tokens("1\n", "1 2\n", true), CheckOutcome::WrongAnswer(m) if m.contains("token 2"))
        );
        let long = "x".repeat(100);
        assert!(
            matches!(compare_tokens("y\n", &long, true), CheckOutcome::WrongAnswer(m) if m.len() < 100)
        );
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
