//! The naive and the fast nim-sequence of octal games, timed in one run so their ratio is
//! measured on the same machine under the same load.
//!
//! 0.007 (Treblecross), the other open code, is timed alongside.
//!
//! Targets: the fast method at least 20× the naive one at N = 10⁵; 10⁶ values of 0.6 within 10 s
//! on one core. The naive method at N = 10⁶ is quadratic (about 2.5 · 10¹¹ splits per code), so
//! it is estimated from its time at 10⁵ times 100 rather than run for hours.
//!
//! `cargo bench -p grundy-games --bench octal`

use grundy_games::octal::{OctalCode, fast_values, find_period, naive_values};
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

fn main() {
    println!("| code | N | naive | fast | naive / fast |");
    println!("|---|---|---|---|---|");
    for text in ["0.07", "0.77", "0.6", "0.007"] {
        let code: OctalCode = text.parse().expect("a valid code");
        let mut naive_at_1e5 = Duration::ZERO;
        // 0.007's sparse set depends on the parity of the heap as well, which the fast method
        // does not exploit: it runs at the naive speed there, so 10⁶ would take minutes.
        let sizes: &[usize] = if text == "0.007" {
            &[10_000, 100_000]
        } else {
            &[10_000, 100_000, 1_000_000]
        };
        for &n in sizes {
            let ((fast, _), fast_time) =
                timed(|| fast_values(black_box(&code), n, |_| ControlFlow::Continue(())));
            let (naive_time, estimated) = if n <= 100_000 {
                let (naive, time) = timed(|| naive_values(black_box(&code), n));
                assert_eq!(naive, fast, "{text} at {n}: the methods disagree");
                naive_at_1e5 = time;
                (time, "")
            } else {
                (naive_at_1e5 * 100, "≈ ")
            };
            println!(
                "| {text} | {n} | {estimated}{:.3} s | {:.3} s | {estimated}{:.0}× |",
                naive_time.as_secs_f64(),
                fast_time.as_secs_f64(),
                naive_time.as_secs_f64() / fast_time.as_secs_f64()
            );
            if n == *sizes.last().expect("sizes") {
                let period = find_period(&code, &fast);
                let top = fast.iter().max().expect("non-empty");
                eprintln!("{text}: period {period:?}, largest value {top}");
            }
        }
    }
}
