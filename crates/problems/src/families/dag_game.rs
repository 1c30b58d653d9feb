//! The DAG game (seed 000): `n m`, then `m` edges `u v`; count the winning start vertices.

use super::{
    at_most, edge_on_a_cycle, push_line, random_forward_edges, read_edges, small_dags, within,
};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::{self, Graph};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Deserialize;

pub struct DagGame;

const MAX_N: u32 = 1_000_000;
const MAX_M: u32 = 1_000_000;

/// Vertices are 0-based here and 1-based in the text.
#[derive(Debug)]
pub struct Input {
    pub n: u32,
    pub edges: Vec<(u32, u32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_m: u32,
}

fn answer(count: usize) -> String {
    format!("{count}\n")
}

/// Relabels the vertices by a random permutation so no solution can rely on the order.
fn shuffled(rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>) -> Input {
    let mut label: Vec<u32> = (0..n).collect();
    label.shuffle(rng);
    let mut edges: Vec<(u32, u32)> = edges
        .into_iter()
        .map(|(u, v)| (label[u as usize], label[v as usize]))
        .collect();
    edges.shuffle(rng);
    Input { n, edges }
}

impl Family for DagGame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, m) = reader.pair(("n", 1..=MAX_N), ("m", 0..=MAX_M))?;
        let edges = read_edges(&mut reader, n, m)?;
        reader.expect_eof()?;
        if let Some(line) = edge_on_a_cycle(n, &edges) {
            return Err(ValidationError::new(
                line,
                "this edge lies on a directed cycle (the graph must be acyclic)",
            ));
        }
        Ok(Input { n, edges })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::with_capacity(16 * (input.edges.len() + 1));
        push_line(&mut out, [input.n, input.edges.len() as u32]);
        for &(u, v) in &input.edges {
            push_line(&mut out, [u + 1, v + 1]);
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_m", p.max_m.into(), 0, MAX_M.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("n", input.n.into(), p.max_n.into())?;
        at_most("m", input.edges.len() as u64, p.max_m.into())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let (n, m) = (p.max_n, p.max_m);
        match index {
            // The longest path: n vertices, n - 1 edges (a recursive search overflows here).
            0 => {
                let edges = (0..n.saturating_sub(1))
                    .take(m as usize)
                    .map(|v| (v, v + 1))
                    .collect();
                shuffled(rng, n, edges)
            }
            // As many edges as allowed, deep and random.
            1 => {
                let edges = random_forward_edges(rng, n, m, 10);
                shuffled(rng, n, edges)
            }
            // No edges: every vertex loses.
            2 => Input {
                n,
                edges: Vec::new(),
            },
            // A single vertex.
            3 => Input {
                n: 1,
                edges: Vec::new(),
            },
            // A path with every edge doubled and shortcuts: multi-edges are allowed.
            4 => {
                let path = (m / 3).min(n.saturating_sub(1));
                let mut edges: Vec<(u32, u32)> =
                    (0..path).flat_map(|v| [(v, v + 1), (v, v + 1)]).collect();
                edges.extend(random_forward_edges(rng, n, m - 2 * path, 10));
                shuffled(rng, n, edges)
            }
            // A star: one source pointing at every other vertex.
            5 => {
                let edges = (1..n).take(m as usize).map(|v| (0, v)).collect();
                shuffled(rng, n, edges)
            }
            _ => {
                let n = rng.random_range(1..=n);
                let m = rng.random_range(0..=m);
                let edges = random_forward_edges(rng, n, m, 10);
                shuffled(rng, n, edges)
            }
        }
    }

    fn solve(&self, input: &Input) -> String {
        let graph = Graph::from_edges(input.n as usize, &input.edges);
        answer(
            graph::outcomes(&graph)
                .iter()
                .filter(|o| o.is_win())
                .count(),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let graph = Graph::from_edges(input.n as usize, &input.edges);
        let values = graph::grundy_values(&graph).expect("the validator refuses cycles");
        let sprague_grundy = values.iter().filter(|&&g| g != 0).count();
        let brute = (input.n <= 2_000).then(|| {
            let mut memo = Vec::new();
            (0..input.n)
                .filter(|&v| graph::brute_force_wins(&graph, v, &mut memo))
                .count()
        });
        vec![
            CrossCheck::new("Sprague-Grundy values", Some(answer(sprague_grundy))),
            CrossCheck::new("brute force", brute.map(answer)),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        small_dags()
            .into_iter()
            .map(|edges| Input { n: 4, edges })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> String {
        DagGame.parse(text).unwrap_err().to_string()
    }

    #[test]
    fn validator_rules() {
        assert_eq!(
            DagGame.parse("4 3\n1 2\n2 3\n3 4\n").unwrap().edges.len(),
            3
        );
        assert!(
            DagGame.parse("2 2\n1 2\n1 2\n").is_ok(),
            "repeated edges are allowed"
        );
        assert_eq!(rule("0 0\n"), "line 1: n = 0 is outside 1..=1000000");
        assert_eq!(
            rule("2 1000001\n"),
            "line 1: m = 1000001 is outside 0..=1000000"
        );
        assert_eq!(rule("2 1\n1 3\n"), "line 2: v = 3 is outside 1..=2");
        assert_eq!(
            rule("2 1\n2 2\n"),
            "line 2: the edge 2 2 is a loop (u must differ from v)"
        );
        assert_eq!(
            rule("2 2\n1 2\n"),
            "line 3: expected an edge \"u v\", found the end of the input"
        );
        // 4 -> 1 is downstream of nothing; the cycle is 1 -> 2 -> 3 -> 1 (lines 2, 3, 5).
        let error = DagGame.parse("4 4\n1 2\n2 3\n4 1\n3 1\n").unwrap_err();
        assert!([2, 3, 5].contains(&error.line), "{error}");
        assert!(error.rule.contains("cycle"));
    }
}
