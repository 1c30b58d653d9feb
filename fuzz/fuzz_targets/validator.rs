//! One family's strict input validator, the family named by `GRUNDY_FUZZ_FAMILY` (scripts/fuzz
//! runs it once per family, each with its own corpus). The input is a test's text, optionally
//! followed by a NUL byte and a contestant's output.
//!
//! The contract: validation never panics and names a line of the text; what it accepts keeps the
//! format's whole-file rules, the reference solves it, and where the family judges answers with
//! its own checker, the checker accepts the reference answer and survives any output.

#![no_main]

use grundy_problems::check::CheckOutcome;
use grundy_problems::families;
use grundy_problems::family::Solver;
use grundy_problems::strict::StrictReader;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, LazyLock};

static SOLVER: LazyLock<Arc<dyn Solver>> = LazyLock::new(|| {
    let name = std::env::var("GRUNDY_FUZZ_FAMILY").unwrap_or_default();
    families::by_name(&name).unwrap_or_else(|| {
        panic!(
            "set GRUNDY_FUZZ_FAMILY to one of: {}",
            families::names().collect::<Vec<_>>().join(" ")
        )
    })
});

fuzz_target!(|data: &[u8]| {
    let (input, output) = match data.iter().position(|&b| b == 0) {
        Some(end) => (&data[..end], &data[end + 1..]),
        None => (data, &[][..]),
    };
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    if let Err(e) = SOLVER.validate(text) {
        let lines = text.matches('\n').count();
        assert!(
            (1..=lines + 1).contains(&e.line),
            "{e}: the text has {lines} lines"
        );
        return;
    }
    assert!(
        StrictReader::new(text).is_ok(),
        "accepted against the whole-file rules"
    );
    let answer = SOLVER
        .solve_text(text)
        .expect("an input that validates is solved");
    if SOLVER.has_reference_checker() {
        assert_eq!(
            SOLVER.check_text(text, &answer),
            CheckOutcome::Accepted,
            "the checker refuses the reference answer"
        );
        let outcome = SOLVER.check_text(text, &String::from_utf8_lossy(output));
        assert!(
            !matches!(outcome, CheckOutcome::CheckerFailed(_)),
            "{outcome:?}"
        );
    }
});
