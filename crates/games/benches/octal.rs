//! The naive and the fast nim-sequence of octal games, timed in one run so their ratio is
//! measured on the same machine under the same load.
//!
//! 0.007 (Treblecross), the other open code, is timed alongside: its sparse space shows only
//! beyond some 10⁵ heaps, and far less sparse than that of 0.6.
//!
//! Targets: the fast method at least 20× the naive one at N = 10⁵; 10⁶ values of 0.6 within 10 s
//! on one core. The naive method at N = 10⁶ is quadratic (about 2.5 · 10¹¹ splits per code), so
//! it is estimated from its time at 10⁵ times 100 rather than run for hours.
//!
//! Each time is the CPU time of the computing thread where the system reports it (Linux), with
//! the wall-clock time beside it: on a shared machine the wall clock also counts the time other
//! processes held the core, and the ratios are taken on CPU time. Each time is the best of three
//! (of one when that took ten seconds), and runs shorter than a tenth of a second are repeated
//! and averaged.
//!
//! `cargo bench -p grundy-games --bench octal`

use grundy_games::octal::{OctalCode, fast_values, find_period, naive_values};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// CPU time of this thread so far, where the system tells it.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// How long one run of `f` takes: CPU time (the wall clock where the system does not report it)
/// and wall clock, averaged over enough runs to last a tenth of a second (the CPU clock advances
/// in steps of a few milliseconds).
fn timed_once<T>(f: &mut impl FnMut() -> T) -> (T, Duration, Duration) {
    let (cpu, wall) = (thread_cpu(), Instant::now());
    let mut runs = 0;
    loop {
        let out = f();
        runs += 1;
        let wall = wall.elapsed();
        let cpu = thread_cpu()
            .zip(cpu)
            .map_or(wall, |(end, start)| end - start);
        if cpu.max(wall) >= Duration::from_millis(100) {
            return (out, cpu / runs, wall / runs);
        }
    }
}

/// The best of three timings of `f` (of fewer when they take more than ten seconds in all): the
/// load of a shared machine only ever adds time.
fn timed<T>(mut f: impl FnMut() -> T) -> (T, Duration, Duration) {
    let (out, mut cpu, mut wall) = timed_once(&mut f);
    let mut spent = cpu;
    for _ in 1..3 {
        if spent >= Duration::from_secs(10) {
            break;
        }
        let (_, again, again_wall) = timed_once(&mut f);
        spent += again;
        if again < cpu {
            (cpu, wall) = (again, again_wall);
        }
    }
    (out, cpu, wall)
}

/// Seconds to three decimals, or milliseconds below a tenth of a second.
fn show(time: Duration) -> String {
    if time >= Duration::from_millis(100) {
        format!("{:.3} s", time.as_secs_f64())
    } else {
        format!("{:.3} ms", time.as_secs_f64() * 1000.0)
    }
}

fn main() {
    let clock = if thread_cpu().is_some() {
        "CPU"
    } else {
        "wall"
    };
    println!("| code | N | naive ({clock}) | fast ({clock}) | naive / fast | fast (wall) |");
    println!("|---|---|---|---|---|---|");
    for text in ["0.07", "0.77", "0.6", "0.007"] {
        let code: OctalCode = text.parse().expect("a valid code");
        let mut naive_at_1e5 = Duration::ZERO;
        for n in SIZES {
            let ((fast, _), fast_time, fast_wall) =
                timed(|| fast_values(black_box(&code), n, |_| ControlFlow::Continue(())));
            let (naive_time, estimated) = if n <= 100_000 {
                let (naive, time, _) = timed(|| naive_values(black_box(&code), n));
                assert_eq!(naive, fast, "{text} at {n}: the methods disagree");
                naive_at_1e5 = time;
                (time, "")
            } else {
                (naive_at_1e5 * 100, "≈ ")
            };
            println!(
                "| {text} | {n} | {estimated}{} | {} | {estimated}{:.0}× | {} |",
                show(naive_time),
                show(fast_time),
                naive_time.as_secs_f64() / fast_time.as_secs_f64(),
                show(fast_wall),
            );
            if n == SIZES[SIZES.len() - 1] {
                let period = find_period(&code, &fast);
                let top = fast.iter().max().expect("non-empty");
                eprintln!("{text}: period {period:?}, largest value {top}");
            }
        }
    }
}
