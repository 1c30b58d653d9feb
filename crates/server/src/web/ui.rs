//! The pages' words. Templates read every label from a `Ui`, so another language is one more
//! table and a line in `Ui::for_locale`; statements carry their own languages (`?lang=`).

use std::borrow::Borrow;

use grundy_judge::Verdict;
use grundy_store::{Feedback, Scoring, SubmissionStatus};

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
    pub your_result: &'static str,
    pub solved: &'static str,
    pub attempted: &'static str,
    pub time_limit: &'static str,
    pub memory_limit: &'static str,
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
    pub choose_several: &'static str,
    pub course: &'static str,
    pub your_extension: &'static str,
    pub late_penalty: &'static str,
    pub attempts: &'static str,
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
    pub for_assignment: &'static str,
    pub verdict_only: &'static str,
    pub explanation: &'static str,
    pub smallest_counterexample: &'static str,
    pub large_counterexample: &'static str,
    pub program_printed: &'static str,
    pub no_small_counterexample: &'static str,
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
    pub play: &'static str,
    pub play_this_game: &'static str,
    pub play_intro: &'static str,
    pub play_rules: &'static str,
    pub play_start: &'static str,
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
}

impl Ui {
    /// English for now; a Vietnamese table would be added here.
    pub fn for_locale(_code: &str) -> &'static Ui {
        &ENGLISH
    }

    /// A verdict as people read it: the verdict table's English name (a table of another
    /// language would give its own here). Templates hand over references.
    pub fn verdict(&self, verdict: impl Borrow<Verdict>) -> &'static str {
        verdict.borrow().label()
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
            SubmissionState::Pending(SubmissionStatus::Queued) => "Queued",
            SubmissionState::Pending(SubmissionStatus::Judging) => "Judging",
            SubmissionState::Pending(SubmissionStatus::Done) => "Done",
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

static ENGLISH: Ui = Ui {
    code: "en",
    site_tagline: "an online judge for combinatorial game theory",
    problems: "Problems",
    my_submissions: "My submissions",
    teach: "Teach",
    log_in: "Log in",
    log_out: "Log out",
    register: "Register",
    signed_in_as: "Signed in as",
    name: "Name",
    password: "Password",
    invitation_code: "Invitation code",
    registration_closed: "Registration is closed: ask your teacher or the operator for an account.",
    no_account: "No account yet?",
    title: "Title",
    difficulty: "Difficulty",
    tags: "Tags",
    all_tags: "all",
    your_result: "You",
    solved: "solved",
    attempted: "attempted",
    time_limit: "Time limit",
    memory_limit: "Memory limit",
    statement_language: "Statement language",
    samples: "Samples",
    input: "Input",
    output: "Output",
    copy: "Copy",
    submit: "Submit",
    submit_program: "Submit a program",
    language: "Language",
    source: "Source code",
    or_upload: "or upload a file",
    log_in_to_submit: "Log in to submit a solution.",
    answer_mode: "Answer mode",
    answer_mode_intro: "Solve these instances by any means and type the answers. They are yours: \
                        other students get different ones. Each subtask's points count when all \
                        its instances are right.",
    your_answer: "Your answer",
    submit_answers: "Submit answers",
    submission: "Submission",
    problem: "Problem",
    user: "User",
    verdict: "Verdict",
    score: "Score",
    submitted: "Submitted",
    test: "Test",
    cpu_time: "CPU time",
    memory: "Memory",
    message: "Message",
    compiler_output: "Compiler output",
    no_submissions: "No submissions yet.",
    older: "Older",
    upload_package: "Upload a problem package",
    package_file: "Package (.zip, Kattis/ICPC layout)",
    upload: "Upload",
    create_variant: "Create a variant of a built-in game",
    base_problem: "Base problem",
    slug: "Slug",
    subtasks_json: "Subtasks (JSON: name, points, tests, generator)",
    create: "Create",
    all_submissions: "All submissions",
    filter: "Filter",
    any: "any",
    rejudge: "Rejudge",
    rejudge_all: "Rejudge all of this problem",
    users: "Users",
    role: "Role",
    new_user: "New user",
    change_role: "Change role",
    account: "Your account",
    change_password: "Change password",
    current_password: "Current password",
    password_changed: "Your password is changed. Your other sessions have ended.",
    api_tokens: "API tokens",
    api_tokens_intro: "A token lets a script or the grundy command act as you (Authorization: Bearer …). Revoke one you no longer use.",
    token_label: "Label",
    token_created: "Created",
    token_expires: "Expires",
    token_last_used: "Last used",
    never: "never",
    revoke: "Revoke",
    new_token: "New token",
    new_token_once: "Copy it now: it is shown only this once.",
    lasts_days: "Lasts (days)",
    no_tokens: "No tokens.",
    new_password: "New password",
    set_password: "Set password",
    created: "Created",
    back: "Back",
    courses: "Courses",
    no_courses: "You are in no course yet.",
    join_course: "Join a course",
    join_code: "Join code",
    join: "Join",
    new_course: "New course",
    join_code_hint: "students type it on the Courses page to join",
    added: "Added",
    already_in: "already in",
    new_accounts: "New accounts (their passwords are shown this once):",
    assignments: "Assignments",
    no_assignments: "No assignments yet.",
    due: "Due",
    status: "Status",
    new_assignment: "New assignment",
    members: "Members",
    teachers: "Teachers",
    joined: "Joined",
    remove: "Remove",
    add_people: "Add students or co-teachers",
    names_one_per_line: "User names, one per line",
    co_teacher: "co-teacher",
    create_missing: "Create accounts for students who have none",
    add: "Add",
    opens: "Opens",
    closes: "Closes (hard deadline)",
    penalty_percent: "Late penalty, % per step",
    penalty_step_hours: "Penalty step, hours",
    scoring: "Counted submission",
    scoring_best: "the best after penalties",
    scoring_last: "the last judged",
    feedback: "Feedback to students",
    feedback_verdict: "verdict and score only",
    feedback_tests: "per-test verdicts",
    feedback_inputs: "per-test verdicts and the failing tests' inputs with expected answers (hidden tests of a teacher's problem only when its owner teaches this course; in answer mode a student can copy the answers: regenerate their draw, or prefer programs)",
    choose_several: "(Ctrl/⌘-click to choose several)",
    course: "Course",
    your_extension: "You have an extension",
    late_penalty: "Late penalty",
    attempts: "attempts",
    attempts_heading: "Attempts",
    counted: "Counted submission",
    pending: "waiting",
    total: "Total",
    gradebook: "Gradebook",
    download_csv: "Download the gradebook (CSV)",
    student: "Student",
    instances: "instances",
    class_mean: "Class mean",
    extensions: "Extensions",
    give_extension: "Give an extension",
    draw: "Draw",
    pinned: "pinned",
    regenerate: "Regenerate",
    unpin: "Unpin",
    pin: "Pin",
    regenerate_hint: "Regenerating draws new instances for this student; submissions already made keep the instances they answered. A pinned draw does not change.",
    expected: "Expected answer",
    personal_tests_on: "Programs also run on each student's own instances",
    personal_tests: "Also run programs on each student's own instances (no points; their failing inputs can be shown)",
    for_assignment: "For the assignment",
    verdict_only: "For this assignment your teacher shows the verdict and score only.",
    explanation: "Why it is wrong",
    smallest_counterexample: "The smallest game your program gets wrong, alone in an input:",
    large_counterexample: "Your program answers every small game right; here is a large game it gets wrong (some mistakes, such as floating point, show only near the limits):",
    program_printed: "Your program printed",
    no_small_counterexample: "No small counterexample was found within the bounds: your program answers every small game it was tried on right, so its mistake shows only on larger ones (an overflow, a precision loss, a time limit).",
    misconception: "The classic mistake:",
    class_misconceptions: "Misconceptions in the class",
    class_misconceptions_none: "No wrong program in this assignment has been matched to a classic mistake yet.",
    subtasks: "Subtasks",
    failed_tests: "Failed tests",
    program_output: "Your program's output",
    too_large: "The input is too large to show.",
    games: "Games",
    games_intro: "Each move with the position it left and that position's value for the player to move next.",
    game: "Game",
    took_side: "your program took the side",
    program: "your program",
    referee: "referee",
    win: "won for the player to move",
    lose: "lost for the player to move",
    play: "Play",
    play_this_game: "Play this game against the reference",
    play_intro: "Play against the reference, which never makes a mistake: take the side that wins and keep it.",
    play_rules: "The rules and the notation of moves are in the problem's statement.",
    play_start: "Start position (as the problem writes a game; change it or keep the one drawn)",
    play_side: "Your side",
    play_first: "first (you move first)",
    play_second: "second (the referee moves first)",
    play_begin: "Start the game",
    play_start_was: "The game started from",
    play_you_are: "you play",
    play_position: "Position now:",
    play_you_won: "You won.",
    play_you_lost: "The referee won.",
    play_again: "Play another game",
    play_your_move: "Your move",
    play_move: "Move",
    play_hint: "Hint",
    play_no_winning_move: "Every move from here loses against perfect play: the position is lost for the player to move.",
    play_winning_moves: "Winning moves from here:",
    play_value: "value",
    play_value_history: "Value history",
    play_moves: "Moves",
    play_by: "By",
    play_leaves: "Position left",
    play_value_left: "Value for the player to move next",
    play_you: "you",
    play_mistake: "Mistake: this gave the win away. A winning move was",
    play_no_mistake: "You made no mistake.",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_page_gets_a_name_for_every_verdict_and_pending_state() {
        let names: serde_json::Value = serde_json::from_str(&ENGLISH.verdicts_json()).unwrap();
        for verdict in Verdict::ALL {
            assert_eq!(names[verdict.as_str()], verdict.label(), "{verdict:?}");
        }
        assert_eq!(names["queued"], "Queued");
        assert_eq!(names["judging"], "Judging");
        assert_eq!(names["wrong_answer"], "Wrong Answer");
    }
}
