//! Take-away games whose limit follows the previous move, in two formats: Fibonacci Nim (HDU 2516:
//! one `n` per line, `0` ends; `Second win` / `First win`) and k-multiple subtraction (POJ 3922:
//! `t` lines `n k`; `Case i: lose` or the smallest winning first move).

use super::multiple_play::MultiplePlay;
use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed, split_answers};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::multiple;
use rand::RngExt;
use serde::Deserialize;
use std::fmt::Write;

pub struct Multiple {
    /// `None`: Fibonacci Nim (k = 2, the HDU format); `Some(max_k)`: POJ 3922.
    max_k: Option<u32>,
    /// The game on a page, from any pile and limit.
    board: Played<MultiplePlay>,
}

impl Multiple {
    pub const FIBONACCI: Multiple = Multiple {
        max_k: None,
        board: Played(MultiplePlay::FIBONACCI),
    };
    pub const K_MULTIPLE: Multiple = Multiple {
        max_k: Some(100_000),
        board: Played(MultiplePlay::K_MULTIPLE),
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    fn board(&self) -> Option<&dyn Board> {
        Some(&self.board)
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

const LINEAR_RECURRENCE: Misconception = Misconception {
    id: "k-multiple-linear-recurrence",
    title: "The losing sizes from a(i) = a(i − 1) + a(i − k)",
    text: "The program builds the losing pile sizes by adding to each the one k places back, \
           a(i) = a(i − 1) + a(i − k), from 1, 2, …, k + 1. That gives the powers of two for \
           k = 1 and the Fibonacci numbers for k = 2, but not the losing sizes beyond: for k = 3 \
           it gives 1, 2, 3, 4, 6, 9, …, while 8 is a losing size and 9 is not (9 = 8 + 1: Lan \
           takes 1, and Minh may take at most 3 of the 8 left). Each losing size is one more than \
           the largest pile that a sum of smaller losing sizes can make, every term of the sum \
           more than k times the next; the sizes have to be built by that rule.",
};

/// `n = a + b + c` in losing sizes for `k`, or `n` alone when it is one term.
fn sum_text(n: u64, k: u64) -> String {
    let terms: Vec<String> = multiple::decomposition(n, k)
        .iter()
        .map(u64::to_string)
        .collect();
    if terms.len() == 1 {
        format!("{n}")
    } else {
        format!("{n} = {}", terms.join(" + "))
    }
}

/// `text` ended as a sentence: a full stop, unless a list cut short ends it with "…".
fn sentence(mut text: String) -> String {
    if !text.ends_with('…') {
        text.push('.');
    }
    text
}

/// The smallest term of `n`'s sum of losing sizes for `k`: what the player to move takes.
fn smallest_term(n: u64, k: u64) -> u64 {
    *multiple::decomposition(n, k)
        .last()
        .expect("a pile of stones has a term")
}

impl Multiple {
    fn fibonacci_certificate(&self, n: u64) -> Certificate {
        let terms = multiple::decomposition(n, 2);
        let zeckendorf_en = "its unique sum of Fibonacci numbers 1, 2, 3, 5, 8, 13, …, no two \
                             of them consecutive";
        let zeckendorf_vi = "cách viết duy nhất thành tổng các số Fibonacci 1, 2, 3, 5, 8, 13, …, \
                             không có hai số liên tiếp";
        if terms.len() == 1 {
            let left = n - 1;
            let reply = smallest_term(left, 2);
            return Certificate {
                en: format!(
                    "The second player wins: n = {n} is a Fibonacci number. Lan may not take the \
                     whole pile, and whatever she takes, x stones, the smallest term of the \
                     Zeckendorf representation of what is left ({zeckendorf_en}) is at most 2x, \
                     so Minh takes exactly that term. For example, if Lan takes 1, she leaves \
                     {} and Minh takes {reply}. He does the same after each of her moves: the \
                     pile he leaves has its smallest term more than twice what he took, out of \
                     her reach, and in the end he takes the last stone.",
                    sum_text(left, 2)
                ),
                vi: format!(
                    "Người đi sau thắng: n = {n} là một số Fibonacci. Lan không được bốc cả \
                     đống, và dù Lan bốc x viên, số hạng nhỏ nhất trong biểu diễn Zeckendorf \
                     của số còn lại ({zeckendorf_vi}) không quá 2x, nên Minh bốc đúng số hạng \
                     đó. Ví dụ, nếu Lan bốc 1 viên thì còn {} và Minh bốc {reply}. Minh làm như \
                     vậy sau mỗi nước của Lan: số hạng nhỏ nhất của đống Minh để lại luôn lớn \
                     hơn hai lần số Minh vừa bốc, Lan không bốc hết được, và cuối cùng Minh bốc \
                     viên cuối cùng.",
                    sum_text(left, 2)
                ),
            };
        }
        let smallest = *terms.last().expect("n ≥ 2");
        let left = n - smallest;
        let next = smallest_term(left, 2);
        Certificate {
            en: format!(
                "The first player wins: n = {n} is not a Fibonacci number. Its Zeckendorf \
                 representation, {zeckendorf_en}, is {}. Lan takes the smallest term, \
                 {smallest}, leaving {}, whose smallest term {next} is more than twice \
                 {smallest}: Minh cannot take it, and whatever he takes, x stones, the smallest \
                 term of what is left is at most 2x, so Lan takes exactly that term. Doing this \
                 after each of his moves, she takes the last stone.",
                sum_text(n, 2),
                sum_text(left, 2)
            ),
            vi: format!(
                "Người đi trước thắng: n = {n} không phải số Fibonacci. Biểu diễn Zeckendorf \
                 của nó, {zeckendorf_vi}, là {}. Lan bốc số hạng nhỏ nhất, {smallest} viên, để lại \
                 {}, có số hạng nhỏ nhất {next} lớn hơn hai lần {smallest}: Minh không bốc hết \
                 được, và dù Minh bốc x viên, số hạng nhỏ nhất của số còn lại không quá 2x, \
                 nên Lan bốc đúng số hạng đó. Làm như vậy sau mỗi nước của Minh, Lan bốc viên \
                 cuối cùng.",
                sum_text(n, 2),
                sum_text(left, 2)
            ),
        }
    }

    /// Why the smallest winning first move is the smallest term of `n`'s sum of losing sizes:
    /// taking it leaves Minh a smallest term out of reach, and after every smaller move (or
    /// after every move, when `n` is a losing size) Minh can take the smallest term left.
    fn k_multiple_certificate(&self, n: u64, k: u64) -> Certificate {
        let losing: Vec<u64> = multiple::losing_sizes(k, n)
            .into_iter()
            .filter(|&a| a <= n)
            .collect();
        let losing_text = listed(losing.iter().map(u64::to_string), ", ");
        let why_en = format!(
            "For k = {k} the losing sizes, the piles on which the player who moves first loses, \
             are {losing_text}: each is one more than the largest sum of smaller ones in which \
             every term is more than {k} times the next. Every pile is a sum of losing sizes \
             taken greedily from the largest, each term more than {k} times the next, and the \
             player to move, allowed to take at most L stones, wins exactly when the smallest \
             term is at most L: taking that term leaves a smallest term more than {k} times what \
             was taken, out of the opponent's reach, and whatever the opponent then takes, x \
             stones, the smallest term of what is left is at most {k} × x, so the same player \
             takes it again, down to the last stone."
        );
        let why_vi = format!(
            "với k = {k}, các số đá thua (đống mà người đi trước thua) là {losing_text}: mỗi số \
             bằng tổng lớn nhất của các số nhỏ hơn trong dãy, mỗi số hạng lớn hơn {k} lần số \
             hạng liền sau, cộng thêm 1. Mỗi đống viết được thành tổng các số thua, chọn tham lam \
             từ số lớn nhất, mỗi số hạng lớn hơn {k} lần số hạng liền sau; người đến lượt, được \
             bốc nhiều nhất L viên, thắng khi và chỉ khi số hạng nhỏ nhất không quá L: bốc đúng \
             số hạng đó thì số hạng nhỏ nhất còn lại lớn hơn {k} lần số vừa bốc, đối thủ không \
             bốc hết được, và dù đối thủ bốc x viên, số hạng nhỏ nhất của phần còn lại không quá \
             {k} × x, nên người ấy lại bốc đúng số hạng đó, cho đến viên cuối cùng."
        );
        let answer = multiple::smallest_winning_move(n, k);
        // Minh's winning reply to each first move below the answer (every move, when Lan loses).
        let losing_moves = answer.unwrap_or(n) - 1;
        let replies: Vec<(u64, u64)> = (1..=losing_moves.min(13))
            .map(|x| (x, smallest_term(n - x, k)))
            .collect();
        let replies_en = sentence(listed(
            replies.iter().map(|&(x, reply)| {
                format!(
                    "taking {x} leaves {} and Minh takes {reply} (at most {k} × {x} = {})",
                    sum_text(n - x, k),
                    k * x
                )
            }),
            "; ",
        ));
        let replies_vi = sentence(listed(
            replies.iter().map(|&(x, reply)| {
                format!(
                    "bốc {x} viên thì còn {} và Minh bốc {reply} viên (không quá {k} × {x} = {})",
                    sum_text(n - x, k),
                    k * x
                )
            }),
            "; ",
        ));
        let Some(m) = answer else {
            return Certificate {
                en: format!(
                    "Lan loses: {n} is a losing size. Whatever she takes first, x stones with \
                     1 ≤ x ≤ {}, the smallest term of what is left is at most {k} × x and Minh \
                     takes it: {replies_en} {why_en}",
                    n - 1
                ),
                vi: format!(
                    "Lan thua: {n} là một số thua. Dù nước đầu Lan bốc x viên với 1 ≤ x ≤ {}, số \
                     hạng nhỏ nhất của phần còn lại không quá {k} × x và Minh bốc đúng số hạng đó: \
                     {replies_vi} Lý do: {why_vi}",
                    n - 1
                ),
            };
        };
        let left = n - m;
        let out_of_reach = smallest_term(left, k);
        let (smaller_en, smaller_vi) = if m == 1 {
            (
                "No first move is smaller.".to_owned(),
                "Không có nước đi đầu nào nhỏ hơn.".to_owned(),
            )
        } else {
            (
                format!("Every smaller first move loses: {replies_en}"),
                format!("Mọi nước đi đầu nhỏ hơn đều thua: {replies_vi}"),
            )
        };
        Certificate {
            en: format!(
                "Lan wins, and her smallest winning first move is {m}. As a sum of losing sizes, \
                 each more than {k} times the next, {}; its smallest term is {m}. Taking {m} \
                 leaves {}, whose smallest term {out_of_reach} is more than {k} × {m} = {}: \
                 Minh cannot take it, and Lan keeps taking the smallest term after each of his \
                 moves. {smaller_en} {why_en}",
                sum_text(n, k),
                sum_text(left, k),
                k * m
            ),
            vi: format!(
                "Lan thắng, và nước đi đầu nhỏ nhất giúp Lan thắng là bốc {m} viên. Viết thành \
                 tổng các số thua, mỗi số hạng lớn hơn {k} lần số hạng liền sau, ta có {}; số \
                 hạng nhỏ nhất là {m}. Bốc {m} viên để lại {}, có số hạng nhỏ nhất \
                 {out_of_reach} lớn hơn {k} × {m} = {}: Minh không bốc hết được, và sau mỗi nước \
                 của Minh, Lan lại bốc số hạng nhỏ nhất. {smaller_vi} Lý do: {why_vi}",
                sum_text(n, k),
                sum_text(left, k),
                k * m
            ),
        }
    }

    /// The answer of a program that builds the losing sizes by `a(i) = a(i − 1) + a(i − k)`.
    fn by_linear_recurrence(n: u64, k: u64) -> Option<u64> {
        let mut sizes: Vec<u64> = (1..=(k + 1).min(n)).collect();
        while *sizes.last().expect("n ≥ 1") < n {
            let i = sizes.len();
            sizes.push(sizes[i - 1] + sizes[i - k as usize]);
        }
        if sizes.contains(&n) {
            return None;
        }
        let mut rest = n;
        let mut smallest = n;
        for &size in sizes.iter().rev() {
            if size <= rest {
                rest -= size;
                smallest = size;
            }
        }
        Some(smallest)
    }
}

/// A game is `(n, k)`; Fibonacci Nim's k is always 2.
impl Explain for Multiple {
    type Game = (u64, u64);

    fn small_games(&self) -> Vec<(u64, u64)> {
        match self.max_k {
            None => (2..=30).map(|n| (n, 2)).collect(),
            // k = 3 is the first k whose losing sizes are neither powers of two nor Fibonacci
            // numbers; up to 6 the runs of consecutive losing sizes still end below 30.
            Some(_) => (2..=30)
                .flat_map(|n| (1..=6).map(move |k| (n, k)))
                .collect(),
        }
    }

    fn random_game(&self, rng: &mut TestRng) -> (u64, u64) {
        let k = match self.max_k {
            None => 2,
            Some(_) => rng.random_range(1..=10),
        };
        (rng.random_range(2..=200), k)
    }

    fn games_per_input(&self) -> usize {
        self.max_games() as usize
    }

    fn input_of(&self, games: &[(u64, u64)]) -> Input {
        Input {
            games: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<(u64, u64)> {
        input.games.clone()
    }

    fn answer(&self, &(n, k): &(u64, u64)) -> String {
        self.format(std::iter::once(multiple::smallest_winning_move(n, k)))
            .trim_end()
            .to_owned()
    }

    /// POJ 3922 numbers its answers: game `i` of an input is right as `Case i: …`, which is
    /// `Case 1: …` when the game is alone.
    fn split_output(&self, games: &[(u64, u64)], output: &str) -> Vec<Option<String>> {
        let expected: Vec<String> = games.iter().map(|g| self.answer(g)).collect();
        let answers = split_answers(output, &expected);
        if self.max_k.is_none() {
            return answers;
        }
        answers
            .into_iter()
            .enumerate()
            .map(|(i, answer)| {
                answer.map(|text| {
                    let own = format!("Case {}: ", i + 1);
                    match text.strip_prefix(&own) {
                        Some(rest) => format!("Case 1: {rest}"),
                        None => text,
                    }
                })
            })
            .collect()
    }

    fn size(&self, &(n, k): &(u64, u64)) -> u64 {
        match self.max_k {
            None => n,
            // k ≤ 10⁵ < 2²⁰.
            Some(_) => n << 20 | k,
        }
    }

    fn shrink(&self, &(n, k): &(u64, u64)) -> Vec<(u64, u64)> {
        let candidates: Vec<(u64, u64)> = match self.max_k {
            None => vec![(n / 2, k), (n - 1, k)],
            Some(_) => vec![
                (n / 2, k),
                (n - 1, k),
                // From k = n − 1 on, Minh can always take the rest: the same game.
                (n, k.min(n - 1)),
                (n, k / 2),
                (n, k - 1),
            ],
        };
        let mut smaller: Vec<(u64, u64)> = candidates
            .into_iter()
            .filter(|&(a, b)| a >= 2 && b >= 1 && self.size(&(a, b)) < self.size(&(n, k)))
            .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, &(n, k): &(u64, u64)) -> Certificate {
        match self.max_k {
            None => self.fibonacci_certificate(n),
            Some(_) => self.k_multiple_certificate(n, k),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        match self.max_k {
            None => &[POWERS_OF_TWO],
            Some(_) => &[LINEAR_RECURRENCE],
        }
    }

    fn misconceived(&self, id: &str, &(n, k): &(u64, u64)) -> Option<String> {
        let answer = match (id, self.max_k) {
            ("fibonacci-powers-of-two", None) => (!n.is_power_of_two()).then_some(0),
            ("k-multiple-linear-recurrence", Some(_)) => Self::by_linear_recurrence(n, k),
            _ => return None,
        };
        Some(self.format(std::iter::once(answer)).trim_end().to_owned())
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
        Problem::new("k-multiple-subtraction").assert_sound();
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
        let twelve = fib.certificate(&(12, 2));
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
        let ten = fib.certificate(&(10, 2));
        assert!(
            ten.en
                .contains("smallest term, 2, leaving 8, whose smallest term 8"),
            "{}",
            ten.en
        );
        let thirteen = fib.certificate(&(13, 2));
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
        let two = fib.certificate(&(2, 2));
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
        assert_eq!(fib.shrink(&(13, 2)), vec![(6, 2), (12, 2)]);
        assert_eq!(fib.shrink(&(3, 2)), vec![(2, 2)]);
        assert!(fib.shrink(&(2, 2)).is_empty());
    }

    /// Whether the player to move wins with `left` stones when the move may take at most
    /// `limit`, by the rules alone: `wins[left][limit]`, for piles up to `n`.
    fn table_of_wins(n: usize, k: usize) -> Vec<Vec<bool>> {
        let mut wins = vec![vec![false; n + 1]; n + 1];
        for left in 1..=n {
            for limit in 1..=n {
                wins[left][limit] = (1..=limit.min(left)).any(|take| {
                    let after = left - take;
                    after == 0 || !wins[after][(take * k).min(n)]
                });
            }
        }
        wins
    }

    /// The smallest first move after which Minh, to move, loses; `None` when there is none.
    fn smallest_by_rules(n: u64, k: u64) -> Option<u64> {
        let wins = table_of_wins(n as usize, k as usize);
        (1..n).find(|&x| !wins[(n - x) as usize][(k * x).min(n) as usize])
    }

    /// A program for POJ 3922's input: `t`, then `n k` lines, answered `Case i: …` by `answer`.
    fn poj_program(answer: fn(u64, u64) -> Option<u64>) -> impl Fn(&str) -> String {
        move |input: &str| {
            input
                .lines()
                .skip(1)
                .enumerate()
                .map(|(i, line)| {
                    let (n, k) = line.split_once(' ').unwrap();
                    match answer(n.parse().unwrap(), k.parse().unwrap()) {
                        None => format!("Case {}: lose\n", i + 1),
                        Some(x) => format!("Case {}: {x}\n", i + 1),
                    }
                })
                .collect()
        }
    }

    /// The losing sizes by a(i) = a(i − 1) + a(i − k) from 1, …, k + 1, as the mistake has it,
    /// and the smallest term of n's greedy sum of them.
    fn by_recurrence(n: u64, k: u64) -> Option<u64> {
        let mut a: Vec<u64> = (1..=k + 1).collect();
        while *a.last().unwrap() < n {
            a.push(a[a.len() - 1] + a[a.len() - k as usize]);
        }
        if a.contains(&n) {
            return None;
        }
        let mut rest = n;
        let mut last = 0;
        for &size in a.iter().rev() {
            if size <= rest {
                rest -= size;
                last = size;
            }
        }
        Some(last)
    }

    #[test]
    fn the_rules_searched_are_right_for_k_multiple() {
        Problem::new("k-multiple-subtraction").assert_right(&poj_program(smallest_by_rules));
    }

    #[test]
    fn the_linear_recurrence_is_named_with_eight_stones_and_k_3() {
        let found = Problem::new("k-multiple-subtraction")
            .assert_named("k-multiple-linear-recurrence", &poj_program(by_recurrence));
        // For k = 3 the recurrence gives 1, 2, 3, 4, 6, 9: 8 = 6 + 2 looks won by taking 2, but
        // 8 is a losing size (every pile below 8 agrees, and k ≤ 2 follow the recurrence).
        assert_eq!(found.position, "1\n8 3\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("Case 1: lose", "Case 1: 2")
        );
    }

    #[test]
    fn answers_are_read_by_their_case_numbers() {
        let poj = &Multiple::K_MULTIPLE;
        let games = [(11, 1), (16, 1)];
        assert_eq!(
            poj.split_output(&games, "Case 1: 1\nCase 2: lose\n"),
            [
                Some("Case 1: 1".to_owned()),
                Some("Case 1: lose".to_owned())
            ]
        );
        // A wrong case number stays wrong.
        let split = poj.split_output(&games, "Case 1: 1\nCase 3: lose\n");
        assert!(!poj.is_right(&games[1], split[1].as_deref().unwrap(), true));
    }

    #[test]
    fn k_multiple_certificates_prove_the_smallest_move() {
        let poj = &Multiple::K_MULTIPLE;
        // k = 3: the losing sizes are 1, 2, 3, 4, 6, 8, 11, 15, 21, … and 19 = 15 + 4. Taking 4
        // leaves 15, out of reach (15 > 12); after 1, 2 or 3 Minh takes 3, 2 or 1 and leaves 15.
        let nineteen = poj.certificate(&(19, 3));
        for part in [
            "smallest winning first move is 4",
            "19 = 15 + 4",
            "Taking 4 leaves 15, whose smallest term 15 is more than 3 × 4 = 12",
            "taking 1 leaves 18 = 15 + 3 and Minh takes 3 (at most 3 × 1 = 3)",
            "taking 2 leaves 17 = 15 + 2 and Minh takes 2 (at most 3 × 2 = 6)",
            "taking 3 leaves 16 = 15 + 1 and Minh takes 1 (at most 3 × 3 = 9)",
            "are 1, 2, 3, 4, 6, 8, 11, 15",
        ] {
            assert!(nineteen.en.contains(part), "{part}: {}", nineteen.en);
        }
        assert!(
            nineteen
                .vi
                .contains("bốc 1 viên thì còn 18 = 15 + 3 và Minh bốc 3 viên"),
            "{}",
            nineteen.vi
        );
        // k = 1: 16 is a power of two; any odd first move is answered by 1.
        let sixteen = poj.certificate(&(16, 1));
        assert!(sixteen.en.starts_with("Lan loses: 16 is a losing size"));
        assert!(
            sixteen
                .en
                .contains("taking 1 leaves 15 = 8 + 4 + 2 + 1 and Minh takes 1"),
            "{}",
            sixteen.en
        );
        assert!(
            sixteen
                .en
                .contains("taking 6 leaves 10 = 8 + 2 and Minh takes 2 (at most 1 × 6 = 6)")
        );
        assert!(sixteen.vi.starts_with("Lan thua: 16 là một số thua"));
        // 11 = 8 + 2 + 1 with k = 1: taking 1 is the smallest move there is.
        let eleven = poj.certificate(&(11, 1));
        assert!(
            eleven.en.contains("No first move is smaller."),
            "{}",
            eleven.en
        );
    }

    #[test]
    fn k_multiple_certificates_hold_by_the_rules() {
        // The certificate's claims, checked by a search of the rules: the smallest term wins,
        // and after every smaller first move Minh's reply (the smallest term left) is allowed
        // and leaves Lan a lost position.
        for k in 1..=6u64 {
            for n in 2..=60u64 {
                let wins = table_of_wins(n as usize, k as usize);
                let lost_after = |left: u64, took: u64| {
                    left > 0 && !wins[left as usize][(k * took).min(n) as usize]
                };
                let answer = multiple::smallest_winning_move(n, k);
                assert_eq!(answer, smallest_by_rules(n, k), "n = {n}, k = {k}");
                if let Some(m) = answer {
                    assert_eq!(m, smallest_term(n, k));
                    assert!(lost_after(n - m, m), "n = {n}, k = {k}");
                }
                for x in 1..answer.unwrap_or(n) {
                    let reply = smallest_term(n - x, k);
                    assert!(reply <= k * x, "n = {n}, k = {k}, x = {x}");
                    let left = n - x - reply;
                    assert!(
                        left == 0 || lost_after(left, reply),
                        "n = {n}, k = {k}, x = {x}"
                    );
                }
            }
        }
    }

    #[test]
    fn k_multiple_shrinking_gives_smaller_games() {
        let poj = &Multiple::K_MULTIPLE;
        assert_eq!(
            poj.shrink(&(10, 12)),
            vec![(5, 12), (9, 12), (10, 6), (10, 9), (10, 11)]
        );
        assert_eq!(poj.shrink(&(2, 1)), vec![]);
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
