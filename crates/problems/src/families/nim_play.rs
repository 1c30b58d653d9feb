//! Nim played against the reference (`nim-play`): the referee writes `n a_1 … a_n`, the program
//! takes a side, then each player in turn writes `i k` (take k from pile i). Stop line `-1`.

use super::within;
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, nim};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde::Deserialize;

#[derive(Debug, Clone, Copy)]
pub struct NimPlay;

const MAX_GAMES: u32 = 100;
const MAX_PILES: u32 = 10;
const MAX_PILE: u64 = 1_000_000_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_piles: u32,
    pub max_pile: u64,
}

/// A move: `pile` (0-based) and how many to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pub pile: usize,
    pub count: u64,
}

fn nim_sum(piles: &[u64]) -> u64 {
    nim::nim_sum(piles.iter().copied())
}

/// Piles drawn from `low..=high` whose nim-sum is 0, when the draw allows it.
fn losing_piles(rng: &mut TestRng, count: u32, low: u64, high: u64) -> Option<Vec<u64>> {
    for _ in 0..50 {
        let mut piles: Vec<u64> = (1..count.max(2))
            .map(|_| rng.random_range(low..=high))
            .collect();
        let last = nim_sum(&piles);
        if (low.max(1)..=high).contains(&last) {
            piles.push(last);
            piles.shuffle(rng);
            return Some(piles);
        }
    }
    None
}

impl NimPlay {
    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> Vec<u64> {
        let piles = rng.random_range(1..=p.max_piles);
        match theme {
            // Lost, with numbers near the limit: xor 0 with large piles.
            0 => losing_piles(rng, piles.max(3), p.max_pile / 2 + 1, p.max_pile)
                .or_else(|| losing_piles(rng, piles, 1, p.max_pile))
                .unwrap_or_else(|| vec![p.max_pile; 2]),
            // Equal piles: an even number loses, an odd number wins.
            1 => vec![rng.random_range(1..=p.max_pile); piles as usize],
            // One pile: the first player takes it all.
            2 => vec![rng.random_range(1..=p.max_pile)],
            // Pairs of equal piles shuffled: lost, and mirrored by the winner.
            3 => {
                let mut pairs: Vec<u64> = (0..(piles / 2).max(1))
                    .map(|_| rng.random_range(1..=p.max_pile))
                    .flat_map(|a| [a, a])
                    .collect();
                pairs.shuffle(rng);
                pairs
            }
            // Lost, with small numbers.
            4 => losing_piles(rng, piles, 1, p.max_pile.min(15)).unwrap_or_else(|| vec![1, 1]),
            _ => (0..piles)
                .map(|_| rng.random_range(1..=p.max_pile))
                .collect(),
        }
    }
}

impl Rules for NimPlay {
    type Position = Vec<u64>;
    type Move = Take;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        let line = reader.line("a game \"n a_1 … a_n\"")?;
        let n: u32 = line.int(0, "n", 1..=MAX_PILES)?;
        line.expect_len(n as usize + 1, "n followed by n pile sizes")?;
        (1..=n as usize)
            .map(|i| line.int(i, &format!("a_{i}"), 0..=MAX_PILE))
            .collect()
    }

    fn write_position(&self, piles: &Vec<u64>, out: &mut String) {
        super::push_line(
            out,
            std::iter::once(piles.len() as u64).chain(piles.iter().copied()),
        );
    }

    fn start_rule(&self, piles: &Vec<u64>) -> Result<(), String> {
        match piles.iter().position(|&p| p == 0) {
            Some(i) => Err(format!(
                "pile {} is empty; a game starts with a_i ≥ 1",
                i + 1
            )),
            None => Ok(()),
        }
    }

    fn words(&self, piles: &Vec<u64>) -> String {
        let sizes: Vec<String> = piles.iter().map(u64::to_string).collect();
        format!("({})", sizes.join(", "))
    }

    fn is_over(&self, piles: &Vec<u64>) -> bool {
        piles.iter().all(|&p| p == 0)
    }

    fn value(&self, piles: &Vec<u64>) -> Value {
        let sum = nim_sum(piles);
        Value {
            win: sum != 0,
            grundy: Some(sum),
        }
    }

    fn value_words(&self, _: &Vec<u64>, value: &Value) -> String {
        match value.grundy {
            Some(0) | None => "with nim-value 0".to_owned(),
            Some(sum) => format!("with nim-value {sum} ≠ 0"),
        }
    }

    fn read_move(&self, piles: &Vec<u64>, text: &str) -> Result<Take, String> {
        let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
        let numbers: Option<Vec<i128>> = tokens.iter().map(|t| t.parse().ok()).collect();
        let (i, k) = match numbers.as_deref() {
            Some(&[i, k]) => (i, k),
            _ => return Err("a move is two integers `i k` (take k from pile i)".into()),
        };
        let n = piles.len() as i128;
        if !(1..=n).contains(&i) {
            return Err(format!("there is no pile {i} (the piles are 1 to {n})"));
        }
        let pile = (i - 1) as usize;
        let size = piles[pile];
        if size == 0 {
            return Err(format!("pile {i} is empty"));
        }
        if k < 1 {
            return Err(format!("k = {k}, but a move takes at least 1"));
        }
        if k > i128::from(size) {
            return Err(format!("pile {i} has only {size}, not {k}"));
        }
        Ok(Take {
            pile,
            count: k as u64,
        })
    }

    fn write_move(&self, mv: &Take) -> String {
        format!("{} {}", mv.pile + 1, mv.count)
    }

    fn move_words(&self, _: &Vec<u64>, mv: &Take) -> String {
        format!("{} from pile {}", mv.count, mv.pile + 1)
    }

    fn move_done(&self, _: &Vec<u64>, mv: &Take) -> String {
        format!("took {} from pile {}", mv.count, mv.pile + 1)
    }

    fn apply(&self, piles: &Vec<u64>, mv: &Take) -> Vec<u64> {
        let mut after = piles.clone();
        after[mv.pile] -= mv.count;
        after
    }

    fn winning_moves(&self, piles: &Vec<u64>) -> Vec<Take> {
        nim::winning_moves(piles)
            .into_iter()
            .map(|(pile, to)| Take {
                pile,
                count: piles[pile] - to,
            })
            .collect()
    }

    fn referee_move(&self, piles: &Vec<u64>, played: usize, rng: &mut TestRng) -> Take {
        if let Some(&mv) = self.winning_moves(piles).choose(rng) {
            return mv;
        }
        let left: Vec<usize> = (0..piles.len()).filter(|&i| piles[i] > 0).collect();
        let pile = *left.choose(rng).expect("the game is not over");
        // Emptying a pile ends the game within two moves per pile; a few partial takes early
        // on vary the line.
        let count = if played < 2 * piles.len() && piles[pile] > 1 && rng.random_bool(0.4) {
            rng.random_range(1..piles[pile])
        } else {
            piles[pile]
        };
        Take { pile, count }
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        let params = Params {
            games: 1,
            max_piles: 4,
            max_pile: 12,
        };
        let theme = rng.random_range(0..6);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of piles, then each pile: `3 3 5 6` is three piles of 3, 5 and 6.",
                vi: "Số đống, rồi số viên của từng đống: `3 3 5 6` là ba đống 3, 5 và 6 viên.",
            },
            moves: Words {
                en: "`i k` takes k from pile i (piles are numbered from 1): `2 3` takes 3 from the second pile.",
                vi: "`i k` bốc k viên ở đống thứ i (đánh số từ 1): `2 3` bốc 3 viên ở đống thứ hai.",
            },
        }
    }
}

impl Game for NimPlay {
    type Params = Params;
    const STOP: &'static str = "-1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_piles", p.max_piles.into(), 1, MAX_PILES.into())?;
        within("max_pile", p.max_pile, 2, MAX_PILE)
    }

    fn fits(&self, games: &[Vec<u64>], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for piles in games {
            super::at_most("n", piles.len() as u64, p.max_piles.into())?;
            super::at_most("a pile", *piles.iter().max().expect("n ≥ 1"), p.max_pile)?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<Vec<u64>> {
        let mut games = Vec::new();
        if index == 0 {
            // The traps, where they fit: every pile at the limit (an even count loses), one pile,
            // two equal piles, a lost triple.
            let top = p.max_pile;
            let max = p.max_piles as usize;
            games.push(vec![top; max]);
            games.push(vec![top; max - (1 - max % 2)]);
            games.push(vec![1]);
            games.push(vec![top]);
            if max >= 2 {
                games.push(vec![top, top]);
            }
            if max >= 3 {
                games.push(vec![1, 2, 3]);
            }
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 6;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<Vec<u64>> {
        // Every multiset of one to four piles of sizes 1..=5.
        fn extend(piles: &mut Vec<u64>, all: &mut Vec<Vec<u64>>) {
            if !piles.is_empty() {
                all.push(piles.clone());
            }
            if piles.len() == 4 {
                return;
            }
            for size in piles.last().copied().unwrap_or(1)..=5 {
                piles.push(size);
                extend(piles, all);
                piles.pop();
            }
        }
        let mut all = Vec::new();
        extend(&mut Vec::new(), &mut all);
        all
    }

    fn brute_value(&self, piles: &Vec<u64>) -> Option<Value> {
        if piles.len() > 4 || piles.iter().any(|&p| p > 6) {
            return None;
        }
        let mut sorted = piles.clone();
        sorted.sort_unstable();
        let grundy = implicit::grundy(&nim::NimRules, sorted, 100_000).ok()?;
        Some(Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        })
    }
}
