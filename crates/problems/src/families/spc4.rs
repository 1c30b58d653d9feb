//! SPC4, "addition cards": `N K T`, then `a_1 … a_N`; cards are taken from the right end.

use super::{at_most, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::cards::{self, Verdict};
use rand::RngExt;
use serde::Deserialize;

pub struct Spc4;

const MAX_N: u32 = 100;
const MAX_TOKENS: u32 = 100;
const MAX_ABS: i64 = 1_000_000_000;
/// Game trees up to this many positions are searched exhaustively.
const BRUTE_FORCE_POSITIONS: usize = 2_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub values: Vec<i64>,
    pub first_tokens: u32,
    pub second_tokens: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_tokens: u32,
    pub max_abs: i64,
}

fn word(verdict: Verdict) -> String {
    match verdict {
        Verdict::Win => "Win\n",
        Verdict::Draw => "Draw\n",
        Verdict::Lose => "Lose\n",
    }
    .to_string()
}

impl Family for Spc4 {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let first = reader.line("the line \"N K T\"")?;
        first.expect_len(3, "N K T")?;
        let n: u32 = first.int(0, "N", 1..=MAX_N)?;
        let first_tokens = first.int(1, "K", 0..=MAX_TOKENS)?;
        let second_tokens = first.int(2, "T", 0..=MAX_TOKENS)?;
        let second = reader.line("the line of a_1 … a_N")?;
        second.expect_len(n as usize, "a_1 … a_N")?;
        let values = second.ints("a", -MAX_ABS..=MAX_ABS)?;
        reader.expect_eof()?;
        Ok(Input {
            values,
            first_tokens,
            second_tokens,
        })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(
            &mut out,
            [
                input.values.len() as u32,
                input.first_tokens,
                input.second_tokens,
            ],
        );
        push_line(&mut out, &input.values);
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_tokens", p.max_tokens.into(), 0, MAX_TOKENS.into())?;
        if !(1..=MAX_ABS).contains(&p.max_abs) {
            return Err(format!("max_abs = {} must lie in 1..={MAX_ABS}", p.max_abs));
        }
        Ok(())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("N", input.values.len() as u64, p.max_n.into())?;
        at_most("K", input.first_tokens.into(), p.max_tokens.into())?;
        at_most("T", input.second_tokens.into(), p.max_tokens.into())?;
        let largest = input
            .values
            .iter()
            .map(|v| v.unsigned_abs())
            .max()
            .unwrap_or(0);
        at_most("|a_i|", largest, p.max_abs.unsigned_abs())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let (n, tokens, abs) = (p.max_n, p.max_tokens, p.max_abs);
        let random_values = |rng: &mut TestRng, count: u32, low: i64, high: i64| -> Vec<i64> {
            (0..count).map(|_| rng.random_range(low..=high)).collect()
        };
        let (values, k, t) = match index {
            // Everything at the limit.
            0 => (random_values(rng, n, -abs, abs), tokens, tokens),
            // All values equal, an even count and no tokens: a draw (a win when only one card fits).
            1 => (vec![abs; (n - n % 2).max(1) as usize], 0, 0),
            // All negative: taking a card always hurts, yet one must be taken.
            2 => (random_values(rng, n, -abs, -1), tokens, tokens / 2),
            // No tokens: strict alternation.
            3 => (random_values(rng, n, -abs, abs), 0, 0),
            // A single card.
            4 => (random_values(rng, 1, -abs, abs), tokens, tokens),
            // Only the first player has tokens; and only the second.
            5 => (random_values(rng, n, 0, abs), tokens, 0),
            6 => (random_values(rng, n, -abs, abs), 0, tokens),
            // Small values: many draws.
            7 => (
                random_values(rng, n, -1, 1),
                rng.random_range(0..=tokens),
                rng.random_range(0..=tokens),
            ),
            // A draw with tokens in play, found by trying small random rows.
            8 => (0..1000)
                .map(|_| {
                    let count = rng.random_range(1..=n.min(12));
                    let values = random_values(rng, count, -2, 2);
                    (
                        values,
                        rng.random_range(0..=tokens.min(4)),
                        rng.random_range(0..=tokens.min(4)),
                    )
                })
                .find(|(v, k, t)| {
                    cards::verdict(v, *k as usize, *t as usize) == Verdict::Draw && *k + *t > 0
                })
                .unwrap_or_else(|| (vec![0], 0, 0)),
            _ => {
                let count = rng.random_range(1..=n);
                (
                    random_values(rng, count, -abs, abs),
                    rng.random_range(0..=tokens),
                    rng.random_range(0..=tokens),
                )
            }
        };
        Input {
            values,
            first_tokens: k,
            second_tokens: t,
        }
    }

    fn solve(&self, input: &Input) -> String {
        word(cards::verdict(
            &input.values,
            input.first_tokens as usize,
            input.second_tokens as usize,
        ))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let feasible = input.values.len() <= 9;
        let brute = feasible
            .then(|| {
                cards::brute_force_verdict(
                    &input.values,
                    input.first_tokens as usize,
                    input.second_tokens as usize,
                    BRUTE_FORCE_POSITIONS,
                )
            })
            .flatten();
        vec![CrossCheck::new("brute force", brute.map(word))]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every row of up to four cards over {-2, 0, 1, 3}, every token count up to 2 each.
        let alphabet = [-2i64, 0, 1, 3];
        let mut inputs = Vec::new();
        for n in 1..=4u32 {
            for code in 0..4usize.pow(n) {
                let values: Vec<i64> = (0..n).map(|i| alphabet[code / 4usize.pow(i) % 4]).collect();
                for k in 0..=2 {
                    for t in 0..=2 {
                        inputs.push(Input {
                            values: values.clone(),
                            first_tokens: k,
                            second_tokens: t,
                        });
                    }
                }
            }
        }
        inputs
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }
}

const FRONT_END: Misconception = Misconception {
    id: "spc4-front-end",
    title: "Cards taken from the left end",
    text: "The program plays as if the cards were taken from the left end of the row (a_1 \
           first). They are taken from the right end: the card a player must take is a_N, and \
           the extra cards bought with tokens are the next ones from the right. With the row \
           -1 0 and no tokens, Khoa must take the 0 and Tuan gets the -1, so Khoa wins; from \
           the left Khoa would take the -1 and lose. A dynamic programme over the first i cards \
           matches the rule: a move takes a suffix of them and leaves a shorter prefix.",
};

/// `+3`, `0`, `−2`: a lead, signed.
fn signed(lead: i64) -> String {
    match lead {
        0 => "0".to_owned(),
        l if l > 0 => format!("+{l}"),
        l => format!("−{}", l.unsigned_abs()),
    }
}

/// `-1`, `4 + 1 + 5 = 10`: the cards of one move, in the order they lie in the row.
fn cards_text(cards: &[i64]) -> String {
    if cards.len() == 1 {
        return cards[0].to_string();
    }
    let terms: Vec<String> = cards.iter().map(i64::to_string).collect();
    format!("{} = {}", terms.join(" + "), cards.iter().sum::<i64>())
}

/// One move of a game played by both at their best.
struct Move {
    khoa: bool,
    cards: Vec<i64>,
    tokens: usize,
}

impl Move {
    fn en(&self) -> String {
        let who = if self.khoa { "Khoa" } else { "Tuan" };
        match self.tokens {
            0 => format!("{who} takes {}", cards_text(&self.cards)),
            t => format!(
                "{who} takes {} cards, {}, with {t} token{}",
                self.cards.len(),
                cards_text(&self.cards),
                if t == 1 { "" } else { "s" }
            ),
        }
    }

    fn vi(&self) -> String {
        let who = if self.khoa { "Khoa" } else { "Tuấn" };
        match self.tokens {
            0 => format!("{who} lấy {}", cards_text(&self.cards)),
            t => format!(
                "{who} lấy {} lá, {}, dùng {t} thẻ",
                self.cards.len(),
                cards_text(&self.cards)
            ),
        }
    }
}

impl Spc4 {
    /// A whole game with both at their best: at each turn the move with the best lead, the
    /// fewest tokens among equals.
    fn best_game(&self, game: &Input, scores: &cards::Scores) -> Vec<Move> {
        let mut moves = Vec::new();
        let (mut left, mut mine, mut theirs) = (
            game.values.len(),
            game.first_tokens as usize,
            game.second_tokens as usize,
        );
        let mut khoa = true;
        while left > 0 {
            let extra = best_extra(scores, left, mine, theirs);
            moves.push(Move {
                khoa,
                cards: game.values[left - extra - 1..left].to_vec(),
                tokens: extra,
            });
            left -= extra + 1;
            (mine, theirs) = (theirs, mine - extra);
            khoa = !khoa;
        }
        moves
    }
}

/// The fewest extra cards among the moves with the best lead.
fn best_extra(scores: &cards::Scores, cards: usize, mine: usize, theirs: usize) -> usize {
    let options = mine.min(cards - 1);
    let best = scores.lead(cards, mine, theirs);
    (0..=options)
        .find(|&x| scores.lead_after(cards, mine, theirs, x) == best)
        .expect("the best lead comes from some move")
}

impl Explain for Spc4 {
    type Game = Input;

    fn small_games(&self) -> Vec<Input> {
        // One card, two cards with and without Khoa's token (Tuan's cannot be spent on the
        // last card), three with one token on either side; small values, negative ones where
        // the rows are short.
        let mut games = Vec::new();
        for a in -1..=1 {
            games.push(Input {
                values: vec![a],
                first_tokens: 0,
                second_tokens: 0,
            });
        }
        for k in 0..=1 {
            for a in -1..=1 {
                for b in -1..=1 {
                    games.push(Input {
                        values: vec![a, b],
                        first_tokens: k,
                        second_tokens: 0,
                    });
                }
            }
        }
        for (k, t) in [(0, 1), (1, 0)] {
            for code in 0..8 {
                games.push(Input {
                    values: (0..3).map(|i| code >> (2 - i) & 1).collect(),
                    first_tokens: k,
                    second_tokens: t,
                });
            }
        }
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Input {
        let n = rng.random_range(1..=8);
        Input {
            values: (0..n).map(|_| rng.random_range(-5..=5)).collect(),
            first_tokens: rng.random_range(0..=3),
            second_tokens: rng.random_range(0..=3),
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
        // Cards, then tokens (at most 200), then how large the values are (at most 10¹¹).
        let magnitude: u64 = game.values.iter().map(|v| v.unsigned_abs()).sum();
        (game.values.len() as u64) << 50
            | u64::from(game.first_tokens + game.second_tokens) << 40
            | magnitude
    }

    fn shrink(&self, game: &Input) -> Vec<Input> {
        let mut smaller = Vec::new();
        if game.values.len() > 1 {
            for i in 0..game.values.len() {
                let mut fewer = game.clone();
                fewer.values.remove(i);
                smaller.push(fewer);
            }
        }
        if game.first_tokens > 0 {
            smaller.push(Input {
                first_tokens: game.first_tokens - 1,
                ..game.clone()
            });
        }
        if game.second_tokens > 0 {
            smaller.push(Input {
                second_tokens: game.second_tokens - 1,
                ..game.clone()
            });
        }
        for i in 0..game.values.len() {
            if game.values[i] != 0 {
                let mut halved = game.clone();
                halved.values[i] /= 2;
                smaller.push(halved);
            }
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Input) -> Certificate {
        let (k, t) = (game.first_tokens as usize, game.second_tokens as usize);
        let n = game.values.len();
        let scores = cards::Scores::new(&game.values, k, t);
        let total: i64 = game.values.iter().sum();
        let lead = scores.lead(n, k, t);
        let khoa = (total + lead) / 2;
        let tuan = total - khoa;
        let (verdict_en, verdict_vi) = match lead.signum() {
            1 => ("Khoa wins", "Khoa thắng"),
            0 => ("It is a draw", "Hai người hoà"),
            _ => ("Khoa loses", "Khoa thua"),
        };
        let moves = self.best_game(game, &scores);
        let game_en = listed(moves.iter().map(Move::en), "; ");
        let game_vi = listed(moves.iter().map(Move::vi), "; ");
        let firsts: Vec<(usize, i64)> = (0..=k.min(n - 1))
            .map(|x| (x, scores.lead_after(n, k, t, x)))
            .collect();
        let firsts_en = listed(
            firsts.iter().map(|&(x, lead)| match x {
                0 => format!("taking 1 card → {}", signed(lead)),
                x => format!(
                    "taking {} cards with {x} token{} → {}",
                    x + 1,
                    if x == 1 { "" } else { "s" },
                    signed(lead)
                ),
            }),
            "; ",
        );
        let firsts_vi = listed(
            firsts.iter().map(|&(x, lead)| match x {
                0 => format!("lấy 1 lá → {}", signed(lead)),
                x => format!("lấy {} lá, dùng {x} thẻ → {}", x + 1, signed(lead)),
            }),
            "; ",
        );
        Certificate {
            en: format!(
                "{verdict_en}: with both playing their best, Khoa scores {khoa} and Tuan {tuan}. \
                 One such game, the cards taken from the right end: {game_en}. What each first \
                 move of Khoa's guarantees him, as his score minus Tuan's with both playing \
                 their best afterwards: {firsts_en}; the best of them decides."
            ),
            vi: format!(
                "{verdict_vi}: nếu cả hai chơi tốt nhất, Khoa được {khoa} điểm và Tuấn được \
                 {tuan} điểm. Một ván như vậy, các lá được lấy từ đầu bên phải: {game_vi}. Hiệu \
                 điểm (điểm Khoa trừ điểm Tuấn) mà mỗi nước đi đầu bảo đảm cho Khoa, khi cả hai \
                 chơi tốt nhất sau đó: {firsts_vi}; nước tốt nhất quyết định kết quả."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[FRONT_END]
    }

    fn misconceived(&self, id: &str, game: &Input) -> Option<String> {
        match id {
            "spc4-front-end" => {
                let reversed: Vec<i64> = game.values.iter().rev().copied().collect();
                let verdict = cards::verdict(
                    &reversed,
                    game.first_tokens as usize,
                    game.second_tokens as usize,
                );
                Some(word(verdict).trim_end().to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// Khoa's score minus Tuan's from here on, both playing their best, by the rules: the
    /// mover takes the last card and up to `tokens[mover]` more, and maximises their own lead.
    fn lead_by_rules(values: &[i64], tokens: [usize; 2], mover: usize) -> i64 {
        if values.is_empty() {
            return 0;
        }
        let sign = if mover == 0 { 1 } else { -1 };
        (0..=tokens[mover].min(values.len() - 1))
            .map(|extra| {
                let cut = values.len() - extra - 1;
                let taken: i64 = values[cut..].iter().sum();
                let mut left = tokens;
                left[mover] -= extra;
                sign * taken + lead_by_rules(&values[..cut], left, 1 - mover)
            })
            .max_by_key(|&lead| sign * lead)
            .expect("a card to take")
    }

    /// A program for the input `N K T` / `a_1 … a_N`, answering by Khoa's lead from `lead`.
    fn program(lead: fn(&[i64], [usize; 2], usize) -> i64) -> impl Fn(&str) -> String {
        move |input: &str| {
            let numbers: Vec<i64> = input
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let tokens = [numbers[1] as usize, numbers[2] as usize];
            match lead(&numbers[3..], tokens, 0).signum() {
                1 => "Win\n",
                0 => "Draw\n",
                _ => "Lose\n",
            }
            .to_owned()
        }
    }

    fn game(values: &[i64], k: u32, t: u32) -> Input {
        Input {
            values: values.to_vec(),
            first_tokens: k,
            second_tokens: t,
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("spc4").assert_sound();
    }

    #[test]
    fn the_rules_searched_are_right() {
        Problem::new("spc4").assert_right(&program(lead_by_rules));
    }

    #[test]
    fn the_left_end_is_named_with_two_cards() {
        // The same search with the row read from the left: the first card a_1 goes first.
        let from_left = |values: &[i64], tokens: [usize; 2], mover: usize| {
            let reversed: Vec<i64> = values.iter().rev().copied().collect();
            lead_by_rules(&reversed, tokens, mover)
        };
        let found = Problem::new("spc4").assert_named("spc4-front-end", &program(from_left));
        // Khoa must take the 0 on the right; from the left he would take the -1.
        assert_eq!(found.position, "2 0 0\n-1 0\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("Win", "Lose")
        );
        assert!(
            found.certificate.en.contains(
                "Khoa scores 0 and Tuan -1. One such game, the cards taken from the \
                           right end: Khoa takes 0; Tuan takes -1."
            ),
            "{}",
            found.certificate.en
        );
    }

    #[test]
    fn certificates_give_the_scores_a_best_game_and_every_first_move() {
        // The statement's first example: taking 5, 4 and 3 one by one beats spending the token.
        let first = Spc4.certificate(&game(&[3, 1, 4, 1, 5], 1, 0));
        for part in [
            "Khoa wins: with both playing their best, Khoa scores 12 and Tuan 2.",
            "Khoa takes 5; Tuan takes 1; Khoa takes 4; Tuan takes 1; Khoa takes 3.",
            "taking 1 card → +10; taking 2 cards with 1 token → 0;",
        ] {
            assert!(first.en.contains(part), "{part}: {}", first.en);
        }
        assert!(
            first
                .vi
                .contains("Khoa thắng: nếu cả hai chơi tốt nhất, Khoa được 12 điểm và Tuấn được 2"),
            "{}",
            first.vi
        );
        assert!(
            first.vi.contains("lấy 2 lá, dùng 1 thẻ → 0"),
            "{}",
            first.vi
        );
        let draw = Spc4.certificate(&game(&[5, 5], 0, 0));
        assert!(
            draw.en.starts_with(
                "It is a draw: with both playing their best, Khoa scores 5 and Tuan 5."
            ),
            "{}",
            draw.en
        );
        // Tuan's token takes 1 and 1 at once: 2 against Khoa's 0.
        let lose = Spc4.certificate(&game(&[1, 1, 0], 0, 1));
        for part in [
            "Khoa loses: with both playing their best, Khoa scores 0 and Tuan 2.",
            "Khoa takes 0; Tuan takes 2 cards, 1 + 1 = 2, with 1 token.",
            "taking 1 card → −2;",
        ] {
            assert!(lose.en.contains(part), "{part}: {}", lose.en);
        }
    }

    #[test]
    fn the_best_game_is_best_by_the_rules() {
        let mut rng = rand::SeedableRng::seed_from_u64(4);
        let mut games = Spc4.small_games();
        games.extend((0..100).map(|_| Spc4.random_game(&mut rng)));
        for game in games {
            let tokens = [game.first_tokens as usize, game.second_tokens as usize];
            let scores = cards::Scores::new(&game.values, tokens[0], tokens[1]);
            // Replayed move by move, each move keeps the mover's best lead by the rules.
            let mut left = game.values.len();
            let mut held = tokens;
            let mut lead = 0;
            for (turn, step) in Spc4.best_game(&game, &scores).iter().enumerate() {
                let mover = turn % 2;
                let best = lead_by_rules(&game.values[..left], held, mover);
                let taken: i64 = step.cards.iter().sum();
                left -= step.cards.len();
                held[mover] -= step.tokens;
                let sign = if mover == 0 { 1 } else { -1 };
                let after = sign * taken + lead_by_rules(&game.values[..left], held, 1 - mover);
                assert_eq!(after, best, "{game:?}, turn {turn}");
                lead += sign * taken;
            }
            assert_eq!(left, 0);
            assert_eq!(lead, lead_by_rules(&game.values, tokens, 0), "{game:?}");
        }
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        assert_eq!(
            Spc4.shrink(&game(&[2, -3], 1, 1)),
            vec![
                game(&[2], 1, 1),
                game(&[-3], 1, 1),
                game(&[2, -3], 0, 1),
                game(&[2, -3], 1, 0),
                game(&[2, -1], 1, 1),
                game(&[1, -3], 1, 1),
            ]
        );
        assert!(Spc4.shrink(&game(&[0], 0, 0)).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Spc4.parse("4 1 2\n-3 7 -2 6\n").is_ok());
        let rule = |t: &str| Spc4.parse(t).unwrap_err().to_string();
        assert_eq!(rule("0 1 1\n\n"), "line 1: N = 0 is outside 1..=100");
        assert_eq!(rule("1 101 0\n5\n"), "line 1: K = 101 is outside 0..=100");
        assert_eq!(rule("1 0 -1\n5\n"), "line 1: T = -1 is outside 0..=100");
        assert_eq!(
            rule("2 0 0\n1000000001 0\n"),
            "line 2: a_1 = 1000000001 is outside -1000000000..=1000000000"
        );
        assert_eq!(
            rule("2 0 0\n1 -0\n"),
            "line 2: a_2 = \"-0\" is not an integer written in canonical form"
        );
        assert_eq!(
            rule("2 0 0\n1 2 3\n"),
            "line 2: expected 2 tokens (a_1 … a_N), found 3"
        );
    }
}
