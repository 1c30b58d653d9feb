//! The pages' words, and the API's error messages. Templates read every label from a `Ui`, one
//! table per language (`en.rs`, `vi.rs`): another language is one more table, a `Locale` and a
//! line in [`Ui::of`]. A table is a struct literal, so the compiler finds a missing label; words
//! that depend on a number are functions in the table, since languages inflect differently, and
//! so are the wordings of refusals and of the judge's messages (nothing else matches on a
//! language).
//! Statements carry their own languages (`?lang=`).

mod en;
mod vi;

use std::borrow::Borrow;

use grundy_judge::naming::Group;
use grundy_judge::{SubtaskResult, Verdict};
use grundy_problems::play::Side;
use grundy_store::{Feedback, MemberOrigin, MemberRole, Scoring, SubmissionStatus};

use crate::domain::Error;
use crate::locale::Locale;
use crate::registry::Origin;

/// Labels, headings and messages shown around the content.
#[derive(Debug)]
pub struct Ui {
    /// The `lang` attribute of the pages.
    pub code: &'static str,
    pub site_tagline: &'static str,
    pub problems: &'static str,
    pub my_submissions: &'static str,
    pub teach: &'static str,
    pub log_in: &'static str,
    pub log_out: &'static str,
    pub register: &'static str,
    pub signed_in_as: &'static str,
    pub name: &'static str,
    pub password: &'static str,
    pub invitation_code: &'static str,
    pub registration_closed: &'static str,
    pub no_account: &'static str,
    pub title: &'static str,
    pub difficulty: &'static str,
    pub tags: &'static str,
    pub all_tags: &'static str,
    /// A catalogue tag's name (`subtraction-game`); `None` for tags a teacher made up, which show
    /// as written.
    pub tag_name: fn(&str) -> Option<&'static str>,
    pub your_result: &'static str,
    pub solved: &'static str,
    pub attempted: &'static str,
    pub time_limit: &'static str,
    pub memory_limit: &'static str,
    /// What judging one submission may take in all: CPU seconds, seconds.
    pub judging_budget: fn(u64, u64) -> String,
    pub statement_language: &'static str,
    pub samples: &'static str,
    pub input: &'static str,
    pub output: &'static str,
    pub copy: &'static str,
    pub submit: &'static str,
    pub submit_program: &'static str,
    pub language: &'static str,
    pub source: &'static str,
    pub or_upload: &'static str,
    pub log_in_to_submit: &'static str,
    pub answer_mode: &'static str,
    pub answer_mode_intro: &'static str,
    pub your_answer: &'static str,
    pub submit_answers: &'static str,
    pub submission: &'static str,
    pub problem: &'static str,
    pub user: &'static str,
    pub verdict: &'static str,
    pub score: &'static str,
    pub submitted: &'static str,
    pub test: &'static str,
    pub cpu_time: &'static str,
    pub memory: &'static str,
    pub message: &'static str,
    pub compiler_output: &'static str,
    pub no_submissions: &'static str,
    pub older: &'static str,
    pub upload_package: &'static str,
    pub package_file: &'static str,
    pub upload: &'static str,
    pub create_variant: &'static str,
    pub base_problem: &'static str,
    pub slug: &'static str,
    pub subtasks_json: &'static str,
    pub create: &'static str,
    pub all_submissions: &'static str,
    pub filter: &'static str,
    pub any: &'static str,
    pub rejudge: &'static str,
    pub rejudge_all: &'static str,
    pub users: &'static str,
    pub role: &'static str,
    pub new_user: &'static str,
    pub change_role: &'static str,
    pub account: &'static str,
    pub change_password: &'static str,
    pub current_password: &'static str,
    pub password_changed: &'static str,
    /// Said under the form, before anyone changes it: what a change ends.
    pub password_change_hint: &'static str,
    pub api_tokens: &'static str,
    pub api_tokens_intro: &'static str,
    pub token_label: &'static str,
    pub token_created: &'static str,
    pub token_expires: &'static str,
    pub token_last_used: &'static str,
    pub never: &'static str,
    pub revoke: &'static str,
    pub new_token: &'static str,
    pub new_token_once: &'static str,
    pub lasts_days: &'static str,
    pub no_tokens: &'static str,
    pub new_password: &'static str,
    pub set_password: &'static str,
    pub created: &'static str,
    pub back: &'static str,
    pub courses: &'static str,
    pub no_courses: &'static str,
    pub join_course: &'static str,
    pub join_code: &'static str,
    pub join: &'static str,
    pub new_course: &'static str,
    pub join_code_hint: &'static str,
    pub added: &'static str,
    pub already_in: &'static str,
    pub new_accounts: &'static str,
    pub assignments: &'static str,
    pub no_assignments: &'static str,
    pub due: &'static str,
    pub status: &'static str,
    pub new_assignment: &'static str,
    pub members: &'static str,
    pub teachers: &'static str,
    pub joined: &'static str,
    pub remove: &'static str,
    pub add_people: &'static str,
    pub names_one_per_line: &'static str,
    pub co_teacher: &'static str,
    pub create_missing: &'static str,
    pub add: &'static str,
    pub opens: &'static str,
    pub closes: &'static str,
    pub penalty_percent: &'static str,
    pub penalty_step_hours: &'static str,
    pub scoring: &'static str,
    pub scoring_best: &'static str,
    pub scoring_last: &'static str,
    pub feedback: &'static str,
    pub feedback_verdict: &'static str,
    pub feedback_tests: &'static str,
    pub feedback_inputs: &'static str,
    pub course: &'static str,
    pub your_extension: &'static str,
    pub late_penalty: &'static str,
    /// "1 attempt", "2 attempts".
    pub attempts_count: fn(i64) -> String,
    pub attempts_heading: &'static str,
    pub counted: &'static str,
    pub pending: &'static str,
    pub total: &'static str,
    pub gradebook: &'static str,
    pub download_csv: &'static str,
    pub student: &'static str,
    pub instances: &'static str,
    pub class_mean: &'static str,
    pub extensions: &'static str,
    pub give_extension: &'static str,
    pub draw: &'static str,
    pub pinned: &'static str,
    pub regenerate: &'static str,
    pub unpin: &'static str,
    pub pin: &'static str,
    pub regenerate_hint: &'static str,
    pub expected: &'static str,
    pub personal_tests: &'static str,
    pub personal_tests_on: &'static str,
    /// The assignment's choice to run every test, not stopping a subtask at its first failure.
    pub run_every_test: &'static str,
    pub run_every_test_on: &'static str,
    pub for_assignment: &'static str,
    pub verdict_only: &'static str,
    pub explanation: &'static str,
    pub smallest_counterexample: &'static str,
    pub large_counterexample: &'static str,
    pub program_printed: &'static str,
    pub no_small_counterexample: &'static str,
    /// Before a game worked through for answers whose expected answers are withheld.
    pub mistake_example: &'static str,
    /// What the misconception answers in that game.
    pub mistake_answers: &'static str,
    /// Answers whose expected answers are withheld, and no game to work through.
    pub answers_withheld: &'static str,
    pub misconception: &'static str,
    pub class_misconceptions: &'static str,
    pub class_misconceptions_none: &'static str,
    pub subtasks: &'static str,
    pub failed_tests: &'static str,
    pub program_output: &'static str,
    pub too_large: &'static str,
    pub games: &'static str,
    pub games_intro: &'static str,
    pub game: &'static str,
    pub took_side: &'static str,
    pub program: &'static str,
    pub referee: &'static str,
    pub win: &'static str,
    pub lose: &'static str,
    pub game_from_code: &'static str,
    pub octal_intro: &'static str,
    pub octal_code: &'static str,
    pub title_en: &'static str,
    pub title_vi: &'static str,
    pub octal_upto: &'static str,
    pub play: &'static str,
    pub play_this_game: &'static str,
    pub play_intro: &'static str,
    pub play_rules: &'static str,
    pub play_start: &'static str,
    pub play_positions_are: &'static str,
    pub play_moves_are: &'static str,
    pub play_side: &'static str,
    pub play_first: &'static str,
    pub play_second: &'static str,
    pub play_begin: &'static str,
    pub play_start_was: &'static str,
    pub play_you_are: &'static str,
    pub play_position: &'static str,
    pub play_you_won: &'static str,
    pub play_you_lost: &'static str,
    pub play_again: &'static str,
    pub play_your_move: &'static str,
    pub play_move: &'static str,
    pub play_hint: &'static str,
    pub play_no_winning_move: &'static str,
    pub play_winning_moves: &'static str,
    pub play_value: &'static str,
    pub play_value_history: &'static str,
    pub play_moves: &'static str,
    pub play_by: &'static str,
    pub play_leaves: &'static str,
    pub play_value_left: &'static str,
    pub play_you: &'static str,
    pub play_mistake: &'static str,
    pub play_no_mistake: &'static str,
    pub skip_to_content: &'static str,
    pub interface_language: &'static str,
    pub locale_automatic: &'static str,
    pub save: &'static str,
    pub not_found: &'static str,
    pub no_page_here: &'static str,
    pub error_title: &'static str,
    pub easy: &'static str,
    pub medium: &'static str,
    pub hard: &'static str,
    pub queued: &'static str,
    pub judging: &'static str,
    pub done: &'static str,
    pub role_admin: &'static str,
    pub role_student: &'static str,
    pub role_teacher: &'static str,
    pub window_upcoming: &'static str,
    pub window_open: &'static str,
    pub window_late: &'static str,
    pub window_closed: &'static str,
    /// A verdict's name.
    pub verdict_name: fn(Verdict) -> &'static str,
    /// What an assignment does with late work: `(percent lost per step, step in hours)`, or
    /// `None` when nothing is accepted after the due time.
    pub late_rule: fn(Option<(i64, f64)>) -> String,
    /// How an assignment counts and what its students see after judging, as a sentence.
    pub assignment_rules: fn(Scoring, Feedback) -> String,
    /// A refusal of the operations (worded in English) for this table's readers.
    pub refusal: fn(&Error) -> String,
    /// A refusal the router or a layer made: its status and axum's English text.
    pub status_refusal: fn(axum::http::StatusCode, &str) -> String,
    /// A message of the judge about a test, when its wording is known in this language.
    pub judge_words: fn(&str) -> Option<String>,
    // Students' pages (issue 18: phones, keeping the student's work, names people read).
    pub your_attempts: &'static str,
    pub no_attempts_yet: &'static str,
    pub edit_and_resubmit: &'static str,
    /// Before a link to the submission whose work fills the form.
    pub loaded_from_submission: &'static str,
    pub name_rules: &'static str,
    /// What a password needs, before anyone has failed it: the fewest characters.
    pub password_rules: fn(usize) -> String,
    pub group_samples: &'static str,
    pub group_personal: &'static str,
    /// A subtask's tests as the statements number them: "Subtask 2".
    pub group_subtask: fn(usize) -> String,
    /// A subtask as the statements list it: "Subtask 1 (30 points)".
    pub subtask_points: fn(usize, u32) -> String,
    /// A queued submission's place in the queue (1 is next).
    pub queue_place: fn(i64) -> String,
    /// Before the number of the test where a subtask first failed: "failed at test" (3).
    pub failed_at_test: &'static str,
    pub not_judged: &'static str,
    pub grundy_value: &'static str,
    pub side_first: &'static str,
    pub side_second: &'static str,
    pub copied: &'static str,
    pub copy_by_hand: &'static str,

    // Teachers and time zones (issue 18, items 2 and 6).
    pub time_zone: &'static str,
    /// The account's zone left to the browser.
    pub time_zone_browser: &'static str,
    pub time_zone_hint: &'static str,
    /// Beside a deadline form's zone.
    pub deadline_zone_hint: &'static str,
    pub edit_assignment: &'static str,
    pub delete_assignment: &'static str,
    /// "Delete the assignment “Week 1”?"
    pub delete_assignment_question: fn(&str) -> String,
    pub delete_assignment_detail: &'static str,
    /// `(member, course)`: "Remove sam from Class 10A?"
    pub remove_member_question: fn(&str, &str) -> String,
    pub remove_member_detail: &'static str,
    pub cancel: &'static str,
    pub search_problems: &'static str,
    pub problems_pick_hint: &'static str,
    /// The number that places a problem in its assignment.
    pub problem_order: &'static str,
    pub assignment: &'static str,
    /// A course without students, to its teachers.
    pub no_students_yet: &'static str,
    pub gradebook_empty: &'static str,
    /// After "no assignments yet", to the course's teachers.
    pub no_assignments_teacher: &'static str,
    pub origin: &'static str,
    pub version: &'static str,
    pub owner: &'static str,
    /// A problem's state: draft or published.
    pub problem_state: &'static str,
    pub draft: &'static str,
    pub published: &'static str,
    pub publish: &'static str,
    pub export_zip: &'static str,
    /// Where a problem comes from.
    pub origin_name: fn(Origin) -> &'static str,
    /// What a package holds, before the `type: interactive` key.
    pub upload_layout: &'static str,
    /// `(MiB zipped, MiB unpacked)`: the package limits and what uploading does.
    pub upload_limits: fn(usize, u64) -> String,
    /// `(used, quota)`, both already written in MiB.
    pub quota_usage: fn(&str, Option<&str>) -> String,
    /// `(problem, version, published)`: a package just stored.
    pub uploaded_notice: fn(&str, u32, bool) -> String,
    pub published_notice: fn(&str) -> String,
    /// `(how many, problem)`.
    pub requeued_notice: fn(u64, &str) -> String,
    /// `(user, role)`.
    pub role_now: fn(&str, &str) -> String,
    pub password_set_for: fn(&str) -> String,
    pub range_not_a_number: &'static str,
    /// Why an import left a name out, from the operation's English reason.
    pub import_refusal: fn(&str) -> String,
    /// Under the new accounts' passwords: where a student changes theirs.
    pub new_accounts_hint: &'static str,
    /// Invitations into courses waiting for the reader's answer.
    pub invitations: &'static str,
    /// `(who invited, if known, course title, part offered)`: one invitation as its person reads
    /// it.
    pub invitation_line: fn(Option<&str>, &str, MemberRole) -> String,
    /// What accepting an invitation to take this part shares, and with whom.
    pub invitation_shares: fn(MemberRole) -> &'static str,
    /// Before the names of a course's teachers.
    pub course_teachers: &'static str,
    pub accept: &'static str,
    pub decline: &'static str,
    /// In an import's report: existing accounts asked to join.
    pub invited: &'static str,
    /// Over a course's invitations not accepted, for its teachers.
    pub invited_heading: &'static str,
    pub invited_hint: &'static str,
    pub invitation_waiting: &'static str,
    pub invitation_declined: &'static str,
    pub withdraw: &'static str,
    /// The column of how each member came to be in the course.
    pub member_origin_heading: &'static str,
    pub member_origin: fn(MemberOrigin) -> &'static str,
    /// On the users page of a teacher, who makes no accounts there.
    pub users_teacher_hint: &'static str,
    /// On the upload and variant pages: `(most subtasks, most tests, most MiB of tests)` a
    /// problem may have, and what its generated tests count against.
    pub problem_caps: fn(usize, usize, u64) -> String,
}

impl Ui {
    /// The table of a language.
    pub fn of(locale: Locale) -> &'static Ui {
        match locale {
            Locale::En => &en::ENGLISH,
            Locale::Vi => &vi::VIETNAMESE,
        }
    }

    /// A verdict as people read it. Templates hand over references.
    pub fn verdict(&self, verdict: impl Borrow<Verdict>) -> &'static str {
        (self.verdict_name)(*verdict.borrow())
    }

    /// "1 attempt", "2 attempts", in the table's language.
    pub fn attempts(&self, count: impl Borrow<i64>) -> String {
        (self.attempts_count)(*count.borrow())
    }

    /// A refusal in the table's language.
    pub fn error(&self, error: &Error) -> String {
        (self.refusal)(error)
    }

    /// A message of the judge about a test, in the table's language where its wording is known.
    pub fn judge_message(&self, message: &str) -> String {
        (self.judge_words)(message).unwrap_or_else(|| message.to_owned())
    }

    /// A problem's difficulty by its code (`easy`, `medium`, `hard`).
    pub fn difficulty(&self, code: &str) -> &'static str {
        match code {
            "easy" => self.easy,
            "medium" => self.medium,
            _ => self.hard,
        }
    }

    /// A tag as people read it. Templates hand over references.
    pub fn tag(&self, tag: impl AsRef<str>) -> String {
        let tag = tag.as_ref();
        (self.tag_name)(tag).map_or_else(|| tag.replace('-', " "), str::to_owned)
    }

    /// A role by its code (`admin`, `teacher`, `student`).
    pub fn role(&self, code: &str) -> &'static str {
        match code {
            "admin" => self.role_admin,
            "teacher" => self.role_teacher,
            _ => self.role_student,
        }
    }

    /// Where an assignment stands by its code (`upcoming`, `open`, `late`, `closed`).
    pub fn window(&self, code: &str) -> &'static str {
        match code {
            "upcoming" => self.window_upcoming,
            "open" => self.window_open,
            "late" => self.window_late,
            _ => self.window_closed,
        }
    }

    /// A scoring rule as a teacher chooses it.
    pub fn scoring(&self, scoring: impl Borrow<Scoring>) -> &'static str {
        match scoring.borrow() {
            Scoring::Best => self.scoring_best,
            Scoring::Last => self.scoring_last,
        }
    }

    /// The heading over what was judged beside the input and the expected answer: the
    /// program's output, or the answer typed.
    pub fn your_output(&self, is_answers: impl Borrow<bool>) -> &'static str {
        if *is_answers.borrow() {
            self.your_answer
        } else {
            self.program_output
        }
    }

    /// A feedback level as a teacher chooses it.
    pub fn feedback_level(&self, feedback: impl Borrow<Feedback>) -> &'static str {
        match feedback.borrow() {
            Feedback::Verdict => self.feedback_verdict,
            Feedback::Tests => self.feedback_tests,
            Feedback::Inputs => self.feedback_inputs,
        }
    }

    /// What a submission's verdict column says: its verdict, or how far judging got.
    pub fn state(&self, state: impl Borrow<SubmissionState>) -> &'static str {
        match *state.borrow() {
            SubmissionState::Judged(verdict) => self.verdict(verdict),
            SubmissionState::Pending(SubmissionStatus::Queued) => self.queued,
            SubmissionState::Pending(SubmissionStatus::Judging) => self.judging,
            SubmissionState::Pending(SubmissionStatus::Done) => self.done,
        }
    }

    /// A test group as people read it: the samples, a subtask by its statement number, or a
    /// student's personal instances.
    pub fn group(&self, group: Group) -> String {
        match group {
            Group::Samples => self.group_samples.to_owned(),
            Group::Subtask(s) => (self.group_subtask)(s),
            Group::Personal => self.group_personal.to_owned(),
        }
    }

    /// A subtask's result as a line: "Subtask 1 (30 points): 0/30, failed at test 3". `number`
    /// is its place in the statement (from 1).
    pub fn subtask_line(&self, number: usize, result: &SubtaskResult) -> String {
        let label = (self.subtask_points)(number, result.points);
        let mut line = format!("{label}: {}/{}", result.score, result.points);
        if let Some(test) = result.failed_at {
            line = format!("{line}, {} {test}", self.failed_at_test);
        } else if result.verdict == Verdict::Skipped {
            line = format!("{line}, {}", self.not_judged);
        }
        line
    }

    /// The side a player took in a game.
    pub fn side(&self, side: impl Borrow<Side>) -> &'static str {
        match side.borrow() {
            Side::First => self.side_first,
            Side::Second => self.side_second,
        }
    }

    /// Every verdict's and status's name by its code, for the live page's script.
    pub fn verdicts_json(&self) -> String {
        let states = [SubmissionStatus::Queued, SubmissionStatus::Judging]
            .into_iter()
            .map(SubmissionState::Pending)
            .chain(Verdict::ALL.into_iter().map(SubmissionState::Judged));
        let map: serde_json::Map<String, serde_json::Value> = states
            .map(|state| (state.code().to_owned(), self.state(state).into()))
            .collect();
        serde_json::Value::Object(map).to_string()
    }
}

/// Where a submission stands: judged with a verdict, or still queued or being judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmissionState {
    Judged(Verdict),
    Pending(SubmissionStatus),
}

impl SubmissionState {
    pub fn of(submission: &grundy_store::Submission) -> SubmissionState {
        submission.verdict.map_or(
            SubmissionState::Pending(submission.status),
            SubmissionState::Judged,
        )
    }

    /// The wire name, which the pages' styles and script key on.
    pub fn code(self) -> &'static str {
        match self {
            SubmissionState::Judged(verdict) => verdict.as_str(),
            SubmissionState::Pending(status) => status.as_str(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table's labels by field name, read from its `Debug` form (functions are left out).
    fn labels(ui: &Ui) -> Vec<(String, String)> {
        format!("{ui:#?}")
            .lines()
            .filter_map(|line| line.trim().split_once(": \""))
            .map(|(field, text)| (field.to_owned(), text.trim_end_matches("\",").to_owned()))
            .collect()
    }

    #[test]
    fn every_vietnamese_label_is_translated() {
        // Words Vietnamese classrooms use as they are.
        const SAME: [&str; 2] = ["code", "test"];
        let english = labels(&en::ENGLISH);
        let vietnamese = labels(&vi::VIETNAMESE);
        assert!(english.len() > 200, "{}", english.len());
        assert_eq!(english.len(), vietnamese.len());
        for ((field, en), (_, vi)) in english.iter().zip(&vietnamese) {
            assert!(
                en != vi || SAME.contains(&field.as_str()),
                "{field} is still English: {vi:?}"
            );
        }
    }

    #[test]
    fn attempts_are_counted_in_each_languages_grammar() {
        let en = Ui::of(Locale::En);
        assert_eq!(en.attempts(1), "1 attempt");
        assert_eq!(en.attempts(0), "0 attempts");
        assert_eq!(en.attempts(2), "2 attempts");
        let vi = Ui::of(Locale::Vi);
        assert_eq!(vi.attempts(1), "1 lần nộp");
        assert_eq!(vi.attempts(2), "2 lần nộp");
    }

    #[test]
    fn verdicts_have_vietnamese_names() {
        let vi = Ui::of(Locale::Vi);
        assert_eq!(vi.verdict(Verdict::Accepted), "Đúng");
        assert_eq!(vi.verdict(Verdict::WrongAnswer), "Sai kết quả");
        assert_eq!(vi.verdict(Verdict::TimeLimit), "Quá thời gian");
        for verdict in Verdict::ALL {
            assert_ne!(vi.verdict(verdict), verdict.label(), "{verdict:?}");
        }
    }

    #[test]
    fn the_live_page_gets_a_name_for_every_verdict_and_pending_state() {
        let names: serde_json::Value = serde_json::from_str(&en::ENGLISH.verdicts_json()).unwrap();
        for verdict in Verdict::ALL {
            assert_eq!(names[verdict.as_str()], verdict.label(), "{verdict:?}");
        }
        assert_eq!(names["queued"], "Queued");
        assert_eq!(names["judging"], "Judging");
        assert_eq!(names["wrong_answer"], "Wrong Answer");
    }
}
