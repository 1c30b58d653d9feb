// Stones: dp[k] = true iff some a_i <= k has dp[k - a_i] == false. O(N*K).
use std::io::{self, Read, Write};

fn main() {
    let mut buf = Vec::new();
    io::stdin().read_to_end(&mut buf).unwrap();
    let mut it = buf
        .split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.iter().fold(0usize, |acc, &d| acc * 10 + (d - b'0') as usize));
    let n = it.next().unwrap();
    let k = it.next().unwrap();
    let a: Vec<usize> = (0..n).map(|_| it.next().unwrap()).collect();
    let mut win = vec![false; k + 1];
    for x in 1..=k {
        for &v in &a {
            if v > x {
                break;
            }
            if !win[x - v] {
                win[x] = true;
                break;
            }
        }
    }
    let out = io::stdout();
    let mut out = out.lock();
    writeln!(out, "{}", if win[k] { "First" } else { "Second" }).unwrap();
}
