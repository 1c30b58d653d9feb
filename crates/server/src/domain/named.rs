//! Words that arrive in requests and forms, turned into the domain's types, with the refusal
//! people read when a word is not one of them. The API and the pages both parse here.

use grundy_judge::Verdict;
use grundy_store::{Feedback, MemberRole, Role, Scoring};

use super::{Error, Result};

pub fn verdict(text: &str) -> Result<Verdict> {
    Verdict::parse(text).ok_or_else(|| Error::BadRequest(format!("unknown verdict {text:?}")))
}

pub fn scoring(text: &str) -> Result<Scoring> {
    Scoring::parse(text)
        .ok_or_else(|| Error::BadRequest(format!("unknown scoring {text:?} (best or last)")))
}

pub fn feedback(text: &str) -> Result<Feedback> {
    Feedback::parse(text).ok_or_else(|| {
        Error::BadRequest(format!(
            "unknown feedback {text:?} (verdict, tests or inputs)"
        ))
    })
}

/// An account's role.
pub fn role(text: &str) -> Result<Role> {
    Role::parse(text).ok_or_else(|| {
        Error::BadRequest(format!("unknown role {text:?} (admin, teacher or student)"))
    })
}

/// A part in a course.
pub fn member_role(text: &str) -> Result<MemberRole> {
    MemberRole::parse(text)
        .ok_or_else(|| Error::BadRequest(format!("unknown role {text:?} (student or teacher)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_words_parse_and_others_are_refused_by_name() {
        assert_eq!(verdict("wrong_answer").unwrap(), Verdict::WrongAnswer);
        assert_eq!(scoring("last").unwrap(), Scoring::Last);
        assert_eq!(feedback("inputs").unwrap(), Feedback::Inputs);
        assert_eq!(role("teacher").unwrap(), Role::Teacher);
        assert_eq!(member_role("student").unwrap(), MemberRole::Student);
        for refused in [
            verdict("ok").unwrap_err(),
            scoring("median").unwrap_err(),
            feedback("all").unwrap_err(),
            role("root").unwrap_err(),
            member_role("admin").unwrap_err(),
        ] {
            assert!(matches!(refused, Error::BadRequest(_)), "{refused:?}");
        }
        assert!(
            scoring("median")
                .unwrap_err()
                .to_string()
                .contains("\"median\"")
        );
    }
}
