//! The games of the piles family, position by position, for a person at the play page or a
//! terminal: misère Nim, Lasker's Nim, Moore's Nim, subtract-a-square Nim and staircase Nim.
//!
//! A position is one game as the problems' tests write it: `N` on a line (Moore's Nim: `n k`),
//! then the piles (staircase Nim: the chessmen's cells) on the next. An emptied pile stays in its
//! place as 0, so a pile keeps its number for the whole game; only a split of Lasker's Nim puts
//! two piles in the place of one, and the piles after it move one place on. The page keeps games
//! small (at most 8 piles of at most 100, or 8 chessmen on cells 1 to 100), so that every move
//! of a position can be tried for the hints.

use super::piles::{Game, gaps};
use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::nim;
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use std::sync::Arc;

/// The most piles (chessmen) a game starts with.
const MAX_PILES: u32 = 8;
/// The largest pile, and the last cell of staircase Nim's row.
const MAX_PILE: u64 = 100;
/// The most piles in the middle of a game of Lasker's Nim: a split adds a pile, and splits
/// number fewer than the stones.
const MAX_SPLIT_PILES: u32 = MAX_PILES * MAX_PILE as u32;
/// The most winning moves a hint lists.
const MAX_LISTED: usize = 12;

/// What a problem calls its piles and what they hold.
struct Story {
    pile: &'static str,
    piles: &'static str,
    counter: &'static str,
    counters: &'static str,
    took: &'static str,
}

/// Misère Nim's problem: John and his brother eat candies from boxes.
const BOXES: Story = Story {
    pile: "box",
    piles: "boxes",
    counter: "candy",
    counters: "candies",
    took: "ate",
};

const PILES: Story = Story {
    pile: "pile",
    piles: "piles",
    counter: "stone",
    counters: "stones",
    took: "took",
};

impl Story {
    fn count(&self, n: u64) -> String {
        if n == 1 {
            format!("1 {}", self.counter)
        } else {
            format!("{n} {}", self.counters)
        }
    }
}

/// Taking `count` from `pile` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    pile: usize,
    count: u64,
}

impl Take {
    fn text(&self) -> String {
        format!("{} {}", self.pile + 1, self.count)
    }

    fn words(&self, story: &Story) -> String {
        format!(
            "{} from {} {}",
            story.count(self.count),
            story.pile,
            self.pile + 1
        )
    }
}

/// `N` and the line of the N piles, from 0 to [`MAX_PILE`] each.
fn read_piles(reader: &mut StrictReader<'_>, max_n: u32) -> Result<Vec<u64>, ValidationError> {
    let n: u32 = reader.single("N", 1..=max_n)?;
    reader.values("a", n as usize, 0..=MAX_PILE)
}

fn write_piles(piles: &[u64], out: &mut String) {
    super::push_line(out, [piles.len()]);
    super::push_line(out, piles);
}

/// A start's piles hold something each.
fn none_empty(story: &Story, piles: &[u64]) -> Result<(), String> {
    match piles.iter().position(|&p| p == 0) {
        Some(i) => Err(format!(
            "{} {} is empty; a game starts with every {} holding at least 1",
            story.pile,
            i + 1,
            story.pile
        )),
        None => Ok(()),
    }
}

fn list(values: &[u64]) -> String {
    let values: Vec<String> = values.iter().map(u64::to_string).collect();
    values.join(", ")
}

/// `with value 1 ⊕ 4 = 5 ≠ 0`, from the values of the non-empty piles.
fn xor_words(terms: &[u64], sum: u64) -> String {
    let terms: Vec<String> = terms.iter().map(u64::to_string).collect();
    match terms.len() {
        0 => "with value 0 (no stones)".to_owned(),
        1 if sum == 0 => "with value 0".to_owned(),
        1 => format!("with value {sum} ≠ 0"),
        _ if sum == 0 => format!("with value {} = 0", terms.join(" ⊕ ")),
        _ => format!("with value {} = {sum} ≠ 0", terms.join(" ⊕ ")),
    }
}

/// The integers of a move, or `None` when a token is not one.
fn numbers(text: &str) -> Option<Vec<i128>> {
    text.split_ascii_whitespace()
        .map(|t| t.parse().ok())
        .collect()
}

/// Taking `t` from pile `i` (1-based, as typed), checked against the piles.
fn check_take(story: &Story, piles: &[u64], i: i128, t: i128) -> Result<Take, String> {
    let pile = check_pile(story, piles, i)?;
    let size = piles[pile];
    if t < 1 {
        return Err(format!(
            "a move takes at least 1 {}, not {t}",
            story.counter
        ));
    }
    if t > i128::from(size) {
        return Err(format!(
            "{} {i} has only {}, not {t}",
            story.pile,
            story.count(size)
        ));
    }
    Ok(Take {
        pile,
        count: t as u64,
    })
}

/// Pile `i` (1-based, as typed) as an index, when it exists and holds something.
fn check_pile(story: &Story, piles: &[u64], i: i128) -> Result<usize, String> {
    let n = piles.len() as i128;
    if !(1..=n).contains(&i) {
        return Err(format!(
            "there is no {} {i} (the {} are 1 to {n})",
            story.pile, story.piles
        ));
    }
    let pile = (i - 1) as usize;
    if piles[pile] == 0 {
        return Err(format!("{} {i} is empty", story.pile));
    }
    Ok(pile)
}

/// Piles that are not empty, by index.
fn nonempty(piles: &[u64]) -> Vec<usize> {
    (0..piles.len()).filter(|&i| piles[i] > 0).collect()
}

/// How much a losing referee takes from a pile of `size`: all of it, so that the game ends soon,
/// but a random part now and then early on, so that no line of play repeats.
fn lost_take(size: u64, played: usize, rng: &mut TestRng) -> u64 {
    if played < 4 && size > 1 && rng.random_bool(0.4) {
        rng.random_range(1..size)
    } else {
        size
    }
}

/// A start drawn by `draw`, lost or won as a coin decides when one of a few hundred draws is
/// (random positions of these games are mostly won).
fn aimed<P>(
    rng: &mut TestRng,
    lost: impl Fn(&P) -> bool,
    mut draw: impl FnMut(&mut TestRng) -> P,
) -> P {
    let want_lost = rng.random_bool(0.5);
    let mut position = draw(rng);
    for _ in 0..200 {
        if lost(&position) == want_lost {
            break;
        }
        position = draw(rng);
    }
    position
}

/// `count` piles from `1..=high`.
fn random_piles(rng: &mut TestRng, count: usize, high: u64) -> Vec<u64> {
    (0..count).map(|_| rng.random_range(1..=high)).collect()
}

/// Misère Nim: take any number from one box; whoever eats the last candy loses.
///
/// A person expects the game to end when the loser is stuck, and that is the player facing a
/// single candy: so the game ends there, and a move may not eat every candy left (it would lose
/// on the spot, and never wins). The values are those of the literal game.
#[derive(Debug, Clone, Copy)]
pub struct MisereNim;

impl Rules for MisereNim {
    type Position = Vec<u64>;
    type Move = Take;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        let piles = read_piles(reader, MAX_PILES)?;
        if piles.iter().all(|&p| p == 0) {
            return Err(ValidationError::new(
                reader.line_number(),
                "every box is empty, but the game ends before: when a single candy is left, \
                 whoever would have to eat it has lost",
            ));
        }
        Ok(piles)
    }

    fn write_position(&self, piles: &Vec<u64>, out: &mut String) {
        write_piles(piles, out);
    }

    fn start_rule(&self, piles: &Vec<u64>) -> Result<(), String> {
        none_empty(&BOXES, piles)?;
        if self.is_over(piles) {
            return Err(
                "a single candy: the first player would have to eat it, so the game is over \
                 before it starts"
                    .into(),
            );
        }
        Ok(())
    }

    fn words(&self, piles: &Vec<u64>) -> String {
        format!("({})", list(piles))
    }

    fn is_over(&self, piles: &Vec<u64>) -> bool {
        piles.iter().sum::<u64>() == 1
    }

    fn value(&self, piles: &Vec<u64>) -> Value {
        Value {
            win: nim::misere_first_wins(piles),
            grundy: None,
        }
    }

    fn read_move(&self, piles: &Vec<u64>, text: &str) -> Result<Take, String> {
        let Some(&[i, t]) = numbers(text).as_deref() else {
            return Err("a move is two integers `i t` (eat t candies from box i)".into());
        };
        let take = check_take(&BOXES, piles, i, t)?;
        let left: u64 = piles.iter().sum();
        if take.count == left {
            return Err(format!(
                "eating all {left} candies left would eat the last one, which loses: a move \
                 leaves at least one candy (the game ends when one is left)"
            ));
        }
        Ok(take)
    }

    fn write_move(&self, mv: &Take) -> String {
        mv.text()
    }

    fn move_words(&self, _: &Vec<u64>, mv: &Take) -> String {
        mv.words(&BOXES)
    }

    fn move_done(&self, _: &Vec<u64>, mv: &Take) -> String {
        format!("{} {}", BOXES.took, mv.words(&BOXES))
    }

    fn apply(&self, piles: &Vec<u64>, mv: &Take) -> Vec<u64> {
        let mut after = piles.clone();
        after[mv.pile] -= mv.count;
        after
    }

    fn winning_moves(&self, piles: &Vec<u64>) -> Vec<Take> {
        if !self.value(piles).win {
            return Vec::new();
        }
        let left: u64 = piles.iter().sum();
        nonempty(piles)
            .into_iter()
            .flat_map(|pile| (1..=piles[pile]).map(move |count| Take { pile, count }))
            .filter(|mv| mv.count < left && !self.value(&self.apply(piles, mv)).win)
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, piles: &Vec<u64>, played: usize, rng: &mut TestRng) -> Take {
        if let Some(&mv) = self.winning_moves(piles).choose(rng) {
            return mv;
        }
        let pile = *nonempty(piles).choose(rng).expect("the game is not over");
        let left: u64 = piles.iter().sum();
        let count = lost_take(piles[pile], played, rng).min(left - 1);
        Take { pile, count }
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        aimed(
            rng,
            |piles| !self.value(piles).win,
            |rng| {
                // Now and then only boxes of one candy, where the misère rule differs from Nim's.
                if rng.random_bool(0.2) {
                    vec![1; rng.random_range(2..=5)]
                } else {
                    let count = rng.random_range(2..=4);
                    random_piles(rng, count, 7)
                }
            },
        )
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of boxes, then on the next line the candies in each box: `3` and \
                     `3 5 1` are boxes of 3, 5 and 1 candies. At most 8 boxes of at most 100 \
                     candies; an emptied box stays, as 0.",
                vi: "Số hộp, rồi ở dòng sau là số kẹo trong từng hộp: `3` và `3 5 1` là ba hộp \
                     3, 5 và 1 viên kẹo. Tối đa 8 hộp, mỗi hộp tối đa 100 viên; hộp đã hết kẹo \
                     vẫn giữ chỗ, ghi là 0.",
            },
            moves: Words {
                en: "`i t` eats t candies from box i (boxes are numbered from 1): `2 3` eats 3 \
                     from the second box. Whoever eats the last candy loses, so the game ends \
                     when a single candy is left, lost for the player who would have to eat it; \
                     a move never eats every candy left.",
                vi: "`i t` ăn t viên kẹo ở hộp thứ i (đánh số từ 1): `2 3` ăn 3 viên ở hộp thứ \
                     hai. Ai ăn viên kẹo cuối cùng thì thua, nên ván kết thúc khi chỉ còn một \
                     viên: người đến lượt buộc phải ăn nó và thua; không nước nào được ăn hết \
                     mọi viên kẹo còn lại.",
            },
        }
    }
}

/// Lasker's Nim: take any number from one pile, or split a pile into two non-empty piles.
#[derive(Debug, Clone, Copy)]
pub struct LaskerNim;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaskerMove {
    Take(Take),
    /// Pile `pile` (0-based) becomes piles of `a` and `b`, in this order.
    Split {
        pile: usize,
        a: u64,
        b: u64,
    },
}

impl LaskerNim {
    fn grundy(piles: &[u64]) -> u64 {
        nim::nim_sum(piles.iter().map(|&p| nim::lasker_grundy(p)))
    }

    /// Every move from pile `pile`, takes first.
    fn moves_of(piles: &[u64], pile: usize) -> impl Iterator<Item = LaskerMove> {
        let size = piles[pile];
        let takes = (1..=size).map(move |count| LaskerMove::Take(Take { pile, count }));
        let splits = (1..=size / 2).map(move |a| LaskerMove::Split {
            pile,
            a,
            b: size - a,
        });
        takes.chain(splits)
    }
}

impl Rules for LaskerNim {
    type Position = Vec<u64>;
    type Move = LaskerMove;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        read_piles(reader, MAX_SPLIT_PILES)
    }

    fn write_position(&self, piles: &Vec<u64>, out: &mut String) {
        write_piles(piles, out);
    }

    fn start_rule(&self, piles: &Vec<u64>) -> Result<(), String> {
        if piles.len() > MAX_PILES as usize {
            return Err(format!(
                "{} piles; a game starts with at most {MAX_PILES}",
                piles.len()
            ));
        }
        none_empty(&PILES, piles)
    }

    fn words(&self, piles: &Vec<u64>) -> String {
        format!("({})", list(piles))
    }

    fn is_over(&self, piles: &Vec<u64>) -> bool {
        piles.iter().all(|&p| p == 0)
    }

    fn value(&self, piles: &Vec<u64>) -> Value {
        let sum = Self::grundy(piles);
        Value {
            win: sum != 0,
            grundy: Some(sum),
        }
    }

    fn value_words(&self, piles: &Vec<u64>, value: &Value) -> String {
        let terms: Vec<u64> = piles
            .iter()
            .filter(|&&p| p > 0)
            .map(|&p| nim::lasker_grundy(p))
            .collect();
        xor_words(&terms, value.grundy.unwrap_or(0))
    }

    fn read_move(&self, piles: &Vec<u64>, text: &str) -> Result<LaskerMove, String> {
        match numbers(text).as_deref() {
            Some(&[i, t]) => Ok(LaskerMove::Take(check_take(&PILES, piles, i, t)?)),
            Some(&[i, a, b]) => {
                let pile = check_pile(&PILES, piles, i)?;
                let size = piles[pile];
                if a < 1 || b < 1 {
                    return Err(format!(
                        "a split leaves two non-empty piles, not {a} and {b}"
                    ));
                }
                if a.checked_add(b) != Some(i128::from(size)) {
                    return Err(format!(
                        "pile {i} has {}: its two parts add up to {size}, not {a} + {b}",
                        PILES.count(size)
                    ));
                }
                Ok(LaskerMove::Split {
                    pile,
                    a: a as u64,
                    b: b as u64,
                })
            }
            _ => Err(
                "a move is `i t` (take t stones from pile i) or `i a b` (split pile i \
                      into piles of a and b)"
                    .into(),
            ),
        }
    }

    fn write_move(&self, mv: &LaskerMove) -> String {
        match mv {
            LaskerMove::Take(take) => take.text(),
            LaskerMove::Split { pile, a, b } => format!("{} {a} {b}", pile + 1),
        }
    }

    fn move_words(&self, _: &Vec<u64>, mv: &LaskerMove) -> String {
        match mv {
            LaskerMove::Take(take) => take.words(&PILES),
            LaskerMove::Split { pile, a, b } => {
                format!("a split of pile {} into {a} and {b}", pile + 1)
            }
        }
    }

    fn move_done(&self, _: &Vec<u64>, mv: &LaskerMove) -> String {
        match mv {
            LaskerMove::Take(take) => format!("{} {}", PILES.took, take.words(&PILES)),
            LaskerMove::Split { pile, a, b } => format!("split pile {} into {a} and {b}", pile + 1),
        }
    }

    fn apply(&self, piles: &Vec<u64>, mv: &LaskerMove) -> Vec<u64> {
        let mut after = piles.clone();
        match *mv {
            LaskerMove::Take(Take { pile, count }) => after[pile] -= count,
            LaskerMove::Split { pile, a, b } => {
                after[pile] = a;
                after.insert(pile + 1, b);
            }
        }
        after
    }

    fn winning_moves(&self, piles: &Vec<u64>) -> Vec<LaskerMove> {
        let sum = Self::grundy(piles);
        if sum == 0 {
            return Vec::new();
        }
        // A move changes one pile's value: it wins when the new value is the old one ⊕ sum.
        nonempty(piles)
            .into_iter()
            .flat_map(|pile| {
                let target = nim::lasker_grundy(piles[pile]) ^ sum;
                Self::moves_of(piles, pile).filter(move |mv| {
                    let value = match *mv {
                        LaskerMove::Take(take) => nim::lasker_grundy(piles[pile] - take.count),
                        LaskerMove::Split { a, b, .. } => {
                            nim::lasker_grundy(a) ^ nim::lasker_grundy(b)
                        }
                    };
                    value == target
                })
            })
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, piles: &Vec<u64>, played: usize, rng: &mut TestRng) -> LaskerMove {
        if let Some(&mv) = self.winning_moves(piles).choose(rng) {
            return mv;
        }
        // A split only makes the game longer.
        let pile = *nonempty(piles).choose(rng).expect("the game is not over");
        LaskerMove::Take(Take {
            pile,
            count: lost_take(piles[pile], played, rng),
        })
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        aimed(
            rng,
            |piles| !self.value(piles).win,
            |rng| {
                let count = rng.random_range(2..=4);
                random_piles(rng, count, 8)
            },
        )
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of piles, then on the next line each pile: `3` and `2 2 3` are \
                     piles of 2, 2 and 3 stones. A game starts with at most 8 piles of at most \
                     100; an emptied pile stays, as 0.",
                vi: "Số đống, rồi ở dòng sau là số viên của từng đống: `3` và `2 2 3` là ba đống \
                     2, 2 và 3 viên. Ván bắt đầu với tối đa 8 đống, mỗi đống tối đa 100 viên; \
                     đống đã hết vẫn giữ chỗ, ghi là 0.",
            },
            moves: Words {
                en: "`i t` takes t stones from pile i (piles are numbered from 1): `3 1` takes 1 \
                     from the third pile. `i a b` splits pile i into piles of a and b, which \
                     take its place (a + b is the pile; the piles after it move one place on): \
                     `3 1 2` splits a third pile of 3 into 1 and 2.",
                vi: "`i t` bốc t viên ở đống thứ i (đánh số từ 1): `3 1` bốc 1 viên ở đống thứ \
                     ba. `i a b` tách đống thứ i thành hai đống a viên và b viên, đặt vào chỗ \
                     của nó (a + b bằng số viên của đống; các đống sau nó lùi thêm một chỗ): \
                     `3 1 2` tách đống thứ ba, có 3 viên, thành hai đống 1 và 2 viên.",
            },
        }
    }
}

/// Moore's Nim: take from one to k piles at once, any positive number from each.
#[derive(Debug, Clone, Copy)]
pub struct MooreNim;

impl MooreNim {
    /// Winning moves, at most [`MAX_LISTED`] (there may be thousands), from a won position.
    ///
    /// The new piles are chosen bit by bit from the highest. A pile already lowered may take
    /// any bits below; one not yet lowered copies its bits, or is lowered where it has a 1. At
    /// each bit the piles having it must number a multiple of k + 1, and some choice always
    /// makes it so (the lowered piles and up to k − lowered more span every count from 0 up, or
    /// k + 1 counts in a row): every choice so far ends in a winning move, and a search that
    /// stops after a few stays quick.
    fn winning(game: &Game) -> Vec<Vec<Take>> {
        struct Search<'a> {
            piles: &'a [u64],
            k: usize,
            new: Vec<u64>,
            /// The piles lowered so far, as a bit mask.
            lowered: u32,
            found: Vec<Vec<Take>>,
        }
        impl Search<'_> {
            fn descend(&mut self, bits: u32) {
                if bits == 0 {
                    if self.lowered != 0 {
                        let takes = (0..self.piles.len())
                            .filter(|&i| self.lowered >> i & 1 == 1)
                            .map(|pile| Take {
                                pile,
                                count: self.piles[pile] - self.new[pile],
                            })
                            .collect();
                        self.found.push(takes);
                    }
                    return;
                }
                let bit = bits - 1;
                let n = self.piles.len();
                let (lowered, copying): (Vec<usize>, Vec<usize>) =
                    (0..n).partition(|&i| self.lowered >> i & 1 == 1);
                let ones: Vec<usize> = copying
                    .into_iter()
                    .filter(|&i| self.piles[i] >> bit & 1 == 1)
                    .collect();
                for lower in 0u32..1 << ones.len() {
                    let newly = lower.count_ones() as usize;
                    if lowered.len() + newly > self.k {
                        continue;
                    }
                    for set in 0u32..1 << lowered.len() {
                        let count = ones.len() - newly + set.count_ones() as usize;
                        if !count.is_multiple_of(self.k + 1) {
                            continue;
                        }
                        let (new, mask) = (self.new.clone(), self.lowered);
                        for (j, &i) in ones.iter().enumerate() {
                            if lower >> j & 1 == 1 {
                                self.lowered |= 1 << i;
                            } else {
                                self.new[i] |= 1 << bit;
                            }
                        }
                        for (j, &i) in lowered.iter().enumerate() {
                            if set >> j & 1 == 1 {
                                self.new[i] |= 1 << bit;
                            }
                        }
                        self.descend(bit);
                        (self.new, self.lowered) = (new, mask);
                        if self.found.len() == MAX_LISTED {
                            return;
                        }
                    }
                }
            }
        }
        if !nim::moore_first_wins(&game.piles, game.k as usize) {
            return Vec::new();
        }
        let top = game
            .piles
            .iter()
            .max()
            .map_or(0, |&p| 64 - p.leading_zeros());
        let mut search = Search {
            piles: &game.piles,
            k: game.k as usize,
            new: vec![0; game.piles.len()],
            lowered: 0,
            found: Vec::new(),
        };
        search.descend(top);
        search.found
    }

    fn words_of(takes: &[Take]) -> String {
        let parts: Vec<String> = takes.iter().map(|t| t.words(&PILES)).collect();
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => parts.concat(),
        }
    }

    /// A lost position: every bit in a multiple of k + 1 of the piles.
    fn lost_piles(rng: &mut TestRng, n: usize, k: usize) -> Option<Vec<u64>> {
        let mut piles = vec![0u64; n];
        for bit in 0..3 {
            let count = (k + 1) * rng.random_range(0..=n / (k + 1));
            let mut order: Vec<usize> = (0..n).collect();
            order.shuffle(rng);
            for &i in &order[..count] {
                piles[i] |= 1 << bit;
            }
        }
        piles.iter().all(|&p| p > 0).then_some(piles)
    }
}

impl Rules for MooreNim {
    type Position = Game;
    type Move = Vec<Take>;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Game, ValidationError> {
        let line = reader.line("the line \"n k\"")?;
        line.expect_len(2, "n k")?;
        let n: u32 = line.int(0, "n", 1..=MAX_PILES)?;
        let k: u32 = line.int(1, "k", 1..=n)?;
        let piles = reader.values("a", n as usize, 0..=MAX_PILE)?;
        Ok(Game { k, piles })
    }

    fn write_position(&self, game: &Game, out: &mut String) {
        super::push_line(out, [game.piles.len() as u64, game.k.into()]);
        super::push_line(out, &game.piles);
    }

    fn start_rule(&self, game: &Game) -> Result<(), String> {
        none_empty(&PILES, &game.piles)
    }

    fn words(&self, game: &Game) -> String {
        format!("({}; k = {})", list(&game.piles), game.k)
    }

    fn is_over(&self, game: &Game) -> bool {
        game.piles.iter().all(|&p| p == 0)
    }

    fn value(&self, game: &Game) -> Value {
        Value {
            win: nim::moore_first_wins(&game.piles, game.k as usize),
            grundy: None,
        }
    }

    fn read_move(&self, game: &Game, text: &str) -> Result<Vec<Take>, String> {
        let k = game.k;
        let numbers = numbers(text).filter(|n| !n.is_empty() && n.len() % 2 == 0);
        let Some(numbers) = numbers else {
            return Err(format!(
                "a move is pairs `i t`, one for each pile it takes from (at most k = {k}): \
                 take t stones from pile i"
            ));
        };
        if numbers.len() / 2 > k as usize {
            return Err(format!(
                "with k = {k} a move takes from at most {k} {}, not {}",
                if k == 1 { "pile" } else { "piles" },
                numbers.len() / 2
            ));
        }
        let mut takes = Vec::new();
        for pair in numbers.chunks(2) {
            let take = check_take(&PILES, &game.piles, pair[0], pair[1])?;
            if takes.iter().any(|t: &Take| t.pile == take.pile) {
                return Err(format!("pile {} is named twice", pair[0]));
            }
            takes.push(take);
        }
        takes.sort_by_key(|t| t.pile);
        Ok(takes)
    }

    fn write_move(&self, takes: &Vec<Take>) -> String {
        let pairs: Vec<String> = takes.iter().map(Take::text).collect();
        pairs.join(" ")
    }

    fn move_words(&self, _: &Game, takes: &Vec<Take>) -> String {
        Self::words_of(takes)
    }

    fn move_done(&self, _: &Game, takes: &Vec<Take>) -> String {
        format!("took {}", Self::words_of(takes))
    }

    fn apply(&self, game: &Game, takes: &Vec<Take>) -> Game {
        let mut after = game.clone();
        for take in takes {
            after.piles[take.pile] -= take.count;
        }
        after
    }

    fn winning_moves(&self, game: &Game) -> Vec<Vec<Take>> {
        Self::winning(game)
    }

    fn referee_move(&self, game: &Game, played: usize, rng: &mut TestRng) -> Vec<Take> {
        if let Some(mv) = self.winning_moves(game).choose(rng) {
            return mv.clone();
        }
        let mut left = nonempty(&game.piles);
        left.shuffle(rng);
        let count = rng.random_range(1..=left.len().min(game.k as usize));
        let mut takes: Vec<Take> = left[..count]
            .iter()
            .map(|&pile| Take {
                pile,
                count: lost_take(game.piles[pile], played, rng),
            })
            .collect();
        takes.sort_by_key(|t| t.pile);
        takes
    }

    fn random_start(&self, rng: &mut TestRng) -> Game {
        // k < n: with k = n the first player takes everything at once.
        let n = rng.random_range(2..=5);
        let k = rng.random_range(1..=(n - 1).min(3));
        if rng.random_bool(0.5) {
            let lost = (0..100).find_map(|_| Self::lost_piles(rng, n, k));
            let piles = lost.unwrap_or_else(|| vec![rng.random_range(1..=7); k + 1]);
            return Game { k: k as u32, piles };
        }
        let piles = random_piles(rng, n, 7);
        Game { k: k as u32, piles }
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`n k` (the number of piles, and how many piles a move may take from), then \
                     the piles on the next line: `3 2` and `1 2 3` are piles of 1, 2 and 3 \
                     stones, a move taking from at most 2 of them. At most 8 piles of at most \
                     100; an emptied pile stays, as 0.",
                vi: "`n k` (số đống, và một nước được bốc ở nhiều nhất bao nhiêu đống), rồi ở \
                     dòng sau là số viên của từng đống: `3 2` và `1 2 3` là ba đống 1, 2 và 3 \
                     viên, mỗi nước bốc ở nhiều nhất 2 đống. Tối đa 8 đống, mỗi đống tối đa \
                     100 viên; đống đã hết vẫn giữ chỗ, ghi là 0.",
            },
            moves: Words {
                en: "One pair `i t` for each pile the move takes from, t stones from pile i \
                     (piles are numbered from 1), at most k pairs: `1 1 3 2` takes 1 from pile \
                     1 and 2 from pile 3.",
                vi: "Mỗi đống được bốc ghi một cặp `i t`: bốc t viên ở đống thứ i (đánh số từ \
                     1), nhiều nhất k cặp: `1 1 3 2` bốc 1 viên ở đống 1 và 2 viên ở đống 3.",
            },
        }
    }
}

/// Subtract-a-square Nim: take a positive square from one pile.
#[derive(Clone)]
pub struct SquareNim {
    /// The family's Grundy values of piles `0..=MAX_PILE`.
    values: Arc<[u32]>,
}

impl std::fmt::Debug for SquareNim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SquareNim")
    }
}

impl SquareNim {
    /// The game with the values `values` (from G(0)) of the piles up to [`MAX_PILE`].
    pub fn new(values: &[u32]) -> SquareNim {
        SquareNim {
            values: values[..=MAX_PILE as usize].into(),
        }
    }

    fn g(&self, pile: u64) -> u64 {
        self.values[pile as usize].into()
    }

    fn grundy(&self, piles: &[u64]) -> u64 {
        nim::nim_sum(piles.iter().map(|&p| self.g(p)))
    }

    fn squares(size: u64) -> impl Iterator<Item = u64> {
        (1..).map(|j| j * j).take_while(move |&s| s <= size)
    }
}

impl Rules for SquareNim {
    type Position = Vec<u64>;
    type Move = Take;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        read_piles(reader, MAX_PILES)
    }

    fn write_position(&self, piles: &Vec<u64>, out: &mut String) {
        write_piles(piles, out);
    }

    fn start_rule(&self, piles: &Vec<u64>) -> Result<(), String> {
        none_empty(&PILES, piles)
    }

    fn words(&self, piles: &Vec<u64>) -> String {
        format!("({})", list(piles))
    }

    fn is_over(&self, piles: &Vec<u64>) -> bool {
        piles.iter().all(|&p| p == 0)
    }

    fn value(&self, piles: &Vec<u64>) -> Value {
        let sum = self.grundy(piles);
        Value {
            win: sum != 0,
            grundy: Some(sum),
        }
    }

    fn value_words(&self, piles: &Vec<u64>, value: &Value) -> String {
        let terms: Vec<u64> = piles
            .iter()
            .filter(|&&p| p > 0)
            .map(|&p| self.g(p))
            .collect();
        xor_words(&terms, value.grundy.unwrap_or(0))
    }

    fn read_move(&self, piles: &Vec<u64>, text: &str) -> Result<Take, String> {
        let Some(&[i, s]) = numbers(text).as_deref() else {
            return Err(
                "a move is two integers `i s` (take s stones from pile i, s a square)".into(),
            );
        };
        let take = check_take(&PILES, piles, i, s)?;
        if !Self::squares(take.count).any(|square| square == take.count) {
            return Err(format!(
                "{s} is not a square: a move takes 1, 4, 9, 16, … stones"
            ));
        }
        Ok(take)
    }

    fn write_move(&self, mv: &Take) -> String {
        mv.text()
    }

    fn move_words(&self, _: &Vec<u64>, mv: &Take) -> String {
        mv.words(&PILES)
    }

    fn move_done(&self, _: &Vec<u64>, mv: &Take) -> String {
        format!("{} {}", PILES.took, mv.words(&PILES))
    }

    fn apply(&self, piles: &Vec<u64>, mv: &Take) -> Vec<u64> {
        let mut after = piles.clone();
        after[mv.pile] -= mv.count;
        after
    }

    fn winning_moves(&self, piles: &Vec<u64>) -> Vec<Take> {
        let sum = self.grundy(piles);
        if sum == 0 {
            return Vec::new();
        }
        nonempty(piles)
            .into_iter()
            .flat_map(|pile| {
                let (size, target) = (piles[pile], self.g(piles[pile]) ^ sum);
                Self::squares(size)
                    .filter(move |&s| self.g(size - s) == target)
                    .map(move |count| Take { pile, count })
            })
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, piles: &Vec<u64>, played: usize, rng: &mut TestRng) -> Take {
        if let Some(&mv) = self.winning_moves(piles).choose(rng) {
            return mv;
        }
        // The largest square shortens the game most.
        let pile = *nonempty(piles).choose(rng).expect("the game is not over");
        let squares: Vec<u64> = Self::squares(piles[pile]).collect();
        let count = if played < 4 && rng.random_bool(0.4) {
            *squares.choose(rng).expect("a pile holds 1 at least")
        } else {
            *squares.last().expect("a pile holds 1 at least")
        };
        Take { pile, count }
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        aimed(
            rng,
            |piles| !self.value(piles).win,
            |rng| {
                let count = rng.random_range(1..=3);
                random_piles(rng, count, 30)
            },
        )
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of piles, then on the next line each pile: `2` and `3 4` are \
                     piles of 3 and 4 stones. At most 8 piles of at most 100; an emptied pile \
                     stays, as 0.",
                vi: "Số đống, rồi ở dòng sau là số viên của từng đống: `2` và `3 4` là hai đống 3 \
                     và 4 viên. Tối đa 8 đống, mỗi đống tối đa 100 viên; đống đã hết vẫn giữ \
                     chỗ, ghi là 0.",
            },
            moves: Words {
                en: "`i s` takes s stones from pile i, s a square (1, 4, 9, …; piles are \
                     numbered from 1): `2 4` takes 4 from the second pile.",
                vi: "`i s` bốc s viên ở đống thứ i, s là số chính phương (1, 4, 9, …; đánh số \
                     đống từ 1): `2 4` bốc 4 viên ở đống thứ hai.",
            },
        }
    }
}

/// Staircase Nim as POJ 1704 plays it: chessmen on cells 1, 2, … of a row; a move takes one
/// chessman left, without passing or landing on another. Positions are the cells, sorted.
#[derive(Debug, Clone, Copy)]
pub struct StaircaseNim;

/// The chessman on cell `from` goes to cell `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shift {
    from: u64,
    to: u64,
}

impl StaircaseNim {
    /// The xor of every other gap from the right end: the Nim piles of the staircase. It is the
    /// Grundy value too: every smaller value is a Nim move away, and a move that widens a
    /// counted gap changes the xor.
    fn grundy(cells: &[u64]) -> u64 {
        nim::nim_sum(gaps(cells).into_iter().rev().step_by(2))
    }

    /// Every move: each chessman to each free cell between it and its left neighbour.
    fn moves(cells: &[u64]) -> impl Iterator<Item = Shift> + '_ {
        (0..cells.len()).flat_map(move |i| {
            let floor = if i == 0 { 1 } else { cells[i - 1] + 1 };
            (floor..cells[i]).map(move |to| Shift { from: cells[i], to })
        })
    }
}

impl Rules for StaircaseNim {
    type Position = Vec<u64>;
    type Move = Shift;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Vec<u64>, ValidationError> {
        let n: u32 = reader.single("N", 1..=MAX_PILES)?;
        let mut cells: Vec<u64> = reader.values("p", n as usize, 1..=MAX_PILE)?;
        if let Some(cell) = super::first_duplicate(&cells) {
            return Err(ValidationError::new(
                reader.line_number(),
                format!("two chessmen stand on cell {cell} (the cells are distinct)"),
            ));
        }
        cells.sort_unstable();
        Ok(cells)
    }

    fn write_position(&self, cells: &Vec<u64>, out: &mut String) {
        write_piles(cells, out);
    }

    fn start_rule(&self, cells: &Vec<u64>) -> Result<(), String> {
        if self.is_over(cells) {
            return Err(format!(
                "the chessmen fill cells 1 to {}: none can move, so the game is over before \
                 it starts",
                cells.len()
            ));
        }
        Ok(())
    }

    fn words(&self, cells: &Vec<u64>) -> String {
        match cells[..] {
            [cell] => format!("a chessman on cell {cell}"),
            _ => format!("chessmen on cells {}", list(cells)),
        }
    }

    fn is_over(&self, cells: &Vec<u64>) -> bool {
        Self::moves(cells).next().is_none()
    }

    fn value(&self, cells: &Vec<u64>) -> Value {
        let sum = Self::grundy(cells);
        Value {
            win: sum != 0,
            grundy: Some(sum),
        }
    }

    fn read_move(&self, cells: &Vec<u64>, text: &str) -> Result<Shift, String> {
        let Some(&[c, d]) = numbers(text).as_deref() else {
            return Err(
                "a move is two integers `c d` (the chessman on cell c goes to cell d)".into(),
            );
        };
        if !cells.iter().any(|&cell| i128::from(cell) == c) {
            return Err(format!("no chessman stands on cell {c}"));
        }
        if d >= c {
            return Err(format!(
                "a chessman moves left: cell {d} is not to the left of cell {c}"
            ));
        }
        if d < 1 {
            return Err(format!("there is no cell {d}: the row starts at cell 1"));
        }
        let blocking = cells
            .iter()
            .copied()
            .find(|&cell| (d..c).contains(&i128::from(cell)));
        match blocking {
            Some(cell) if i128::from(cell) == d => {
                Err(format!("a chessman already stands on cell {d}"))
            }
            Some(cell) => Err(format!(
                "the chessman on cell {cell} is in the way: a chessman does not pass another"
            )),
            None => Ok(Shift {
                from: c as u64,
                to: d as u64,
            }),
        }
    }

    fn write_move(&self, mv: &Shift) -> String {
        format!("{} {}", mv.from, mv.to)
    }

    fn move_words(&self, _: &Vec<u64>, mv: &Shift) -> String {
        format!("the chessman on cell {} to cell {}", mv.from, mv.to)
    }

    fn move_done(&self, _: &Vec<u64>, mv: &Shift) -> String {
        format!("moved the chessman on cell {} to cell {}", mv.from, mv.to)
    }

    fn apply(&self, cells: &Vec<u64>, mv: &Shift) -> Vec<u64> {
        // No chessman passes another: the cells stay sorted.
        cells
            .iter()
            .map(|&cell| if cell == mv.from { mv.to } else { cell })
            .collect()
    }

    fn winning_moves(&self, cells: &Vec<u64>) -> Vec<Shift> {
        if Self::grundy(cells) == 0 {
            return Vec::new();
        }
        Self::moves(cells)
            .filter(|mv| Self::grundy(&self.apply(cells, mv)) == 0)
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, cells: &Vec<u64>, played: usize, rng: &mut TestRng) -> Shift {
        if let Some(&mv) = self.winning_moves(cells).choose(rng) {
            return mv;
        }
        // A chessman as far left as it goes, which shortens the game most, now and then a
        // random step early on.
        let moves: Vec<Shift> = Self::moves(cells).collect();
        if played < 4 && rng.random_bool(0.4) {
            return *moves.choose(rng).expect("the game is not over");
        }
        let farthest: Vec<Shift> = moves
            .iter()
            .copied()
            .filter(|mv| !moves.iter().any(|o| o.from == mv.from && o.to < mv.to))
            .collect();
        *farthest.choose(rng).expect("the game is not over")
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<u64> {
        aimed(
            rng,
            |cells| !self.value(cells).win,
            |rng| loop {
                let n = rng.random_range(2..=5);
                let mut cells: Vec<u64> = rand::seq::index::sample(rng, 20, n)
                    .into_iter()
                    .map(|c| c as u64 + 1)
                    .collect();
                cells.sort_unstable();
                if !self.is_over(&cells) {
                    break cells;
                }
            },
        )
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "The number of chessmen, then on the next line their cells, in any order: \
                     `3` and `2 5 9` are chessmen on cells 2, 5 and 9. At most 8 chessmen, on \
                     cells 1 to 100.",
                vi: "Số quân cờ, rồi ở dòng sau là các ô có quân, theo thứ tự bất kỳ: `3` và \
                     `2 5 9` là ba quân cờ ở các ô 2, 5 và 9. Tối đa 8 quân cờ, trên các ô từ 1 \
                     đến 100.",
            },
            moves: Words {
                en: "`c d` moves the chessman on cell c left to cell d, without passing or \
                     landing on another chessman: `9 6` moves the chessman on cell 9 to cell 6.",
                vi: "`c d` đi quân cờ ở ô c sang trái tới ô d, không được nhảy qua hay dừng ở ô \
                     có quân khác: `9 6` đi quân cờ ở ô 9 tới ô 6.",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{Board, BoardMove};
    use grundy_games::implicit::{self, Game as _};
    use grundy_games::{graph, nim::VariantRules};
    use rand::SeedableRng;
    use std::collections::{BTreeSet, HashMap};
    use std::fmt::Debug;
    use std::hash::Hash;

    /// Runs `test` on the board the catalogue's family `slug` gives.
    fn with_board(slug: &str, test: impl FnOnce(&dyn Board)) {
        let solver = crate::families::by_name(slug).unwrap();
        test(solver.board().expect("the family has a board"));
    }

    /// The value of every position reachable from `starts` under the literal rules `game`, with
    /// the Grundy value when `grundy`.
    fn solve<G: implicit::Game>(
        game: &G,
        starts: impl IntoIterator<Item = G::Position>,
        grundy: bool,
    ) -> HashMap<G::Position, Value> {
        let mut table = HashMap::new();
        for start in starts {
            let explored = implicit::explore(game, start, 1_000_000).unwrap();
            let outcomes = graph::outcomes(&explored.graph);
            let values = grundy.then(|| graph::grundy_values(&explored.graph).unwrap());
            for (i, position) in explored.positions.into_iter().enumerate() {
                let value = Value {
                    win: outcomes[i].is_win(),
                    grundy: values.as_ref().map(|v| v[i].into()),
                };
                table.insert(position, value);
            }
        }
        table
    }

    /// The numbers of a position's lines.
    fn lines_of(text: &str) -> Vec<Vec<u64>> {
        text.lines()
            .map(|line| line.split(' ').map(|t| t.parse().unwrap()).collect())
            .collect()
    }

    /// The piles (cells) of a position, sorted, without the empty ones: a position of the
    /// literal rules, where piles are a multiset.
    fn multiset(text: &str) -> Vec<u64> {
        let mut piles = lines_of(text).pop().unwrap();
        piles.retain(|&p| p > 0);
        piles.sort_unstable();
        piles
    }

    fn position(first: &[u64], piles: &[u64]) -> String {
        let mut out = String::new();
        push_line_of(&mut out, first);
        push_line_of(&mut out, piles);
        out
    }

    fn push_line_of(out: &mut String, numbers: &[u64]) {
        let numbers: Vec<String> = numbers.iter().map(u64::to_string).collect();
        out.push_str(&numbers.join(" "));
        out.push('\n');
    }

    /// Every vector of `n` numbers from `0..=high`.
    fn vectors(n: usize, high: u64) -> Vec<Vec<u64>> {
        (0..n).fold(vec![Vec::new()], |all, _| {
            all.into_iter()
                .flat_map(|v| {
                    (0..=high).map(move |x| {
                        let mut next = v.clone();
                        next.push(x);
                        next
                    })
                })
                .collect()
        })
    }

    /// `i t` for every pile 0..=n + 1 and every count 0..=high + 1, legal or not, and some
    /// malformed moves.
    fn takes(n: usize, high: u64) -> Vec<String> {
        let mut moves: Vec<String> = (0..=n + 1)
            .flat_map(|i| (0..=high + 1).map(move |t| format!("{i} {t}")))
            .collect();
        moves.extend(["", "1", "x 1", "1 1 1 1 1", "-1 1"].map(String::from));
        moves
    }

    /// The board at `text` against the literal rules: `table` holds their values and `after`
    /// the positions one move away (`key` maps a board position to one of theirs). Every
    /// candidate move the board accepts leads to one of those positions, every one of them is
    /// reached, the value is exact, and the hints are winning moves: all of them when there are
    /// at most [`MAX_LISTED`], counted as `same` says.
    fn check<P: Eq + Hash + Ord + Clone + Debug>(
        board: &dyn Board,
        text: &str,
        key: impl Fn(&str) -> P,
        table: &HashMap<P, Value>,
        after: BTreeSet<P>,
        candidates: &[String],
        same: impl Fn(&str) -> String,
    ) {
        let value = board.value(text).unwrap();
        assert_eq!(value, table[&key(text)], "{text:?}");
        assert_eq!(board.is_over(text).unwrap(), after.is_empty(), "{text:?}");
        let accepted: Vec<BoardMove> = candidates
            .iter()
            .filter_map(|c| board.play(text, c).ok())
            .collect();
        let reached: BTreeSet<P> = accepted.iter().map(|mv| key(&mv.after)).collect();
        assert_eq!(reached, after, "{text:?}");
        let mut winning = BTreeSet::new();
        for mv in &accepted {
            assert_eq!(board.check(&mv.after).unwrap(), mv.after, "{text:?}");
            assert_eq!(mv.value, table[&key(&mv.after)], "{text:?} {}", mv.text);
            assert_eq!(&board.play(text, &mv.text).unwrap(), mv, "{text:?}");
            if !mv.value.win {
                winning.insert(same(&mv.text));
            }
        }
        let hints = board.winning_moves(text).unwrap();
        assert_eq!(hints.is_empty(), !value.win, "{text:?}");
        for hint in &hints {
            assert_eq!(board.play(text, &hint.text).unwrap(), *hint, "{text:?}");
            assert!(!table[&key(&hint.after)].win, "{text:?}: {}", hint.text);
        }
        let listed: BTreeSet<String> = hints.iter().map(|h| same(&h.text)).collect();
        assert_eq!(listed.len(), hints.len(), "{text:?}: a hint twice");
        if winning.len() <= MAX_LISTED {
            assert_eq!(listed, winning, "{text:?}");
        } else {
            assert_eq!(hints.len(), MAX_LISTED, "{text:?}");
        }
    }

    fn itself(text: &str) -> String {
        text.to_owned()
    }

    fn some(text: &str) -> Option<Vec<u64>> {
        Some(multiset(text))
    }

    #[test]
    fn misere_nim_follows_the_literal_rules() {
        // Every position of up to three boxes of up to 5, or four of up to 3.
        let table = solve(
            &VariantRules::Misere,
            [Some(vec![5, 5, 5]), Some(vec![3, 3, 3, 3])],
            false,
        );
        let positions = (1..=3)
            .flat_map(|n| vectors(n, 5))
            .chain(vectors(4, 3))
            .filter(|piles| piles.iter().sum::<u64>() > 0);
        with_board("misere-nim", |board| {
            for piles in positions {
                let text = position(&[piles.len() as u64], &piles);
                // Eating every candy left is not a move on the board: it loses at once.
                let after: BTreeSet<Option<Vec<u64>>> = VariantRules::Misere
                    .moves(&some(&text))
                    .into_iter()
                    .filter(|p| p.as_ref().is_some_and(|p| !p.is_empty()))
                    .collect();
                check(
                    board,
                    &text,
                    some,
                    &table,
                    after,
                    &takes(piles.len(), 5),
                    itself,
                );
            }
        });
    }

    #[test]
    fn lasker_nim_follows_the_literal_rules() {
        let table = solve(&VariantRules::Lasker, [Some(vec![6, 6, 6])], true);
        // A split's two orders are one winning move.
        let same = |text: &str| {
            let mut numbers: Vec<u64> = text.split(' ').map(|t| t.parse().unwrap()).collect();
            numbers[1..].sort_unstable();
            format!("{numbers:?}")
        };
        with_board("lasker-nim", |board| {
            for piles in (1..=3).flat_map(|n| vectors(n, 6)) {
                let text = position(&[piles.len() as u64], &piles);
                let after: BTreeSet<Option<Vec<u64>>> = VariantRules::Lasker
                    .moves(&some(&text))
                    .into_iter()
                    .collect();
                let mut candidates = takes(piles.len(), 6);
                for i in 0..=piles.len() + 1 {
                    for a in 0..=7 {
                        candidates.extend((0..=7).map(|b| format!("{i} {a} {b}")));
                    }
                }
                check(board, &text, some, &table, after, &candidates, same);
            }
        });
    }

    /// Every Moore's Nim move from the piles, legal or not: pairs for the piles of every subset,
    /// in order, taking from 0 to one more than the pile.
    fn moore_candidates(piles: &[u64]) -> Vec<String> {
        let mut moves: Vec<String> = vec!["".into(), "1".into(), "1 1 1".into()];
        for subset in 1u32..1 << piles.len() {
            let chosen: Vec<usize> = (0..piles.len()).filter(|&i| subset >> i & 1 == 1).collect();
            let mut texts = vec![String::new()];
            for &i in &chosen {
                texts = texts
                    .into_iter()
                    .flat_map(|t| (0..=piles[i] + 1).map(move |c| format!("{t} {} {c}", i + 1)))
                    .collect();
            }
            moves.extend(texts.into_iter().map(|t| t.trim_start().to_owned()));
        }
        moves
    }

    #[test]
    fn moore_nim_follows_the_literal_rules() {
        with_board("nim-k", |board| {
            for k in 1..=4usize {
                let rules = VariantRules::Moore { k };
                let table = solve(&rules, [Some(vec![4, 4, 4]), Some(vec![2, 2, 2, 2])], false);
                let positions = (k.max(1)..=3)
                    .flat_map(|n| vectors(n, 4))
                    .chain(vectors(4, 2));
                for piles in positions {
                    let text = position(&[piles.len() as u64, k as u64], &piles);
                    let after: BTreeSet<Option<Vec<u64>>> =
                        rules.moves(&some(&text)).into_iter().collect();
                    let candidates = moore_candidates(&piles);
                    check(board, &text, some, &table, after, &candidates, itself);
                }
            }
        });
    }

    /// Subtract-a-square on sorted non-empty piles, literally.
    struct Squares;

    impl implicit::Game for Squares {
        type Position = Vec<u64>;
        fn moves(&self, piles: &Vec<u64>) -> Vec<Vec<u64>> {
            let mut moves = Vec::new();
            for (i, &pile) in piles.iter().enumerate() {
                for square in (1..).map(|r| r * r).take_while(|&s| s <= pile) {
                    let mut next = piles.clone();
                    next[i] -= square;
                    next.retain(|&p| p > 0);
                    next.sort_unstable();
                    moves.push(next);
                }
            }
            moves
        }
    }

    #[test]
    fn square_nim_follows_the_literal_rules() {
        let table = solve(&Squares, [vec![11, 11, 11]], true);
        with_board("square-nim", |board| {
            for piles in (1..=3).flat_map(|n| vectors(n, 11)) {
                let text = position(&[piles.len() as u64], &piles);
                let after: BTreeSet<Vec<u64>> =
                    Squares.moves(&multiset(&text)).into_iter().collect();
                check(
                    board,
                    &text,
                    multiset,
                    &table,
                    after,
                    &takes(piles.len(), 11),
                    itself,
                );
            }
        });
    }

    #[test]
    fn staircase_nim_follows_the_literal_rules() {
        let tops = (1..=4u64).map(|n| (10 - n..=9).collect::<Vec<u64>>());
        let table = solve(&nim::ChessmenRules, tops, true);
        let candidates: Vec<String> = (0..=11)
            .flat_map(|c| (0..=11).map(move |d| format!("{c} {d}")))
            .chain(["", "5", "5 4 3"].map(String::from))
            .collect();
        with_board("staircase-nim", |board| {
            for set in 1u32..1 << 9 {
                if set.count_ones() > 4 {
                    continue;
                }
                let mut cells: Vec<u64> = (1..=9).filter(|c| set >> (c - 1) & 1 == 1).collect();
                // The board reads the cells in any order.
                cells.reverse();
                let text = position(&[cells.len() as u64], &cells);
                let after: BTreeSet<Vec<u64>> = nim::ChessmenRules
                    .moves(&multiset(&text))
                    .into_iter()
                    .collect();
                check(board, &text, multiset, &table, after, &candidates, itself);
            }
        });
    }

    #[test]
    fn hints_on_the_largest_positions_are_quick_winning_moves() {
        let mut rng = TestRng::seed_from_u64(7);
        let start = std::time::Instant::now();
        for _ in 0..300 {
            let n = rng.random_range(1..=MAX_PILES) as usize;
            let game = Game {
                k: rng.random_range(1..=n as u32),
                piles: (0..n).map(|_| rng.random_range(0..=MAX_PILE)).collect(),
            };
            let moves = MooreNim.winning_moves(&game);
            assert!(moves.len() <= MAX_LISTED);
            assert_eq!(moves.is_empty(), !MooreNim.value(&game).win, "{game:?}");
            for mv in &moves {
                let text = MooreNim.write_move(mv);
                assert_eq!(MooreNim.read_move(&game, &text).as_ref(), Ok(mv));
                assert!(
                    !MooreNim.value(&MooreNim.apply(&game, mv)).win,
                    "{game:?} {text}"
                );
            }
            let piles = &game.piles;
            for mv in LaskerNim.winning_moves(piles) {
                assert!(!LaskerNim.value(&LaskerNim.apply(piles, &mv)).win);
            }
        }
        // Every pile near the limit, every k: the most bits and piles to search.
        for k in 1..=MAX_PILES {
            let full = Game {
                k,
                piles: (0..MAX_PILES as u64).map(|i| MAX_PILE - 3 * i).collect(),
            };
            let moves = MooreNim.winning_moves(&full);
            assert!(!moves.is_empty(), "{full:?}");
            for mv in &moves {
                assert!(!MooreNim.value(&MooreNim.apply(&full, mv)).win, "{full:?}");
            }
        }
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    #[test]
    fn random_starts_are_valid_small_and_both_won_and_lost() {
        for slug in [
            "misere-nim",
            "lasker-nim",
            "nim-k",
            "square-nim",
            "staircase-nim",
        ] {
            with_board(slug, |board| {
                let mut seen = [false; 2];
                for seed in 0..100 {
                    let start = board.random_start(seed);
                    assert_eq!(board.check_start(&start).as_ref(), Ok(&start), "{slug}");
                    assert!(!board.is_over(&start).unwrap(), "{slug} {start:?}");
                    assert!(lines_of(&start)[1].len() <= 5, "{slug} {start:?}");
                    seen[usize::from(board.value(&start).unwrap().win)] = true;
                }
                assert_eq!(seen, [true, true], "{slug}");
            });
        }
    }

    /// The error of a refused move, which must say `gist`.
    fn refused(board: &dyn Board, position: &str, mv: &str, gist: &str) {
        let error = board.play(position, mv).unwrap_err().to_string();
        assert!(error.contains(gist), "{mv:?} from {position:?}: {error}");
    }

    fn not_a_position(board: &dyn Board, position: &str, gist: &str) {
        let error = board.check_start(position).unwrap_err().to_string();
        assert!(error.contains(gist), "{position:?}: {error}");
    }

    #[test]
    fn misere_nim_by_hand() {
        with_board("misere-nim", |board| {
            // The boxes of 1, 4 and 1: only the big box matters; leaving it one candy leaves
            // three boxes of one, an odd number, and Brother eats the last.
            let hints: Vec<String> = board
                .winning_moves("3\n1 4 1\n")
                .unwrap()
                .into_iter()
                .map(|m| m.text)
                .collect();
            assert_eq!(hints, ["2 3"]);
            let mv = board.play("3\n1 4 1\n", "2 3").unwrap();
            assert_eq!(mv.words, "3 candies from box 2");
            assert_eq!((mv.after.as_str(), mv.value.win), ("3\n1 1 1\n", false));
            assert_eq!(mv.value.grundy, None);
            // One candy left: over, lost for the player who would have to eat it.
            assert!(board.is_over("2\n0 1\n").unwrap());
            assert!(!board.value("2\n0 1\n").unwrap().win);
            refused(board, "2\n0 3\n", "2 3", "the last one");
            refused(board, "2\n1 2\n", "3 1", "there is no box 3");
            refused(board, "2\n1 2\n", "1 0", "at least 1 candy");
            refused(board, "2\n1 2\n", "2 5", "box 2 has only 2 candies");
            refused(board, "2\n0 2\n", "1 1", "box 1 is empty");
            refused(board, "2\n1 2\n", "2", "`i t`");
            not_a_position(board, "1\n1\n", "single candy");
            not_a_position(board, "2\n0 0\n", "every box is empty");
            not_a_position(board, "2\n0 3\n", "box 1 is empty");
            not_a_position(board, "9\n1 1 1 1 1 1 1 1 1\n", "N = 9 is outside 1..=8");
            not_a_position(board, "1\n101\n", "a_1 = 101 is outside 0..=100");
        });
    }

    #[test]
    fn lasker_nim_by_hand() {
        with_board("lasker-nim", |board| {
            // Values 1, 2 and 4: only the pile of 3 can go to value 3, which no smaller pile
            // has (g(4) = 3): split it into 1 and 2.
            let value = board.value("3\n1 2 3\n").unwrap();
            assert_eq!((value.win, value.grundy), (true, Some(7)));
            let hints = board.winning_moves("3\n1 2 3\n").unwrap();
            assert_eq!(hints.len(), 1);
            assert_eq!(hints[0].text, "3 1 2");
            assert_eq!(hints[0].words, "a split of pile 3 into 1 and 2");
            assert_eq!(hints[0].after, "4\n1 2 1 2\n");
            // A split in the middle moves the piles after it on.
            let split = board.play("3\n5 0 2\n", "1 3 2").unwrap();
            assert_eq!(split.after, "4\n3 2 0 2\n");
            assert!(board.is_over("2\n0 0\n").unwrap());
            refused(board, "1\n3\n", "1 1 1", "add up to 3, not 1 + 1");
            refused(board, "1\n3\n", "1 0 3", "two non-empty piles");
            refused(board, "1\n3\n", "1 1 x", "`i a b`");
            refused(board, "2\n0 3\n", "1 1", "pile 1 is empty");
            not_a_position(board, "9\n1 1 1 1 1 1 1 1 1\n", "at most 8");
            not_a_position(board, "2\n0 3\n", "pile 1 is empty");
            // Mid-game, splits make many piles.
            assert!(board.check("9\n1 1 1 1 1 1 1 1 1\n").is_ok());
        });
    }

    #[test]
    fn moore_nim_by_hand() {
        with_board("nim-k", |board| {
            // k = 2: two piles of 1 are emptied at once.
            let hints = board.winning_moves("2 2\n1 1\n").unwrap();
            assert_eq!(hints.len(), 1);
            assert_eq!(hints[0].text, "1 1 2 1");
            assert_eq!(
                hints[0].words,
                "1 stone from pile 1 and 1 stone from pile 2"
            );
            // 1, 2, 3 with k = 1 is Nim's lost position; with k = 2 it is won.
            assert!(!board.value("3 1\n1 2 3\n").unwrap().win);
            assert!(board.value("3 2\n1 2 3\n").unwrap().win);
            assert_eq!(board.value("3 2\n1 2 3\n").unwrap().grundy, None);
            // Pairs in any order are the same move.
            let mv = board.play("3 2\n1 2 3\n", "3 1 1 1").unwrap();
            assert_eq!(mv.text, "1 1 3 1");
            assert_eq!(mv.after, "3 2\n0 2 2\n");
            refused(board, "3 1\n1 2 3\n", "1 1 2 1", "at most 1 pile, not 2");
            refused(board, "3 2\n1 2 3\n", "1 1 1 1", "pile 1 is named twice");
            refused(board, "3 2\n1 2 3\n", "1 1 2", "pairs `i t`");
            refused(board, "3 2\n1 2 3\n", "1 1 2 3", "pile 2 has only 2 stones");
            not_a_position(board, "3 4\n1 2 3\n", "k = 4 is outside 1..=3");
            not_a_position(board, "2 1\n0 3\n", "pile 1 is empty");
        });
    }

    #[test]
    fn square_nim_by_hand() {
        with_board("square-nim", |board| {
            // g(3) = 1 and g(4) = 2; taking 1 from the 4 leaves 3 and 3, of value 1 ⊕ 1 = 0
            // (taking 4 leaves a pile of value 1 beside the 3 too, but 1 ⊕ 0 ≠ 0 … g(0) = 0).
            let hints: Vec<String> = board
                .winning_moves("2\n3 4\n")
                .unwrap()
                .into_iter()
                .map(|m| m.text)
                .collect();
            assert_eq!(hints, ["2 1"]);
            let value = board.value("2\n4 9\n").unwrap();
            assert_eq!((value.win, value.grundy), (false, Some(0)));
            refused(board, "1\n5\n", "1 2", "2 is not a square");
            refused(board, "1\n5\n", "1 9", "pile 1 has only 5 stones");
            refused(board, "1\n5\n", "1 0", "at least 1 stone");
            not_a_position(board, "1\n0\n", "pile 1 is empty");
        });
    }

    #[test]
    fn staircase_nim_by_hand() {
        with_board("staircase-nim", |board| {
            // Cells are read in any order and kept sorted.
            assert_eq!(board.check("3\n9 2 5\n").unwrap(), "3\n2 5 9\n");
            assert_eq!(
                board.words("3\n9 2 5\n").unwrap(),
                "chessmen on cells 2, 5, 9"
            );
            // Cells 2 and 3: gaps 1 and 0, and the counted gap (the right one) is 0: lost.
            let value = board.value("2\n2 3\n").unwrap();
            assert_eq!((value.win, value.grundy), (false, Some(0)));
            // POJ 1704's second sample game: moving the chessman of 17 to 16 wins.
            let sample = "8\n1 5 6 7 9 12 14 17\n";
            let hints: Vec<String> = board
                .winning_moves(sample)
                .unwrap()
                .into_iter()
                .map(|m| m.text)
                .collect();
            assert!(hints.contains(&"17 16".to_owned()), "{hints:?}");
            refused(
                board,
                "2\n2 5\n",
                "5 2",
                "a chessman already stands on cell 2",
            );
            refused(
                board,
                "2\n2 5\n",
                "5 1",
                "the chessman on cell 2 is in the way",
            );
            refused(board, "2\n2 5\n", "3 1", "no chessman stands on cell 3");
            refused(board, "2\n2 5\n", "5 6", "moves left");
            refused(board, "2\n2 5\n", "2 0", "there is no cell 0");
            not_a_position(board, "3\n1 2 3\n", "fill cells 1 to 3");
            not_a_position(board, "3\n2 5 2\n", "two chessmen stand on cell 2");
            not_a_position(board, "1\n101\n", "p_1 = 101 is outside 1..=100");
        });
    }
}
