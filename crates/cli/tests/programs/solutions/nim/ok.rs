// Matches (Nim): first player wins iff the xor of all piles is non-zero.
use std::io::{self, Read, Write};

fn main() {
    let mut buf = Vec::new();
    io::stdin().read_to_end(&mut buf).unwrap();
    let mut it = buf
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0u64, |acc, &d| acc * 10 + (d - b'0') as u64));
    let mut out = String::new();
    while let Some(m) = it.next() {
        let mut x = 0u64;
        for _ in 0..m {
            x ^= it.next().unwrap();
        }
        out.push_str(if x != 0 { "Yes\n" } else { "No\n" });
    }
    io::stdout().lock().write_all(out.as_bytes()).unwrap();
}
