//! Explained wrong answers end to end: `grundy judge --explain --json` and `grundy stress` on
//! programs written from a description of each classic mistake, independently of the
//! misconceptions' own solvers (tests/programs/misconceptions/<problem>/<id>.*).
//!
//! The smallest counterexamples below were found by a separate brute force over every small
//! game (not by Grundy's search): Grundy's must be no bigger.

use crate::common;

use std::path::Path;

use common::{cache_dir, grundy, isolation_available, json, programs, tool_available};
use grundy_problems::Catalogue;

/// (problem, program, misconception id, the smallest wrong one-game input a brute force found;
/// `None` for mistakes no small game shows).
const MISCONCEPTIONS: &[(&str, &str, &str, Option<&str>)] = &[
    ("nim", "sum-parity.c", "sum-parity", Some("1 2\n")),
    ("nim", "always-first.py", "always-first", Some("2 1 1\n")),
    (
        "nim",
        "normal-as-misere.c",
        "normal-as-misere",
        Some("1 1\n"),
    ),
    (
        "misere-nim",
        "sum-parity.py",
        "sum-parity",
        Some("1\n1\n1\n"),
    ),
    (
        "misere-nim",
        "misere-as-normal.cpp",
        "misere-as-normal",
        Some("1\n1\n1\n"),
    ),
    ("stones", "sum-parity.cpp", "sum-parity", Some("1 2\n2\n")),
    ("bash", "modulus-m.c", "modulus-m", Some("1\n1 1\n")),
    (
        "nim-k",
        "nim-k-mod-k.cpp",
        "nim-k-mod-k",
        Some("1\n1 1\n1\n"),
    ),
    (
        "nim-k",
        "nim-k-as-nim.py",
        "nim-k-as-nim",
        Some("1\n2 2\n1 1\n"),
    ),
    (
        "staircase-nim",
        "staircase-all-gaps.c",
        "staircase-all-gaps",
        Some("1\n2\n2 3\n"),
    ),
    (
        "staircase-nim",
        "staircase-p-minus-i.py",
        "staircase-p-minus-i",
        Some("1\n3\n2 3 5\n"),
    ),
    (
        "wythoff",
        "float-golden-ratio.c",
        "float-golden-ratio",
        None,
    ),
    (
        "wythoff",
        "wythoff-as-nim.py",
        "wythoff-as-nim",
        Some("1 1\n"),
    ),
    (
        "wythoff-big",
        "float-golden-ratio.cpp",
        "float-golden-ratio",
        None,
    ),
    (
        "wythoff-big",
        "wythoff-as-nim.c",
        "wythoff-as-nim",
        Some("1\n1 1\n"),
    ),
    ("sc4", "sc4-half-rule.cpp", "sc4-half-rule", Some("2 1\n")),
    (
        "lasker-nim",
        "lasker-as-nim.c",
        "lasker-as-nim",
        Some("1\n3\n1 2 3\n"),
    ),
    (
        "square-nim",
        "square-nim-as-nim.py",
        "square-nim-as-nim",
        Some("1\n1\n2\n"),
    ),
    (
        "fibonacci-nim",
        "fibonacci-powers-of-two.c",
        "fibonacci-powers-of-two",
        Some("3\n0\n"),
    ),
    (
        "k-multiple-subtraction",
        "k-multiple-linear-recurrence.py",
        "k-multiple-linear-recurrence",
        Some("1\n8 3\n"),
    ),
    (
        "green-hackenbush",
        "hackenbush-edge-parity.py",
        "hackenbush-edge-parity",
        Some("3\n1 2\n2 3\n"),
    ),
    (
        "green-hackenbush-multi",
        "hackenbush-branches-as-stalks.cpp",
        "hackenbush-branches-as-stalks",
        Some("1\n5\n3 1\n1 2\n4 2\n2 5\n"),
    ),
    (
        "coin-flipping",
        "coins-value-k.c",
        "coins-value-k",
        Some("1\n3\nHHH\n"),
    ),
    (
        "chomp",
        "chomp-smallest-bite.c",
        "chomp-smallest-bite",
        Some("1\n1 3\nooo\n"),
    ),
    (
        "bipartite-game",
        "bipartite-placer-as-mover.cpp",
        "bipartite-placer-as-mover",
        Some("1 1\n.\n"),
    ),
    (
        "dag-game",
        "dag-longest-path-parity.c",
        "dag-longest-path-parity",
        Some("3 3\n1 2\n1 3\n2 3\n"),
    ),
    (
        "dag-game",
        "dag-shortest-path-parity.cpp",
        "dag-shortest-path-parity",
        Some("4 4\n1 2\n1 3\n2 3\n3 4\n"),
    ),
    (
        "dag-chess",
        "dag-chess-xor-of-outcomes.cpp",
        "dag-chess-xor-of-outcomes",
        Some("3\n2 1 2\n1 2\n0\n2 0 1\n0\n"),
    ),
    (
        "dag-chess",
        "dag-chess-any-winning-token.py",
        "dag-chess-any-winning-token",
        Some("2\n1 1\n0\n2 0 0\n0\n"),
    ),
    (
        "every-sg",
        "every-sg-as-sum.c",
        "every-sg-as-sum",
        Some("2 1\n1 2\n1\n2 1 1\n"),
    ),
    (
        "every-sg",
        "every-sg-steps-swapped.cpp",
        "every-sg-steps-swapped",
        Some("4 4\n1 2\n1 4\n2 3\n3 4\n1\n2 1 2\n"),
    ),
    (
        "christmas-game",
        "christmas-ring-parity-swapped.cpp",
        "christmas-ring-parity-swapped",
        Some("1\n2 2\n1 2\n1 2\n"),
    ),
    (
        "christmas-game",
        "christmas-rings-as-paths.py",
        "christmas-rings-as-paths",
        Some("1\n2 2\n1 2\n1 2\n"),
    ),
    (
        "kayles",
        "kayles-as-nim.py",
        "kayles-as-nim",
        Some("1\n2 1 4\n"),
    ),
    (
        "kayles",
        "octal-no-split.c",
        "octal-no-split",
        Some("1\n1 3\n"),
    ),
    (
        "dawsons-kayles",
        "octal-as-nim.c",
        "octal-as-nim",
        Some("1\n1 1\n"),
    ),
    (
        "dawsons-kayles",
        "octal-no-split.cpp",
        "octal-no-split",
        Some("1\n1 4\n"),
    ),
    (
        "dawsons-chess",
        "octal-as-nim.py",
        "octal-as-nim",
        Some("1\n2 1 2\n"),
    ),
    (
        "dawsons-chess",
        "octal-no-split.py",
        "octal-no-split",
        Some("1\n1 5\n"),
    ),
    (
        "parigame",
        "parigame-whole-row-sums.cpp",
        "parigame-whole-row-sums",
        Some("1\n2\n2 1\n1 1\n"),
    ),
    (
        "spc4",
        "spc4-front-end.py",
        "spc4-front-end",
        Some("2 0 0\n-1 0\n"),
    ),
    (
        "stick-game",
        "sum-parity.cpp",
        "sum-parity",
        Some("2 1\n2\n"),
    ),
    (
        "stick-game",
        "stick-game-as-bash.py",
        "stick-game-as-bash",
        Some("2 1\n2\n"),
    ),
    (
        "vika",
        "vika-nearest-friend.c",
        "vika-nearest-friend",
        Some("1\n1 3 2\n1 1\n1 2\n1 3\n"),
    ),
];

const TOOLS: [&str; 3] = ["/usr/bin/gcc", "/usr/bin/g++", "/usr/bin/python3"];

fn tools_available(test: &str) -> bool {
    isolation_available(test) && TOOLS.iter().all(|t| tool_available(test, t))
}

/// `grundy judge --explain --json`: the judgement with its `explanation`.
fn judge_explained(problem: &str, file: &Path, extra: &[&str]) -> serde_json::Value {
    let cache = cache_dir();
    let mut args = vec![
        "judge",
        "--explain",
        "--json",
        "--problem",
        problem,
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.push(file.to_str().unwrap());
    json(&grundy(&args, b""))
}

fn size(problem: &str, game: &str) -> u64 {
    let catalogue = Catalogue::builtin().unwrap();
    let explainer = catalogue.get(problem).unwrap().explainer().unwrap();
    explainer.size(game)
}

#[test]
fn every_misconception_program_is_named_with_a_smallest_counterexample() {
    if !tools_available("misconceptions") {
        return;
    }
    let failures: Vec<String> = std::thread::scope(|scope| {
        let halves = [0, 1].map(|half| {
            scope.spawn(move || {
                let mut failures = Vec::new();
                for &(problem, file, id, smallest) in MISCONCEPTIONS.iter().skip(half).step_by(2) {
                    let path = programs().join("misconceptions").join(problem).join(file);
                    let doc = judge_explained(problem, &path, &[]);
                    let explanation = &doc["explanation"];
                    let named = explanation["misconception"]["id"].as_str();
                    let position = explanation["position"].as_str();
                    let fits = match (smallest, position) {
                        (Some(smallest), Some(position)) => {
                            size(problem, position) <= size(problem, smallest)
                        }
                        // No small game shows it: a large counterexample, said to be large.
                        (None, Some(_)) => explanation["large"] == true,
                        (_, None) => false,
                    };
                    if named != Some(id) || !fits {
                        failures.push(format!(
                            "{problem}/{file}: verdict {}, named {named:?}, position \
                                 {position:?} (brute force: {smallest:?}): {explanation}",
                            doc["verdict"]
                        ));
                    }
                }
                failures
            })
        });
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_right_program_gets_no_explanation() {
    if !tools_available("a right program") {
        return;
    }
    let doc = judge_explained("nim", &programs().join("explain/nim-correct.cpp"), &[]);
    assert_eq!(doc["verdict"], "accepted", "{doc}");
    assert!(doc["explanation"].is_null(), "{doc}");
}

#[test]
fn right_programs_for_move_problems_get_no_explanation() {
    if !tools_available("right move programs") {
        return;
    }
    // The Chomp program prints other winning bites than the reference's where there are two.
    for (problem, file) in [
        ("chomp", "chomp-correct.cpp"),
        ("bipartite-game", "bipartite-correct.cpp"),
    ] {
        let doc = judge_explained(problem, &programs().join("explain").join(file), &[]);
        assert_eq!(doc["verdict"], "accepted", "{file}: {doc}");
        assert!(doc["explanation"].is_null(), "{file}: {doc}");
    }
}

#[test]
fn a_losing_chomp_move_is_explained_by_the_reply_it_allows() {
    if !tools_available("a losing Chomp move") {
        return;
    }
    let doc = judge_explained(
        "chomp",
        &programs().join("explain/chomp-losing-move.cpp"),
        &[],
    );
    let explanation = &doc["explanation"];
    let position = explanation["position"].as_str().unwrap();
    // Brute force: the smallest board of three rows with a top row of two, rows 2, 1 and 1,
    // where biting (1, 2) leaves a column of three that Minh cuts to the poisoned piece.
    assert!(
        size("chomp", position) <= size("chomp", "1\n3 2\noo\no.\no.\n"),
        "{doc}"
    );
    assert_eq!(explanation["got"], "WIN 1 2", "{doc}");
    assert!(explanation["misconception"].is_null(), "{doc}");
    let certificate = explanation["certificate"]["en"].as_str().unwrap();
    assert!(
        certificate.contains("The program's bite (1, 2) loses"),
        "{certificate}"
    );
    assert!(
        certificate.contains("a winning move is WIN"),
        "{certificate}"
    );
    assert!(
        explanation["certificate"]["vi"]
            .as_str()
            .unwrap()
            .contains("Nước cắn (1, 2) của chương trình thua")
    );
}

#[test]
fn a_randomly_wrong_program_gets_a_counterexample_and_no_misconception() {
    if !tools_available("a randomly wrong program") {
        return;
    }
    let doc = judge_explained("nim", &programs().join("explain/nim-random-wrong.c"), &[]);
    let explanation = &doc["explanation"];
    // It flips its answer where (7 × total + piles) mod 11 = 3: one pile of 5 is the first.
    assert_eq!(explanation["position"], "1 5\n", "{doc}");
    assert_eq!(
        (&explanation["expected"], &explanation["got"]),
        (&"Yes".into(), &"No".into())
    );
    assert!(explanation["misconception"].is_null(), "{doc}");
    let certificate = explanation["certificate"]["en"].as_str().unwrap();
    assert!(
        certificate.contains("Taking 5 from the pile of 5"),
        "{certificate}"
    );
    assert!(
        explanation["certificate"]["vi"]
            .as_str()
            .unwrap()
            .contains("Người đi trước thắng")
    );
}

#[test]
fn a_program_wrong_only_on_huge_inputs_gets_the_honest_nothing() {
    if !tools_available("wrong only on huge inputs") {
        return;
    }
    let doc = judge_explained(
        "wythoff-big",
        &programs().join("explain/wythoff-big-overflow.c"),
        &[],
    );
    assert_eq!(doc["verdict"], "wrong_answer", "{doc}");
    let explanation = &doc["explanation"];
    assert!(explanation["position"].is_null(), "{doc}");
    assert!(explanation["misconception"].is_null(), "{doc}");
    assert!(explanation["runs"].as_u64().unwrap() <= 64, "{doc}");
}

#[test]
fn a_crash_is_traced_to_the_game_that_causes_it() {
    if !tools_available("a crash") {
        return;
    }
    let doc = judge_explained(
        "nim",
        &programs().join("explain/nim-runtime-error.c"),
        &["--stop-at-first-failure"],
    );
    let explanation = &doc["explanation"];
    assert_eq!(explanation["position"], "2 1 1\n", "{doc}");
    assert_eq!(explanation["got"], "runtime error (exit code 3)", "{doc}");
    assert!(explanation["runs"].as_u64().unwrap() <= 64, "{doc}");
}

#[test]
fn the_bounds_hold_for_programs_that_sleep_or_loop_on_small_games() {
    if !tools_available("sleeping and looping programs") {
        return;
    }
    for (file, game) in [("nim-sleeps.c", "1 2\n"), ("nim-loops.py", "1 3\n")] {
        let doc = judge_explained(
            "nim",
            &programs().join("explain").join(file),
            &["--stop-at-first-failure"],
        );
        let explanation = &doc["explanation"];
        assert!(
            explanation["runs"].as_u64().unwrap() <= 64,
            "{file}: {explanation}"
        );
        // 5 s of CPU, and each run's limit is cut to what is left.
        assert!(
            explanation["cpu_ms"].as_u64().unwrap() <= 5_100,
            "{file}: {explanation}"
        );
        // Within the budget the guilty game is still found when it fails alone.
        if let Some(position) = explanation["position"].as_str() {
            assert_eq!(position, game, "{file}: {explanation}");
            assert_eq!(
                explanation["got"], "time limit exceeded",
                "{file}: {explanation}"
            );
        }
    }
}

#[test]
fn stress_finds_and_names_the_mistake_before_submitting() {
    if !tools_available("stress") {
        return;
    }
    let cache = cache_dir();
    let wrong = programs().join("misconceptions/nim/sum-parity.c");
    let out = grundy(
        &[
            "stress",
            "--problem",
            "nim",
            "--seed",
            "7",
            "--json",
            "--cache-dir",
            cache.to_str().unwrap(),
            wrong.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!out.status.success());
    let doc = json(&out);
    assert_eq!(doc["misconception"]["id"], "sum-parity", "{doc}");
    assert!(size("nim", doc["position"].as_str().unwrap()) <= size("nim", "1 2\n"));

    let right = programs().join("explain/nim-correct.cpp");
    let out = grundy(
        &[
            "stress",
            "--problem",
            "nim",
            "--count",
            "300",
            "--cache-dir",
            cache.to_str().unwrap(),
            right.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("All 300 random games agree"), "{text}");
}
