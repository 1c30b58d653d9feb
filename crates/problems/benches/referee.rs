//! The referee's move at the largest limits (targets: ≤ 10 µs median for Nim and Wythoff, ≤ 1 ms
//! for Chomp 8 × 8): from
//! a lost start the referee moves as soon as the program takes the second side; from a won start
//! it checks the program's winning move against the exact value and answers it.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use grundy_problems::Catalogue;
use grundy_problems::play::Heard;

fn referee(c: &mut Criterion) {
    let catalogue = Catalogue::builtin().expect("the built-in catalogue loads");
    let play = |slug: &str| {
        catalogue
            .iter()
            .find(|p| p.slug() == slug)
            .and_then(|p| p.play())
            .expect("an interactive problem")
    };
    // Ten piles near 10⁹ with nim-sum 0, and the same with one pile changed (nim-sum ≠ 0).
    let lost: [u64; 10] = [
        999_999_937,
        999_999_929,
        999_999_893,
        999_999_883,
        999_999_797,
        999_999_761,
        999_999_757,
        999_999_751,
        999_999_739,
        0,
    ];
    let mut lost = lost.to_vec();
    lost[9] = lost[..9].iter().fold(0, |a, &p| a ^ p);
    assert!(lost[9] > 0);
    let nim_lost = format!(
        "1\n10 {}\n",
        lost.iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut won = lost.clone();
    won[0] -= 1;
    let nim_won = format!(
        "1\n10 {}\n",
        won.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    );
    let board = play("nim-play").board().expect("a board");
    let nim_winning = board.winning_moves(&nim_won[2..]).expect("a position")[0]
        .text
        .clone();
    // The losing pair at the Fibonacci k = 267914296, near 10⁹, and a won pair next to it.
    let wythoff_lost = "1\n433494436 701408732\n".to_owned();
    let wythoff_won = "1\n433494436 701408733\n".to_owned();
    let board = play("wythoff-play").board().expect("a board");
    assert!(!board.value(&wythoff_lost[2..]).expect("a position").win);
    let wythoff_winning = board.winning_moves(&wythoff_won[2..]).expect("a position")[0]
        .text
        .clone();

    // The full 8 × 8 bar (won) and the position its first winning move leaves (lost).
    let chomp_won = format!("1\n8 8\n{}", "oooooooo\n".repeat(8));
    let board = play("chomp-play").board().expect("a board");
    let chomp_move = &board.winning_moves(&chomp_won[2..]).expect("a position")[0];
    let chomp_winning = chomp_move.text.clone();
    let chomp_lost = format!("1\n{}", chomp_move.after);

    let mut group = c.benchmark_group("referee move");
    for (name, slug, input, lines) in [
        (
            "nim 10 piles of 1e9, referee moves first",
            "nim-play",
            &nim_lost,
            vec!["second"],
        ),
        (
            "nim 10 piles of 1e9, program move checked and answered",
            "nim-play",
            &nim_won,
            vec!["first", nim_winning.as_str()],
        ),
        (
            "wythoff near 1e9, referee moves first",
            "wythoff-play",
            &wythoff_lost,
            vec!["second"],
        ),
        (
            "wythoff near 1e9, program move checked and answered",
            "wythoff-play",
            &wythoff_won,
            vec!["first", wythoff_winning.as_str()],
        ),
        (
            "chomp 8x8, referee moves first",
            "chomp-play",
            &chomp_lost,
            vec!["second"],
        ),
        (
            "chomp 8x8, program move checked and answered",
            "chomp-play",
            &chomp_won,
            vec!["first", chomp_winning.as_str()],
        ),
    ] {
        let play = play(slug);
        let (setup, last) = lines.split_at(lines.len() - 1);
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    seed += 1;
                    let mut referee = play.referee(input, seed).expect("a valid test");
                    referee.open();
                    for line in setup {
                        assert!(matches!(referee.hear(line), Heard::Reply(_)));
                    }
                    referee
                },
                |mut referee| {
                    let heard = referee.hear(last[0]);
                    assert!(matches!(heard, Heard::Reply(_)), "{heard:?}");
                    referee
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, referee);
criterion_main!(benches);
