//! Coin turning, Mock Turtles (own format): `T` tests of `n` and a row of `H`/`T`.

use super::coins_play::CoinsPlay;
use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::coins;
use rand::RngExt;
use serde::Deserialize;

pub struct Coins;

const MAX_T: u32 = 10;
const MAX_N: u32 = 100_000;

#[derive(Debug)]
pub struct Input {
    /// Each row: true for heads.
    pub rows: Vec<Vec<bool>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_tests: u32,
    pub max_n: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "First" } else { "Second" }
}

impl Family for Coins {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("T", 1..=MAX_T)?;
        let mut rows = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let n: u32 = reader.single("n", 1..=MAX_N)?;
            let line = reader.line("the row of coins")?;
            line.expect_len(1, "a string of H and T")?;
            let row = line.token(0);
            if row.len() != n as usize {
                return Err(line.error(format!("the row has {} coins, not n = {n}", row.len())));
            }
            if let Some(bad) = row.chars().find(|c| !matches!(c, 'H' | 'T')) {
                return Err(line.error(format!("'{bad}' is not a coin face (H or T)")));
            }
            rows.push(row.chars().map(|c| c == 'H').collect());
        }
        reader.expect_eof()?;
        Ok(Input { rows })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.rows.len()]);
        for row in &input.rows {
            push_line(&mut out, [row.len()]);
            out.extend(row.iter().map(|&h| if h { 'H' } else { 'T' }));
            out.push('\n');
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_tests", p.max_tests.into(), 1, MAX_T.into())?;
        within("max_n", p.max_n.into(), 1, MAX_N.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.rows.len() as u64, p.max_tests.into())?;
        input
            .rows
            .iter()
            .try_for_each(|r| at_most("n", r.len() as u64, p.max_n.into()))
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let rows = (0..p.max_tests as usize)
            .map(|r| {
                let n = if index == 0 {
                    p.max_n
                } else {
                    rng.random_range(1..=p.max_n)
                } as usize;
                match (index, r % 4) {
                    (1, 0) => vec![false; n],
                    (1, 1) => vec![true; n],
                    (1, 2) => (0..n).map(|i| i + 1 == n).collect(),
                    _ => {
                        let density = rng.random_range(0.0..=1.0);
                        let mut row: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
                        // Every other row made losing by turning the coin worth the row's value
                        // (first turning coin 1 when that value is evil, not odious); every fourth
                        // row then gets coin 1 turned, leaving a value of exactly 1.
                        if r % 2 == 1 {
                            let mut value = (0..n)
                                .filter(|&i| row[i])
                                .fold(0, |a, i| a ^ coins::odious(i as u64 + 1));
                            if value != 0 && value.count_ones().is_multiple_of(2) {
                                row[0] ^= true;
                                value ^= 1;
                            }
                            let position = value / 2 + 1;
                            if value != 0 && position <= n as u64 {
                                row[position as usize - 1] ^= true;
                            }
                            if r % 4 == 3 {
                                row[0] ^= true;
                            }
                        }
                        row
                    }
                }
            })
            .collect();
        Input { rows }
    }

    fn solve(&self, input: &Input) -> String {
        lines(input.rows.iter().map(|r| word(coins::first_wins(r))))
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let longest = input.rows.iter().map(Vec::len).max().unwrap_or(0);
        let by_definition = (longest <= 150).then(|| {
            let values = coins::head_values(longest);
            lines(input.rows.iter().map(|r| {
                word(
                    r.iter()
                        .zip(&values)
                        .filter(|(h, _)| **h)
                        .fold(0, |a, (_, v)| a ^ v)
                        != 0,
                )
            }))
        });
        let brute = input
            .rows
            .iter()
            .map(|r| {
                (r.len() <= 10)
                    .then(|| coins::brute_force_first_wins(r, 10_000))
                    .flatten()
            })
            .collect::<Option<Vec<bool>>>()
            .map(|w| lines(w.into_iter().map(word)));
        vec![
            CrossCheck::new("head values by definition", by_definition),
            CrossCheck::new("brute force", brute),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        let rows: Vec<Vec<bool>> = (1..=8usize)
            .flat_map(|n| {
                (0u32..1 << n).map(move |mask| (0..n).map(|i| mask >> i & 1 == 1).collect())
            })
            .collect();
        rows.chunks(MAX_T as usize)
            .map(|c| Input { rows: c.to_vec() })
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// The game on a page: rows of up to 1000 coins.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(CoinsPlay))
    }
}

const VALUE_K: Misconception = Misconception {
    id: "coins-value-k",
    title: "A head at position k worth k",
    text: "The program gives the head at position k the value k and takes the xor of the heads' \
           values. That is the rule when a move turns over one or two coins; here a move may \
           turn over three, which gives the heads other values: the odious numbers (those with \
           an odd count of ones in binary) 1, 2, 4, 7, 8, 11, 13, 14, … With HHH Lan turns over \
           all three coins and wins, although 1 ⊕ 2 ⊕ 3 = 0; the odious values give \
           1 ⊕ 2 ⊕ 4 = 7.",
};

/// The 1-based positions of the heads.
fn heads(row: &[bool]) -> Vec<u64> {
    (1..=row.len() as u64)
        .filter(|&k| row[k as usize - 1])
        .collect()
}

/// The position of the odious number `value`, if it is one.
fn position_of(value: u64) -> Option<u64> {
    let k = value / 2 + 1;
    (coins::odious(k) == value).then_some(k)
}

/// The coins (1-based, increasing) a winning move turns over, the last one a head; `None` when
/// the heads' values xor to 0.
fn winning_move(row: &[bool]) -> Option<Vec<u64>> {
    let heads = heads(row);
    let total = heads.iter().fold(0, |x, &k| x ^ coins::odious(k));
    let top = 1u64 << total.checked_ilog2()?;
    let k = *heads
        .iter()
        .find(|&&k| coins::odious(k) & top != 0)
        .expect("a head holds the highest bit of the xor");
    // The coins left of k must change the xor by `rest`, less than the value of k: a value
    // below it is that of no coin, one coin or two coins to its left (its value is their mex).
    let rest = coins::odious(k) ^ total;
    if rest == 0 {
        return Some(vec![k]);
    }
    if let Some(i) = position_of(rest).filter(|&i| i < k) {
        return Some(vec![i, k]);
    }
    let (i, j) = (1..k)
        .find_map(|i| {
            position_of(coins::odious(i) ^ rest)
                .filter(|&j| i < j && j < k)
                .map(|j| (i, j))
        })
        .expect("a value below a head's is made of at most two coins to its left");
    Some(vec![i, j, k])
}

/// "heads at 1, 2, 3, worth 1 ⊕ 2 ⊕ 4 = 7", or the xor alone for many heads.
fn heads_text(row: &[bool], vi: bool) -> String {
    let heads = heads(row);
    let values: Vec<u64> = heads.iter().map(|&k| coins::odious(k)).collect();
    let total = values.iter().fold(0, |x, v| x ^ v);
    if heads.len() > 12 {
        return if vi {
            format!("{} mặt ngửa, xor các giá trị = {total}", heads.len())
        } else {
            format!("{} heads, whose values xor to {total}", heads.len())
        };
    }
    let positions: Vec<String> = heads.iter().map(u64::to_string).collect();
    let (at, worth) = if vi {
        ("mặt ngửa ở vị trí", "có giá trị")
    } else if heads.len() == 1 {
        ("a head at", "worth")
    } else {
        ("heads at", "worth")
    };
    format!(
        "{at} {}, {worth} {}",
        positions.join(", "),
        nim_sum_text(&values)
    )
}

impl Explain for Coins {
    type Game = Vec<bool>;

    fn small_games(&self) -> Vec<Vec<bool>> {
        // Every row of one to six coins.
        let mut games: Vec<Vec<bool>> = (1..=6usize)
            .flat_map(|n| {
                (0u32..1 << n).map(move |mask| (0..n).map(|i| mask >> i & 1 == 1).collect())
            })
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<bool> {
        let n = rng.random_range(1..=12);
        (0..n).map(|_| rng.random_bool(0.5)).collect()
    }

    fn games_per_input(&self) -> usize {
        MAX_T as usize
    }

    fn input_of(&self, games: &[Vec<bool>]) -> Input {
        Input {
            rows: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<bool>> {
        input.rows.clone()
    }

    fn answer(&self, row: &Vec<bool>) -> String {
        word(coins::first_wins(row)).to_owned()
    }

    fn size(&self, row: &Vec<bool>) -> u64 {
        // The length first (n < 2¹⁷), then the number of heads.
        let heads = row.iter().filter(|&&h| h).count() as u64;
        ((row.len() as u64) << 17) + heads
    }

    fn shrink(&self, row: &Vec<bool>) -> Vec<Vec<bool>> {
        let n = row.len();
        let mut smaller = Vec::new();
        if n > 1 {
            smaller.push(row[..n / 2].to_vec());
            smaller.push(row[..n - 1].to_vec());
            smaller.push(row[1..].to_vec());
        }
        for k in heads(row).into_iter().take(16) {
            let mut fewer = row.clone();
            fewer[k as usize - 1] = false;
            smaller.push(fewer);
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, row: &Vec<bool>) -> Certificate {
        let values_en = "A head at position k is worth the k-th odious number (a number with an \
                         odd count of ones in binary: 1, 2, 4, 7, 8, 11, 13, 14, …), and the row \
                         is worth the xor of its heads' values";
        let values_vi = "Mặt ngửa ở vị trí k có giá trị là số odious thứ k (số có lẻ chữ số 1 \
                         trong hệ nhị phân: 1, 2, 4, 7, 8, 11, 13, 14, …), và giá trị của hàng \
                         là xor các giá trị của các mặt ngửa";
        if !row.contains(&true) {
            return Certificate {
                en: "The second player wins: every coin shows tails, so Lan cannot move."
                    .to_owned(),
                vi: "Người đi sau thắng: mọi đồng xu đều sấp, nên Lan không thể đi.".to_owned(),
            };
        }
        let (here_en, here_vi) = (heads_text(row, false), heads_text(row, true));
        let Some(coins_turned) = winning_move(row) else {
            return Certificate {
                en: format!(
                    "The second player wins. {values_en}: here {here_en}. A move turns the \
                     head at some k to tails and up to two coins i < j to its left, so it \
                     changes the xor by g(k), by g(k) ⊕ g(i) (two different values) or by \
                     g(k) ⊕ g(i) ⊕ g(j) (an odious number, as the xor of three odious numbers \
                     is), never by 0: Lan leaves a non-zero xor, and Minh can always bring it \
                     back to 0."
                ),
                vi: format!(
                    "Người đi sau thắng. {values_vi}: ở đây {here_vi}. Một nước đi lật mặt \
                     ngửa ở vị trí k thành sấp và tối đa hai đồng i < j bên trái nó, nên xor \
                     thay đổi một lượng g(k), g(k) ⊕ g(i) (hai giá trị khác nhau) hoặc \
                     g(k) ⊕ g(i) ⊕ g(j) (là số odious, vì xor của ba số odious là số odious), \
                     không bao giờ là 0: Lan để lại xor khác 0, và Minh luôn đưa được về 0."
                ),
            };
        };
        let mut after = row.clone();
        for &k in &coins_turned {
            after[k as usize - 1] ^= true;
        }
        let turned: Vec<String> = coins_turned.iter().map(u64::to_string).collect();
        let (turn_en, turn_vi) = match turned.as_slice() {
            [k] => (format!("coin {k} alone"), format!("riêng đồng {k}")),
            [rest @ .., k] => (
                format!("coins {} and {k}", rest.join(", ")),
                format!("các đồng {} và {k}", rest.join(", ")),
            ),
            [] => unreachable!("a move turns a coin"),
        };
        let (left_en, left_vi) = if after.contains(&true) {
            (heads_text(&after, false), heads_text(&after, true))
        } else {
            (
                "only tails, and Minh cannot move".to_owned(),
                "toàn mặt sấp, và Minh không thể đi".to_owned(),
            )
        };
        Certificate {
            en: format!(
                "The first player wins. {values_en}: here {here_en} ≠ 0. Turning over \
                 {turn_en} leaves {left_en}: every move from a row worth 0 leaves a row worth \
                 more, from which Lan can always bring it back to 0."
            ),
            vi: format!(
                "Người đi trước thắng. {values_vi}: ở đây {here_vi} ≠ 0. Lật {turn_vi} để lại \
                 {left_vi}: mọi nước đi từ một hàng có giá trị 0 đều để lại một hàng có giá \
                 trị khác 0, từ đó Lan luôn đưa được về 0."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[VALUE_K]
    }

    fn misconceived(&self, id: &str, row: &Vec<bool>) -> Option<String> {
        match id {
            "coins-value-k" => {
                Some(word(heads(row).into_iter().fold(0, |x, k| x ^ k) != 0).to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// A program for the input `T`, then `n` and a row, answering each row by `first_wins` on
    /// the 1-based positions of its heads.
    fn program(first_wins: fn(&[usize]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut out = String::new();
            for row in input.lines().skip(2).step_by(2) {
                let heads: Vec<usize> = row
                    .char_indices()
                    .filter(|&(_, c)| c == 'H')
                    .map(|(i, _)| i + 1)
                    .collect();
                out.push_str(if first_wins(&heads) {
                    "First\n"
                } else {
                    "Second\n"
                });
            }
            out
        }
    }

    /// The value of a lone head at each position up to 64, from the moves: turning it alone,
    /// with one coin to its left or with two.
    fn by_mex() -> Vec<u64> {
        let mut value = vec![0u64];
        for k in 1..=64 {
            let mut options = vec![0u64];
            for i in 1..k {
                options.push(value[i]);
                for j in i + 1..k {
                    options.push(value[i] ^ value[j]);
                }
            }
            value.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        value
    }

    fn row(text: &str) -> Vec<bool> {
        text.chars().map(|c| c == 'H').collect()
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("coin-flipping").assert_sound();
    }

    #[test]
    fn values_by_the_mex_are_right() {
        Problem::new("coin-flipping").assert_right(&program(|heads| {
            let value = by_mex();
            heads.iter().fold(0, |x, &k| x ^ value[k]) != 0
        }));
    }

    #[test]
    fn value_k_is_named_with_three_heads() {
        let found = Problem::new("coin-flipping").assert_named(
            "coins-value-k",
            &program(|heads| heads.iter().fold(0, |x, &k| x ^ k) != 0),
        );
        assert_eq!(found.position, "1\n3\nHHH\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("First", "Second")
        );
    }

    #[test]
    fn certificates_give_the_values_and_a_move() {
        // The statement's examples.
        let three = Coins.certificate(&row("HHH"));
        assert!(
            three
                .en
                .contains("heads at 1, 2, 3, worth 1 ⊕ 2 ⊕ 4 = 7 ≠ 0"),
            "{}",
            three.en
        );
        assert!(
            three
                .en
                .contains("Turning over coins 1, 2 and 3 leaves only tails"),
            "{}",
            three.en
        );
        let four = Coins.certificate(&row("HHHH"));
        assert!(four.en.starts_with("The second player wins"), "{}", four.en);
        assert!(four.en.contains("1 ⊕ 2 ⊕ 4 ⊕ 7 = 0"), "{}", four.en);
        // Heads at 1, 2, 3, 5, 7: 1 ⊕ 2 ⊕ 4 ⊕ 8 ⊕ 13 = 2, the value of coin 2.
        let seven = Coins.certificate(&row("HHHTHTH"));
        assert!(seven.en.contains("= 2 ≠ 0"), "{}", seven.en);
        assert!(
            seven
                .en
                .contains("Turning over coin 2 alone leaves heads at 1, 3, 5, 7"),
            "{}",
            seven.en
        );
        assert!(seven.vi.contains("Lật riêng đồng 2"), "{}", seven.vi);
        // Heads at 3 (worth 4) and 6 (worth 11): 4 ⊕ 11 = 15. Coin 6 holds its highest bit;
        // turning it over with coin 3 changes the xor by 11 ⊕ 4 = 15.
        let two = Coins.certificate(&row("TTHTTH"));
        assert!(two.en.contains("worth 4 ⊕ 11 = 15"), "{}", two.en);
        assert!(
            two.en
                .contains("Turning over coins 3 and 6 leaves only tails"),
            "{}",
            two.en
        );
        let none = Coins.certificate(&row("TT"));
        assert!(none.en.contains("every coin shows tails"), "{}", none.en);
    }

    #[test]
    fn winning_moves_leave_a_row_worth_nothing() {
        for length in 1..=10 {
            for mask in 0u32..1 << length {
                let r: Vec<bool> = (0..length).map(|i| mask >> i & 1 == 1).collect();
                match winning_move(&r) {
                    None => assert!(!coins::first_wins(&r)),
                    Some(turned) => {
                        let top = *turned.last().unwrap() as usize;
                        assert!(r[top - 1] && turned.len() <= 3, "{r:?}");
                        let mut after = r.clone();
                        for k in turned {
                            after[k as usize - 1] ^= true;
                        }
                        assert!(!coins::first_wins(&after), "{r:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        let smaller = Coins.shrink(&row("HTH"));
        assert_eq!(
            smaller,
            vec![row("H"), row("HT"), row("TH"), row("TTH"), row("HTT")]
        );
        assert!(Coins.shrink(&row("T")).is_empty());
        assert_eq!(Coins.shrink(&row("H")), vec![row("T")]);
    }

    #[test]
    fn validator_rules() {
        assert!(Coins.parse("1\n3\nHTH\n").is_ok());
        let rule = |t: &str| Coins.parse(t).unwrap_err().to_string();
        assert_eq!(rule("1\n3\nHT\n"), "line 3: the row has 2 coins, not n = 3");
        assert_eq!(
            rule("1\n3\nHxH\n"),
            "line 3: 'x' is not a coin face (H or T)"
        );
        assert_eq!(
            rule("1\n3\nH T H\n"),
            "line 3: expected 1 token (a string of H and T), found 3"
        );
        assert_eq!(rule("11\n"), "line 1: T = 11 is outside 1..=10");
    }
}
