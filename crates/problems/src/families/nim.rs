//! Nim (POJ 2234 "Matches Game"): lines `M p_1 … p_M` until the end of the file.

use super::nim_play::NimPlay;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, nim};
use rand::RngExt;
use serde::Deserialize;

pub struct Nim;

const MAX_LINES: u32 = 10_000;
const MAX_PILES: u32 = 20;
const MAX_PILE: u32 = 10_000_000;

#[derive(Debug)]
pub struct Input {
    pub games: Vec<Vec<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_lines: u32,
    pub max_piles: u32,
    pub max_pile: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "Yes" } else { "No" }
}

fn xor_wins(piles: &[u32]) -> bool {
    nim::nim_sum(piles.iter().map(|&p| u64::from(p))) != 0
}

impl Family for Nim {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut games = Vec::new();
        while !reader.at_eof() {
            let line = reader.line("a game")?;
            if games.len() == MAX_LINES as usize {
                return Err(line.error(format!("at most {MAX_LINES} lines are allowed")));
            }
            let m: u32 = line.int(0, "M", 1..=MAX_PILES)?;
            line.expect_len(m as usize + 1, "M followed by M pile sizes")?;
            let piles = (1..=m as usize)
                .map(|i| line.int(i, &format!("p_{i}"), 1..=MAX_PILE))
                .collect::<Result<Vec<u32>, _>>()?;
            games.push(piles);
        }
        Ok(Input { games })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        for piles in &input.games {
            push_line(
                &mut out,
                std::iter::once(piles.len() as u32).chain(piles.iter().copied()),
            );
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_lines", p.max_lines.into(), 1, MAX_LINES.into())?;
        within("max_piles", p.max_piles.into(), 1, MAX_PILES.into())?;
        within("max_pile", p.max_pile.into(), 1, MAX_PILE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of lines",
            input.games.len() as u64,
            p.max_lines.into(),
        )?;
        for piles in &input.games {
            at_most("M", piles.len() as u64, p.max_piles.into())?;
            at_most(
                "a pile",
                (*piles.iter().max().expect("M ≥ 1")).into(),
                p.max_pile.into(),
            )?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let count = p.max_lines as usize;
        let random_piles = |rng: &mut TestRng, m: u32| -> Vec<u32> {
            (0..m).map(|_| rng.random_range(1..=p.max_pile)).collect()
        };
        let games = (0..count)
            // Tests 1–5 each hold one theme; later tests mix them line by line.
            .map(|line| if index <= 4 { index } else { 1 + line % 5 })
            .map(|theme| match theme {
                // The largest lines: every pile at or near the limit.
                0 => (0..p.max_piles)
                    .map(|_| p.max_pile - rng.random_range(0..p.max_pile.min(3)))
                    .collect(),
                // Losing lines: the last pile cancels the others when it can.
                1 => {
                    let m = rng.random_range(2..=p.max_piles.max(2)).min(p.max_piles);
                    let mut piles = random_piles(rng, m);
                    let rest = piles[..piles.len() - 1].iter().fold(0, |a, &b| a ^ b);
                    if (1..=p.max_pile).contains(&rest) {
                        *piles.last_mut().expect("m ≥ 1") = rest;
                    }
                    piles
                }
                // Equal piles: an even number loses, an odd number wins.
                2 => {
                    let m = rng.random_range(1..=p.max_piles);
                    vec![rng.random_range(1..=p.max_pile); m as usize]
                }
                // One pile: always a win.
                3 => vec![rng.random_range(1..=p.max_pile)],
                // Powers of two and their neighbours.
                4 => (0..rng.random_range(1..=p.max_piles))
                    .map(|_| {
                        let power = 1u32 << rng.random_range(0..=p.max_pile.ilog2());
                        (power + rng.random_range(0..=1)).min(p.max_pile)
                    })
                    .collect(),
                _ => {
                    let m = rng.random_range(1..=p.max_piles);
                    random_piles(rng, m)
                }
            })
            .collect();
        Input { games }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.games.iter().map(|piles| word(xor_wins(piles))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input
            .games
            .iter()
            .all(|piles| piles.len() <= 4 && piles.iter().all(|&p| p <= 6));
        let brute = small.then(|| {
            lines(input.games.iter().map(|piles| {
                let mut position: Vec<u64> = piles.iter().map(|&p| p.into()).collect();
                position.sort_unstable();
                word(
                    implicit::outcome(&nim::NimRules, position, 10_000)
                        .expect("within the bound")
                        .is_win(),
                )
            }))
        });
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every multiset of one to four piles of sizes 1..=6.
        let mut games = Vec::new();
        let mut piles = Vec::new();
        fn extend(piles: &mut Vec<u32>, games: &mut Vec<Vec<u32>>) {
            if !piles.is_empty() {
                games.push(piles.clone());
            }
            if piles.len() == 4 {
                return;
            }
            let from = piles.last().copied().unwrap_or(1);
            for size in from..=6 {
                piles.push(size);
                extend(piles, games);
                piles.pop();
            }
        }
        extend(&mut piles, &mut games);
        vec![Input { games }]
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// Nim on a page: the interactive problem's game, piles up to 10⁹.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(NimPlay))
    }
}

const SUM_PARITY: Misconception = Misconception {
    id: "sum-parity",
    title: "The parity of the total",
    text: "The program answers by whether the total number of matches is odd. That is right for \
           piles of one match, where every move takes exactly one, but a move may take any \
           number from a pile: with one pile of 2 the first player takes both and wins. What \
           decides Nim is the nim-sum, the xor of the pile sizes: the first player loses \
           exactly when it is 0.",
};

const NORMAL_AS_MISERE: Misconception = Misconception {
    id: "normal-as-misere",
    title: "The misère rule in a normal-play game",
    text: "The program plays by the misère rule (the player who takes the last match loses), \
           which differs from Nim's rule only when every pile has at most one match. Here the \
           player who takes the last match wins, so the nim-sum alone decides: with piles of 1 \
           and nothing else, an odd number of piles is a win.",
};

impl Explain for Nim {
    type Game = Vec<u32>;

    fn small_games(&self) -> Vec<Vec<u32>> {
        let mut games = self
            .small_positions()
            .pop()
            .expect("one input of small games")
            .games;
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<u32> {
        let m = rng.random_range(1..=5);
        (0..m).map(|_| rng.random_range(1..=20)).collect()
    }

    fn games_per_input(&self) -> usize {
        MAX_LINES as usize
    }

    fn input_of(&self, games: &[Vec<u32>]) -> Input {
        Input {
            games: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<u32>> {
        input.games.clone()
    }

    fn answer(&self, game: &Vec<u32>) -> String {
        word(xor_wins(game)).to_owned()
    }

    fn size(&self, game: &Vec<u32>) -> u64 {
        let matches: u64 = game.iter().map(|&p| u64::from(p)).sum();
        matches * 32 + game.len() as u64
    }

    fn shrink(&self, game: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut smaller = Vec::new();
        for i in 0..game.len() {
            if game.len() > 1 {
                let mut fewer = game.clone();
                fewer.remove(i);
                smaller.push(fewer);
            }
            for less in [game[i] / 2, game[i] - 1] {
                if (1..game[i]).contains(&less) {
                    let mut lower = game.clone();
                    lower[i] = less;
                    smaller.push(lower);
                }
            }
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Vec<u32>) -> Certificate {
        let piles: Vec<u64> = game.iter().map(|&p| u64::from(p)).collect();
        let sum = nim::nim_sum(piles.iter().copied());
        if sum == 0 {
            let text = nim_sum_text(&piles);
            return Certificate {
                en: format!(
                    "The first player loses: the nim-sum is {text}. Every move changes exactly \
                     one pile, so it leaves a non-zero nim-sum, and from there the second player \
                     can always make it 0 again, until the first player has no move left."
                ),
                vi: format!(
                    "Người đi trước thua: tổng nim là {text}. Mỗi nước đi thay đổi đúng một \
                     đống nên để lại tổng nim khác 0, và từ đó người đi sau luôn đưa được tổng \
                     nim về 0, cho đến khi người đi trước không còn nước đi."
                ),
            };
        }
        let (i, &from) = piles
            .iter()
            .enumerate()
            .find(|&(_, &p)| p ^ sum < p)
            .expect("a pile holds the nim-sum's highest bit");
        let mut after = piles.clone();
        after[i] = from ^ sum;
        let left: Vec<u64> = after.iter().copied().filter(|&p| p > 0).collect();
        let take = from - after[i];
        let (leaves_en, leaves_vi) = if left.is_empty() {
            (
                "no matches at all, and the second player cannot move".to_owned(),
                "không còn que nào, và người đi sau không thể đi".to_owned(),
            )
        } else {
            let text = nim_sum_text(&left);
            (
                format!(
                    "piles of nim-sum {text}, lost for the player to move: every move makes \
                     the nim-sum non-zero and the first player makes it 0 again"
                ),
                format!(
                    "các đống có tổng nim {text}, là thế thua cho người phải đi: mọi nước đi \
                     làm tổng nim khác 0 và người đi trước lại đưa nó về 0"
                ),
            )
        };
        Certificate {
            en: format!(
                "The first player wins: the nim-sum is {} ≠ 0. Taking {take} from the pile of \
                 {from} leaves {leaves_en}.",
                nim_sum_text(&piles)
            ),
            vi: format!(
                "Người đi trước thắng: tổng nim là {} ≠ 0. Lấy {take} que từ đống {from} que \
                 để lại {leaves_vi}.",
                nim_sum_text(&piles)
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[SUM_PARITY, NORMAL_AS_MISERE]
    }

    fn misconceived(&self, id: &str, game: &Vec<u32>) -> Option<String> {
        let first_wins = match id {
            "sum-parity" => game.iter().map(|&p| u64::from(p)).sum::<u64>() % 2 == 1,
            "normal-as-misere" => {
                if game.iter().all(|&p| p <= 1) {
                    !xor_wins(game)
                } else {
                    xor_wins(game)
                }
            }
            _ => return None,
        };
        Some(word(first_wins).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> String {
        Nim.parse(text).unwrap_err().to_string()
    }

    fn wrong_on(id: &str, game: &[u32]) -> bool {
        Nim.misconceived(id, &game.to_vec()) != Some(Nim.answer(&game.to_vec()))
    }

    #[test]
    fn misconceptions_fail_where_they_should() {
        assert!(wrong_on("sum-parity", &[2]));
        assert!(!wrong_on("sum-parity", &[1, 1, 1]));
        assert!(wrong_on("normal-as-misere", &[1]));
        assert!(!wrong_on("normal-as-misere", &[2, 3]));
    }

    #[test]
    fn certificates_name_a_winning_move() {
        let win = Nim.certificate(&vec![3, 5]);
        assert!(win.en.contains("3 ⊕ 5 = 6 ≠ 0"), "{}", win.en);
        assert!(win.en.contains("Taking 2 from the pile of 5"), "{}", win.en);
        assert!(win.en.contains("3 ⊕ 3 = 0"), "{}", win.en);
        let lose = Nim.certificate(&vec![1, 2, 3]);
        assert!(lose.en.contains("1 ⊕ 2 ⊕ 3 = 0"), "{}", lose.en);
        assert!(lose.vi.contains("Người đi trước thua"), "{}", lose.vi);
        let one = Nim.certificate(&vec![4]);
        assert!(
            one.en
                .contains("Taking 4 from the pile of 4 leaves no matches"),
            "{}",
            one.en
        );
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Nim.shrink(&vec![2, 3]);
        assert!(smaller.contains(&vec![3]) && smaller.contains(&vec![1, 3]));
        assert!(smaller.iter().all(|g| Nim.size(g) < Nim.size(&vec![2, 3])));
        assert!(Nim.shrink(&vec![1]).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert_eq!(Nim.parse("2 45 45\n3 3 6 9\n").unwrap().games.len(), 2);
        assert_eq!(
            rule("2 45\n"),
            "line 1: expected 3 tokens (M followed by M pile sizes), found 2"
        );
        assert_eq!(rule("21 1\n"), "line 1: M = 21 is outside 1..=20");
        assert_eq!(
            rule("1 1\n1 0\n"),
            "line 2: p_1 = 0 is outside 1..=10000000"
        );
        assert_eq!(
            rule("1 10000001\n"),
            "line 1: p_1 = 10000001 is outside 1..=10000000"
        );
        assert_eq!(rule("1 1\n\n"), "line 2: empty lines are not allowed");
        assert_eq!(rule("0\n"), "line 1: M = 0 is outside 1..=20");
        let too_many = "1 1\n".repeat(MAX_LINES as usize + 1);
        assert_eq!(
            rule(&too_many),
            "line 10001: at most 10000 lines are allowed"
        );
    }
}
