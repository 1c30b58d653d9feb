//! The whole built-in catalogue, verified as `grundy problems verify` does.

use grundy_problems::Catalogue;
use grundy_problems::verify::verify;

#[test]
fn every_builtin_problem_verifies() {
    let catalogue = Catalogue::builtin().expect("the built-in catalogue loads");
    assert!(catalogue.len() >= 9);
    let mut failures = Vec::new();
    for problem in catalogue.iter() {
        let report = verify(problem, &mut || {});
        eprintln!(
            "{:<14} {:>3} tests {:>5} small positions {:>2} samples {:?} in {:.2?}",
            report.slug,
            report.tests,
            report.small_positions,
            report.samples,
            report.agreements,
            report.elapsed
        );
        assert!(report.samples > 0, "{}: no samples", report.slug);
        assert!(
            !report.agreements.is_empty(),
            "{}: nothing was cross-checked",
            report.slug
        );
        failures.extend(
            report
                .failures
                .iter()
                .map(|f| format!("{}: {f}", report.slug)),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
