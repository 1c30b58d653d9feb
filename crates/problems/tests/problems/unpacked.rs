//! What reading a package may cost: the unpacked cap that refuses a zip bomb, tests unpacked to
//! disk rather than held in memory (the same problem either way), and the bound on what a loaded
//! problem keeps in memory.

use grundy_problems::{Catalogue, PackageError, ReadLimits, read_zip, read_zip_to, write_zip};
use std::io::{Cursor, Write};
use std::path::Path;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (path, data) in files {
        zip.start_file(*path, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The files of a package but its one secret input.
const AROUND: &[(&str, &[u8])] = &[
    ("bomb/problem.yaml", b"name: Bomb\n"),
    ("bomb/statement/problem.en.md", b"Count the zeros.\n"),
    ("bomb/data/sample/1.in", b"0\n"),
    ("bomb/data/sample/1.ans", b"1\n"),
    ("bomb/data/secret/1.ans", b"1\n"),
];

/// A valid package whose one secret test is `input`, with room for more files.
fn package_with(input: &[u8], more: &[(&str, &[u8])]) -> Vec<u8> {
    let mut files = AROUND.to_vec();
    files.push(("bomb/data/secret/1.in", input));
    files.extend_from_slice(more);
    zip_of(&files)
}

/// What `parent` holds.
fn entries(parent: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_zip_bomb_past_the_default_cap_is_refused() {
    // A few dozen KiB of zip that inflates to one byte more than 64 MiB: accepted as a problem
    // while the cap was 256 MiB.
    let zeros = vec![b'0'; (64 << 20) + 1];
    let bomb = package_with(&zeros, &[]);
    assert!(bomb.len() < 256 << 10, "{} bytes zipped", bomb.len());
    let expected = "bomb/data/secret/1.in: the package unpacks to more than 67108864 bytes";
    let refused = read_zip(&bomb, &ReadLimits::default()).unwrap_err();
    assert_eq!(refused.to_string(), expected);

    // Streamed to disk, the refusal is the same, and nothing is left behind.
    let parent = tempfile::tempdir().unwrap();
    let refused = read_zip_to(&bomb, &ReadLimits::default(), parent.path()).unwrap_err();
    assert_eq!(refused.to_string(), expected);
    assert!(
        entries(parent.path()).is_empty(),
        "{:?}",
        entries(parent.path())
    );

    // Just under the cap, the same package is a problem.
    let around: u64 = AROUND.iter().map(|(_, data)| data.len() as u64).sum();
    let under = package_with(&zeros[..(64 << 20) - around as usize], &[]);
    let problem = read_zip_to(&under, &ReadLimits::default(), parent.path()).unwrap();
    assert_eq!(problem.unpacked_bytes(), Some(64 << 20));
}

#[test]
fn tests_unpacked_to_disk_make_the_same_problem_as_tests_in_memory() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let zip = write_zip(stones).unwrap();
    let in_memory = read_zip(&zip, &ReadLimits::default()).unwrap();
    let parent = tempfile::tempdir().unwrap();
    let on_disk = read_zip_to(&zip, &ReadLimits::default(), parent.path()).unwrap();

    // The same description (the seed digests the tests), samples and tests.
    assert_eq!(on_disk.spec, in_memory.spec);
    assert_eq!(on_disk.samples, in_memory.samples);
    assert_eq!(on_disk.unpacked_bytes(), in_memory.unpacked_bytes());
    assert!(on_disk.tests().eq(in_memory.tests()));
    assert!(in_memory.test_folder().is_none());

    // On disk, in a folder of its own inside the parent, with the samples beside the tests.
    let folder = on_disk.test_folder().unwrap();
    assert_eq!(folder.path().parent(), Some(parent.path()));
    let sample = folder.sample(1);
    assert_eq!(
        std::fs::read_to_string(&sample.input).unwrap(),
        stones.samples[0].input
    );
    let last = stones.spec.subtasks.len();
    let count = stones.spec.subtasks[last - 1].tests;
    let files = folder.test(last, count);
    assert_eq!(
        std::fs::read_to_string(&files.answer).unwrap(),
        stones.generate_test(last, count).unwrap().answer
    );
    let in_folder = entries(folder.path()).len();
    assert_eq!(in_folder, 2 * (stones.samples.len() + stones.test_count()));

    // Exported from disk, it reads back the same.
    let back = read_zip(&write_zip(&on_disk).unwrap(), &ReadLimits::default()).unwrap();
    assert_eq!(back.spec, in_memory.spec);

    // The folder goes with the problem.
    let path = folder.path().to_owned();
    drop(on_disk);
    assert!(!path.exists());
    assert!(entries(parent.path()).is_empty());
}

#[test]
fn what_a_loaded_problem_keeps_in_memory_is_bounded_and_tests_are_not() {
    let limits = ReadLimits {
        max_total_bytes: 1 << 20,
        max_kept_bytes: 1000,
        max_files: 20,
    };
    let big = vec![b'7'; 5000];
    let parent = tempfile::tempdir().unwrap();
    // A large secret test and large files the reader ignores are fine...
    let fine = package_with(
        &big,
        &[
            ("bomb/statement/picture.png", &big),
            ("bomb/submissions/accepted/big.py", &big),
        ],
    );
    let problem = read_zip_to(&fine, &limits, parent.path()).unwrap();
    assert_eq!(problem.generate_test(1, 1).unwrap().input.len(), 5000);
    assert!(read_zip(&fine, &limits).is_ok());

    // ...but not a large sample, statement or validator: those stay in memory.
    let kept = "problem.yaml, the statements, the samples and the output validator come to more \
                than 1000 bytes together (they are kept in memory; only the tests may be larger)";
    for path in [
        "bomb/data/sample/2.in",
        "bomb/statement/problem.vi.md",
        "bomb/output_validators/check/check.py",
    ] {
        let zip = package_with(b"1\n", &[(path, &big)]);
        for refused in [
            read_zip(&zip, &limits).unwrap_err(),
            read_zip_to(&zip, &limits, parent.path()).unwrap_err(),
        ] {
            assert!(matches!(refused, PackageError::TooMuchKept { .. }));
            assert_eq!(refused.to_string(), format!("{path}: {kept}"));
        }
    }
    assert!(
        entries(parent.path()).len() == 1,
        "only the problem's own folder"
    );
    drop(problem);
    assert!(entries(parent.path()).is_empty());
}

#[test]
fn tests_on_disk_are_checked_as_utf8_like_tests_in_memory() {
    let parent = tempfile::tempdir().unwrap();
    // A character split across the reader's 64 KiB chunks is whole.
    let mut split = vec![b'a'; (64 << 10) - 1];
    split.extend_from_slice("đá\n".as_bytes());
    let problem = read_zip_to(
        &package_with(&split, &[]),
        &ReadLimits::default(),
        parent.path(),
    )
    .unwrap();
    assert!(problem.generate_test(1, 1).unwrap().input.ends_with("đá\n"));

    for (bytes, offset) in [
        (&[b'a', b'b', 0xff, b'c'][..], 2),
        (&[b'a', 0xc3][..], 1),
        (&[0xe1, 0x80, b'x'][..], 0),
    ] {
        let zip = package_with(bytes, &[]);
        let expected = format!(
            "bomb/data/secret/1.in: is not UTF-8 text (invalid byte at offset {offset}); save it \
             as UTF-8"
        );
        assert_eq!(
            read_zip(&zip, &ReadLimits::default())
                .unwrap_err()
                .to_string(),
            expected
        );
        assert_eq!(
            read_zip_to(&zip, &ReadLimits::default(), parent.path())
                .unwrap_err()
                .to_string(),
            expected
        );
    }
    let mut late = vec![b'a'; 200_000];
    late[150_000] = 0xff;
    let zip = package_with(&late, &[]);
    assert!(
        read_zip_to(&zip, &ReadLimits::default(), parent.path())
            .unwrap_err()
            .to_string()
            .contains("invalid byte at offset 150000")
    );
    drop(problem);
    assert!(entries(parent.path()).is_empty());
}

/// The default cap takes back the export of the largest built-in problem (59.5 MiB unpacked;
/// lasker-nim, parigame and dag-game come next, from 47 MiB), so that a teacher may edit one and
/// upload it again.
#[test]
fn the_largest_built_in_export_fits_the_default_cap() {
    let catalogue = Catalogue::builtin().unwrap();
    let largest = catalogue.get("green-hackenbush-multi").unwrap();
    let parent = tempfile::tempdir().unwrap();
    let back = read_zip_to(
        &write_zip(largest).unwrap(),
        &ReadLimits::default(),
        parent.path(),
    )
    .unwrap();
    let unpacked = back.unpacked_bytes().unwrap();
    assert!(unpacked > 59 << 20, "still the largest: {unpacked} bytes");
    assert_eq!(back.test_count(), largest.test_count());
}

#[test]
fn an_interactive_problem_is_refused_for_export_with_its_reason() {
    let catalogue = Catalogue::builtin().unwrap();
    let nim_play = catalogue.get("nim-play").unwrap();
    match write_zip(nim_play) {
        Err(PackageError::NotExportable { slug, reason }) => {
            assert_eq!(slug, "nim-play");
            assert!(reason.contains("interactive"), "{reason}");
        }
        other => panic!(
            "exported an interactive problem: {:?}",
            other.map(|z| z.len())
        ),
    }
}
