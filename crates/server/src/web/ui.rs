//! The pages' words. Templates read every label from a `Ui`, so another language is one more
//! table and a line in `Ui::for_locale`; statements carry their own languages (`?lang=`).

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
    pub new_password: &'static str,
    pub set_password: &'static str,
    pub created: &'static str,
    pub back: &'static str,
}

impl Ui {
    /// English for now; a Vietnamese table would be added here.
    pub fn for_locale(_code: &str) -> &'static Ui {
        &ENGLISH
    }

    /// The display name of a verdict or status code.
    pub fn verdict(&self, code: &str) -> &'static str {
        VERDICTS
            .iter()
            .find(|(c, _)| *c == code)
            .map_or("Unknown", |(_, name)| name)
    }

    /// The verdict names as JSON, for the live page's script.
    pub fn verdicts_json(&self) -> String {
        let map: serde_json::Map<String, serde_json::Value> = VERDICTS
            .iter()
            .map(|(code, name)| ((*code).to_owned(), (*name).into()))
            .collect();
        serde_json::Value::Object(map).to_string()
    }
}

const VERDICTS: &[(&str, &str)] = &[
    ("queued", "Queued"),
    ("judging", "Judging"),
    ("accepted", "Accepted"),
    ("wrong_answer", "Wrong Answer"),
    ("time_limit", "Time Limit Exceeded"),
    ("memory_limit", "Memory Limit Exceeded"),
    ("output_limit", "Output Limit Exceeded"),
    ("runtime_error", "Runtime Error"),
    ("compilation_error", "Compilation Error"),
    ("security_violation", "Security Violation"),
    ("internal_error", "Internal Error"),
    ("skipped", "Skipped"),
];

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
    new_password: "New password",
    set_password: "Set password",
    created: "Created",
    back: "Back",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_the_judge_gives_has_a_name() {
        for verdict in [
            grundy_judge::Verdict::Accepted,
            grundy_judge::Verdict::WrongAnswer,
            grundy_judge::Verdict::TimeLimit,
            grundy_judge::Verdict::MemoryLimit,
            grundy_judge::Verdict::OutputLimit,
            grundy_judge::Verdict::RuntimeError,
            grundy_judge::Verdict::CompilationError,
            grundy_judge::Verdict::SecurityViolation,
            grundy_judge::Verdict::InternalError,
            grundy_judge::Verdict::Skipped,
        ] {
            assert_ne!(ENGLISH.verdict(verdict.as_str()), "Unknown", "{verdict:?}");
        }
    }
}
