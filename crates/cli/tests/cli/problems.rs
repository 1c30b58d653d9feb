//! `grundy problems …` run as a user would run it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn grundy(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env_remove("GRUNDY_PROBLEMS_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The slugs in the first column of a `problems list` table.
fn listed_slugs(output: &str) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| {
            line.strip_prefix('│')?
                .split('┆')
                .next()
                .map(|cell| cell.trim().to_string())
        })
        .filter(|cell| !cell.is_empty() && cell != "slug")
        .collect()
}

#[test]
fn list_shows_the_catalogue_and_filters() {
    let all = grundy(&["problems", "list"], "");
    assert!(all.status.success());
    let slugs = listed_slugs(&stdout(&all));
    assert!(slugs.len() >= 25, "{slugs:?}");
    for slug in [
        "stones", "parigame", "spc4", "sc4", "dag-game", "bash", "nim", "wythoff", "chomp", "vika",
    ] {
        assert!(slugs.iter().any(|s| s == slug), "{slug} missing");
    }
    assert!(stdout(&all).contains(&format!("{0} of {0} problems", slugs.len())));

    let filtered = grundy(&["problems", "list", "--tag", "wythoff"], "");
    assert_eq!(
        listed_slugs(&stdout(&filtered)),
        ["wythoff", "wythoff-play", "wythoff-big"]
    );
    assert!(stdout(&filtered).contains(&format!("3 of {} problems", slugs.len())));

    let easy = listed_slugs(&stdout(&grundy(
        &["problems", "list", "--difficulty", "easy"],
        "",
    )));
    assert!(easy.contains(&"stones".to_string()) && !easy.contains(&"chomp".to_string()));
    let typo = grundy(&["problems", "list", "--difficulty", "Easy"], "");
    assert_eq!(typo.status.code(), Some(2), "clap refuses unknown values");
}

#[test]
fn show_prints_the_statement_in_the_asked_language() {
    let en = grundy(&["problems", "show", "stones"], "");
    assert!(stdout(&en).starts_with("# Stones"));
    assert!(stdout(&en).contains("--- sample 01 input ---\n2 4\n2 3\n"));
    let vi = grundy(&["problems", "show", "stones", "--lang", "vi"], "");
    assert!(stdout(&vi).starts_with("# Bốc đá"));
    let missing = grundy(&["problems", "show", "stones", "--lang", "fr"], "");
    assert!(!missing.status.success());
    assert!(stderr(&missing).contains("no statement in \"fr\" (available: en, vi)"));
    let unknown = grundy(&["problems", "show", "chess"], "");
    assert_eq!(unknown.status.code(), Some(1));
    assert!(stderr(&unknown).contains("no problem named \"chess\""));
}

#[test]
fn solve_validates_before_answering() {
    let ok = grundy(&["problems", "solve", "stones"], "3 21\n1 2 3\n");
    assert!(ok.status.success());
    assert_eq!(stdout(&ok), "First\n");
    let bad = grundy(&["problems", "solve", "stones"], "2 4\n3 2\n");
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout(&bad), "");
    assert_eq!(
        stderr(&bad).trim(),
        "invalid input: line 2: a_2 = 2 must be greater than a_1 = 3 (the values are strictly increasing)"
    );
    // k = 381966011250105152 gives the losing pair (618033988749894848, 10^18): a pair that
    // floating point gets wrong.
    let huge = grundy(
        &["problems", "solve", "wythoff-big"],
        "1\n1000000000000000000 618033988749894848\n",
    );
    assert_eq!(stdout(&huge), "B\n", "{}", stderr(&huge));
    let not_utf8 = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["problems", "solve", "sc4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"5 2\n\xff\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(not_utf8.status.code(), Some(1));
    assert_eq!(
        stderr(&not_utf8).trim(),
        "invalid input: line 2: the input is not UTF-8 text"
    );
}

#[test]
fn tests_writes_every_subtask_and_the_answers_follow_the_samples_logic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stones");
    let written = grundy(
        &[
            "problems",
            "tests",
            "stones",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(written.status.success(), "{}", stderr(&written));
    let count = |sub: &str| std::fs::read_dir(out.join(sub)).unwrap().count();
    assert_eq!(count("samples"), 12);
    assert_eq!(count("1-small"), 20);
    assert_eq!(count("2-full"), 28);
    assert_eq!(
        std::fs::read_to_string(out.join("samples/04.in")).unwrap(),
        "3 20\n1 2 3\n"
    );

    // Every answer is what an independent solution of the official sample logic prints: a
    // position wins iff some move reaches a losing one.
    for sub in ["1-small", "2-full"] {
        for n in 1..=count(sub) / 2 {
            let input = std::fs::read_to_string(out.join(sub).join(format!("{n:02}.in"))).unwrap();
            let answer =
                std::fs::read_to_string(out.join(sub).join(format!("{n:02}.ans"))).unwrap();
            assert_eq!(answer, independent_stones(&input), "{sub}/{n:02}");
        }
    }
}

fn independent_stones(input: &str) -> String {
    let numbers: Vec<usize> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (k, moves) = (numbers[1], &numbers[2..]);
    let mut losing = vec![true; k + 1];
    for stones in 1..=k {
        losing[stones] = !moves.iter().any(|&m| m <= stones && losing[stones - m]);
    }
    if losing[k] { "Second\n" } else { "First\n" }.to_string()
}

#[test]
fn verify_reports_success_and_failure_through_the_exit_status() {
    let good = grundy(&["problems", "verify", "sc4"], "");
    assert!(good.status.success(), "{}", stderr(&good));
    assert!(stdout(&good).contains("all 1 problems verified"));

    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems/sc4");
    let copy = dir.path().join("sc4");
    std::fs::create_dir_all(copy.join("samples")).unwrap();
    for file in [
        "problem.toml",
        "statement.en.md",
        "statement.vi.md",
        "samples/01.in",
        "samples/01.ans",
    ] {
        std::fs::copy(source.join(file), copy.join(file)).unwrap();
    }
    std::fs::write(copy.join("samples/01.ans"), "4\n").unwrap();
    let bad = grundy(
        &[
            "problems",
            "--problems-dir",
            dir.path().to_str().unwrap(),
            "verify",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("sc4: sample 01: the reference does not reproduce it"),
        "{}",
        stderr(&bad)
    );
    assert!(stderr(&bad).contains("1 of 1 problems failed verification"));
}
