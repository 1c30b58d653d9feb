//! Wythoff's game: take any number from one pile, or the same number from both.
//!
//! The losing positions are `(⌊kφ⌋, ⌊kφ⌋ + k)` for `k ≥ 0`. Evaluating `⌊kφ⌋` in floating point
//! is wrong inside 10⁹ (double) and 5·10⁹ (long double) next to Fibonacci numbers, so the
//! reference works in integers: `⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋`, exact while `5k²` fits `u128`
//! (k up to 8·10¹⁸; inputs stop at 10¹⁸).

use crate::implicit::Game;

/// The `k`-th losing position `(a_k, b_k)`, `a_k ≤ b_k`, exactly. Panics beyond k ≈ 8·10¹⁸,
/// where `5k²` overflows `u128`.
pub fn losing_position(k: u64) -> (u128, u128) {
    assert!(
        k <= 8_000_000_000_000_000_000,
        "k = {k} is beyond the exact range"
    );
    let k = u128::from(k);
    let a = (k + (5 * k * k).isqrt()) / 2;
    (a, a + k)
}

/// Closed form: the mover wins unless the piles, sorted, are a losing pair.
pub fn first_wins(a: u64, b: u64) -> bool {
    let (low, high) = (a.min(b), a.max(b));
    // A difference beyond the exact range would need a_k > 1.2·10¹⁹ > u64::MAX − k: no pair.
    if high - low > 8_000_000_000_000_000_000 {
        return true;
    }
    losing_position(high - low).0 != u128::from(low)
}

/// The same formula in double precision, as students write it. Kept to generate the inputs on
/// which it fails and to show that it does.
pub fn first_wins_in_floating_point(a: u64, b: u64) -> bool {
    let (low, high) = (a.min(b), a.max(b));
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    ((high - low) as f64 * golden) as u64 != low
}

/// The construction the tutorials teach: `a_k` is the smallest number not yet in any losing pair
/// and `b_k = a_k + k`. Returns every losing pair with `a_k ≤ limit`.
pub fn losing_positions_up_to(limit: usize) -> Vec<(usize, usize)> {
    let mut used = vec![false; 2 * limit + 2];
    let mut pairs = Vec::new();
    let mut smallest_free = 0;
    for k in 0.. {
        while used[smallest_free] {
            smallest_free += 1;
        }
        if smallest_free > limit {
            break;
        }
        let (a, b) = (smallest_free, smallest_free + k);
        used[a] = true;
        if b < used.len() {
            used[b] = true;
        }
        pairs.push((a, b));
    }
    pairs
}

/// The table of every position up to `limit` from the construction above: a position loses
/// exactly when it is one of the constructed pairs (in either order).
pub fn winning_table(limit: usize) -> Vec<Vec<bool>> {
    let mut wins = vec![vec![true; limit + 1]; limit + 1];
    for (a, b) in losing_positions_up_to(limit) {
        if b <= limit {
            wins[a][b] = false;
            wins[b][a] = false;
        }
    }
    wins
}

/// Literal rules for brute force.
#[derive(Debug, Clone, Copy, Default)]
pub struct WythoffRules;

impl Game for WythoffRules {
    type Position = (u64, u64);
    fn moves(&self, &(a, b): &(u64, u64)) -> Vec<(u64, u64)> {
        let from_first = (1..=a).map(|t| (a - t, b));
        let from_second = (1..=b).map(|t| (a, b - t));
        let from_both = (1..=a.min(b)).map(|t| (a - t, b - t));
        from_first.chain(from_second).chain(from_both).collect()
    }
}

/// Fibonacci numbers `F(2) = 1, F(3) = 2, …` up to `limit`: the `k` at which floating-point
/// evaluations of `⌊kφ⌋` go wrong.
pub fn fibonacci_up_to(limit: u64) -> Vec<u64> {
    let mut fibs = vec![1u64, 2];
    while let Some(next) = fibs[fibs.len() - 2].checked_add(fibs[fibs.len() - 1]) {
        if next > limit {
            break;
        }
        fibs.push(next);
    }
    fibs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implicit;

    #[test]
    fn first_losing_positions() {
        let expected = [
            (0, 0),
            (1, 2),
            (3, 5),
            (4, 7),
            (6, 10),
            (8, 13),
            (9, 15),
            (11, 18),
        ];
        for (k, &(a, b)) in expected.iter().enumerate() {
            assert_eq!(losing_position(k as u64), (a, b));
        }
        assert_eq!(
            &losing_positions_up_to(11)[..8],
            &expected.map(|(a, b)| (a as usize, b as usize))
        );
    }

    #[test]
    fn official_samples() {
        assert!(!first_wins(2, 1));
        assert!(first_wins(8, 4));
        assert!(!first_wins(4, 7));
        assert!(!first_wins(3, 5));
        assert!(first_wins(3, 4));
        assert!(first_wins(1, 9));
    }

    #[test]
    fn floating_point_fails_inside_a_billion() {
        // k = F(40) = 102334155: the double-precision ⌊kφ⌋ is one off.
        let (a, b) = losing_position(102_334_155);
        let (a, b) = (a as u64, b as u64);
        assert!(b <= 1_000_000_000);
        assert!(!first_wins(a, b));
        assert!(first_wins_in_floating_point(a, b));
    }

    #[test]
    fn exact_formula_holds_near_the_top() {
        // ⌊kφ⌋ is the unique a with a < kφ < a + 1, i.e. 2a - k < √5·k < 2a + 2 - k; check it by
        // squaring in integers, for the Fibonacci k (the hardest) and their neighbours.
        for &f in fibonacci_up_to(600_000_000_000_000_000).iter() {
            for k in [f - 1, f, f + 1] {
                let (a, _) = losing_position(k);
                let k = u128::from(k);
                let five_k2 = 5 * k * k;
                assert!(2 * a < k || (2 * a - k).pow(2) <= five_k2);
                assert!((2 * a + 2 - k).pow(2) > five_k2);
            }
        }
    }

    #[test]
    fn table_matches_game_tree_on_every_small_position() {
        let limit = 30;
        let table = winning_table(limit);
        for a in 0..=limit as u64 {
            for b in 0..=limit as u64 {
                let brute = implicit::outcome(&WythoffRules, (a, b), 10_000).unwrap();
                assert_eq!(table[a as usize][b as usize], brute.is_win(), "({a}, {b})");
                assert_eq!(first_wins(a, b), brute.is_win(), "({a}, {b})");
            }
        }
    }

    #[test]
    fn construction_matches_closed_form() {
        for (k, &(a, b)) in losing_positions_up_to(1_000_000).iter().enumerate() {
            assert_eq!(losing_position(k as u64), (a as u128, b as u128), "k = {k}");
        }
    }
}
