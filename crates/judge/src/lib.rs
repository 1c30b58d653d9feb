//! Judging a submission: compile once in the sandbox, run every test of the problem's test set,
//! check each output with the problem's checker, score the subtasks, stream events as it goes.

mod budget;
mod compiled;
pub mod explain;
pub mod interactive;
mod kattis;
pub mod languages;
pub mod messages;
pub mod naming;
mod pch;
pub mod scoring;
pub mod testset;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use grundy_problems::check::{CheckOutcome, Mismatch};
use grundy_problems::play::Transcript;
use grundy_problems::spec::CheckerKind;
use grundy_problems::{Instance, Problem};
use grundy_sandbox::{
    Bind, BoxFile, CopyOut, FileSource, Limits, RelayLimits, RunKind, RunReport, RunSpec, Sandbox,
    SandboxError, Status,
};
use serde::{Deserialize, Serialize};

use crate::budget::Spending;
use crate::compiled::CompiledCache;

pub use budget::{CHECKING_CPU_MS, SubmissionBudget};

pub use grundy_verdict::{Shown, TestName, Verdict};
pub use languages::{Language, LanguageError, Languages};
pub use naming::{Group, PERSONAL_GROUP};
pub use scoring::{Scorer, SubtaskResult};

/// The verdict of a run that did not end normally (`None` for a normal end: check the output).
pub fn verdict_of_run(status: Status) -> Option<Verdict> {
    match status {
        Status::Ok => None,
        Status::TimeLimit => Some(Verdict::TimeLimit),
        Status::MemoryLimit => Some(Verdict::MemoryLimit),
        Status::OutputLimit => Some(Verdict::OutputLimit),
        Status::RuntimeError => Some(Verdict::RuntimeError),
        Status::SecurityViolation => Some(Verdict::SecurityViolation),
        Status::InternalError => Some(Verdict::InternalError),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileResult {
    pub ok: bool,
    /// The compiler's messages, truncated; for an internal error, only that one occurred.
    pub message: String,
    pub cpu_ms: u64,
    pub memory_kib: u64,
    /// Where the program came from this time; not kept in the cache's own copy, whose every
    /// reader took it from the cache.
    #[serde(skip)]
    pub build: Build,
}

/// How a program was made ready to run: the operator's figures count the compile cache's hits
/// from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Build {
    /// Nothing to build: an interpreted language's source, or answers.
    #[default]
    Nothing,
    /// Compiled in the sandbox.
    Compiled,
    /// Taken from the compiled-program cache.
    Cached,
}

#[derive(Debug, Clone, Serialize)]
pub struct TestResult {
    /// Its group and place, as [`naming`] gives them.
    #[serde(flatten)]
    pub name: TestName,
    pub verdict: Verdict,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub memory_kib: u64,
    /// For every reader of the test's row: the checker's message naming places only (line, game,
    /// move), the exit code or signal, which limit; no test data but a public sample's (a
    /// package's interactor words its own).
    pub message: Option<String>,
    /// The checker's message with the test's data quoted (the expected answer, what was read, a
    /// winning move), on a test whose data the contestant may see (a sample, their own
    /// instance): who reads it instead of [`TestResult::message`] is the service's to decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// A failed test whose data the contestant may see (a sample, their own instance): its
    /// input, the expected answer and the program's output, each cut to [`SHOWN_BYTES`]. Never
    /// on a hidden test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Shown>,
    /// An interactive test's games move by move, where the contestant may see the test (as
    /// [`TestResult::shown`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<Transcript>,
}

/// How much of a test's input, expected answer and output a failed visible test shows.
pub const SHOWN_BYTES: usize = 4 << 10;

#[derive(Debug, Clone, Serialize)]
pub struct Judgement {
    pub problem: String,
    pub version: u32,
    pub language: String,
    pub verdict: Verdict,
    pub score: u32,
    pub max_score: u32,
    pub compile: CompileResult,
    pub subtasks: Vec<SubtaskResult>,
    pub tests: Vec<TestResult>,
    /// What judging it might take in all, and what it took (the explanation that may follow
    /// has what is left, see [`Judgement::explanation_budget`]).
    pub budget: SubmissionBudget,
    pub spent_cpu_ms: u64,
    pub spent_wall_ms: u64,
    /// The budget ran out: the tests after that were not run (see [`budget`]).
    pub budget_exhausted: bool,
}

/// Progress, in order: compilation, then each test, each subtask as it completes.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Compiled(CompileResult),
    Test(TestResult),
    Subtask(SubtaskResult),
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Stop a subtask at its first failing test (the rest are `skipped`); the score is the same.
    pub stop_subtask_at_first_failure: bool,
    /// The person judging may see every test (the CLI, on their own machine with the
    /// problems): interactive tests keep their transcripts and full messages everywhere, not
    /// only on samples.
    pub reveal_tests: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error(transparent)]
    Language(#[from] LanguageError),
    #[error("judge files: {0}")]
    Io(#[from] std::io::Error),
    /// The sandbox failed on the judge's side; details are logged, the submission is not blamed.
    #[error("internal error while judging (see the log)")]
    Internal,
}

/// A run's limits on `problem`: its time and memory limits.
pub(crate) fn problem_limits(problem: &Problem) -> Limits {
    Limits::for_run(
        u64::from(problem.spec.time_limit_ms),
        u64::from(problem.spec.memory_limit_mib) * 1024,
    )
}

/// Limits for compilers: gcc spawns cc1, as and ld; rustc and javac want memory.
pub fn compile_limits() -> Limits {
    Limits {
        cpu_ms: 30_000,
        wall_ms: 60_000,
        memory_kib: 1 << 20,
        pids: 128,
        stdout_bytes: 64 << 10,
        stderr_bytes: 64 << 10,
        file_bytes: 256 << 20,
    }
}

const COMPILER_MESSAGE_BYTES: usize = 8 << 10;

/// A compiled submission: the files a run needs, in a scratch directory of the judge.
#[derive(Debug)]
pub struct Compiled {
    pub result: CompileResult,
    dir: tempfile::TempDir,
}

impl Compiled {
    fn box_files(&self) -> std::io::Result<Vec<BoxFile>> {
        let mut files = Vec::new();
        for entry in fs::read_dir(self.dir.path())? {
            let entry = entry?;
            files.push(BoxFile {
                name: entry.file_name().to_string_lossy().into_owned(),
                source: FileSource::Host(entry.path()),
                executable: true,
            });
        }
        files.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(files)
    }
}

/// A package's output validator, compiled for one version of its problem.
#[derive(Debug)]
struct CompiledValidator {
    /// Slug, version and seed: a package's seed is a digest of its tests and validator, so a
    /// package uploaded again under the same slug and version is not judged with the old one.
    problem: (String, u32, u64),
    language: Language,
    compiled: Result<Compiled, String>,
}

impl CompiledValidator {
    /// The validator's command line and files as Kattis runs it, `validator input answer ./
    /// [flags]`, with the test's input and answer file beside it (the box is the feedback
    /// directory).
    fn call(
        &self,
        problem: &Problem,
        compiled: &Compiled,
        input: &Path,
        answer: &Path,
    ) -> Result<(Vec<String>, Vec<BoxFile>), JudgeError> {
        let language = &self.language;
        let mut argv = language.command(&language.spec.run, VALIDATOR_MEMORY_KIB / 1024);
        argv.extend(["input".to_owned(), "answer".to_owned(), "./".to_owned()]);
        argv.extend(
            problem
                .output_validator()
                .into_iter()
                .flat_map(|v| v.flags.clone()),
        );
        let mut files = compiled.box_files()?;
        for (name, path) in [("input", input), ("answer", answer)] {
            files.push(BoxFile {
                name: name.to_owned(),
                source: FileSource::Host(path.to_path_buf()),
                executable: false,
            });
        }
        Ok((argv, files))
    }
}

/// Kattis output validator exit codes.
const VALIDATOR_ACCEPTS: i32 = 42;
const VALIDATOR_REJECTS: i32 = 43;

/// The language named in answer submissions' judgements.
pub const ANSWERS_LANGUAGE: &str = "answers";

/// Where a judge keeps what it reuses between submissions, and whether it reuses compilations.
#[derive(Debug, Clone)]
pub struct Caches {
    /// Holds `tests/` (generated test sets), `pch/` (precompiled headers) and `compiled/`
    /// (compiled programs).
    pub dir: PathBuf,
    /// Precompiled headers and compiled programs; off, every submission is compiled from scratch
    /// (to compare, or to rule the caches out).
    pub compile: bool,
    /// The cap on `compiled/`, least recently used first out. Precompiled headers (one per C++
    /// language, some 120 MB each with GCC 12) are not counted.
    pub compiled_max_bytes: u64,
}

impl Caches {
    pub const DEFAULT_COMPILED_MAX_BYTES: u64 = 1 << 30;

    /// Every cache on, under `dir`.
    pub fn new(dir: PathBuf) -> Caches {
        Caches {
            dir,
            compile: true,
            compiled_max_bytes: Self::DEFAULT_COMPILED_MAX_BYTES,
        }
    }

    fn tests(&self) -> PathBuf {
        self.dir.join("tests")
    }
}

impl From<PathBuf> for Caches {
    fn from(dir: PathBuf) -> Caches {
        Caches::new(dir)
    }
}

impl From<&Path> for Caches {
    fn from(dir: &Path) -> Caches {
        Caches::new(dir.to_path_buf())
    }
}

/// Whether a language's precompiled header can be offered.
#[derive(Debug)]
enum PchState {
    Ready(pch::Plan),
    /// Building it failed (logged): this judge compiles without it.
    Failed,
}

/// The engine: one sandbox supervisor, the language table, its caches.
#[derive(Debug)]
pub struct Judge {
    sandbox: Sandbox,
    languages: Languages,
    caches: Caches,
    compiled: Option<CompiledCache>,
    pch: BTreeMap<String, PchState>,
    scratch: tempfile::TempDir,
    /// The last validator compiled: workers judge runs of one problem in a row.
    validator: Option<CompiledValidator>,
    /// A second supervisor, for a package's interactor beside the program; started when first
    /// needed.
    second: Option<Sandbox>,
    /// What the submission being judged has spent of its budget.
    spending: Spending,
}

impl Judge {
    pub fn new(
        sandbox: Sandbox,
        languages: Languages,
        caches: Caches,
    ) -> Result<Judge, JudgeError> {
        Ok(Judge {
            sandbox,
            languages,
            compiled: caches.compile.then(|| {
                CompiledCache::new(caches.dir.join("compiled"), caches.compiled_max_bytes)
            }),
            caches,
            pch: BTreeMap::new(),
            scratch: tempfile::Builder::new().prefix("grundy-judge-").tempdir()?,
            validator: None,
            second: None,
            spending: Spending::new(SubmissionBudget {
                cpu_ms: u64::MAX,
                wall_ms: u64::MAX,
            }),
        })
    }

    pub fn languages(&self) -> &Languages {
        &self.languages
    }

    /// Compiles `source` in the sandbox (or only places it, for interpreted languages).
    pub fn compile(&mut self, language: &Language, source: &[u8]) -> Result<Compiled, JudgeError> {
        let dir = tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(self.scratch.path())?;
        let spec = &language.spec;
        let Some(command) = &spec.compile else {
            fs::write(dir.path().join(&spec.source), source)?;
            let result = CompileResult {
                ok: true,
                message: String::new(),
                cpu_ms: 0,
                memory_kib: 0,
                build: Build::Nothing,
            };
            return Ok(Compiled { result, dir });
        };
        let limits = compile_limits();
        let mut argv = language.command(command, limits.memory_kib / 1024);
        let key = self
            .compiled
            .as_ref()
            .map(|_| compiled::key(language, &argv, source));
        if let (Some(cache), Some(key)) = (&self.compiled, &key)
            && let Some(result) = cache.load(key, dir.path())
        {
            tracing::debug!(language = language.id(), "compilation taken from the cache");
            let result = CompileResult {
                build: Build::Cached,
                ..result
            };
            return Ok(Compiled { result, dir });
        }
        let mut binds = language.binds();
        if let Some(plan) = self.precompiled_header(language, &argv)? {
            argv.splice(
                1..1,
                [
                    "-I".to_owned(),
                    plan.search_dir(self.sandbox.is_weak())
                        .display()
                        .to_string(),
                ],
            );
            binds.push(Bind::at(&plan.host_dir, plan.search_dir(false)));
        }
        let run = RunSpec {
            argv,
            env: language.env(),
            files: vec![BoxFile {
                name: spec.source.clone(),
                source: FileSource::Bytes(source.to_vec()),
                executable: false,
            }],
            stdin: None,
            stdout_path: None,
            binds,
            copy_out: Some(CopyOut {
                dir: dir.path().to_path_buf(),
                suffixes: spec.artifacts.clone(),
                max_bytes: limits.file_bytes,
                after_failure: false,
            }),
            limits,
            kind: RunKind::Toolchain,
            pipes: None,
        };
        let report = self.sandbox.run(&run)?;
        let mut message = String::from_utf8_lossy(&report.stdout).into_owned();
        message.push_str(&String::from_utf8_lossy(&report.stderr));
        let ok = report.status == Status::Ok && !report.copied.is_empty();
        if !ok {
            let why = match report.status {
                Status::Ok if !report.refused.is_empty() => {
                    "the compiler's output could not be taken out of the box".to_owned()
                }
                Status::Ok => "the compiler produced no program".to_owned(),
                Status::RuntimeError => String::new(),
                Status::TimeLimit => "compilation exceeded its time limit".to_owned(),
                Status::MemoryLimit => "compilation exceeded its memory limit".to_owned(),
                Status::OutputLimit => "the compiler's output exceeded its limit".to_owned(),
                Status::SecurityViolation => format!(
                    "compilation attempted a forbidden operation ({})",
                    report.detail.as_deref().unwrap_or("unknown")
                ),
                Status::InternalError => "the judge failed to compile (internal error)".to_owned(),
            };
            if !why.is_empty() {
                if !message.is_empty() {
                    message.push('\n');
                }
                message.push_str(&why);
            }
        }
        let result = CompileResult {
            ok,
            message: truncate(message, COMPILER_MESSAGE_BYTES),
            cpu_ms: report.cpu_ms,
            memory_kib: report.memory_kib,
            build: Build::Compiled,
        };
        if report.status == Status::InternalError {
            tracing::error!(
                detail = report.detail.as_deref().unwrap_or("unknown"),
                "the sandbox failed to compile"
            );
            return Err(JudgeError::Internal);
        }
        if let (Some(cache), Some(key)) = (&self.compiled, &key)
            && deterministic(&report, &result, &limits)
        {
            cache.store(key, dir.path(), &result);
        }
        Ok(Compiled { result, dir })
    }

    /// The language's precompiled header, built first if need be; `None` when the language has
    /// none, the caches are off, another judge is building it, or it cannot be built.
    fn precompiled_header(
        &mut self,
        language: &Language,
        argv: &[String],
    ) -> Result<Option<pch::Plan>, JudgeError> {
        let Some(header) = &language.spec.precompiled_header else {
            return Ok(None);
        };
        if !self.caches.compile {
            return Ok(None);
        }
        match self.pch.get(language.id()) {
            Some(PchState::Ready(plan)) => return Ok(Some(plan.clone())),
            Some(PchState::Failed) => return Ok(None),
            None => {}
        }
        let root = self.caches.dir.join("pch");
        let plan = pch::Plan::new(&root, language, header, argv);
        if !plan.ready() {
            fs::create_dir_all(&root)?;
            let lock = fs::File::create(plan.lock_path())?;
            match lock.try_lock() {
                Ok(()) => {}
                // Another judge is building it: compile without it meanwhile.
                Err(fs::TryLockError::WouldBlock) => return Ok(None),
                Err(fs::TryLockError::Error(e)) => return Err(e.into()),
            }
            if !plan.ready() {
                let started = std::time::Instant::now();
                match self.build_precompiled_header(language, header, &plan) {
                    Ok(()) => {
                        tracing::info!(
                            language = language.id(),
                            seconds = started.elapsed().as_secs_f32(),
                            "precompiled header built"
                        );
                        plan.remove_stale(language.id());
                    }
                    Err(why) => {
                        tracing::warn!(
                            language = language.id(),
                            %why,
                            "cannot build the precompiled header; compiling without it"
                        );
                        self.pch.insert(language.id().to_owned(), PchState::Failed);
                        return Ok(None);
                    }
                }
            }
        }
        self.pch
            .insert(language.id().to_owned(), PchState::Ready(plan.clone()));
        Ok(Some(plan))
    }

    /// Finds the header as the compiler sees it (`-H` on a file including it), then builds its
    /// `.gch` in the box with the same flags and installs it.
    fn build_precompiled_header(
        &mut self,
        language: &Language,
        header: &languages::PrecompiledHeader,
        plan: &pch::Plan,
    ) -> Result<(), String> {
        let limits = compile_limits();
        let spec = &language.spec;
        let mut argv = plan.flags.clone();
        argv.extend(["-E", "-H", "-o", "/dev/null", spec.source.as_str()].map(str::to_owned));
        let probe = RunSpec {
            argv,
            env: language.env(),
            files: vec![BoxFile {
                name: spec.source.clone(),
                source: FileSource::Bytes(format!("#include <{}>\n", header.header).into_bytes()),
                executable: false,
            }],
            stdin: None,
            stdout_path: None,
            binds: language.binds(),
            copy_out: None,
            limits,
            kind: RunKind::Toolchain,
            pipes: None,
        };
        let report = self.sandbox.run(&probe).map_err(|e| e.to_string())?;
        let stderr = String::from_utf8_lossy(&report.stderr);
        let path = pch::first_included(&stderr, &header.header)
            .filter(|_| report.status == Status::Ok)
            .ok_or_else(|| format!("{:?} locating the header: {stderr:.500}", report.status))?;
        let root = plan.host_dir.parent().expect("under the pch root");
        let staging = tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(root)
            .map_err(|e| e.to_string())?;
        let gch = "header.gch";
        let mut argv = plan.flags.clone();
        argv.extend(["-x", header.kind.as_str(), "-o", gch].map(str::to_owned));
        argv.push(path.display().to_string());
        let build = RunSpec {
            argv,
            env: language.env(),
            files: Vec::new(),
            stdin: None,
            stdout_path: None,
            binds: language.binds(),
            copy_out: Some(CopyOut {
                dir: staging.path().to_path_buf(),
                suffixes: vec![".gch".to_owned()],
                max_bytes: limits.file_bytes,
                after_failure: false,
            }),
            limits,
            kind: RunKind::Toolchain,
            pipes: None,
        };
        let report = self.sandbox.run(&build).map_err(|e| e.to_string())?;
        if report.status != Status::Ok || !report.copied.iter().any(|c| c == gch) {
            return Err(format!(
                "{:?} building it: {:.500}",
                report.status,
                String::from_utf8_lossy(&report.stderr)
            ));
        }
        let staging = staging.keep();
        plan.install(&staging, &staging.join(gch)).map_err(|e| {
            let _ = fs::remove_dir_all(&staging);
            e.to_string()
        })
    }

    /// Runs a compiled program once with `stdin` (a host file) under `limits`.
    pub fn run(
        &mut self,
        language: &Language,
        compiled: &Compiled,
        stdin: Option<&Path>,
        stdout_path: Option<&Path>,
        limits: Limits,
    ) -> Result<RunReport, JudgeError> {
        let mut spec = program_spec(language, compiled, limits)?;
        spec.stdin = stdin.map(Path::to_path_buf);
        spec.stdout_path = stdout_path.map(Path::to_path_buf);
        Ok(self.sandbox.run(&spec)?)
    }

    /// Plays one test of an interactive problem: the problem's referee against the program.
    fn run_interactive(
        &mut self,
        problem: &Problem,
        program: &Program<'_>,
        input: &Path,
        name: TestName,
        input_visible: bool,
    ) -> Result<TestResult, JudgeError> {
        let mut result = TestResult::accepted(name);
        let games = fs::read_to_string(input)?;
        let Some(play) = problem.play() else {
            return Err(JudgeError::Internal);
        };
        let mut referee = match play.referee(&games, interactive::seed_of(&games)) {
            Ok(referee) => referee,
            Err(e) => {
                tracing::error!(error = %e, "the referee refused its own test");
                result.verdict = Verdict::InternalError;
                return Ok(result);
            }
        };
        let mut limits = program.limits;
        let conversation = interactive::conversation(limits.cpu_ms);
        // A program that waits is ended by the idleness limit, which says why, before the wall
        // limit would.
        limits.wall_ms = limits
            .wall_ms
            .saturating_add(conversation.idle.as_millis() as u64);
        let spec = program_spec(program.language, program.compiled, limits)?;
        let mut peer = interactive::RefereePeer::new(referee.as_mut());
        let interaction = self.sandbox.interact(&spec, &mut peer, conversation)?;
        let report = &interaction.report;
        if report.status == Status::InternalError {
            tracing::error!(
                detail = report.detail.as_deref().unwrap_or("unknown"),
                "the sandbox failed to run an interactive test"
            );
        }
        let (verdict, message, detail) =
            interactive::verdict(&interaction, &peer, conversation.idle, input_visible);
        Ok(TestResult {
            verdict,
            message,
            detail,
            cpu_ms: report.cpu_ms,
            wall_ms: report.wall_ms,
            memory_kib: report.memory_kib,
            transcript: input_visible.then(|| peer.transcript()),
            ..result
        })
    }

    /// Judges `source` against every test of `problem`, calling `on_event` as results arrive.
    pub fn judge(
        &mut self,
        problem: &Problem,
        language: &Language,
        source: &[u8],
        options: Options,
        on_event: &mut dyn FnMut(&Event),
    ) -> Result<Judgement, JudgeError> {
        self.judge_with_personal(problem, language, source, options, &[], on_event)
    }

    /// As [`Judge::judge`], then on a student's drawn instances (see
    /// [`naming::personal_tests`]), as the group [`PERSONAL_GROUP`]: worth no points, like the
    /// samples, but a failure sets the verdict, and their inputs are the student's own to be
    /// shown.
    pub fn judge_with_personal(
        &mut self,
        problem: &Problem,
        language: &Language,
        source: &[u8],
        options: Options,
        personal: &[Instance],
        on_event: &mut dyn FnMut(&Event),
    ) -> Result<Judgement, JudgeError> {
        let tests = testset::materialize(problem, &self.caches.tests())?;
        let personal = naming::personal_tests(personal);
        self.spending = Spending::new(SubmissionBudget::of(
            problem,
            tests.tests.len() + personal.len(),
        ));
        let compiled = self.compile(language, source)?;
        self.spending.charge(compiled.result.cpu_ms);
        on_event(&Event::Compiled(compiled.result.clone()));
        let mut judgement = Judgement::started(problem, language.id(), compiled.result.clone());
        if !compiled.result.ok {
            judgement.verdict = Verdict::CompilationError;
            judgement.spent(&self.spending);
            return Ok(judgement);
        }
        let spec = &problem.spec;
        let program = Program {
            language,
            compiled: &compiled,
            limits: problem_limits(problem),
            needs_input: spec.checker.kind == CheckerKind::Reference,
            reveal_tests: options.reveal_tests,
        };
        let mut scorer = Scorer::new(problem);
        // Samples score nothing and each wrong one is worth reading, so they go on after a wrong
        // answer; after a time limit they stop too: a program that loops would otherwise spend a
        // time limit on every sample (six on Stones) before its subtasks stopped it.
        let mut sample_ran_out = false;
        for (position, test) in tests.tests.iter().enumerate() {
            let name = test.group.test(problem, test.index);
            let _test = tracing::info_span!("test", test = %name).entered();
            let stopped = match test.group {
                Group::Subtask(s) => {
                    options.stop_subtask_at_first_failure && scorer.subtask_failed(s)
                }
                Group::Samples => options.stop_subtask_at_first_failure && sample_ran_out,
                Group::Personal => false,
            };
            let result = if stopped {
                TestResult::skipped(name)
            } else if self.spending.exhausted() {
                self.unrun(&scorer, test.group, name)
            } else {
                // Only a sample's input is the contestant's to see.
                let input_visible = test.group == Group::Samples;
                self.run_within_budget(
                    problem,
                    &program,
                    &test.input,
                    &test.answer,
                    name,
                    input_visible,
                )?
            };
            scorer.record(test.group, result.name.index, result.verdict);
            sample_ran_out |= test.group == Group::Samples && result.verdict == Verdict::TimeLimit;
            on_event(&Event::Test(result.clone()));
            judgement.tests.push(result);
            // A subtask is complete at its last test.
            let next_group = tests.tests.get(position + 1).map(|t| t.group);
            if let Group::Subtask(s) = test.group
                && next_group != Some(test.group)
            {
                on_event(&Event::Subtask(scorer.subtask(s)));
            }
        }
        if !personal.is_empty() {
            let dir = tempfile::Builder::new()
                .prefix("personal-")
                .tempdir_in(self.scratch.path())?;
            for (n, (name, instance)) in personal.into_iter().enumerate() {
                let _test = tracing::info_span!("test", test = %name).entered();
                let (input, answer) = (
                    dir.path().join(format!("{n}.in")),
                    dir.path().join(format!("{n}.ans")),
                );
                fs::write(&input, &instance.input)?;
                fs::write(&answer, &instance.answer)?;
                // A personal instance is the student's own to see.
                let result = if self.spending.exhausted() {
                    TestResult::skipped(name)
                } else {
                    self.run_within_budget(problem, &program, &input, &answer, name, true)?
                };
                scorer.record(Group::Personal, result.name.index, result.verdict);
                on_event(&Event::Test(result.clone()));
                judgement.tests.push(result);
            }
        }
        judgement.total(&scorer);
        judgement.spent(&self.spending);
        Ok(judgement)
    }

    /// [`Judge::run_test`] with the run's limits cut to what is left of the submission's
    /// budget; a time limit that the budget set says so, and ends the judging.
    fn run_within_budget(
        &mut self,
        problem: &Problem,
        program: &Program<'_>,
        input: &Path,
        answer: &Path,
        name: TestName,
        input_visible: bool,
    ) -> Result<TestResult, JudgeError> {
        let cut = self.spending.cut(program.limits);
        let program = Program {
            limits: cut.limits,
            ..*program
        };
        let mut result = self.run_test(problem, &program, input, answer, name, input_visible)?;
        self.spending.charge(result.cpu_ms);
        if cut.by_budget && result.verdict == Verdict::TimeLimit {
            self.spending.run_out();
            result.message = Some(self.spending.budget.spent_message());
        }
        Ok(result)
    }

    /// A test not run because the budget is gone: the first of its subtask still standing
    /// fails it (a subtask is not passed on tests never run), the rest are skipped.
    fn unrun(&self, scorer: &Scorer<'_>, group: Group, name: TestName) -> TestResult {
        match group {
            Group::Subtask(s) if !scorer.subtask_failed(s) => TestResult {
                verdict: Verdict::TimeLimit,
                message: Some(self.spending.budget.spent_message()),
                ..TestResult::accepted(name)
            },
            _ => TestResult::skipped(name),
        }
    }

    /// Runs one test and checks its output; a failed test whose data is visible shows it.
    fn run_test(
        &mut self,
        problem: &Problem,
        program: &Program<'_>,
        input: &Path,
        answer: &Path,
        name: TestName,
        input_visible: bool,
    ) -> Result<TestResult, JudgeError> {
        if problem.play().is_some() {
            let visible = input_visible || program.reveal_tests;
            return self.run_interactive(problem, program, input, name, visible);
        }
        if problem.interactor().is_some() {
            let visible = input_visible || program.reveal_tests;
            return self.run_with_interactor(problem, program, input, answer, name, visible);
        }
        let output_path = self.scratch.path().join("output");
        let _ = fs::remove_file(&output_path);
        let mut result = self.run_and_check(
            problem,
            program,
            input,
            answer,
            &output_path,
            name,
            input_visible,
        )?;
        if input_visible && shows_data(result.verdict) {
            result.shown = Some(Shown {
                input: read_shown(input)?,
                expected: read_shown(answer)?,
                // A run stopped early may have written nothing.
                output: read_shown(&output_path).unwrap_or_default(),
            });
        }
        Ok(result)
    }

    #[allow(clippy::too_many_arguments)]
    fn run_and_check(
        &mut self,
        problem: &Problem,
        program: &Program<'_>,
        input: &Path,
        answer: &Path,
        output_path: &Path,
        name: TestName,
        input_visible: bool,
    ) -> Result<TestResult, JudgeError> {
        let report = self.run(
            program.language,
            program.compiled,
            Some(input),
            Some(output_path),
            program.limits,
        )?;
        let mut result = TestResult {
            cpu_ms: report.cpu_ms,
            wall_ms: report.wall_ms,
            memory_kib: report.memory_kib,
            ..TestResult::accepted(name)
        };
        if let Some(verdict) = verdict_of_run(report.status) {
            result.verdict = verdict;
            result.message = match verdict {
                Verdict::RuntimeError => match (&report.exit_code, &report.signal) {
                    (Some(code), _) => Some(format!("exit code {code}")),
                    (_, Some(signal)) => Some(format!("killed by {signal}")),
                    _ => None,
                },
                Verdict::InternalError => {
                    tracing::error!(
                        detail = report.detail.as_deref().unwrap_or("unknown"),
                        "the sandbox failed to run a test"
                    );
                    None
                }
                _ => report.detail.clone(),
            };
            return Ok(result);
        }
        let output = fs::read(output_path)?;
        let Ok(output) = String::from_utf8(output) else {
            result.verdict = Verdict::WrongAnswer;
            result.message = Some("the output is not text (invalid UTF-8)".into());
            return Ok(result);
        };
        let outcome = self.check_output(
            problem,
            input,
            answer,
            output_path,
            &output,
            program.needs_input,
        )?;
        apply_outcome(outcome, &mut result, input_visible);
        Ok(result)
    }

    /// Judges `output` (also in the file `output_path`) for the test in `input` / `answer`: by
    /// the package's output validator in the sandbox when there is one, else in process.
    fn check_output(
        &mut self,
        problem: &Problem,
        input: &Path,
        answer: &Path,
        output_path: &Path,
        output: &str,
        needs_input: bool,
    ) -> Result<CheckOutcome, JudgeError> {
        if problem.output_validator().is_some() {
            return self.run_validator(problem, input, answer, output_path);
        }
        let expected = fs::read_to_string(answer)?;
        let input = if needs_input {
            fs::read_to_string(input)?
        } else {
            String::new()
        };
        Ok(problem.check(&input, &expected, output))
    }

    /// Runs the Kattis-style validator: `validator input answer feedback_dir < output`.
    fn run_validator(
        &mut self,
        problem: &Problem,
        input: &Path,
        answer: &Path,
        output_path: &Path,
    ) -> Result<CheckOutcome, JudgeError> {
        let cut = self
            .spending
            .cut_checking(Limits::for_run(VALIDATOR_CPU_MS, VALIDATOR_MEMORY_KIB));
        if cut.limits.cpu_ms == 0 || cut.limits.wall_ms == 0 {
            self.spending.run_out();
            return Ok(CheckOutcome::CheckerFailed(
                "the submission's budget for checking is spent".into(),
            ));
        }
        let validator = self.validator_of(problem)?;
        let compiled = match &validator.compiled {
            Ok(compiled) => compiled,
            Err(why) => return Ok(CheckOutcome::CheckerFailed(why.clone())),
        };
        let language = &validator.language;
        let (argv, files) = validator.call(problem, compiled, input, answer)?;
        let mut limits = cut.limits;
        limits.pids = limits.pids.max(language.spec.min_pids.unwrap_or(0));
        let spec = RunSpec {
            argv,
            env: language.env(),
            files,
            stdin: Some(output_path.to_path_buf()),
            stdout_path: None,
            binds: language.binds(),
            copy_out: None,
            limits,
            kind: RunKind::Program,
            pipes: None,
        };
        let report = self.sandbox.run(&spec)?;
        self.spending.charge_checking(report.cpu_ms);
        if cut.by_budget && report.status == Status::TimeLimit {
            self.spending.run_out();
        }
        // Its verdict is its exit code, which the sandbox reports as a runtime error.
        Ok(match (report.status, report.exit_code) {
            (Status::RuntimeError, Some(VALIDATOR_ACCEPTS)) => CheckOutcome::Accepted,
            (Status::RuntimeError, Some(VALIDATOR_REJECTS)) => {
                CheckOutcome::WrongAnswer(Mismatch::new("the output validator rejected the output"))
            }
            (status, code) => CheckOutcome::CheckerFailed(format!(
                "the output validator ended with {status:?}, exit code {code:?}: {}",
                String::from_utf8_lossy(&report.stderr)
                    .chars()
                    .take(500)
                    .collect::<String>()
            )),
        })
    }

    /// The package's validator, compiled once for each version of its problem.
    fn validator_of(&mut self, problem: &Problem) -> Result<&CompiledValidator, JudgeError> {
        let key = (
            problem.slug().to_owned(),
            problem.spec.version,
            problem.spec.seed,
        );
        if self.validator.as_ref().is_none_or(|v| v.problem != key) {
            self.validator = Some(self.compile_validator(problem, key)?);
        }
        Ok(self.validator.as_ref().expect("compiled above"))
    }

    /// Plays one test of an uploaded interactive package: the program against the package's
    /// interactor, each in a sandbox of its own (see [`kattis`]).
    fn run_with_interactor(
        &mut self,
        problem: &Problem,
        program: &Program<'_>,
        input: &Path,
        answer: &Path,
        name: TestName,
        visible: bool,
    ) -> Result<TestResult, JudgeError> {
        let result = TestResult::accepted(name);
        self.validator_of(problem)?;
        if self.second.is_none() {
            self.second = Some(self.sandbox.start_another()?);
        }
        let validator = self.validator.as_ref().expect("compiled above");
        let compiled = match &validator.compiled {
            Ok(compiled) => compiled,
            Err(why) => {
                tracing::error!(interactor = ?why, "the interactor cannot run");
                return Ok(TestResult {
                    verdict: Verdict::InternalError,
                    ..result
                });
            }
        };
        let mut limits = program.limits;
        let idle = interactive::idleness_limit(limits.cpu_ms);
        // A program that waits is ended by the idleness limit, which says why, before the wall
        // limit would.
        limits.wall_ms = limits.wall_ms.saturating_add(idle.as_millis() as u64);
        let program_run = program_spec(program.language, program.compiled, limits)?;

        let language = &validator.language;
        let (argv, files) = validator.call(problem, compiled, input, answer)?;
        let feedback = tempfile::Builder::new()
            .prefix("feedback-")
            .tempdir_in(self.scratch.path())?;
        let mut interactor_limits = kattis::interactor_limits(&limits, VALIDATOR_MEMORY_KIB);
        interactor_limits.pids = interactor_limits
            .pids
            .max(language.spec.min_pids.unwrap_or(0));
        // Its CPU comes from checking's share; its wall time must outlast the program's, which
        // the budget has cut already.
        interactor_limits.cpu_ms = self.spending.cut_checking(interactor_limits).limits.cpu_ms;
        if interactor_limits.cpu_ms == 0 {
            self.spending.run_out();
            tracing::error!("the submission's budget for checking is spent");
            return Ok(TestResult {
                verdict: Verdict::InternalError,
                ..result
            });
        }
        let interactor_run = RunSpec {
            argv,
            env: language.env(),
            files,
            stdin: None,
            stdout_path: None,
            binds: language.binds(),
            copy_out: Some(CopyOut {
                dir: feedback.path().to_path_buf(),
                suffixes: vec![
                    kattis::JUDGE_MESSAGE.to_owned(),
                    kattis::TEAM_MESSAGE.to_owned(),
                ],
                max_bytes: kattis::FEEDBACK_BYTES,
                after_failure: true,
            }),
            limits: interactor_limits,
            kind: RunKind::Program,
            pipes: None,
        };
        let second = self.second.as_mut().expect("started above");
        let relayed = self.sandbox.relay(
            &program_run,
            second,
            &interactor_run,
            RelayLimits {
                idle,
                keep: SHOWN_BYTES + 1,
            },
            &kattis::settles,
        )?;
        self.spending.charge_checking(relayed.interactor.cpu_ms);
        let outcome = kattis::verdict(
            &relayed,
            &kattis::Feedback::read(feedback.path()),
            idle,
            visible,
        );
        if let Some(why) = &outcome.judge_error {
            tracing::error!(interactor = ?why, "the interactor failed");
        }
        let report = &relayed.program;
        let mut result = TestResult {
            verdict: outcome.verdict,
            message: outcome.message,
            cpu_ms: report.cpu_ms,
            wall_ms: report.wall_ms,
            memory_kib: report.memory_kib,
            ..result
        };
        if visible && shows_data(result.verdict) {
            result.shown = Some(Shown {
                input: read_shown(input)?,
                expected: read_shown(answer)?,
                output: cut(&String::from_utf8_lossy(&relayed.program_wrote)),
            });
        }
        Ok(result)
    }

    fn compile_validator(
        &mut self,
        problem: &Problem,
        key: (String, u32, u64),
    ) -> Result<CompiledValidator, JudgeError> {
        let validator = problem
            .output_validator()
            .expect("called only for problems with a validator");
        let language = languages::guess_from_extension(Path::new(&validator.file_name))
            .and_then(|id| self.languages.get(&id).ok().cloned());
        let Some(language) = language else {
            return Ok(CompiledValidator {
                problem: key,
                language: self
                    .languages
                    .available()
                    .first()
                    .copied()
                    .cloned()
                    .ok_or(JudgeError::Internal)?,
                compiled: Err(format!(
                    "no available language compiles the output validator {}",
                    validator.file_name
                )),
            });
        };
        let compiled = self.compile(&language, validator.source.as_bytes())?;
        let compiled = if compiled.result.ok {
            Ok(compiled)
        } else {
            Err(format!(
                "the output validator does not compile: {}",
                compiled.result.message
            ))
        };
        Ok(CompiledValidator {
            problem: key,
            language,
            compiled,
        })
    }

    /// Judges an answer submission: `answers` maps instance names to the student's output for
    /// that instance. Scored like a program (subtasks all-or-nothing, samples worth nothing).
    pub fn judge_answers(
        &mut self,
        problem: &Problem,
        instances: &[Instance],
        answers: &BTreeMap<String, String>,
        on_event: &mut dyn FnMut(&Event),
    ) -> Result<Judgement, JudgeError> {
        let compile = CompileResult {
            ok: true,
            message: String::new(),
            cpu_ms: 0,
            memory_kib: 0,
            build: Build::Nothing,
        };
        on_event(&Event::Compiled(compile.clone()));
        self.spending = Spending::new(SubmissionBudget::of(problem, instances.len()));
        let mut judgement = Judgement::started(problem, ANSWERS_LANGUAGE, compile);
        let dir = tempfile::Builder::new()
            .prefix("answers-")
            .tempdir_in(self.scratch.path())?;
        let (input_path, answer_path, output_path) = (
            dir.path().join("input"),
            dir.path().join("answer"),
            dir.path().join("output"),
        );
        let needs_input = problem.spec.checker.kind == CheckerKind::Reference;
        let mut scorer = Scorer::new(problem);
        for (name, instance) in naming::answer_tests(problem, instances) {
            let _test = tracing::info_span!("test", test = %name).entered();
            let mut result = TestResult::accepted(name);
            let answer = answers.get(&instance.name);
            match answer {
                None => {
                    result.verdict = Verdict::WrongAnswer;
                    result.message = Some(format!("no answer for {}", instance.name));
                }
                Some(output) => {
                    fs::write(&input_path, &instance.input)?;
                    fs::write(&answer_path, &instance.answer)?;
                    fs::write(&output_path, output)?;
                    let outcome = self.check_output(
                        problem,
                        &input_path,
                        &answer_path,
                        &output_path,
                        output,
                        needs_input,
                    )?;
                    // The instances are the student's own: the quotes are kept, and shown to
                    // whoever may see their answers.
                    apply_outcome(outcome, &mut result, true);
                }
            }
            if shows_data(result.verdict) {
                result.shown = Some(Shown {
                    input: cut(&instance.input),
                    expected: cut(&instance.answer),
                    output: answer.map(|a| cut(a)).unwrap_or_default(),
                });
            }
            scorer.record(
                Group::of_instance(instance),
                result.name.index,
                result.verdict,
            );
            on_event(&Event::Test(result.clone()));
            judgement.tests.push(result);
        }
        for subtask in scorer.subtasks() {
            on_event(&Event::Subtask(subtask));
        }
        judgement.total(&scorer);
        judgement.spent(&self.spending);
        Ok(judgement)
    }
}

/// What running one test needs of a compiled program.
#[derive(Clone, Copy)]
struct Program<'a> {
    language: &'a Language,
    compiled: &'a Compiled,
    limits: Limits,
    needs_input: bool,
    reveal_tests: bool,
}

impl TestResult {
    /// A test that passed, until its run or its check says otherwise.
    fn accepted(name: TestName) -> TestResult {
        TestResult {
            name,
            verdict: Verdict::Accepted,
            cpu_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            message: None,
            detail: None,
            shown: None,
            transcript: None,
        }
    }

    /// A test not run: no time, no memory, no message.
    fn skipped(name: TestName) -> TestResult {
        TestResult {
            verdict: Verdict::Skipped,
            ..TestResult::accepted(name)
        }
    }
}

impl Judgement {
    /// A judgement before any test: accepted, scoring nothing yet.
    fn started(problem: &Problem, language: &str, compile: CompileResult) -> Judgement {
        let spec = &problem.spec;
        Judgement {
            problem: spec.slug.clone(),
            version: spec.version,
            language: language.to_owned(),
            verdict: Verdict::Accepted,
            score: 0,
            max_score: spec.subtasks.iter().map(|s| s.points).sum(),
            compile,
            subtasks: Vec::new(),
            tests: Vec::new(),
            budget: SubmissionBudget::of(problem, 0),
            spent_cpu_ms: 0,
            spent_wall_ms: 0,
            budget_exhausted: false,
        }
    }

    /// Records what judging spent of its budget.
    fn spent(&mut self, spending: &Spending) {
        self.budget = spending.budget;
        (self.spent_cpu_ms, self.spent_wall_ms) = spending.spent();
        self.budget_exhausted = spending.was_exhausted();
    }

    /// What the explanation that may follow this judgement has: what the submission's budget
    /// has left, at most the explanation's own.
    pub fn explanation_budget(&self) -> explain::Budget {
        let own = explain::Budget::default();
        let cpu_left = self.budget.cpu_ms.saturating_sub(self.spent_cpu_ms);
        let wall_left = self.budget.wall_ms.saturating_sub(self.spent_wall_ms);
        explain::Budget {
            cpu: own.cpu.min(std::time::Duration::from_millis(cpu_left)),
            wall: own.wall.min(std::time::Duration::from_millis(wall_left)),
            ..own
        }
    }

    /// The verdict, the subtasks and the score as `scorer` totals them.
    fn total(&mut self, scorer: &Scorer<'_>) {
        self.verdict = scorer.verdict();
        self.subtasks = scorer.subtasks();
        self.score = scorer.score();
    }
}

/// Whether a compilation's outcome follows from its inputs alone, so that it may be cached: a
/// program, or the compiler's own refusal (a normal exit) well inside the limits (a compiler
/// short of memory or time may fail another way, or succeed, next time).
fn deterministic(report: &RunReport, result: &CompileResult, limits: &Limits) -> bool {
    if result.ok {
        return report.refused.is_empty();
    }
    report.status == Status::RuntimeError
        && report.exit_code.is_some()
        && report.cpu_ms < limits.cpu_ms / 2
        && report.wall_ms < limits.wall_ms / 2
        && report.memory_kib < limits.memory_kib / 2
        && !result.message.contains("internal compiler error")
}

/// How the sandbox runs a compiled program of `language` under `limits`, its standard streams
/// still to be set.
fn program_spec(
    language: &Language,
    compiled: &Compiled,
    mut limits: Limits,
) -> std::io::Result<RunSpec> {
    limits.pids = limits.pids.max(language.spec.min_pids.unwrap_or(0));
    Ok(RunSpec {
        argv: language.command(&language.spec.run, limits.memory_kib / 1024),
        env: language.env(),
        files: compiled.box_files()?,
        stdin: None,
        stdout_path: None,
        binds: language.binds(),
        copy_out: None,
        limits,
        kind: RunKind::Program,
        pipes: None,
    })
}

/// Validator and checker limits: generous, they are the judge's own programs.
const VALIDATOR_CPU_MS: u64 = 10_000;
const VALIDATOR_MEMORY_KIB: u64 = 1 << 20;

/// Records a check's outcome: the message naming places only, and the one quoting the test's
/// data kept apart, only where the contestant sees the test's input anyway (see [`Mismatch`]).
fn apply_outcome(outcome: CheckOutcome, result: &mut TestResult, input_visible: bool) {
    match outcome {
        CheckOutcome::Accepted => {}
        CheckOutcome::WrongAnswer(mismatch) => {
            result.verdict = Verdict::WrongAnswer;
            result.message = Some(mismatch.reason().to_owned());
            result.detail = mismatch
                .detail()
                .filter(|_| input_visible)
                .map(str::to_owned);
        }
        CheckOutcome::CheckerFailed(message) => {
            // The test's name is in the span around this. Debug-quoted: the message may carry
            // a checker's own output, which must not forge lines of the log.
            tracing::error!(checker = ?message, "the checker failed");
            result.verdict = Verdict::InternalError;
        }
    }
}

/// Whether a failed test shows its data (where it may): not when the judge failed, since the
/// run says nothing about the program then.
fn shows_data(verdict: Verdict) -> bool {
    verdict.is_failure() && verdict != Verdict::InternalError
}

/// The start of `text`, at most [`SHOWN_BYTES`], marked where it was cut.
fn cut(text: &str) -> String {
    truncate(text.to_owned(), SHOWN_BYTES)
}

/// The start of the file at `path` as [`cut`] gives it, reading no more than that: inputs and
/// outputs may be megabytes.
fn read_shown(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut head = Vec::with_capacity(SHOWN_BYTES + 4);
    fs::File::open(path)?
        .take(SHOWN_BYTES as u64 + 4)
        .read_to_end(&mut head)?;
    let whole = head.len() <= SHOWN_BYTES;
    // A character cut by the read is dropped with the rest.
    let mut text = String::from_utf8_lossy(&head).into_owned();
    if whole {
        return Ok(text);
    }
    let mut at = SHOWN_BYTES.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    text.truncate(at);
    text.push_str(TRUNCATED);
    Ok(text)
}

/// What ends a text that was cut.
const TRUNCATED: &str = "\n… (truncated)";

fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str(TRUNCATED);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_abnormal_run_has_a_verdict() {
        assert_eq!(verdict_of_run(Status::Ok), None);
        assert_eq!(verdict_of_run(Status::TimeLimit), Some(Verdict::TimeLimit));
        assert_eq!(
            verdict_of_run(Status::SecurityViolation),
            Some(Verdict::SecurityViolation)
        );
        assert_eq!(
            serde_json::to_string(&Verdict::WrongAnswer).unwrap(),
            "\"wrong_answer\""
        );
        assert_eq!(Verdict::CompilationError.as_str(), "compilation_error");
    }

    #[test]
    fn compiler_messages_are_truncated_on_a_character_boundary() {
        let long = "é".repeat(10_000);
        let cut = truncate(long, 8193);
        assert!(cut.ends_with("(truncated)"));
        assert!(cut.len() < 8300);
        assert_eq!(truncate("short".into(), 10), "short");
    }

    #[test]
    fn shown_data_is_cut_to_a_few_kib_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        fs::write(&small, "2 4\n2 3\n").unwrap();
        assert_eq!(read_shown(&small).unwrap(), "2 4\n2 3\n");
        // A file far longer than what is shown: only its start is read, cut on a character.
        let large = dir.path().join("large");
        fs::write(&large, format!("x{}", "é".repeat(1 << 20))).unwrap();
        let shown = read_shown(&large).unwrap();
        assert!(shown.ends_with("(truncated)"), "{shown:.40}");
        assert!(shown.len() <= SHOWN_BYTES + 20);
        assert!(shown.starts_with("xéé"));
        assert!(!shown.contains('\u{FFFD}'), "no character is broken");
        assert_eq!(cut(&"x".repeat(SHOWN_BYTES)), "x".repeat(SHOWN_BYTES));
        assert!(cut(&"x".repeat(SHOWN_BYTES + 1)).ends_with("(truncated)"));
        // Only failures the program is to blame for show anything.
        assert!(shows_data(Verdict::WrongAnswer));
        assert!(shows_data(Verdict::TimeLimit));
        assert!(!shows_data(Verdict::Accepted));
        assert!(!shows_data(Verdict::Skipped));
        assert!(!shows_data(Verdict::InternalError));
    }

    #[test]
    fn test_sets_are_cached_per_version_and_complete() {
        let catalogue = grundy_problems::Catalogue::builtin().unwrap();
        let problem = catalogue.get("nim").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let first = testset::materialize(problem, cache.path()).unwrap();
        assert_eq!(
            first.tests.len(),
            problem.samples.len() + problem.test_count()
        );
        let generated: Vec<_> = problem.tests().collect();
        let last = first.tests.last().unwrap();
        assert_eq!(
            fs::read_to_string(&last.input).unwrap(),
            generated.last().unwrap().input
        );
        assert_eq!(
            fs::read_to_string(&last.answer).unwrap(),
            generated.last().unwrap().answer
        );
        assert_eq!(
            fs::read_to_string(&first.tests[0].input).unwrap(),
            problem.samples[0].input
        );
        // A second call reuses the directory; no staging directories are left behind.
        let second = testset::materialize(problem, cache.path()).unwrap();
        assert_eq!(first.dir, second.dir);
        let entries = fs::read_dir(cache.path()).unwrap().count();
        assert_eq!(entries, 1);
        assert!(
            first
                .dir
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("nim-v")
        );
    }
}
