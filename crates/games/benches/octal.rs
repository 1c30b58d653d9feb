//! The naive and the fast nim-sequence of octal games, timed in one run so their ratio is
//! measured on the same machine under the same load.
//!
//! 0.007 (Treblecross), the other open code, is timed alongside.
//!
//! Targets: the fast method at least 20× the naive one at N = 10⁵; 10⁶ values of 0.6 within 10 s
//! on one core. The naive method at N = 10⁶ is quadratic (about 2.5 · 10¹¹ splits per code), so
//! it is estimated from its time at 10⁵ times 100 rather than run for hours.
//!
//! Each time is the CPU time of the computing thread where the system reports it (Linux), with
//! the wall-clock time beside it: on a shared machine the wall clock also counts the time other
//! processes held the core, and the ratios are taken on CPU time. Runs shorter than a tenth of a
//! second are repeated and averaged.
//!
//! `cargo bench -p grundy-games --bench octal`

use grundy_games::octal::{OctalCode, fast_values, find_period, naive_values};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// CPU time of this thread so far, where the system tells it.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// How long `f` takes: CPU time (the wall clock where the system does not report it) and wall
/// clock, averaged over enough runs to last a tenth of a second (the CPU clock advances in steps
/// of a few milliseconds).
fn timed<T>(mut f: impl FnMut() -> T) -> (T, Duration, Duration) {
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
        // 0.007 has no sparse space: the fast method stays exhaustive there (a few times the
        // naive speed, still quadratic), so 10⁶ would take minutes.
        let sizes: &[usize] = if text == "0.007" {
            &[10_000, 100_000]
        } else {
            &[10_000, 100_000, 1_000_000]
        };
        for &n in sizes {
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
            if n == *sizes.last().expect("sizes") {
                let period = find_period(&code, &fast);
                let top = fast.iter().max().expect("non-empty");
                eprintln!("{text}: period {period:?}, largest value {top}");
            }
        }
    }
}
