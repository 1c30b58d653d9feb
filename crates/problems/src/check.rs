//! Comparing a contestant's output with the expected answer.

use std::fmt;

use crate::spec::{CheckerKind, CheckerSpec, PLAIN_LINES};

mod vietnamese;
pub use vietnamese::vietnamese;

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
/// data; `detail` says the same with the test's data quoted (the expected answer, the piece of
/// the contestant's output it is about). The detail is shown only on tests whose data the
/// contestant sees anyway (samples, their personal instances): on a hidden test a program that
/// prints its input would read the test out through a quote of its output, a piece per
/// submission, and the expected answer is the test's own secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    reason: String,
    detail: Option<String>,
}

impl Mismatch {
    pub fn new(reason: impl Into<String>) -> Mismatch {
        Mismatch {
            reason: reason.into(),
            detail: None,
        }
    }

    /// About `output`, a piece of the contestant's output (shortened when long).
    pub fn quoting(reason: impl Into<String>, output: &str) -> Mismatch {
        let reason = reason.into();
        Mismatch {
            detail: Some(format!("{reason} (read {})", quote(output))),
            reason,
        }
    }

    /// `reason` for every test, `detail` (which may quote the test's data) where it is seen.
    pub fn with_detail(reason: impl Into<String>, detail: impl Into<String>) -> Mismatch {
        Mismatch {
            reason: reason.into(),
            detail: Some(detail.into()),
        }
    }

    /// The message for every reader of the test's row: places and rules, no test data.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The message with the test's data quoted, where there is any to quote: for the readers who
    /// may see the test's data.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// The message for a test whose data the contestant may see (`true`) or not.
    pub fn message(&self, data_visible: bool) -> String {
        match &self.detail {
            Some(detail) if data_visible => detail.clone(),
            _ => self.reason.clone(),
        }
    }
}

/// The whole message, quotes included: for the people who hold the tests (verification, the
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
        CheckerKind::Tokens => Some(compare_tokens(
            expected,
            output,
            spec.case_sensitive,
            &spec.line_answers,
        )),
        CheckerKind::Reference | CheckerKind::Custom => None,
    }
}

/// Whitespace-tolerant token comparison: any run of spaces, tabs and line ends separates tokens,
/// so the verdict never depends on how the output is laid out. Only the messages read the lines:
/// where one line of the answer answers one `line_answers` (a game, a test case), a mismatch is
/// named by it and by the line of the output where it was read (`game 2 (line 2)`); with
/// [`PLAIN_LINES`] by the output's line and, where a line holds several words, the word.
pub fn compare_tokens(
    expected: &str,
    output: &str,
    case_sensitive: bool,
    line_answers: &str,
) -> CheckOutcome {
    let answer = Answer::of(expected);
    let got = words(output);
    let place = Place {
        unit: (line_answers != PLAIN_LINES).then_some(line_answers),
        answer: &answer,
        got: &got,
    };
    let equal = |w: &str, g: &str| {
        if case_sensitive {
            w == g
        } else {
            w.eq_ignore_ascii_case(g)
        }
    };
    for (at, want) in answer.words.iter().enumerate() {
        match got.get(at) {
            None => return CheckOutcome::WrongAnswer(place.ends_early(at)),
            Some(g) if !equal(want.text, g.text) => {
                return CheckOutcome::WrongAnswer(place.differs(at, case_sensitive));
            }
            Some(_) => {}
        }
    }
    match got.get(answer.words.len()) {
        Some(extra) => CheckOutcome::WrongAnswer(place.goes_on(extra)),
        None => CheckOutcome::Accepted,
    }
}

/// A whitespace-separated word and where it stands: its line (from 1, as an editor counts) and
/// its place in that line (from 1).
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

fn words(text: &str) -> Vec<Word<'_>> {
    text.split('\n')
        .enumerate()
        .flat_map(|(l, line)| {
            line.split_ascii_whitespace()
                .enumerate()
                .map(move |(c, text)| Word {
                    text,
                    line: l + 1,
                    column: c + 1,
                })
        })
        .collect()
}

/// The expected answer: its words, and its lines that hold any, numbered from 1 (the number of
/// the game a line answers).
struct Answer<'a> {
    words: Vec<Word<'a>>,
    /// The lines with words, in order: each one's text and the index of its first word.
    lines: Vec<(&'a str, usize)>,
}

impl<'a> Answer<'a> {
    fn of(expected: &'a str) -> Answer<'a> {
        let words = words(expected);
        let mut lines: Vec<(&str, usize)> = Vec::new();
        let text: Vec<&str> = expected.split('\n').collect();
        for (at, word) in words.iter().enumerate() {
            if word.column == 1 {
                lines.push((text[word.line - 1].trim(), at));
            }
        }
        Answer { words, lines }
    }

    /// The answer line (from 1) of word `at`, its text and the range of its words.
    fn line_of(&self, at: usize) -> (usize, &'a str, std::ops::Range<usize>) {
        let n = self.lines.partition_point(|&(_, first)| first <= at);
        let (text, first) = self.lines[n - 1];
        let end = self
            .lines
            .get(n)
            .map_or(self.words.len(), |&(_, next)| next);
        (n, text, first..end)
    }
}

/// Names the places of a comparison in the problem's terms.
struct Place<'a, 'b> {
    /// What one answer line answers (`game`); `None` for plain lines.
    unit: Option<&'a str>,
    answer: &'b Answer<'a>,
    got: &'b [Word<'a>],
}

impl Place<'_, '_> {
    /// The output's words from `range` (those that should have answered it), as read.
    fn read(&self, range: std::ops::Range<usize>) -> String {
        let end = range.end.min(self.got.len());
        let start = range.start.min(end);
        let words: Vec<&str> = self.got[start..end].iter().map(|w| w.text).collect();
        words.join(" ")
    }

    /// Word `at` of the answer is not what the output has there.
    fn differs(&self, at: usize, case_sensitive: bool) -> Mismatch {
        let got = self.got[at];
        let want = self.answer.words[at];
        match self.unit {
            Some(unit) => {
                let (n, line, range) = self.answer.line_of(at);
                let place = format!("{unit} {n} (line {})", got.line);
                Mismatch::with_detail(
                    format!("{place} is wrong"),
                    format!(
                        "{place}: expected {}, read {}",
                        quote(line),
                        quote(&self.read(range))
                    ),
                )
            }
            None => {
                let several = self
                    .got
                    .get(at + 1)
                    .is_some_and(|next| next.line == got.line)
                    || got.column > 1
                    || self.answer.line_of(at).2.len() > 1;
                let mut place = format!("line {}", got.line);
                if several {
                    place.push_str(&format!(", word {}", got.column));
                }
                match first_difference(want.text, got.text, case_sensitive) {
                    // A long word (a string of letters): where it first differs, and the
                    // stretch from there.
                    Some(from) if want.text.len().max(got.text.len()) > QUOTE_CHARS => {
                        Mismatch::with_detail(
                            format!("{place} is wrong from character {}", from + 1),
                            format!(
                                "{place}, from character {}: expected {}, read {}",
                                from + 1,
                                quote_from(want.text, from),
                                quote_from(got.text, from)
                            ),
                        )
                    }
                    _ => Mismatch::with_detail(
                        format!("{place} is wrong"),
                        format!(
                            "{place}: expected {}, read {}",
                            quote(want.text),
                            quote(got.text)
                        ),
                    ),
                }
            }
        }
    }

    /// The output ends where word `at` of the answer was due.
    fn ends_early(&self, at: usize) -> Mismatch {
        let (n, line, range) = self.answer.line_of(at);
        let Some(last) = self.got.last() else {
            return Mismatch::with_detail(
                "the output is empty",
                format!("the output is empty; expected {}", quote(line)),
            );
        };
        let reason = match self.unit {
            Some(unit) if range.start == at => format!("the output ends before {unit} {n}"),
            Some(unit) => format!("the output ends in the middle of {unit} {n}"),
            None => format!(
                "the output ends after line {}, before the answer is complete",
                last.line
            ),
        };
        let detail = match self.unit {
            Some(_) => format!("{reason}; expected {}", quote(line)),
            None => format!(
                "{reason}; expected {} next",
                quote(self.answer.words[at].text)
            ),
        };
        Mismatch::with_detail(reason, detail)
    }

    /// The output goes on, with `extra`, after the whole answer.
    fn goes_on(&self, extra: &Word<'_>) -> Mismatch {
        let after = match self.unit {
            Some(unit) => format!("the last {unit}"),
            None => "the expected answer".to_owned(),
        };
        let reason = format!("the output goes on after {after}, at line {}", extra.line);
        Mismatch::with_detail(
            reason.clone(),
            format!("{reason}: read {}", quote(extra.text)),
        )
    }
}

/// The first character (from 0) where `a` and `b` differ, `None` when they are equal.
fn first_difference(a: &str, b: &str, case_sensitive: bool) -> Option<usize> {
    let same = |x: &char, y: &char| {
        if case_sensitive {
            x == y
        } else {
            x.eq_ignore_ascii_case(y)
        }
    };
    let mut a = a.chars();
    let mut b = b.chars();
    for at in 0.. {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if same(&x, &y) => {}
            _ => return Some(at),
        }
    }
    unreachable!("the loop returns once both words end")
}

/// At most this many characters of a word or line are quoted.
const QUOTE_CHARS: usize = 40;

/// `text` in quotes, shortened when long.
fn quote(text: &str) -> String {
    format!("\"{}\"", shorten(text))
}

/// `text` from a few characters before character `from`, in quotes.
fn quote_from(text: &str, from: usize) -> String {
    const BEFORE: usize = 10;
    let skip = from.saturating_sub(BEFORE);
    let rest: String = text.chars().skip(skip).collect();
    let lead = if skip > 0 { "…" } else { "" };
    format!("\"{lead}{}\"", shorten(&rest))
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= QUOTE_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(expected: &str, output: &str) -> CheckOutcome {
        compare_tokens(expected, output, true, PLAIN_LINES)
    }

    fn games(expected: &str, output: &str) -> CheckOutcome {
        compare_tokens(expected, output, true, "game")
    }

    #[test]
    fn whitespace_is_tolerated() {
        assert_eq!(plain("First\n", "  First"), CheckOutcome::Accepted);
        assert_eq!(plain("1\n0\n", "1 0\r\n\n"), CheckOutcome::Accepted);
        assert_eq!(plain("", "\n \t"), CheckOutcome::Accepted);
        // The layout never changes the verdict, whatever a line answers.
        assert_eq!(games("Yes\nNo\n", "Yes No"), CheckOutcome::Accepted);
    }

    /// The message on a test whose data is seen (`true`) or hidden.
    fn message(outcome: CheckOutcome, visible: bool) -> String {
        match outcome {
            CheckOutcome::WrongAnswer(m) => m.message(visible),
            other => panic!("not a wrong answer: {other:?}"),
        }
    }

    #[test]
    fn a_wrong_game_is_named_by_its_number_and_line() {
        let wrong = || games("Yes\nNo\nYes\n", "Yes\nYes\nYes\n");
        assert_eq!(
            message(wrong(), true),
            "game 2 (line 2): expected \"No\", read \"Yes\""
        );
        assert_eq!(message(wrong(), false), "game 2 (line 2) is wrong");
        // Another unit, and an answer of several words quoted whole.
        let staircase = compare_tokens(
            "Bob will win\nGeorgia will win\n",
            "Bob will win\nBob will win\n",
            true,
            "test case",
        );
        assert_eq!(
            message(staircase, true),
            "test case 2 (line 2): expected \"Georgia will win\", read \"Bob will win\""
        );
        // The line is the output's: where the wrong word was read.
        assert_eq!(
            message(games("Yes\nNo\n", "Yes Yes\n"), true),
            "game 2 (line 1): expected \"No\", read \"Yes\""
        );
    }

    #[test]
    fn missing_and_extra_games_are_named_too() {
        let short = || games("Yes\nNo\nYes\n", "Yes\nNo\n");
        assert_eq!(message(short(), false), "the output ends before game 3");
        assert_eq!(
            message(short(), true),
            "the output ends before game 3; expected \"Yes\""
        );
        assert_eq!(
            message(
                compare_tokens("Bob will win\n", "Bob will", true, "game"),
                false
            ),
            "the output ends in the middle of game 1"
        );
        let long = || games("Yes\n", "Yes\n\nNo\n");
        assert_eq!(
            message(long(), false),
            "the output goes on after the last game, at line 3"
        );
        assert_eq!(
            message(long(), true),
            "the output goes on after the last game, at line 3: read \"No\""
        );
        assert_eq!(message(games("Yes\n", ""), false), "the output is empty");
        assert_eq!(
            message(games("Yes\n", " \n"), true),
            "the output is empty; expected \"Yes\""
        );
    }

    #[test]
    fn plain_lines_are_named_by_line_and_word() {
        assert_eq!(
            message(plain("First\n", "Second\n"), true),
            "line 1: expected \"First\", read \"Second\""
        );
        assert_eq!(
            message(plain("First\n", "Second\n"), false),
            "line 1 is wrong"
        );
        // A list of cells: the word in the line.
        let cells = || plain("WIN\n1 2\n2 4\n", "WIN\n1 2\n2 5\n");
        assert_eq!(
            message(cells(), true),
            "line 3, word 2: expected \"4\", read \"5\""
        );
        assert_eq!(message(cells(), false), "line 3, word 2 is wrong");
        assert_eq!(
            message(plain("1 2\n", "1\n"), false),
            "the output ends after line 1, before the answer is complete"
        );
        assert_eq!(
            message(plain("1\n", "1 2\n"), false),
            "the output goes on after the expected answer, at line 1"
        );
    }

    #[test]
    fn a_long_string_is_located_by_its_first_different_character() {
        let want = format!("{}W{}", "L".repeat(56), "L".repeat(100));
        let got = format!("{}L{}", "L".repeat(56), "L".repeat(100));
        let wrong = || plain(&want, &got);
        assert_eq!(message(wrong(), false), "line 1 is wrong from character 57");
        let shown = message(wrong(), true);
        assert!(
            shown.starts_with("line 1, from character 57: expected \"…LLLLLLLLLLW"),
            "{shown}"
        );
        assert!(shown.contains("read \"…LLLLLLLLLLL"), "{shown}");
        assert!(shown.len() < 150, "{shown}");
    }

    #[test]
    fn no_message_says_token() {
        let outcomes = [
            plain("First\n", "Second\n"),
            plain("1 2\n", "1\n"),
            plain("1\n", "1 2\n"),
            plain("1\n", ""),
            games("Yes\nNo\n", "Yes\nYes\n"),
            games("Yes\nNo\n", "Yes\n"),
            games("Yes\n", "Yes\nNo\n"),
        ];
        for outcome in outcomes {
            for visible in [true, false] {
                let said = message(outcome.clone(), visible);
                assert!(!said.contains("token"), "{said}");
            }
        }
    }

    #[test]
    fn hidden_tests_quote_nothing_of_the_output_or_the_answer() {
        let printed_input = "secret-input-line";
        for unit in [PLAIN_LINES, "game"] {
            let outcome = || compare_tokens("Seven\nEight\n", printed_input, true, unit);
            let hidden = message(outcome(), false);
            assert!(!hidden.contains("secret"), "{hidden}");
            assert!(!hidden.contains("Seven"), "{hidden}");
            let visible = message(outcome(), true);
            assert!(visible.contains(printed_input), "{visible}");
            assert!(visible.contains("Seven"), "{visible}");
        }
        let long = "x".repeat(100);
        let visible = message(plain("y\n", &long), true);
        assert!(visible.len() < 100, "{visible}");
    }

    #[test]
    fn case_sensitivity_is_a_setting() {
        assert!(matches!(
            plain("Yes\n", "yes\n"),
            CheckOutcome::WrongAnswer(_)
        ));
        assert_eq!(
            compare_tokens("Yes\n", "YES\n", false, "test"),
            CheckOutcome::Accepted
        );
    }

    #[test]
    fn line_answers_are_a_few_lower_case_words() {
        use crate::spec::is_valid_line_answers;
        for good in ["game", "test case", "heap size", "query", PLAIN_LINES] {
            assert!(is_valid_line_answers(good), "{good}");
        }
        for bad in [
            "",
            "Game",
            "test  case",
            " game",
            "game 2",
            "a b c d",
            &"a".repeat(25),
        ] {
            assert!(!is_valid_line_answers(bad), "{bad:?}");
        }
    }
}
