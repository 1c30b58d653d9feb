//! Bash's game (HDU 1846 "Brave Game"): `C`, then `C` lines `n m`; take 1..=m, last taker wins.

use super::stones_play::StonesPlay;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct Bash;

const MAX_C: u32 = 1000;
const MAX_VALUE: u32 = 1000;

#[derive(Debug)]
pub struct Input {
    pub games: Vec<(u32, u32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_games: u32,
    pub max_n: u32,
    pub max_m: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "first" } else { "second" }
}

impl Family for Bash {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"C\"")?;
        first.expect_len(1, "C")?;
        let count: u32 = first.int(0, "C", 1..=MAX_C)?;
        let mut games = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let line = reader.line("a line \"n m\"")?;
            line.expect_len(2, "n m")?;
            games.push((
                line.int(0, "n", 1..=MAX_VALUE)?,
                line.int(1, "m", 1..=MAX_VALUE)?,
            ));
        }
        reader.expect_eof()?;
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.games.len()]);
        for &(n, m) in &input.games {
            push_line(&mut out, [n, m]);
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_games", p.max_games.into(), 1, MAX_C.into())?;
        within("max_n", p.max_n.into(), 1, MAX_VALUE.into())?;
        within("max_m", p.max_m.into(), 1, MAX_VALUE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("C", input.games.len() as u64, p.max_games.into())?;
        for &(n, m) in &input.games {
            at_most("n", n.into(), p.max_n.into())?;
            at_most("m", m.into(), p.max_m.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let count = p.max_games as usize;
        let (max_n, max_m) = (p.max_n, p.max_m);
        let games = match index {
            // Losing positions: n a multiple of m + 1, including n = m + 1 ((1, 1) where none fits).
            0 => (0..count)
                .map(|_| {
                    let m = rng.random_range(1..=max_m.min(max_n.saturating_sub(1)).max(1));
                    let multiples = (max_n / (m + 1)).max(1);
                    let n = (m + 1) * rng.random_range(1..=multiples);
                    if n <= max_n { (n, m) } else { (1, 1) }
                })
                .collect(),
            // m ≥ n: the first player takes everything.
            1 => (0..count)
                .map(|_| {
                    let n = rng.random_range(1..=max_n.min(max_m));
                    (n, rng.random_range(n..=max_m))
                })
                .collect(),
            // The corners: smallest, largest, m = 1 parity, n = m and n = m + 1.
            2 => {
                let corners = [
                    (1, 1),
                    (max_n, max_m),
                    (max_n, 1),
                    (max_n.min(max_m), max_n.min(max_m)),
                    (2, 1),
                    (1, max_m),
                ];
                corners.into_iter().cycle().take(count.max(1)).collect()
            }
            _ => (0..count)
                .map(|_| (rng.random_range(1..=max_n), rng.random_range(1..=max_m)))
                .collect(),
        };
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .games
                .iter()
                .map(|&(n, m)| word(subtraction::bash_first_wins(n.into(), m.into()))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let dp = lines(input.games.iter().map(|&(n, m)| {
            let moves: Vec<usize> = (1..=m as usize).collect();
            word(subtraction::first_wins(n as usize, &moves))
        }));
        let brute = input.games.iter().all(|&(n, _)| n <= 200).then(|| {
            lines(input.games.iter().map(|&(n, m)| {
                let rules = subtraction::SubtractionRules {
                    moves: (1..=m as usize).collect(),
                };
                word(
                    implicit::outcome(&rules, n as usize, 201)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![
            CrossCheck::new("dynamic programme", Some(dp)),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let games = (1..=20)
            .flat_map(|n| (1..=20).map(move |m| (n, m)))
            .collect::<Vec<_>>();
        games
            .chunks(MAX_C as usize)
            .map(|c| Input { games: c.to_vec() })
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// Bash's game is the subtraction game of {1, …, m}: on a page, any set of at most 10 sizes.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(StonesPlay))
    }
}

const MODULUS_M: Misconception = Misconception {
    id: "modulus-m",
    title: "Dividing by m instead of m + 1",
    text: "The program decides by whether n is a multiple of m. The number that matters is m + 1: \
           whatever the opponent takes, from 1 to m, the player who keeps the pile a multiple of \
           m + 1 can take the rest of m + 1 and take the last stone. With n = 1 and m = 1 the \
           first player takes the only stone and wins, although 1 is a multiple of 1.",
};

impl Explain for Bash {
    type Game = (u32, u32);

    fn small_games(&self) -> Vec<(u32, u32)> {
        let mut games: Vec<(u32, u32)> = self
            .small_positions()
            .into_iter()
            .flat_map(|input| input.games)
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> (u32, u32) {
        (rng.random_range(1..=100), rng.random_range(1..=30))
    }

    fn games_per_input(&self) -> usize {
        MAX_C as usize
    }

    fn input_of(&self, games: &[(u32, u32)]) -> Input {
        Input {
            games: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<(u32, u32)> {
        input.games.clone()
    }

    fn answer(&self, &(n, m): &(u32, u32)) -> String {
        word(subtraction::bash_first_wins(n.into(), m.into())).to_owned()
    }

    fn size(&self, &(n, m): &(u32, u32)) -> u64 {
        u64::from(n) * 1024 + u64::from(m)
    }

    fn shrink(&self, &(n, m): &(u32, u32)) -> Vec<(u32, u32)> {
        let mut smaller: Vec<(u32, u32)> = [
            (n / 2, m),
            (n - 1, m),
            // A limit beyond the pile is the same game as taking the whole pile.
            (n, m.min(n)),
            (n, m / 2),
            (n, m - 1),
        ]
        .into_iter()
        .filter(|&(a, b)| a >= 1 && b >= 1 && (a, b) != (n, m))
        .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, &(n, m): &(u32, u32)) -> Certificate {
        let period = m + 1;
        let rest = n % period;
        if rest == 0 {
            return Certificate {
                en: format!(
                    "The second player wins: n = {n} is a multiple of m + 1 = {period} \
                     ({n} = {} × {period}). Every move takes t stones with 1 ≤ t ≤ {m}, which \
                     leaves a number that is not a multiple of {period}; the second player then \
                     takes {period} − t and the pile is a multiple of {period} again. So the \
                     second player always has a move, and takes the last stone.",
                    n / period
                ),
                vi: format!(
                    "Người đi sau thắng: n = {n} là bội của m + 1 = {period} \
                     ({n} = {} × {period}). Mỗi nước đi lấy t viên với 1 ≤ t ≤ {m}, để lại một \
                     số không chia hết cho {period}; người đi sau lấy tiếp {period} − t viên và \
                     số viên lại là bội của {period}. Vì thế người đi sau luôn có nước đi và là \
                     người lấy viên cuối cùng.",
                    n / period
                ),
            };
        }
        let left = n - rest;
        let (leaves_en, leaves_vi) = if left == 0 {
            (
                "no stones at all: the second player cannot move".to_owned(),
                "không còn viên nào: người đi sau không thể đi".to_owned(),
            )
        } else {
            (
                format!(
                    "{left} = {} × {period} stones, a multiple of {period}: whatever the second \
                     player takes, t from 1 to {m}, the first player takes {period} − t and \
                     keeps the pile a multiple of {period} until it is empty",
                    left / period
                ),
                format!(
                    "{left} = {} × {period} viên, là bội của {period}: người đi sau lấy t viên \
                     (1 đến {m}) thì người đi trước lấy {period} − t viên, giữ số viên luôn là \
                     bội của {period} cho đến khi hết",
                    left / period
                ),
            )
        };
        Certificate {
            en: format!(
                "The first player wins: n mod (m + 1) = {n} mod {period} = {rest} ≠ 0. Taking \
                 {rest} leaves {leaves_en}."
            ),
            vi: format!(
                "Người đi trước thắng: n mod (m + 1) = {n} mod {period} = {rest} ≠ 0. Lấy {rest} \
                 viên để lại {leaves_vi}."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[MODULUS_M]
    }

    fn misconceived(&self, id: &str, &(n, m): &(u32, u32)) -> Option<String> {
        match id {
            "modulus-m" => Some(word(!n.is_multiple_of(m)).to_owned()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;

    fn rule(text: &str) -> String {
        Bash.parse(text).unwrap_err().to_string()
    }

    /// A program for the whole input: `C`, then each line `n m` answered by `first_wins`.
    fn program(first_wins: fn(u32, u32) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            input
                .lines()
                .skip(1)
                .map(|line| {
                    let (n, m) = line.split_once(' ').unwrap();
                    let wins = first_wins(n.parse().unwrap(), m.parse().unwrap());
                    if wins { "first\n" } else { "second\n" }
                })
                .collect()
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("bash").assert_sound();
    }

    #[test]
    fn taking_to_a_multiple_of_m_plus_one_is_right() {
        // Keep the pile a multiple of m + 1: whatever the other takes, take the rest of m + 1.
        Problem::new("bash").assert_right(&program(|n, m| n % (m + 1) != 0));
    }

    #[test]
    fn dividing_by_m_is_named_with_one_stone() {
        let found = Problem::new("bash").assert_named("modulus-m", &program(|n, m| n % m != 0));
        assert_eq!(found.position, "1\n1 1\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("first", "second")
        );
    }

    #[test]
    fn certificates_give_the_remainder_and_the_move() {
        // 23 stones, take 1..=2: 23 = 7 × 3 + 2, so take 2 and leave 21.
        let win = Bash.certificate(&(23, 2));
        assert!(win.en.contains("23 mod 3 = 2 ≠ 0"), "{}", win.en);
        assert!(
            win.en.contains("Taking 2 leaves 21 = 7 × 3 stones"),
            "{}",
            win.en
        );
        assert!(win.vi.contains("Lấy 2 viên"), "{}", win.vi);
        // 4 stones, take 1..=3: 4 = 1 × 4, lost for the first player.
        let lose = Bash.certificate(&(4, 3));
        assert!(lose.en.contains("The second player wins"), "{}", lose.en);
        assert!(lose.en.contains("(4 = 1 × 4)"), "{}", lose.en);
        assert!(lose.en.contains("4 − t"), "{}", lose.en);
        let all = Bash.certificate(&(3, 5));
        assert!(all.en.contains("Taking 3 leaves no stones"), "{}", all.en);
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Bash.shrink(&(10, 4));
        assert_eq!(smaller, vec![(5, 4), (9, 4), (10, 2), (10, 3)]);
        assert_eq!(Bash.shrink(&(3, 7))[0], (1, 7));
        assert!(Bash.shrink(&(3, 7)).contains(&(3, 3)));
        assert!(Bash.shrink(&(1, 1)).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Bash.parse("2\n23 2\n4 3\n").is_ok());
        assert_eq!(rule("0\n"), "line 1: C = 0 is outside 1..=1000");
        assert_eq!(
            rule("2\n23 2\n"),
            "line 3: expected a line \"n m\", found the end of the input"
        );
        assert_eq!(rule("1\n1001 2\n"), "line 2: n = 1001 is outside 1..=1000");
        assert_eq!(rule("1\n5 0\n"), "line 2: m = 0 is outside 1..=1000");
        assert_eq!(rule("1\n5\n"), "line 2: expected 2 tokens (n m), found 1");
    }
}
