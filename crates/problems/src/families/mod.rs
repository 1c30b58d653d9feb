//! The game families behind the catalogue, by the name `problem.toml` gives in `family`.

mod bash;
mod bipartite;
mod bipartite_play;
mod chomp;
mod chomp_play;
mod christmas;
mod christmas_play;
mod coins;
mod coins_play;
mod dag_chess;
mod dag_chess_play;
mod dag_game;
mod dag_play;
mod every_sg;
mod every_sg_play;
mod hackenbush;
mod hackenbush_play;
mod multiple;
mod multiple_play;
mod nim;
mod nim_play;
pub mod octal;
mod octal_play;
mod parigame;
mod parigame_play;
mod piles;
mod piles_play;
mod sc4;
mod spc4;
mod stick_game;
mod stones;
mod stones_play;
mod vika;
mod wythoff;
mod wythoff_play;

use crate::family::Solver;
use crate::play::Played;
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::{self, Graph};
use rand::RngExt;
use rand::seq::SliceRandom;
use std::sync::Arc;

type Constructor = fn() -> Arc<dyn Solver>;

/// Every family a problem may name, with its constructor.
const FAMILIES: &[(&str, Constructor)] = &[
    ("stones", || Arc::new(stones::Stones)),
    ("parigame", || Arc::new(parigame::Parigame)),
    ("spc4", || Arc::new(spc4::Spc4)),
    ("sc4", || Arc::new(sc4::Sc4)),
    ("dag-game", || Arc::new(dag_game::DagGame)),
    ("bash", || Arc::new(bash::Bash)),
    ("nim", || Arc::new(nim::Nim)),
    ("wythoff", || Arc::new(wythoff::Wythoff::POJ_1067)),
    ("wythoff-big", || Arc::new(wythoff::Wythoff::NOD_1185)),
    ("dag-chess", || Arc::new(dag_chess::DagChess)),
    ("stick-game", || Arc::new(stick_game::StickGame)),
    ("square-nim", || Arc::new(piles::Piles::square())),
    ("fibonacci-nim", || Arc::new(multiple::Multiple::FIBONACCI)),
    ("k-multiple-subtraction", || {
        Arc::new(multiple::Multiple::K_MULTIPLE)
    }),
    ("staircase-nim", || Arc::new(piles::Piles::staircase())),
    ("misere-nim", || Arc::new(piles::Piles::misere())),
    ("lasker-nim", || Arc::new(piles::Piles::lasker())),
    ("nim-k", || Arc::new(piles::Piles::moore())),
    ("green-hackenbush", || {
        Arc::new(hackenbush::Hackenbush::AGC_017D)
    }),
    ("green-hackenbush-multi", || {
        Arc::new(hackenbush::Hackenbush::HDU_3094)
    }),
    ("christmas-game", || Arc::new(christmas::ChristmasGame)),
    ("every-sg", || Arc::new(every_sg::EverySg)),
    ("bipartite-game", || Arc::new(bipartite::BipartiteGame)),
    ("chomp", || Arc::new(chomp::Chomp)),
    ("coin-flipping", || Arc::new(coins::Coins)),
    ("vika", || Arc::new(vika::Vika)),
    ("nim-play", || Arc::new(Played(nim_play::NimPlay))),
    ("wythoff-play", || {
        Arc::new(Played(wythoff_play::WythoffPlay))
    }),
    ("stones-play", || Arc::new(Played(stones_play::StonesPlay))),
    ("dag-play", || Arc::new(Played(dag_play::DagPlay))),
    ("chomp-play", || Arc::new(Played(chomp_play::ChompPlay))),
    ("hackenbush-play", || {
        Arc::new(Played(hackenbush_play::HackenbushPlay))
    }),
];

/// Every family name a problem may use.
pub fn names() -> impl Iterator<Item = &'static str> {
    FAMILIES.iter().map(|&(name, _)| name).chain([OCTAL])
}

/// The family built from a `[game]` table rather than by name alone.
const OCTAL: &str = "octal";

/// The family `name`, configured by a problem's `[game]` table: required by the families built
/// from a game's rules (`octal`), refused by the others.
pub fn for_spec(name: &str, game: Option<&toml::Table>) -> Result<Arc<dyn Solver>, String> {
    match (name, game) {
        (OCTAL, Some(table)) => Ok(Arc::new(
            octal::Octal::from_table(table).map_err(|e| e.to_string())?,
        )),
        (OCTAL, None) => Err("the octal family needs a [game] table with its code".into()),
        (_, Some(_)) => Err(format!("the {name} family takes no [game] table")),
        (_, None) => by_name(name).ok_or_else(|| {
            format!(
                "unknown family {name:?} (known: {})",
                names().collect::<Vec<_>>().join(", ")
            )
        }),
    }
}

pub fn by_name(name: &str) -> Option<Arc<dyn Solver>> {
    FAMILIES
        .iter()
        .find(|&&(n, _)| n == name)
        .map(|&(_, make)| make())
}

/// The size of a subtraction game (a pile and the amounts a move may take) in the order
/// explanations try games: the pile first, then the sum of the amounts (below 2³² in every
/// family's limits).
pub(crate) fn subtraction_size(pile: u32, moves: &[u32]) -> u64 {
    let moves: u64 = moves.iter().map(|&m| u64::from(m)).sum();
    u64::from(pile) << 32 | moves
}

/// The subtraction games one step smaller than a pile and its amounts: half the pile or one
/// less (with the amounts that still fit), an amount fewer, or an amount one lower where that
/// keeps them distinct. The amounts keep their order, so sorted amounts stay sorted.
pub(crate) fn shrink_subtraction(pile: u32, moves: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut smaller = Vec::new();
    for less in [pile / 2, pile - 1] {
        let fit: Vec<u32> = moves.iter().copied().filter(|&m| m <= less).collect();
        if less >= 1 && !fit.is_empty() {
            smaller.push((less, fit));
        }
    }
    for i in 0..moves.len() {
        if moves.len() > 1 {
            let mut fewer = moves.to_vec();
            fewer.remove(i);
            smaller.push((pile, fewer));
        }
        let lower = moves[i] - 1;
        if lower >= 1 && !moves.contains(&lower) {
            let mut lowered = moves.to_vec();
            lowered[i] = lower;
            smaller.push((pile, lowered));
        }
    }
    smaller
}

/// `m` lines of edges `u v` (1-based, `u ≠ v`) of a graph on `n` vertices, returned 0-based.
pub(crate) fn read_edges(
    reader: &mut StrictReader<'_>,
    n: u32,
    m: u32,
) -> Result<Vec<(u32, u32)>, ValidationError> {
    let mut edges = Vec::with_capacity(m as usize);
    for _ in 0..m {
        let line = reader.line("an edge \"u v\"")?;
        line.expect_len(2, "u v")?;
        let (u, v): (u32, u32) = (line.int(0, "u", 1..=n)?, line.int(1, "v", 1..=n)?);
        if u == v {
            return Err(line.error(format!("the edge {u} {v} is a loop (u must differ from v)")));
        }
        edges.push((u - 1, v - 1));
    }
    Ok(edges)
}

/// Every DAG on four vertices whose edges go from lower to higher labels (each of the six
/// possible edges present or not): every DAG on four vertices up to relabelling.
pub(crate) fn small_dags() -> Vec<Vec<(u32, u32)>> {
    let pairs: Vec<(u32, u32)> = (0..4)
        .flat_map(|u| (u + 1..4).map(move |v| (u, v)))
        .collect();
    (0u32..1 << pairs.len())
        .map(|mask| {
            pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect()
        })
        .collect()
}

/// The line of an edge on a directed cycle, if the graph has one, for inputs whose edge `i`
/// (0-based) stands on line `i + 2`.
pub(crate) fn edge_on_a_cycle(n: u32, edges: &[(u32, u32)]) -> Option<usize> {
    let cycle = graph::find_cycle(&Graph::from_edges(n as usize, edges))?;
    let closing = (cycle[0], cycle[1 % cycle.len()]);
    edges.iter().position(|&e| e == closing).map(|i| i + 2)
}

/// `m` random edges, each from an earlier to a later vertex of `0..n`: acyclic. Most reach at
/// most `reach` vertices ahead, so the graph is deep rather than flat.
pub(crate) fn random_forward_edges(
    rng: &mut TestRng,
    n: u32,
    m: u32,
    reach: u32,
) -> Vec<(u32, u32)> {
    if n < 2 {
        return Vec::new();
    }
    (0..m)
        .map(|_| {
            let u = rng.random_range(0..n - 1);
            let reach = if rng.random_bool(0.8) { reach } else { n };
            (
                u,
                rng.random_range(u + 1..=u.saturating_add(reach).min(n - 1)),
            )
        })
        .collect()
}

/// The edges of a rooted undirected graph with the labels of all vertices but the root (0)
/// permuted, the edge order shuffled and each edge's direction drawn at random, so that no
/// solution can lean on how the generator built the graph.
pub(crate) fn shuffle_rooted(rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut label: Vec<u32> = (1..n).collect();
    label.shuffle(rng);
    label.insert(0, 0);
    let mut edges: Vec<(u32, u32)> = edges
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = (label[a as usize], label[b as usize]);
            if rng.random_bool(0.5) { (a, b) } else { (b, a) }
        })
        .collect();
    edges.shuffle(rng);
    edges
}

/// The first value that occurs twice, if any.
pub(crate) fn first_duplicate<T: Ord + Copy>(values: &[T]) -> Option<T> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
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
