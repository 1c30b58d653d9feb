//! Generating and solving the full test set of each problem (target: under 2 s for any one), and
//! validating the largest input of the biggest formats.

use criterion::{Criterion, criterion_group, criterion_main};
use grundy_problems::Catalogue;

fn testsets(c: &mut Criterion) {
    let catalogue = Catalogue::builtin().expect("the built-in catalogue loads");
    let mut group = c.benchmark_group("generate + solve full test set");
    group.sample_size(10);
    for problem in catalogue.iter() {
        group.bench_function(problem.slug(), |b| {
            b.iter(|| {
                problem
                    .tests()
                    .map(|t| t.input.len() + t.answer.len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("validate the largest test");
    group.sample_size(10);
    for (slug, subtask) in [
        ("dag-game", 3),
        ("parigame", 2),
        ("nim", 1),
        ("wythoff", 2),
        ("lasker-nim", 3),
        ("every-sg", 2),
    ] {
        let problem = catalogue.get(slug).expect("built in");
        let solver = problem.solver().expect("a built-in problem has a family");
        let test = problem
            .generate_test(subtask, 1)
            .expect("every subtask has a first test");
        group.bench_function(slug, |b| b.iter(|| solver.validate(&test.input).is_ok()));
    }
    group.finish();
}

criterion_group!(benches, testsets);
criterion_main!(benches);
