//! The catalogue: problem folders (`problem.toml`, statements, samples) bound to their families,
//! and problems read from uploaded packages (see `package`).
//!
//! The built-in problems are compiled into the binary from the repository's `problems/` folder,
//! so the service needs no files at run time; a folder on disk can be loaded the same way.

use crate::check::{CheckOutcome, check_tokens};
use crate::families;
use crate::family::{Params, Solver};
use crate::package::TestFolder;
use crate::seed::{InstanceKey, TestKey};
use crate::spec::{CheckerKind, ProblemSpec, check_counts, is_valid_line_answers};
use include_dir::{Dir, include_dir};
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;

static BUILTIN: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../problems");

/// Statement languages a problem may carry; English is required.
pub const LANGUAGES: &[&str] = &["en", "vi"];

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("problem {slug}: {message}")]
    Invalid { slug: String, message: String },
    #[error("reading {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

pub(crate) fn invalid(slug: &str, message: impl Into<String>) -> LoadError {
    LoadError::Invalid {
        slug: slug.to_string(),
        message: message.into(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub name: String,
    pub input: String,
    pub answer: String,
}

/// One test with its reference answer. Numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    pub subtask: usize,
    pub index: usize,
    pub input: String,
    pub answer: String,
}

/// An uploaded package's output validator, carried as source text: the judge compiles it and
/// runs it in its sandbox with the Kattis interface (`validator input answer feedback_dir
/// [flags] < output`; exit code 42 accepts, 43 rejects). An interactive problem's validator is
/// its interactor: it runs beside the program, its standard output the program's input and the
/// program's output its standard input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputValidator {
    /// The single source file's name; its extension tells the language (`validate.cpp`).
    pub file_name: String,
    pub source: String,
    /// The package's validator flags, passed after the three arguments.
    pub flags: Vec<String>,
    /// Whether it is the interactor of an interactive problem.
    pub interactive: bool,
}

/// An input handed to a student who answers without a program, with the reference answer.
/// Judge the student's answer with [`Problem::check`] against it, as a program's output: where
/// several answers are right, this is only one of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub name: String,
    /// The 1-based subtask the instance is drawn from; `None` for a sample.
    pub subtask: Option<usize>,
    pub input: String,
    pub answer: String,
}

/// Where a problem's tests come from.
enum Backing {
    /// A game family generates them from each subtask's checked parameters.
    Family {
        solver: Arc<dyn Solver>,
        params: Vec<Params>,
    },
    /// An uploaded package holds them.
    Tests {
        tests: PackageTests,
        validator: Option<OutputValidator>,
        /// What the package unpacked to, every file counted.
        unpacked_bytes: u64,
    },
}

/// Where an uploaded package's tests are kept.
pub(crate) enum PackageTests {
    /// In memory, subtask by subtask ([`read_zip`](crate::read_zip)).
    Memory(Vec<Vec<TestCase>>),
    /// As files, with the samples ([`read_zip_to`](crate::read_zip_to)).
    Folder(TestFolder),
}

/// A problem: its spec, statements and samples, and either a game family or uploaded tests
/// behind them (see [`Problem::is_family_backed`]).
pub struct Problem {
    pub spec: ProblemSpec,
    statements: BTreeMap<String, String>,
    pub samples: Vec<Sample>,
    backing: Backing,
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Problem")
            .field("slug", &self.spec.slug)
            .finish_non_exhaustive()
    }
}

/// The time limits a problem may set, in milliseconds.
pub(crate) const TIME_LIMIT_MS: RangeInclusive<u32> = 100..=60_000;
/// The memory limits a problem may set, in MiB.
pub(crate) const MEMORY_LIMIT_MIB: RangeInclusive<u32> = 16..=4096;

impl Problem {
    /// Builds a problem from its files, keyed by path relative to the problem folder.
    pub fn from_files(slug: &str, files: &BTreeMap<String, String>) -> Result<Problem, LoadError> {
        Problem::from_files_using(slug, files, None)
    }

    /// [`Problem::from_files`] with the family `problem.toml` names already built (an octal
    /// code's values take seconds to compute: once per request is enough).
    pub(crate) fn from_files_using(
        slug: &str,
        files: &BTreeMap<String, String>,
        family: Option<Arc<dyn Solver>>,
    ) -> Result<Problem, LoadError> {
        let toml_text = files
            .get("problem.toml")
            .ok_or_else(|| invalid(slug, "problem.toml is missing"))?;
        let spec: ProblemSpec = toml::from_str(toml_text)
            .map_err(|e| invalid(slug, format!("problem.toml: {}", e.message())))?;
        if spec.slug != slug {
            return Err(invalid(
                slug,
                format!(
                    "problem.toml names the slug {:?}, but the folder is {slug:?}",
                    spec.slug
                ),
            ));
        }
        check_titles(&spec.title).map_err(|e| invalid(slug, e))?;
        if !TIME_LIMIT_MS.contains(&spec.time_limit_ms) {
            return Err(invalid(slug, "time_limit_ms must lie in 100..=60000"));
        }
        if !MEMORY_LIMIT_MIB.contains(&spec.memory_limit_mib) {
            return Err(invalid(slug, "memory_limit_mib must lie in 16..=4096"));
        }
        let solver = match family {
            Some(solver) => solver,
            None => families::for_spec(&spec.family, spec.game.as_ref())
                .map_err(|e| invalid(slug, e))?,
        };
        match spec.checker.kind {
            CheckerKind::Tokens => {}
            CheckerKind::Reference if solver.has_reference_checker() => {}
            CheckerKind::Reference => {
                return Err(invalid(
                    slug,
                    format!("the {} family has no reference checker", spec.family),
                ));
            }
            CheckerKind::Custom => {
                return Err(invalid(
                    slug,
                    "a custom checker comes only with an uploaded package's output validator",
                ));
            }
        }
        if !is_valid_line_answers(&spec.checker.line_answers) {
            return Err(invalid(
                slug,
                "checker.line_answers must be one to three lower-case words (game, test case)",
            ));
        }
        if spec.subtasks.is_empty() {
            return Err(invalid(slug, "at least one subtask is required"));
        }
        check_counts(&spec.subtasks).map_err(|e| invalid(slug, e))?;
        let points: u64 = spec.subtasks.iter().map(|s| u64::from(s.points)).sum();
        if points != 100 {
            return Err(invalid(
                slug,
                format!("subtask points add up to {points}, not 100"),
            ));
        }
        let mut params = Vec::new();
        for (number, subtask) in spec.subtasks.iter().enumerate() {
            if !is_plain_name(&subtask.name) {
                return Err(invalid(
                    slug,
                    format!(
                        "subtask {}: the name must be lower-case letters, digits, - and _",
                        number + 1
                    ),
                ));
            }
            if subtask.tests == 0 || subtask.tests > 100 {
                return Err(invalid(
                    slug,
                    format!("subtask {}: tests must lie in 1..=100", number + 1),
                ));
            }
            params.push(
                solver
                    .params(&subtask.generator)
                    .map_err(|e| invalid(slug, format!("subtask {} generator: {e}", number + 1)))?,
            );
        }

        let mut statements = BTreeMap::new();
        let mut sample_inputs = BTreeMap::new();
        let mut sample_answers = BTreeMap::new();
        for (path, text) in files {
            if path == "problem.toml" {
                continue;
            }
            if let Some(lang) = path
                .strip_prefix("statement.")
                .and_then(|p| p.strip_suffix(".md"))
            {
                if !LANGUAGES.contains(&lang) {
                    return Err(invalid(slug, format!("{path}: unknown language {lang:?}")));
                }
                statements.insert(lang.to_string(), text.clone());
            } else if let Some(name) = path
                .strip_prefix("samples/")
                .and_then(|p| p.strip_suffix(".in"))
            {
                sample_inputs.insert(name.to_string(), text.clone());
            } else if let Some(name) = path
                .strip_prefix("samples/")
                .and_then(|p| p.strip_suffix(".ans"))
            {
                sample_answers.insert(name.to_string(), text.clone());
            } else {
                return Err(invalid(slug, format!("unexpected file {path}")));
            }
        }
        if !statements.contains_key("en") {
            return Err(invalid(slug, "statement.en.md is missing"));
        }
        let mut samples = Vec::new();
        for (name, input) in sample_inputs {
            if !is_plain_name(&name) {
                return Err(invalid(
                    slug,
                    format!(
                        "samples/{name}.in: the name must be lower-case letters, digits, - and _"
                    ),
                ));
            }
            let answer = sample_answers.remove(&name).ok_or_else(|| {
                invalid(slug, format!("samples/{name}.in has no samples/{name}.ans"))
            })?;
            solver
                .validate(&input)
                .map_err(|e| invalid(slug, format!("samples/{name}.in: {e}")))?;
            samples.push(Sample {
                name,
                input,
                answer,
            });
        }
        if let Some(name) = sample_answers.keys().next() {
            return Err(invalid(
                slug,
                format!("samples/{name}.ans has no samples/{name}.in"),
            ));
        }
        Ok(Problem {
            spec,
            statements,
            samples,
            backing: Backing::Family { solver, params },
        })
    }

    /// A problem whose tests are an uploaded package's, which `unpacked_bytes` unpacked to: in
    /// memory, `tests[s]` holds the tests of `spec.subtasks[s]`, numbered in order. The caller
    /// (the package reader) has checked everything else.
    pub(crate) fn from_tests(
        spec: ProblemSpec,
        statements: BTreeMap<String, String>,
        samples: Vec<Sample>,
        tests: PackageTests,
        validator: Option<OutputValidator>,
        unpacked_bytes: u64,
    ) -> Problem {
        Problem {
            spec,
            statements,
            samples,
            backing: Backing::Tests {
                tests,
                validator,
                unpacked_bytes,
            },
        }
    }

    pub fn slug(&self) -> &str {
        &self.spec.slug
    }

    /// The title in `lang`, or in English.
    pub fn title(&self, lang: &str) -> &str {
        self.spec.title.get(lang).unwrap_or(&self.spec.title["en"])
    }

    /// The statement in `lang`, if the problem has one in that language.
    pub fn statement(&self, lang: &str) -> Option<&str> {
        self.statements.get(lang).map(String::as_str)
    }

    pub fn statement_languages(&self) -> impl Iterator<Item = &str> {
        self.statements.keys().map(String::as_str)
    }

    /// Whether a game family generates the tests and knows the reference answer; otherwise the
    /// problem is an uploaded package of fixed tests.
    pub fn is_family_backed(&self) -> bool {
        matches!(self.backing, Backing::Family { .. })
    }

    /// The family's solver; `None` for an uploaded package, which has only its files.
    pub fn solver(&self) -> Option<&dyn Solver> {
        match &self.backing {
            Backing::Family { solver, .. } => Some(solver.as_ref()),
            Backing::Tests { .. } => None,
        }
    }

    /// How the family explains wrong answers; `None` for a package or a family that cannot.
    pub fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        self.solver().and_then(|s| s.explainer())
    }

    /// How the reference referees a test of an interactive problem; `None` for every other
    /// problem (an interactive package has an [`interactor`](Problem::interactor) instead).
    pub fn play(&self) -> Option<&dyn crate::play::Play> {
        self.solver().and_then(|s| s.play())
    }

    /// The game for a person to play against the reference, where the problem has one that
    /// fits on a page.
    pub fn board(&self) -> Option<&dyn crate::play::Board> {
        self.solver().and_then(|s| s.board())
    }

    /// The interactor of an uploaded interactive package: its output validator, run beside the
    /// program and talking with it.
    pub fn interactor(&self) -> Option<&OutputValidator> {
        self.output_validator().filter(|v| v.interactive)
    }

    /// Whether a program talks with a referee while it runs: the family's reference, or a
    /// package's interactor.
    pub fn is_interactive(&self) -> bool {
        self.play().is_some() || self.interactor().is_some()
    }

    /// The package's output validator, when answers are judged by one (checker kind
    /// [`CheckerKind::Custom`]); see [`Problem::check`].
    pub fn output_validator(&self) -> Option<&OutputValidator> {
        match &self.backing {
            Backing::Family { .. } => None,
            Backing::Tests { validator, .. } => validator.as_ref(),
        }
    }

    /// The folder holding an uploaded package's samples and tests, when it was read with
    /// [`read_zip_to`](crate::read_zip_to): the judge runs them from there.
    pub fn test_folder(&self) -> Option<&TestFolder> {
        match &self.backing {
            Backing::Tests {
                tests: PackageTests::Folder(folder),
                ..
            } => Some(folder),
            _ => None,
        }
    }

    /// How many bytes an uploaded package unpacked to, every file counted (as
    /// [`ReadLimits`](crate::ReadLimits) counts them); `None` for a family problem.
    pub fn unpacked_bytes(&self) -> Option<u64> {
        match &self.backing {
            Backing::Family { .. } => None,
            Backing::Tests { unpacked_bytes, .. } => Some(*unpacked_bytes),
        }
    }

    /// The checked generator parameters of subtask `number` (1-based), for a family problem.
    pub(crate) fn subtask_params(&self, number: usize) -> Option<&Params> {
        match &self.backing {
            Backing::Family { params, .. } => params.get(number.checked_sub(1)?),
            Backing::Tests { .. } => None,
        }
    }

    pub fn test_count(&self) -> usize {
        self.spec.subtasks.iter().map(|s| s.tests).sum()
    }

    /// Judges a contestant's `output` for a test: token comparison with `expected`, or the
    /// family's reference-backed checker.
    ///
    /// A problem with an [`output_validator`](Problem::output_validator) cannot be judged in
    /// this process: the caller must run the validator instead, and `check` answers
    /// [`CheckOutcome::CheckerFailed`] so that forgetting to never accepts anything.
    pub fn check(&self, input: &str, expected: &str, output: &str) -> CheckOutcome {
        if let Some(outcome) = check_tokens(&self.spec.checker, expected, output) {
            return outcome;
        }
        match &self.backing {
            Backing::Family { solver, .. } => solver.check_text(input, output),
            Backing::Tests { .. } => CheckOutcome::CheckerFailed(
                "this problem's answers are judged by its output validator, which runs in the \
                 judge's sandbox"
                    .into(),
            ),
        }
    }

    /// Test `index` of subtask `subtask` (both 1-based) with its reference answer, generated or
    /// read from the package, or `None` if the problem has no such test (or, for a package in a
    /// [`TestFolder`], its files can no longer be read: read them yourself to learn why).
    pub fn generate_test(&self, subtask: usize, index: usize) -> Option<TestCase> {
        let spec = self.spec.subtasks.get(subtask.checked_sub(1)?)?;
        if index == 0 || index > spec.tests {
            return None;
        }
        match &self.backing {
            Backing::Family { solver, params } => {
                let key = TestKey {
                    slug: &self.spec.slug,
                    version: self.spec.version,
                    subtask,
                    index,
                    seed: self.spec.seed,
                };
                let (input, answer) =
                    solver.generate_test(&params[subtask - 1], index - 1, &mut key.rng());
                Some(TestCase {
                    subtask,
                    index,
                    input,
                    answer,
                })
            }
            Backing::Tests {
                tests: PackageTests::Memory(subtasks),
                ..
            } => subtasks[subtask - 1].get(index - 1).cloned(),
            Backing::Tests {
                tests: PackageTests::Folder(folder),
                ..
            } => {
                let files = folder.test(subtask, index);
                Some(TestCase {
                    subtask,
                    index,
                    input: std::fs::read_to_string(files.input).ok()?,
                    answer: std::fs::read_to_string(files.answer).ok()?,
                })
            }
        }
    }

    /// Every test, subtask by subtask, generated or read lazily (the largest are megabytes
    /// each). Panics if a package's [`TestFolder`] can no longer be read.
    pub fn tests(&self) -> impl Iterator<Item = TestCase> + '_ {
        self.spec
            .subtasks
            .iter()
            .enumerate()
            .flat_map(move |(s, subtask)| {
                (1..=subtask.tests)
                    .map(move |i| self.generate_test(s + 1, i).expect("within the test set"))
            })
    }

    /// What the samples and every test come to, input and answer, as a cache of test files
    /// holds them: generated one test at a time (a family's are generated here, which takes as
    /// long as a first judging), and `None` as soon as they pass `limit`, the tests after that
    /// not generated. The generators are seeded by the spec, version included, so a problem
    /// generates exactly this much again wherever it is judged.
    pub fn test_bytes_within(&self, limit: u64) -> Option<u64> {
        let mut total = 0u64;
        let sizes = self
            .samples
            .iter()
            .map(|s| s.input.len() + s.answer.len())
            .chain(self.tests().map(|t| t.input.len() + t.answer.len()));
        for size in sizes {
            total = total.saturating_add(size as u64);
            if total > limit {
                return None;
            }
        }
        Some(total)
    }

    /// The instances handed to the student with `personal_seed` who answers without a program:
    /// the samples, then `per_subtask` instances of each subtask, named `<subtask>-<n>`.
    ///
    /// A family draws them with the subtask's generator from an [`InstanceKey`], so each student
    /// always gets the same ones and two students get different ones. They take generator
    /// indices from the subtask's test count on: the low indices are the family's fixed traps,
    /// identical whatever the randomness, so drawing them would hand out hidden tests.
    ///
    /// An uploaded package yields its samples only: its other tests are the hidden set, and
    /// without a generator there is nothing else to draw from.
    pub fn instances(&self, personal_seed: u64, per_subtask: usize) -> Vec<Instance> {
        self.drawn(personal_seed, per_subtask).collect()
    }

    /// [`Problem::instances`], or `None` as soon as their inputs and answers pass `max_bytes`
    /// together: the rest are not drawn, so memory holds at most `max_bytes` and one instance.
    pub fn instances_within(
        &self,
        personal_seed: u64,
        per_subtask: usize,
        max_bytes: u64,
    ) -> Option<Vec<Instance>> {
        let mut total = 0u64;
        let mut instances = Vec::new();
        for instance in self.drawn(personal_seed, per_subtask) {
            total = total.saturating_add((instance.input.len() + instance.answer.len()) as u64);
            if total > max_bytes {
                return None;
            }
            instances.push(instance);
        }
        Some(instances)
    }

    /// The instances of [`Problem::instances`], drawn one at a time.
    fn drawn(&self, personal_seed: u64, per_subtask: usize) -> impl Iterator<Item = Instance> + '_ {
        let samples = self.samples.iter().map(|sample| Instance {
            name: sample.name.clone(),
            subtask: None,
            input: sample.input.clone(),
            answer: sample.answer.clone(),
        });
        let drawn = match &self.backing {
            Backing::Family { solver, params } => Some((solver, params)),
            Backing::Tests { .. } => None,
        };
        let subtasks = drawn.into_iter().flat_map(move |(solver, params)| {
            self.spec
                .subtasks
                .iter()
                .enumerate()
                .flat_map(move |(s, subtask)| {
                    (1..=per_subtask).map(move |n| {
                        let key = InstanceKey {
                            at: TestKey {
                                slug: &self.spec.slug,
                                version: self.spec.version,
                                subtask: s + 1,
                                index: n,
                                seed: self.spec.seed,
                            },
                            personal_seed,
                        };
                        let (input, answer) =
                            solver.generate_test(&params[s], subtask.tests + n - 1, &mut key.rng());
                        Instance {
                            name: format!("{}-{n:02}", subtask.name),
                            subtask: Some(s + 1),
                            input,
                            answer,
                        }
                    })
                })
        });
        samples.chain(subtasks)
    }
}

/// Whether `slug` may name a new problem: a lower-case letter or digit, then 1 to 47 lower-case
/// letters, digits and hyphens (it becomes a folder name and part of URLs).
pub fn is_valid_slug(slug: &str) -> bool {
    let bytes = slug.as_bytes();
    (2..=48).contains(&bytes.len())
        && (bytes[0].is_ascii_lowercase() || bytes[0].is_ascii_digit())
        && bytes
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// An English title is required, and every title is in a known language.
pub(crate) fn check_titles(titles: &BTreeMap<String, String>) -> Result<(), String> {
    if !titles.contains_key("en") {
        return Err("an English title (title.en) is required".into());
    }
    if let Some(lang) = titles.keys().find(|l| !LANGUAGES.contains(&l.as_str())) {
        return Err(format!("title.{lang}: unknown language"));
    }
    Ok(())
}

/// The problems, ordered by difficulty and then slug.
#[derive(Debug, Default)]
pub struct Catalogue {
    problems: Vec<Problem>,
}

impl Catalogue {
    /// The problems compiled into this binary.
    pub fn builtin() -> Result<Catalogue, LoadError> {
        let mut folders = BTreeMap::new();
        for folder in BUILTIN.dirs() {
            let slug = folder.path().to_string_lossy().into_owned();
            let mut files = BTreeMap::new();
            collect_embedded(folder, folder.path(), &mut files)
                .map_err(|message| invalid(&slug, message))?;
            folders.insert(slug, files);
        }
        Catalogue::from_folders(folders)
    }

    /// Every problem folder directly under `root`.
    pub fn from_dir(root: &Path) -> Result<Catalogue, LoadError> {
        let mut folders = BTreeMap::new();
        for entry in std::fs::read_dir(root).map_err(io(root))? {
            let path = entry.map_err(io(root))?.path();
            if path.is_dir() {
                let slug = path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let mut files = BTreeMap::new();
                collect_disk(&path, &path, &mut files)?;
                folders.insert(slug, files);
            }
        }
        Catalogue::from_folders(folders)
    }

    fn from_folders(
        folders: BTreeMap<String, BTreeMap<String, String>>,
    ) -> Result<Catalogue, LoadError> {
        let mut problems = folders
            .iter()
            .map(|(slug, files)| Problem::from_files(slug, files))
            .collect::<Result<Vec<_>, _>>()?;
        problems.sort_by(|a, b| (a.spec.difficulty, a.slug()).cmp(&(b.spec.difficulty, b.slug())));
        Ok(Catalogue { problems })
    }

    pub fn get(&self, slug: &str) -> Option<&Problem> {
        self.problems.iter().find(|p| p.slug() == slug)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter()
    }

    pub fn len(&self) -> usize {
        self.problems.len()
    }

    pub fn is_empty(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems, in catalogue order, for a caller that keeps them itself.
    pub fn into_problems(self) -> Vec<Problem> {
        self.problems
    }
}

/// Subtask and sample names become folder and file names: nothing that could leave a folder.
pub(crate) fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LoadError + '_ {
    move |source| LoadError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn collect_embedded(
    dir: &Dir<'_>,
    base: &Path,
    files: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    for file in dir.files() {
        let relative = file.path().strip_prefix(base).expect("inside its folder");
        let text = file
            .contents_utf8()
            .ok_or_else(|| format!("{} is not UTF-8 text", relative.display()))?;
        files.insert(
            relative.to_string_lossy().replace('\\', "/"),
            text.to_string(),
        );
    }
    for sub in dir.dirs() {
        collect_embedded(sub, base, files)?;
    }
    Ok(())
}

fn collect_disk(
    dir: &Path,
    base: &Path,
    files: &mut BTreeMap<String, String>,
) -> Result<(), LoadError> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.is_dir() {
            collect_disk(&path, base, files)?;
        } else {
            let relative = path.strip_prefix(base).expect("inside its folder");
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            files.insert(relative.to_string_lossy().replace('\\', "/"), text);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_short_plain_names() {
        for good in ["nim", "stones-2", "9x", &"a".repeat(48)] {
            assert!(is_valid_slug(good), "{good}");
        }
        for bad in [
            "",
            "a",
            "-nim",
            "Nim",
            "nim_2",
            "nim/..",
            "đá",
            &"a".repeat(49),
        ] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
        assert!(
            Catalogue::builtin()
                .unwrap()
                .iter()
                .all(|p| is_valid_slug(p.slug()))
        );
    }
}
