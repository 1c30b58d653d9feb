//! Stones (AtCoder Educational DP Contest K): `N K`, then the move set `a_1 < … < a_N`.

use super::stones_play::StonesPlay;
use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::{implicit, subtraction};
use rand::RngExt;
use serde::Deserialize;

pub struct Stones;

const MAX_N: u32 = 100;
const MAX_K: u32 = 100_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub moves: Vec<u32>,
    pub pile: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_k: u32,
}

fn answer(first_wins: bool) -> String {
    if first_wins { "First\n" } else { "Second\n" }.to_string()
}

fn sizes(moves: &[u32]) -> Vec<usize> {
    moves.iter().map(|&m| m as usize).collect()
}

/// `count` distinct values from `1..=high`, sorted.
fn distinct(rng: &mut TestRng, count: u32, high: u32) -> Vec<u32> {
    let mut values: Vec<u32> = rand::seq::index::sample(rng, high as usize, count as usize)
        .into_iter()
        .map(|v| v as u32 + 1)
        .collect();
    values.sort_unstable();
    values
}

impl Family for Stones {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, pile): (u32, u32) = reader.pair(("N", 1..=MAX_N), ("K", 1..=MAX_K))?;
        let second = reader.line("the line of a_1 … a_N")?;
        second.expect_len(n as usize, "a_1 … a_N")?;
        let moves: Vec<u32> = second.ints("a", 1..=pile)?;
        if let Some(i) = (1..moves.len()).find(|&i| moves[i] <= moves[i - 1]) {
            return Err(second.error(format!(
                "a_{} = {} must be greater than a_{} = {} (the values are strictly increasing)",
                i + 1,
                moves[i],
                i,
                moves[i - 1]
            )));
        }
        reader.expect_eof()?;
        Ok(Input { moves, pile })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.moves.len() as u32, input.pile]);
        push_line(&mut out, &input.moves);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_k", p.max_k.into(), 1, MAX_K.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.moves.len() as u64, p.max_n.into())?;
        at_most("K", input.pile.into(), p.max_k.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let k = p.max_k;
        let n = p.max_n.min(k);
        match index {
            // The largest input: every limit at once.
            0 => Input {
                moves: distinct(rng, n, k),
                pile: k,
            },
            // One move of one stone: pure parity.
            1 => Input {
                moves: vec![1],
                pile: k,
            },
            // The only move takes the whole pile.
            2 => Input {
                moves: vec![k],
                pile: k,
            },
            // Bash's game: every amount from 1 to N.
            3 => Input {
                moves: (1..=n).collect(),
                pile: k,
            },
            // The largest moves only.
            4 => Input {
                moves: (k - n + 1..=k).collect(),
                pile: k,
            },
            // The smallest input.
            5 => Input {
                moves: vec![1],
                pile: 1,
            },
            // Random move sets: from small moves only (long, irregular periods) at index 6, from
            // anywhere later. Every other test aims at a losing pile, which random piles rarely
            // hit: without them "print First" would pass.
            _ => {
                let high = if index == 6 {
                    (2 * n).min(k)
                } else {
                    rng.random_range(1..=k)
                };
                let count = rng.random_range(1..=n.min(high));
                let moves = distinct(rng, count, high);
                let largest_move = *moves.last().expect("at least one move");
                let losing: Vec<u32> = if index.is_multiple_of(2) {
                    let wins = subtraction::winning_table(k as usize, &sizes(&moves));
                    (largest_move..=k)
                        .filter(|&pile| !wins[pile as usize])
                        .collect()
                } else {
                    Vec::new()
                };
                let pile = if losing.is_empty() {
                    rng.random_range(largest_move..=k)
                } else {
                    losing[rng.random_range(0..losing.len())]
                };
                Input { moves, pile }
            }
        }
    }

    fn solve(&self, input: &Input) -> String {
        answer(subtraction::first_wins(
            input.pile as usize,
            &sizes(&input.moves),
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let moves = sizes(&input.moves);
        let pile = input.pile as usize;
        let sprague_grundy = subtraction::grundy_table(pile, &moves)[pile] != 0;
        let brute = (pile <= 5_000).then(|| {
            let rules = subtraction::SubtractionRules { moves };
            implicit::outcome(&rules, pile, pile + 1)
                .expect("within the bound")
                .is_win()
        });
        vec![
            CrossCheck::new("Sprague-Grundy values", Some(answer(sprague_grundy))),
            CrossCheck::new("brute force", brute.map(answer)),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every move set within {1, …, 5} and every pile up to 15 that the set allows.
        let mut inputs = Vec::new();
        for mask in 1u32..32 {
            let moves: Vec<u32> = (1..=5).filter(|b| mask & (1 << (b - 1)) != 0).collect();
            for pile in *moves.last().expect("non-empty")..=15 {
                inputs.push(Input {
                    moves: moves.clone(),
                    pile,
                });
            }
        }
        inputs
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// A subtraction game on a page: sets of at most 10 sizes up to 100, piles up to 5000.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(StonesPlay))
    }
}

const SUM_PARITY: Misconception = Misconception {
    id: "sum-parity",
    title: "The parity of the pile",
    text: "The program answers by whether K is odd, as if every move took exactly one stone. \
           That is right when the only move is 1, but a move takes any amount of the set A: with \
           K = 2 and A = {2} the first player takes both stones and wins. A count of stones is \
           winning exactly when some move reaches a losing count (0 is losing: no move is left), \
           and a table of the counts 0, 1, …, K built in that order decides the game.",
};

impl Explain for Stones {
    type Game = Input;

    fn small_games(&self) -> Vec<Input> {
        // Every move set within {1, 2, 3} and every pile up to 6 that the set allows.
        let mut games = Vec::new();
        for pile in 1..=6 {
            for mask in 1u32..8 {
                let moves: Vec<u32> = (1..=3).filter(|b| mask & (1 << (b - 1)) != 0).collect();
                if moves.iter().all(|&a| a <= pile) {
                    games.push(Input { moves, pile });
                }
            }
        }
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Input {
        let pile = rng.random_range(1..=40);
        let high = pile.min(10);
        let count = rng.random_range(1..=high.min(4));
        Input {
            moves: distinct(rng, count, high),
            pile,
        }
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
        super::subtraction_size(game.pile, &game.moves)
    }

    fn shrink(&self, game: &Input) -> Vec<Input> {
        let mut smaller: Vec<Input> = super::shrink_subtraction(game.pile, &game.moves)
            .into_iter()
            .map(|(pile, moves)| Input { moves, pile })
            .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Input) -> Certificate {
        let pile = game.pile as usize;
        let wins = subtraction::winning_table(pile, &sizes(&game.moves));
        let losing: Vec<usize> = (0..=pile).filter(|&c| !wins[c]).collect();
        let losing_text = listed(losing.iter().map(usize::to_string), ", ");
        let table_en = format!(
            "A count of stones is losing for the player to move when every move from it reaches \
             a winning count (0 is losing: no move is left), and winning when some move reaches \
             a losing count. With A = {{{}}} the losing counts up to {pile} are {losing_text}.",
            listed(game.moves.iter().map(u32::to_string), ", ")
        );
        let table_vi = format!(
            "Một số viên là thế thua cho người phải đi khi mọi nước đi từ đó đều đến một số \
             thắng (0 là thua: không còn nước đi), và là thế thắng khi có nước đi đến một số \
             thua. Với A = {{{}}} các số thua không vượt quá {pile} là {losing_text}.",
            listed(game.moves.iter().map(u32::to_string), ", ")
        );
        // The smallest move to a losing count from `count`, if any.
        let to_losing = |count: usize| -> Option<usize> {
            sizes(&game.moves)
                .into_iter()
                .find(|&a| a <= count && !wins[count - a])
        };
        if let Some(take) = to_losing(pile) {
            let left = pile - take;
            return Certificate {
                en: format!(
                    "The first player wins: taking {take} leaves {left} stones, a losing count. \
                     {table_en}"
                ),
                vi: format!(
                    "Người đi trước thắng: lấy {take} viên để lại {left} viên, là một số thua. \
                     {table_vi}"
                ),
            };
        }
        let replies: Vec<(usize, usize, usize)> = sizes(&game.moves)
            .into_iter()
            .filter(|&a| a <= pile)
            .map(|a| {
                let left = pile - a;
                (
                    a,
                    left,
                    to_losing(left).expect("a winning count has a move"),
                )
            })
            .collect();
        let replies_en = listed(
            replies.iter().map(|(a, left, reply)| {
                format!(
                    "taking {a} leaves {left}, and taking {reply} from it leaves {}",
                    left - reply
                )
            }),
            "; ",
        );
        let replies_vi = listed(
            replies.iter().map(|(a, left, reply)| {
                format!(
                    "lấy {a} viên còn {left}, và lấy tiếp {reply} viên còn {}",
                    left - reply
                )
            }),
            "; ",
        );
        Certificate {
            en: format!(
                "The second player wins: {pile} is a losing count. Every move leads to a winning \
                 count for the second player: {replies_en}. {table_en}"
            ),
            vi: format!(
                "Người đi sau thắng: {pile} là một số thua. Mọi nước đi đều dẫn đến một số thắng \
                 cho người đi sau: {replies_vi}. {table_vi}"
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[SUM_PARITY]
    }

    fn misconceived(&self, id: &str, game: &Input) -> Option<String> {
        match id {
            "sum-parity" => Some(answer(game.pile % 2 == 1).trim_end().to_owned()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;

    fn rule(text: &str) -> String {
        Stones.parse(text).unwrap_err().to_string()
    }

    /// A program for the input `N K` / `a_1 … a_N`, answered by `first_wins(K, moves)`.
    fn program(first_wins: fn(usize, &[usize]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let numbers: Vec<usize> = input
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let (k, moves) = (numbers[1], &numbers[2..]);
            if first_wins(k, moves) {
                "First\n"
            } else {
                "Second\n"
            }
            .to_owned()
        }
    }

    /// The counts from 0 to K, each winning iff a move reaches a losing one.
    fn by_table(k: usize, moves: &[usize]) -> bool {
        let mut wins: Vec<bool> = Vec::with_capacity(k + 1);
        for count in 0..=k {
            let win = moves.iter().any(|&a| a <= count && !wins[count - a]);
            wins.push(win);
        }
        wins[k]
    }

    fn game(pile: u32, moves: &[u32]) -> Input {
        Input {
            moves: moves.to_vec(),
            pile,
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("stones").assert_sound();
    }

    #[test]
    fn the_table_of_counts_is_right() {
        Problem::new("stones").assert_right(&program(by_table));
    }

    #[test]
    fn the_parity_of_the_pile_is_named_with_two_stones_taken_at_once() {
        let found = Problem::new("stones").assert_named("sum-parity", &program(|k, _| k % 2 == 1));
        assert_eq!(found.position, "1 2\n2\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("First", "Second")
        );
    }

    #[test]
    fn certificates_name_a_move_to_a_losing_count() {
        // A = {2, 3}: the losing counts are 0, 1, 5, 6, 10, 11, … (period 5).
        let win = Stones.certificate(&game(7, &[2, 3]));
        assert!(win.en.contains("taking 2 leaves 5 stones"), "{}", win.en);
        assert!(win.en.contains("up to 7 are 0, 1, 5, 6"), "{}", win.en);
        let lose = Stones.certificate(&game(5, &[2, 3]));
        assert!(lose.en.contains("The second player wins"), "{}", lose.en);
        assert!(
            lose.en
                .contains("taking 2 leaves 3, and taking 2 from it leaves 1"),
            "{}",
            lose.en
        );
        assert!(
            lose.en
                .contains("taking 3 leaves 2, and taking 2 from it leaves 0"),
            "{}",
            lose.en
        );
        assert!(lose.vi.contains("Người đi sau thắng"), "{}", lose.vi);
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Stones.shrink(&game(5, &[2, 3]));
        assert_eq!(
            smaller,
            vec![
                game(2, &[2]),
                game(4, &[2, 3]),
                game(5, &[2]),
                game(5, &[3]),
                game(5, &[1, 3]),
            ]
        );
        assert!(Stones.shrink(&game(1, &[1])).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Stones.parse("2 4\n2 3\n").is_ok());
        assert_eq!(rule("0 4\n\n"), "line 1: N = 0 is outside 1..=100");
        assert_eq!(
            rule("1 100001\n1\n"),
            "line 1: K = 100001 is outside 1..=100000"
        );
        assert_eq!(
            rule("2 4\n2\n"),
            "line 2: expected 2 tokens (a_1 … a_N), found 1"
        );
        assert_eq!(
            rule("2 4\n3 3\n"),
            "line 2: a_2 = 3 must be greater than a_1 = 3 (the values are strictly increasing)"
        );
        assert_eq!(rule("2 4\n2 5\n"), "line 2: a_2 = 5 is outside 1..=4");
        assert_eq!(rule("2 4\n0 3\n"), "line 2: a_1 = 0 is outside 1..=4");
        assert_eq!(
            rule("2 4\n2 3\n\n"),
            "line 3: expected the end of the input, found another line"
        );
        assert_eq!(
            rule("2 4\n"),
            "line 2: expected the line of a_1 … a_N, found the end of the input"
        );
        assert_eq!(
            rule("2 4 5\n2 3\n"),
            "line 1: expected 2 tokens (N K), found 3"
        );
    }
}
