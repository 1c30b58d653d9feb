//! CSES 1729 "Stick Game": `n k`, then `p_1 … p_k`; print W/L for every heap size 1..=n.

use super::stones_play::StonesPlay;
use super::{at_most, first_duplicate, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct StickGame;

const MAX_N: u32 = 1_000_000;
const MAX_K: u32 = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub n: u32,
    pub moves: Vec<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_k: u32,
}

fn letters(wins: impl Iterator<Item = bool>) -> String {
    let mut out: String = wins.map(|w| if w { 'W' } else { 'L' }).collect();
    out.push('\n');
    out
}

impl Family for StickGame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, k): (u32, u32) = reader.pair(("n", 1..=MAX_N), ("k", 1..=MAX_K))?;
        let moves: Vec<u32> = reader.values("p", k as usize, 1..=n)?;
        if let Some(twice) = first_duplicate(&moves) {
            return Err(ValidationError::new(
                2,
                format!("the value {} appears twice (the p_i are distinct)", twice),
            ));
        }
        reader.expect_eof()?;
        Ok(Input { n, moves })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.n, input.moves.len() as u32]);
        push_line(&mut out, &input.moves);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_k", p.max_k.into(), 1, MAX_K.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("n", input.n.into(), p.max_n.into())?;
        at_most("k", input.moves.len() as u64, p.max_k.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let n = if index < 4 {
            p.max_n
        } else {
            rng.random_range(1..=p.max_n)
        };
        let k = p.max_k.min(n);
        let sample = |rng: &mut TestRng, count: u32, high: u32| -> Vec<u32> {
            rand::seq::index::sample(rng, high as usize, count.min(high) as usize)
                .into_iter()
                .map(|v| v as u32 + 1)
                .collect()
        };
        let moves = match index {
            // The most moves, all small: the slowest programme for a naive solution.
            0 => sample(rng, k, (2 * k).min(n)),
            // Only 1: alternating W and L.
            1 => vec![1],
            // Only large moves, 1 among them (CSES always has 1).
            2 => {
                let mut m = sample(rng, k.saturating_sub(1).max(1), n);
                m.retain(|&v| v != 1);
                m.insert(0, 1);
                m.truncate(k as usize);
                m
            }
            // One move equal to n.
            3 => vec![n],
            _ => {
                let count = rng.random_range(1..=k);
                let high = if rng.random_bool(0.5) {
                    n.min(3 * count)
                } else {
                    n
                };
                sample(rng, count, high)
            }
        };
        Input { n, moves }
    }

    fn solve(&self, input: &Input) -> String {
        let moves: Vec<usize> = input.moves.iter().map(|&m| m as usize).collect();
        letters(
            subtraction::winning_table(input.n as usize, &moves)
                .into_iter()
                .skip(1),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let moves: Vec<usize> = input.moves.iter().map(|&m| m as usize).collect();
        let n = input.n as usize;
        let grundy = letters(
            subtraction::grundy_table(n, &moves)
                .into_iter()
                .skip(1)
                .map(|g| g != 0),
        );
        let brute = (n <= 300).then(|| {
            let rules = subtraction::SubtractionRules { moves };
            letters((1..=n).map(|pile| {
                implicit::outcome(&rules, pile, n + 1)
                    .expect("bounded")
                    .is_win()
            }))
        });
        vec![
            CrossCheck::new("Sprague-Grundy values", Some(grundy)),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        (1u32..64)
            .map(|mask| Input {
                n: 30,
                moves: (1..=6).filter(|b| mask >> (b - 1) & 1 == 1).collect(),
            })
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// A heap and a set of amounts on a page: the subtraction game of `stones-play`.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(StonesPlay))
    }
}

const SUM_PARITY: Misconception = Misconception {
    id: "sum-parity",
    title: "The parity of the heap",
    text: "The program answers W for an odd heap and L for an even one, as if every move took \
           exactly one stick. That is right when the only allowed amount is 1, but a move takes \
           exactly p_i sticks for an allowed p_i: with the amounts {2} a heap of 2 is W (Lan \
           takes both) and a heap of 1 is L (she cannot move). A heap is W exactly when some \
           move leaves an L heap (a heap of 0 is L: no move is left), and the letters for 1, 2, \
           …, n are found in that order.",
};

const AS_BASH: Misconception = Misconception {
    id: "stick-game-as-bash",
    title: "Any amount up to the largest, as in Bash's game",
    text: "The program answers L exactly for the multiples of the largest allowed amount plus \
           one, the rule of Bash's game, where a move may take any number of sticks from 1 up \
           to the largest. Here only the listed amounts may be taken: with the amounts {2}, \
           Bash's rule calls a heap of 1 W, but taking 2 from 1 stick is impossible, so it is \
           L. With amounts {1, 3, 4}, a heap of 2 is L (the only move leaves 1, a W heap), \
           while Bash's rule says W. Each heap's letter comes from the letters of the heaps a \
           move can leave.",
};

/// `1 stick`, `2 sticks`.
fn sticks(count: usize) -> String {
    if count == 1 {
        "1 stick".to_owned()
    } else {
        format!("{count} sticks")
    }
}

/// What the heaps 0, 1, …, n are: W (true) or L.
fn wins_up_to(game: &Input) -> Vec<bool> {
    let moves: Vec<usize> = game.moves.iter().map(|&m| m as usize).collect();
    subtraction::winning_table(game.n as usize, &moves)
}

impl StickGame {
    /// Why the heap of `heap` sticks has the letter it has, with the moves and the letters of
    /// the heaps they leave.
    fn heap_reason(&self, game: &Input, wins: &[bool], heap: usize) -> (String, String) {
        let mut moves: Vec<usize> = game.moves.iter().map(|&m| m as usize).collect();
        moves.sort_unstable();
        // The smallest amount leaving an L heap, if any.
        let to_losing = |count: usize| {
            moves
                .iter()
                .copied()
                .find(|&p| p <= count && !wins[count - p])
        };
        if let Some(take) = to_losing(heap) {
            return (
                format!(
                    "a heap of {} is W: taking {take} leaves {}, an L heap",
                    sticks(heap),
                    heap - take
                ),
                format!(
                    "đống {heap} que là W: lấy {take} que còn {} que, là một vị trí L",
                    heap - take
                ),
            );
        }
        let possible: Vec<usize> = moves.iter().copied().filter(|&p| p <= heap).collect();
        if possible.is_empty() {
            return (
                format!(
                    "a heap of {} is L: no move is possible, every amount is more than {heap}",
                    sticks(heap)
                ),
                format!(
                    "đống {heap} que là L: không có nước đi nào, mọi số lượng được lấy đều lớn \
                     hơn {heap}"
                ),
            );
        }
        let replies: Vec<(usize, usize, usize)> = possible
            .iter()
            .map(|&p| {
                let left = heap - p;
                (
                    p,
                    left,
                    to_losing(left).expect("a W heap has a move to an L heap"),
                )
            })
            .collect();
        let en = listed(
            replies.iter().map(|&(p, left, reply)| {
                format!(
                    "taking {p} leaves {left}, from which taking {reply} leaves {}",
                    left - reply
                )
            }),
            "; ",
        );
        let vi = listed(
            replies.iter().map(|&(p, left, reply)| {
                format!(
                    "lấy {p} que còn {left}, từ đó lấy tiếp {reply} que còn {}",
                    left - reply
                )
            }),
            "; ",
        );
        (
            format!(
                "a heap of {} is L: every move leaves a W heap ({en})",
                sticks(heap)
            ),
            format!("đống {heap} que là L: mọi nước đi đều để lại một vị trí W ({vi})"),
        )
    }
}

impl Explain for StickGame {
    type Game = Input;

    fn small_games(&self) -> Vec<Input> {
        // Every set of amounts within {1, 2, 3} and every n up to 6 that the set allows.
        let mut games = Vec::new();
        for n in 1..=6 {
            for mask in 1u32..8 {
                let moves: Vec<u32> = (1..=3).filter(|b| mask & (1 << (b - 1)) != 0).collect();
                if moves.iter().all(|&p| p <= n) {
                    games.push(Input { n, moves });
                }
            }
        }
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Input {
        let n = rng.random_range(1..=40);
        let high = n.min(10);
        let count = rng.random_range(1..=high.min(4));
        let moves = rand::seq::index::sample(rng, high as usize, count as usize)
            .into_iter()
            .map(|v| v as u32 + 1)
            .collect();
        Input { n, moves }
    }

    fn games_per_input(&self) -> usize {
        1
    }

    fn input_of(&self, games: &[Input]) -> Input {
        games.first().expect("one game").clone()
    }

    fn games_of(&self, input: &Input) -> Vec<Input> {
        vec![input.clone()]
    }

    fn size(&self, game: &Input) -> u64 {
        super::subtraction_size(game.n, &game.moves)
    }

    fn shrink(&self, game: &Input) -> Vec<Input> {
        let mut smaller: Vec<Input> = super::shrink_subtraction(game.n, &game.moves)
            .into_iter()
            .map(|(n, moves)| Input { n, moves })
            .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Input) -> Certificate {
        self.certificate_for(game, None)
    }

    /// About the first heap whose letter the program got wrong (heap n when that is unknown).
    fn certificate_for(&self, game: &Input, got: Option<&str>) -> Certificate {
        let wins = wins_up_to(game);
        let n = game.n as usize;
        let letter = |heap: usize| if wins[heap] { 'W' } else { 'L' };
        let got_letters: Option<Vec<char>> = got.and_then(|g| {
            g.split_ascii_whitespace()
                .next()
                .map(|t| t.chars().collect())
        });
        let first_wrong = got_letters
            .as_ref()
            .and_then(|letters| (1..=n).find(|&heap| letters.get(heap - 1) != Some(&letter(heap))));
        let heap = first_wrong.unwrap_or(n);
        let (why_en, why_vi) = self.heap_reason(game, &wins, heap);
        let (lead_en, lead_vi) = match (&got_letters, first_wrong) {
            (Some(letters), Some(heap)) if heap <= letters.len() => (
                format!(
                    "The program's letter for a heap of {} is {}, but ",
                    sticks(heap),
                    letters[heap - 1]
                ),
                format!(
                    "Chương trình in chữ {} cho đống {heap} que, nhưng ",
                    letters[heap - 1]
                ),
            ),
            (Some(letters), _) if letters.len() != n => (
                format!(
                    "The program printed {} letters, but n = {n} needs one for each heap from 1 \
                     to {n}; ",
                    letters.len()
                ),
                format!(
                    "Chương trình in {} chữ, nhưng n = {n} cần đúng một chữ cho mỗi đống từ 1 \
                     đến {n}; ",
                    letters.len()
                ),
            ),
            _ => (String::new(), String::new()),
        };
        let losing: Vec<String> = (0..=n)
            .filter(|&h| !wins[h])
            .map(|h| h.to_string())
            .collect();
        let amounts = listed(game.moves.iter().map(u32::to_string), ", ");
        let table_en = format!(
            "A heap is W exactly when some move leaves an L heap, and L when every move leaves a \
             W heap (a heap of 0 sticks is L: no move is left). With the amounts {{{amounts}}} \
             the L heaps up to {n} are {}.",
            listed(losing.iter().cloned(), ", ")
        );
        let table_vi = format!(
            "Một đống là W khi và chỉ khi có nước đi để lại một vị trí L, và là L khi mọi nước \
             đi đều để lại vị trí W (đống 0 que là L: không còn nước đi). Với các số lượng \
             {{{amounts}}}, các đống L không vượt quá {n} là {}.",
            listed(losing.iter().cloned(), ", ")
        );
        let capitalised = |text: String| {
            let mut chars = text.chars();
            chars
                .next()
                .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
        };
        let (why_en, why_vi) = if lead_en.is_empty() {
            (capitalised(why_en), capitalised(why_vi))
        } else {
            (why_en, why_vi)
        };
        Certificate {
            en: format!("{lead_en}{why_en}. {table_en}"),
            vi: format!("{lead_vi}{why_vi}. {table_vi}"),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[SUM_PARITY, AS_BASH]
    }

    fn misconceived(&self, id: &str, game: &Input) -> Option<String> {
        let largest = *game.moves.iter().max().expect("an amount");
        let wins: Box<dyn Fn(u32) -> bool> = match id {
            "sum-parity" => Box::new(|heap| heap % 2 == 1),
            "stick-game-as-bash" => Box::new(move |heap: u32| !heap.is_multiple_of(largest + 1)),
            _ => return None,
        };
        Some(letters((1..=game.n).map(wins)).trim_end().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// A program for the input `n k` / `p_1 … p_k`, printing `wins(heap, amounts)` for every
    /// heap from 1 to n.
    fn program(wins: fn(u32, &[u32]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let numbers: Vec<u32> = input
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let (n, amounts) = (numbers[0], &numbers[2..]);
            let mut out: String = (1..=n)
                .map(|heap| if wins(heap, amounts) { 'W' } else { 'L' })
                .collect();
            out.push('\n');
            out
        }
    }

    /// The rules searched: a heap is won when some allowed amount leaves a lost heap.
    fn by_rules(heap: u32, amounts: &[u32]) -> bool {
        amounts
            .iter()
            .any(|&p| p <= heap && !by_rules(heap - p, amounts))
    }

    fn game(n: u32, moves: &[u32]) -> Input {
        Input {
            n,
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("stick-game").assert_sound();
    }

    #[test]
    fn the_rules_searched_are_right() {
        Problem::new("stick-game").assert_right(&program(by_rules));
    }

    #[test]
    fn the_parity_of_the_heap_is_named_with_two_sticks_taken_at_once() {
        let found = Problem::new("stick-game")
            .assert_named("sum-parity", &program(|heap, _| heap % 2 == 1));
        // Amounts {2}: a heap of 1 has no move, a heap of 2 is taken at once.
        assert_eq!(found.position, "2 1\n2\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("LW", "WL"));
        assert!(
            found.certificate.en.starts_with(
                "The program's letter for a heap of 1 stick is W, but a heap of 1 \
                              stick is L: no move is possible, every amount is more than 1"
            ),
            "{}",
            found.certificate.en
        );
    }

    #[test]
    fn bash_rule_is_named_with_two_sticks_taken_at_once() {
        let bash =
            |heap: u32, amounts: &[u32]| !heap.is_multiple_of(amounts.iter().max().unwrap() + 1);
        let found = Problem::new("stick-game").assert_named("stick-game-as-bash", &program(bash));
        assert_eq!(found.position, "2 1\n2\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("LW", "WW"));
    }

    #[test]
    fn certificates_explain_the_first_wrong_letter() {
        // The statement's example: amounts 1, 3, 4 and n = 10 give WLWWWWLWLW.
        let example = game(10, &[1, 3, 4]);
        let wrong_at_seven = StickGame.certificate_for(&example, Some("WLWWWWWWLW"));
        for part in [
            "The program's letter for a heap of 7 sticks is W, but a heap of 7 sticks is L",
            "taking 1 leaves 6, from which taking 4 leaves 2",
            "taking 3 leaves 4, from which taking 4 leaves 0",
            "taking 4 leaves 3, from which taking 1 leaves 2",
            "the L heaps up to 10 are 0, 2, 7, 9.",
        ] {
            assert!(
                wrong_at_seven.en.contains(part),
                "{part}: {}",
                wrong_at_seven.en
            );
        }
        assert!(
            wrong_at_seven
                .vi
                .contains("Chương trình in chữ W cho đống 7 que, nhưng đống 7 que là L"),
            "{}",
            wrong_at_seven.vi
        );
        let whole = StickGame.certificate(&example);
        assert!(
            whole
                .en
                .starts_with("A heap of 10 sticks is W: taking 1 leaves 9, an L heap."),
            "{}",
            whole.en
        );
        let short = StickGame.certificate_for(&example, Some("WLW"));
        assert!(
            short
                .en
                .starts_with("The program printed 3 letters, but n = 10 needs one"),
            "{}",
            short.en
        );
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        assert_eq!(
            StickGame.shrink(&game(5, &[2, 3])),
            vec![
                game(2, &[2]),
                game(4, &[2, 3]),
                game(5, &[2]),
                game(5, &[3]),
                game(5, &[1, 3]),
            ]
        );
        assert!(StickGame.shrink(&game(1, &[1])).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(StickGame.parse("10 3\n1 3 4\n").is_ok());
        assert!(
            StickGame.parse("10 2\n4 1\n").is_ok(),
            "the values need not be sorted"
        );
        let rule = |t: &str| StickGame.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("10 2\n4 4\n"),
            "line 2: the value 4 appears twice (the p_i are distinct)"
        );
        assert_eq!(rule("10 1\n11\n"), "line 2: p_1 = 11 is outside 1..=10");
        assert_eq!(rule("10 101\n"), "line 1: k = 101 is outside 1..=100");
        assert_eq!(
            rule("1000001 1\n1\n"),
            "line 1: n = 1000001 is outside 1..=1000000"
        );
    }
}
