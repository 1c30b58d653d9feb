//! Octal games: take-and-break games on heaps of counters, named by their code `0.d₁d₂…d_t`.
//! Digit `d_k` is a sum of 1 (removing `k` counters may leave no heap: the heap had exactly `k`),
//! 2 (it may leave one non-empty heap) and 4 (it may leave two non-empty heaps).
//!
//! The nim-sequence `G(0), G(1), …` is computed naively (every option of every heap) or with the
//! sparse-space technique of the published octal tables; the Octal Game Periodicity Theorem
//! (Guy and Smith) turns a finite computation into a proof that the sequence is periodic, after
//! which `G(n)` is known for every `n`.

use crate::implicit::Game;
use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

mod fast;

/// The most digits a code may have: a longer code is not a game anyone plays by hand, and every
/// heap's options grow with it.
pub const MAX_DIGITS: usize = 32;

/// Why a text is not an octal code. Positions are 1-based character positions in the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error("the code is empty (expected something like 0.77)")]
    Empty,
    #[error("position {position}: expected {expected}, found {found:?}")]
    Invalid {
        position: usize,
        expected: &'static str,
        found: char,
    },
    #[error("position {position}: the digit {digit} is out of range (octal digits are 0 to 7)")]
    DigitOutOfRange { position: usize, digit: char },
    #[error("the code has no digits after \"0.\" (expected something like 0.77)")]
    NoDigits,
    #[error("position {position}: the code is too long (at most {MAX_DIGITS} digits after \"0.\")")]
    TooLong { position: usize },
}

/// A parsed code: `digits[k - 1]` is `d_k`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalCode {
    digits: Vec<u8>,
}

/// The move kinds a digit allows, as the bits of the digit.
const NO_HEAP: u8 = 1;
const ONE_HEAP: u8 = 2;
const TWO_HEAPS: u8 = 4;

impl FromStr for OctalCode {
    type Err = CodeError;

    fn from_str(text: &str) -> Result<OctalCode, CodeError> {
        let mut chars = text.chars().enumerate().map(|(i, c)| (i + 1, c));
        match chars.next() {
            None => return Err(CodeError::Empty),
            Some((_, '0')) => {}
            Some((position, found)) => {
                return Err(CodeError::Invalid {
                    position,
                    expected: "\"0\" (a code starts with \"0.\")",
                    found,
                });
            }
        }
        match chars.next() {
            None => return Err(CodeError::NoDigits),
            Some((_, '.')) => {}
            Some((position, found)) => {
                return Err(CodeError::Invalid {
                    position,
                    expected: "\".\" (a code starts with \"0.\")",
                    found,
                });
            }
        }
        let mut digits = Vec::new();
        for (position, c) in chars {
            match c.to_digit(10) {
                Some(d) if d < 8 => {}
                Some(_) => return Err(CodeError::DigitOutOfRange { position, digit: c }),
                None => {
                    return Err(CodeError::Invalid {
                        position,
                        expected: "an octal digit 0 to 7",
                        found: c,
                    });
                }
            }
            if digits.len() == MAX_DIGITS {
                return Err(CodeError::TooLong { position });
            }
            digits.push(c as u8 - b'0');
        }
        if digits.is_empty() {
            return Err(CodeError::NoDigits);
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("0.")?;
        for d in &self.digits {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl OctalCode {
    /// `d_1, d_2, …` as written (trailing zeros kept).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// `d_k`, 0 beyond the code.
    pub fn digit(&self, k: usize) -> u8 {
        k.checked_sub(1)
            .and_then(|i| self.digits.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The largest number of counters a move removes (the index of the last non-zero digit):
    /// the `t` of the periodicity theorem. 0 when no move exists at all.
    pub fn reach(&self) -> usize {
        self.digits
            .iter()
            .rposition(|&d| d != 0)
            .map_or(0, |i| i + 1)
    }

    /// Whether some move splits a heap in two: only then is the naive computation quadratic.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|&d| d & TWO_HEAPS != 0)
    }

    /// The heaps a move may leave from one heap of `n`, each option as zero, one or two heaps.
    pub fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        for (k, &d) in (1u64..).zip(&self.digits) {
            if d & NO_HEAP != 0 && n == k {
                options.push(Vec::new());
            }
            if d & ONE_HEAP != 0 && n > k {
                options.push(vec![n - k]);
            }
            if d & TWO_HEAPS != 0 && n >= k + 2 {
                let rest = n - k;
                options.extend((1..=rest / 2).map(|a| vec![a, rest - a]));
            }
        }
        options
    }
}

/// The literal rules on a position of several heaps (kept sorted, without empty heaps), for
/// brute force over game trees.
#[derive(Debug, Clone)]
pub struct OctalRules {
    pub code: OctalCode,
}

impl Game for OctalRules {
    type Position = Vec<u64>;

    fn moves(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut moves = Vec::new();
        for (i, &heap) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == heap {
                continue;
            }
            for left in self.code.options(heap) {
                let mut next: Vec<u64> =
                    heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                next.extend(left);
                next.sort_unstable();
                moves.push(next);
            }
        }
        moves
    }
}

/// Marks values in a reusable table: a value is marked when its stamp is the current one, so a
/// new heap starts with nothing marked at no cost.
#[derive(Debug, Default)]
struct Marks {
    stamps: Vec<u32>,
    now: u32,
}

impl Marks {
    fn clear(&mut self) {
        self.now += 1;
    }

    fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamps.len() {
            self.stamps.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamps[v] = self.now;
    }

    fn is_marked(&self, v: u32) -> bool {
        self.stamps.get(v as usize) == Some(&self.now)
    }

    fn mex(&self) -> u32 {
        (0..)
            .find(|&v| !self.is_marked(v))
            .expect("finitely many marks")
    }
}

/// How often the computations report progress (and may be stopped), in heap sizes.
const REPORT_EVERY: usize = 1 << 12;

/// How often they report at the latest, in pairs of heaps a split may leave: the work of a heap
/// grows with its size and with the code's splitting digits (a heap of 30 000 under 30 of them
/// has 450 000 splits), so a count of heaps alone would let a long code run for seconds between
/// two reports. About 10 ms of marking in a release build, some 80 ms unoptimised.
pub const WORK_PER_REPORT: u64 = 1 << 24;

/// The pairs a heap of `n` may be split into, over every splitting digit: what computing its
/// value may cost at most, and what [`WORK_PER_REPORT`] counts.
pub fn split_work(code: &OctalCode, n: usize) -> u64 {
    split_removals(code, n).map(|k| ((n - k) / 2) as u64).sum()
}

/// Whether progress is due at heap `n`, after `work` since the last report (which it resets).
fn report_due(n: usize, work: &mut u64) -> bool {
    let due = n.is_multiple_of(REPORT_EVERY) || *work >= WORK_PER_REPORT;
    if due {
        *work = 0;
    }
    due
}

/// `G(0..=upto)` by the definition: every option of every heap. Quadratic when the code splits.
pub fn naive_values(code: &OctalCode, upto: usize) -> Vec<u32> {
    let mut values = vec![0];
    extend_naive(code, &mut values, upto, |_| ControlFlow::Continue(()));
    values
}

/// Extends `values` (`G(0..len)`) to `G(0..=upto)` by the definition; `progress` as in
/// [`fast_values`].
fn extend_naive(
    code: &OctalCode,
    values: &mut Vec<u32>,
    upto: usize,
    mut progress: impl FnMut(usize) -> ControlFlow<()>,
) -> Ending {
    let mut marks = Marks::default();
    let mut work = 0;
    for n in values.len()..=upto {
        if report_due(n, &mut work) && progress(n).is_break() {
            return Ending::Stopped;
        }
        work += split_work(code, n);
        marks.clear();
        mark_simple(code, values, n, &mut marks);
        for k in split_removals(code, n) {
            let rest = n - k;
            for a in 1..=rest / 2 {
                marks.mark(values[a] ^ values[rest - a]);
            }
        }
        values.push(marks.mex());
    }
    Ending::Complete
}

/// Marks the options that leave no heap or one heap.
fn mark_simple(code: &OctalCode, values: &[u32], n: usize, marks: &mut Marks) {
    for (k, &d) in (1..).zip(code.digits()) {
        if d & NO_HEAP != 0 && n == k {
            marks.mark(0);
        }
        if d & ONE_HEAP != 0 && n > k {
            marks.mark(values[n - k]);
        }
    }
}

/// The removals `k` after which a heap of `n` may be split into two non-empty heaps.
fn split_removals(code: &OctalCode, n: usize) -> impl Iterator<Item = usize> + '_ {
    (1..)
        .zip(code.digits())
        .filter(move |&(k, &d)| d & TWO_HEAPS != 0 && n >= k + 2)
        .map(|(k, _)| k)
}

/// Why a computation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every value asked for was computed.
    Complete,
    /// The progress callback asked to stop (its budget ran out).
    Stopped,
}

/// `G(0..=upto)`, the same values as [`naive_values`], far faster:
///
/// - Once the periodicity theorem proves a period, the rest follows from it.
/// - Heaps are computed sixteen at a time, and the splits whose parts lie below those sixteen
///   heaps are marked for all of them in one pass over the values.
/// - Sparse space: under a suitable mask most values are *common* and the heaps with a *rare*
///   value are few; the common options of a heap come from the splits with a rare part alone,
///   and the rare options below the smallest missing common one are found among the first few
///   splits nearly always.
///
/// See the `fast` module for the details and the choice between the methods.
///
/// `progress` hears the number of values known so far every few thousand heaps, and at the latest
/// after [`WORK_PER_REPORT`] splits, and may stop the computation; the values computed until then
/// are returned.
pub fn fast_values(
    code: &OctalCode,
    upto: usize,
    progress: impl FnMut(usize) -> ControlFlow<()>,
) -> (Vec<u32>, Ending) {
    fast::compute(code, upto, progress, fast::Choice::Cheapest, fast::VALUES)
}

/// A proven period: `G(n + period) = G(n)` for every `n ≥ preperiod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodicity {
    pub preperiod: u64,
    pub period: u64,
}

impl Periodicity {
    /// The heap size below `preperiod + period` with the same value as `n`.
    pub fn reduce(&self, n: u64) -> u64 {
        if n < self.preperiod {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        }
    }
}

/// The smallest period the values prove, with its pre-period, by the Octal Game Periodicity
/// Theorem: if `G(n + p) = G(n)` for all `n₀ ≤ n < 2n₀ + p + t`, where `t` is the largest number
/// of counters a move removes, then for all `n ≥ n₀`. `None` when no period is proven yet.
///
/// For each `p` the smallest `n₀` the values allow is found from the end; it is the true
/// pre-period of `p` when the theorem then holds.
pub fn find_period(code: &OctalCode, values: &[u32]) -> Option<Periodicity> {
    find_period_in(code, values)
}

fn find_period_in<T: PartialEq>(code: &OctalCode, values: &[T]) -> Option<Periodicity> {
    let t = code.reach();
    let len = values.len();
    // The theorem needs the values up to 2n₀ + 2p + t - 1 < len, so at least 2p + t ≤ len.
    (1..=len.saturating_sub(t) / 2).find_map(|p| {
        let mut n0 = len - p;
        while n0 > 0 && values[n0 - 1] == values[n0 - 1 + p] {
            n0 -= 1;
        }
        (2 * n0 + 2 * p + t <= len).then_some(Periodicity {
            preperiod: n0 as u64,
            period: p as u64,
        })
    })
}

/// What is known about a code after computing its values up to some bound.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub code: OctalCode,
    /// `G(0..=computed_to)`.
    values: Vec<u32>,
    pub periodicity: Option<Periodicity>,
    pub ending: Ending,
}

/// Why a heap size has no value in an [`Analysis`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "no period is proven, so G({n}) is known only for heaps up to {computed_to}, the range computed"
)]
pub struct BeyondRange {
    pub n: u64,
    pub computed_to: u64,
}

impl Analysis {
    /// Computes `G(0..=upto)` (see [`fast_values`] for `progress`) and looks for a period.
    pub fn run(
        code: &OctalCode,
        upto: usize,
        progress: impl FnMut(usize) -> ControlFlow<()>,
    ) -> Analysis {
        let (values, ending) = fast_values(code, upto, progress);
        let periodicity = find_period(code, &values);
        Analysis {
            code: code.clone(),
            values,
            periodicity,
            ending,
        }
    }

    /// The largest heap whose value was computed.
    pub fn computed_to(&self) -> u64 {
        (self.values.len() - 1) as u64
    }

    /// `G(0..=computed_to)`.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// `G(n)`: any `n` once a period is proven, in constant time; otherwise only up to
    /// [`Analysis::computed_to`].
    pub fn value(&self, n: u64) -> Result<u32, BeyondRange> {
        let n = match self.periodicity {
            Some(p) => p.reduce(n),
            None => n,
        };
        self.values
            .get(usize::try_from(n).unwrap_or(usize::MAX))
            .copied()
            .ok_or(BeyondRange {
                n,
                computed_to: self.computed_to(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implicit;
    use proptest::prelude::*;

    fn code(text: &str) -> OctalCode {
        text.parse().unwrap()
    }

    fn run(text: &str, upto: usize) -> Analysis {
        Analysis::run(&code(text), upto, |_| ControlFlow::Continue(()))
    }

    #[test]
    fn parse_errors_name_the_position() {
        let err = |t: &str| t.parse::<OctalCode>().unwrap_err();
        assert_eq!(err(""), CodeError::Empty);
        assert_eq!(err("0."), CodeError::NoDigits);
        assert_eq!(err("0"), CodeError::NoDigits);
        assert_eq!(
            err("0.78"),
            CodeError::DigitOutOfRange {
                position: 4,
                digit: '8'
            }
        );
        assert_eq!(
            err("1.7"),
            CodeError::Invalid {
                position: 1,
                expected: "\"0\" (a code starts with \"0.\")",
                found: '1'
            }
        );
        assert!(matches!(err("0,7"), CodeError::Invalid { position: 2, .. }));
        assert!(matches!(
            err("0.7x"),
            CodeError::Invalid {
                position: 4,
                found: 'x',
                ..
            }
        ));
        assert_eq!(
            err(&format!("0.{}", "1".repeat(MAX_DIGITS + 1))),
            CodeError::TooLong {
                position: MAX_DIGITS + 3
            }
        );
        assert_eq!(code("0.137").digits(), &[1, 3, 7]);
        assert_eq!(code("0.1370").reach(), 3);
        assert_eq!(code("0.1370").to_string(), "0.1370");
        assert!(
            err("0.9").to_string().contains("position 3"),
            "{}",
            err("0.9")
        );
    }

    #[test]
    fn options_follow_the_digits() {
        // 0.137: take 1 only from a heap of 1; take 2 leaving at most one heap; take 3 leaving
        // zero, one or two heaps.
        let c = code("0.137");
        assert_eq!(c.options(1), vec![Vec::<u64>::new()]);
        assert_eq!(c.options(2), vec![Vec::<u64>::new()]);
        assert_eq!(c.options(3), vec![vec![1], Vec::new()]);
        assert_eq!(c.options(6), vec![vec![4], vec![3], vec![1, 2]]);
    }

    /// Kayles by hand: G(0..=12) from Winning Ways (bowling pins: knock down one or two adjacent).
    #[test]
    fn kayles_starts_as_published() {
        assert_eq!(
            naive_values(&code("0.77"), 12),
            vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
        );
        // Dawson's Kayles: 0.07, G(0..=10) from Winning Ways.
        assert_eq!(
            naive_values(&code("0.07"), 10),
            vec![0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3]
        );
    }

    #[test]
    fn literature_periods() {
        // Guy and Smith (1956); Winning Ways ch. 4.
        let kayles = run("0.77", 1000).periodicity.unwrap();
        assert_eq!((kayles.preperiod, kayles.period), (71, 12));
        // Dawson's chess (OEIS A002187): period 34, the last exception at 51. Dawson's Kayles
        // is the same sequence one heap later, so its last exception is at 52.
        let chess = run("0.137", 1000).periodicity.unwrap();
        assert_eq!((chess.preperiod, chess.period), (52, 34));
        let dawson = run("0.07", 1000).periodicity.unwrap();
        assert_eq!((dawson.preperiod, dawson.period), (53, 34));
        // The subtraction game {1, 3, 4}: period 7 from the start (0 1 0 1 2 3 2).
        let sub = run("0.3033", 1000).periodicity.unwrap();
        assert_eq!((sub.preperiod, sub.period), (0, 7));
    }

    #[test]
    fn dawsons_chess_starts_as_published() {
        // OEIS A002187, G(0..=67).
        let published = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
            4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3,
            0, 2, 1, 1, 0, 4, 5, 3, 7, 4,
        ];
        assert_eq!(naive_values(&code("0.137"), 67), published);
    }

    #[test]
    fn dawsons_chess_is_dawsons_kayles_shifted() {
        // A heap of n in 0.137 plays as a heap of n + 1 in 0.07 (Winning Ways).
        let chess = naive_values(&code("0.137"), 300);
        let kayles = naive_values(&code("0.07"), 301);
        assert_eq!(chess[..], kayles[1..]);
    }

    #[test]
    fn open_codes_get_no_period() {
        for open in ["0.6", "0.007"] {
            let analysis = run(open, 20_000);
            assert_eq!(analysis.periodicity, None, "{open}");
            assert_eq!(analysis.computed_to(), 20_000);
            assert_eq!(
                analysis.value(20_001),
                Err(BeyondRange {
                    n: 20_001,
                    computed_to: 20_000
                })
            );
        }
    }

    #[test]
    fn proven_values_reach_any_heap() {
        let kayles = run("0.77", 500);
        // Kayles's period from 72 on: 4 1 2 8 1 4 7 2 1 8 2 7 (Winning Ways), starting at 72.
        let period = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7];
        for n in [72u64, 1_000, 1_000_000_007, 1_000_000_000_000_000_000] {
            assert_eq!(kayles.value(n), Ok(period[((n - 72) % 12) as usize]), "{n}");
        }
    }

    #[test]
    fn a_budget_stops_the_computation() {
        let mut stopped_at = 0;
        let (values, ending) = fast_values(&code("0.6"), 100_000, |n| {
            if n >= 3 * REPORT_EVERY {
                stopped_at = n;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(ending, Ending::Stopped);
        assert_eq!(values.len(), stopped_at);
        assert!(stopped_at >= 3 * REPORT_EVERY);
    }

    /// A long code whose every digit splits: its heaps cost hundreds of times those of 0.6, and
    /// a budget is asked again after a bounded number of splits, not of heaps (a request for
    /// `upto` 31110 on 30 such digits ran for seconds between two reports).
    #[test]
    fn reports_come_after_a_bounded_work_however_long_the_code() {
        let long = code(&format!("0.{}", "7".repeat(30)));
        type Progress<'a> = &'a mut dyn FnMut(usize) -> ControlFlow<()>;
        fn fast(c: &OctalCode, upto: usize, progress: Progress) -> (Vec<u32>, Ending) {
            fast_values(c, upto, progress)
        }
        fn naive(c: &OctalCode, upto: usize, progress: Progress) -> (Vec<u32>, Ending) {
            let mut values = vec![0];
            let ending = extend_naive(c, &mut values, upto, progress);
            (values, ending)
        }
        for run in [fast, naive] {
            let mut heard = vec![0];
            let (values, stopped) = run(&long, 31_110, &mut |n| {
                heard.push(n);
                if n > 5000 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(stopped, Ending::Stopped);
            assert_eq!(values.len(), *heard.last().unwrap());
            // At most one block of sixteen heaps past the bound between two reports.
            let block = 16 * split_work(&long, values.len());
            for pair in heard.windows(2) {
                let work: u64 = (pair[0]..pair[1]).map(|n| split_work(&long, n)).sum();
                assert!(work <= WORK_PER_REPORT + block, "{pair:?}: {work}");
            }
            assert!(heard.len() > 3, "{heard:?}");
        }
    }

    #[test]
    fn fast_matches_naive_on_known_codes() {
        for text in [
            "0.6", "0.007", "0.77", "0.07", "0.137", "0.4", "0.16", "0.54", "0.3033",
        ] {
            let c = code(text);
            let naive = naive_values(&c, 6000);
            let (fast, ending) = fast_values(&c, 6000, |_| ControlFlow::Continue(()));
            assert_eq!(ending, Ending::Complete);
            assert_eq!(fast, naive, "{text}");
        }
    }

    fn any_code() -> impl Strategy<Value = OctalCode> {
        prop::collection::vec(0u8..8, 1..5).prop_map(|digits| OctalCode { digits })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn values_match_the_game_tree(c in any_code()) {
            let rules = OctalRules { code: c.clone() };
            let values = naive_values(&c, 14);
            for n in 0..=14u64 {
                let heap = if n == 0 { vec![] } else { vec![n] };
                prop_assert_eq!(values[n as usize], implicit::grundy(&rules, heap, 1 << 20).unwrap());
            }
        }

        #[test]
        fn sums_of_heaps_follow_the_xor(c in any_code(), heaps in prop::collection::vec(1u64..8, 1..4)) {
            let rules = OctalRules { code: c.clone() };
            let values = naive_values(&c, 8);
            let mut sorted = heaps.clone();
            sorted.sort_unstable();
            let xor = heaps.iter().fold(0, |x, &h| x ^ values[h as usize]);
            let brute = implicit::outcome(&rules, sorted, 1 << 20).unwrap();
            prop_assert_eq!(xor != 0, brute.is_win());
        }

        #[test]
        fn fast_matches_naive(c in any_code(), upto in 0usize..3000) {
            let (fast, _) = fast_values(&c, upto, |_| ControlFlow::Continue(()));
            prop_assert_eq!(fast, naive_values(&c, upto));
        }

        #[test]
        fn proven_periods_hold_further(c in any_code()) {
            let analysis = Analysis::run(&c, 2000, |_| ControlFlow::Continue(()));
            if analysis.periodicity.is_some() {
                let far = naive_values(&c, 4000);
                for n in 0..=4000u64 {
                    prop_assert_eq!(analysis.value(n), Ok(far[n as usize]), "{}", n);
                }
            }
        }
    }
}
