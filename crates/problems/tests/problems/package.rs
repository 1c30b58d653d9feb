//! Uploaded Kattis-style packages: reading, refusing, exporting and reading back.

use grundy_problems::check::CheckOutcome;
use grundy_problems::spec::{CheckerKind, PACKAGE_FAMILY};
use grundy_problems::verify::verify;
use grundy_problems::{Catalogue, PackageError, Problem, ReadLimits, read_zip, write_zip};
use std::io::{Cursor, Write};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Archive paths and contents.
type Package = Vec<(String, Vec<u8>)>;

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (path, data) in files {
        zip.start_file(*path, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A small legacy package in a folder `pebbles`, with a flat secret folder.
fn legacy() -> Package {
    [
        (
            "problem.yaml",
            "name: Pebbles\nauthor: Someone\nsource: NWERC 2099\nlicense: cc by-sa\n\
             rights_owner: Someone\nlimits:\n  memory: 512\n",
        ),
        (".timelimit", "1.5\n"),
        ("problem_statement/problem.en.md", "Take pebbles.\n"),
        (
            "problem_statement/problem.en.tex",
            "\\problemname{Pebbles}\n",
        ),
        ("data/sample/1.in", "3\n"),
        ("data/sample/1.ans", "First\n"),
        ("data/sample/1.hint", "take all three\n"),
        ("data/secret/b.in", "4\n"),
        ("data/secret/b.ans", "Second\n"),
        ("data/secret/a.in", "5\n"),
        ("data/secret/a.ans", "First\n"),
        ("submissions/accepted/sol.py", "print('First')\n"),
    ]
    .into_iter()
    .map(|(path, text)| (format!("pebbles/{path}"), text.as_bytes().to_vec()))
    .collect()
}

fn read(files: &Package) -> Result<Problem, PackageError> {
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, d)| (p.as_str(), d.as_slice()))
        .collect();
    read_zip(&zip_of(&files), &ReadLimits::default())
}

/// `files` with `path` set to `text` (added if absent).
fn with(mut files: Package, path: &str, text: &str) -> Package {
    files.retain(|(p, _)| p != path);
    files.push((path.to_string(), text.as_bytes().to_vec()));
    files
}

fn without(mut files: Package, path: &str) -> Package {
    let before = files.len();
    files.retain(|(p, _)| p != path);
    assert_eq!(files.len(), before - 1, "{path} is not in the package");
    files
}

fn error(files: &Package) -> String {
    read(files).unwrap_err().to_string()
}

/// The same problem, as far as judging and showing it go.
fn assert_equivalent(a: &Problem, b: &Problem) {
    let (mut sa, mut sb) = (a.spec.clone(), b.spec.clone());
    // The family and its seed say where the tests came from, not what they are.
    (sa.family, sa.seed, sa.subtasks) = (String::new(), 0, Vec::new());
    (sb.family, sb.seed, sb.subtasks) = (String::new(), 0, Vec::new());
    assert_eq!(sa, sb);
    let groups = |p: &Problem| {
        p.spec
            .subtasks
            .iter()
            .map(|s| (s.name.clone(), s.points, s.tests))
            .collect::<Vec<_>>()
    };
    assert_eq!(groups(a), groups(b));
    assert_eq!(a.samples, b.samples);
    assert!(a.tests().eq(b.tests()));
    assert!(a.statement_languages().eq(b.statement_languages()));
    for lang in a.statement_languages() {
        assert_eq!(a.statement(lang), b.statement(lang));
    }
    assert_eq!(a.output_validator(), b.output_validator());
}

#[test]
fn a_legacy_package_reads_with_its_defaults() {
    let problem = read(&legacy()).unwrap();
    let spec = &problem.spec;
    assert_eq!(problem.slug(), "pebbles");
    assert_eq!(problem.title("vi"), "Pebbles");
    assert_eq!(spec.family, PACKAGE_FAMILY);
    assert_eq!(spec.source.as_deref(), Some("NWERC 2099"));
    assert_eq!((spec.time_limit_ms, spec.memory_limit_mib), (1500, 512));
    assert_eq!(spec.version, 1);
    assert!(!problem.is_family_backed());
    assert!(problem.solver().is_none());
    assert_eq!(problem.statement("en"), Some("Take pebbles.\n"));
    assert_eq!(problem.samples.len(), 1);
    assert_eq!(spec.subtasks.len(), 1);
    assert_eq!(
        (spec.subtasks[0].name.as_str(), spec.subtasks[0].points),
        ("secret", 100)
    );
    // File name order, as Kattis runs them.
    let inputs: Vec<String> = problem.tests().map(|t| t.input).collect();
    assert_eq!(inputs, ["5\n", "4\n"]);
    assert_eq!(problem.generate_test(1, 3), None);
    // Kattis compares ignoring case unless told otherwise.
    assert_eq!(spec.checker.kind, CheckerKind::Tokens);
    assert_eq!(
        problem.check("", "First\n", "first"),
        CheckOutcome::Accepted
    );
    let report = verify(&problem, &mut || {});
    assert!(report.passed(), "{:?}", report.failures);
    assert_eq!((report.tests, report.samples), (2, 1));
    // The secret tests are the hidden set: only the samples are handed out.
    let instances = problem.instances(7, 5);
    assert_eq!(instances.len(), 1);
    assert_eq!(instances[0].subtask, None);
}

#[test]
fn the_2023_07_layout_reads_too() {
    let files = [
        (
            "problem.yaml",
            "problem_format_version: 2023-07\nuuid: 8ee7605a-0000-4000-8000-000000000000\n\
             name:\n  en: Heaps\n  vi: Đống\ntype: pass-fail\n\
             source:\n  name: Some Contest\n  url: https://example.invalid\n\
             limits:\n  time_limit: 2\n",
        ),
        ("statement/problem.en.md", "# Heaps\n"),
        ("statement/problem.vi.md", "# Đống\n"),
        (
            "data/testdata.yaml",
            "output_validator_flags: case_sensitive\n",
        ),
        ("data/secret/one/1.in", "1\n"),
        ("data/secret/one/1.ans", "First\n"),
    ];
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    let problem = read_zip(&zip_of(&files), &ReadLimits::default()).unwrap();
    assert_eq!(problem.slug(), "heaps");
    assert_eq!(problem.title("vi"), "Đống");
    assert_eq!(
        problem.spec.source.as_deref(),
        Some("Some Contest (https://example.invalid)")
    );
    assert_eq!(problem.spec.time_limit_ms, 2000);
    assert_eq!(problem.spec.memory_limit_mib, 2048);
    assert!(problem.spec.checker.case_sensitive);
    assert!(matches!(
        problem.check("", "First\n", "first"),
        CheckOutcome::WrongAnswer(_)
    ));
    // No samples: the problem loads, but verification says so.
    let report = verify(&problem, &mut || {});
    assert_eq!(report.failures, ["the problem has no samples"]);
}

#[test]
fn secret_groups_are_subtasks() {
    let mut files = without(
        without(legacy(), "pebbles/data/secret/a.in"),
        "pebbles/data/secret/a.ans",
    );
    files = without(
        without(files, "pebbles/data/secret/b.in"),
        "pebbles/data/secret/b.ans",
    );
    for (group, tests) in [("Group 2", 2), ("group1", 1), ("z", 3)] {
        for t in 0..tests {
            files = with(
                files,
                &format!("pebbles/data/secret/{group}/T{t}.in"),
                "1\n",
            );
            files = with(
                files,
                &format!("pebbles/data/secret/{group}/T{t}.ans"),
                "First\n",
            );
        }
    }
    let problem = read(&files).unwrap();
    let groups: Vec<(&str, u32, usize)> = problem
        .spec
        .subtasks
        .iter()
        .map(|s| (s.name.as_str(), s.points, s.tests))
        .collect();
    assert_eq!(
        groups,
        [("group_2", 33, 2), ("group1", 33, 1), ("z", 34, 3)]
    );
    let first = problem.generate_test(3, 3).unwrap();
    assert_eq!((first.subtask, first.index), (3, 3));

    let yaml = "name: Pebbles\ngrundy:\n  slug: stones-again\n  difficulty: hard\n  \
                tags: [nim]\n  version: 3\n  subtasks:\n    - {name: z, points: 50}\n    \
                - {name: group1, points: 20}\n    - {name: Group 2, points: 30}\n";
    let problem = read(&with(files.clone(), "pebbles/problem.yaml", yaml)).unwrap();
    let groups: Vec<(&str, u32)> = problem
        .spec
        .subtasks
        .iter()
        .map(|s| (s.name.as_str(), s.points))
        .collect();
    assert_eq!(groups, [("z", 50), ("group1", 20), ("group_2", 30)]);
    assert_eq!(problem.slug(), "stones-again");
    assert_eq!(problem.spec.version, 3);
    assert_eq!(problem.spec.tags, ["nim"]);
    assert_eq!(problem.spec.difficulty.as_str(), "hard");

    let cases = [
        (
            "- {name: z, points: 50}\n    - {name: group1, points: 20}\n",
            "does not give the points of the group \"Group 2\"",
        ),
        (
            "- {name: z, points: 50}\n    - {name: group1, points: 20}\n    - {name: Group 2, points: 20}\n",
            "the points add up to 90, not 100",
        ),
        (
            "- {name: y, points: 100}\n",
            "grundy.subtasks names \"y\", but data/secret/y holds no tests",
        ),
    ];
    for (list, expected) in cases {
        let yaml = format!("name: Pebbles\ngrundy:\n  subtasks:\n    {list}");
        let message = error(&with(files.clone(), "pebbles/problem.yaml", &yaml));
        assert!(message.starts_with("pebbles/problem.yaml: "), "{message}");
        assert!(message.contains(expected), "{list}: {message}");
    }
}

#[test]
fn a_custom_output_validator_is_carried_for_the_judge() {
    let source = "import sys\nsys.exit(42)\n";
    let files = with(
        with(
            legacy(),
            "pebbles/output_validators/check/validate.py",
            source,
        ),
        "pebbles/problem.yaml",
        "name: Pebbles\nvalidation: custom\n",
    );
    let problem = read(&files).unwrap();
    let validator = problem.output_validator().unwrap();
    assert_eq!(
        (validator.file_name.as_str(), validator.source.as_str()),
        ("validate.py", source)
    );
    assert_eq!(problem.spec.checker.kind, CheckerKind::Custom);
    // The validator runs in the judge's sandbox; in process, nothing is ever accepted.
    assert!(matches!(
        problem.check("5\n", "First\n", "First\n"),
        CheckOutcome::CheckerFailed(_)
    ));
    let report = verify(&problem, &mut || {});
    assert!(report.passed(), "{:?}", report.failures);

    let back = read_zip(&write_zip(&problem).unwrap(), &ReadLimits::default()).unwrap();
    assert_equivalent(&problem, &back);
    assert_eq!(problem.spec.seed, back.spec.seed);

    // The validator is part of what the problem judges with.
    let other = read(&with(
        files,
        "pebbles/output_validators/check/validate.py",
        "exit(43)\n",
    ))
    .unwrap();
    assert_ne!(other.spec.seed, problem.spec.seed);
}

#[test]
fn an_interactive_package_carries_its_interactor_in_both_formats() {
    let source = "int main(void) { return 42; }\n";
    let legacy_form = with(
        with(
            legacy(),
            "pebbles/output_validators/guess/interact.c",
            source,
        ),
        "pebbles/problem.yaml",
        "name: Pebbles\nvalidation: custom interactive\nvalidator_flags: quick 3\n",
    );
    let current = with(
        with(
            with(legacy(), "pebbles/output_validator/interact.c", source),
            "pebbles/problem.yaml",
            "problem_format_version: 2023-07\nname: Pebbles\ntype: [pass-fail, interactive]\n",
        ),
        "pebbles/data/testdata.yaml",
        "output_validator_flags: quick 3\n",
    );
    let mut seeds = Vec::new();
    for files in [legacy_form, current] {
        let problem = read(&files).unwrap();
        assert!(problem.is_interactive());
        assert!(
            problem.play().is_none(),
            "the package's interactor judges, not a referee"
        );
        let interactor = problem.interactor().unwrap();
        assert_eq!(
            (
                interactor.file_name.as_str(),
                interactor.source.as_str(),
                interactor.flags.as_slice()
            ),
            (
                "interact.c",
                source,
                ["quick", "3"].map(String::from).as_slice()
            )
        );
        assert_eq!(problem.spec.checker.kind, CheckerKind::Custom);
        // It goes out as a working interactive package and comes back the same.
        let back = read_zip(&write_zip(&problem).unwrap(), &ReadLimits::default()).unwrap();
        assert_equivalent(&problem, &back);
        assert_eq!(back.interactor(), problem.interactor());
        assert_eq!(back.spec.seed, problem.spec.seed);
        seeds.push(problem.spec.seed);
    }
    assert_eq!(seeds[0], seeds[1], "the same tests, interactor and flags");

    // The same program as a plain output validator: it keeps its flags, nothing talks with the
    // submission, and it judges differently (the test sets are cached apart).
    let plain = read(&with(
        with(
            legacy(),
            "pebbles/output_validators/guess/interact.c",
            source,
        ),
        "pebbles/problem.yaml",
        "name: Pebbles\nvalidation: custom\nvalidator_flags: quick 3\n",
    ))
    .unwrap();
    assert!(!plain.is_interactive());
    assert!(plain.interactor().is_none());
    assert_eq!(plain.output_validator().unwrap().flags, ["quick", "3"]);
    assert_ne!(plain.spec.seed, seeds[0]);
}

#[test]
fn a_built_in_interactive_problem_is_not_exported() {
    let catalogue = Catalogue::builtin().unwrap();
    let message = write_zip(catalogue.get("nim-play").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("problem nim-play cannot be exported as a package: it is interactive"),
        "{message}"
    );
}

#[test]
fn a_package_reads_back_from_its_export() {
    let problem = read(&legacy()).unwrap();
    let exported = write_zip(&problem).unwrap();
    let back = read_zip(&exported, &ReadLimits::default()).unwrap();
    assert_equivalent(&problem, &back);
    assert_eq!(write_zip(&back).unwrap(), exported);
}

#[test]
fn a_family_problem_exports_its_generated_tests() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let exported = write_zip(stones).unwrap();
    let back = read_zip(&exported, &ReadLimits::default()).unwrap();
    assert_equivalent(stones, &back);
    assert_eq!(back.spec.checker, stones.spec.checker);
    assert_eq!(back.spec.version, stones.spec.version);
    // Reproducible to the byte, and stable through a second round.
    assert_eq!(write_zip(stones).unwrap(), exported);
    assert_eq!(write_zip(&back).unwrap(), exported);

    let names: Vec<String> = {
        let mut archive = zip::ZipArchive::new(Cursor::new(&exported)).unwrap();
        (0..archive.len())
            .map(|i| archive.by_index(i).unwrap().name().unwrap().into_owned())
            .collect()
    };
    for name in [
        "stones/problem.yaml",
        "stones/data/testdata.yaml",
        "stones/statement/problem.vi.md",
        "stones/data/sample/01.ans",
        "stones/data/secret/small/10.in",
        "stones/data/secret/full/01.ans",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} is missing");
    }
}

#[test]
fn what_a_line_answers_goes_out_and_comes_back_with_the_package() {
    let catalogue = Catalogue::builtin().unwrap();
    let nim = catalogue.get("nim").unwrap();
    assert_eq!(nim.spec.checker.line_answers, "test case");
    let back = read_zip(&write_zip(nim).unwrap(), &ReadLimits::default()).unwrap();
    assert_eq!(back.spec.checker, nim.spec.checker);
    // A package says it under `grundy`; a problem that does not has plain lines.
    let yaml = "name: Pebbles\ngrundy:\n  line_answers: heap size\n";
    let problem = read(&with(legacy(), "pebbles/problem.yaml", yaml)).unwrap();
    assert_eq!(problem.spec.checker.line_answers, "heap size");
    assert_eq!(read(&legacy()).unwrap().spec.checker.line_answers, "line");
    let bad = "name: Pebbles\ngrundy:\n  line_answers: \"Heap #\"\n";
    assert!(error(&with(legacy(), "pebbles/problem.yaml", bad)).contains("grundy.line_answers"));
}

#[test]
fn a_problem_with_several_right_answers_is_not_exported() {
    let catalogue = Catalogue::builtin().unwrap();
    let chomp = catalogue.get("chomp").unwrap();
    assert_eq!(chomp.spec.checker.kind, CheckerKind::Reference);
    let message = write_zip(chomp).unwrap_err().to_string();
    assert!(
        message.starts_with(
            "problem chomp cannot be exported as a package: its answers are judged by the"
        ),
        "{message}"
    );
}

#[test]
fn broken_packages_are_refused_with_the_file_at_fault() {
    let yaml = "pebbles/problem.yaml";
    let cases: Vec<(Package, &str)> = vec![
        (
            without(legacy(), "pebbles/data/secret/a.ans"),
            "pebbles/data/secret/a.in: has no data/secret/a.ans",
        ),
        (
            without(legacy(), "pebbles/data/sample/1.in"),
            "pebbles/data/sample/1.ans: has no data/sample/1.in",
        ),
        (
            without(
                without(
                    without(
                        without(legacy(), "pebbles/data/secret/a.in"),
                        "pebbles/data/secret/a.ans",
                    ),
                    "pebbles/data/secret/b.in",
                ),
                "pebbles/data/secret/b.ans",
            ),
            "pebbles/data/secret/ holds no tests",
        ),
        (
            without(legacy(), "pebbles/problem_statement/problem.en.md"),
            "pebbles/statement/problem.en.md is missing",
        ),
        (
            with(legacy(), "pebbles/statement/problem.fr.md", "Prenez.\n"),
            "pebbles/statement/problem.fr.md: unknown language \"fr\"",
        ),
        (
            with(legacy(), "pebbles/statement/problem.en.md", "Again.\n"),
            "pebbles/statement/problem.en.md: a second en statement",
        ),
        (
            with(legacy(), "pebbles/.timelimit", "0.01\n"),
            "pebbles/.timelimit: the time limit = 0.01 s must lie in 0.1..=60 seconds",
        ),
        (
            with(legacy(), "pebbles/.timelimit", "soon\n"),
            "pebbles/.timelimit: must hold a number of seconds",
        ),
        (
            with(legacy(), yaml, "name: P\nlimits:\n  time_limit: 61\n"),
            "pebbles/problem.yaml: limits.time_limit = 61 s must lie in 0.1..=60 seconds",
        ),
        (
            with(legacy(), yaml, "name: P\nlimits:\n  memory: 8192\n"),
            "pebbles/problem.yaml: limits.memory = 8192 MiB must lie in 16..=4096",
        ),
        (
            with(
                legacy(),
                yaml,
                "name: P\nvalidator_flags: float_tolerance 1e-6\n",
            ),
            "pebbles/problem.yaml: the output validator flag \"float_tolerance\" is not supported",
        ),
        (
            with(
                legacy(),
                "pebbles/data/secret/testdata.yaml",
                "output_validator_flags: space_change_sensitive\n",
            ),
            "pebbles/data/secret/testdata.yaml: the output validator flag \"space_change_sensitive\"",
        ),
        (
            with(
                with(legacy(), yaml, "name: P\nvalidator_flags: case_sensitive\n"),
                "pebbles/data/secret/testdata.yaml",
                "output_validator_flags: ''\n",
            ),
            "pebbles/data/secret/testdata.yaml: sets case_sensitive differently from pebbles/problem.yaml",
        ),
        (
            with(legacy(), yaml, "name: P\nvalidation: custom\n"),
            "pebbles/problem.yaml: validation is custom, but output_validators/ holds no validator",
        ),
        (
            with(
                legacy(),
                "pebbles/output_validators/v/validate.cpp",
                "int main() {}\n",
            ),
            "",
        ),
        (
            with(
                with(legacy(), yaml, "name: P\nvalidation: default\n"),
                "pebbles/output_validators/v/validate.cpp",
                "int main() {}\n",
            ),
            "pebbles/output_validators/v/validate.cpp: an output validator, but problem.yaml sets validation: default",
        ),
        (
            with(
                with(
                    legacy(),
                    "pebbles/output_validators/v/validate.cpp",
                    "int main() {}\n",
                ),
                "pebbles/output_validators/v/testlib.h",
                "#pragma once\n",
            ),
            "the output validator must be one source file, but there are 2",
        ),
        (
            with(
                with(
                    with(
                        legacy(),
                        yaml,
                        "name: P\nvalidation: custom\nvalidator_flags: strict 3\n",
                    ),
                    "pebbles/output_validators/v/validate.cpp",
                    "int main() {}\n",
                ),
                "pebbles/data/secret/testdata.yaml",
                "output_validator_flags: strict 4\n",
            ),
            "pebbles/data/secret/testdata.yaml: sets the validator flags differently from pebbles/problem.yaml",
        ),
        (
            with(legacy(), yaml, "name: P\ntype: interactive\n"),
            "pebbles/problem.yaml: an interactive problem needs its interactor: put it in output_validators/",
        ),
        (
            with(legacy(), yaml, "name: P\nvalidation: custom interactive\n"),
            "pebbles/problem.yaml: an interactive problem needs its interactor",
        ),
        (
            with(
                with(
                    legacy(),
                    yaml,
                    "name: P\ntype: interactive\nvalidation: default\n",
                ),
                "pebbles/output_validators/v/interact.c",
                "int main() {}\n",
            ),
            "pebbles/output_validators/v/interact.c: an output validator, but problem.yaml sets validation: default",
        ),
        (
            with(
                with(
                    legacy(),
                    yaml,
                    "name: P\nvalidation: custom interactive score\n",
                ),
                "pebbles/output_validators/v/interact.c",
                "int main() {}\n",
            ),
            "pebbles/problem.yaml: validation \"custom interactive score\": score is not supported",
        ),
        (
            with(legacy(), yaml, "name: P\nvalidation: default interactive\n"),
            "pebbles/problem.yaml: validation \"default interactive\" is not supported (default, custom or custom interactive)",
        ),
        (
            with(legacy(), yaml, "name: P\nvalidation: interactive\n"),
            "pebbles/problem.yaml: validation \"interactive\" must begin with default or custom",
        ),
        (
            with(
                with(
                    legacy(),
                    yaml,
                    "problem_format_version: 2023-07\nname: P\ntype: [pass-fail, interactive, multi-pass]\n",
                ),
                "pebbles/output_validator/interact.c",
                "int main() {}\n",
            ),
            "pebbles/problem.yaml: type \"multi-pass\" is not supported: only pass-fail, scoring and interactive problems",
        ),
        (
            with(legacy(), yaml, "author: Someone\n"),
            "pebbles/problem.yaml: name (the title) is required",
        ),
        (
            with(legacy(), yaml, "name:\n  vi: Sỏi\n"),
            "pebbles/problem.yaml: name needs an English title",
        ),
        (
            with(legacy(), yaml, "name: P\ngrundy:\n  slug: Pebbles!\n"),
            "the slug \"Pebbles!\", taken from grundy.slug in problem.yaml, must be",
        ),
        (
            with(legacy(), yaml, "name: P\ngrundy:\n  colour: red\n"),
            "pebbles/problem.yaml: ",
        ),
        (
            with(legacy(), yaml, "name: [unclosed\n"),
            "pebbles/problem.yaml: ",
        ),
        (
            with(legacy(), yaml, "name: P\nproblem_format_version: 2031-01\n"),
            "problem_format_version \"2031-01\" is not supported",
        ),
        (
            with(
                with(legacy(), "pebbles/data/secret/g/1.in", "1\n"),
                "pebbles/data/secret/g/1.ans",
                "First\n",
            ),
            "pebbles/data/secret/: holds both tests and group folders",
        ),
        (
            with(
                with(legacy(), "pebbles/data/secret/g/h/1.in", "1\n"),
                "pebbles/data/secret/g/h/1.ans",
                "First\n",
            ),
            "pebbles/data/secret/g/h/1.ans: test groups cannot be nested",
        ),
        (
            with(
                with(legacy(), "pebbles/data/secret/A.in", "1\n"),
                "pebbles/data/secret/A.ans",
                "First\n",
            ),
            "pebbles/data/secret/a.in: another test in data/secret/ is also named \"a\"",
        ),
        (with(legacy(), "pebbles/data/secret/a.in", ""), ""),
        (with(legacy(), "pebbles/README.md", "hello\n"), ""),
    ];
    for (files, expected) in cases {
        match read(&files) {
            Ok(_) => assert!(expected.is_empty(), "accepted; expected {expected:?}"),
            Err(e) => {
                let message = e.to_string();
                assert!(
                    !expected.is_empty() && message.contains(expected),
                    "expected {expected:?}, got {message:?}"
                );
            }
        }
    }
}

#[test]
fn non_text_files_are_refused() {
    let mut files = legacy();
    files.push(("pebbles/data/secret/c.in".into(), vec![0xff, 0xfe, b'1']));
    files.push(("pebbles/data/secret/c.ans".into(), b"First\n".to_vec()));
    let message = error(&files);
    assert!(
        message
            .starts_with("pebbles/data/secret/c.in: is not UTF-8 text (invalid byte at offset 0)"),
        "{message}"
    );
}

#[test]
fn the_package_may_sit_at_the_root_or_in_one_folder() {
    let at_root: Package = legacy()
        .into_iter()
        .map(|(p, d)| (p.strip_prefix("pebbles/").unwrap().to_string(), d))
        .collect();
    // At the root there is no folder to name the problem: the title does.
    let problem = read(&at_root).unwrap();
    assert_eq!(problem.slug(), "pebbles");

    let mut two_folders = legacy();
    two_folders.push(("other/file.txt".into(), b"x".to_vec()));
    assert!(error(&two_folders).starts_with("problem.yaml is missing"));

    let mut litter = legacy();
    litter.push(("__MACOSX/pebbles/._problem.yaml".into(), vec![0, 1, 2]));
    litter.push(("pebbles/.DS_Store".into(), vec![0, 1, 2]));
    assert_eq!(read(&litter).unwrap().slug(), "pebbles");
}

#[test]
fn hostile_archives_are_refused() {
    let limits = ReadLimits {
        max_total_bytes: 10_000,
        max_kept_bytes: 10_000,
        max_files: 20,
    };
    let zeros = vec![0u8; 1 << 20];
    let bomb = zip_of(&[
        ("pebbles/problem.yaml", b"name: P\n"),
        ("pebbles/data/secret/1.in", &zeros),
    ]);
    assert!(bomb.len() < 10_000, "deflate shrinks zeros");
    let message = read_zip(&bomb, &limits).unwrap_err().to_string();
    assert_eq!(
        message,
        "pebbles/data/secret/1.in: the package unpacks to more than 10000 bytes"
    );

    let many: Package = (0..21).map(|i| (format!("f{i}"), vec![])).collect();
    let many: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(p, d)| (p.as_str(), d.as_slice()))
        .collect();
    let message = read_zip(&zip_of(&many), &limits).unwrap_err().to_string();
    assert_eq!(
        message,
        "the archive has 21 entries; at most 20 are allowed"
    );

    for (name, expected) in [
        (
            "pebbles/../../etc/passwd",
            "the path leaves the package (..)",
        ),
        ("/etc/passwd", "absolute paths are not allowed in a package"),
        ("C:/evil", "absolute paths are not allowed in a package"),
        (
            "pebbles\\data\\secret\\1.in",
            "the path holds a backslash or a NUL character",
        ),
        (
            "pebbles//problem.yaml",
            "the path has an empty or '.' component",
        ),
    ] {
        let message = read_zip(&zip_of(&[(name, b"x")]), &limits)
            .unwrap_err()
            .to_string();
        assert_eq!(message, format!("{name}: {expected}"), "{name}");
    }

    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default();
    zip.start_file("pebbles/problem.yaml", options).unwrap();
    zip.write_all(b"name: P\n").unwrap();
    zip.add_symlink("pebbles/data/secret/1.in", "/etc/passwd", options)
        .unwrap();
    let linked = zip.finish().unwrap().into_inner();
    let message = read_zip(&linked, &limits).unwrap_err().to_string();
    assert_eq!(
        message,
        "pebbles/data/secret/1.in: links are not allowed in a package"
    );

    // Two entries of one name: the writer refuses to make them, so rename one in place.
    let twice = zip_of(&[
        ("pebbles/problem.yaml", b"name: P\n"),
        ("pebbles/problem.yamx", b"name: Q\n"),
    ]);
    let twice = replace_all(&twice, b"pebbles/problem.yamx", b"pebbles/problem.yaml");
    let message = read_zip(&twice, &limits).unwrap_err().to_string();
    assert_eq!(message, "the archive holds two entries of the same name");

    let message = read_zip(b"PK\x03\x04 not really", &limits)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("the upload is not a zip archive that can be read"),
        "{message}"
    );
}

fn replace_all(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}
