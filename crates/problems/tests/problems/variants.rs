//! Variants of family problems, and the personal instances of answer submissions.

use grundy_problems::verify::verify;
use grundy_problems::{
    Catalogue, Problem, ReadLimits, VariantRequest, read_zip, variant, write_zip,
};
use std::collections::HashSet;

/// A request as the web form sends it (YAML reads JSON).
fn request(json: &str) -> VariantRequest {
    serde_saphyr::from_str(json).unwrap()
}

const SMALL_STONES: &str = r#"{
    "slug": "stones-small",
    "title": {"en": "Little stones", "vi": "Đá nhỏ"},
    "time_limit_ms": 1500,
    "seed": 99,
    "subtasks": [
        {"name": "tiny", "points": 40, "tests": 6, "generator": {"max_n": 2, "max_k": 8}},
        {"name": "rest", "points": 60, "tests": 9, "generator": {"max_n": 5, "max_k": 50}}
    ]
}"#;

#[test]
fn a_stones_variant_loads_and_its_tests_fit() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let files = variant(stones, &request(SMALL_STONES)).unwrap();
    let problem = Problem::from_files("stones-small", &files).unwrap();
    let spec = &problem.spec;
    assert_eq!(spec.family, "stones");
    assert_eq!(spec.version, 1);
    assert_eq!(
        (spec.time_limit_ms, spec.memory_limit_mib, spec.seed),
        (1500, 256, 99)
    );
    assert_eq!(problem.title("vi"), "Đá nhỏ");
    assert_eq!(problem.test_count(), 15);
    assert_eq!(problem.samples, stones.samples);

    // Every test passes the family's validator and lies within its subtask.
    let report = verify(&problem, &mut || {});
    assert!(report.passed(), "{:?}", report.failures);
    for test in problem.tests() {
        let first: Vec<u32> = test
            .input
            .lines()
            .next()
            .unwrap()
            .split(' ')
            .map(|t| t.parse().unwrap())
            .collect();
        let (n, k) = if test.subtask == 1 { (2, 8) } else { (5, 50) };
        assert!(first[0] <= n && first[1] <= k, "{test:?}");
    }

    let en = problem.statement("en").unwrap();
    assert!(en.starts_with("# Little stones\n"), "{en}");
    assert!(en.contains("\n## This variant\n"));
    assert!(en.contains("This is a variant of *Stones*"));
    assert!(
        en.contains("- Time limit: 1.5 s\n- Memory limit: 256 MiB\n"),
        "{en}"
    );
    assert!(
        en.contains("- Subtask 2 `rest` (60 points, 9 tests): `max_k = 50`, `max_n = 5`\n"),
        "{en}"
    );
    let vi = problem.statement("vi").unwrap();
    assert!(vi.starts_with("# Đá nhỏ\n"), "{vi}");
    assert!(vi.contains("\n## Biến thể này\n"));
    assert!(vi.contains("- Giới hạn thời gian: 1.5 giây\n"), "{vi}");

    // Reloading the stored files gives the same problem.
    let again = Problem::from_files("stones-small", &files).unwrap();
    assert_eq!(again.spec, problem.spec);
    assert!(again.tests().eq(problem.tests()));
}

#[test]
fn a_variant_outside_the_family_limits_is_refused() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let cases = [
        (
            SMALL_STONES.replace("\"max_k\": 50", "\"max_k\": 100001"),
            "problem stones-small: subtask 2 generator: max_k = 100001 must lie in 1..=100000",
        ),
        (
            SMALL_STONES.replace("\"max_n\": 2,", "\"max_n\": 2, \"max_q\": 1,"),
            "problem stones-small: subtask 1 generator: unknown field `max_q`",
        ),
        (
            SMALL_STONES.replace("\"points\": 40", "\"points\": 30"),
            "subtask points add up to 90, not 100",
        ),
        (
            SMALL_STONES.replace("1500", "50"),
            "time_limit_ms must lie in 100..=60000",
        ),
        (
            SMALL_STONES.replace("\"tests\": 6", "\"tests\": 0"),
            "subtask 1: tests must lie in 1..=100",
        ),
        (
            SMALL_STONES.replace("\"name\": \"tiny\"", "\"name\": \"Tiny!\""),
            "subtask 1: the name must be lower-case",
        ),
        (
            SMALL_STONES.replace("\"en\": \"Little stones\", ", ""),
            "an English title (title.en) is required",
        ),
        (
            SMALL_STONES.replace("stones-small", "Stones_Small"),
            "problem Stones_Small: the slug must be 2 to 48",
        ),
    ];
    for (json, expected) in cases {
        let message = variant(stones, &request(&json)).unwrap_err().to_string();
        assert!(
            message.contains(expected),
            "expected {expected:?}, got {message:?}"
        );
    }
    // The request itself is strict.
    let sloppy = SMALL_STONES.replace("\"seed\": 99,", "\"seed\": 99, \"colour\": \"red\",");
    assert!(serde_saphyr::from_str::<VariantRequest>(&sloppy).is_err());
}

#[test]
fn only_family_problems_have_variants() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let package = read_zip(&write_zip(stones).unwrap(), &ReadLimits::default()).unwrap();
    let message = variant(&package, &request(SMALL_STONES))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "problem stones-small: only a problem backed by a game family can have variants; stones is an uploaded package"
    );
}

#[test]
fn instances_are_personal_reproducible_and_not_the_hidden_tests() {
    let catalogue = Catalogue::builtin().unwrap();
    let stones = catalogue.get("stones").unwrap();
    let mine = stones.instances(7, 3);
    assert_eq!(mine.len(), stones.samples.len() + 2 * 3);
    for (instance, sample) in mine.iter().zip(&stones.samples) {
        assert_eq!(
            (instance.name.as_str(), instance.subtask),
            (sample.name.as_str(), None)
        );
        assert_eq!(instance.input, sample.input);
    }
    let drawn = &mine[stones.samples.len()..];
    let names: Vec<(&str, Option<usize>)> =
        drawn.iter().map(|i| (i.name.as_str(), i.subtask)).collect();
    assert_eq!(
        names,
        [
            ("small-01", Some(1)),
            ("small-02", Some(1)),
            ("small-03", Some(1)),
            ("full-01", Some(2)),
            ("full-02", Some(2)),
            ("full-03", Some(2)),
        ]
    );
    assert_eq!(stones.instances(7, 3), mine);
    let theirs = stones.instances(8, 3);
    assert_ne!(&theirs[stones.samples.len()..], drawn);
    // The full subtask's space is large: a personal instance there is never a hidden test.
    let hidden: HashSet<String> = stones.tests().map(|t| t.input).collect();
    for instance in drawn
        .iter()
        .chain(&theirs[stones.samples.len()..])
        .filter(|i| i.subtask == Some(2))
    {
        assert!(!hidden.contains(&instance.input), "{}", instance.name);
    }

    // Every family draws valid instances with the reference's answers.
    for problem in catalogue.iter() {
        let solver = problem.solver().unwrap();
        for instance in problem.instances(1, 1) {
            assert_eq!(
                solver
                    .solve_text(&instance.input)
                    .map_err(|e| e.to_string()),
                Ok(instance.answer.clone()),
                "{} {}",
                problem.slug(),
                instance.name
            );
        }
    }
}
