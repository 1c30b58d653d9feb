//! Each reference solver at the largest limits of its problem.
//! Targets: the DAG game with n = m = 10⁶ under 0.5 s; Stones at N = 100, K = 10⁵ under 10 ms.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy_games::graph::{self, Graph};
use grundy_games::{
    cards, chestnuts, chomp, coins, every, geography, hackenbush, multiple, nim, parigame,
    subtraction, wythoff,
};
use std::hint::black_box;

/// A small deterministic generator, so the bench needs no dependency beyond criterion.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

fn dag_game(c: &mut Criterion) {
    let n = 1_000_000u32;
    let mut rng = SplitMix(1);
    let path: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    let random: Vec<(u32, u32)> = (0..n)
        .map(|_| {
            let u = rng.below(u64::from(n - 1)) as u32;
            let v = u + 1 + rng.below(u64::from((n - 1 - u).min(10))) as u32;
            (u, v)
        })
        .collect();
    let mut group = c.benchmark_group("dag-game n=m=1e6");
    group.sample_size(10);
    for (name, edges) in [("path", &path), ("random deep", &random)] {
        group.bench_with_input(
            BenchmarkId::new("build + retrograde", name),
            edges,
            |b, edges| {
                b.iter(|| {
                    let g = Graph::from_edges(n as usize, edges);
                    graph::outcomes(&g).iter().filter(|o| o.is_win()).count()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("build + grundy", name),
            edges,
            |b, edges| {
                b.iter(|| {
                    graph::grundy_values(&Graph::from_edges(n as usize, edges))
                        .unwrap()
                        .len()
                })
            },
        );
    }
    group.finish();
}

fn stones(c: &mut Criterion) {
    let mut group = c.benchmark_group("stones N=100 K=1e5");
    // Moves 1..=100 make `any` stop early; the largest 100 values make every position scan all.
    let small: Vec<usize> = (1..=100).collect();
    let large: Vec<usize> = (99_901..=100_000).collect();
    let mut rng = SplitMix(2);
    let mut random: Vec<usize> = (0..100).map(|_| 1 + rng.below(100_000) as usize).collect();
    random.sort_unstable();
    random.dedup();
    for (name, moves) in [
        ("1..=100", &small),
        ("largest 100", &large),
        ("random", &random),
    ] {
        group.bench_with_input(BenchmarkId::from_parameter(name), moves, |b, moves| {
            b.iter(|| subtraction::first_wins(black_box(100_000), moves))
        });
    }
    group.finish();
}

fn others(c: &mut Criterion) {
    let mut rng = SplitMix(3);
    let table: Vec<Vec<u64>> = (0..500)
        .map(|_| (0..500).map(|_| 1 + rng.below(1_000_000_000)).collect())
        .collect();
    c.bench_function("parigame n=500", |b| {
        b.iter(|| parigame::first_wins(black_box(&table)))
    });

    let values: Vec<i64> = (0..100)
        .map(|_| rng.below(2_000_000_001) as i64 - 1_000_000_000)
        .collect();
    c.bench_function("spc4 N=100 K=T=100", |b| {
        b.iter(|| cards::verdict(black_box(&values), 100, 100))
    });

    c.bench_function("sc4 N=100 M=100", |b| {
        b.iter(|| chestnuts::first_player_eats(black_box(100), 100))
    });
    c.bench_function("sc4 N=100 M=50", |b| {
        b.iter(|| chestnuts::first_player_eats(black_box(100), 50))
    });

    let pairs: Vec<(u64, u64)> = (0..10_000)
        .map(|_| {
            (
                1 + rng.below(1_000_000_000_000_000_000),
                1 + rng.below(1_000_000_000_000_000_000),
            )
        })
        .collect();
    c.bench_function("wythoff 1e4 pairs up to 1e18", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|&&(a, b)| wythoff::first_wins(a, b))
                .count()
        })
    });

    let games: Vec<Vec<u64>> = (0..10_000)
        .map(|_| (0..20).map(|_| rng.below(10_000_001)).collect())
        .collect();
    c.bench_function("nim 1e4 lines of 20 piles", |b| {
        b.iter(|| {
            games
                .iter()
                .filter(|g| nim::nim_sum(g.iter().copied()) != 0)
                .count()
        })
    });
}

fn catalogue_two(c: &mut Criterion) {
    let mut rng = SplitMix(4);
    let mut group = c.benchmark_group("second batch");
    group.sample_size(10);

    let moves: Vec<usize> = (1..=100).map(|i| i * 7 % 200 + 1).collect();
    group.bench_function("stick-game n=1e6 k=100", |b| {
        b.iter(|| subtraction::winning_table(1_000_000, black_box(&moves)).len())
    });

    let squares: Vec<usize> = (1..=316).map(|i| i * i).collect();
    group.bench_function("square-nim Grundy table to 1e5", |b| {
        b.iter(|| subtraction::grundy_table(100_000, black_box(&squares)).len())
    });

    for (n, k) in [
        (100_000_000u64, 100_000u64),
        (100_000_000, 1),
        ((1 << 31) - 1, 2),
    ] {
        group.bench_function(format!("k-multiple n={n} k={k} runs"), |b| {
            b.iter(|| multiple::smallest_winning_move(black_box(n), k))
        });
    }
    // The baseline: seed 001's construction one term at a time.
    group.bench_function("k-multiple n=100000000 k=100000 term by term", |b| {
        b.iter(|| multiple::smallest_winning_move_term_by_term(black_box(100_000_000), 100_000))
    });

    let piles: Vec<u64> = (0..1_000_000)
        .map(|_| 1 + rng.below((1 << 31) - 1))
        .collect();
    group.bench_function("lasker-nim 1e6 piles", |b| {
        b.iter(|| piles.iter().fold(0, |acc, &p| acc ^ nim::lasker_grundy(p)))
    });

    let path: Vec<(u32, u32)> = (1..100_000).map(|v| (v - 1, v)).collect();
    let random_tree: Vec<(u32, u32)> = (1..100_000u32)
        .map(|v| (rng.below(u64::from(v)) as u32, v))
        .collect();
    group.bench_function("green-hackenbush path 1e5", |b| {
        b.iter(|| hackenbush::tree_value(100_000, black_box(&path)))
    });
    group.bench_function("green-hackenbush random tree 1e5", |b| {
        b.iter(|| hackenbush::tree_value(100_000, black_box(&random_tree)))
    });

    let n = 100_000u32;
    let edges: Vec<(u32, u32)> = (0..200_000)
        .map(|_| {
            let u = rng.below(u64::from(n - 1)) as u32;
            (u, u + 1 + rng.below(u64::from((n - 1 - u).min(4))) as u32)
        })
        .collect();
    group.bench_function("every-sg steps n=1e5 m=2e5", |b| {
        b.iter(|| {
            every::steps(&Graph::from_edges(n as usize, black_box(&edges)))
                .unwrap()
                .len()
        })
    });

    let full = vec![vec![true; 100]; 100];
    let sparse: Vec<Vec<bool>> = (0..100)
        .map(|_| (0..100).map(|_| rng.below(10) < 8).collect())
        .collect();
    group.bench_function("bipartite-game 100x100 all free", |b| {
        b.iter(|| geography::placer_winning_cells(black_box(&full)).len())
    });
    group.bench_function("bipartite-game 100x100 80% free", |b| {
        b.iter(|| geography::placer_winning_cells(black_box(&sparse)).len())
    });

    group.bench_function("chomp 8x8 winning move", |b| {
        b.iter(|| chomp::winning_move(black_box(&[8; 8])))
    });

    let heads: Vec<bool> = (0..100_000).map(|_| rng.below(2) == 1).collect();
    group.bench_function("coin-flipping n=1e5", |b| {
        b.iter(|| coins::first_wins(black_box(&heads)))
    });
    group.finish();
}

criterion_group!(benches, dag_game, stones, others, catalogue_two);
criterion_main!(benches);
