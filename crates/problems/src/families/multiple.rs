//! Take-away games whose limit follows the previous move, in two formats: Fibonacci Nim (HDU 2516:
//! one `n` per line, `0` ends; `Second win` / `First win`) and k-multiple subtraction (POJ 3922:
//! `t` lines `n k`; `Case i: lose` or the smallest winning first move).

use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::multiple;
use rand::RngExt;
use serde::Deserialize;
use std::fmt::Write;

pub struct Multiple {
    /// `None`: Fibonacci Nim (k = 2, the HDU format); `Some(max_k)`: POJ 3922.
    max_k: Option<u32>,
}

impl Multiple {
    pub const FIBONACCI: Multiple = Multiple { max_k: None };
    pub const K_MULTIPLE: Multiple = Multiple {
        max_k: Some(100_000),
    };

    fn max_games(&self) -> u32 {
        if self.max_k.is_some() { 100 } else { 10_000 }
    }
    fn max_n(&self) -> u64 {
        if self.max_k.is_some() {
            100_000_000
        } else {
            (1 << 31) - 1
        }
    }

    fn format(&self, answers: impl Iterator<Item = Option<u64>>) -> String {
        let mut out = String::new();
        for (i, answer) in answers.enumerate() {
            match (self.max_k, answer) {
                (None, None) => out.push_str("Second win\n"),
                (None, Some(_)) => out.push_str("First win\n"),
                (Some(_), None) => writeln!(out, "Case {}: lose", i + 1).expect("String"),
                (Some(_), Some(m)) => writeln!(out, "Case {}: {m}", i + 1).expect("String"),
            }
        }
        out
    }
}

#[derive(Debug)]
pub struct Input {
    /// `(n, k)`; k is 2 for Fibonacci Nim.
    pub games: Vec<(u64, u64)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_n: u64,
    #[serde(default)]
    pub max_k: Option<u32>,
}

impl Family for Multiple {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut games = Vec::new();
        match self.max_k {
            None => loop {
                let n: u64 = reader.single("n", 0..=self.max_n())?;
                if n == 0 {
                    break;
                }
                if n < 2 {
                    return Err(ValidationError::new(
                        reader.line_number(),
                        "n = 1 is outside 2..=2147483647",
                    ));
                }
                if games.len() == self.max_games() as usize {
                    return Err(ValidationError::new(
                        reader.line_number(),
                        format!("at most {} values may come before the 0", self.max_games()),
                    ));
                }
                games.push((n, 2));
            },
            Some(max_k) => {
                let t: u32 = reader.single("t", 1..=self.max_games())?;
                for _ in 0..t {
                    let line = reader.line("a line \"n k\"")?;
                    line.expect_len(2, "n k")?;
                    games.push((
                        line.int(0, "n", 2..=self.max_n())?,
                        line.int(1, "k", 1..=u64::from(max_k))?,
                    ));
                }
            }
        }
        reader.expect_eof()?;
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        if self.max_k.is_some() {
            push_line(&mut out, [input.games.len()]);
            for &(n, k) in &input.games {
                push_line(&mut out, [n, k]);
            }
        } else {
            for &(n, _) in &input.games {
                push_line(&mut out, [n]);
            }
            out.push_str("0\n");
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, self.max_games().into())?;
        within("max_n", p.max_n, 2, self.max_n())?;
        match (self.max_k, p.max_k) {
            (Some(limit), Some(k)) => within("max_k", k.into(), 1, limit.into()),
            (None, None) => Ok(()),
            (Some(_), None) => Err("max_k is required".into()),
            (None, Some(_)) => Err("max_k does not apply: k is 2".into()),
        }
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of games",
            input.games.len() as u64,
            p.max_games.into(),
        )?;
        for &(n, k) in &input.games {
            at_most("n", n, p.max_n)?;
            at_most("k", k, p.max_k.map_or(2, u64::from))?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let max_k = u64::from(p.max_k.unwrap_or(2));
        // Mostly small k, where the losing sizes are sparse and varied; a fifth near the limit,
        // where the reference does the most work.
        let pick_k = |rng: &mut TestRng| match rng.random_range(0..10) {
            0 | 1 => rng.random_range(max_k.div_ceil(2)..=max_k),
            2..=4 => rng.random_range(1..=max_k.min(10)),
            _ => rng.random_range(1..=max_k.min(1000)),
        };
        let games = (0..p.max_games as usize)
            .map(|g| {
                let k = match (self.max_k, index, g % 4) {
                    (None, _, _) => 2,
                    // The largest k with the largest n.
                    (Some(_), 0, 0) => max_k,
                    // The classic values of k, and the largest.
                    (Some(_), 1, 0) => 1,
                    (Some(_), 1, 1) => 2,
                    (Some(_), 1, 2) => max_k,
                    _ => pick_k(rng),
                };
                // Losing sizes and their neighbours, near the top and at random.
                let losing = multiple::LosingRuns::new(k, p.max_n);
                let count = losing.count();
                let pick = |i: u64| losing.nth(i).clamp(2, p.max_n);
                let n = match (index, g % 3) {
                    (0, _) => p.max_n - rng.random_range(0..(p.max_n - 1).min(3)),
                    // The largest losing sizes, and random ones or their successors.
                    (_, 0) => pick(rng.random_range(count.saturating_sub(4)..count)),
                    (_, 1) => {
                        (pick(rng.random_range(0..count)) + rng.random_range(0..=1)).min(p.max_n)
                    }
                    _ => rng.random_range(2..=p.max_n),
                };
                (n, k)
            })
            .collect();
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        self.format(
            input
                .games
                .iter()
                .map(|&(n, k)| multiple::smallest_winning_move(n, k)),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input.games.iter().all(|&(n, _)| n <= 100);
        let table = small.then(|| {
            self.format(
                input
                    .games
                    .iter()
                    .map(|&(n, k)| multiple::smallest_winning_move_by_table(n, k)),
            )
        });
        let brute = input
            .games
            .iter()
            .all(|&(n, _)| n <= 24)
            .then(|| {
                input
                    .games
                    .iter()
                    .map(|&(n, k)| multiple::smallest_winning_move_by_search(n, k, 100_000))
                    .collect::<Option<Vec<_>>>()
            })
            .flatten()
            .map(|answers| self.format(answers.into_iter()));
        // Closed forms decide lose or win for k = 1 and k = 2; only Fibonacci Nim's answer is the
        // winner alone, so only there can they stand in for the reference.
        let closed = input
            .games
            .iter()
            .map(|&(n, k)| multiple::closed_form_loses(n, k))
            .collect::<Option<Vec<bool>>>()
            .filter(|_| self.max_k.is_none())
            .map(|loses| self.format(loses.into_iter().map(|l| (!l).then_some(0))));
        // Seed 001's construction term by term, where the sequence is short enough.
        let terms = input
            .games
            .iter()
            .all(|&(n, k)| k <= 2_000 || n <= 1_000_000)
            .then(|| {
                self.format(
                    input
                        .games
                        .iter()
                        .map(|&(n, k)| multiple::smallest_winning_move_term_by_term(n, k)),
                )
            });
        vec![
            CrossCheck::new("a/b construction term by term", terms),
            CrossCheck::new("dynamic programme", table),
            CrossCheck::new("brute force", brute),
            CrossCheck::new("closed form", closed),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let ks: Vec<u64> = if self.max_k.is_some() {
            (1..=5).collect()
        } else {
            vec![2]
        };
        let games: Vec<(u64, u64)> = ks
            .iter()
            .flat_map(|&k| (2..=24).map(move |n| (n, k)))
            .collect();
        games
            .chunks(self.max_games() as usize)
            .map(|c| Input { games: c.to_vec() })
            .collect()
    }

    /// Fibonacci Nim explains; k-multiple subtraction does not (its answer, the smallest
    /// winning move, would need every smaller move proved losing).
    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        if self.max_k.is_none() {
            Some(self)
        } else {
            None
        }
    }
}

const POWERS_OF_TWO: Misconception = Misconception {
    id: "fibonacci-powers-of-two",
    title: "Powers of two instead of Fibonacci numbers",
    text: "The program says the second player wins exactly when n is a power of two. That is \
           the rule when a move may take at most as many stones as the move before. Here it may \
           take up to twice as many, and the second player wins exactly when n is a Fibonacci \
           number (2, 3, 5, 8, 13, …): with n = 3, Lan takes 1 or 2, and either way Minh takes \
           the rest, since twice 1 is 2.",
};

/// `n` as the sum of non-consecutive Fibonacci numbers (Zeckendorf), largest first.
fn zeckendorf(n: u64) -> Vec<u64> {
    let mut terms = Vec::new();
    let mut rest = n;
    for &f in fibonacci_numbers(n).iter().rev() {
        if f <= rest {
            terms.push(f);
            rest -= f;
        }
    }
    terms
}

/// The Fibonacci numbers 1, 2, 3, 5, … up to `n`.
fn fibonacci_numbers(n: u64) -> Vec<u64> {
    grundy_games::wythoff::fibonacci_up_to(n.max(2))
}

/// `n = a + b + c`, or `n` alone when it is one term.
fn sum_text(n: u64) -> String {
    let terms: Vec<String> = zeckendorf(n).iter().map(u64::to_string).collect();
    if terms.len() == 1 {
        format!("{n}")
    } else {
        format!("{n} = {}", terms.join(" + "))
    }
}

/// Fibonacci Nim only: a game is its `n` (k is 2).
impl Explain for Multiple {
    type Game = u64;

    fn small_games(&self) -> Vec<u64> {
        (2..=30).collect()
    }

    fn random_game(&self, rng: &mut TestRng) -> u64 {
        rng.random_range(2..=200)
    }

    fn games_per_input(&self) -> usize {
        self.max_games() as usize
    }

    fn input_of(&self, games: &[u64]) -> Input {
        Input {
            games: games.iter().map(|&n| (n, 2)).collect(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<u64> {
        input.games.iter().map(|&(n, _)| n).collect()
    }

    fn answer(&self, &n: &u64) -> String {
        self.format(std::iter::once(multiple::smallest_winning_move(n, 2)))
            .trim_end()
            .to_owned()
    }

    fn size(&self, &n: &u64) -> u64 {
        n
    }

    fn shrink(&self, &n: &u64) -> Vec<u64> {
        let mut smaller: Vec<u64> = [n / 2, n - 1].into_iter().filter(|&m| m >= 2).collect();
        smaller.dedup();
        smaller
    }

    fn certificate(&self, &n: &u64) -> Certificate {
        let terms = zeckendorf(n);
        let zeckendorf_en = "its unique sum of Fibonacci numbers 1, 2, 3, 5, 8, 13, …, no two \
                             of them consecutive";
        let zeckendorf_vi = "cách viết duy nhất thành tổng các số Fibonacci 1, 2, 3, 5, 8, 13, …, \
                             không có hai số liên tiếp";
        if terms.len() == 1 {
            let left = n - 1;
            let reply = *zeckendorf(left).last().expect("n ≥ 2 leaves a stone");
            return Certificate {
                en: format!(
                    "The second player wins: n = {n} is a Fibonacci number. Lan may not take the \
                     whole pile, and whatever she takes, x stones, the smallest term of the \
                     Zeckendorf representation of what is left ({zeckendorf_en}) is at most 2x, \
                     so Minh takes exactly that term. For example, if Lan takes 1, she leaves \
                     {} and Minh takes {reply}. He does the same after each of her moves: the \
                     pile he leaves has its smallest term more than twice what he took, out of \
                     her reach, and in the end he takes the last stone.",
                    sum_text(left)
                ),
                vi: format!(
                    "Người đi sau thắng: n = {n} là một số Fibonacci. Lan không được bốc cả \
                     đống, và dù Lan bốc x viên, số hạng nhỏ nhất trong biểu diễn Zeckendorf \
                     của số còn lại ({zeckendorf_vi}) không quá 2x, nên Minh bốc đúng số hạng \
                     đó. Ví dụ, nếu Lan bốc 1 viên thì còn {} và Minh bốc {reply}. Minh làm như \
                     vậy sau mỗi nước của Lan: số hạng nhỏ nhất của đống Minh để lại luôn lớn \
                     hơn hai lần số Minh vừa bốc, Lan không bốc hết được, và cuối cùng Minh bốc \
                     viên cuối cùng.",
                    sum_text(left)
                ),
            };
        }
        let smallest = *terms.last().expect("n ≥ 2");
        let left = n - smallest;
        let next = *zeckendorf(left).last().expect("two terms or more");
        Certificate {
            en: format!(
                "The first player wins: n = {n} is not a Fibonacci number. Its Zeckendorf \
                 representation, {zeckendorf_en}, is {}. Lan takes the smallest term, \
                 {smallest}, leaving {}, whose smallest term {next} is more than twice \
                 {smallest}: Minh cannot take it, and whatever he takes, x stones, the smallest \
                 term of what is left is at most 2x, so Lan takes exactly that term. Doing this \
                 after each of his moves, she takes the last stone.",
                sum_text(n),
                sum_text(left)
            ),
            vi: format!(
                "Người đi trước thắng: n = {n} không phải số Fibonacci. Biểu diễn Zeckendorf \
                 của nó, {zeckendorf_vi}, là {}. Lan bốc số hạng nhỏ nhất, {smallest} viên, để lại \
                 {}, có số hạng nhỏ nhất {next} lớn hơn hai lần {smallest}: Minh không bốc hết \
                 được, và dù Minh bốc x viên, số hạng nhỏ nhất của số còn lại không quá 2x, \
                 nên Lan bốc đúng số hạng đó. Làm như vậy sau mỗi nước của Minh, Lan bốc viên \
                 cuối cùng.",
                sum_text(n),
                sum_text(left)
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[POWERS_OF_TWO]
    }

    fn misconceived(&self, id: &str, &n: &u64) -> Option<String> {
        match id {
            "fibonacci-powers-of-two" => Some(
                if n.is_power_of_two() {
                    "Second win"
                } else {
                    "First win"
                }
                .to_owned(),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;
    use grundy_games::wythoff::fibonacci_up_to;

    /// A program for HDU 2516's input, one `n` per line until `0`.
    fn program(second_wins: fn(u64) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            input
                .lines()
                .map(|line| line.parse::<u64>().unwrap())
                .take_while(|&n| n != 0)
                .map(|n| {
                    if second_wins(n) {
                        "Second win\n"
                    } else {
                        "First win\n"
                    }
                })
                .collect()
        }
    }

    fn is_fibonacci(n: u64) -> bool {
        let (mut a, mut b) = (1u64, 2u64);
        while b < n {
            (a, b) = (b, a + b);
        }
        b == n || a == n
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("fibonacci-nim").assert_sound();
        assert!(
            crate::families::by_name("k-multiple-subtraction")
                .unwrap()
                .explainer()
                .is_none()
        );
    }

    #[test]
    fn fibonacci_numbers_are_right() {
        Problem::new("fibonacci-nim").assert_right(&program(is_fibonacci));
    }

    #[test]
    fn powers_of_two_are_named_with_three_stones() {
        let found = Problem::new("fibonacci-nim")
            .assert_named("fibonacci-powers-of-two", &program(u64::is_power_of_two));
        assert_eq!(found.position, "3\n0\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("Second win", "First win")
        );
    }

    #[test]
    fn certificates_use_the_zeckendorf_representation() {
        let fib = &Multiple::FIBONACCI;
        // 12 = 8 + 3 + 1: take 1, leaving 11 = 8 + 3, whose smallest term 3 is out of reach.
        let twelve = fib.certificate(&12);
        assert!(
            twelve.en.contains("consecutive, is 12 = 8 + 3 + 1"),
            "{}",
            twelve.en
        );
        assert!(
            twelve
                .en
                .contains("leaving 11 = 8 + 3, whose smallest term 3"),
            "{}",
            twelve.en
        );
        // 10 = 8 + 2: take 2, leaving 8.
        let ten = fib.certificate(&10);
        assert!(
            ten.en
                .contains("smallest term, 2, leaving 8, whose smallest term 8"),
            "{}",
            ten.en
        );
        let thirteen = fib.certificate(&13);
        assert!(
            thirteen.en.contains("The second player wins: n = 13"),
            "{}",
            thirteen.en
        );
        assert!(
            thirteen
                .en
                .contains("if Lan takes 1, she leaves 12 = 8 + 3 + 1 and Minh takes 1")
        );
        assert!(
            thirteen.vi.contains("Người đi sau thắng"),
            "{}",
            thirteen.vi
        );
        let two = fib.certificate(&2);
        assert!(
            two.en
                .contains("if Lan takes 1, she leaves 1 and Minh takes 1"),
            "{}",
            two.en
        );
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let fib = &Multiple::FIBONACCI;
        assert_eq!(fib.shrink(&13), vec![6, 12]);
        assert_eq!(fib.shrink(&3), vec![2]);
        assert!(fib.shrink(&2).is_empty());
    }

    #[test]
    fn validator_rules() {
        let fib = &Multiple::FIBONACCI;
        assert_eq!(fib.parse("2\n13\n10000\n0\n").unwrap().games.len(), 3);
        assert_eq!(
            fib.parse("2\n13\n").unwrap_err().to_string(),
            "line 3: expected the line \"n\", found the end of the input"
        );
        assert_eq!(
            fib.parse("1\n0\n").unwrap_err().to_string(),
            "line 1: n = 1 is outside 2..=2147483647"
        );
        assert_eq!(
            fib.parse("2147483648\n0\n").unwrap_err().to_string(),
            "line 1: n = 2147483648 is outside 0..=2147483647"
        );
        assert_eq!(
            fib.parse("2\n0\n5\n").unwrap_err().to_string(),
            "line 3: expected the end of the input, found another line"
        );
        let poj = &Multiple::K_MULTIPLE;
        assert!(poj.parse("1\n16 1\n").is_ok());
        assert_eq!(
            poj.parse("1\n1 1\n").unwrap_err().to_string(),
            "line 2: n = 1 is outside 2..=100000000"
        );
        assert_eq!(
            poj.parse("1\n5 100001\n").unwrap_err().to_string(),
            "line 2: k = 100001 is outside 1..=100000"
        );
    }

    #[test]
    fn fibonacci_traps_are_generated() {
        let fibs = fibonacci_up_to((1 << 31) - 1);
        let p = Params {
            max_games: 10_000,
            max_n: (1 << 31) - 1,
            max_k: None,
        };
        let mut rng = crate::seed::TestKey {
            slug: "t",
            version: 1,
            subtask: 1,
            index: 1,
            seed: 1,
        }
        .rng();
        let input = Multiple::FIBONACCI.generate(&p, 3, &mut rng);
        assert!(input.games.iter().any(|&(n, _)| n == *fibs.last().unwrap()));
    }
}
