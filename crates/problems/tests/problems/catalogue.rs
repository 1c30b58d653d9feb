//! The whole built-in catalogue, verified as `grundy problems verify` does.

use std::sync::atomic::{AtomicUsize, Ordering};

use grundy_problems::Catalogue;
use grundy_problems::verify::verify;

#[test]
fn every_builtin_problem_verifies() {
    let catalogue = Catalogue::builtin().expect("the built-in catalogue loads");
    for family in grundy_problems::families::names() {
        assert!(
            catalogue.iter().any(|p| p.spec.family == family),
            "no built-in problem uses {family}"
        );
    }
    // Problems verify independently: spread over the cores, reported in catalogue order. This
    // is the suite's longest test, and it ran on one core while the others were done.
    let problems: Vec<_> = catalogue.iter().collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut reports: Vec<_> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(&problem) = problems.get(next.fetch_add(1, Ordering::Relaxed)) {
                        done.push((problem, verify(problem, &mut || {})));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a verification thread panicked"))
            .collect()
    });
    let position = |slug: &str| problems.iter().position(|p| p.slug() == slug);
    reports.sort_by_key(|(problem, _)| position(problem.slug()));
    let mut failures = Vec::new();
    let mut digests = Vec::new();
    for (problem, report) in reports {
        eprintln!(
            "{:<24} {:>3} tests {:>5} small positions {:>2} samples {:?} in {:.2?}",
            report.slug,
            report.tests,
            report.small_positions,
            report.samples,
            report.agreements,
            report.elapsed
        );
        assert!(report.samples > 0, "{}: no samples", report.slug);
        assert!(
            report.small_positions > 0,
            "{}: no small positions",
            report.slug
        );
        // The reference must meet an independent method on every small position.
        assert!(
            report
                .small_coverage
                .values()
                .any(|&n| n == report.small_positions),
            "{}: no method covers every small position: {:?}",
            report.slug,
            report.small_coverage
        );
        failures.extend(
            report
                .failures
                .iter()
                .map(|f| format!("{}: {f}", report.slug)),
        );
        digests.push(format!(
            "{} {} {}",
            report.slug, problem.spec.version, report.digest
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    check_digests(digests);
}

/// A problem whose output lines each answer one game names that unit as its statement does,
/// so that the checker's messages (`game 2 (line 2) is wrong`) speak the statement's words.
#[test]
fn what_a_line_answers_is_what_the_statement_calls_it() {
    let catalogue = Catalogue::builtin().unwrap();
    let mut named = 0;
    for problem in catalogue.iter() {
        let unit = &problem.spec.checker.line_answers;
        if unit == grundy_problems::spec::PLAIN_LINES {
            continue;
        }
        named += 1;
        let statement = problem.statement("en").unwrap();
        let section = |heading: &str| {
            statement
                .split(&format!("## {heading}"))
                .nth(1)
                .and_then(|rest| rest.split("\n## ").next())
                .unwrap_or_else(|| panic!("{}: no {heading} section", problem.slug()))
        };
        let (input, output) = (section("Input"), section("Output"));
        assert!(
            output.contains("line")
                && (output.contains(unit.as_str()) || input.contains(unit.as_str())),
            "{}: the statement does not speak of one output line per {unit}: {output}",
            problem.slug()
        );
    }
    assert!(named >= 10, "only {named} problems say what a line answers");
}

/// The test sets students are judged on must not change under a problem version: a change to a
/// generator or a reference shows here, and must come with a version bump in `problem.toml` and
/// the new digest recorded (`GRUNDY_UPDATE_DIGESTS=1 cargo test -p grundy-problems --test
/// catalogue` rewrites the file).
fn check_digests(mut digests: Vec<String>) {
    digests.sort();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testset-digests.txt");
    let computed = digests.join("\n") + "\n";
    if std::env::var_os("GRUNDY_UPDATE_DIGESTS").is_some() {
        std::fs::write(&path, &computed).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let recorded: std::collections::HashMap<&str, (&str, &str)> = recorded
        .lines()
        .filter_map(|l| {
            let mut parts = l.split(' ');
            Some((parts.next()?, (parts.next()?, parts.next()?)))
        })
        .collect();
    for line in &digests {
        let mut parts = line.split(' ');
        let (slug, version, digest) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        match recorded.get(slug) {
            Some(&(v, d)) if v == version && d == digest => {}
            Some(&(v, _)) if v == version => panic!(
                "{slug}: the tests of version {version} changed; bump its version and record the new digest"
            ),
            _ => panic!(
                "{slug}: no digest recorded for version {version} in {}",
                path.display()
            ),
        }
    }
}

mod packages {
    use super::*;
    use std::fs;
    use std::path::Path;

    /// A copy of a built-in problem folder in a temporary catalogue.
    fn copy_of(slug: &str) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../problems")
            .join(slug);
        copy_dir(&source, &root.path().join(slug));
        root
    }

    fn copy_dir(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            if path.is_dir() {
                copy_dir(&path, &target);
            } else {
                fs::copy(&path, &target).unwrap();
            }
        }
    }

    fn load_error(root: &tempfile::TempDir) -> String {
        Catalogue::from_dir(root.path()).unwrap_err().to_string()
    }

    fn edit(root: &tempfile::TempDir, file: &str, from: &str, to: &str) {
        let path = root.path().join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }

    #[test]
    fn an_unchanged_copy_loads_and_equals_the_builtin() {
        let root = copy_of("stones");
        let catalogue = Catalogue::from_dir(root.path()).unwrap();
        let copy = catalogue.get("stones").unwrap();
        let builtin = Catalogue::builtin().unwrap();
        let original = builtin.get("stones").unwrap();
        assert_eq!(copy.spec, original.spec);
        assert_eq!(copy.samples, original.samples);
        assert_eq!(
            copy.generate_test(2, 3).unwrap(),
            original.generate_test(2, 3).unwrap()
        );
    }

    #[test]
    fn a_wrong_sample_answer_fails_verification() {
        let root = copy_of("stones");
        fs::write(root.path().join("stones/samples/02.ans"), "First\n").unwrap();
        let catalogue = Catalogue::from_dir(root.path()).unwrap();
        let report = verify(catalogue.get("stones").unwrap(), &mut || {});
        assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
        assert!(report.failures[0].starts_with("sample 02: the reference does not reproduce it"));
    }

    #[test]
    fn broken_packages_are_refused_with_a_reason() {
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                "stones/problem.toml",
                "family = \"stones\"",
                "family = \"chess\"",
                "unknown family \"chess\"",
            ),
            (
                "stones/problem.toml",
                "points = 70",
                "points = 60",
                "subtask points add up to 90, not 100",
            ),
            (
                "stones/problem.toml",
                "max_k = 100000",
                "max_k = 100001",
                "subtask 2 generator: max_k = 100001 must lie in 1..=100000",
            ),
            (
                "stones/problem.toml",
                "max_k = 20",
                "max_k = 20\nmax_q = 3",
                "subtask 1 generator: unknown field `max_q`",
            ),
            (
                "stones/problem.toml",
                "slug = \"stones\"",
                "slug = \"pebbles\"",
                "but the folder is \"stones\"",
            ),
            (
                "stones/problem.toml",
                "time_limit_ms = 2000",
                "time_limit_ms = \"2s\"",
                "problem.toml: invalid type",
            ),
            (
                "stones/problem.toml",
                "tests = 10",
                "tests = 0",
                "subtask 1: tests must lie in 1..=100",
            ),
            (
                "stones/problem.toml",
                "kind = \"tokens\"",
                "kind = \"reference\"",
                "the stones family has no reference checker",
            ),
            (
                "stones/problem.toml",
                "case_sensitive = true",
                "case_sensitive = true\nline_answers = \"Game 1\"",
                "checker.line_answers must be one to three lower-case words",
            ),
            (
                "stones/samples/01.in",
                "2 4\n",
                "2 4 \n",
                "samples/01.in: line 1: no space is allowed",
            ),
        ];
        for &(file, from, to, expected) in cases {
            let root = copy_of("stones");
            edit(&root, file, from, to);
            let message = load_error(&root);
            assert!(
                message.contains(expected),
                "{file}: {from:?} -> {to:?}: got {message:?}"
            );
        }
    }

    #[test]
    fn missing_and_stray_files_are_refused() {
        let root = copy_of("stones");
        fs::remove_file(root.path().join("stones/samples/01.ans")).unwrap();
        assert!(load_error(&root).contains("samples/01.in has no samples/01.ans"));

        let root = copy_of("stones");
        fs::remove_file(root.path().join("stones/statement.en.md")).unwrap();
        assert!(load_error(&root).contains("statement.en.md is missing"));

        let root = copy_of("stones");
        fs::write(root.path().join("stones/statement.fr.md"), "# Pierres\n").unwrap();
        assert!(load_error(&root).contains("unknown language \"fr\""));

        let root = copy_of("stones");
        fs::write(root.path().join("stones/notes.txt"), "todo\n").unwrap();
        assert!(load_error(&root).contains("unexpected file notes.txt"));
    }
}

mod generation {
    use super::*;

    #[test]
    fn tests_are_reproducible_and_distinct() {
        let catalogue = Catalogue::builtin().unwrap();
        for problem in catalogue.iter() {
            let last = problem.spec.subtasks.len();
            let tests = problem.spec.subtasks[last - 1].tests;
            let a = problem.generate_test(last, tests).unwrap();
            assert_eq!(
                a,
                problem.generate_test(last, tests).unwrap(),
                "{}",
                problem.slug()
            );
            let inputs: std::collections::HashSet<String> =
                problem.tests().map(|t| t.input).collect();
            // Random tests must not collapse into a handful of repeats.
            assert!(
                inputs.len() * 10 >= problem.test_count() * 9,
                "{}: only {} distinct inputs",
                problem.slug(),
                inputs.len()
            );
        }
    }

    #[test]
    fn tests_outside_the_set_do_not_exist() {
        let catalogue = Catalogue::builtin().unwrap();
        let stones = catalogue.get("stones").unwrap();
        let last = stones.spec.subtasks[1].tests;
        for (subtask, index) in [(0, 1), (1, 0), (3, 1), (2, last + 1), (usize::MAX, 1)] {
            assert_eq!(
                stones.generate_test(subtask, index),
                None,
                "({subtask}, {index})"
            );
        }
        assert!(stones.generate_test(2, last).is_some());
    }

    #[test]
    fn answers_cannot_be_guessed() {
        let catalogue = Catalogue::builtin().unwrap();
        for problem in catalogue.iter() {
            for (number, subtask) in problem.spec.subtasks.iter().enumerate() {
                let answers: std::collections::HashSet<String> = (1..=subtask.tests)
                    .map(|i| problem.generate_test(number + 1, i).unwrap().answer)
                    .collect();
                assert!(
                    answers.len() >= 2,
                    "{} subtask {}: every test has the same answer",
                    problem.slug(),
                    number + 1
                );
            }
        }
        let count = |slug: &str, word: &str| {
            catalogue
                .get(slug)
                .unwrap()
                .tests()
                .filter(|t| t.answer == format!("{word}\n"))
                .count()
        };
        for word in ["Win", "Draw", "Lose"] {
            assert!(
                count("spc4", word) >= 2,
                "spc4: fewer than two {word} tests"
            );
        }
        assert!(
            count("stones", "Second") >= 6,
            "stones: too few losing piles"
        );
        // sc4: a rule of thumb for M ≥ N/2 (answer min(M, N)) must fail somewhere in each subtask.
        let sc4 = catalogue.get("sc4").unwrap();
        for subtask in 1..=2 {
            let guess_fails = (1..=sc4.spec.subtasks[subtask - 1].tests).any(|i| {
                let test = sc4.generate_test(subtask, i).unwrap();
                let nm: Vec<u32> = test
                    .input
                    .split_whitespace()
                    .map(|t| t.parse().unwrap())
                    .collect();
                test.answer != format!("{}\n", nm[0].min(nm[1]))
            });
            assert!(guess_fails, "sc4 subtask {subtask} passes with min(N, M)");
        }
    }

    /// Every subtask of `slug` has a test on which `wrong` (a plausible mistaken solution,
    /// reading the input text) prints something else than the reference.
    fn every_subtask_catches(slug: &str, wrong: fn(&str) -> String) {
        let catalogue = Catalogue::builtin().unwrap();
        let problem = catalogue.get(slug).unwrap();
        for (number, subtask) in problem.spec.subtasks.iter().enumerate() {
            let caught = (1..=subtask.tests).any(|i| {
                let test = problem.generate_test(number + 1, i).unwrap();
                wrong(&test.input)
                    .split_whitespace()
                    .ne(test.answer.split_whitespace())
            });
            assert!(
                caught,
                "{slug} subtask {}: the wrong solution passes every test",
                number + 1
            );
        }
    }

    /// The games of a "T, then n and a line of numbers" input.
    fn games(input: &str) -> Vec<Vec<u64>> {
        input
            .lines()
            .skip(2)
            .step_by(2)
            .map(|l| l.split(' ').map(|t| t.parse().unwrap()).collect())
            .collect()
    }

    fn words(wins: impl Iterator<Item = bool>, yes: &str, no: &str) -> String {
        wins.map(|w| if w { yes } else { no })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn plausible_wrong_solutions_fail() {
        // Staircase Nim by the xor of p_i − i over the sorted positions.
        every_subtask_catches("staircase-nim", |input| {
            let wins = games(input).into_iter().map(|mut p| {
                p.sort_unstable();
                p.iter()
                    .enumerate()
                    .fold(0, |a, (i, &x)| a ^ (x - i as u64 - 1))
                    != 0
            });
            words(wins, "Georgia will win", "Bob will win")
        });
        // Lasker's Nim as plain Nim.
        every_subtask_catches("lasker-nim", |input| {
            words(
                games(input)
                    .into_iter()
                    .map(|p| p.iter().fold(0, |a, &x| a ^ x) != 0),
                "Alice",
                "Bob",
            )
        });
        // Misère Nim without the all-ones case.
        every_subtask_catches("misere-nim", |input| {
            words(
                games(input)
                    .into_iter()
                    .map(|p| p.iter().fold(0, |a, &x| a ^ x) != 0),
                "John",
                "Brother",
            )
        });
        // Mock Turtles with evil numbers instead of odious ones.
        every_subtask_catches("coin-flipping", |input| {
            let rows = input.lines().skip(2).step_by(2);
            let wins = rows.map(|row| {
                row.chars()
                    .enumerate()
                    .filter(|&(_, c)| c == 'H')
                    .fold(0u64, |a, (i, _)| {
                        let m = i as u64;
                        a ^ (2 * m + u64::from(m.count_ones() % 2 == 1))
                    })
                    != 0
            });
            words(wins, "First", "Second")
        });
        // Moore's Nim with the seed's "mod k" rule.
        every_subtask_catches("nim-k", |input| {
            let lines: Vec<&str> = input.lines().collect();
            let wins = lines[1..].chunks(2).map(|pair| {
                let k: usize = pair[0].split(' ').nth(1).unwrap().parse().unwrap();
                let piles: Vec<u64> = pair[1].split(' ').map(|t| t.parse().unwrap()).collect();
                (0..32).any(|bit| piles.iter().filter(|&&p| p >> bit & 1 == 1).count() % k != 0)
            });
            words(wins, "First", "Second")
        });
    }

    #[test]
    fn the_first_test_of_each_last_subtask_reaches_the_limits() {
        let catalogue = Catalogue::builtin().unwrap();
        let first_line = |slug: &str, subtask: usize| {
            let test = catalogue
                .get(slug)
                .unwrap()
                .generate_test(subtask, 1)
                .unwrap();
            test.input.lines().next().unwrap().to_string()
        };
        assert_eq!(first_line("stones", 2), "100 100000");
        assert_eq!(first_line("spc4", 2), "100 100 100");
        assert_eq!(first_line("dag-game", 3), "1000000 999999");
        assert_eq!(first_line("sc4", 2), "100 1");
        let wythoff = catalogue
            .get("wythoff")
            .unwrap()
            .generate_test(2, 1)
            .unwrap();
        assert!(wythoff.input.lines().any(|l| l == "0 0"));
        assert!(
            wythoff.input.lines().any(|l| l == "165580140 267914295"),
            "the pair doubles get wrong"
        );
        let nim = catalogue.get("nim").unwrap().generate_test(1, 1).unwrap();
        assert_eq!(nim.input.lines().count(), 10_000);
        assert!(nim.input.lines().all(|l| l.split(' ').count() == 21));
    }
}

/// The built-in octal problems carry the statements and sample the family generates from their
/// code, so that what a teacher's code produces is what the catalogue shows.
/// `GRUNDY_UPDATE_STATEMENTS=1` rewrites them.
#[test]
fn octal_problems_carry_their_generated_statements() {
    use grundy_problems::families::octal::{self, Octal};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../problems");
    let catalogue = Catalogue::builtin().unwrap();
    let octal_problems: Vec<_> = catalogue
        .iter()
        .filter(|p| p.spec.family == "octal")
        .collect();
    assert_eq!(octal_problems.len(), 3);
    for problem in octal_problems {
        let family = Octal::from_table(problem.spec.game.as_ref().unwrap()).unwrap();
        for lang in ["en", "vi"] {
            let generated = octal::statement(&family, problem.title(lang), lang);
            let path = root
                .join(problem.slug())
                .join(format!("statement.{lang}.md"));
            if std::env::var_os("GRUNDY_UPDATE_STATEMENTS").is_some() {
                std::fs::write(&path, &generated).unwrap();
            } else {
                assert_eq!(
                    problem.statement(lang),
                    Some(generated.as_str()),
                    "{path:?}"
                );
            }
        }
    }
}
