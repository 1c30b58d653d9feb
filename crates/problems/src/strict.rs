//! Strict reading of test input: the exact format of the statement, nothing more.
//!
//! Test files use single spaces between tokens, `\n` line ends and a final newline; integers are
//! written canonically (no sign on non-negative numbers, no leading zeros). Every rejection names
//! the line and the rule it breaks, so a teacher fixing a hand-written test knows where to look.

use std::fmt::Display;
use std::ops::RangeInclusive;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {rule}")]
pub struct ValidationError {
    /// 1-based line number; the line after the last one for "missing input" errors.
    pub line: usize,
    pub rule: String,
}

impl ValidationError {
    pub fn new(line: usize, rule: impl Into<String>) -> Self {
        ValidationError {
            line,
            rule: rule.into(),
        }
    }
}

/// Integer types a field can be read as.
pub trait Integer: Copy + Display + PartialOrd + TryFrom<i128> + Into<i128> {}
impl<T: Copy + Display + PartialOrd + TryFrom<i128> + Into<i128>> Integer for T {}

/// A cursor over the lines of an input file.
#[derive(Debug)]
pub struct StrictReader<'a> {
    rest: &'a str,
    line_number: usize,
}

impl<'a> StrictReader<'a> {
    /// Checks the whole-file rules (character set, line ends, final newline) up front.
    pub fn new(text: &'a str) -> Result<Self, ValidationError> {
        if text.is_empty() {
            return Err(ValidationError::new(1, "the input is empty"));
        }
        let mut line = 1;
        for byte in text.bytes() {
            match byte {
                b'\n' => line += 1,
                b'\r' => {
                    return Err(ValidationError::new(
                        line,
                        "lines must end with \\n alone (found \\r)",
                    ));
                }
                b' '..=b'~' => {}
                b'\t' => return Err(ValidationError::new(line, "tabs are not allowed")),
                other => {
                    return Err(ValidationError::new(
                        line,
                        format!("unexpected byte 0x{other:02x} (only printable ASCII is allowed)"),
                    ));
                }
            }
        }
        if !text.ends_with('\n') {
            return Err(ValidationError::new(
                line,
                "the last line must end with a newline",
            ));
        }
        Ok(StrictReader {
            rest: text,
            line_number: 0,
        })
    }

    /// Whether every line has been read.
    pub fn at_eof(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next line, described by `what` in the error when the input ends early.
    pub fn line(&mut self, what: &str) -> Result<Line<'a>, ValidationError> {
        let Some(end) = self.rest.find('\n') else {
            return Err(ValidationError::new(
                self.line_number + 1,
                format!("expected {what}, found the end of the input"),
            ));
        };
        let text = &self.rest[..end];
        self.rest = &self.rest[end + 1..];
        self.line_number += 1;
        Line::new(text, self.line_number)
    }

    /// The next line, which must be empty (a separator between test cases).
    pub fn blank_line(&mut self, what: &str) -> Result<(), ValidationError> {
        let number = self.line_number + 1;
        match self.rest.find('\n') {
            Some(0) => {
                self.rest = &self.rest[1..];
                self.line_number = number;
                Ok(())
            }
            Some(_) => Err(ValidationError::new(
                number,
                format!("expected an empty line ({what})"),
            )),
            None => Err(ValidationError::new(
                number,
                format!("expected an empty line ({what}), found the end of the input"),
            )),
        }
    }

    /// A line holding exactly one integer.
    pub fn single<T: Integer>(
        &mut self,
        name: &str,
        range: RangeInclusive<T>,
    ) -> Result<T, ValidationError> {
        let line = self.line(&format!("the line \"{name}\""))?;
        line.expect_len(1, name)?;
        line.int(0, name, range)
    }

    /// A line of exactly two integers, named and bounded.
    pub fn pair<A: Integer, B: Integer>(
        &mut self,
        (first, first_range): (&str, RangeInclusive<A>),
        (second, second_range): (&str, RangeInclusive<B>),
    ) -> Result<(A, B), ValidationError> {
        let what = format!("{first} {second}");
        let line = self.line(&format!("the line \"{what}\""))?;
        line.expect_len(2, &what)?;
        Ok((
            line.int(0, first, first_range)?,
            line.int(1, second, second_range)?,
        ))
    }

    /// A line of exactly `count` integers named `name_1 … name_count`.
    pub fn values<T: Integer>(
        &mut self,
        name: &str,
        count: usize,
        range: RangeInclusive<T>,
    ) -> Result<Vec<T>, ValidationError> {
        let what = format!("{name}_1 … {name}_{count}");
        let line = self.line(&format!("the line of {what}"))?;
        line.expect_len(count, &what)?;
        line.ints(name, range)
    }

    /// Fails unless the input has been read completely.
    pub fn expect_eof(&self) -> Result<(), ValidationError> {
        if self.at_eof() {
            Ok(())
        } else {
            Err(ValidationError::new(
                self.line_number + 1,
                "expected the end of the input, found another line",
            ))
        }
    }

    /// Number of the line read last.
    pub fn line_number(&self) -> usize {
        self.line_number
    }
}

/// One line, split on single spaces.
#[derive(Debug)]
pub struct Line<'a> {
    pub number: usize,
    fields: Vec<&'a str>,
}

impl<'a> Line<'a> {
    fn new(text: &'a str, number: usize) -> Result<Self, ValidationError> {
        if text.is_empty() {
            return Err(ValidationError::new(number, "empty lines are not allowed"));
        }
        if text.starts_with(' ') || text.ends_with(' ') {
            return Err(ValidationError::new(
                number,
                "no space is allowed at the start or end of a line",
            ));
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.iter().any(|f| f.is_empty()) {
            return Err(ValidationError::new(
                number,
                "tokens must be separated by exactly one space",
            ));
        }
        Ok(Line { number, fields })
    }

    pub fn error(&self, rule: impl Into<String>) -> ValidationError {
        ValidationError::new(self.number, rule)
    }

    /// Fails unless the line has exactly `count` tokens, described by `what`.
    pub fn expect_len(&self, count: usize, what: &str) -> Result<(), ValidationError> {
        if self.fields.len() == count {
            Ok(())
        } else {
            Err(self.error(format!(
                "expected {count} token{} ({what}), found {}",
                if count == 1 { "" } else { "s" },
                self.fields.len()
            )))
        }
    }

    /// The raw token at `index`.
    pub fn token(&self, index: usize) -> &'a str {
        self.fields[index]
    }

    /// The token at `index` as an integer named `name`, within `range`.
    pub fn int<T: Integer>(
        &self,
        index: usize,
        name: &str,
        range: RangeInclusive<T>,
    ) -> Result<T, ValidationError> {
        self.int_named(index, || name.to_string(), &range)
    }

    /// As [`Line::int`], building the name only for an error message: a line of 10⁶ numbers
    /// must not format 10⁶ names.
    fn int_named<T: Integer>(
        &self,
        index: usize,
        name: impl Fn() -> String,
        range: &RangeInclusive<T>,
    ) -> Result<T, ValidationError> {
        let token = self.fields[index];
        let outside = || {
            self.error(format!(
                "{} = {token} is outside {}..={}",
                name(),
                range.start(),
                range.end()
            ))
        };
        let value = match parse_canonical(token) {
            Token::Value(value) => value,
            Token::Huge => return Err(outside()),
            Token::NotCanonical => {
                return Err(self.error(format!(
                    "{} = \"{token}\" is not an integer written in canonical form",
                    name()
                )));
            }
        };
        let (low, high) = (
            Into::<i128>::into(*range.start()),
            Into::<i128>::into(*range.end()),
        );
        if value < low || value > high {
            return Err(outside());
        }
        T::try_from(value).map_err(|_| outside())
    }

    /// Every token as an integer named `name_i` (1-based), each within `range`.
    pub fn ints<T: Integer>(
        &self,
        name: &str,
        range: RangeInclusive<T>,
    ) -> Result<Vec<T>, ValidationError> {
        (0..self.fields.len())
            .map(|i| self.int_named(i, || format!("{name}_{}", i + 1), &range))
            .collect()
    }
}

/// A token read as an integer.
enum Token {
    Value(i128),
    /// Canonical, but beyond any range a format uses.
    Huge,
    NotCanonical,
}

/// Parses `-?[1-9][0-9]*|0`; anything else is not canonical.
fn parse_canonical(token: &str) -> Token {
    let digits = token.strip_prefix('-').unwrap_or(token);
    let negative = digits.len() != token.len();
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
        || (negative && digits == "0")
    {
        return Token::NotCanonical;
    }
    let magnitude = digits.bytes().try_fold(0i128, |acc, b| {
        acc.checked_mul(10)?.checked_add(i128::from(b - b'0'))
    });
    match magnitude {
        Some(m) => Token::Value(if negative { -m } else { m }),
        None => Token::Huge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_line(text: &str) -> Result<Line<'_>, ValidationError> {
        StrictReader::new(text)?.line("a line")
    }

    #[test]
    fn whole_file_rules() {
        assert_eq!(
            StrictReader::new("").unwrap_err().rule,
            "the input is empty"
        );
        assert_eq!(StrictReader::new("1 2\r\n").unwrap_err().line, 1);
        assert!(
            StrictReader::new("1 2")
                .unwrap_err()
                .rule
                .contains("newline")
        );
        assert!(
            StrictReader::new("1\t2\n")
                .unwrap_err()
                .rule
                .contains("tabs")
        );
        assert!(
            StrictReader::new("1\n2\u{e9}\n")
                .unwrap_err()
                .rule
                .contains("0xc3")
        );
        assert_eq!(StrictReader::new("1\n\u{0}\n").unwrap_err().line, 2);
    }

    #[test]
    fn line_rules() {
        assert!(first_line("\n").unwrap_err().rule.contains("empty"));
        assert!(
            first_line(" 1\n")
                .unwrap_err()
                .rule
                .contains("start or end")
        );
        assert!(
            first_line("1 \n")
                .unwrap_err()
                .rule
                .contains("start or end")
        );
        assert!(
            first_line("1  2\n")
                .unwrap_err()
                .rule
                .contains("exactly one space")
        );
        let line = first_line("1 2 3\n").unwrap();
        assert!(
            line.expect_len(2, "N K")
                .unwrap_err()
                .rule
                .contains("expected 2 tokens")
        );
    }

    #[test]
    fn integer_rules() {
        let huge = "9".repeat(60);
        let text = format!("007 -0 +5 12 -3 x {huge}\n");
        let line = first_line(&text).unwrap();
        assert_eq!(
            line.int::<u64>(6, "v", 0..=5).unwrap_err().rule,
            format!("v = {huge} is outside 0..=5")
        );
        for index in [0, 1, 2, 5] {
            assert!(
                line.int::<i64>(index, "v", -100..=100)
                    .unwrap_err()
                    .rule
                    .contains("canonical")
            );
        }
        assert_eq!(line.int::<i64>(3, "v", 0..=12).unwrap(), 12);
        assert!(
            line.int::<i64>(3, "v", 0..=11)
                .unwrap_err()
                .rule
                .contains("outside 0..=11")
        );
        assert_eq!(line.int::<i64>(4, "v", -3..=0).unwrap(), -3);
        assert!(line.int::<u64>(4, "v", 0..=5).is_err());
    }

    #[test]
    fn blank_lines_and_helpers() {
        let mut reader = StrictReader::new("2\n\n1 2\nx\n").unwrap();
        assert_eq!(reader.single::<u32>("T", 1..=5).unwrap(), 2);
        reader.blank_line("between tests").unwrap();
        assert_eq!(reader.values::<u32>("a", 2, 1..=2).unwrap(), vec![1, 2]);
        assert_eq!(
            reader.blank_line("between tests").unwrap_err().rule,
            "expected an empty line (between tests)"
        );
        let mut reader = StrictReader::new("1 2\n").unwrap();
        assert_eq!(
            reader.single::<u32>("n", 1..=5).unwrap_err().rule,
            "expected 1 token (n), found 2"
        );
    }

    #[test]
    fn end_of_input() {
        let mut reader = StrictReader::new("1\n2\n").unwrap();
        reader.line("first").unwrap();
        assert_eq!(reader.expect_eof().unwrap_err().line, 2);
        reader.line("second").unwrap();
        reader.expect_eof().unwrap();
        let missing = reader.line("the third line").unwrap_err();
        assert_eq!(
            (missing.line, missing.rule.as_str()),
            (3, "expected the third line, found the end of the input")
        );
    }
}
