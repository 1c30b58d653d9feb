//! A subtraction game played against the reference (`stones-play`): the referee writes `k n` and
//! the set `s_1 < … < s_k`, the program takes a side, then each player in turn writes `t` (take
//! t ∈ S stones from the pile). Stop line `-1`.

use super::within;
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use rand::seq::IndexedRandom;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct StonesPlay;

const MAX_GAMES: u32 = 20;
const MAX_K: u32 = 10;
const MAX_S: u32 = 100;
/// With a take of 1 allowed a game lasts up to n moves: 20 games of 5000 stay within the
/// 10⁵ moves of a test.
const MAX_N: u32 = 5000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_k: u32,
    pub max_s: u32,
    pub max_n: u32,
}

/// A pile of `n` stones under the set, with the Grundy values of every smaller pile (shared by
/// every position of a game, so a move costs nothing to value).
#[derive(Clone, PartialEq)]
pub struct Pile {
    set: Arc<[u32]>,
    grundy: Arc<[u32]>,
    n: u32,
}

impl std::fmt::Debug for Pile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pile {{ set: {:?}, n: {} }}", self.set, self.n)
    }
}

impl Pile {
    fn new(set: Vec<u32>, n: u32) -> Pile {
        let sizes: Vec<usize> = set.iter().map(|&s| s as usize).collect();
        let grundy = subtraction::grundy_table(n as usize, &sizes);
        Pile {
            set: set.into(),
            grundy: grundy.into(),
            n,
        }
    }

    fn after(&self, take: u32) -> Pile {
        Pile {
            n: self.n - take,
            ..self.clone()
        }
    }

    fn legal(&self) -> impl Iterator<Item = u32> + '_ {
        self.set.iter().copied().filter(|&t| t <= self.n)
    }
}

/// `count` distinct sizes from `1..=high`, increasing.
fn random_set(rng: &mut TestRng, count: u32, high: u32) -> Vec<u32> {
    let mut set: Vec<u32> = rand::seq::index::sample(rng, high as usize, count.min(high) as usize)
        .into_iter()
        .map(|v| v as u32 + 1)
        .collect();
    set.sort_unstable();
    set
}

/// The piles in `set[0]..=top` where the classic guess goes wrong: that the player to move loses
/// exactly when `n mod (s_1 + s_k) < s_1`, which holds for Bash's game `{1, …, m}` but not in
/// general.
fn classic_rule_fails(set: &[u32], top: u32) -> Vec<u32> {
    let grundy = Pile::new(set.to_vec(), top).grundy;
    let (low, high) = (set[0], set[set.len() - 1]);
    (low..=top)
        .filter(|&n| (n % (low + high) < low) != (grundy[n as usize] == 0))
        .collect()
}

impl StonesPlay {
    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> Pile {
        let k = rng.random_range(1..=p.max_k.min(p.max_s));
        let set = random_set(rng, k, p.max_s);
        let low = set[0];
        let top = p.max_n.max(low);
        let all = Pile::new(set.clone(), top);
        let lost: Vec<u32> = (low..=top)
            .filter(|&n| all.grundy[n as usize] == 0)
            .collect();
        let n = match theme {
            // Lost, when the set allows it.
            0 | 3 => lost.choose(rng).copied(),
            // Where the rule of Bash's game, stretched to any set, is wrong.
            1 => classic_rule_fails(&set, top).choose(rng).copied(),
            // Near the limit.
            2 => Some(rng.random_range(top.saturating_sub(2 * p.max_s).max(low)..=top)),
            _ => None,
        };
        let n = n.unwrap_or_else(|| rng.random_range(low..=top));
        all.after(top - n)
    }
}

impl Rules for StonesPlay {
    type Position = Pile;
    type Move = u32;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Pile, ValidationError> {
        let (k, n): (u32, u32) = reader.pair(("k", 1..=MAX_K), ("n", 0..=MAX_N))?;
        let line = reader.line("the line of s_1 … s_k")?;
        line.expect_len(k as usize, "s_1 … s_k")?;
        let set: Vec<u32> = line.ints("s", 1..=MAX_S)?;
        if let Some(i) = (1..set.len()).find(|&i| set[i] <= set[i - 1]) {
            return Err(line.error(format!(
                "s_{} = {} must be greater than s_{} = {} (the sizes are strictly increasing)",
                i + 1,
                set[i],
                i,
                set[i - 1]
            )));
        }
        Ok(Pile::new(set, n))
    }

    fn write_position(&self, pile: &Pile, out: &mut String) {
        super::push_line(out, [pile.set.len() as u32, pile.n]);
        super::push_line(out, pile.set.iter());
    }

    fn start_rule(&self, pile: &Pile) -> Result<(), String> {
        if pile.n < pile.set[0] {
            Err(format!(
                "n = {} is smaller than s_1 = {}; a game starts with a move to make",
                pile.n, pile.set[0]
            ))
        } else {
            Ok(())
        }
    }

    fn words(&self, pile: &Pile) -> String {
        let sizes: Vec<String> = pile.set.iter().map(u32::to_string).collect();
        format!("{} stones (S = {{{}}})", pile.n, sizes.join(", "))
    }

    fn is_over(&self, pile: &Pile) -> bool {
        pile.legal().next().is_none()
    }

    fn value(&self, pile: &Pile) -> Value {
        let grundy = pile.grundy[pile.n as usize];
        Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        }
    }

    fn read_move(&self, pile: &Pile, text: &str) -> Result<u32, String> {
        let take: i128 = match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
            [one] => one
                .parse()
                .map_err(|_| "a move is one integer `t` (take t stones)".to_owned())?,
            _ => return Err("a move is one integer `t` (take t stones)".into()),
        };
        let Some(take) = u32::try_from(take).ok().filter(|t| pile.set.contains(t)) else {
            return Err(format!("{take} is not in S"));
        };
        if take > pile.n {
            return Err(format!("the pile has only {}, not {take}", pile.n));
        }
        Ok(take)
    }

    fn write_move(&self, &take: &u32) -> String {
        take.to_string()
    }

    fn move_words(&self, _: &Pile, &take: &u32) -> String {
        format!("to take {take}")
    }

    fn move_done(&self, _: &Pile, &take: &u32) -> String {
        format!("took {take}")
    }

    fn apply(&self, pile: &Pile, &take: &u32) -> Pile {
        pile.after(take)
    }

    fn winning_moves(&self, pile: &Pile) -> Vec<u32> {
        pile.legal()
            .filter(|&t| pile.grundy[(pile.n - t) as usize] == 0)
            .collect()
    }

    fn referee_move(&self, pile: &Pile, played: usize, rng: &mut TestRng) -> u32 {
        if let Some(&take) = self.winning_moves(pile).choose(rng) {
            return take;
        }
        let legal: Vec<u32> = pile.legal().collect();
        // The largest take shortens the game most; a few random ones early on vary the line.
        if played < 4 && rng.random_bool(0.4) {
            *legal.choose(rng).expect("the game is not over")
        } else {
            *legal.last().expect("the game is not over")
        }
    }

    fn random_start(&self, rng: &mut TestRng) -> Pile {
        let params = Params {
            games: 1,
            max_k: 3,
            max_s: 6,
            max_n: 30,
        };
        let theme = rng.random_range(0..5);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`k n` (the size of the set and the pile), then the set on the next line: `2 10` and `1 3` is a pile of 10 from which 1 or 3 may be taken.",
                vi: "`k n` (số phần tử của tập và số viên của đống), rồi tập ở dòng sau: `2 10` và `1 3` là đống 10 viên, mỗi lượt bốc 1 hoặc 3 viên.",
            },
            moves: Words {
                en: "`t` takes t stones, t in the set: `3`.",
                vi: "`t` bốc t viên, t thuộc tập: `3`.",
            },
        }
    }
}

impl Game for StonesPlay {
    type Params = Params;
    const STOP: &'static str = "-1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_k", p.max_k.into(), 1, MAX_K.into())?;
        within("max_s", p.max_s.into(), 2, MAX_S.into())?;
        // Above s_k, so that Bash's game has a lost pile to start from.
        within(
            "max_n",
            p.max_n.into(),
            u64::from(p.max_s) + 1,
            MAX_N.into(),
        )
    }

    fn fits(&self, games: &[Pile], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for pile in games {
            super::at_most("k", pile.set.len() as u64, p.max_k.into())?;
            super::at_most("s_k", pile.set[pile.set.len() - 1].into(), p.max_s.into())?;
            super::at_most("n", pile.n.into(), p.max_n.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<Pile> {
        let mut games = Vec::new();
        let top = p.max_n;
        if index == 0 {
            // Parity alone; Bash's game lost at the limit; {1, 3, 4} and {2, 4, 7}, whose losing
            // piles do not follow n mod (s_1 + s_k), at the largest pile where the rule fails;
            // the largest take alone.
            let bash = p.max_k.min(p.max_s);
            let lost_bash = top - top % (bash + 1);
            games.push(Pile::new(vec![1], top));
            games.push(Pile::new(vec![1], top - 1));
            games.push(Pile::new((1..=bash).collect(), lost_bash));
            for set in [vec![1, 3, 4], vec![2, 4, 7]] {
                if set.len() as u32 <= p.max_k
                    && let Some(&n) = classic_rule_fails(&set, top).last()
                {
                    games.push(Pile::new(set, n));
                }
            }
            games.push(Pile::new(vec![p.max_s], top));
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 5;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<Pile> {
        // Every set within {1, …, 5} and every pile up to 12 that has a move.
        (1u32..1 << 5)
            .flat_map(|mask| {
                let set: Vec<u32> = (1..=5).filter(|s| mask >> (s - 1) & 1 == 1).collect();
                let low = set[0];
                (low..=12).map(move |n| Pile::new(set.clone(), n))
            })
            .collect()
    }

    fn brute_value(&self, pile: &Pile) -> Option<Value> {
        if pile.n > 200 {
            return None;
        }
        let rules = subtraction::SubtractionRules {
            moves: pile.set.iter().map(|&s| s as usize).collect(),
        };
        let grundy = implicit::grundy(&rules, pile.n as usize, 10_000).ok()?;
        Some(Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        })
    }
}
