//! The strict reader every validator is built on, against a model of its rules written here
//! from the format's description (`grundy_problems::strict`): a fuzzed program of reads over a
//! fuzzed text must get the model's values, and fail where the model fails, on the same line.
//!
//! Input: a byte `n`, then `n % 16` operation bytes, then the text.

#![no_main]

use grundy_problems::strict::{StrictReader, ValidationError};
use libfuzzer_sys::fuzz_target;
use std::ops::RangeInclusive;

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let ops = usize::from(count % 16).min(rest.len());
    let (ops, text) = rest.split_at(ops);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let reader = StrictReader::new(text);
    let model = Model::new(text);
    let (mut reader, mut model) = match (reader, model) {
        (Ok(reader), Ok(model)) => (reader, model),
        (Err(e), Err(line)) => return assert_eq!(e.line, line, "{e}"),
        (reader, model) => panic!("the reader gives {reader:?}, the model {model:?}"),
    };
    for &op in ops {
        let high = usize::from(op >> 3);
        let agreed = match op % 8 {
            0 => same(
                reader
                    .line("a line")
                    .and_then(|l| l.ints::<i64>("v", i64::MIN..=i64::MAX))
                    .map(widen),
                model.ints(None, |_| i64::MIN.into()..=i64::MAX.into()),
            ),
            1 => same(
                reader.blank_line("a separator").map(|()| Vec::new()),
                model.blank_line().map(|()| Vec::new()),
            ),
            2 => {
                let high = [0, 1, 100, u32::MAX][high % 4];
                same(
                    reader.single::<u32>("n", 0..=high).map(|n| vec![n.into()]),
                    model.ints(Some(1), |_| 0..=high.into()),
                )
            }
            3 => {
                let bound = [0, 9, 1 << 40, i64::MAX][high % 4];
                same(
                    reader
                        .pair(("a", 0..=u64::MAX), ("b", -bound..=bound))
                        .map(|(a, b)| vec![a.into(), b.into()]),
                    model.ints(Some(2), |i| match i {
                        0 => 0..=u64::MAX.into(),
                        _ => (-bound).into()..=bound.into(),
                    }),
                )
            }
            4 => {
                let count = high % 4;
                same(
                    reader.values::<i32>("x", count, -1000..=1000).map(widen),
                    model.ints(Some(count), |_| -1000..=1000),
                )
            }
            5 => same(
                reader.expect_eof().map(|()| Vec::new()),
                model.eof().map(|()| Vec::new()),
            ),
            6 => {
                assert_eq!(reader.at_eof(), model.next == model.lines.len());
                true
            }
            _ => {
                assert_eq!(reader.line_number(), model.next);
                true
            }
        };
        if !agreed {
            // Both failed on the same line; validators stop at the first failure.
            return;
        }
    }
});

fn widen<T: Into<i128>>(values: Vec<T>) -> Vec<i128> {
    values.into_iter().map(Into::into).collect()
}

/// Compares a read with the model's answer (the values, or the line of the failure): true when
/// both read the same values, false when both failed on the same line.
fn same(read: Result<Vec<i128>, ValidationError>, model: Result<Vec<i128>, usize>) -> bool {
    match (read, model) {
        (Ok(values), Ok(expected)) if values == expected => true,
        (Err(e), Err(line)) if e.line == line => false,
        (read, model) => panic!("the reader gives {read:?}, the model {model:?}"),
    }
}

/// The format's rules, read directly off the text.
#[derive(Debug)]
struct Model<'a> {
    lines: Vec<&'a str>,
    /// Lines read so far.
    next: usize,
}

impl<'a> Model<'a> {
    /// The lines of a valid file, or the line of its first fault.
    fn new(text: &'a str) -> Result<Model<'a>, usize> {
        let line_of = |at: usize| 1 + text[..at].matches('\n').count();
        if text.is_empty() {
            return Err(1);
        }
        if let Some(bad) = text
            .bytes()
            .position(|b| b != b'\n' && !(b' '..=b'~').contains(&b))
        {
            return Err(line_of(bad));
        }
        let Some(body) = text.strip_suffix('\n') else {
            return Err(line_of(text.len()));
        };
        Ok(Model {
            lines: body.split('\n').collect(),
            next: 0,
        })
    }

    /// The next line's integers, `count` of them if given, token `i` in `range(i)`.
    fn ints(
        &mut self,
        count: Option<usize>,
        range: impl Fn(usize) -> RangeInclusive<i128>,
    ) -> Result<Vec<i128>, usize> {
        let line = *self.lines.get(self.next).ok_or(self.next + 1)?;
        self.next += 1;
        let tokens: Vec<&str> = line.split(' ').collect();
        if tokens.iter().any(|t| t.is_empty()) || count.is_some_and(|c| c != tokens.len()) {
            return Err(self.next);
        }
        tokens
            .iter()
            .enumerate()
            .map(|(i, t)| match t.parse::<i128>() {
                Ok(v) if v.to_string() == *t && range(i).contains(&v) => Ok(v),
                _ => Err(self.next),
            })
            .collect()
    }

    fn blank_line(&mut self) -> Result<(), usize> {
        match self.lines.get(self.next) {
            Some(&"") => {
                self.next += 1;
                Ok(())
            }
            _ => Err(self.next + 1),
        }
    }

    fn eof(&self) -> Result<(), usize> {
        if self.next == self.lines.len() {
            Ok(())
        } else {
            Err(self.next + 1)
        }
    }
}
