//! The token checker's messages in Vietnamese. The checker words its messages in English and
//! they are stored so; a page for a reader of Vietnamese renders them through here. The shapes
//! are the ones [`super::Place`] builds, kept next to it so that a change to one shows in the
//! other's tests. A message of another shape (a custom checker's, a family's referee) is not
//! this module's and comes back `None`.

/// `message`, as the token checker wrote it, in Vietnamese; `None` when it is not one of the
/// checker's shapes.
pub fn vietnamese(message: &str) -> Option<String> {
    if let Some(rest) = message.strip_prefix("the output is empty") {
        return Some(format!(
            "Chương trình không in ra gì{}",
            expected_after(rest)?
        ));
    }
    if let Some(rest) = message.strip_prefix("the output ends before ") {
        let (unit, rest) = unit_numbered(rest)?;
        return Some(format!(
            "Kết quả dừng trước {unit}{}",
            expected_after(rest)?
        ));
    }
    if let Some(rest) = message.strip_prefix("the output ends in the middle of ") {
        let (unit, rest) = unit_numbered(rest)?;
        return Some(format!(
            "Kết quả dừng giữa chừng ở {unit}{}",
            expected_after(rest)?
        ));
    }
    if let Some(rest) = message.strip_prefix("the output ends after line ") {
        let (line, rest) = number(rest)?;
        let rest = rest.strip_prefix(", before the answer is complete")?;
        let tail = match rest.strip_prefix("; expected ") {
            Some(quoted) => format!("; tiếp theo cần {}", quoted.strip_suffix(" next")?),
            None if rest.is_empty() => String::new(),
            None => return None,
        };
        return Some(format!(
            "Kết quả dừng sau dòng {line} khi đáp án còn thiếu{tail}"
        ));
    }
    if let Some(rest) = message.strip_prefix("the output goes on after ") {
        let (after, rest) = match rest.strip_prefix("the expected answer") {
            Some(rest) => ("khi đã đủ đáp án".to_owned(), rest),
            None => {
                let rest = rest.strip_prefix("the last ")?;
                let end = rest.find(", at line ")?;
                (format!("{} cuối cùng", unit(&rest[..end])), &rest[end..])
            }
        };
        let (line, rest) = number(rest.strip_prefix(", at line ")?)?;
        let tail = match rest.strip_prefix(": read ") {
            Some(quoted) => format!(": đọc được {quoted}"),
            None if rest.is_empty() => String::new(),
            None => return None,
        };
        return Some(format!(
            "Kết quả vẫn tiếp tục sau {after}, ở dòng {line}{tail}"
        ));
    }
    place_message(message)
}

/// `<place> is wrong[ from character K]` and `<place>[, from character K]: expected Q, read Q`,
/// where the place is `line L[, word W]` or `<unit> N (line L)`.
fn place_message(message: &str) -> Option<String> {
    let (place, rest) = place(message)?;
    if let Some(rest) = rest.strip_prefix(" is wrong") {
        return match rest.strip_prefix(" from character ") {
            Some(at) => Some(format!("{place} sai từ ký tự thứ {}", whole(at)?)),
            None if rest.is_empty() => Some(format!("{place} sai")),
            None => None,
        };
    }
    let (from, rest) = match rest.strip_prefix(", from character ") {
        Some(rest) => {
            let (at, rest) = number(rest)?;
            (format!(", từ ký tự thứ {at}"), rest)
        }
        None => (String::new(), rest),
    };
    let quotes = rest.strip_prefix(": expected ")?;
    // The expected answer is quoted first; it ends at the first `", read "`.
    let split = quotes.find("\", read \"")?;
    let (want, got) = (&quotes[..=split], &quotes[split + "\", read ".len()..]);
    Some(format!("{place}{from}: cần {want}, đọc được {got}"))
}

/// The place a message starts with, in Vietnamese, and what follows it.
fn place(message: &str) -> Option<(String, &str)> {
    if let Some(rest) = message.strip_prefix("line ") {
        let (line, rest) = number(rest)?;
        return match rest.strip_prefix(", word ") {
            Some(rest) => {
                let (word, rest) = number(rest)?;
                Some((format!("Dòng {line}, từ thứ {word}"), rest))
            }
            None => Some((format!("Dòng {line}"), rest)),
        };
    }
    let open = message.find(" (line ")?;
    let (named, rest) = unit_numbered(&message[..open])?;
    if !rest.is_empty() {
        return None;
    }
    let (line, rest) = number(&message[open + " (line ".len()..])?;
    let rest = rest.strip_prefix(')')?;
    Some((capitalised(&format!("{named} (dòng {line})")), rest))
}

/// `<unit> N` at the start of `text` (the unit may have several words), in Vietnamese, and the
/// rest.
fn unit_numbered(text: &str) -> Option<(String, &str)> {
    let digits = text.find(|c: char| c.is_ascii_digit())?;
    let name = text[..digits].strip_suffix(' ')?;
    let (n, rest) = number(&text[digits..])?;
    Some((format!("{} {n}", unit(name)), rest))
}

/// What one answer line answers, in Vietnamese; a teacher's own unit stays as written.
fn unit(name: &str) -> String {
    match name {
        "game" => "ván".into(),
        "test case" | "test" => "bộ test".into(),
        "query" => "truy vấn".into(),
        other => other.into(),
    }
}

/// `; expected Q` (or nothing) after a message's first part.
fn expected_after(rest: &str) -> Option<String> {
    match rest.strip_prefix("; expected ") {
        Some(quoted) => Some(format!("; cần {quoted}")),
        None if rest.is_empty() => Some(String::new()),
        None => None,
    }
}

/// A whole number at the start of `text`, and the rest.
fn number(text: &str) -> Option<(&str, &str)> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    (end > 0).then(|| text.split_at(end))
}

/// `text` when it is a whole number and nothing else.
fn whole(text: &str) -> Option<&str> {
    let (n, rest) = number(text)?;
    rest.is_empty().then_some(n)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::super::{CheckOutcome, PLAIN_LINES, compare_tokens};
    use super::vietnamese;

    /// Every shape the checker words, seen and hidden, read back in Vietnamese.
    fn both(expected: &str, output: &str, unit: &str) -> [String; 2] {
        let CheckOutcome::WrongAnswer(mismatch) = compare_tokens(expected, output, true, unit)
        else {
            panic!("{expected:?} / {output:?} is accepted");
        };
        [true, false].map(|visible| {
            let english = mismatch.message(visible);
            vietnamese(&english).unwrap_or_else(|| panic!("not translated: {english}"))
        })
    }

    #[test]
    fn a_wrong_line_or_game() {
        assert_eq!(
            both("First\n", "Second\n", PLAIN_LINES),
            ["Dòng 1: cần \"First\", đọc được \"Second\"", "Dòng 1 sai"]
        );
        assert_eq!(
            both("WIN\n1 2\n2 4\n", "WIN\n1 2\n2 5\n", PLAIN_LINES),
            [
                "Dòng 3, từ thứ 2: cần \"4\", đọc được \"5\"",
                "Dòng 3, từ thứ 2 sai"
            ]
        );
        assert_eq!(
            both("Yes\nNo\n", "Yes\nYes\n", "game"),
            [
                "Ván 2 (dòng 2): cần \"No\", đọc được \"Yes\"",
                "Ván 2 (dòng 2) sai"
            ]
        );
        assert_eq!(
            both("A\nB will win\n", "A\nC will win\n", "test case"),
            [
                "Bộ test 2 (dòng 2): cần \"B will win\", đọc được \"C will win\"",
                "Bộ test 2 (dòng 2) sai"
            ]
        );
        // A teacher's own unit is kept as written.
        assert_eq!(
            both("1\n", "2\n", "heap size")[1],
            "Heap size 1 (dòng 1) sai"
        );
    }

    #[test]
    fn a_long_word_by_its_first_different_character() {
        let want = format!("{}W{}", "L".repeat(56), "L".repeat(100));
        let got = "L".repeat(157);
        let [seen, hidden] = both(&want, &got, PLAIN_LINES);
        assert_eq!(hidden, "Dòng 1 sai từ ký tự thứ 57");
        assert!(
            seen.starts_with("Dòng 1, từ ký tự thứ 57: cần \"…LLL"),
            "{seen}"
        );
        assert!(seen.contains("W"), "{seen}");
    }

    #[test]
    fn outputs_too_short_or_too_long() {
        assert_eq!(
            both("Yes\n", "", "game"),
            [
                "Chương trình không in ra gì; cần \"Yes\"",
                "Chương trình không in ra gì"
            ]
        );
        assert_eq!(
            both("Yes\nNo\nYes\n", "Yes\nNo\n", "game"),
            [
                "Kết quả dừng trước ván 3; cần \"Yes\"",
                "Kết quả dừng trước ván 3"
            ]
        );
        assert_eq!(
            both("Bob will win\n", "Bob will", "game")[1],
            "Kết quả dừng giữa chừng ở ván 1"
        );
        assert_eq!(
            both("1 2\n", "1\n", PLAIN_LINES),
            [
                "Kết quả dừng sau dòng 1 khi đáp án còn thiếu; tiếp theo cần \"2\"",
                "Kết quả dừng sau dòng 1 khi đáp án còn thiếu"
            ]
        );
        assert_eq!(
            both("Yes\n", "Yes\n\nNo\n", "game"),
            [
                "Kết quả vẫn tiếp tục sau ván cuối cùng, ở dòng 3: đọc được \"No\"",
                "Kết quả vẫn tiếp tục sau ván cuối cùng, ở dòng 3"
            ]
        );
        assert_eq!(
            both("1\n", "1 2\n", PLAIN_LINES)[1],
            "Kết quả vẫn tiếp tục sau khi đã đủ đáp án, ở dòng 1"
        );
    }

    #[test]
    fn other_messages_are_not_this_modules() {
        for other in [
            "the move 3 4 is not legal",
            "wrong answer: expected 5",
            "line x is wrong",
            "game (line 2) is wrong",
            "",
        ] {
            assert_eq!(vietnamese(other), None, "{other}");
        }
    }
}
