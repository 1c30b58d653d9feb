//! Writing a problem out as a package in the 2023-07 layout, reproducible byte for byte.

use super::{Extension, GroupPoints, Limits, MAX_UNPACKED_BYTES, PackageError};
use crate::catalogue::Problem;
use crate::spec::{CheckerKind, PLAIN_LINES};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Cursor, Write};
use std::path::Path;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// What [`write_zip`] writes as `problem.yaml`.
#[derive(Serialize)]
struct ProblemYamlOut<'a> {
    problem_format_version: &'static str,
    name: &'a BTreeMap<String, String>,
    /// `interactive` for a package whose validator is its interactor; absent (pass-fail) else.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    uuid: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    limits: Limits,
    grundy: Extension,
}

/// Writes `problem` as a package in the 2023-07 layout, inside a folder named by its slug, that
/// [`read_zip`] reads back to the same problem: statements, samples, every test (generated, for
/// a family problem) as `data/secret/<subtask>/NN.in|ans`, the limits, and our `grundy`
/// extension (slug, version, difficulty, tags, subtask points). Case-sensitive comparison, or a
/// custom validator's flags, are written as `output_validator_flags` in `data/testdata.yaml`,
/// where both the legacy and the 2023-07 formats read them; an uploaded interactive package
/// goes out as it came, `type: interactive` with its interactor.
///
/// A problem whose files would unpack to more than [`MAX_UNPACKED_BYTES`] is refused as soon as
/// they pass it, so the zip in memory stays below that.
///
/// A family problem whose answers are judged by the family's reference checker (several answers
/// can be right) is refused: the checker is Rust code a package cannot carry, and a package
/// comparing with the one reference answer would reject right answers.
///
/// [`read_zip`]: super::read_zip
pub fn write_zip(problem: &Problem) -> Result<Vec<u8>, PackageError> {
    let spec = &problem.spec;
    if problem.play().is_some() {
        return Err(PackageError::NotExportable {
            slug: spec.slug.clone(),
            reason: "it is interactive: its referee is Rust code inside the judge that plays \
                     against the program, and a package would need it as an interactor program, \
                     which Grundy does not write; its games can be played and judged only here"
                .into(),
        });
    }
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
        kind: problem.interactor().map(|_| "interactive"),
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
            line_answers: (spec.checker.line_answers != PLAIN_LINES)
                .then(|| spec.checker.line_answers.clone()),
        },
    };
    let yaml = serde_saphyr::to_string(&yaml).map_err(|e| PackageError::NotExportable {
        slug: spec.slug.clone(),
        reason: format!("problem.yaml cannot be written: {e}"),
    })?;

    let mut out = Writer {
        zip: ZipWriter::new(Cursor::new(Vec::new())),
        folder: &spec.slug,
        written: 0,
    };
    out.add("problem.yaml", &yaml)?;
    let flags = match problem.output_validator() {
        Some(validator) => validator.flags.join(" "),
        None if spec.checker.case_sensitive => "case_sensitive".to_owned(),
        None => String::new(),
    };
    if !flags.is_empty() {
        let testdata = serde_saphyr::to_string(&BTreeMap::from([(
            "output_validator_flags",
            flags.as_str(),
        )]))
        .map_err(|e| PackageError::NotExportable {
            slug: spec.slug.clone(),
            reason: format!("data/testdata.yaml cannot be written: {e}"),
        })?;
        out.add("data/testdata.yaml", &testdata)?;
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
            let stem = format!("data/secret/{}/{index:0width$}", subtask.name);
            // Tests on disk go from file to zip, without being read into memory whole.
            if let Some(folder) = problem.test_folder() {
                let files = folder.test(s + 1, index);
                out.add_file(&format!("{stem}.in"), &files.input)?;
                out.add_file(&format!("{stem}.ans"), &files.answer)?;
                continue;
            }
            let test = problem
                .generate_test(s + 1, index)
                .expect("every test of the spec exists");
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
    /// Bytes added so far, uncompressed.
    written: u64,
}

impl Writer<'_> {
    /// Counts `bytes` more against [`MAX_UNPACKED_BYTES`]: a package that would unpack to more
    /// could not be uploaded again, and the zip is built in memory.
    fn count(&mut self, bytes: u64) -> Result<(), PackageError> {
        self.written = self.written.saturating_add(bytes);
        if self.written > MAX_UNPACKED_BYTES {
            return Err(PackageError::NotExportable {
                slug: self.folder.to_owned(),
                reason: format!(
                    "its files come to more than {} MiB, the most a package may unpack to",
                    MAX_UNPACKED_BYTES >> 20
                ),
            });
        }
        Ok(())
    }

    fn add(&mut self, path: &str, text: &str) -> Result<(), PackageError> {
        self.count(text.len() as u64)?;
        self.start(path)?;
        self.zip
            .write_all(text.as_bytes())
            .map_err(|e| PackageError::Write(e.into()))
    }

    fn add_file(&mut self, path: &str, file: &Path) -> Result<(), PackageError> {
        let mut file = File::open(file)?;
        self.count(file.metadata()?.len())?;
        self.start(path)?;
        std::io::copy(&mut file, &mut self.zip)?;
        Ok(())
    }

    fn start(&mut self, path: &str) -> Result<(), PackageError> {
        // A fixed date keeps the export of one problem version byte for byte the same.
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(6))
            .last_modified_time(DateTime::default());
        self.zip
            .start_file(format!("{}/{path}", self.folder), options)
            .map_err(PackageError::Write)
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
    fn uuids_are_version_8_and_per_slug() {
        let uuid = uuid_of("stones");
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "8");
        assert!("89ab".contains(&uuid[19..20]));
        assert_eq!(uuid, uuid_of("stones"));
        assert_ne!(uuid, uuid_of("nim"));
    }
}
