//! Take-away games whose limit follows the previous move: the first move takes 1..n−1 stones, each
//! later move at most `k` times the previous one, and the last taker wins. `k = 2` is Fibonacci Nim
//! (HDU 2516), general `k` is POJ 3922.

use crate::implicit;
use crate::implicit::Game;

/// The losing pile sizes up to `limit` by the construction of seed 001: `a` are the losing sizes,
/// `b[i]` the largest number that sums of `a[0..=i]` (each term more than `k` times the next
/// smaller one used) can make. A pile of `a[i] = b[i−1] + 1` cannot be answered.
pub fn losing_sizes(k: u64, limit: u64) -> Vec<u64> {
    let mut a = vec![1u64];
    let mut b = vec![1u64];
    let mut j = 0usize;
    while *a.last().expect("non-empty") < limit {
        let i = a.len();
        let next = b[i - 1] + 1;
        a.push(next);
        while a[j + 1] * k < next {
            j += 1;
        }
        b.push(if a[j] * k < next { b[j] + next } else { next });
    }
    a
}

/// `None` if the first player loses; otherwise the smallest winning first move. With the losing
/// sizes greedy-decomposing `n`, the smallest term of the decomposition is that move.
pub fn smallest_winning_move(n: u64, k: u64) -> Option<u64> {
    let losing = losing_sizes(k, n);
    if losing.last() == Some(&n) {
        return None;
    }
    let mut rest = n;
    let mut smallest = 0;
    for &size in losing.iter().rev() {
        if rest >= size {
            rest -= size;
            smallest = size;
        }
    }
    Some(smallest)
}

/// Closed forms: for k = 1 the losing sizes are the powers of two, for k = 2 the Fibonacci numbers.
pub fn closed_form_loses(n: u64, k: u64) -> Option<bool> {
    match k {
        1 => Some(n.is_power_of_two()),
        2 => Some(crate::wythoff::fibonacci_up_to(n).contains(&n)),
        _ => None,
    }
}

/// The position after the first move: `remaining` stones, the next move may take up to `limit`.
#[derive(Debug, Clone, Copy)]
pub struct MultipleRules {
    pub k: u64,
}

impl Game for MultipleRules {
    type Position = (u64, u64);
    fn moves(&self, &(remaining, limit): &(u64, u64)) -> Vec<(u64, u64)> {
        (1..=limit.min(remaining))
            .map(|take| (remaining - take, (take * self.k).min(remaining - take)))
            .collect()
    }
}

/// Dynamic programme over (remaining, limit) for small piles: the smallest winning first move.
pub fn smallest_winning_move_by_table(n: u64, k: u64) -> Option<u64> {
    let n = n as usize;
    // wins[r][l]: the mover wins with r stones left and a limit of l (l ≤ r; larger is the same).
    let mut wins = vec![vec![false; n + 1]; n + 1];
    for r in 1..=n {
        for l in 1..=r {
            let take = l;
            let after = r - take;
            let answer_limit = (take * k as usize).min(after);
            wins[r][l] = wins[r][l - 1] || after == 0 || !wins[after][answer_limit];
        }
    }
    (1..n as u64).find(|&t| {
        let after = n - t as usize;
        !wins[after][(t as usize * k as usize).min(after)]
    })
}

/// Brute force over the literal game tree.
pub fn smallest_winning_move_by_search(n: u64, k: u64, limit: usize) -> Option<Option<u64>> {
    let rules = MultipleRules { k };
    let mut first = None;
    for take in 1..n {
        let after = (n - take, (take * k).min(n - take));
        if !implicit::outcome(&rules, after, limit).ok()?.is_win() {
            first = Some(take);
            break;
        }
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn official_samples() {
        assert_eq!(smallest_winning_move(16, 1), None);
        assert_eq!(smallest_winning_move(11, 1), Some(1));
        assert_eq!(smallest_winning_move(32, 2), Some(3));
        assert_eq!(smallest_winning_move(34, 2), None);
        assert_eq!(smallest_winning_move(19, 3), Some(4));
        // HDU 2516: 2 and 13 lose, 10000 wins.
        for (n, loses) in [(2, true), (13, true), (10_000, false)] {
            assert_eq!(smallest_winning_move(n, 2).is_none(), loses);
        }
    }

    #[test]
    fn construction_matches_table_and_search_on_every_small_position() {
        for k in 1..=6 {
            for n in 2..=60 {
                let reference = smallest_winning_move(n, k);
                assert_eq!(
                    reference,
                    smallest_winning_move_by_table(n, k),
                    "n = {n}, k = {k}"
                );
                if n <= 30 {
                    assert_eq!(
                        Some(reference),
                        smallest_winning_move_by_search(n, k, 100_000),
                        "n = {n}, k = {k}"
                    );
                }
                if let Some(loses) = closed_form_loses(n, k) {
                    assert_eq!(loses, reference.is_none(), "n = {n}, k = {k}");
                }
            }
        }
    }

    #[test]
    fn closed_forms_hold_to_the_limits() {
        for n in [
            (1u64 << 31) - 1,
            1 << 30,
            1_836_311_903,
            1_836_311_904,
            99_999_999,
            100_000_000,
        ] {
            assert_eq!(
                smallest_winning_move(n, 1).is_none(),
                closed_form_loses(n, 1).unwrap(),
                "{n}"
            );
            assert_eq!(
                smallest_winning_move(n, 2).is_none(),
                closed_form_loses(n, 2).unwrap(),
                "{n}"
            );
        }
        assert_eq!(
            smallest_winning_move(100_000_000, 100_000).map(|m| m <= 100_000_000),
            Some(true)
        );
    }
}
