//! Kattis/ICPC problem packages: an uploaded zip read into a [`Problem`] backed by its tests, and
//! any problem written out as one.
//!
//! What [`read_zip`] understands, at the zip's root or inside one top-level folder:
//!
//! - `problem.yaml`: `name` (a string, or a map from language to title as in the 2023-07
//!   format), `limits.time_limit` (seconds; else a legacy `.timelimit` file; else 1 s, since the
//!   format leaves it to the judge), `limits.memory` (MiB; default 2048 as in the format),
//!   `type` (`pass-fail` or `scoring`), legacy `validation` (`default` or `custom`),
//!   `validator_flags`, `source`, and our extension map `grundy` (`slug`, `version`,
//!   `difficulty`, `tags`, and `subtasks`: the secret groups in order, as `{name, points}`).
//!   Other standard keys (author, license, uuid, …) are ignored.
//! - `statement/problem.<lang>.md` (or the legacy `problem_statement/`); English is required.
//!   LaTeX statements are not read.
//! - `data/sample/*.in|ans` and `data/secret/*.in|ans`, or the secret tests split into group
//!   folders `data/secret/<group>/`, each a subtask. Tests run in the order of their file names.
//!   Without `grundy.subtasks`, groups are taken in name order and share 100 points evenly (the
//!   last one takes the remainder); a flat secret folder is one subtask `secret` of 100 points.
//! - Output validator flags, from `problem.yaml`'s `validator_flags` and any `testdata.yaml`'s
//!   `output_validator_flags` (where the 2023-07 format moved them): only `case_sensitive` is
//!   supported, and it must be set alike everywhere, since Grundy judges a whole problem with one
//!   setting. As in Kattis, comparison ignores case unless it is set.
//! - `output_validators/` (or the 2023-07 `output_validator/`): one single-file program,
//!   directly inside or inside one folder, which makes the validation custom (a legacy
//!   `validation` key, when present, must agree). It is carried as text for the judge to run.
//!
//! Test and group names are lower-cased, with any character other than `a-z0-9_-` replaced by
//! `_`. Everything else in the package (submissions, generators, input validators, …) is
//! ignored. The archive is untrusted: sizes are counted while unpacking, paths that could leave
//! the package and links are refused, and every refusal names the file at fault.

use crate::catalogue::{
    LANGUAGES, MEMORY_LIMIT_MIB, OutputValidator, Problem, Sample, TIME_LIMIT_MS, TestCase,
    is_valid_slug,
};
use crate::spec::{CheckerKind, CheckerSpec, Difficulty, PACKAGE_FAMILY, ProblemSpec, SubtaskSpec};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Read, Write};
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

/// How much an uploaded archive may unpack to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Uncompressed bytes of all files together, counted while decompressing.
    pub max_total_bytes: u64,
    /// Entries in the archive, folders included.
    pub max_files: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_total_bytes: 256 << 20,
            max_files: 10_000,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("the upload is not a zip archive that can be read: {0}")]
    NotZip(ZipError),
    #[error("the archive has {found} entries; at most {max} are allowed")]
    TooManyFiles { found: usize, max: usize },
    #[error("{path}: the package unpacks to more than {max} bytes")]
    TooLarge { path: String, max: u64 },
    /// Something is wrong with one file of the package.
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// Something is wrong with the package as a whole (a missing file or folder).
    #[error("{0}")]
    Layout(String),
    #[error("problem {slug} cannot be exported as a package: {reason}")]
    NotExportable { slug: String, reason: String },
    #[error("writing the package: {0}")]
    Write(ZipError),
}

/// Time limit when a package sets none.
const DEFAULT_TIME_LIMIT_MS: u32 = 1000;
/// Memory limit when a package sets none, the format's own default.
const DEFAULT_MEMORY_MIB: u32 = 2048;

/// Reads an uploaded package into a problem backed by its tests (see the module's description).
pub fn read_zip(bytes: &[u8], limits: &ReadLimits) -> Result<Problem, PackageError> {
    Files::unpack(bytes, limits)?.into_problem()
}

/// The files of a package, by path relative to the folder that holds `problem.yaml`.
struct Files {
    /// The top-level folder of the archive that holds everything, if there is one.
    folder: Option<String>,
    files: BTreeMap<String, Vec<u8>>,
}

impl Files {
    fn unpack(bytes: &[u8], limits: &ReadLimits) -> Result<Files, PackageError> {
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
        let mut files = BTreeMap::new();
        let mut total = 0u64;
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
            let refuse = |message: String| PackageError::File {
                path: name.clone(),
                message,
            };
            check_archive_path(&name).map_err(refuse)?;
            let mut entry = archive
                .by_index(index)
                .map_err(|e| refuse(format!("cannot be read: {e}")))?;
            if entry.is_symlink() {
                return Err(refuse("links are not allowed in a package".into()));
            }
            if entry.is_dir() || is_litter(&name) {
                continue;
            }
            // The sizes in the headers are the uploader's word: count what inflates instead.
            let remaining = limits.max_total_bytes - total;
            let mut data = Vec::new();
            (&mut entry)
                .take(remaining.saturating_add(1))
                .read_to_end(&mut data)
                .map_err(|e| refuse(format!("cannot be unpacked: {e}")))?;
            if data.len() as u64 > remaining {
                return Err(PackageError::TooLarge {
                    path: name,
                    max: limits.max_total_bytes,
                });
            }
            total += data.len() as u64;
            files.insert(name, data);
        }
        Files::rooted(files)
    }

    /// Finds the folder holding `problem.yaml`: the root, or the one top-level folder.
    fn rooted(files: BTreeMap<String, Vec<u8>>) -> Result<Files, PackageError> {
        if files.contains_key("problem.yaml") {
            return Ok(Files {
                folder: None,
                files,
            });
        }
        let tops: BTreeSet<&str> = files
            .keys()
            .map(|path| path.split('/').next().unwrap_or_default())
            .collect();
        let folder = match tops.into_iter().collect::<Vec<_>>()[..] {
            [top] if files.contains_key(&format!("{top}/problem.yaml")) => top.to_string(),
            _ => {
                return Err(PackageError::Layout(
                    "problem.yaml is missing: put it at the root of the zip, or every file in \
                     one folder named after the problem"
                        .into(),
                ));
            }
        };
        let prefix = format!("{folder}/");
        let files = files
            .into_iter()
            .map(|(path, data)| {
                let relative = path.strip_prefix(&prefix).unwrap_or_default().to_string();
                (relative, data)
            })
            .collect();
        Ok(Files {
            folder: Some(folder),
            files,
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
        self.files
            .get(path)
            .map(|data| {
                std::str::from_utf8(data).map_err(|e| {
                    self.error(
                        path,
                        format!(
                            "is not UTF-8 text (invalid byte at offset {}); save it as UTF-8",
                            e.valid_up_to()
                        ),
                    )
                })
            })
            .transpose()
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

    fn into_problem(self) -> Result<Problem, PackageError> {
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
        for kind in yaml.kind.iter().flat_map(OneOrMany::items) {
            if !["pass-fail", "scoring"].contains(&kind) {
                return Err(at_yaml(format!(
                    "type {kind:?} is not supported: only pass-fail and scoring problems can be \
                     judged here"
                )));
            }
        }
        let title = self.titles(yaml.name)?;
        let slug = self.slug(&yaml.grundy, &title)?;
        let (time_limit_ms, memory_limit_mib) = self.limits(&yaml.limits)?;
        let statements = self.statements()?;
        let validator = self.validator(yaml.validation.as_deref())?;
        let checker = self.checker(yaml.validator_flags.as_deref(), validator.is_some())?;
        let samples = self.samples()?;
        let (subtasks, tests) = self.secret(yaml.grundy.subtasks.as_deref())?;
        let version = yaml.grundy.version.unwrap_or(1);
        if version == 0 {
            return Err(at_yaml("grundy.version must be at least 1".into()));
        }
        let spec = ProblemSpec {
            slug,
            title,
            family: PACKAGE_FAMILY.to_string(),
            version,
            difficulty: yaml.grundy.difficulty.unwrap_or(Difficulty::Medium),
            tags: yaml.grundy.tags,
            source: yaml.source.map(Source::into_text),
            time_limit_ms,
            memory_limit_mib,
            seed: content_seed(&tests, validator.as_ref()),
            checker,
            subtasks,
        };
        Ok(Problem::from_tests(
            spec, statements, samples, tests, validator,
        ))
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

    /// The single-file output validator, if there is one, checked against `validation`.
    fn validator(&self, validation: Option<&str>) -> Result<Option<OutputValidator>, PackageError> {
        let custom = match validation {
            None => None,
            Some("default") => Some(false),
            Some("custom") => Some(true),
            Some(other) => {
                return Err(self.error(
                    "problem.yaml",
                    format!("validation {other:?} is not supported (default or custom)"),
                ));
            }
        };
        let programs: Vec<&String> = self
            .files
            .keys()
            .filter(|p| p.starts_with("output_validators/") || p.starts_with("output_validator/"))
            .collect();
        let path = match (&programs[..], custom) {
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
            ([path], _) => path,
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
        }))
    }

    fn checker(
        &self,
        validator_flags: Option<&str>,
        custom: bool,
    ) -> Result<CheckerSpec, PackageError> {
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
        let mut case_sensitive: Option<(bool, &str)> = None;
        for (path, flags) in &settings {
            if custom && !flags.trim().is_empty() {
                return Err(self.error(
                    path,
                    "validator flags for a custom output validator are not supported: it is \
                     run with the Kattis arguments only",
                ));
            }
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
        Ok(CheckerSpec {
            kind: if custom {
                CheckerKind::Custom
            } else {
                CheckerKind::Tokens
            },
            case_sensitive: custom || case_sensitive.is_some_and(|(this, _)| this),
        })
    }

    fn samples(&self) -> Result<Vec<Sample>, PackageError> {
        let folders = self.test_folders("data/sample/")?;
        if let Some(group) = folders.keys().find(|g| !g.is_empty()) {
            return Err(self.error(
                &format!("data/sample/{group}"),
                "sample tests cannot be split into groups",
            ));
        }
        Ok(self
            .pairs("data/sample/", folders.get("").unwrap_or(&BTreeMap::new()))?
            .into_iter()
            .map(|(name, input, answer)| Sample {
                name,
                input,
                answer,
            })
            .collect())
    }

    /// The secret groups as subtasks, in the order of `grundy.subtasks` or of their names.
    fn secret(
        &self,
        declared: Option<&[GroupPoints]>,
    ) -> Result<(Vec<SubtaskSpec>, Vec<Vec<TestCase>>), PackageError> {
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
        if groups.len() > 100 {
            return Err(self.error(
                "data/secret/",
                format!("{} groups; at most 100 are allowed", groups.len()),
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
        for (number, (group, points)) in order.into_iter().enumerate() {
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
            let cases: Vec<TestCase> = self
                .pairs(&folder, groups[group])?
                .into_iter()
                .enumerate()
                .map(|(i, (_, input, answer))| TestCase {
                    subtask: number + 1,
                    index: i + 1,
                    input,
                    answer,
                })
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

    /// The tests of one folder, in file name order, as (name, input, answer).
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
            tests.push((
                name,
                self.text(input)?.unwrap_or_default().to_string(),
                self.text(answer)?.unwrap_or_default().to_string(),
            ));
        }
        Ok(tests)
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

/// A package's stand-in for a seed: a digest of what it judges with, so that two uploads under
/// one slug and version still differ in their spec.
fn content_seed(tests: &[Vec<TestCase>], validator: Option<&OutputValidator>) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(b"grundy/package/v1\0");
    let mut part = |text: &str| {
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(text.as_bytes());
    };
    for subtask in tests {
        part(&subtask.len().to_string());
        for test in subtask {
            part(&test.input);
            part(&test.answer);
        }
    }
    if let Some(validator) = validator {
        part(&validator.file_name);
        part(&validator.source);
    }
    let digest = hasher.finalize();
    u64::from_le_bytes(
        digest[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    )
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

#[derive(Default, Deserialize, Serialize)]
struct Limits {
    /// Seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_limit: Option<f64>,
    /// MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory: Option<u64>,
}

/// Our keys in `problem.yaml`, under `grundy`.
#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Extension {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    difficulty: Option<Difficulty>,
    #[serde(default)]
    tags: Vec<String>,
    /// The secret groups in subtask order, with their points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subtasks: Option<Vec<GroupPoints>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct GroupPoints {
    name: String,
    points: u32,
}

/// `testdata.yaml`: only the flags matter here.
#[derive(Default, Deserialize)]
struct Testdata {
    #[serde(default)]
    output_validator_flags: Option<String>,
}

/// What [`write_zip`] writes as `problem.yaml`.
#[derive(Serialize)]
struct ProblemYamlOut<'a> {
    problem_format_version: &'static str,
    name: &'a BTreeMap<String, String>,
    uuid: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    limits: Limits,
    grundy: Extension,
}

/// Writes `problem` as a package in the 2023-07 layout, inside a folder named by its slug, that
/// [`read_zip`] reads back to the same problem: statements, samples, every test (generated, for
/// a family problem) as `data/secret/<subtask>/NN.in|ans`, the limits, and our `grundy`
/// extension (slug, version, difficulty, tags, subtask points). Case-sensitive comparison is
/// written as `output_validator_flags` in `data/testdata.yaml`, where both the legacy and the
/// 2023-07 formats read it.
///
/// A family problem whose answers are judged by the family's reference checker (several answers
/// can be right) is refused: the checker is Rust code a package cannot carry, and a package
/// comparing with the one reference answer would reject right answers.
pub fn write_zip(problem: &Problem) -> Result<Vec<u8>, PackageError> {
    let spec = &problem.spec;
    if spec.checker.kind == CheckerKind::Reference {
        return Err(PackageError::NotExportable {
            slug: spec.slug.clone(),
            reason: format!(
                "its answers are judged by the {} family's checker, since several answers can \
                 be right, and a package cannot carry that checker",
                spec.family
            ),
        });
    }
    let yaml = ProblemYamlOut {
        problem_format_version: "2023-07",
        name: &spec.title,
        uuid: uuid_of(&spec.slug),
        source: spec.source.as_deref(),
        limits: Limits {
            time_limit: Some(f64::from(spec.time_limit_ms) / 1000.0),
            memory: Some(spec.memory_limit_mib.into()),
        },
        grundy: Extension {
            slug: Some(spec.slug.clone()),
            version: Some(spec.version),
            difficulty: Some(spec.difficulty),
            tags: spec.tags.clone(),
            subtasks: Some(
                spec.subtasks
                    .iter()
                    .map(|s| GroupPoints {
                        name: s.name.clone(),
                        points: s.points,
                    })
                    .collect(),
            ),
        },
    };
    let yaml = serde_saphyr::to_string(&yaml).map_err(|e| PackageError::NotExportable {
        slug: spec.slug.clone(),
        reason: format!("problem.yaml cannot be written: {e}"),
    })?;

    let mut out = Writer {
        zip: ZipWriter::new(Cursor::new(Vec::new())),
        folder: &spec.slug,
    };
    out.add("problem.yaml", &yaml)?;
    if spec.checker.kind == CheckerKind::Tokens && spec.checker.case_sensitive {
        out.add(
            "data/testdata.yaml",
            "output_validator_flags: case_sensitive\n",
        )?;
    }
    for lang in problem.statement_languages() {
        let text = problem.statement(lang).unwrap_or_default();
        out.add(&format!("statement/problem.{lang}.md"), text)?;
    }
    for sample in &problem.samples {
        out.add(&format!("data/sample/{}.in", sample.name), &sample.input)?;
        out.add(&format!("data/sample/{}.ans", sample.name), &sample.answer)?;
    }
    for (s, subtask) in spec.subtasks.iter().enumerate() {
        // Zero-padded so that file name order, which the reader follows, is test order.
        let width = subtask.tests.to_string().len().max(2);
        for index in 1..=subtask.tests {
            let test = problem
                .generate_test(s + 1, index)
                .expect("every test of the spec exists");
            let stem = format!("data/secret/{}/{index:0width$}", subtask.name);
            out.add(&format!("{stem}.in"), &test.input)?;
            out.add(&format!("{stem}.ans"), &test.answer)?;
        }
    }
    if let Some(validator) = problem.output_validator() {
        out.add(
            &format!("output_validators/validator/{}", validator.file_name),
            &validator.source,
        )?;
    }
    let cursor = out.zip.finish().map_err(PackageError::Write)?;
    Ok(cursor.into_inner())
}

struct Writer<'a> {
    zip: ZipWriter<Cursor<Vec<u8>>>,
    folder: &'a str,
}

impl Writer<'_> {
    fn add(&mut self, path: &str, text: &str) -> Result<(), PackageError> {
        // A fixed date keeps the export of one problem version byte for byte the same.
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(6))
            .last_modified_time(DateTime::default());
        self.zip
            .start_file(format!("{}/{path}", self.folder), options)
            .map_err(PackageError::Write)?;
        self.zip
            .write_all(text.as_bytes())
            .map_err(|e| PackageError::Write(e.into()))
    }
}

/// The 2023-07 format wants a UUID per problem; one derived from the slug keeps exports
/// reproducible and the same problem recognisable across exports (RFC 9562 version 8).
fn uuid_of(slug: &str) -> String {
    let mut bytes: [u8; 16] = Sha256::digest(format!("grundy/package/uuid\0{slug}").as_bytes())
        [..16]
        .try_into()
        .expect("a SHA-256 digest has 32 bytes");
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
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

    #[test]
    fn uuids_are_version_8_and_per_slug() {
        let uuid = uuid_of("stones");
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "8");
        assert!("89ab".contains(&uuid[19..20]));
        assert_eq!(uuid, uuid_of("stones"));
        assert_ne!(uuid, uuid_of("nim"));
    }
}
