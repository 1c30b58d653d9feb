//! A teacher's request for a problem of an octal code (`POST /api/v1/games`), whose answer is
//! promised within 5 s (`octal::REQUEST_BUDGET`), timed the old way and the new way in one run:
//!
//! - before: `problem_files` (the values within the budget) and then `Problem::from_files`,
//!   which computed the values a second time, without a budget;
//! - after: `octal::problem`, which builds the problem from the values computed once.
//!
//! The requests: a code with a period proven early (0.137, Dawson's chess, the default range),
//! an open code (0.6) to 31 110 heaps, and the 30-digit code of splits to 31 110, which
//! is refused after `VALUES_BUDGET` (4 s) whichever way. Wall-clock time, best of three.
//!
//! `cargo bench -p grundy-problems --bench octal_request`

use grundy_problems::Problem;
use grundy_problems::families::octal::{self, OctalRequest};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn request(code: &str, upto: Option<usize>) -> OctalRequest {
    OctalRequest {
        slug: "bench".into(),
        title: BTreeMap::from([("en".into(), "Bench".into())]),
        code: code.into(),
        upto,
        seed: 1,
    }
}

fn best_of_three(mut f: impl FnMut() -> bool) -> (Duration, bool) {
    let mut best = Duration::MAX;
    let mut made = false;
    for _ in 0..3 {
        let started = Instant::now();
        made = f();
        best = best.min(started.elapsed());
    }
    (best, made)
}

fn main() {
    let long = format!("0.{}", "7".repeat(30));
    for (code, upto) in [
        ("0.137", None),
        ("0.6", Some(31_110)),
        (long.as_str(), Some(31_110)),
    ] {
        let request = request(code, upto);
        let (before, made) = best_of_three(|| {
            octal::problem_files(&request)
                .ok()
                .and_then(|files| Problem::from_files("bench", &files).ok())
                .is_some()
        });
        let (after, _) = best_of_three(|| octal::problem(&request).is_ok());
        println!(
            "{code} upto {upto:?}: {} — before {:.3} s, after {:.3} s ({:.2}×)",
            if made { "made" } else { "refused" },
            before.as_secs_f64(),
            after.as_secs_f64(),
            before.as_secs_f64() / after.as_secs_f64()
        );
    }
}
