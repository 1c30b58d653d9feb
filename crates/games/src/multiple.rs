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
    LosingRuns::new(k, n).smallest_winning_move(n)
}

/// The same answer from [`losing_sizes`] term by term, as seed 001 computes it.
pub fn smallest_winning_move_term_by_term(n: u64, k: u64) -> Option<u64> {
    greedy_over(&losing_sizes(k, n), n)
}

/// `n` as a sum of losing sizes taken greedily from the largest, largest first. Each term is more
/// than `k` times the next, and a player allowed to take at most `limit` stones from a pile wins
/// exactly when its smallest term is at most `limit`: taking it leaves a smallest term out of
/// reach. A losing size is its own single term.
pub fn decomposition(n: u64, k: u64) -> Vec<u64> {
    let mut terms = Vec::new();
    let mut rest = n;
    for &size in losing_sizes(k, n).iter().rev() {
        if size <= rest {
            terms.push(size);
            rest -= size;
        }
    }
    terms
}

/// Seed 001's greedy over an explicit list of losing sizes reaching at least `n`.
fn greedy_over(losing: &[u64], n: u64) -> Option<u64> {
    if losing.contains(&n) {
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

/// One arithmetic stretch of the sequences: terms `first_index + t` for `t < len` have
/// `a = first_a + t·step` and `b = a + b_offset`.
#[derive(Clone, Copy, Debug)]
struct Run {
    first_index: u64,
    first_a: u64,
    step: u64,
    b_offset: u64,
    len: u64,
}

impl Run {
    fn a(&self, t: u64) -> u64 {
        self.first_a + t * self.step
    }
}

/// The construction of [`losing_sizes`] stored as arithmetic runs. While the index `j` of the
/// recurrence stays put, `a[i + 1] − a[i] = b[j] + 1` is constant; for large `k` the sequence to
/// 10⁸ has about 10⁶ terms but only a few thousand runs, so a whole run is added at once.
#[derive(Debug)]
pub struct LosingRuns {
    runs: Vec<Run>,
}

impl LosingRuns {
    /// Every losing size up to at least `limit`.
    pub fn new(k: u64, limit: u64) -> Self {
        // Phase one: while a ≤ k, b = a and the sizes are 1, 2, …, k + 1 (the last one starts
        // phase two). It is a single run of step 1.
        let mut runs = vec![Run {
            first_index: 0,
            first_a: 1,
            step: 1,
            b_offset: 0,
            len: k.min(limit.max(1)),
        }];
        let mut last_a = runs[0].a(runs[0].len - 1);
        let mut next_index = runs[0].len;
        if last_a >= limit {
            return LosingRuns { runs };
        }
        // The cursor of j: its run and the offset in it.
        let mut j = (0usize, 0u64);
        let successor = |runs: &[Run], (run, t): (usize, u64)| {
            if t + 1 < runs[run].len {
                Some((run, t + 1))
            } else if run + 1 < runs.len() {
                Some((run + 1, 0))
            } else {
                None
            }
        };
        let mut next_a = last_a + 1; // b = a in phase one
        loop {
            // The recurrence's `while a[j + 1]·k < a[i]: j += 1`.
            while let Some(following) = successor(&runs, j) {
                if runs[following.0].a(following.1).saturating_mul(k) < next_a {
                    j = following;
                } else {
                    break;
                }
            }
            let a_j = runs[j.0].a(j.1);
            let b_j = a_j + runs[j.0].b_offset;
            let step = b_j + 1;
            // This j serves every term up to a[j + 1]·k; when j is the newest term, a[j + 1] is
            // the first term of the run being built.
            let following = successor(&runs, j).map_or(next_a, |(run, t)| runs[run].a(t));
            let threshold = following.saturating_mul(k);
            let by_threshold = threshold.saturating_sub(next_a) / step + 1;
            let by_limit = limit.saturating_sub(next_a) / step + 1;
            let len = by_threshold.min(by_limit);
            runs.push(Run {
                first_index: next_index,
                first_a: next_a,
                step,
                b_offset: b_j,
                len,
            });
            next_index += len;
            last_a = next_a + (len - 1) * step;
            if last_a >= limit {
                return LosingRuns { runs };
            }
            next_a = last_a + step;
        }
    }

    /// Number of losing sizes stored.
    pub fn count(&self) -> u64 {
        self.runs.last().map_or(0, |r| r.first_index + r.len)
    }

    /// The `index`-th losing size (0-based).
    pub fn nth(&self, index: u64) -> u64 {
        let run = self
            .runs
            .partition_point(|r| r.first_index + r.len <= index);
        let r = self.runs[run];
        r.a(index - r.first_index)
    }

    pub fn contains(&self, n: u64) -> bool {
        self.runs.iter().any(|r| {
            n >= r.first_a
                && (n - r.first_a).is_multiple_of(r.step)
                && (n - r.first_a) / r.step < r.len
        })
    }

    pub fn smallest_winning_move(&self, n: u64) -> Option<u64> {
        if self.contains(n) {
            return None;
        }
        // Seed 001's greedy, over the terms in decreasing order, a run at a time.
        let mut rest = n;
        let mut smallest = 0;
        for r in self.runs.iter().rev() {
            let mut below = r.len; // terms t < below are still to visit
            while below > 0 && rest >= r.first_a {
                let t = ((rest - r.first_a) / r.step).min(below - 1);
                rest -= r.a(t);
                smallest = r.a(t);
                below = t;
            }
        }
        Some(smallest)
    }
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
    fn decompositions_decide_every_small_position() {
        // A brute force over (stones left, most the mover may take), by the rules alone.
        for k in 1..=6u64 {
            let n_max = 80usize;
            let mut wins = vec![vec![false; n_max + 1]; n_max + 1];
            for left in 1..=n_max {
                for limit in 1..=left {
                    wins[left][limit] = (1..=limit).any(|take| {
                        let after = left - take;
                        after == 0 || !wins[after][(take * k as usize).min(after)]
                    });
                }
            }
            for n in 1..=n_max as u64 {
                let terms = decomposition(n, k);
                assert_eq!(terms.iter().sum::<u64>(), n, "n = {n}, k = {k}");
                assert!(
                    terms.windows(2).all(|w| w[0] > k * w[1]),
                    "n = {n}, k = {k}: {terms:?}"
                );
                let smallest = *terms.last().unwrap();
                for limit in 1..=n {
                    assert_eq!(
                        wins[n as usize][limit as usize],
                        smallest <= limit,
                        "n = {n}, k = {k}, limit = {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn runs_match_the_term_by_term_construction() {
        for k in [1, 2, 3, 5, 10, 100, 1000, 100_000] {
            let terms = losing_sizes(k, 3_000_000);
            let runs = LosingRuns::new(k, 3_000_000);
            assert!(
                runs.count() as usize <= terms.len() && terms.len() - runs.count() as usize <= 1,
                "k = {k}"
            );
            for (i, &a) in terms.iter().enumerate().take(runs.count() as usize) {
                assert_eq!(runs.nth(i as u64), a, "k = {k}, term {i}");
            }
            for n in (2..3_000_000)
                .step_by(997)
                .chain(terms.iter().copied().filter(|&a| a >= 2).take(500))
            {
                let prefix = &terms[..terms.partition_point(|&a| a < n) + 1];
                assert_eq!(
                    runs.smallest_winning_move(n),
                    greedy_over(prefix, n),
                    "n = {n}, k = {k}"
                );
            }
        }
    }

    #[test]
    fn runs_match_at_the_largest_limits() {
        let (k, n) = (100_000, 100_000_000);
        let terms = losing_sizes(k, n);
        let runs = LosingRuns::new(k, n);
        assert_eq!(runs.count() as usize, terms.len());
        for i in (0..terms.len()).step_by(1009).chain([terms.len() - 1]) {
            assert_eq!(runs.nth(i as u64), terms[i]);
        }
        for n in [
            n,
            n - 1,
            terms[terms.len() - 2],
            terms[terms.len() - 2] + 1,
            99_999_989,
        ] {
            let prefix = &terms[..terms.partition_point(|&a| a < n) + 1];
            assert_eq!(
                runs.smallest_winning_move(n),
                greedy_over(prefix, n),
                "n = {n}"
            );
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
