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
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::Graph;
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

/// The 1-based input line of an edge on a directed cycle, if there is a cycle.
pub(crate) fn edge_on_a_cycle(n: u32, edges: &[(u32, u32)]) -> Option<usize> {
    let graph = Graph::from_edges(n as usize, edges);
    // Kahn's algorithm; whatever it cannot remove lies on or after a cycle.
    let mut in_degree = vec![0u32; n as usize];
    for &(_, v) in edges {
        in_degree[v as usize] += 1;
    }
    let mut stack: Vec<u32> = (0..n).filter(|&v| in_degree[v as usize] == 0).collect();
    while let Some(v) = stack.pop() {
        for &w in graph.successors(v) {
            in_degree[w as usize] -= 1;
            if in_degree[w as usize] == 0 {
                stack.push(w);
            }
        }
    }
    let stuck = (0..n).find(|&v| in_degree[v as usize] > 0)?;
    // Every stuck vertex has a stuck predecessor; walking back n steps from one ends on a cycle.
    let mut predecessor_edge = vec![usize::MAX; n as usize];
    for (index, &(u, v)) in edges.iter().enumerate() {
        if in_degree[u as usize] > 0 && in_degree[v as usize] > 0 {
            predecessor_edge[v as usize] = index;
        }
    }
    let mut v = stuck;
    for _ in 0..n {
        v = edges[predecessor_edge[v as usize]].0;
    }
    // Line 1 holds "n m"; edge i (0-based) is on line i + 2.
    Some(predecessor_edge[v as usize] + 2)
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
