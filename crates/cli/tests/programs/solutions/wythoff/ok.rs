// Two Piles (Wythoff): with a <= b and k = b - a, the position is losing iff
// a == floor(k * phi) == (k + isqrt(5 k^2)) / 2, computed exactly in integers.
use std::io::{self, Read, Write};

fn isqrt(n: u64) -> u64 {
    let mut r = (n as f64).sqrt() as u64;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

fn main() {
    let mut buf = Vec::new();
    io::stdin().read_to_end(&mut buf).unwrap();
    let mut it = buf
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + (d - b'0') as u64));
    let mut out = String::new();
    while let (Some(x), Some(y)) = (it.next(), it.next()) {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        let k = b - a;
        out.push_str(if a == (k + isqrt(5 * k * k)) / 2 { "0\n" } else { "1\n" });
    }
    io::stdout().lock().write_all(out.as_bytes()).unwrap();
}
