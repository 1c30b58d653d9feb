//! An octal game on heaps, position by position, for a person at the play page or a terminal:
//! the rules of an [`OctalCode`] with the values its problem computed.
//!
//! A position is `k h_1 … h_k` (the heaps in the order they lie). A move is `i t` (take `t`
//! counters from heap `i`, leaving the rest as one heap, or none when `t` is the whole heap) or
//! `i t a` (take `t` and split the rest into heaps of `a` and of what is left). Empty heaps
//! disappear, and a split heap's two parts take its place, so the heaps after it move one place
//! on. The page keeps heaps small, so every option of a heap can be tried.

use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::octal::OctalCode;
use rand::RngExt;
use rand::seq::IndexedRandom;
use std::sync::Arc;

/// The largest heap on a page: every option of it is tried for the hints.
pub const MAX_HEAP: u64 = 1000;
/// The most heaps a start may have.
const MAX_START_HEAPS: u32 = 10;
/// The most heaps in the middle of a game (splits add heaps).
const MAX_HEAPS: u32 = 10 * MAX_HEAP as u32;
/// The most winning moves a hint lists: a heap of a splitting game may have dozens.
const MAX_LISTED: usize = 12;

#[derive(Clone)]
pub struct Heaps {
    code: OctalCode,
    /// `G(0..=max_heap)`.
    values: Arc<[u32]>,
}

impl std::fmt::Debug for Heaps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Heaps({})", self.code)
    }
}

/// Taking `take` from heap `heap` (0-based), leaving `split` as one part of the rest when the
/// rest is split in two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    heap: usize,
    take: u64,
    split: Option<u64>,
}

impl Heaps {
    /// The rules of `code` for heaps up to the smaller of [`MAX_HEAP`] and the last value
    /// known (`values` starts at G(0)).
    pub fn new(code: OctalCode, values: &[u32]) -> Heaps {
        let known = values.len().min(MAX_HEAP as usize + 1);
        Heaps {
            code,
            values: values[..known].into(),
        }
    }

    fn max_heap(&self) -> u64 {
        (self.values.len() - 1) as u64
    }

    fn g(&self, heap: u64) -> u32 {
        self.values[heap as usize]
    }

    fn nim_sum(&self, heaps: &[u64]) -> u32 {
        heaps.iter().fold(0, |x, &h| x ^ self.g(h))
    }

    /// Every move from one heap of `n`, leaving no heap, one or two.
    fn options(&self, heap: usize, n: u64) -> impl Iterator<Item = Move> + '_ {
        (1..=n.min(self.code.reach() as u64)).flat_map(move |take| {
            let digit = self.code.digit(take as usize);
            let rest = n - take;
            let whole = (digit & 1 != 0 && rest == 0).then_some(Move {
                heap,
                take,
                split: None,
            });
            let one = (digit & 2 != 0 && rest > 0).then_some(Move {
                heap,
                take,
                split: None,
            });
            let two = (digit & 4 != 0 && rest >= 2)
                .then(|| {
                    (1..=rest / 2).map(move |a| Move {
                        heap,
                        take,
                        split: Some(a),
                    })
                })
                .into_iter()
                .flatten();
            whole.into_iter().chain(one).chain(two)
        })
    }

    fn all_moves<'a>(&'a self, heaps: &'a [u64]) -> impl Iterator<Item = Move> + 'a {
        heaps
            .iter()
            .enumerate()
            .flat_map(move |(i, &n)| self.options(i, n))
    }

    /// The value of what a move leaves of its heap.
    fn left_value(&self, heaps: &[u64], mv: &Move) -> u32 {
        let rest = heaps[mv.heap] - mv.take;
        match mv.split {
            Some(a) => self.g(a) ^ self.g(rest - a),
            None => self.g(rest),
        }
    }

    fn rule_words(&self) -> String {
        let mut rules = Vec::new();
        for (k, &d) in (1..).zip(self.code.digits()) {
            let mut leaves = Vec::new();
            if d & 1 != 0 {
                leaves.push("a whole heap");
            }
            if d & 2 != 0 {
                leaves.push("leaving one heap");
            }
            if d & 4 != 0 {
                leaves.push("splitting the rest in two");
            }
            if !leaves.is_empty() {
                rules.push(format!("{k}: {}", leaves.join(" or ")));
            }
        }
        rules.join("; ")
    }
}

impl Rules for Heaps {
    type Position = Vec<u64>;
    type Move = Move;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        let line = reader.line("a game \"k h_1 … h_k\"")?;
        let k: u32 = line.int(0, "k", 0..=MAX_HEAPS)?;
        line.expect_len(k as usize + 1, "k followed by k heap sizes")?;
        (1..=k as usize)
            .map(|i| line.int(i, &format!("h_{i}"), 1..=self.max_heap()))
            .collect()
    }

    fn write_position(&self, heaps: &Vec<u64>, out: &mut String) {
        super::push_line(
            out,
            std::iter::once(heaps.len() as u64).chain(heaps.iter().copied()),
        );
    }

    fn start_rule(&self, heaps: &Vec<u64>) -> Result<(), String> {
        if heaps.len() > MAX_START_HEAPS as usize {
            return Err(format!(
                "{} heaps; a game starts with at most {MAX_START_HEAPS}",
                heaps.len()
            ));
        }
        if self.is_over(heaps) {
            return Err(format!(
                "no move is possible from {} under the rules of {} ({}); a game starts with a \
                 move to make",
                self.words(heaps),
                self.code,
                self.rule_words()
            ));
        }
        Ok(())
    }

    fn words(&self, heaps: &Vec<u64>) -> String {
        if heaps.is_empty() {
            return "no heaps".to_owned();
        }
        let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
        format!("({})", sizes.join(", "))
    }

    fn is_over(&self, heaps: &Vec<u64>) -> bool {
        self.all_moves(heaps).next().is_none()
    }

    fn value(&self, heaps: &Vec<u64>) -> Value {
        let sum = self.nim_sum(heaps);
        Value {
            win: sum != 0,
            grundy: Some(u64::from(sum)),
        }
    }

    fn value_words(&self, heaps: &Vec<u64>, value: &Value) -> String {
        let terms: Vec<String> = heaps.iter().map(|&h| self.g(h).to_string()).collect();
        let sum = value.grundy.unwrap_or(0);
        match terms.len() {
            0 => "with value 0 (no heaps)".to_owned(),
            1 if sum == 0 => "with value 0".to_owned(),
            1 => format!("with value {sum} ≠ 0"),
            _ if sum == 0 => format!("with value {} = 0", terms.join(" ⊕ ")),
            _ => format!("with value {} = {sum} ≠ 0", terms.join(" ⊕ ")),
        }
    }

    fn read_move(&self, heaps: &Vec<u64>, text: &str) -> Result<Move, String> {
        let numbers: Option<Vec<i128>> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().ok())
            .collect();
        let (i, take, split) = match numbers.as_deref() {
            Some(&[i, t]) => (i, t, None),
            Some(&[i, t, a]) => (i, t, Some(a)),
            _ => {
                return Err(
                    "a move is `i t` (take t from heap i) or `i t a` (take t from heap i and \
                     split the rest into a and what is left)"
                        .into(),
                );
            }
        };
        let count = heaps.len() as i128;
        if !(1..=count).contains(&i) {
            return Err(match count {
                0 => "there are no heaps left".to_owned(),
                _ => format!("there is no heap {i} (the heaps are 1 to {count})"),
            });
        }
        let heap = (i - 1) as usize;
        let n = i128::from(heaps[heap]);
        if !(1..=n).contains(&take) {
            return Err(format!(
                "heap {i} has {n}: a move takes from 1 to {n}, not {take}"
            ));
        }
        let digit = self.code.digit(take as usize);
        let rest = n - take;
        let mv = match split {
            None if rest == 0 && digit & 1 != 0 => None,
            None if rest == 0 => {
                return Err(format!(
                    "the rules of {} do not let a move take a whole heap of {take}",
                    self.code
                ));
            }
            None if digit & 2 != 0 => None,
            None => {
                return Err(format!(
                    "the rules of {} do not let a move take {take} and leave one heap (of \
                     {rest}){}",
                    self.code,
                    if digit & 4 != 0 {
                        "; they let it split the rest in two: write `i t a`"
                    } else {
                        ""
                    }
                ));
            }
            Some(a) => {
                if digit & 4 == 0 {
                    return Err(format!(
                        "the rules of {} do not let a move take {take} and split the rest",
                        self.code
                    ));
                }
                if !(1..rest).contains(&a) {
                    return Err(format!(
                        "taking {take} from heap {i} leaves {rest}: its two parts are a and \
                         {rest} − a with 1 ≤ a ≤ {}, not a = {a}",
                        rest - 1
                    ));
                }
                Some(a as u64)
            }
        };
        Ok(Move {
            heap,
            take: take as u64,
            split: mv,
        })
    }

    fn write_move(&self, mv: &Move) -> String {
        match mv.split {
            Some(a) => format!("{} {} {a}", mv.heap + 1, mv.take),
            None => format!("{} {}", mv.heap + 1, mv.take),
        }
    }

    fn move_words(&self, heaps: &Vec<u64>, mv: &Move) -> String {
        let rest = heaps[mv.heap] - mv.take;
        match mv.split {
            Some(a) => format!(
                "{} from heap {}, splitting the rest into {a} and {}",
                mv.take,
                mv.heap + 1,
                rest - a
            ),
            None => format!("{} from heap {}", mv.take, mv.heap + 1),
        }
    }

    fn move_done(&self, heaps: &Vec<u64>, mv: &Move) -> String {
        format!("took {}", self.move_words(heaps, mv))
    }

    fn apply(&self, heaps: &Vec<u64>, mv: &Move) -> Vec<u64> {
        let rest = heaps[mv.heap] - mv.take;
        let parts: Vec<u64> = match mv.split {
            Some(a) => vec![a, rest - a],
            None if rest == 0 => Vec::new(),
            None => vec![rest],
        };
        let mut after = heaps[..mv.heap].to_vec();
        after.extend(parts);
        after.extend(&heaps[mv.heap + 1..]);
        after
    }

    fn winning_moves(&self, heaps: &Vec<u64>) -> Vec<Move> {
        let sum = self.nim_sum(heaps);
        if sum == 0 {
            return Vec::new();
        }
        self.all_moves(heaps)
            .filter(|mv| self.left_value(heaps, mv) == sum ^ self.g(heaps[mv.heap]))
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, heaps: &Vec<u64>, _played: usize, rng: &mut TestRng) -> Move {
        if let Some(&mv) = self.winning_moves(heaps).choose(rng) {
            return mv;
        }
        // Lost: take as much as the rules allow from some heap, so the game ends soon, from a
        // heap drawn at random so that no line of play repeats.
        let largest: Vec<Move> = heaps
            .iter()
            .enumerate()
            .filter_map(|(i, &n)| self.options(i, n).max_by_key(|mv| mv.take))
            .collect();
        *largest.choose(rng).expect("the game is not over")
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        // Small heaps, but large enough for the longest move of the code.
        let reach = self.code.reach() as u64;
        let high = (reach + 2).max(20).min(self.max_heap());
        for _ in 0..100 {
            let count = rng.random_range(1..=3);
            let heaps: Vec<u64> = (0..count).map(|_| rng.random_range(1..=high)).collect();
            if !self.is_over(&heaps) {
                return heaps;
            }
        }
        // A code whose only moves need one exact heap size: one of reach, reach + 1 and
        // reach + 2 has a move, whatever the last digit says.
        (reach..=reach + 2)
            .map(|n| vec![n])
            .find(|heaps| !self.is_over(heaps))
            .expect("a heap of the code's reach, or one or two more, has a move")
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of heaps, then each heap: `3 4 5 6` is three heaps of 4, 5 and 6.",
                vi: "Số đống, rồi số viên của từng đống: `3 4 5 6` là ba đống 4, 5 và 6 viên.",
            },
            moves: Words {
                en: "`i t` takes t from heap i (heaps are numbered from 1) and leaves the rest as \
                     one heap; `i t a` takes t from heap i and splits the rest into heaps of a \
                     and of what is left. Which moves are allowed is the game's rule.",
                vi: "`i t` bốc t viên ở đống thứ i (đánh số từ 1), phần còn lại vẫn là một đống; \
                     `i t a` bốc t viên ở đống thứ i rồi chia phần còn lại thành hai đống, một \
                     đống a viên. Được đi những nước nào là do luật của trò chơi.",
            },
        }
    }
}
