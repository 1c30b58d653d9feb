//! The game families behind the catalogue, by the name `problem.toml` gives in `family`.

mod bash;
mod bipartite;
mod chomp;
mod christmas;
mod coins;
mod dag_chess;
mod dag_game;
mod every_sg;
mod hackenbush;
mod multiple;
mod nim;
mod parigame;
mod piles;
mod sc4;
mod spc4;
mod stick_game;
mod stones;
mod vika;
mod wythoff;

use crate::family::Solver;
use std::sync::Arc;

/// Every family name a problem may use.
pub const NAMES: &[&str] = &[
    "stones",
    "parigame",
    "spc4",
    "sc4",
    "dag-game",
    "bash",
    "nim",
    "wythoff",
    "wythoff-big",
    "dag-chess",
    "stick-game",
    "square-nim",
    "fibonacci-nim",
    "k-multiple-subtraction",
    "staircase-nim",
    "misere-nim",
    "lasker-nim",
    "nim-k",
    "green-hackenbush",
    "green-hackenbush-multi",
    "christmas-game",
    "every-sg",
    "bipartite-game",
    "chomp",
    "coin-flipping",
    "vika",
];

pub fn by_name(name: &str) -> Option<Arc<dyn Solver>> {
    Some(match name {
        "stones" => Arc::new(stones::Stones),
        "parigame" => Arc::new(parigame::Parigame),
        "spc4" => Arc::new(spc4::Spc4),
        "sc4" => Arc::new(sc4::Sc4),
        "dag-game" => Arc::new(dag_game::DagGame),
        "bash" => Arc::new(bash::Bash),
        "nim" => Arc::new(nim::Nim),
        "wythoff" => Arc::new(wythoff::Wythoff::POJ_1067),
        "wythoff-big" => Arc::new(wythoff::Wythoff::NOD_1185),
        "dag-chess" => Arc::new(dag_chess::DagChess),
        "stick-game" => Arc::new(stick_game::StickGame),
        "square-nim" => Arc::new(piles::Piles::square()),
        "fibonacci-nim" => Arc::new(multiple::Multiple::FIBONACCI),
        "k-multiple-subtraction" => Arc::new(multiple::Multiple::K_MULTIPLE),
        "staircase-nim" => Arc::new(piles::Piles::staircase()),
        "misere-nim" => Arc::new(piles::Piles::misere()),
        "lasker-nim" => Arc::new(piles::Piles::lasker()),
        "nim-k" => Arc::new(piles::Piles::moore()),
        "green-hackenbush" => Arc::new(hackenbush::Hackenbush::AGC_017D),
        "green-hackenbush-multi" => Arc::new(hackenbush::Hackenbush::HDU_3094),
        "christmas-game" => Arc::new(christmas::ChristmasGame),
        "every-sg" => Arc::new(every_sg::EverySg),
        "bipartite-game" => Arc::new(bipartite::BipartiteGame),
        "chomp" => Arc::new(chomp::Chomp),
        "coin-flipping" => Arc::new(coins::Coins),
        "vika" => Arc::new(vika::Vika),
        _ => return None,
    })
}

/// Checks a bound given in a subtask's parameters against the statement's limit.
pub(crate) fn within(name: &str, value: u64, low: u64, high: u64) -> Result<(), String> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(format!("{name} = {value} must lie in {low}..={high}"))
    }
}

/// Checks an input's value against a subtask's bound.
pub(crate) fn at_most(name: &str, value: u64, bound: u64) -> Result<(), String> {
    if value <= bound {
        Ok(())
    } else {
        Err(format!(
            "{name} = {value} exceeds this subtask's bound {bound}"
        ))
    }
}

/// Appends the decimal form of each item, space-separated, and a newline.
pub(crate) fn push_line<T: std::fmt::Display>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
) {
    use std::fmt::Write;
    let mut first = true;
    for item in items {
        if !first {
            out.push(' ');
        }
        first = false;
        write!(out, "{item}").expect("writing to a String cannot fail");
    }
    out.push('\n');
}

/// One answer word per line.
pub(crate) fn lines<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for word in words {
        out.push_str(word);
        out.push('\n');
    }
    out
}
