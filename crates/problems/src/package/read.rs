//! Reading an uploaded package: unpacking the zip within its limits, refusing unsafe paths, and
//! turning `problem.yaml`, the statements, the tests and the output validator into a [`Problem`].

use super::{Extension, GroupPoints, Limits, PackageError, ReadLimits, TestFolder};
use crate::catalogue::{
    LANGUAGES, MEMORY_LIMIT_MIB, OutputValidator, PackageTests, Problem, Sample, TIME_LIMIT_MS,
    TestCase, is_valid_slug,
};
use crate::spec::{
    CheckerKind, CheckerSpec, Difficulty, MAX_SUBTASKS, MAX_TESTS, PACKAGE_FAMILY, PLAIN_LINES,
    ProblemSpec, SubtaskSpec, is_valid_line_answers,
};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufWriter, Cursor, Read, Write};
use std::path::{Path, PathBuf};
use zip::ZipArchive;

/// Time limit when a package sets none.
const DEFAULT_TIME_LIMIT_MS: u32 = 1000;
/// Memory limit when a package sets none, the format's own default.
const DEFAULT_MEMORY_MIB: u32 = 2048;

/// Reads an uploaded package into a problem backed by its tests, held in memory (see the
/// module's description).
pub fn read_zip(bytes: &[u8], limits: &ReadLimits) -> Result<Problem, PackageError> {
    Files::unpack(bytes, limits, None)?.into_problem()
}

/// Reads an uploaded package as [`read_zip`] does, but streams its secret tests from the archive
/// into a new [`TestFolder`] inside `parent`, next to copies of the samples: the problem keeps
/// only its description, statements, samples and validator in memory, and owns the folder.
pub fn read_zip_to(
    bytes: &[u8],
    limits: &ReadLimits,
    parent: &Path,
) -> Result<Problem, PackageError> {
    let folder = TestFolder::create(parent)?;
    Files::unpack(bytes, limits, Some(folder))?.into_problem()
}

/// The files of a package, by path relative to the folder that holds `problem.yaml`; files the
/// reader has no use for are counted and dropped.
struct Files {
    /// The top-level folder of the archive that holds everything, if there is one.
    folder: Option<String>,
    files: BTreeMap<String, Data>,
    /// Where the secret tests were streamed to, for [`read_zip_to`].
    disk: Option<TestFolder>,
    /// Bytes unpacked, every file counted.
    unpacked: u64,
}

/// A file's content: in memory, or (a secret test, for [`read_zip_to`]) on disk.
enum Data {
    Bytes(Vec<u8>),
    Unpacked(Unpacked),
}

/// A secret test streamed to disk under a provisional name, with what the reader learnt of it
/// on the way.
struct Unpacked {
    path: PathBuf,
    digest: [u8; 32],
    /// Where its UTF-8 breaks, if it does.
    invalid_utf8_at: Option<u64>,
}

/// What the reader does with a file of the package.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// A secret test: to disk, for [`read_zip_to`].
    Secret,
    /// Read and kept in memory by the loaded problem (and so bounded on its own).
    Kept,
    /// Counted against the cap and dropped (submissions, generators, images, …).
    Ignored,
}

impl Purpose {
    /// The purpose of the file at `path`, relative to the folder holding `problem.yaml`.
    fn of(path: &str) -> Purpose {
        let test_in = |folder: &str| {
            path.strip_prefix(folder)
                .is_some_and(|rest| rest.ends_with(".in") || rest.ends_with(".ans"))
        };
        let statement = ["statement/problem.", "problem_statement/problem."]
            .iter()
            .any(|folder| path.starts_with(folder) && path.ends_with(".md"));
        if test_in("data/secret/") {
            Purpose::Secret
        } else if matches!(path, "problem.yaml" | ".timelimit")
            || statement
            || test_in("data/sample/")
            || (path.starts_with("data/") && path.ends_with("/testdata.yaml"))
            || path.starts_with("output_validators/")
            || path.starts_with("output_validator/")
        {
            Purpose::Kept
        } else {
            Purpose::Ignored
        }
    }
}

impl Files {
    fn unpack(
        bytes: &[u8],
        limits: &ReadLimits,
        disk: Option<TestFolder>,
    ) -> Result<Files, PackageError> {
        let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(PackageError::NotZip)?;
        if archive.len() > limits.max_files {
            return Err(PackageError::TooManyFiles {
                found: archive.len(),
                max: limits.max_files,
            });
        }
        if archive.has_duplicate_names() {
            // Readers disagree on which of the two counts, which is how such archives deceive.
            return Err(PackageError::Layout(
                "the archive holds two entries of the same name".into(),
            ));
        }
        // The names first: the folder holding problem.yaml tells what each file is for.
        let mut names = Vec::with_capacity(archive.len());
        for index in 0..archive.len() {
            let name = match archive.name_for_index(index) {
                Some(Ok(name)) => name.into_owned(),
                _ => {
                    return Err(PackageError::Layout(format!(
                        "entry {} of the archive has no readable name",
                        index + 1
                    )));
                }
            };
            check_archive_path(&name).map_err(|message| PackageError::File {
                path: name.clone(),
                message,
            })?;
            names.push(name);
        }
        let folder = root_folder(
            names
                .iter()
                .filter(|name| !name.ends_with('/') && !is_litter(name)),
        )?;
        let prefix = folder.as_ref().map(|f| format!("{f}/"));
        let mut files = BTreeMap::new();
        let (mut total, mut kept) = (0u64, 0u64);
        for (index, name) in names.into_iter().enumerate() {
            let refuse = |message: String| PackageError::File {
                path: name.clone(),
                message,
            };
            let mut entry = archive
                .by_index(index)
                .map_err(|e| refuse(format!("cannot be read: {e}")))?;
            if entry.is_symlink() {
                return Err(refuse("links are not allowed in a package".into()));
            }
            if entry.is_dir() || is_litter(&name) {
                continue;
            }
            let relative = match &prefix {
                Some(prefix) => name.strip_prefix(prefix.as_str()).unwrap_or_default(),
                None => name.as_str(),
            }
            .to_string();
            let purpose = Purpose::of(&relative);
            // The sizes in the headers are the uploader's word: count what inflates instead.
            let remaining = limits.max_total_bytes - total;
            let mut inflating = (&mut entry).take(remaining.saturating_add(1));
            let unpacking = |e: std::io::Error| refuse(format!("cannot be unpacked: {e}"));
            let (data, size) = match (purpose, &disk) {
                (Purpose::Ignored, _) => (
                    None,
                    std::io::copy(&mut inflating, &mut std::io::sink()).map_err(unpacking)?,
                ),
                (Purpose::Secret, Some(disk)) => {
                    let (unpacked, size) =
                        unpack_test(&mut inflating, disk.staging(index), &refuse)?;
                    (Some(Data::Unpacked(unpacked)), size)
                }
                (Purpose::Secret | Purpose::Kept, _) => {
                    let mut data = Vec::new();
                    inflating.read_to_end(&mut data).map_err(unpacking)?;
                    let size = data.len() as u64;
                    (Some(Data::Bytes(data)), size)
                }
            };
            if size > remaining {
                return Err(PackageError::TooLarge {
                    path: name,
                    max: limits.max_total_bytes,
                });
            }
            total += size;
            if purpose == Purpose::Kept {
                kept += size;
                if kept > limits.max_kept_bytes {
                    return Err(PackageError::TooMuchKept {
                        path: name,
                        max: limits.max_kept_bytes,
                    });
                }
            }
            if let Some(data) = data {
                files.insert(relative, data);
            }
        }
        Ok(Files {
            folder,
            files,
            disk,
            unpacked: total,
        })
    }

    /// A path as it appears in the archive, for messages.
    fn shown(&self, path: &str) -> String {
        match &self.folder {
            Some(folder) => format!("{folder}/{path}"),
            None => path.to_string(),
        }
    }

    fn error(&self, path: &str, message: impl Into<String>) -> PackageError {
        PackageError::File {
            path: self.shown(path),
            message: message.into(),
        }
    }

    /// The text of `path`, which must be UTF-8.
    fn text(&self, path: &str) -> Result<Option<&str>, PackageError> {
        match self.files.get(path) {
            None => Ok(None),
            Some(Data::Bytes(bytes)) => std::str::from_utf8(bytes)
                .map(Some)
                .map_err(|e| self.not_utf8(path, e.valid_up_to() as u64)),
            // Only the secret tests go to disk, and they are never read as text here.
            Some(Data::Unpacked(_)) => Err(self.error(path, "is a test, unpacked to disk")),
        }
    }

    /// A test's file, checked to be UTF-8 (as the judge compares text).
    fn check_test(&self, path: &str) -> Result<(), PackageError> {
        match self.files.get(path) {
            Some(Data::Unpacked(Unpacked {
                invalid_utf8_at: Some(offset),
                ..
            })) => Err(self.not_utf8(path, *offset)),
            Some(Data::Unpacked(_)) | None => Ok(()),
            Some(Data::Bytes(_)) => self.text(path).map(drop),
        }
    }

    fn not_utf8(&self, path: &str, offset: u64) -> PackageError {
        self.error(
            path,
            format!("is not UTF-8 text (invalid byte at offset {offset}); save it as UTF-8"),
        )
    }

    /// The SHA-256 of a file's content.
    fn digest(&self, path: &str) -> [u8; 32] {
        match self.files.get(path) {
            Some(Data::Unpacked(unpacked)) => unpacked.digest,
            Some(Data::Bytes(bytes)) => Sha256::digest(bytes).into(),
            None => Sha256::digest(b"").into(),
        }
    }

    fn yaml<T: serde::de::DeserializeOwned + Default>(
        &self,
        path: &str,
    ) -> Result<T, PackageError> {
        let text = self.text(path)?.unwrap_or_default();
        if text.trim().is_empty() {
            return Ok(T::default());
        }
        serde_saphyr::from_str_with_options(text, serde_saphyr::options! { with_snippet: false })
            .map_err(|e| self.error(path, e.to_string()))
    }

    fn into_problem(mut self) -> Result<Problem, PackageError> {
        let yaml: ProblemYaml = self.yaml("problem.yaml")?;
        let at_yaml = |message: String| self.error("problem.yaml", message);
        match yaml.problem_format_version.as_deref() {
            None | Some("legacy" | "draft") => {}
            Some(version) if version.starts_with("2023-07") => {}
            Some(version) => {
                return Err(at_yaml(format!(
                    "problem_format_version {version:?} is not supported (legacy or 2023-07)"
                )));
            }
        }
        let mut interactive = false;
        for kind in yaml.kind.iter().flat_map(OneOrMany::items) {
            match kind {
                "pass-fail" | "scoring" => {}
                "interactive" => interactive = true,
                _ => {
                    return Err(at_yaml(format!(
                        "type {kind:?} is not supported: only pass-fail, scoring and \
                         interactive problems can be judged here"
                    )));
                }
            }
        }
        let validation = self.validation(yaml.validation.as_deref())?;
        let interactive = interactive || validation.interactive;
        let title = self.titles(yaml.name)?;
        let slug = self.slug(&yaml.grundy, &title)?;
        let (time_limit_ms, memory_limit_mib) = self.limits(&yaml.limits)?;
        let statements = self.statements()?;
        let (mut checker, flags) =
            self.checker(yaml.validator_flags.as_deref(), self.has_validator())?;
        let validator = self.validator(validation.custom, interactive, flags)?;
        if let Some(unit) = yaml.grundy.line_answers {
            if !is_valid_line_answers(&unit) {
                return Err(at_yaml(
                    "grundy.line_answers must be one to three lower-case words (game, test case)"
                        .into(),
                ));
            }
            checker.line_answers = unit;
        }
        let samples = self.samples()?;
        let (subtasks, tests) = self.secret(yaml.grundy.subtasks.as_deref())?;
        for (input, answer) in tests.iter().flatten() {
            self.check_test(input)?;
            self.check_test(answer)?;
        }
        let version = yaml.grundy.version.unwrap_or(1);
        if version == 0 {
            return Err(at_yaml("grundy.version must be at least 1".into()));
        }
        let spec = ProblemSpec {
            slug,
            title,
            family: PACKAGE_FAMILY.to_string(),
            game: None,
            version,
            difficulty: yaml.grundy.difficulty.unwrap_or(Difficulty::Medium),
            tags: yaml.grundy.tags,
            source: yaml.source.map(Source::into_text),
            time_limit_ms,
            memory_limit_mib,
            seed: self.content_seed(&tests, validator.as_ref()),
            checker,
            subtasks,
        };
        let tests = self.place(&samples, &tests)?;
        Ok(Problem::from_tests(
            spec,
            statements,
            samples,
            tests,
            validator,
            self.unpacked,
        ))
    }

    /// The tests where the problem keeps them: read into memory, or, when they were streamed to
    /// disk, renamed to their places in the folder, next to copies of the samples.
    fn place(
        &mut self,
        samples: &[Sample],
        tests: &[Vec<(String, String)>],
    ) -> Result<PackageTests, PackageError> {
        let Some(folder) = self.disk.take() else {
            let mut subtasks = Vec::new();
            for (s, subtask) in tests.iter().enumerate() {
                let mut cases = Vec::new();
                for (i, (input, answer)) in subtask.iter().enumerate() {
                    cases.push(TestCase {
                        subtask: s + 1,
                        index: i + 1,
                        input: self.take_text(input),
                        answer: self.take_text(answer),
                    });
                }
                subtasks.push(cases);
            }
            return Ok(PackageTests::Memory(subtasks));
        };
        for (n, sample) in samples.iter().enumerate() {
            let files = folder.sample(n + 1);
            std::fs::write(files.input, &sample.input)?;
            std::fs::write(files.answer, &sample.answer)?;
        }
        for (s, subtask) in tests.iter().enumerate() {
            for (i, (input, answer)) in subtask.iter().enumerate() {
                let files = folder.test(s + 1, i + 1);
                for (path, to) in [(input, files.input), (answer, files.answer)] {
                    if let Some(Data::Unpacked(unpacked)) = self.files.get(path.as_str()) {
                        std::fs::rename(&unpacked.path, to)?;
                    }
                }
            }
        }
        Ok(PackageTests::Folder(folder))
    }

    /// The text of a file checked to be UTF-8 by [`Files::check_test`], moved out of the map.
    fn take_text(&mut self, path: &str) -> String {
        match self.files.remove(path) {
            Some(Data::Bytes(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
            Some(Data::Unpacked(_)) | None => String::new(),
        }
    }

    /// A package's stand-in for a seed: a digest of what it judges with, so that two uploads
    /// under one slug and version still differ in their spec (and the judge's cached test sets
    /// with them). The tests count through their own digests, which are at hand whether they
    /// were read into memory or streamed to disk.
    fn content_seed(
        &self,
        tests: &[Vec<(String, String)>],
        validator: Option<&OutputValidator>,
    ) -> u64 {
        let mut hasher = Sha256::new();
        hasher.update(b"grundy/package/v2\0");
        let mut part = |bytes: &[u8]| {
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(bytes);
        };
        for subtask in tests {
            part(subtask.len().to_string().as_bytes());
            for (input, answer) in subtask {
                part(&self.digest(input));
                part(&self.digest(answer));
            }
        }
        if let Some(validator) = validator {
            part(validator.file_name.as_bytes());
            part(validator.source.as_bytes());
            if !validator.flags.is_empty() || validator.interactive {
                part(validator.flags.join(" ").as_bytes());
                part(if validator.interactive {
                    b"interactive"
                } else {
                    b"output"
                });
            }
        }
        let digest = hasher.finalize();
        u64::from_le_bytes(
            digest[..8]
                .try_into()
                .expect("a SHA-256 digest has 32 bytes"),
        )
    }

    fn titles(&self, name: Option<Name>) -> Result<BTreeMap<String, String>, PackageError> {
        let titles = match name {
            None => return Err(self.error("problem.yaml", "name (the title) is required")),
            Some(Name::One(title)) => BTreeMap::from([("en".to_string(), title)]),
            Some(Name::PerLanguage(titles)) => titles,
        };
        if let Some(lang) = titles.keys().find(|l| !LANGUAGES.contains(&l.as_str())) {
            return Err(self.error(
                "problem.yaml",
                format!(
                    "name.{lang}: unknown language (known: {})",
                    LANGUAGES.join(", ")
                ),
            ));
        }
        if titles.get("en").is_none_or(|t| t.trim().is_empty()) {
            return Err(self.error("problem.yaml", "name needs an English title"));
        }
        Ok(titles)
    }

    /// `grundy.slug`, else the package's folder, else the English title made into a slug.
    fn slug(
        &self,
        grundy: &Extension,
        title: &BTreeMap<String, String>,
    ) -> Result<String, PackageError> {
        let (slug, from) = match (&grundy.slug, &self.folder) {
            (Some(slug), _) => (slug.clone(), "grundy.slug in problem.yaml"),
            (None, Some(folder)) if is_valid_slug(folder) => {
                (folder.clone(), "the name of the package's folder")
            }
            _ => (slug_of(&title["en"]), "the English title"),
        };
        if !is_valid_slug(&slug) {
            return Err(self.error(
                "problem.yaml",
                format!(
                    "the slug {slug:?}, taken from {from}, must be 2 to 48 lower-case letters, \
                     digits and hyphens, starting with a letter or digit; set grundy.slug"
                ),
            ));
        }
        Ok(slug)
    }

    fn limits(&self, limits: &Limits) -> Result<(u32, u32), PackageError> {
        let time = match (limits.time_limit, self.text(".timelimit")?) {
            (Some(seconds), _) => Some(("problem.yaml", "limits.time_limit", seconds)),
            (None, Some(text)) => {
                let seconds = text.trim().parse::<f64>().map_err(|_| {
                    self.error(".timelimit", "must hold a number of seconds, such as 1.5")
                })?;
                Some((".timelimit", "the time limit", seconds))
            }
            (None, None) => None,
        };
        let time_limit_ms = match time {
            None => DEFAULT_TIME_LIMIT_MS,
            Some((path, what, seconds)) => {
                let ms = (seconds * 1000.0).round();
                if !(f64::from(*TIME_LIMIT_MS.start())..=f64::from(*TIME_LIMIT_MS.end()))
                    .contains(&ms)
                {
                    return Err(self.error(
                        path,
                        format!("{what} = {seconds} s must lie in 0.1..=60 seconds"),
                    ));
                }
                ms as u32
            }
        };
        let memory_limit_mib = match limits.memory {
            None => DEFAULT_MEMORY_MIB,
            Some(mib) => u32::try_from(mib)
                .ok()
                .filter(|m| MEMORY_LIMIT_MIB.contains(m))
                .ok_or_else(|| {
                    self.error(
                        "problem.yaml",
                        format!("limits.memory = {mib} MiB must lie in 16..=4096"),
                    )
                })?,
        };
        Ok((time_limit_ms, memory_limit_mib))
    }

    fn statements(&self) -> Result<BTreeMap<String, String>, PackageError> {
        let mut statements = BTreeMap::new();
        for path in self.files.keys() {
            let Some(lang) = ["statement/problem.", "problem_statement/problem."]
                .iter()
                .find_map(|folder| path.strip_prefix(folder)?.strip_suffix(".md"))
            else {
                continue;
            };
            if !LANGUAGES.contains(&lang) {
                return Err(self.error(
                    path,
                    format!(
                        "unknown language {lang:?} (known: {})",
                        LANGUAGES.join(", ")
                    ),
                ));
            }
            let text = self.text(path)?.unwrap_or_default().to_string();
            if statements.insert(lang.to_string(), text).is_some() {
                return Err(self.error(
                    path,
                    format!("a second {lang} statement: keep statement/ or problem_statement/"),
                ));
            }
        }
        if !statements.contains_key("en") {
            return Err(PackageError::Layout(format!(
                "{} is missing (an English statement in Markdown is required)",
                self.shown("statement/problem.en.md")
            )));
        }
        Ok(statements)
    }

    /// `validation` (legacy): `default` or `custom`, the latter possibly `interactive`.
    fn validation(&self, validation: Option<&str>) -> Result<Validation, PackageError> {
        let Some(text) = validation else {
            return Ok(Validation {
                custom: None,
                interactive: false,
            });
        };
        let mut words = text.split_whitespace();
        let custom = match words.next() {
            Some("default") => false,
            Some("custom") => true,
            _ => {
                return Err(self.error(
                    "problem.yaml",
                    format!("validation {text:?} must begin with default or custom"),
                ));
            }
        };
        let mut interactive = false;
        for word in words {
            match (custom, word) {
                (true, "interactive") => interactive = true,
                (true, "score") => {
                    return Err(self.error(
                        "problem.yaml",
                        format!(
                            "validation {text:?}: score is not supported: a package scores by \
                             its test groups (grundy.subtasks), not by a validator's score.txt"
                        ),
                    ));
                }
                _ => {
                    return Err(self.error(
                        "problem.yaml",
                        format!(
                            "validation {text:?} is not supported (default, custom or custom \
                             interactive)"
                        ),
                    ));
                }
            }
        }
        Ok(Validation {
            custom: Some(custom),
            interactive,
        })
    }

    /// The programs under the output validators' folders (legacy and 2023-07 names).
    fn validator_programs(&self) -> Vec<&String> {
        self.files
            .keys()
            .filter(|p| p.starts_with("output_validators/") || p.starts_with("output_validator/"))
            .collect()
    }

    fn has_validator(&self) -> bool {
        !self.validator_programs().is_empty()
    }

    /// The single-file output validator, if there is one, checked against `validation` (`custom`
    /// when it says) and the problem's type: an interactive problem's validator is its
    /// interactor, and it must have one.
    fn validator(
        &self,
        custom: Option<bool>,
        interactive: bool,
        flags: Vec<String>,
    ) -> Result<Option<OutputValidator>, PackageError> {
        let programs = self.validator_programs();
        let path = match (&programs[..], custom) {
            ([], _) if interactive => {
                return Err(self.error(
                    "problem.yaml",
                    "an interactive problem needs its interactor: put it in output_validators/ \
                     (or output_validator/ in the 2023-07 layout), as a program that talks with \
                     the submission and exits with 42 (accepted) or 43 (wrong answer)",
                ));
            }
            ([], Some(true)) => {
                return Err(self.error(
                    "problem.yaml",
                    "validation is custom, but output_validators/ holds no validator",
                ));
            }
            ([], _) => return Ok(None),
            ([path], Some(false)) => {
                return Err(self.error(
                    path,
                    "an output validator, but problem.yaml sets validation: default; set it \
                     to custom or remove the validator",
                ));
            }
            ([path], _) => *path,
            (many, _) => {
                return Err(PackageError::Layout(format!(
                    "the output validator must be one source file, but there are {}: {}",
                    many.len(),
                    many.iter()
                        .map(|p| self.shown(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        };
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() > 3 {
            return Err(self.error(
                path,
                "the validator must lie in output_validators/ or one folder inside it",
            ));
        }
        let file_name = parts[parts.len() - 1];
        let safe = !file_name.starts_with('.')
            && file_name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !safe {
            return Err(self.error(
                path,
                "the validator's file name may hold only letters, digits, '.', '_' and '-'",
            ));
        }
        Ok(Some(OutputValidator {
            file_name: file_name.to_string(),
            source: self.text(path)?.unwrap_or_default().to_string(),
            flags,
            interactive,
        }))
    }

    /// How answers are checked, and the flags a custom validator is given: the package's
    /// validator flags, which must be the same wherever they are set (the judge runs one
    /// validator for the whole problem).
    fn checker(
        &self,
        validator_flags: Option<&str>,
        custom: bool,
    ) -> Result<(CheckerSpec, Vec<String>), PackageError> {
        let mut settings = Vec::new();
        if let Some(flags) = validator_flags {
            settings.push(("problem.yaml".to_string(), flags.to_string()));
        }
        for path in self.files.keys() {
            if path.starts_with("data/") && path.ends_with("/testdata.yaml") {
                let testdata: Testdata = self.yaml(path)?;
                if let Some(flags) = testdata.output_validator_flags {
                    settings.push((path.clone(), flags));
                }
            }
        }
        if custom {
            let mut chosen: Option<(&str, Vec<String>)> = None;
            for (path, flags) in &settings {
                let this: Vec<String> = flags.split_whitespace().map(str::to_owned).collect();
                if this.is_empty() {
                    continue;
                }
                match &chosen {
                    Some((other, first)) if *first != this => {
                        return Err(self.error(
                            path,
                            format!(
                                "sets the validator flags differently from {}: one setting \
                                 must hold for the whole problem",
                                self.shown(other)
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => chosen = Some((path, this)),
                }
            }
            let checker = CheckerSpec {
                kind: CheckerKind::Custom,
                case_sensitive: true,
                line_answers: PLAIN_LINES.to_string(),
            };
            return Ok((checker, chosen.map(|(_, flags)| flags).unwrap_or_default()));
        }
        let mut case_sensitive: Option<(bool, &str)> = None;
        for (path, flags) in &settings {
            if let Some(flag) = flags.split_whitespace().find(|&f| f != "case_sensitive") {
                return Err(self.error(
                    path,
                    format!(
                        "the output validator flag {flag:?} is not supported: answers compare \
                         as whitespace-separated tokens, exactly or (without case_sensitive) \
                         ignoring case; use a custom output validator instead"
                    ),
                ));
            }
            let this = flags.split_whitespace().any(|f| f == "case_sensitive");
            match case_sensitive {
                Some((first, other)) if first != this => {
                    return Err(self.error(
                        path,
                        format!(
                            "sets case_sensitive differently from {}: one setting must hold \
                             for the whole problem",
                            self.shown(other)
                        ),
                    ));
                }
                Some(_) => {}
                None => case_sensitive = Some((this, path)),
            }
        }
        let checker = CheckerSpec {
            kind: CheckerKind::Tokens,
            case_sensitive: case_sensitive.is_some_and(|(this, _)| this),
            line_answers: PLAIN_LINES.to_string(),
        };
        Ok((checker, Vec::new()))
    }

    fn samples(&self) -> Result<Vec<Sample>, PackageError> {
        let folders = self.test_folders("data/sample/")?;
        if let Some(group) = folders.keys().find(|g| !g.is_empty()) {
            return Err(self.error(
                &format!("data/sample/{group}"),
                "sample tests cannot be split into groups",
            ));
        }
        self.pairs("data/sample/", folders.get("").unwrap_or(&BTreeMap::new()))?
            .into_iter()
            .map(|(name, input, answer)| {
                Ok(Sample {
                    name,
                    input: self.text(&input)?.unwrap_or_default().to_string(),
                    answer: self.text(&answer)?.unwrap_or_default().to_string(),
                })
            })
            .collect()
    }

    /// The secret groups as subtasks, in the order of `grundy.subtasks` or of their names, with
    /// the paths of each one's tests (input, answer).
    #[allow(clippy::type_complexity)]
    fn secret(
        &self,
        declared: Option<&[GroupPoints]>,
    ) -> Result<(Vec<SubtaskSpec>, Vec<Vec<(String, String)>>), PackageError> {
        let folders = self.test_folders("data/secret/")?;
        if folders.is_empty() {
            return Err(PackageError::Layout(format!(
                "{} holds no tests (pairs of .in and .ans files)",
                self.shown("data/secret/")
            )));
        }
        let flat = folders.contains_key("");
        if flat && folders.len() > 1 {
            return Err(self.error(
                "data/secret/",
                "holds both tests and group folders: put every test in a group",
            ));
        }
        // A flat secret folder is one group, named as the folder.
        let groups: BTreeMap<&str, &BTreeMap<String, Stems>> = folders
            .iter()
            .map(|(g, tests)| (if flat { "secret" } else { g.as_str() }, tests))
            .collect();
        if groups.len() > MAX_SUBTASKS {
            return Err(self.error(
                "data/secret/",
                format!(
                    "{} test groups; a problem may have at most {MAX_SUBTASKS} subtasks",
                    groups.len()
                ),
            ));
        }
        let count: usize = groups.values().map(|tests| tests.len()).sum();
        if count > MAX_TESTS {
            return Err(self.error(
                "data/secret/",
                format!("{count} tests in all; a problem may have at most {MAX_TESTS}"),
            ));
        }
        let order: Vec<(&str, u32)> = match declared {
            Some(declared) => self.declared_points(declared, &groups)?,
            None => {
                let count = groups.len() as u32;
                groups
                    .keys()
                    .enumerate()
                    .map(|(i, &g)| {
                        let last = i + 1 == groups.len();
                        (g, 100 / count + if last { 100 % count } else { 0 })
                    })
                    .collect()
            }
        };
        let mut subtasks = Vec::new();
        let mut tests = Vec::new();
        let mut names = BTreeSet::new();
        for (group, points) in order {
            let folder = if flat {
                "data/secret/".to_string()
            } else {
                format!("data/secret/{group}/")
            };
            let name = safe_name(group);
            if !names.insert(name.clone()) {
                return Err(self.error(
                    &folder,
                    format!("another group is also named {name:?} once lower-cased"),
                ));
            }
            let cases: Vec<(String, String)> = self
                .pairs(&folder, groups[group])?
                .into_iter()
                .map(|(_, input, answer)| (input, answer))
                .collect();
            subtasks.push(SubtaskSpec {
                name,
                points,
                tests: cases.len(),
                generator: toml::Table::new(),
            });
            tests.push(cases);
        }
        Ok((subtasks, tests))
    }

    fn declared_points<'g>(
        &self,
        declared: &[GroupPoints],
        groups: &BTreeMap<&'g str, &BTreeMap<String, Stems>>,
    ) -> Result<Vec<(&'g str, u32)>, PackageError> {
        let mut order = Vec::new();
        for entry in declared {
            let Some((&group, _)) = groups.get_key_value(entry.name.as_str()) else {
                return Err(self.error(
                    "problem.yaml",
                    format!(
                        "grundy.subtasks names {:?}, but data/secret/{} holds no tests",
                        entry.name, entry.name
                    ),
                ));
            };
            if order.iter().any(|&(g, _)| g == group) {
                return Err(self.error(
                    "problem.yaml",
                    format!("grundy.subtasks names {group:?} twice"),
                ));
            }
            order.push((group, entry.points));
        }
        if let Some(group) = groups.keys().find(|g| !order.iter().any(|(o, _)| o == *g)) {
            return Err(self.error(
                "problem.yaml",
                format!("grundy.subtasks does not give the points of the group {group:?}"),
            ));
        }
        let total: u64 = order.iter().map(|&(_, p)| u64::from(p)).sum();
        if total != 100 {
            return Err(self.error(
                "problem.yaml",
                format!("grundy.subtasks: the points add up to {total}, not 100"),
            ));
        }
        Ok(order)
    }

    /// The `.in` and `.ans` files under `root`, by folder (`""` for `root` itself, else a group
    /// name) and file stem. Deeper folders are refused; other files are left alone.
    fn test_folders(
        &self,
        root: &str,
    ) -> Result<BTreeMap<String, BTreeMap<String, Stems>>, PackageError> {
        let mut folders: BTreeMap<String, BTreeMap<String, Stems>> = BTreeMap::new();
        for path in self.files.keys() {
            let Some(rest) = path.strip_prefix(root) else {
                continue;
            };
            let (stem, is_input) = if let Some(stem) = rest.strip_suffix(".in") {
                (stem, true)
            } else if let Some(stem) = rest.strip_suffix(".ans") {
                (stem, false)
            } else {
                continue;
            };
            let (folder, stem) = match stem.split_once('/') {
                None => ("", stem),
                Some((folder, stem)) if !stem.contains('/') => (folder, stem),
                Some(_) => {
                    return Err(self.error(
                        path,
                        "test groups cannot be nested: keep tests at most one folder deep",
                    ));
                }
            };
            let stems = folders
                .entry(folder.to_string())
                .or_default()
                .entry(stem.to_string())
                .or_default();
            if is_input {
                stems.input = Some(path.clone());
            } else {
                stems.answer = Some(path.clone());
            }
        }
        Ok(folders)
    }

    /// The tests of one folder, in file name order, as (name, input path, answer path).
    fn pairs(
        &self,
        folder: &str,
        stems: &BTreeMap<String, Stems>,
    ) -> Result<Vec<(String, String, String)>, PackageError> {
        let mut names = BTreeSet::new();
        let mut tests = Vec::new();
        for (stem, files) in stems {
            let (input, answer) = match (&files.input, &files.answer) {
                (Some(input), Some(answer)) => (input, answer),
                (Some(input), None) => {
                    return Err(self.error(input, format!("has no {folder}{stem}.ans")));
                }
                (None, Some(answer)) => {
                    return Err(self.error(answer, format!("has no {folder}{stem}.in")));
                }
                (None, None) => unreachable!("a stem is recorded with one of its files"),
            };
            if stem.is_empty() {
                return Err(self.error(input, "a test needs a name before .in"));
            }
            let name = safe_name(stem);
            if !names.insert(name.clone()) {
                return Err(self.error(
                    input,
                    format!("another test in {folder} is also named {name:?} once lower-cased"),
                ));
            }
            tests.push((name, input.clone(), answer.clone()));
        }
        Ok(tests)
    }
}

/// The folder holding `problem.yaml` among the archive's file names: the root, or the one
/// top-level folder.
fn root_folder<'a>(
    names: impl Iterator<Item = &'a String> + Clone,
) -> Result<Option<String>, PackageError> {
    if names.clone().any(|name| name == "problem.yaml") {
        return Ok(None);
    }
    let tops: BTreeSet<&str> = names
        .clone()
        .map(|path| path.split('/').next().unwrap_or_default())
        .collect();
    match tops.into_iter().collect::<Vec<_>>()[..] {
        [top]
            if names
                .clone()
                .any(|name| *name == format!("{top}/problem.yaml")) =>
        {
            Ok(Some(top.to_string()))
        }
        _ => Err(PackageError::Layout(
            "problem.yaml is missing: put it at the root of the zip, or every file in one \
             folder named after the problem"
                .into(),
        )),
    }
}

/// Streams a secret test from the archive to `path`, digesting it and checking its UTF-8 on the
/// way; returns it with its size. A fault of the archive is the file's (`refuse`); one of the
/// disk is [`PackageError::Io`].
fn unpack_test(
    from: &mut impl Read,
    path: PathBuf,
    refuse: &impl Fn(String) -> PackageError,
) -> Result<(Unpacked, u64), PackageError> {
    let mut out = BufWriter::new(File::create(&path)?);
    let mut digest = Sha256::new();
    let mut utf8 = Utf8Stream::default();
    let mut buffer = vec![0u8; 64 << 10];
    let mut size = 0u64;
    loop {
        let read = from
            .read(&mut buffer)
            .map_err(|e| refuse(format!("cannot be unpacked: {e}")))?;
        if read == 0 {
            break;
        }
        let chunk = &buffer[..read];
        digest.update(chunk);
        utf8.feed(chunk);
        out.write_all(chunk)?;
        size += read as u64;
    }
    out.into_inner().map_err(|e| e.into_error())?;
    Ok((
        Unpacked {
            path,
            digest: digest.finalize().into(),
            invalid_utf8_at: utf8.finish(),
        },
        size,
    ))
}

/// UTF-8 checked chunk by chunk, a character split between two chunks carried over.
#[derive(Default)]
struct Utf8Stream {
    /// Bytes checked and found whole.
    valid: u64,
    /// The start of a character the last chunk cut.
    carried: Vec<u8>,
    invalid_at: Option<u64>,
}

impl Utf8Stream {
    fn feed(&mut self, chunk: &[u8]) {
        if self.invalid_at.is_some() {
            return;
        }
        let joined;
        let bytes = if self.carried.is_empty() {
            chunk
        } else {
            joined = [self.carried.as_slice(), chunk].concat();
            joined.as_slice()
        };
        let whole = match std::str::from_utf8(bytes) {
            Ok(_) => bytes.len(),
            Err(e) if e.error_len().is_some() => {
                self.invalid_at = Some(self.valid + e.valid_up_to() as u64);
                return;
            }
            // Only the end is cut short: the rest of it comes with the next chunk.
            Err(e) => e.valid_up_to(),
        };
        self.valid += whole as u64;
        self.carried = bytes[whole..].to_vec();
    }

    /// Where the UTF-8 breaks, if it does (a character cut by the end of the file does).
    fn finish(self) -> Option<u64> {
        self.invalid_at
            .or((!self.carried.is_empty()).then_some(self.valid))
    }
}

/// The two files of one test.
#[derive(Default)]
struct Stems {
    input: Option<String>,
    answer: Option<String>,
}

/// Refuses archive paths that are absolute, climb out (`..`) or are ambiguous on some system.
fn check_archive_path(name: &str) -> Result<(), String> {
    if name.starts_with('/') || name.split('/').next().is_some_and(|c| c.ends_with(':')) {
        return Err("absolute paths are not allowed in a package".into());
    }
    if name.contains('\\') || name.contains('\0') {
        return Err("the path holds a backslash or a NUL character".into());
    }
    let path = name.strip_suffix('/').unwrap_or(name);
    for component in path.split('/') {
        match component {
            ".." => return Err("the path leaves the package (..)".into()),
            "" | "." => return Err("the path has an empty or '.' component".into()),
            _ => {}
        }
    }
    Ok(())
}

/// Files that archivers add on their own, which no package means to hold.
fn is_litter(name: &str) -> bool {
    name.split('/')
        .any(|c| c == "__MACOSX" || c == ".DS_Store" || c == "Thumbs.db")
}

/// A test or group name as Grundy shows it and writes it to disk: lower-case, and `_` for
/// anything but `a-z0-9_-`, so it can never name another folder.
fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-' | '_') => c,
            _ => '_',
        })
        .collect()
}

/// A slug made of a title: runs of anything but ASCII letters and digits become one hyphen.
fn slug_of(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars().map(|c| c.to_ascii_lowercase()) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.truncate(48);
    slug.trim_end_matches('-').to_string()
}

/// What legacy `validation` says: `custom` or `default` (`None` when absent), and whether the
/// problem is interactive.
struct Validation {
    custom: Option<bool>,
    interactive: bool,
}

/// `problem.yaml`, as far as Grundy reads it; unknown keys are ignored, as the format asks.
#[derive(Default, Deserialize)]
struct ProblemYaml {
    #[serde(default)]
    problem_format_version: Option<String>,
    #[serde(default)]
    name: Option<Name>,
    #[serde(default, rename = "type")]
    kind: Option<OneOrMany>,
    #[serde(default)]
    source: Option<Source>,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    validation: Option<String>,
    #[serde(default)]
    validator_flags: Option<String>,
    #[serde(default)]
    grundy: Extension,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Name {
    One(String),
    PerLanguage(BTreeMap<String, String>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn items(&self) -> impl Iterator<Item = &str> {
        match self {
            OneOrMany::One(one) => std::slice::from_ref(one).iter(),
            OneOrMany::Many(many) => many.iter(),
        }
        .map(String::as_str)
    }
}

/// `source`: text in the legacy format, a name and an address in 2023-07.
#[derive(Deserialize)]
#[serde(untagged)]
enum Source {
    Text(String),
    Named {
        name: String,
        #[serde(default)]
        url: Option<String>,
    },
}

impl Source {
    fn into_text(self) -> String {
        match self {
            Source::Text(text)
            | Source::Named {
                name: text,
                url: None,
            } => text,
            Source::Named {
                name,
                url: Some(url),
            } => format!("{name} ({url})"),
        }
    }
}

/// `testdata.yaml`: only the flags matter here.
#[derive(Default, Deserialize)]
struct Testdata {
    #[serde(default)]
    output_validator_flags: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe() {
        assert_eq!(safe_name("Big Case.1"), "big_case_1");
        assert_eq!(safe_name(".."), "__");
        assert_eq!(safe_name("Đá-02_x"), "__-02_x");
        assert_eq!(slug_of("  The Game of Nim! (hard)"), "the-game-of-nim-hard");
        assert_eq!(slug_of(&"x".repeat(60)).len(), 48);
        assert_eq!(slug_of("Bốc đá"), "b-c");
    }

    #[test]
    fn paths_that_could_leave_the_package_are_refused() {
        for good in ["problem.yaml", "data/secret/", "a/b.c/d..e"] {
            assert_eq!(check_archive_path(good), Ok(()), "{good}");
        }
        for bad in ["/x", "C:/x", "a/../b", "..", "a\\b", "a//b", "./a", "a\0b"] {
            assert!(check_archive_path(bad).is_err(), "{bad}");
        }
        assert!(is_litter("__MACOSX/p/._problem.yaml"));
        assert!(!is_litter("data/secret/macos.in"));
    }
}
