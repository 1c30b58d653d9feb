//! What the fuzz targets share: the package targets' input formats and round trip, and the
//! statement target's check of the HTML it is given.

use grundy_problems::{Problem, ReadLimits, read_zip, write_zip};
use std::io::{Cursor, Write};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

pub mod html;

/// Files of a package, as archive path and contents.
pub type Files = Vec<(String, Vec<u8>)>;

/// The limits the package targets read with: small enough that the fuzzer reaches them, so a
/// refusal for size is exercised and no input can make a run hold much memory.
pub fn fuzz_limits() -> ReadLimits {
    let mut limits = ReadLimits::default();
    limits.max_total_bytes = 1 << 20;
    limits.max_files = 256;
    limits
}

/// The structured package target's input: entries separated by NUL bytes, each a path, a line
/// end and the file's contents. A mutation then changes a path or a file rather than breaking
/// the zip's checksums, which is where a raw zip's mutations end.
pub fn files_from_entries(data: &[u8]) -> Files {
    data.split(|&b| b == 0)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let (path, contents) = match entry.iter().position(|&b| b == b'\n') {
                Some(end) => (&entry[..end], &entry[end + 1..]),
                None => (entry, &[][..]),
            };
            (
                String::from_utf8_lossy(path).into_owned(),
                contents.to_vec(),
            )
        })
        .collect()
}

/// The inverse of [`files_from_entries`], for writing seeds.
pub fn entries_of(files: &Files) -> Vec<u8> {
    let mut out = Vec::new();
    for (path, contents) in files {
        if !out.is_empty() {
            out.push(0);
        }
        out.extend_from_slice(path.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(contents);
    }
    out
}

/// A zip of `files`, in order. A path the zip writer itself refuses is left out.
pub fn zip_of(files: &Files, method: CompressionMethod) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(method);
    for (path, contents) in files {
        if zip.start_file(path.as_str(), options).is_ok() {
            zip.write_all(contents)
                .expect("writing to memory cannot fail");
        }
    }
    zip.finish()
        .expect("writing to memory cannot fail")
        .into_inner()
}

/// The package reader's contract for a package it accepted: the problem exports, and the
/// export reads back to the same problem.
pub fn assert_round_trip(problem: &Problem) {
    let exported =
        write_zip(problem).unwrap_or_else(|e| panic!("a package that reads must export, but: {e}"));
    let again = read_zip(&exported, &ReadLimits::default())
        .unwrap_or_else(|e| panic!("an exported package must read back, but: {e}"));
    assert_eq!(
        problem.spec, again.spec,
        "the spec changed on the round trip"
    );
    assert_eq!(problem.samples, again.samples);
    assert!(
        problem.tests().eq(again.tests()),
        "the tests changed on the round trip"
    );
    assert!(
        problem
            .statement_languages()
            .eq(again.statement_languages())
    );
    for lang in problem.statement_languages() {
        assert_eq!(problem.statement(lang), again.statement(lang));
    }
    assert_eq!(problem.output_validator(), again.output_validator());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_as_written() {
        let files: Files = vec![
            ("problem.yaml".into(), b"name: X\n".to_vec()),
            ("data/secret/empty.in".into(), Vec::new()),
            ("data/secret/empty.ans".into(), b"a\nb\n".to_vec()),
        ];
        assert_eq!(files_from_entries(&entries_of(&files)), files);
        assert_eq!(
            files_from_entries(b"\0\0a\0b\nx"),
            vec![("a".to_string(), vec![]), ("b".to_string(), b"x".to_vec())]
        );
    }
}
