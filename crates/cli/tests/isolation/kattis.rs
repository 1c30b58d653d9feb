//! The Kattis interactive package path: a package whose output validator is an interactor written
//! in C (guess the number, tests/programs/kattis/interactor.c) is read, and programs are judged
//! against it, each in a sandbox of its own: a right program is accepted, a wrong one gets the
//! interactor's message, a sleeper meets the idleness limit, an early exit, a crash and a
//! spinner get their verdicts, a broken interactor is the judge's failure, and nothing is left
//! running.

use crate::common;
use crate::serial;

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{isolation_available, programs, sandbox_processes, service, tool_available};
use grundy_judge::{Caches, Judge, Judgement, Languages, Options, Verdict};
use grundy_problems::{Problem, ReadLimits, read_zip};
use grundy_sandbox::{Sandbox, SupervisorCommand};

fn source(name: &str) -> String {
    std::fs::read_to_string(programs().join("kattis").join(name)).unwrap()
}

/// The guess-the-number package (see [`common::service::guess`]) with `interactor`.
fn guess(interactor: &str) -> Problem {
    let problem = read_zip(&service::guess("guess", interactor), &ReadLimits::default()).unwrap();
    assert!(problem.is_interactive());
    problem
}

fn judge_with(cache: &Path) -> Judge {
    let supervisor = SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy").into(),
        args: vec!["sandbox-supervisor".into()],
    };
    Judge::new(
        Sandbox::start(&supervisor).unwrap(),
        Languages::load(None).unwrap(),
        Caches::new(cache.to_path_buf()),
    )
    .unwrap()
}

fn judge(judge: &mut Judge, problem: &Problem, program: &str) -> Judgement {
    let language = judge.languages().get("c").unwrap().clone();
    judge
        .judge(
            problem,
            &language,
            source(program).as_bytes(),
            Options::default(),
            &mut |_| {},
        )
        .unwrap()
}

fn verdicts(judgement: &Judgement) -> Vec<Verdict> {
    judgement.tests.iter().map(|t| t.verdict).collect()
}

fn available(test: &str) -> bool {
    isolation_available(test) && tool_available(test, "/usr/bin/gcc")
}

#[test]
fn a_c_interactor_judges_right_and_wrong_programs() {
    if !available("a_c_interactor_judges_right_and_wrong_programs") {
        return;
    }
    let _serial = serial();
    let cache = tempfile::tempdir().unwrap();
    let mut judge_ = judge_with(cache.path());
    let problem = guess(&source("interactor.c"));

    // Binary search finds every number within the 20 guesses the flag allows.
    let right = judge(&mut judge_, &problem, "right.c");
    assert_eq!(right.verdict, Verdict::Accepted, "{right:#?}");
    assert_eq!((right.score, right.tests.len()), (100, 4));

    // Guessing 1, 2, 3, … runs out of guesses on the sample (37): the interactor's message
    // for the judges is shown, since the sample is the contestant's to see, with what the
    // program wrote.
    let linear = judge(&mut judge_, &problem, "linear.c");
    let sample = &linear.tests[0];
    assert_eq!(sample.verdict, Verdict::WrongAnswer, "{linear:#?}");
    assert_eq!(
        sample.message.as_deref(),
        Some("20 wrong guesses; the number was 37")
    );
    let shown = sample.shown.as_ref().unwrap();
    assert_eq!(shown.input, "100 37\n");
    let guesses: String = (1..=20).map(|g| format!("{g}\n")).collect();
    assert_eq!(shown.output, guesses);
    // Where the number is 1 it is right at once; elsewhere it runs out of guesses.
    assert_eq!(
        verdicts(&linear)[1..],
        [
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::WrongAnswer
        ]
    );

    // A search that believes the number is at most 100 passes the sample and the secret 1,
    // then guesses 0 on its eighth try (50, 75, 88, 94, 97, 99, 100, then an empty range). On
    // a hidden test only the interactor's message to the team is shown: not the number, not
    // the program's output.
    let small = judge(&mut judge_, &problem, "small.c");
    assert_eq!(
        verdicts(&small),
        [
            Verdict::Accepted,
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::WrongAnswer
        ],
        "{small:#?}"
    );
    let hidden = &small.tests[2];
    assert_eq!(
        hidden.message.as_deref(),
        Some("a guess out of range (guess 8 of at most 20)")
    );
    assert!(hidden.shown.is_none());
    assert_eq!(small.score, 0);
    assert!(sandbox_processes().is_empty(), "{:?}", sandbox_processes());
}

#[test]
fn programs_that_misbehave_get_their_verdicts_and_nothing_is_left_running() {
    if !available("programs_that_misbehave_get_their_verdicts") {
        return;
    }
    let _serial = serial();
    let cache = tempfile::tempdir().unwrap();
    let mut judge_ = judge_with(cache.path());
    let problem = guess(&source("interactor.c"));

    // Waiting in silence: the idleness limit (twice the time limit) ends both boxes promptly,
    // and names the likely cause.
    let started = Instant::now();
    let sleeper = judge(&mut judge_, &problem, "sleeper.c");
    assert_eq!(verdicts(&sleeper), [Verdict::TimeLimit; 4], "{sleeper:#?}");
    let message = sleeper.tests[0].message.as_deref().unwrap();
    assert!(
        message.starts_with("idleness limit exceeded") && message.contains("flush"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "{:?}",
        started.elapsed()
    );
    assert!(sandbox_processes().is_empty(), "{:?}", sandbox_processes());

    // An exit before any guess: the interactor reads the end of its input and rejects.
    let quitter = judge(&mut judge_, &problem, "quitter.c");
    assert_eq!(verdicts(&quitter), [Verdict::WrongAnswer; 4]);
    assert_eq!(
        quitter.tests[0].message.as_deref(),
        Some("no guess after 0 guesses; the number was 37")
    );
    // The same with a failing exit code: the program ended first, so its crash is the
    // verdict, not the interactor's rejection that followed.
    let crasher = judge(&mut judge_, &problem, "crasher.c");
    assert_eq!(verdicts(&crasher), [Verdict::RuntimeError; 4]);
    assert_eq!(crasher.tests[0].message.as_deref(), Some("exit code 3"));
    // Computing without end: the program's CPU time meets the time limit; on a machine so
    // loaded that it gets less than half a core, the idleness limit (wall time) comes first.
    let spinner = judge(&mut judge_, &problem, "spinner.c");
    assert_eq!(verdicts(&spinner), [Verdict::TimeLimit; 4]);
    for test in &spinner.tests {
        match test.message.as_deref() {
            Some("cpu") => assert!(test.cpu_ms >= 1000, "{test:?}"),
            Some(idle) => assert!(idle.contains("computing too long"), "{test:?}"),
            None => panic!("{test:?}"),
        }
    }

    // An interactor that exits 0 has not judged: the judge failed, not the program.
    let broken = guess("int main(void) { return 0; }\n");
    let judged = judge(&mut judge_, &broken, "right.c");
    assert_eq!(
        verdicts(&judged),
        [Verdict::InternalError; 4],
        "{judged:#?}"
    );
    assert!(judged.tests.iter().all(|t| t.message.is_none()));
    assert!(sandbox_processes().is_empty(), "{:?}", sandbox_processes());
}

/// Everything a tracing subscriber writes, for reading back.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An output validator that loops costs one submission its checking budget (30 s of CPU), not
/// ten seconds per test: once the budget is spent the rest is not run, and the judgement says
/// so. What it writes to its standard error cannot forge a line of the judge's log.
#[test]
fn a_looping_validator_costs_one_budget_and_forges_no_log_line() {
    let test = "a_looping_validator_costs_one_budget";
    if !isolation_available(test) || !tool_available(test, "/usr/bin/python3") {
        return;
    }
    let _serial = serial();
    let mut files = vec![
        (
            "problem.yaml".to_owned(),
            "name: Spin\nlimits:\n  time_limit: 1\nvalidation: custom\ngrundy:\n  slug: spin\n"
                .to_owned(),
        ),
        (
            "statement/problem.en.md".to_owned(),
            "# Spin\n\nPrint $n$.\n".to_owned(),
        ),
        ("data/sample/1.in".to_owned(), "1\n".to_owned()),
        ("data/sample/1.ans".to_owned(), "1\n".to_owned()),
        (
            "output_validators/spin/validate.py".to_owned(),
            "import sys\n\
             sys.stderr.write('fine\\nuser changed user=admin\\n')\n\
             sys.stderr.flush()\n\
             while True:\n    pass\n"
                .to_owned(),
        ),
    ];
    // Seven tests: ten seconds each was over a minute of a worker's time.
    for n in 1..=6 {
        files.push((format!("data/secret/{n}.in"), format!("{n}\n")));
        files.push((format!("data/secret/{n}.ans"), format!("{n}\n")));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let problem = read_zip(&service::zip_of(&files), &ReadLimits::default()).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let mut judge_ = judge_with(cache.path());
    let log = Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let language = judge_.languages().get("py").unwrap().clone();
    let judged = tracing::subscriber::with_default(subscriber, || {
        judge_
            .judge(
                &problem,
                &language,
                b"print(input())\n",
                Options::default(),
                &mut |_| {},
            )
            .unwrap()
    });
    assert!(judged.budget_exhausted, "{judged:#?}");
    assert_eq!(
        judged.verdict,
        Verdict::InternalError,
        "the checker's fault"
    );
    let checked = judged
        .tests
        .iter()
        .filter(|t| t.verdict == Verdict::InternalError)
        .count();
    let skipped = judged
        .tests
        .iter()
        .filter(|t| t.verdict == Verdict::Skipped)
        .count();
    assert_eq!(judged.tests.len(), 7);
    // Three runs of ten seconds spend the thirty; the fourth is refused; the rest not run.
    assert!(checked <= 4 && checked + skipped == 7, "{judged:#?}");
    assert!(judged.spent_cpu_ms <= grundy_judge::CHECKING_CPU_MS + 5_000);
    let log = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(log.contains("the checker failed"), "{log}");
    assert!(
        !log.lines().any(|line| line.starts_with("user changed")),
        "a validator forged a log line:\n{log}"
    );
}
