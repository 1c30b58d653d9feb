//! A deadline burst at class size (40 students × 2 submissions within 10 s, mostly C and Python
//! with some C++): on SQLite with `grundy serve` judging in-process, and on PostgreSQL with two
//! `grundy worker` processes, one killed halfway and restarted. Nothing is lost, each submission
//! gets its expected verdict and score and is judged once (twice only if the kill cut its first
//! attempt short), the gradebook totals are right and the queue drains. The scenario and its
//! checks are in `common/burst.rs`; `benches/burst.rs` runs it at full size and reports rates.

#[allow(dead_code)] // the benchmark uses other parts
#[path = "common/burst.rs"]
mod burst;
mod common;

use std::time::Duration;

use burst::{Backend, Mix, Outcome, Scenario};
use common::{isolation_available, tool_available};

fn scenario() -> Scenario {
    Scenario {
        students: 40,
        per_student: 2,
        window: Duration::from_secs(10),
        mix: Mix::Light,
        lease_secs: 10,
        timeout: Duration::from_secs(8 * 60),
        progress: false,
        warm: false,
    }
}

/// Root for the sandbox, and each compiler or interpreter the mix sends programs in.
fn can_run(test: &str) -> bool {
    if !isolation_available(test) {
        return false;
    }
    scenario().mix.languages().into_iter().all(|language| {
        let tool = match language {
            "c" => "/usr/bin/gcc",
            "cpp20" => "/usr/bin/g++",
            "python3" => "/usr/bin/python3",
            "javascript" => "/usr/bin/node",
            other => panic!("{test}: which program does {other} need?"),
        };
        tool_available(test, tool)
    })
}

fn assert_holds(outcome: &Outcome) {
    for line in outcome.report() {
        eprintln!("{line}");
    }
    assert!(
        outcome.notes.is_empty(),
        "every language of the mix was available: {:?}",
        outcome.notes
    );
    assert!(
        outcome.failures.is_empty(),
        "{} invariants broken:\n{}",
        outcome.failures.len(),
        outcome.failures.join("\n")
    );
    assert_eq!(
        outcome.submissions, 80,
        "every submission was accepted (40 students × 2)"
    );
}

#[test]
fn a_burst_on_sqlite_is_judged_once_each_and_graded_right() {
    let test = "deadline burst on SQLite";
    if !can_run(test) {
        return;
    }
    let outcome = burst::run(&Backend::Sqlite, &scenario()).unwrap();
    assert_holds(&outcome);
    assert_eq!(
        outcome.reruns, 0,
        "nothing was killed, so nothing ran twice"
    );
}

#[test]
fn a_burst_on_postgres_survives_a_worker_killed_halfway() {
    let test = "deadline burst on PostgreSQL";
    if !can_run(test) {
        return;
    }
    let database = match burst::postgres("test").unwrap() {
        Ok(database) => database,
        Err(reason) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{test}: PostgreSQL is required in CI: {reason}");
            }
            eprintln!("SKIPPED {test}: {reason}");
            return;
        }
    };
    let outcome = burst::run(&Backend::Postgres(database), &scenario()).unwrap();
    assert_holds(&outcome);
    assert!(
        outcome.reruns >= 1,
        "the kill cut at least one attempt short, and its submission was judged again"
    );
}
