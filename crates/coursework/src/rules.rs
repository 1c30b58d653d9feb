//! Deadlines, late penalties, scoring and feedback rules of an assignment.

use grundy_store::AssignmentSpec;
pub use grundy_store::{Feedback, Scoring};
use serde::Serialize;

/// One student's times for an assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Deadlines {
    pub opens_at: i64,
    pub due_at: i64,
    /// The hard deadline: nothing is accepted after it.
    pub closes_at: i64,
    pub penalty_percent: i64,
    pub penalty_step_ms: i64,
}

/// Where a moment falls for a student.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    NotOpen,
    /// Accepted, losing this percentage of the score (0 when on time).
    Open {
        penalty_percent: i64,
    },
    Closed,
}

impl Deadlines {
    /// The class's times, or the student's with an extension: an extension sets their due time
    /// and moves the hard deadline by as much, so the late window keeps its length. An
    /// extension earlier than the class's due time changes nothing.
    pub fn for_student(spec: &AssignmentSpec, extension: Option<i64>) -> Deadlines {
        let shift = extension.map_or(0, |due| due.saturating_sub(spec.due_at).max(0));
        Deadlines {
            opens_at: spec.opens_at,
            due_at: spec.due_at.saturating_add(shift),
            closes_at: spec.closes_at.saturating_add(shift),
            penalty_percent: spec.penalty_percent,
            penalty_step_ms: spec.penalty_step_ms,
        }
    }

    /// Submissions are accepted from `opens_at` up to and including `closes_at`; each started
    /// step after `due_at` costs `penalty_percent`, down to nothing.
    pub fn timing(&self, at: i64) -> Timing {
        if at < self.opens_at {
            return Timing::NotOpen;
        }
        if at > self.closes_at {
            return Timing::Closed;
        }
        let late_ms = at.saturating_sub(self.due_at);
        let step = self.penalty_step_ms.max(1);
        // Started steps, without the overflow of `late + step - 1`.
        let steps = if late_ms <= 0 {
            0
        } else {
            (late_ms - 1) / step + 1
        };
        Timing::Open {
            penalty_percent: steps.saturating_mul(self.penalty_percent).min(100),
        }
    }
}

/// The last moment a time may name: 9999-12-31T23:59:59.999Z, in Unix milliseconds.
pub const LATEST_TIME: i64 = 253_402_300_799_999;
const MAX_STEP: i64 = 366 * 86_400_000;

/// What is wrong with an assignment a teacher sets, in words for them; problems are checked by
/// the caller, who knows which exist.
pub fn check_spec(spec: &AssignmentSpec) -> Result<(), String> {
    if spec.title.trim().is_empty() {
        return Err("the title is empty".into());
    }
    if spec.title.chars().count() > 200 {
        return Err("the title is longer than 200 characters".into());
    }
    if ![spec.opens_at, spec.due_at, spec.closes_at]
        .iter()
        .all(|t| (0..=LATEST_TIME).contains(t))
    {
        return Err("times must lie between 1970 and the end of 9999".into());
    }
    if !(spec.opens_at <= spec.due_at && spec.due_at <= spec.closes_at) {
        return Err("the times must be in order: opens ≤ due ≤ closes".into());
    }
    if !(0..=100).contains(&spec.penalty_percent) {
        return Err("the late penalty must be between 0 and 100 percent".into());
    }
    if !(60_000..=MAX_STEP).contains(&spec.penalty_step_ms) {
        return Err("the penalty step must be between a minute and a year".into());
    }
    if spec.problems.is_empty() {
        return Err("an assignment needs at least one problem".into());
    }
    if spec.problems.len() > 50 {
        return Err("at most 50 problems per assignment".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = spec.problems.iter().find(|p| !seen.insert(p.as_str())) {
        return Err(format!("{twice} is listed twice"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;
    const DAY: i64 = 24 * HOUR;

    pub(crate) fn spec() -> AssignmentSpec {
        AssignmentSpec {
            title: "Week 1".into(),
            opens_at: 0,
            due_at: 10 * DAY,
            closes_at: 13 * DAY,
            penalty_percent: 10,
            penalty_step_ms: DAY,
            scoring: Scoring::Best,
            feedback: Feedback::Tests,
            personal_tests: false,
            run_every_test: false,
            problems: vec!["stones".into()],
        }
    }

    fn penalty(d: &Deadlines, at: i64) -> Option<i64> {
        match d.timing(at) {
            Timing::Open { penalty_percent } => Some(penalty_percent),
            _ => None,
        }
    }

    #[test]
    fn each_started_day_late_costs_ten_percent_until_the_hard_deadline() {
        let d = Deadlines::for_student(&spec(), None);
        assert_eq!(d.timing(-1), Timing::NotOpen);
        assert_eq!(penalty(&d, 0), Some(0));
        assert_eq!(penalty(&d, 10 * DAY), Some(0), "on the due time is on time");
        assert_eq!(penalty(&d, 10 * DAY + 1), Some(10));
        assert_eq!(penalty(&d, 11 * DAY), Some(10));
        assert_eq!(penalty(&d, 11 * DAY + 1), Some(20));
        assert_eq!(penalty(&d, 13 * DAY), Some(30));
        assert_eq!(d.timing(13 * DAY + 1), Timing::Closed);
    }

    #[test]
    fn penalties_stop_at_everything() {
        let mut s = spec();
        s.penalty_percent = 40;
        s.closes_at = 20 * DAY;
        let d = Deadlines::for_student(&s, None);
        assert_eq!(penalty(&d, 12 * DAY + 1), Some(100));
        assert_eq!(penalty(&d, 20 * DAY), Some(100));
    }

    #[test]
    fn an_extension_moves_the_due_time_and_the_hard_deadline_together() {
        let d = Deadlines::for_student(&spec(), Some(12 * DAY));
        assert_eq!((d.due_at, d.closes_at), (12 * DAY, 15 * DAY));
        assert_eq!(penalty(&d, 11 * DAY), Some(0));
        assert_eq!(penalty(&d, 12 * DAY + HOUR), Some(10));
        assert_eq!(d.timing(15 * DAY + 1), Timing::Closed);
        let earlier = Deadlines::for_student(&spec(), Some(DAY));
        assert_eq!(earlier, Deadlines::for_student(&spec(), None));
    }

    #[test]
    fn specs_are_checked() {
        assert_eq!(check_spec(&spec()), Ok(()));
        let mut s = spec();
        s.closes_at = s.due_at - 1;
        assert!(check_spec(&s).unwrap_err().contains("order"));
        let mut s = spec();
        s.problems.push("stones".into());
        assert!(check_spec(&s).unwrap_err().contains("twice"));
        assert_eq!(Scoring::parse("median"), None);
        assert_eq!(Feedback::parse("everything"), None);
        let mut s = spec();
        s.penalty_percent = 101;
        assert!(check_spec(&s).is_err());
        let mut s = spec();
        s.problems.clear();
        assert!(check_spec(&s).is_err());
        let mut s = spec();
        s.closes_at = i64::MAX;
        assert!(check_spec(&s).unwrap_err().contains("9999"));
        let mut s = spec();
        s.penalty_step_ms = i64::MAX;
        assert!(check_spec(&s).unwrap_err().contains("year"));
    }

    #[test]
    fn extreme_times_saturate_instead_of_wrapping() {
        let d = Deadlines::for_student(&spec(), Some(i64::MAX));
        assert_eq!(d.closes_at, i64::MAX);
        assert_eq!(d.timing(i64::MAX - 1), Timing::Open { penalty_percent: 0 });
        let mut s = spec();
        s.penalty_step_ms = i64::MAX;
        let d = Deadlines::for_student(&s, None);
        assert_eq!(
            d.timing(s.due_at + 1),
            Timing::Open {
                penalty_percent: 10
            }
        );
        assert_eq!(d.timing(i64::MIN), Timing::NotOpen);
    }
}
