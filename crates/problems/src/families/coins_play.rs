//! Mock Turtles, position by position, for a person at the play page or a terminal.
//!
//! A position is the row of coins as the problem writes it, `H` for heads and `T` for tails,
//! coin 1 on the left. A move turns over one, two or three different coins, written by their
//! numbers in any order; the rightmost of them (the largest number) must go from heads to tails.
//! The row is worth the xor of its heads' values, the head at k worth the k-th odious number.

use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::coins;
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};

/// The longest row on a page: finding every winning move tries each head with each coin to its
/// left, about a million steps at this length.
const MAX_COINS: usize = 1000;
/// The most winning moves a hint lists: a long row may have dozens.
const MAX_LISTED: usize = 12;
/// The most heads a position's words list one by one.
const MAX_NAMED_HEADS: usize = 12;

#[derive(Debug, Clone, Copy)]
pub struct CoinsPlay;

/// The value of the head at `k` (1-based).
fn g(k: usize) -> u64 {
    coins::odious(k as u64)
}

/// The position of the odious number `value`, if it is one.
fn position_of(value: u64) -> Option<usize> {
    let k = value / 2 + 1;
    (coins::odious(k) == value).then_some(k as usize)
}

/// The 1-based positions of the heads.
fn heads(row: &[bool]) -> impl Iterator<Item = usize> + '_ {
    (1..=row.len()).filter(|&k| row[k - 1])
}

fn total(row: &[bool]) -> u64 {
    heads(row).fold(0, |x, k| x ^ g(k))
}

/// `coins 2, 3 and 5`, or `coin 5`.
fn coins_text(turned: &[usize]) -> String {
    match turned {
        [k] => format!("coin {k}"),
        [rest @ .., k] => {
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("coins {} and {k}", rest.join(", "))
        }
        [] => unreachable!("a move turns a coin"),
    }
}

impl Rules for CoinsPlay {
    type Position = Vec<bool>;
    /// The coins turned, 1-based and increasing: the last one goes from heads to tails.
    type Move = Vec<usize>;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<bool>, ValidationError> {
        let line = reader.line("the row of coins")?;
        line.expect_len(1, "a string of H and T")?;
        let row = line.token(0);
        if let Some(bad) = row.chars().find(|c| !matches!(c, 'H' | 'T')) {
            return Err(line.error(format!("'{bad}' is not a coin face (H or T)")));
        }
        if row.len() > MAX_COINS {
            return Err(line.error(format!(
                "the row has {} coins; a page holds at most {MAX_COINS}",
                row.len()
            )));
        }
        Ok(row.chars().map(|c| c == 'H').collect())
    }

    fn write_position(&self, row: &Vec<bool>, out: &mut String) {
        out.extend(row.iter().map(|&h| if h { 'H' } else { 'T' }));
        out.push('\n');
    }

    fn start_rule(&self, row: &Vec<bool>) -> Result<(), String> {
        if row.contains(&true) {
            Ok(())
        } else {
            Err("every coin shows tails; a game starts with a head to turn".into())
        }
    }

    fn words(&self, row: &Vec<bool>) -> String {
        let mut text: String = row.iter().map(|&h| if h { 'H' } else { 'T' }).collect();
        let heads: Vec<String> = heads(row).map(|k| k.to_string()).collect();
        match heads.len() {
            0 => text.push_str(" (all tails)"),
            1 => text.push_str(&format!(" (a head at {})", heads[0])),
            count if count <= MAX_NAMED_HEADS => {
                text.push_str(&format!(" (heads at {})", heads.join(", ")));
            }
            count => text.push_str(&format!(" ({count} heads)")),
        }
        text
    }

    fn is_over(&self, row: &Vec<bool>) -> bool {
        !row.contains(&true)
    }

    fn value(&self, row: &Vec<bool>) -> Value {
        let total = total(row);
        Value {
            win: total != 0,
            grundy: Some(total),
        }
    }

    fn read_move(&self, row: &Vec<bool>, text: &str) -> Result<Vec<usize>, String> {
        let syntax = "a move is one to three different coin numbers: `5`, `2 5` or `1 2 5`";
        let numbers: Vec<i128> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().map_err(|_| syntax.to_owned()))
            .collect::<Result<_, _>>()?;
        if !(1..=3).contains(&numbers.len()) {
            return Err(syntax.into());
        }
        let n = row.len() as i128;
        if let Some(&bad) = numbers.iter().find(|&&k| !(1..=n).contains(&k)) {
            return Err(format!("there is no coin {bad} (the coins are 1 to {n})"));
        }
        let mut turned: Vec<usize> = numbers.iter().map(|&k| k as usize).collect();
        turned.sort_unstable();
        if let Some(twice) = super::first_duplicate(&turned) {
            return Err(format!(
                "coin {twice} is named twice; the coins turned differ"
            ));
        }
        let top = turned[turned.len() - 1];
        if !row[top - 1] {
            return Err(format!(
                "coin {top}, the rightmost turned, shows tails; the rightmost coin a move turns \
                 must go from heads to tails"
            ));
        }
        Ok(turned)
    }

    fn write_move(&self, turned: &Vec<usize>) -> String {
        let numbers: Vec<String> = turned.iter().map(usize::to_string).collect();
        numbers.join(" ")
    }

    fn move_words(&self, _: &Vec<bool>, turned: &Vec<usize>) -> String {
        format!("to turn over {}", coins_text(turned))
    }

    fn move_done(&self, _: &Vec<bool>, turned: &Vec<usize>) -> String {
        format!("turned over {}", coins_text(turned))
    }

    fn apply(&self, row: &Vec<bool>, turned: &Vec<usize>) -> Vec<bool> {
        let mut after = row.clone();
        for &k in turned {
            after[k - 1] ^= true;
        }
        after
    }

    /// A winning move turns a head `k` and changes the xor by the row's value: by the value of
    /// `k` alone, or with that of one coin or of two coins to its left.
    fn winning_moves(&self, row: &Vec<bool>) -> Vec<Vec<usize>> {
        let total = total(row);
        if total == 0 {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for k in heads(row) {
            let rest = total ^ g(k);
            if rest == 0 {
                moves.push(vec![k]);
            }
            if let Some(i) = position_of(rest).filter(|&i| i < k) {
                moves.push(vec![i, k]);
            }
            for i in 1..k {
                if let Some(j) = position_of(g(i) ^ rest).filter(|&j| i < j && j < k) {
                    moves.push(vec![i, j, k]);
                }
            }
            if moves.len() >= MAX_LISTED {
                break;
            }
        }
        moves.truncate(MAX_LISTED);
        moves
    }

    fn referee_move(&self, row: &Vec<bool>, _played: usize, rng: &mut TestRng) -> Vec<usize> {
        if let Some(mv) = self.winning_moves(row).choose(rng) {
            return mv.clone();
        }
        // Lost: turning a head and up to two more heads to its left to tails takes the most
        // heads off the row; which heads is drawn, so that no line of play repeats.
        let heads: Vec<usize> = heads(row).collect();
        let at = rng.random_range(0..heads.len());
        let mut left = heads[..at].to_vec();
        left.shuffle(rng);
        let mut turned: Vec<usize> = left.into_iter().take(2).collect();
        turned.push(heads[at]);
        turned.sort_unstable();
        turned
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<bool> {
        loop {
            let n = rng.random_range(4..=12);
            let density = rng.random_range(0.3..=0.7);
            let mut row: Vec<bool> = (0..n).map(|_| rng.random_bool(density)).collect();
            // Half the starts lost for the first player: the row a winning move leaves.
            if rng.random_bool(0.5)
                && let Some(mv) = self.winning_moves(&row).choose(rng)
            {
                row = self.apply(&row, mv);
            }
            if !self.is_over(&row) {
                return row;
            }
        }
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The row of coins, `H` for heads and `T` for tails, coin 1 on the left: `HTTHTH`. Rows of up to 1000 coins.",
                vi: "Hàng đồng xu, `H` là mặt ngửa, `T` là mặt sấp, đồng 1 ở bên trái: `HTTHTH`. Hàng có tối đa 1000 đồng xu.",
            },
            moves: Words {
                en: "One to three different coin numbers, in any order: `2 6` turns over coins 2 and 6. The rightmost coin turned (the largest number) must show heads; the others may show either side.",
                vi: "Một đến ba số thứ tự của các đồng xu khác nhau, theo thứ tự bất kỳ: `2 6` lật đồng 2 và đồng 6. Đồng bên phải nhất được lật (số lớn nhất) phải đang ngửa; các đồng còn lại ngửa hay sấp đều được.",
            },
        }
    }
}
