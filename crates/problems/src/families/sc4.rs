//! SC4, "chestnut bowls": one line `N M`; the answer is what the first player eats.

use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::chestnuts;
use rand::RngExt;
use serde::Deserialize;

pub struct Sc4;

const MAX_N: u32 = 100;
const MAX_M: u32 = 100;
/// Game trees up to this many positions are searched exhaustively (n = 30 has about 60 000).
const BRUTE_FORCE_POSITIONS: usize = 4_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub n: u32,
    pub m: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_m: u32,
}

fn answer(eaten: u32) -> String {
    format!("{eaten}\n")
}

impl Family for Sc4 {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, m) = reader.pair(("N", 1..=MAX_N), ("M", 1..=MAX_M))?;
        reader.expect_eof()?;
        Ok(Input { n, m })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.n, input.m]);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_m", p.max_m.into(), 1, MAX_M.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.n.into(), p.max_n.into())?;
        at_most("M", input.m.into(), p.max_m.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let (n, m) = (p.max_n, p.max_m);
        let half = (n / 2).clamp(1, m);
        let (n, m) = match index {
            0 => (n, 1),
            1 => (n, m),
            // Half the pile (the tutorial's false special case), and small M against a big pile.
            2 => (n, half),
            3 => (n, 3.min(m)),
            4 => (n, (n / 3).clamp(1, m)),
            5 => (1, 1),
            6 => (n, 2.min(m)),
            // Mostly 3 ≤ M < N/2: for M ≥ N/2 the answer is simply min(M, N), which a guess
            // would pass.
            _ => {
                let n = rng.random_range(1..=n);
                let m = if n >= 8 && m >= 3 && rng.random_bool(0.8) {
                    rng.random_range(3..=(n / 2 - 1).min(m))
                } else {
                    rng.random_range(1..=m)
                };
                (n, m)
            }
        };
        Input { n, m }
    }

    fn solve(&self, input: &Input) -> String {
        answer(chestnuts::first_player_eats(
            input.n as usize,
            input.m as usize,
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let (n, m) = (input.n as usize, input.m as usize);
        let brute = (n <= 30)
            .then(|| chestnuts::brute_force_eats(n, m, BRUTE_FORCE_POSITIONS))
            .flatten();
        vec![
            CrossCheck::new("closed form", chestnuts::closed_form(n, m).map(answer)),
            CrossCheck::new("brute force", brute.map(answer)),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        (1..=14)
            .flat_map(|n| (1..=n + 1).map(move |m| Input { n, m }))
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }
}

const HALF_RULE: Misconception = Misconception {
    id: "sc4-half-rule",
    title: "\"M ≥ N/2: the first player eats everything\"",
    text: "The program answers N whenever M ≥ N/2 (N/2 rounded down, as integer division \
           computes it), a special case some tutorials state. Lan eats all N chestnuts only when \
           she can take the whole pile in her first move, that is when M ≥ N; otherwise Minh \
           can take the last chestnut of the round himself. With N = 2 and M = 1, Lan takes one \
           chestnut, Minh takes the last and eats it, and Lan eats only the one she poured back: \
           1, not 2. With N = 5 and M = 3 she eats 3. Outside M ≥ N the answer needs the full \
           dynamic programme over the pile and the two bowls.",
};

impl Explain for Sc4 {
    type Game = Input;

    fn small_games(&self) -> Vec<Input> {
        // Every pile up to 8 and every limit up to the pile (a larger limit plays the same).
        let mut games: Vec<Input> = (1..=8)
            .flat_map(|n| (1..=n).map(move |m| Input { n, m }))
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Input {
        let n = rng.random_range(1..=20);
        Input {
            n,
            m: rng.random_range(1..=n + 2),
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
        u64::from(game.n) * 128 + u64::from(game.m)
    }

    fn shrink(&self, game: &Input) -> Vec<Input> {
        let (n, m) = (game.n, game.m);
        let mut smaller: Vec<Input> = [
            (n / 2, m.min(n / 2)),
            (n - 1, m.min(n - 1)),
            (n, m.min(n)),
            (n, m / 2),
            (n, m - 1),
        ]
        .into_iter()
        .filter(|&(n, m)| n >= 1 && m >= 1)
        .map(|(n, m)| Input { n, m })
        .filter(|g| self.size(g) < self.size(game))
        .collect();
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Input) -> Certificate {
        let (n, m) = (game.n, game.m);
        let values = chestnuts::first_move_values(n as usize, m as usize);
        let best = *values.iter().max().expect("at least one first move");
        let take = values.iter().position(|&v| v == best).expect("the maximum") as u32 + 1;
        let (move_en, move_vi) = if take == n {
            (
                format!(
                    "Her best first move is to take all {n} chestnuts: that takes the last \
                     chestnut of the pile, so she eats all {n}, and as Minh's bowl is empty the \
                     game ends."
                ),
                format!(
                    "Nước đi đầu tốt nhất của Lan là bốc cả {n} hạt: đó là hạt cuối cùng của \
                     đống, nên Lan ăn cả {n} hạt, và vì bát của Minh trống nên trò chơi kết \
                     thúc."
                ),
            )
        } else {
            (
                format!(
                    "Her best first move is to take {take} into her bowl, leaving {} on the \
                     table with Minh to move: whatever Minh does from there, she can still eat \
                     {best} in total, and he can keep her from eating more.",
                    n - take
                ),
                format!(
                    "Nước đi đầu tốt nhất của Lan là bốc {take} hạt vào bát của mình, để lại {} \
                     hạt trên bàn cho Minh đi: dù Minh đi thế nào, Lan vẫn ăn được tổng cộng \
                     {best} hạt, và Minh có thể giữ để Lan không ăn được nhiều hơn.",
                    n - take
                ),
            )
        };
        let shown = values.len().min(12);
        let mut each_en: Vec<String> = values[..shown]
            .iter()
            .enumerate()
            .map(|(i, v)| format!("taking {} → {v}", i + 1))
            .collect();
        let mut each_vi: Vec<String> = values[..shown]
            .iter()
            .enumerate()
            .map(|(i, v)| format!("bốc {} → {v}", i + 1))
            .collect();
        if values.len() > shown {
            each_en.push("…".to_owned());
            each_vi.push("…".to_owned());
        }
        Certificate {
            en: format!(
                "Lan eats {best} of the {n} chestnuts. {move_en} What each first move \
                 guarantees her, with both playing optimally afterwards: {}.",
                each_en.join(", ")
            ),
            vi: format!(
                "Lan ăn {best} trong {n} hạt dẻ. {move_vi} Số hạt mỗi nước đi đầu bảo đảm cho \
                 Lan, khi cả hai chơi tối ưu sau đó: {}.",
                each_vi.join(", ")
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[HALF_RULE]
    }

    fn misconceived(&self, id: &str, game: &Input) -> Option<String> {
        match id {
            "sc4-half-rule" if game.m >= game.n / 2 => Some(game.n.to_string()),
            "sc4-half-rule" => Some(self.answer(game)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;
    use grundy_games::implicit::{Game, minimax};
    use std::collections::HashMap;

    /// What the player to move eats from here on, by the statement's rules: `pile` on the
    /// table, `mine` and `theirs` in the two bowls.
    fn eats(
        pile: u32,
        mine: u32,
        theirs: u32,
        m: u32,
        memo: &mut HashMap<(u32, u32, u32), u32>,
    ) -> u32 {
        if pile == 0 {
            return 0;
        }
        if let Some(&known) = memo.get(&(pile, mine, theirs)) {
            return known;
        }
        let total = pile + mine + theirs;
        let best = (1..=m.min(pile))
            .map(|x| {
                if x == pile {
                    // The mover eats the bowl; the other pours and starts a game of `theirs`.
                    mine + x + theirs - eats(theirs, 0, 0, m, memo)
                } else {
                    total - eats(pile - x, theirs, mine + x, m, memo)
                }
            })
            .max()
            .expect("a chestnut to take");
        memo.insert((pile, mine, theirs), best);
        best
    }

    fn by_search(n: u32, m: u32) -> u32 {
        eats(n, 0, 0, m, &mut HashMap::new())
    }

    /// A program for the input `N M`, printing `lan_eats(N, M)`.
    fn program(lan_eats: fn(u32, u32) -> u32) -> impl Fn(&str) -> String {
        move |input: &str| {
            let (n, m) = input.trim().split_once(' ').unwrap();
            format!("{}\n", lan_eats(n.parse().unwrap(), m.parse().unwrap()))
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("sc4").assert_sound();
    }

    #[test]
    fn searching_the_game_is_right() {
        Problem::new("sc4").assert_right(&program(by_search));
    }

    #[test]
    fn the_half_rule_is_named_with_two_chestnuts() {
        let half_rule = |n: u32, m: u32| if m >= n / 2 { n } else { by_search(n, m) };
        let found = Problem::new("sc4").assert_named("sc4-half-rule", &program(half_rule));
        assert_eq!(found.position, "2 1\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("1", "2"));
    }

    #[test]
    fn first_move_values_agree_with_the_game_tree() {
        for n in 1..=30 {
            for m in 1..=n + 1 {
                let values = chestnuts::first_move_values(n, m);
                assert_eq!(values.len(), m.min(n));
                assert_eq!(
                    values.iter().max().copied(),
                    Some(chestnuts::first_player_eats(n, m)),
                    "n = {n}, m = {m}"
                );
            }
        }
        for n in 1..=7 {
            for m in 1..=n {
                let rules = chestnuts::ChestnutRules { max_take: m };
                let start = chestnuts::ChestnutPosition {
                    pile: n,
                    bowls: [0, 0],
                    eaten: [0, 0],
                    to_move: 0,
                };
                // The rules list the moves in the order of the amount taken, from 1.
                let after: Vec<u32> = rules
                    .moves(&start)
                    .into_iter()
                    .map(|p| minimax(&rules, p, 1_000_000).unwrap() as u32)
                    .collect();
                assert_eq!(
                    chestnuts::first_move_values(n, m),
                    after,
                    "n = {n}, m = {m}"
                );
            }
        }
    }

    #[test]
    fn certificates_give_the_best_first_move() {
        // The statement's example: N = 5, M = 2 gives 3, taking 2 first as in its note. Taking
        // 1 first, Minh answers with 1 (pile 3, bowls 1 and 1) and holds her to 2.
        let five = Sc4.certificate(&Input { n: 5, m: 2 });
        assert!(five.en.contains("Lan eats 3 of the 5"), "{}", five.en);
        assert!(
            five.en.contains("take 2 into her bowl, leaving 3"),
            "{}",
            five.en
        );
        assert!(
            five.en.contains("taking 1 → 2, taking 2 → 3"),
            "{}",
            five.en
        );
        assert!(five.vi.contains("Lan ăn 3 trong 5"), "{}", five.vi);
        let all = Sc4.certificate(&Input { n: 4, m: 4 });
        assert!(all.en.contains("take all 4 chestnuts"), "{}", all.en);
        // N = 2, M = 1: Lan takes one, Minh the last; Lan eats the one he poured back.
        let two = Sc4.certificate(&Input { n: 2, m: 1 });
        assert!(two.en.contains("Lan eats 1 of the 2"), "{}", two.en);
        assert!(two.en.contains("taking 1 → 1."), "{}", two.en);
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Sc4.shrink(&Input { n: 6, m: 9 });
        let pairs: Vec<(u32, u32)> = smaller.iter().map(|g| (g.n, g.m)).collect();
        assert_eq!(pairs, vec![(3, 3), (5, 5), (6, 4), (6, 6), (6, 8)]);
        assert!(Sc4.shrink(&Input { n: 1, m: 1 }).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Sc4.parse("5 2\n").is_ok());
        let rule = |t: &str| Sc4.parse(t).unwrap_err().to_string();
        assert_eq!(rule("101 2\n"), "line 1: N = 101 is outside 1..=100");
        assert_eq!(rule("5 0\n"), "line 1: M = 0 is outside 1..=100");
        assert_eq!(rule("5\n"), "line 1: expected 2 tokens (N M), found 1");
        assert_eq!(
            rule("5 2\n5 2\n"),
            "line 2: expected the end of the input, found another line"
        );
    }
}
