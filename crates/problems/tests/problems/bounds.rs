//! The caps on what a problem generates: every built-in problem fits them with room to spare
//! (the figures the caps were chosen by), a variant past them is refused, and an export stops at
//! what a package may unpack to.

use grundy_problems::spec::{MAX_INSTANCE_BYTES, MAX_SUBTASKS, MAX_TEST_BYTES, MAX_TESTS};
use grundy_problems::{Catalogue, PackageError, Problem, VariantRequest, variant, write_zip};

fn nim_variant(slug: &str, subtasks: usize, tests: usize, max_lines: u32) -> VariantRequest {
    let subtasks: Vec<String> = (0..subtasks)
        .map(|i| {
            let points = if i == 0 { 100 - (subtasks - 1) } else { 1 };
            format!(
                r#"{{"name": "s{i}", "points": {points}, "tests": {tests}, "generator":
                    {{"max_lines": {max_lines}, "max_piles": 20, "max_pile": 10000000}}}}"#
            )
        })
        .collect();
    serde_saphyr::from_str(&format!(
        r#"{{"slug": "{slug}", "title": {{"en": "Nim"}}, "subtasks": [{}]}}"#,
        subtasks.join(",")
    ))
    .unwrap()
}

#[test]
fn every_built_in_problem_fits_the_caps_with_room_to_spare() {
    let catalogue = Catalogue::builtin().unwrap();
    let (mut subtasks, mut tests, mut bytes, mut drawn) = (0, 0, 0, 0);
    for problem in catalogue.iter() {
        subtasks = subtasks.max(problem.spec.subtasks.len());
        tests = tests.max(problem.test_count());
        let generated = problem
            .test_bytes_within(MAX_TEST_BYTES)
            .unwrap_or_else(|| panic!("{}: more than {MAX_TEST_BYTES} bytes", problem.slug()));
        bytes = bytes.max(generated);
        for seed in [1, 2, 3] {
            let instances = problem
                .instances_within(seed, 2, MAX_INSTANCE_BYTES)
                .unwrap_or_else(|| panic!("{}: instances past the bound", problem.slug()));
            let size: usize = instances
                .iter()
                .map(|i| i.input.len() + i.answer.len())
                .sum();
            drawn = drawn.max(size as u64);
        }
    }
    eprintln!(
        "built-in at most: {subtasks} subtasks, {tests} tests, {bytes} bytes of tests, \
         {drawn} bytes of instances"
    );
    assert!(subtasks * 4 <= MAX_SUBTASKS, "{subtasks}");
    assert!(tests * 10 <= MAX_TESTS, "{tests}");
    // Half as much again: a variant drawing some 30 MB must still be refused (server tests).
    assert!(drawn * 3 <= MAX_INSTANCE_BYTES * 2, "{drawn}");
}

#[test]
fn a_variant_past_the_caps_is_refused() {
    let catalogue = Catalogue::builtin().unwrap();
    let nim = catalogue.get("nim").unwrap();
    // The issue's 2.3 KB variant: 20 subtasks of 100 tests.
    let refused = variant(nim, &nim_variant("nim-2000", 20, 100, 10_000)).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("2000 tests in all; a problem may have at most 400"),
        "{refused}"
    );
    let refused = variant(nim, &nim_variant("nim-21", 21, 1, 10)).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("21 subtasks; a problem may have at most 20"),
        "{refused}"
    );
    // At the caps it loads.
    let files = variant(nim, &nim_variant("nim-full", 20, 20, 10)).unwrap();
    let problem = Problem::from_files("nim-full", &files).unwrap();
    assert_eq!(problem.test_count(), MAX_TESTS);
}

#[test]
fn measuring_stops_at_its_limit_and_an_export_at_what_a_package_may_hold() {
    let catalogue = Catalogue::builtin().unwrap();
    let nim = catalogue.get("nim").unwrap();
    // 20 subtasks of 5 of the largest tests: some 80 MiB.
    let files = variant(nim, &nim_variant("nim-huge", 20, 5, 10_000)).unwrap();
    let problem = Problem::from_files("nim-huge", &files).unwrap();
    assert_eq!(problem.test_bytes_within(MAX_TEST_BYTES), None);
    let whole = problem.test_bytes_within(u64::MAX).unwrap();
    assert!(whole > MAX_TEST_BYTES, "{whole}");
    match write_zip(&problem) {
        Err(PackageError::NotExportable { reason, .. }) => assert!(
            reason.contains("more than 64 MiB, the most a package may unpack to"),
            "{reason}"
        ),
        other => panic!("{:?}", other.map(|zip| zip.len())),
    }
    // A draw of instances stops as soon as it passes its bound.
    assert_eq!(problem.instances_within(1, 2, 1 << 20), None);
}
