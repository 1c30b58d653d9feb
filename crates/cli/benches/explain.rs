//! The cost of explaining a wrong answer against the cost of judging it, in one run on a noisy
//! machine: for a wrong program on each of three problems, judge it (compile, every test), then
//! explain it (the compiled program on small games: search, shrink, confirm), alternately,
//! ROUNDS times; medians. Targets (Nim, C): the explanation ready ≤ 1 s after the verdict, and
//! its CPU at most 2× judging's.
//!
//! The explanation's wall time is the time from the verdict to the explanation, as the worker
//! runs them back to back. CPU is the programs' own (compile and runs) as the sandbox's cgroups
//! count it. Compiled programs are cached (as in the service), so judging's CPU after the first
//! round is its tests' alone: both figures are given.
//!
//! Needs root, gcc and g++; says so and exits otherwise.
//! `cargo bench -p grundy-cli --bench explain`.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use grundy_judge::explain::Budget;
use grundy_judge::{Caches, Judge, Languages, Options, Verdict};
use grundy_problems::Catalogue;
use grundy_sandbox::{Sandbox, SupervisorCommand};

const ROUNDS: usize = 9;

/// (problem, program under tests/programs/misconceptions, language).
const CASES: [(&str, &str, &str); 3] = [
    ("nim", "nim/sum-parity.c", "c"),
    ("misere-nim", "misere-nim/misere-as-normal.cpp", "cpp20"),
    ("bash", "bash/modulus-m.c", "c"),
];

fn median<T: Copy + Ord>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

fn main() -> ExitCode {
    let root =
        std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0);
    if !root {
        println!("explain: skipped, the sandbox needs root");
        return ExitCode::SUCCESS;
    }
    for tool in ["/usr/bin/gcc", "/usr/bin/g++"] {
        if !Path::new(tool).exists() {
            println!("explain: skipped, no {tool}");
            return ExitCode::SUCCESS;
        }
    }
    let supervisor = SupervisorCommand {
        program: env!("CARGO_BIN_EXE_grundy").into(),
        args: vec!["sandbox-supervisor".into()],
    };
    let cache = tempfile::tempdir().expect("a cache directory");
    let mut judge = Judge::new(
        Sandbox::start(&supervisor).expect("the sandbox starts"),
        Languages::load(None).expect("the language table"),
        Caches::new(cache.path().to_path_buf()),
    )
    .expect("a judge");
    let catalogue = Catalogue::builtin().expect("the catalogue");
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/misconceptions");
    println!("explaining a wrong answer against judging it, medians of {ROUNDS} rounds:");
    println!(
        "  {:<12} {:>10} {:>12} {:>12} {:>11} {:>10} {:>9} {:>8}",
        "problem",
        "judge wall",
        "judge CPU¹",
        "judge CPU²",
        "explain wall",
        "expl. CPU",
        "CPU ratio",
        "runs"
    );
    for (slug, file, language) in CASES {
        let problem = catalogue.get(slug).expect("a built-in problem");
        let language = judge.languages().get(language).expect("a language").clone();
        let source = std::fs::read(programs.join(file)).expect("the program");
        let (mut judge_wall, mut judge_cpu, mut tests_cpu) = (Vec::new(), Vec::new(), Vec::new());
        let (mut explain_wall, mut explain_cpu, mut runs) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let started = Instant::now();
            let judgement = judge
                .judge(problem, &language, &source, Options::default(), &mut |_| {})
                .expect("judging");
            judge_wall.push(started.elapsed());
            assert_eq!(judgement.verdict, Verdict::WrongAnswer, "{slug}: {file}");
            let tests: u64 = judgement.tests.iter().map(|t| t.cpu_ms).sum();
            tests_cpu.push(tests);
            // The first round compiled; later ones found the program in the cache.
            if round == 0 {
                judge_cpu.push(judgement.compile.cpu_ms + tests);
            }
            let started = Instant::now();
            let explanation = judge
                .explain(problem, &language, &source, Budget::default())
                .expect("explaining")
                .expect("the problem explains");
            explain_wall.push(started.elapsed());
            assert!(
                explanation.misconception.is_some(),
                "{slug}: {explanation:?}"
            );
            explain_cpu.push(explanation.cpu_ms);
            runs.push(explanation.runs);
        }
        let ms = |d: Duration| format!("{} ms", d.as_millis());
        let (tests, explained) = (median(tests_cpu), median(explain_cpu));
        println!(
            "  {:<12} {:>10} {:>12} {:>12} {:>11} {:>10} {:>9} {:>8}",
            slug,
            ms(median(judge_wall)),
            format!("{} ms", judge_cpu[0]),
            format!("{tests} ms"),
            ms(median(explain_wall)),
            format!("{explained} ms"),
            format!("{:.2}×", explained as f64 / tests.max(1) as f64),
            median(runs),
        );
    }
    println!(
        "  ¹ compile and tests, first round; ² tests alone (cached compile): the ratio's base"
    );
    ExitCode::SUCCESS
}
