//! The gradebook: per student and problem the submission that counts, its score after the late
//! penalty, when it was made and how many attempts there were; class means; the CSV teachers
//! download.
//!
//! Scores after a penalty are kept in hundredths of a point, exactly: a raw score times the
//! percentage kept.

use std::collections::BTreeMap;

use grundy_store::{Assignment, Extension, Member, Submission, SubmissionStatus};
use grundy_verdict::Verdict;
use serde::Serialize;

use crate::rules::{Deadlines, Scoring, Timing};

/// One student's standing on one problem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    pub problem: String,
    /// After the penalty; `None` while nothing of theirs has been judged.
    pub score: Option<f64>,
    /// Before the penalty.
    pub raw_score: Option<i64>,
    pub penalty_percent: i64,
    /// The submission that counts, and when it was made.
    pub submission: Option<i64>,
    pub counted_at: Option<i64>,
    /// Every submission they made to it for this assignment.
    pub attempts: i64,
    /// Of those, how many are not judged yet.
    pub pending: i64,
    #[serde(skip)]
    centi: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub user_id: i64,
    pub name: String,
    /// Their due time and hard deadline (later than the class's with an extension).
    pub due_at: i64,
    pub closes_at: i64,
    pub cells: Vec<Cell>,
    pub total: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassTotals {
    /// Per problem, the mean score after penalties over all students (nothing judged is 0).
    pub mean_scores: Vec<f64>,
    pub mean_total: f64,
    /// Per problem, how many students submitted at all.
    pub submitted: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gradebook {
    pub assignment_id: i64,
    pub title: String,
    pub scoring: Scoring,
    pub problems: Vec<String>,
    pub max_scores: Vec<i64>,
    pub max_total: i64,
    pub rows: Vec<Row>,
    pub class: ClassTotals,
    /// The classic mistakes the class's wrong programs were found to make, most common first:
    /// filled by the service from its explanations (empty from [`gradebook`]).
    pub misconceptions: Vec<ClassMisconception>,
}

/// One misconception across a class: who made it (by name), in any of their submissions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassMisconception {
    pub id: String,
    pub title: String,
    pub problems: Vec<String>,
    pub students: Vec<String>,
    pub count: usize,
}

/// Grades `students` (in the order given) on `assignment` from its submissions. `max_scores`
/// gives each problem's full marks.
pub fn gradebook(
    assignment: &Assignment,
    students: &[Member],
    extensions: &[Extension],
    submissions: &[Submission],
    max_scores: &BTreeMap<String, i64>,
) -> Gradebook {
    let spec = &assignment.spec;
    let scoring = spec.scoring;
    let extension: BTreeMap<i64, i64> = extensions.iter().map(|e| (e.user_id, e.due_at)).collect();
    // Grouped once: a class's submissions are read in one pass, not once per cell.
    let mut by_cell: BTreeMap<(i64, &str), Vec<&Submission>> = BTreeMap::new();
    for s in submissions {
        by_cell
            .entry((s.user_id, s.problem.as_str()))
            .or_default()
            .push(s);
    }
    let rows: Vec<Row> = students
        .iter()
        .map(|student| {
            let deadlines = Deadlines::for_student(spec, extension.get(&student.user_id).copied());
            let cells: Vec<Cell> = spec
                .problems
                .iter()
                .map(|problem| {
                    let theirs = by_cell
                        .get(&(student.user_id, problem.as_str()))
                        .map_or(&[][..], Vec::as_slice);
                    cell(problem, theirs, &deadlines, scoring)
                })
                .collect();
            let total_centi = cells.iter().map(|c| c.centi).sum::<i64>();
            Row {
                user_id: student.user_id,
                name: student.name.clone(),
                due_at: deadlines.due_at,
                closes_at: deadlines.closes_at,
                cells,
                total: points(total_centi),
            }
        })
        .collect();
    let max_scores: Vec<i64> = spec
        .problems
        .iter()
        .map(|p| max_scores.get(p).copied().unwrap_or(0))
        .collect();
    let mean = |sum: i64| {
        if rows.is_empty() {
            0.0
        } else {
            (sum as f64 / rows.len() as f64).round() / 100.0
        }
    };
    let class = ClassTotals {
        mean_scores: (0..spec.problems.len())
            .map(|i| mean(rows.iter().map(|r| r.cells[i].centi).sum()))
            .collect(),
        mean_total: mean(
            rows.iter()
                .flat_map(|r| r.cells.iter().map(|c| c.centi))
                .sum(),
        ),
        submitted: (0..spec.problems.len())
            .map(|i| rows.iter().filter(|r| r.cells[i].attempts > 0).count() as i64)
            .collect(),
    };
    Gradebook {
        assignment_id: assignment.id,
        title: spec.title.clone(),
        scoring,
        max_total: max_scores.iter().sum(),
        problems: spec.problems.clone(),
        max_scores,
        rows,
        class,
        misconceptions: Vec::new(),
    }
}

fn cell(problem: &str, theirs: &[&Submission], deadlines: &Deadlines, scoring: Scoring) -> Cell {
    let pending = theirs
        .iter()
        .filter(|s| s.status != SubmissionStatus::Done)
        .count() as i64;
    // Judged, within the student's window, with what the penalty leaves: oldest first.
    // An internal error is the judge's failure, not the student's: it never counts.
    let judged = theirs.iter().filter_map(|s| {
        let raw = s.score.filter(|_| {
            s.status == SubmissionStatus::Done && s.verdict != Some(Verdict::InternalError)
        })?;
        match deadlines.timing(s.created_at) {
            Timing::Open { penalty_percent } => {
                Some((s, raw, penalty_percent, raw * (100 - penalty_percent)))
            }
            Timing::NotOpen | Timing::Closed => None,
        }
    });
    let counted = match scoring {
        // `max_by_key` keeps the last of equals: compare on (score, earlier) instead.
        Scoring::Best => judged.max_by_key(|(s, _, _, centi)| (*centi, -s.created_at, -s.id)),
        Scoring::Last => judged.max_by_key(|(s, ..)| (s.created_at, s.id)),
    };
    Cell {
        problem: problem.to_owned(),
        score: counted.map(|(_, _, _, centi)| points(centi)),
        raw_score: counted.map(|(_, raw, _, _)| raw),
        penalty_percent: counted.map_or(0, |(_, _, penalty, _)| penalty),
        submission: counted.map(|(s, ..)| s.id),
        counted_at: counted.map(|(s, ..)| s.created_at),
        attempts: theirs.len() as i64,
        pending,
        centi: counted.map_or(0, |(_, _, _, centi)| centi),
    }
}

fn points(centi: i64) -> f64 {
    centi as f64 / 100.0
}

/// A score as people write it: `90`, `49.5`, `33.33`.
pub fn format_points(points: f64) -> String {
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A time in the CSV: RFC 3339 in UTC.
fn timestamp(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

impl Gradebook {
    /// One line per student, then the class means. Per problem: the score after penalties, the
    /// penalty in percent, when the counted submission was made, and the attempts. Score,
    /// penalty and attempt cells hold a plain number (a spreadsheet sums them as they are); a
    /// score is blank where nothing was counted, a time blank where nothing was submitted.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut out = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["student".to_owned(), "due".to_owned()];
        for (problem, max) in self.problems.iter().zip(&self.max_scores) {
            header.push(format!("{problem} score (of {max})"));
            header.push(format!("{problem} penalty %"));
            header.push(format!("{problem} counted at"));
            header.push(format!("{problem} attempts"));
        }
        header.push(format!("total (of {})", self.max_total));
        out.write_record(&header)?;
        for row in &self.rows {
            let mut record = vec![row.name.clone(), timestamp(row.due_at)];
            for cell in &row.cells {
                record.push(cell.score.map(format_points).unwrap_or_default());
                record.push(cell.penalty_percent.to_string());
                record.push(cell.counted_at.map(timestamp).unwrap_or_default());
                record.push(cell.attempts.to_string());
            }
            record.push(format_points(row.total));
            out.write_record(&record)?;
        }
        // Number columns hold numbers only: the class's line has the mean score and the mean
        // attempts; a penalty or a time has no mean, so those cells stay blank.
        let mut means = vec!["class mean".to_owned(), String::new()];
        for (index, mean) in self.class.mean_scores.iter().enumerate() {
            let attempts: i64 = self.rows.iter().map(|r| r.cells[index].attempts).sum();
            let mean_attempts = attempts as f64 / self.rows.len().max(1) as f64;
            means.extend([
                format_points(*mean),
                String::new(),
                String::new(),
                format_points(mean_attempts),
            ]);
        }
        means.push(format_points(self.class.mean_total));
        out.write_record(&means)?;
        let bytes = out.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("the CSV is built from strings"))
    }
}

#[cfg(test)]
mod tests {
    use grundy_store::{AssignmentSpec, MemberRole, SubmissionKind};

    use super::*;

    const DAY: i64 = 86_400_000;

    fn assignment(scoring: &str) -> Assignment {
        Assignment {
            id: 1,
            course_id: 1,
            spec: AssignmentSpec {
                title: "Week 1".into(),
                opens_at: 0,
                due_at: 10 * DAY,
                closes_at: 13 * DAY,
                penalty_percent: 10,
                penalty_step_ms: DAY,
                scoring: Scoring::parse(scoring).unwrap(),
                feedback: grundy_store::Feedback::Tests,
                personal_tests: false,
                run_every_test: false,
                problems: vec!["stones".into(), "nim".into()],
            },
            created_at: 0,
        }
    }

    fn student(id: i64, name: &str) -> Member {
        Member {
            user_id: id,
            name: name.into(),
            role: MemberRole::Student,
            joined_at: 0,
            origin: grundy_store::MemberOrigin::JoinCode,
        }
    }

    fn judged(id: i64, user: i64, problem: &str, at: i64, score: Option<i64>) -> Submission {
        Submission {
            id,
            user_id: user,
            problem: problem.into(),
            kind: SubmissionKind::Program,
            language: Some("cpp".into()),
            status: if score.is_some() {
                SubmissionStatus::Done
            } else {
                SubmissionStatus::Queued
            },
            attempts: 1,
            problem_version: Some(1),
            verdict: None,
            score,
            max_score: Some(100),
            compile_message: None,
            created_at: at,
            judged_at: None,
            assignment_id: Some(1),
            instance_seed: None,
        }
    }

    fn maxima() -> BTreeMap<String, i64> {
        [("stones".to_owned(), 100), ("nim".to_owned(), 50)].into()
    }

    #[test]
    fn best_counts_the_highest_score_after_penalties() {
        let subs = [
            judged(1, 7, "stones", DAY, Some(60)),
            // 100 two days late keeps 80, above the 60 on time.
            judged(2, 7, "stones", 11 * DAY + 1, Some(100)),
            // 100 three days late keeps 70.
            judged(3, 7, "stones", 12 * DAY + 1, Some(100)),
            judged(4, 7, "nim", 2 * DAY, Some(55)),
            judged(5, 7, "nim", 3 * DAY, None),
            // After the hard deadline: not counted, but an attempt.
            judged(6, 7, "nim", 13 * DAY + 1, Some(50)),
        ];
        let book = gradebook(
            &assignment("best"),
            &[student(7, "ann")],
            &[],
            &subs,
            &maxima(),
        );
        let row = &book.rows[0];
        let stones = &row.cells[0];
        assert_eq!(stones.score, Some(80.0));
        assert_eq!((stones.raw_score, stones.penalty_percent), (Some(100), 20));
        assert_eq!((stones.submission, stones.attempts), (Some(2), 3));
        let nim = &row.cells[1];
        assert_eq!((nim.score, nim.submission), (Some(55.0), Some(4)));
        assert_eq!((nim.attempts, nim.pending), (3, 1));
        assert_eq!(row.total, 135.0);
        assert_eq!(book.max_total, 150);
    }

    #[test]
    fn an_internal_error_never_counts() {
        let mut broken = judged(2, 7, "stones", 2 * DAY, Some(0));
        broken.verdict = Some(Verdict::InternalError);
        let subs = [judged(1, 7, "stones", DAY, Some(70)), broken];
        let book = gradebook(
            &assignment("last"),
            &[student(7, "ann")],
            &[],
            &subs,
            &maxima(),
        );
        let stones = &book.rows[0].cells[0];
        assert_eq!((stones.submission, stones.score), (Some(1), Some(70.0)));
        assert_eq!(stones.attempts, 2);
    }

    #[test]
    fn last_counts_the_latest_judged_even_when_lower() {
        let subs = [
            judged(1, 7, "stones", DAY, Some(100)),
            judged(2, 7, "stones", 10 * DAY + 5, Some(55)),
            judged(3, 7, "stones", 10 * DAY + 9, None),
        ];
        let book = gradebook(
            &assignment("last"),
            &[student(7, "ann")],
            &[],
            &subs,
            &maxima(),
        );
        let stones = &book.rows[0].cells[0];
        assert_eq!(stones.submission, Some(2));
        assert_eq!(stones.score, Some(49.5));
        assert_eq!(format_points(stones.score.unwrap()), "49.5");
    }

    #[test]
    fn extensions_move_a_students_penalty_and_the_class_means_count_everyone() {
        let subs = [
            judged(1, 7, "stones", 11 * DAY, Some(100)),
            judged(2, 8, "stones", 11 * DAY, Some(100)),
        ];
        let ext = [Extension {
            user_id: 8,
            due_at: 12 * DAY,
        }];
        let students = [student(7, "ann"), student(8, "bob"), student(9, "cat")];
        let book = gradebook(&assignment("best"), &students, &ext, &subs, &maxima());
        assert_eq!(book.rows[0].cells[0].score, Some(90.0));
        assert_eq!(book.rows[1].cells[0].score, Some(100.0));
        assert_eq!(book.rows[1].due_at, 12 * DAY);
        assert_eq!(book.rows[2].cells[0].score, None);
        assert_eq!(book.class.mean_scores, vec![63.33, 0.0]);
        assert_eq!(book.class.submitted, vec![2, 0]);
        assert_eq!(book.class.mean_total, 63.33);
    }

    #[test]
    fn the_csv_has_a_line_per_student_and_the_means() {
        let subs = [judged(1, 7, "stones", 11 * DAY, Some(100))];
        let students = [student(7, "ann, the \"first\""), student(8, "bob")];
        let book = gradebook(&assignment("best"), &students, &[], &subs, &maxima());
        let csv = book.to_csv().unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines,
            [
                "student,due,stones score (of 100),stones penalty %,stones counted at,stones attempts,\
                 nim score (of 50),nim penalty %,nim counted at,nim attempts,total (of 150)",
                "\"ann, the \"\"first\"\"\",1970-01-11T00:00:00Z,90,10,1970-01-12T00:00:00Z,1,,0,,0,90",
                "bob,1970-01-11T00:00:00Z,,0,,0,,0,,0,0",
                "class mean,,45,,,0.5,0,,,0,45",
            ]
        );
        // Every score, penalty, attempts and total cell is a number or blank.
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        for record in reader.records() {
            let record = record.unwrap();
            let numbers = (0..2)
                .flat_map(|p| [2 + 4 * p, 3 + 4 * p, 5 + 4 * p])
                .chain([record.len() - 1]);
            for column in numbers {
                let cell = &record[column];
                assert!(
                    cell.is_empty() || cell.parse::<f64>().is_ok(),
                    "{cell:?} in column {column}"
                );
            }
        }
    }
}
