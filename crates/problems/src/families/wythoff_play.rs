//! Wythoff's game played against the reference (`wythoff-play`): the referee writes `a b`, the
//! program takes a side, then each player in turn writes `x y` (x from the first pile, y from
//! the second: one of them 0, or both equal). Stop line `-1 -1`.

use super::within;
use super::wythoff::{index_of_larger, index_of_smaller, largest_k};
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, wythoff};
use rand::RngExt;
use rand::seq::IndexedRandom;
use serde::Deserialize;

#[derive(Debug, Clone, Copy)]
pub struct WythoffPlay;

const MAX_GAMES: u32 = 100;
const MAX_VALUE: u64 = 1_000_000_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_value: u64,
}

/// A move: how many are taken from the first and from the second pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub first: u64,
    pub second: u64,
}

/// The losing pair `(a_k, b_k)` of difference `k`.
fn losing(k: u64) -> (u64, u64) {
    let (a, b) = wythoff::losing_position(k);
    (a as u64, b as u64)
}

/// The number that makes a losing pair with `x`: `b_j` if `x = a_j`, else `a_j` for `x = b_j`.
fn partner(x: u64) -> u64 {
    match index_of_smaller(x) {
        Some(j) => x + j,
        None => {
            let j = index_of_larger(x).expect("every number is in one losing pair");
            x - j
        }
    }
}

fn oriented(rng: &mut TestRng, (a, b): (u64, u64)) -> (u64, u64) {
    if rng.random_bool(0.5) { (a, b) } else { (b, a) }
}

impl WythoffPlay {
    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> (u64, u64) {
        let top = p.max_value;
        let largest = largest_k(top);
        match theme {
            // A losing pair anywhere.
            0 => {
                let k = rng.random_range(1..=largest);
                oriented(rng, losing(k))
            }
            // A losing pair at a Fibonacci k, where floating point goes wrong first.
            1 => {
                let fibs = wythoff::fibonacci_up_to(largest);
                let k = *fibs.choose(rng).expect("1 ≤ largest");
                oriented(rng, losing(k))
            }
            // Next to a losing pair: won, by one stone.
            2 => {
                let (a, b) = losing(rng.random_range(1..=largest));
                oriented(rng, if b < top { (a, b + 1) } else { (a + 1, b) })
            }
            // Equal piles: won by taking both.
            3 => {
                let v = rng.random_range(1..=top);
                (v, v)
            }
            // One pile: won by taking it.
            4 => {
                let v = rng.random_range(1..=top);
                oriented(rng, (0, v))
            }
            _ => loop {
                let pair = (rng.random_range(0..=top), rng.random_range(0..=top));
                if pair != (0, 0) {
                    break pair;
                }
            },
        }
    }
}

impl Rules for WythoffPlay {
    type Position = (u64, u64);
    type Move = Take;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<(u64, u64), ValidationError> {
        reader.pair(("a", 0..=MAX_VALUE), ("b", 0..=MAX_VALUE))
    }

    fn write_position(&self, &(a, b): &(u64, u64), out: &mut String) {
        super::push_line(out, [a, b]);
    }

    fn start_rule(&self, &(a, b): &(u64, u64)) -> Result<(), String> {
        if a == 0 && b == 0 {
            Err("a and b are both 0; a game starts with a stone".into())
        } else {
            Ok(())
        }
    }

    fn words(&self, &(a, b): &(u64, u64)) -> String {
        format!("({a}, {b})")
    }

    fn is_over(&self, &(a, b): &(u64, u64)) -> bool {
        a == 0 && b == 0
    }

    fn value(&self, &(a, b): &(u64, u64)) -> Value {
        Value {
            win: wythoff::first_wins(a, b),
            grundy: None,
        }
    }

    fn value_words(&self, &(a, b): &(u64, u64), value: &Value) -> String {
        let k = a.abs_diff(b);
        if value.win {
            let (low, high) = losing(k);
            format!("(not a losing pair: the losing pair with difference {k} is ({low}, {high}))")
        } else {
            format!("(the losing pair (⌊kφ⌋, ⌊kφ⌋ + k) with k = {k})")
        }
    }

    fn read_move(&self, &(a, b): &(u64, u64), text: &str) -> Result<Take, String> {
        let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
        let numbers: Option<Vec<i128>> = tokens.iter().map(|t| t.parse().ok()).collect();
        let (x, y) = match numbers.as_deref() {
            Some(&[x, y]) => (x, y),
            _ => {
                return Err(
                    "a move is two integers `x y` (x from the first pile, y from the second)"
                        .into(),
                );
            }
        };
        if x < 0 || y < 0 {
            return Err("x and y cannot be negative".into());
        }
        if x + y == 0 {
            return Err("a move takes at least one stone".into());
        }
        if x != 0 && y != 0 && x != y {
            return Err(
                "a move takes from one pile, or the same number from both (x = 0, y = 0 or x = y)"
                    .into(),
            );
        }
        if x > i128::from(a) {
            return Err(format!("the first pile has only {a}, not {x}"));
        }
        if y > i128::from(b) {
            return Err(format!("the second pile has only {b}, not {y}"));
        }
        Ok(Take {
            first: x as u64,
            second: y as u64,
        })
    }

    fn write_move(&self, mv: &Take) -> String {
        format!("{} {}", mv.first, mv.second)
    }

    fn move_words(&self, _: &(u64, u64), mv: &Take) -> String {
        match (mv.first, mv.second) {
            (x, 0) => format!("{x} from the first pile"),
            (0, y) => format!("{y} from the second pile"),
            (x, _) => format!("{x} from both piles"),
        }
    }

    fn move_done(&self, position: &(u64, u64), mv: &Take) -> String {
        format!("took {}", self.move_words(position, mv))
    }

    fn apply(&self, &(a, b): &(u64, u64), mv: &Take) -> (u64, u64) {
        (a - mv.first, b - mv.second)
    }

    fn winning_moves(&self, &(a, b): &(u64, u64)) -> Vec<Take> {
        if !wythoff::first_wins(a, b) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        let to_b = partner(a);
        if b > to_b {
            moves.push(Take {
                first: 0,
                second: b - to_b,
            });
        }
        let to_a = partner(b);
        if a > to_a {
            moves.push(Take {
                first: a - to_a,
                second: 0,
            });
        }
        let (low, _) = losing(a.abs_diff(b));
        if a.min(b) > low {
            let both = a.min(b) - low;
            moves.push(Take {
                first: both,
                second: both,
            });
        }
        moves
    }

    fn referee_move(&self, &(a, b): &(u64, u64), played: usize, rng: &mut TestRng) -> Take {
        if let Some(&mv) = self.winning_moves(&(a, b)).choose(rng) {
            return mv;
        }
        let whole = |rng: &mut TestRng| {
            let first = Take {
                first: a,
                second: 0,
            };
            let second = Take {
                first: 0,
                second: b,
            };
            match (a, b) {
                (0, _) => second,
                (_, 0) => first,
                _ => *[first, second].choose(rng).expect("two moves"),
            }
        };
        // Emptying a pile lets the opponent end the game at once; a few random moves early on
        // vary the line.
        if played >= 6 || rng.random_bool(0.4) {
            return whole(rng);
        }
        match rng.random_range(0..3) {
            0 if a > 0 => Take {
                first: rng.random_range(1..=a),
                second: 0,
            },
            1 if b > 0 => Take {
                first: 0,
                second: rng.random_range(1..=b),
            },
            2 if a.min(b) > 0 => {
                let both = rng.random_range(1..=a.min(b));
                Take {
                    first: both,
                    second: both,
                }
            }
            _ => whole(rng),
        }
    }

    fn random_start(&self, rng: &mut TestRng) -> (u64, u64) {
        let params = Params {
            games: 1,
            max_value: 20,
        };
        let theme = rng.random_range(0..6);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The two piles: `3 5`.",
                vi: "Hai đống: `3 5`.",
            },
            moves: Words {
                en: "`x y` takes x from the first pile and y from the second, with x = 0, y = 0 or x = y: `2 2` takes 2 from each.",
                vi: "`x y` bốc x viên ở đống thứ nhất và y viên ở đống thứ hai, với x = 0, y = 0 hoặc x = y: `2 2` bốc mỗi đống 2 viên.",
            },
        }
    }
}

impl Game for WythoffPlay {
    type Params = Params;
    const STOP: &'static str = "-1 -1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_value", p.max_value, 10, MAX_VALUE)
    }

    fn fits(&self, games: &[(u64, u64)], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for &(a, b) in games {
            super::at_most("a pile", a.max(b), p.max_value)?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<(u64, u64)> {
        let mut games = Vec::new();
        if index == 0 {
            // The traps: the largest losing pairs at Fibonacci k and their neighbours, in both
            // orders; equal piles; single piles; the smallest losing pair.
            let top = p.max_value;
            let fibs = wythoff::fibonacci_up_to(largest_k(top));
            for &k in fibs.iter().rev().take(3) {
                let (a, b) = losing(k);
                games.extend([(a, b), (b, a), (a + 1, b), (a, b - 1)]);
            }
            games.extend([(top, top), (0, top), (top, 0), (1, 2), (2, 1), (1, 1)]);
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 6;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<(u64, u64)> {
        (0..=12u64)
            .flat_map(|a| (0..=12u64).map(move |b| (a, b)))
            .filter(|&p| p != (0, 0))
            .collect()
    }

    fn brute_value(&self, &(a, b): &(u64, u64)) -> Option<Value> {
        if a.max(b) > 30 {
            return None;
        }
        let outcome = implicit::outcome(&wythoff::WythoffRules, (a, b), 10_000).ok()?;
        Some(Value {
            win: outcome.is_win(),
            grundy: None,
        })
    }
}
