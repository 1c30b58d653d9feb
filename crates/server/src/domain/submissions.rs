//! Submissions: programs and answers in, results out at the feedback level the viewer is owed,
//! and what a follower of judging needs.

use std::collections::BTreeMap;
use std::sync::Arc;

use grundy_judge::explain::Explanation;
use grundy_judge::naming::{self, Group, TestName};
use grundy_judge::{Scorer, SubtaskResult, Verdict};
use grundy_problems::Problem;
use grundy_problems::play::Transcript;
use grundy_store::{
    Feedback, Submission, SubmissionKind, SubmissionQuery, SubmissionStatus, TestRow, User,
};

use super::assignments::{self, Window};
use super::problems::{self, Drawn, find, practice_seed};
use super::{Domain, Error, Result, access};
use crate::clock::when;
use crate::registry::Entry;

/// At most this many answers in one submission.
pub const MAX_ANSWERS: usize = 1000;
/// Larger inputs are left out of what a student is shown, as too large (the built-in games'
/// largest are megabytes).
const MAX_SHOWN_INPUT: usize = 4 << 20;

/// Something to judge, for a problem, perhaps for an assignment.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    pub problem: String,
    pub work: Work,
    /// The assignment it is for: it must be open to the caller and list the problem.
    pub assignment: Option<i64>,
}

#[derive(Debug, Clone)]
pub enum Work {
    Program {
        /// As the submitter named it: an id or an alias.
        language: String,
        source: String,
    },
    /// Outputs by instance name.
    Answers {
        answers: BTreeMap<String, String>,
        /// The problem version the instances were drawn at: answers to another's are refused.
        version: Option<u32>,
        /// In an assignment: the draw they answer (required there).
        draw: Option<i64>,
    },
}

/// Checks a program or answers, applies the rate limit and queues it.
pub async fn submit(domain: &Domain, user: &User, new: NewSubmission) -> Result<i64> {
    let entry = problems::visible(domain, Some(user), &new.problem).await?;
    let checked = check(domain, &entry.problem, new.work)?;
    let now = domain.now();
    let (instance_seed, priority) = match new.assignment {
        None => (None, grundy_store::priority::PRACTICE),
        Some(id) => personal_seed(domain, user, id, &entry.problem, &checked, now).await?,
    };
    within_rate(domain, user, now).await?;
    let id = domain
        .store
        .create_submission(
            &grundy_store::NewSubmission {
                user_id: user.id,
                problem: new.problem,
                kind: checked.kind,
                language: checked.language,
                source: checked.source,
                priority,
                assignment_id: new.assignment,
                instance_seed,
            },
            now,
        )
        .await?;
    domain.queued.notify_one();
    Ok(id)
}

/// A program or answers, checked, as they are stored.
struct Checked {
    kind: SubmissionKind,
    language: Option<String>,
    /// The program, or the answers as JSON.
    source: Vec<u8>,
    /// With answers: the draw they answer, if they name one.
    answered_draw: Option<Option<i64>>,
}

fn check(domain: &Domain, problem: &Problem, work: Work) -> Result<Checked> {
    match work {
        Work::Program { language, source } => {
            // Stored by its id, never the alias typed: the gradebook, rejudges and the pages
            // each show one name.
            let id = domain
                .languages
                .get(&language)
                .map_err(|e| Error::BadRequest(e.to_string()))?
                .id()
                .to_owned();
            if source.trim().is_empty() {
                return Err(Error::BadRequest("the source is empty".into()));
            }
            if source.len() > domain.policy.source_bytes {
                return Err(Error::BadRequest(format!(
                    "the source is larger than {} bytes",
                    domain.policy.source_bytes
                )));
            }
            Ok(Checked {
                kind: SubmissionKind::Program,
                language: Some(id),
                source: source.into_bytes(),
                answered_draw: None,
            })
        }
        Work::Answers {
            answers,
            version,
            draw,
        } => {
            if !problem.is_family_backed() {
                // Its only instances would be the samples, worth no points.
                return Err(Error::BadRequest(format!(
                    "{} is an uploaded package: its tests are hidden, so it takes programs only",
                    problem.slug()
                )));
            }
            if let Some(version) = version
                && version != problem.spec.version
            {
                return Err(Error::Conflict(format!(
                    "the problem is at version {} now; fetch its instances again",
                    problem.spec.version
                )));
            }
            if answers.is_empty() {
                return Err(Error::BadRequest("no answers given".into()));
            }
            if answers.len() > MAX_ANSWERS {
                return Err(Error::BadRequest(format!(
                    "at most {MAX_ANSWERS} answers per submission"
                )));
            }
            let json = serde_json::to_vec(&answers).map_err(|e| Error::Internal(e.to_string()))?;
            Ok(Checked {
                kind: SubmissionKind::Answers,
                language: None,
                source: json,
                answered_draw: Some(draw),
            })
        }
    }
}

/// For a submission to assignment `id`: the seed of the student's personal instances when the
/// submission uses them. Answers always answer them, and must name the current draw; programs
/// run on them when the assignment asks for it and the problem can draw them.
async fn personal_seed(
    domain: &Domain,
    user: &User,
    id: i64,
    problem: &Problem,
    checked: &Checked,
    now: i64,
) -> Result<(Option<i64>, i64)> {
    let (seed, generation, personal_tests, priority) =
        assignment_seed(domain, user, id, problem.slug(), now).await?;
    if let Some(answered) = checked.answered_draw {
        let Some(answered) = answered else {
            return Err(Error::BadRequest(
                "answers for an assignment name the `draw` of the instances they answer".into(),
            ));
        };
        if answered != generation {
            return Err(Error::Conflict(
                "your instances were drawn again since you fetched them; fetch them again".into(),
            ));
        }
    }
    let personal =
        checked.kind == SubmissionKind::Answers || (personal_tests && problem.is_family_backed());
    Ok((personal.then_some(seed), priority))
}

/// At most the operator's number of submissions a minute per user.
async fn within_rate(domain: &Domain, user: &User, now: i64) -> Result<()> {
    let rate = domain.policy.submissions_per_minute;
    if rate == 0 {
        return Ok(());
    }
    let recent = domain
        .store
        .count_submissions_since(user.id, now - 60_000)
        .await?;
    if recent >= i64::from(rate) {
        return Err(Error::TooManyRequests {
            retry_after_secs: 60,
            limit: rate,
        });
    }
    Ok(())
}

/// Checks that `user` may submit `problem` to the assignment now and returns the seed of their
/// personal instances in it, the draw's generation, and whether programs run on them. Teachers
/// may try their own assignments at any time.
async fn assignment_seed(
    domain: &Domain,
    user: &User,
    id: i64,
    problem: &str,
    now: i64,
) -> Result<(i64, i64, bool, i64)> {
    let (assignment, role) = access::assignment(domain, user, id).await?;
    // Not "not found", unlike on the assignment's pages: the submission, not the path, is wrong.
    if !assignments::lists(&assignment, problem) {
        return Err(Error::BadRequest(format!(
            "{problem} is not part of assignment {id}"
        )));
    }
    // Work due soon goes ahead of practice; late work waits with practice, so that a deadline
    // cannot be beaten by submitting after it.
    let mut priority = grundy_store::priority::ASSIGNMENT;
    if access::bound_by_deadlines(role) {
        let deadlines = assignments::deadlines_for(domain, &assignment, user.id).await?;
        match Window::of(&deadlines, now) {
            Window::Upcoming => {
                return Err(Error::Conflict(format!(
                    "the assignment opens at {}",
                    when(deadlines.opens_at)
                )));
            }
            Window::Closed => {
                return Err(Error::Conflict(format!(
                    "the assignment closed at {}",
                    when(deadlines.closes_at)
                )));
            }
            Window::Open => {}
            Window::Late => priority = grundy_store::priority::PRACTICE,
        }
    }
    let (draw, seed) = assignments::personal_draw(domain, id, user.id, problem).await?;
    Ok((
        seed,
        draw.generation,
        assignment.spec.personal_tests,
        priority,
    ))
}

/// The submission if the caller may see it; someone else's is "not found", not "forbidden",
/// so ids reveal nothing.
pub async fn visible(domain: &Domain, user: &User, id: i64) -> Result<Submission> {
    match domain.store.submission(id).await? {
        Some(s) if access::may_see_submission(domain, user, &s).await? => Ok(s),
        _ => Err(Error::NotFound(format!("submission {id}"))),
    }
}

/// Whether `user` may take `submission`'s work back into a form to edit and submit again: only
/// its author, not a teacher who may see it.
pub fn may_resubmit(user: &User, submission: &Submission) -> bool {
    submission.user_id == user.id
}

/// One's own submission with its source (the program, or the answers as JSON), to edit and
/// submit again; anyone else's is "not found", as in [`visible`].
pub async fn own_work(domain: &Domain, user: &User, id: i64) -> Result<(Submission, String)> {
    match domain.store.submission(id).await? {
        Some(s) if may_resubmit(user, &s) => {
            let source = domain
                .store
                .submission_source(id)
                .await?
                .unwrap_or_default();
            Ok((s, String::from_utf8_lossy(&source).into_owned()))
        }
        _ => Err(Error::NotFound(format!("submission {id}"))),
    }
}

/// Narrows a listing; the caller's permissions narrow it further.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only this user's.
    pub author: Option<i64>,
    pub problem: Option<String>,
    pub verdict: Option<Verdict>,
    /// Ids below this one (the next page).
    pub before: Option<i64>,
    pub assignment: Option<i64>,
    /// Only those made for the assignments of this course.
    pub course: Option<i64>,
    /// At most this many (1–500; 50 when not given), newest first.
    pub limit: Option<i64>,
}

/// Newest first, what the caller may see of what the filter asks for.
pub async fn list(domain: &Domain, viewer: &User, filter: &Filter) -> Result<Vec<Submission>> {
    let Some(scope) = access::visible_submissions(viewer, filter.author) else {
        return Ok(Vec::new());
    };
    Ok(domain
        .store
        .submissions(&SubmissionQuery {
            problem: filter.problem.as_deref(),
            verdict: filter.verdict,
            before: filter.before,
            assignment: filter.assignment,
            course: filter.course,
            limit: filter.limit.unwrap_or(50).clamp(1, 500),
            ..scope
        })
        .await?)
}

/// One test as the viewer sees it.
#[derive(Debug, Clone)]
pub struct ShownTest {
    /// The stored result, without the data the judge kept ([`TestRow::shown`]): what of it the
    /// viewer sees is in the fields below. Its message is the one quoting the test's data
    /// ([`TestRow::detail`]) where the viewer sees that data, else the one naming places only.
    pub row: TestRow,
    /// The test's input and expected answer, when the viewer may see them: a sample's, the
    /// student's own instance's, and at the `inputs` level a failing hidden test's (see
    /// [`access::reveals_hidden_tests`]).
    pub input: Option<String>,
    pub expected: Option<String>,
    /// What the program printed (or the answer typed), on a failed test whose data the viewer
    /// may see; never on a hidden test, whatever the level.
    pub output: Option<String>,
    /// The viewer may see the test's input and expected answer, but they are too large to show.
    pub too_large: bool,
    /// An interactive test's games move by move, where the viewer may see the test's data.
    pub transcript: Option<Transcript>,
}

impl ShownTest {
    /// A stored result as `feedback` shows it to someone who may see `submission`'s tests: the
    /// data the judge kept, and the message quoting it, where the level shows it (see
    /// [`access::sees_test_data`]).
    pub fn of(submission: &Submission, feedback: Feedback, mut row: TestRow) -> ShownTest {
        let kept = row.shown.take();
        let transcript = row.transcript.take();
        let detail = row.detail.take();
        let group = row.name.group.as_str();
        let public = group == naming::SAMPLES_GROUP;
        // The judge keeps data only where it is the student's to see; a program's other rows
        // are hidden tests whatever they hold.
        let own = match submission.kind {
            SubmissionKind::Answers => true,
            SubmissionKind::Program => public || group == naming::PERSONAL_GROUP,
        };
        let sees = own && access::sees_test_data(feedback, public);
        let kept = kept.filter(|_| sees);
        let transcript = transcript.filter(|_| sees);
        if let Some(detail) = detail.filter(|_| sees) {
            row.message = Some(detail);
        }
        let (input, expected, output) = match kept {
            Some(shown) => (Some(shown.input), Some(shown.expected), Some(shown.output)),
            None => (None, None, None),
        };
        ShownTest {
            row,
            input,
            expected,
            output,
            too_large: false,
            transcript,
        }
    }

    fn failed(&self) -> bool {
        self.row.verdict.is_failure()
    }
}

/// A submission as its viewer may see it.
#[derive(Debug)]
pub struct Detail {
    pub submission: Submission,
    /// Who made it.
    pub author: String,
    /// How much the viewer is told of its tests.
    pub feedback: Feedback,
    /// Empty for `verdict` feedback.
    pub tests: Vec<ShownTest>,
    /// Each subtask's result, labelled as the statement lists it (see [`subtasks`]).
    pub subtasks: Vec<SubtaskResult>,
    /// The program, or the answers as JSON.
    pub source: String,
    /// Why it is wrong, when found and the feedback level shows it.
    pub explanation: Option<Explanation>,
    /// An explanation is still to come (it is found after the verdict).
    pub explanation_pending: bool,
    /// While it waits: its place in the queue (1 is next).
    pub queue_position: Option<i64>,
    /// Answers whose expected answers the viewer may not see: their explanation works through
    /// a game outside the student's instances, if any ([`Explanation::without_answers`]).
    pub answers_withheld: bool,
}

/// Whether an explanation follows this submission for a viewer told `feedback`: a program's
/// wrong answer or runtime error, or wrong answers, on a problem that explains, at a level that
/// shows it.
fn explained(domain: &Domain, submission: &Submission, feedback: Feedback) -> bool {
    let explained_verdict = match submission.kind {
        SubmissionKind::Program => matches!(
            submission.verdict,
            Some(Verdict::WrongAnswer | Verdict::RuntimeError)
        ),
        SubmissionKind::Answers => submission.verdict == Some(Verdict::WrongAnswer),
    };
    explained_verdict
        && access::shows_explanation(feedback)
        && find(domain, &submission.problem).is_ok_and(|e| e.problem.explainer().is_some())
}

pub async fn detail(domain: &Domain, viewer: &User, id: i64) -> Result<Detail> {
    let submission = visible(domain, viewer, id).await?;
    let feedback = access::feedback_for(domain, viewer, &submission).await?;
    let rows = domain.store.test_results(id).await?;
    let subtasks = subtasks(domain, &submission, feedback, &rows);
    let tests = shown_tests(domain, viewer, &submission, feedback, rows).await?;
    let source = domain
        .store
        .submission_source(id)
        .await?
        .unwrap_or_default();
    let author = if submission.user_id == viewer.id {
        viewer.name.clone()
    } else {
        domain
            .store
            .user_by_id(submission.user_id)
            .await?
            .map_or_else(|| format!("#{}", submission.user_id), |u| u.name)
    };
    let explanation = explanation(domain, id, feedback).await?;
    let explanation_pending = explanation.is_none() && explained(domain, &submission, feedback);
    let queue_position = match submission.status {
        SubmissionStatus::Queued => domain
            .store
            .queue_ahead(id, domain.now())
            .await?
            .map(|ahead| ahead + 1),
        _ => None,
    };
    let answers_withheld =
        submission.kind == SubmissionKind::Answers && !access::sees_test_data(feedback, false);
    Ok(Detail {
        submission,
        author,
        feedback,
        tests,
        subtasks,
        source: String::from_utf8_lossy(&source).into_owned(),
        explanation,
        explanation_pending,
        queue_position,
        answers_withheld,
    })
}

/// The stored explanation of the current attempt, when `feedback` shows explanations; without
/// the expected answers of the student's own instances where it does not show those
/// ([`Explanation::without_answers`]).
pub async fn explanation(
    domain: &Domain,
    id: i64,
    feedback: Feedback,
) -> Result<Option<Explanation>> {
    if !access::shows_explanation(feedback) {
        return Ok(None);
    }
    let Some(body) = domain.store.explanation(id).await? else {
        return Ok(None);
    };
    match serde_json::from_str::<Explanation>(&body) {
        Ok(explanation) if access::sees_test_data(feedback, false) => Ok(Some(explanation)),
        Ok(explanation) => Ok(Some(explanation.without_answers())),
        Err(e) => {
            tracing::error!(submission = id, error = %e, "a stored explanation is unreadable");
            Ok(None)
        }
    }
}

/// The problem as it judged `submission`, if it is still at that version.
fn judged_at_current_version(domain: &Domain, submission: &Submission) -> Option<Arc<Entry>> {
    let entry = find(domain, &submission.problem).ok()?;
    (submission.problem_version == Some(i64::from(entry.problem.spec.version))).then_some(entry)
}

/// Each subtask's result as `rows` give it, labelled as the statement lists it (`Subtask 1 (30
/// points): 0/30, failed at test 3`): for a judged submission whose problem is still at the
/// version that judged it (its subtasks may differ otherwise), and not at the `verdict` level,
/// which keeps back which tests failed. Scored as the judge scores (see
/// [`grundy_judge::scoring`]).
pub fn subtasks(
    domain: &Domain,
    submission: &Submission,
    feedback: Feedback,
    rows: &[TestRow],
) -> Vec<SubtaskResult> {
    if feedback == Feedback::Verdict
        || submission.status != SubmissionStatus::Done
        || rows.is_empty()
    {
        return Vec::new();
    }
    let Some(entry) = judged_at_current_version(domain, submission) else {
        return Vec::new();
    };
    let problem = &entry.problem;
    let personal = submission.kind == SubmissionKind::Program && submission.instance_seed.is_some();
    let mut scorer = Scorer::new(problem);
    for row in rows {
        let Some(group) = Group::named(problem, &row.name.group, personal) else {
            // Results the problem cannot place: nothing to total.
            return Vec::new();
        };
        scorer.record(group, row.name.index, row.verdict);
    }
    scorer.subtasks()
}

/// Test rows as `feedback` allows: none for `verdict`; the data the judge kept where the level
/// shows it ([`ShownTest::of`]); and at `inputs`, while the problem is at the version that
/// judged, each failing test's input and expected answer in full: the student's own instances
/// (drawn again from the stored seed) and the problem's hidden tests where they may be revealed
/// (generated again, or read from the package; see [`access::reveals_hidden_tests`]). An input
/// over [`MAX_SHOWN_INPUT`], or past [`MAX_REGENERATED`] of them together, is too large to show.
async fn shown_tests(
    domain: &Domain,
    viewer: &User,
    submission: &Submission,
    feedback: Feedback,
    rows: Vec<TestRow>,
) -> Result<Vec<ShownTest>> {
    if feedback == Feedback::Verdict {
        return Ok(Vec::new());
    }
    let mut shown: Vec<ShownTest> = rows
        .into_iter()
        .map(|row| ShownTest::of(submission, feedback, row))
        .collect();
    if feedback < Feedback::Inputs || !shown.iter().any(ShownTest::failed) {
        return Ok(shown);
    }
    let Some(entry) = judged_at_current_version(domain, submission) else {
        return Ok(shown);
    };
    let hidden = submission.kind == SubmissionKind::Program
        && access::reveals_hidden_tests(domain, viewer, submission, &entry).await?;
    let wanted: Vec<TestName> = shown
        .iter()
        .filter(|t| t.failed())
        .map(|t| t.row.name.clone())
        .collect();
    let (kind, seed) = (submission.kind, submission.instance_seed);
    let problem = entry.problem.clone();
    let found =
        tokio::task::spawn_blocking(move || failing_tests(&problem, kind, seed, hidden, &wanted))
            .await
            .map_err(|e| super::error::thread("drawing the failing tests again", e))?;
    for test in shown.iter_mut() {
        match found.get(&test.row.name) {
            Some(Some((input, expected))) => {
                test.input = Some(input.clone());
                test.expected = Some(expected.clone());
            }
            Some(None) => test.too_large = true,
            None => {}
        }
    }
    Ok(shown)
}

/// At most this much input is regenerated for one view of a submission (the largest tests of
/// the built-in games are megabytes: a program failing them all would otherwise have them all
/// generated for every look).
const MAX_REGENERATED: usize = 16 << 20;

/// The input and expected answer of each test in `wanted` that `problem` can give again: the
/// student's own instances of `seed` (as `kind` named them), and with `hidden` the problem's
/// tests. `None` for one too large to show.
fn failing_tests(
    problem: &Problem,
    kind: SubmissionKind,
    seed: Option<i64>,
    hidden: bool,
    wanted: &[TestName],
) -> BTreeMap<TestName, Option<(String, String)>> {
    let mut gathered = Gathered {
        found: BTreeMap::new(),
        budget: MAX_REGENERATED,
    };
    let personal = kind == SubmissionKind::Program && seed.is_some();
    if let Some(seed) = seed
        && !(personal && naming::personal_group_is_ambiguous(problem))
    {
        let drawn = problems::instances(problem, seed as u64);
        let named = match kind {
            SubmissionKind::Answers => naming::answer_tests(problem, &drawn),
            SubmissionKind::Program => naming::personal_tests(&drawn),
        };
        for (name, instance) in named {
            if wanted.contains(&name) {
                gathered.keep(&name, instance.input.clone(), instance.answer.clone());
            }
        }
    }
    if hidden && kind == SubmissionKind::Program {
        for name in wanted {
            let Some(Group::Subtask(s)) = Group::named(problem, &name.group, personal) else {
                continue;
            };
            if gathered.budget == 0 {
                gathered.found.insert(name.clone(), None);
            } else if let Some(test) = problem.generate_test(s, name.index as usize) {
                gathered.keep(name, test.input, test.answer);
            }
        }
    }
    gathered.found
}

/// Tests found again, and how much more may be.
struct Gathered {
    found: BTreeMap<TestName, Option<(String, String)>>,
    budget: usize,
}

impl Gathered {
    fn keep(&mut self, name: &TestName, input: String, answer: String) {
        let size = input.len() + answer.len();
        let fits = input.len() <= MAX_SHOWN_INPUT && size <= self.budget;
        self.budget = self.budget.saturating_sub(size);
        self.found
            .insert(name.clone(), fits.then_some((input, answer)));
    }
}

/// The instances the caller answers on the answer page: their own draw in an assignment, else
/// their practice instances. Only problems with generators have instances worth answering.
pub async fn answer_sheet(
    domain: &Domain,
    user: &User,
    slug: &str,
    assignment: Option<i64>,
) -> Result<Drawn> {
    let entry = problems::visible(domain, Some(user), slug).await?;
    if !entry.problem.is_family_backed() {
        return Err(Error::BadRequest(format!(
            "{slug} is an uploaded package: it takes programs only"
        )));
    }
    match assignment {
        Some(id) => assignments::my_instances(domain, user, id, slug).await,
        None => problems::draw(entry, practice_seed(user.id), None).await,
    }
}

/// Someone following a submission's judging, and what they may be sent: only [`follow`] makes
/// one, after asking whether they may see the submission.
#[derive(Debug, Clone, Copy)]
pub struct Following {
    pub id: i64,
    /// How much they are told of the tests.
    pub feedback: Feedback,
}

pub async fn follow(domain: &Domain, viewer: &User, id: i64) -> Result<Following> {
    let submission = visible(domain, viewer, id).await?;
    let feedback = access::feedback_for(domain, viewer, &submission).await?;
    Ok(Following { id, feedback })
}

impl Following {
    /// A test's result as they may be sent it as it is judged (the data the judge kept where
    /// their level shows it; hidden tests' inputs wait for the finished page); `None` at the
    /// `verdict` level.
    pub fn test(&self, submission: &Submission, row: TestRow) -> Option<ShownTest> {
        (self.feedback != Feedback::Verdict).then(|| ShownTest::of(submission, self.feedback, row))
    }

    /// The subtasks of a finished submission, as [`subtasks`] gives them.
    pub fn subtasks(
        &self,
        domain: &Domain,
        submission: &Submission,
        rows: &[TestRow],
    ) -> Vec<SubtaskResult> {
        subtasks(domain, submission, self.feedback, rows)
    }

    /// Whether an explanation will follow this finished submission for this viewer.
    pub fn explains(&self, domain: &Domain, done: &Submission) -> bool {
        explained(domain, done, self.feedback)
    }

    pub async fn explanation(&self, domain: &Domain) -> Result<Option<Explanation>> {
        explanation(domain, self.id, self.feedback).await
    }

    /// The submission and its test results as of one attempt: the two are read apart, so they
    /// are read again when a worker started another attempt in between (its results would
    /// otherwise be sent as the old attempt's). `None` when the submission is gone or the store
    /// fails.
    pub async fn snapshot(&self, domain: &Domain) -> Option<(Submission, Vec<TestRow>)> {
        let id = self.id;
        let mut before = domain.store.submission(id).await.ok()??;
        loop {
            let tests = domain.store.test_results(id).await.ok()?;
            let after = domain.store.submission(id).await.ok()??;
            if after.attempts == before.attempts && after.status == before.status {
                return Some((after, tests));
            }
            before = after;
        }
    }
}
