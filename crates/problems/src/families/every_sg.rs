//! Every-SG (own format): a DAG `n m` with `m` edges, then `q` queries `c v_1 … v_c` of token
//! positions; every movable token must be moved each turn.

use super::{
    at_most, edge_on_a_cycle, lines, push_line, random_forward_edges, read_edges, small_dags,
    within,
};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::every;
use grundy_games::graph::Graph;
use rand::RngExt;
use serde::Deserialize;

pub struct EverySg;

const MAX_N: u32 = 100_000;
const MAX_M: u32 = 200_000;
const MAX_Q: u32 = 10_000;
const MAX_TOKENS: u32 = 10;

#[derive(Debug)]
pub struct Input {
    pub n: u32,
    /// 0-based.
    pub edges: Vec<(u32, u32)>,
    pub queries: Vec<Vec<u32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_n: u32,
    pub max_m: u32,
    pub max_queries: u32,
    pub max_tokens: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "First" } else { "Second" }
}

impl Family for EverySg {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let (n, m) = reader.pair(("n", 1..=MAX_N), ("m", 0..=MAX_M))?;
        let edges = read_edges(&mut reader, n, m)?;
        if let Some(line) = edge_on_a_cycle(n, &edges) {
            return Err(ValidationError::new(
                line,
                "this edge lies on a directed cycle (the graph must be acyclic)",
            ));
        }
        let q: u32 = reader.single("q", 1..=MAX_Q)?;
        let mut queries = Vec::with_capacity(q as usize);
        for _ in 0..q {
            let line = reader.line("a query \"c v_1 … v_c\"")?;
            let c: u32 = line.int(0, "c", 1..=MAX_TOKENS)?;
            line.expect_len(c as usize + 1, "c followed by c vertices")?;
            let tokens = (1..=c as usize)
                .map(|i| line.int(i, &format!("v_{i}"), 1..=n).map(|v| v - 1))
                .collect::<Result<Vec<u32>, _>>()?;
            queries.push(tokens);
        }
        reader.expect_eof()?;
        Ok(Input { n, edges, queries })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.n, input.edges.len() as u32]);
        for &(u, v) in &input.edges {
            push_line(&mut out, [u + 1, v + 1]);
        }
        push_line(&mut out, [input.queries.len()]);
        for q in &input.queries {
            push_line(
                &mut out,
                std::iter::once(q.len() as u32).chain(q.iter().map(|v| v + 1)),
            );
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_m", p.max_m.into(), 0, MAX_M.into())?;
        within("max_queries", p.max_queries.into(), 1, MAX_Q.into())?;
        within("max_tokens", p.max_tokens.into(), 1, MAX_TOKENS.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("n", input.n.into(), p.max_n.into())?;
        at_most("m", input.edges.len() as u64, p.max_m.into())?;
        at_most("q", input.queries.len() as u64, p.max_queries.into())?;
        input
            .queries
            .iter()
            .try_for_each(|q| at_most("c", q.len() as u64, p.max_tokens.into()))
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let n = if index < 2 {
            p.max_n
        } else {
            rng.random_range(1..=p.max_n)
        };
        let m = if index < 2 {
            p.max_m
        } else {
            rng.random_range(0..=p.max_m)
        };
        // Edges go from a lower to a higher label in a random order of the vertices: acyclic.
        let mut order: Vec<u32> = (0..n).collect();
        rand::seq::SliceRandom::shuffle(order.as_mut_slice(), rng);
        let edges: Vec<(u32, u32)> = if n < 2 {
            Vec::new()
        } else if index == 0 {
            // A long path plus shortcuts: deep steps.
            let path = (n - 1).min(m);
            (0..path)
                .map(|i| (i, i + 1))
                .chain((path..m).map(|_| {
                    let u = rng.random_range(0..n - 1);
                    (u, rng.random_range(u + 1..=(u + 3).min(n - 1)))
                }))
                .map(|(u, v)| (order[u as usize], order[v as usize]))
                .collect()
        } else {
            random_forward_edges(rng, n, m, 4)
                .into_iter()
                .map(|(u, v)| (order[u as usize], order[v as usize]))
                .collect()
        };
        let queries = (0..p.max_queries)
            .map(|_| {
                let c = if index == 0 {
                    p.max_tokens
                } else {
                    rng.random_range(1..=p.max_tokens)
                };
                (0..c).map(|_| rng.random_range(0..n)).collect()
            })
            .collect();
        Input { n, edges, queries }
    }

    fn solve(&self, input: &Input) -> String {
        let g = Graph::from_edges(input.n as usize, &input.edges);
        let step = every::steps(&g).expect("the validator refuses cycles");
        lines(
            input
                .queries
                .iter()
                .map(|q| word(every::first_wins(&step, q))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small =
            input.n <= 8 && input.edges.len() <= 12 && input.queries.iter().all(|q| q.len() <= 3);
        let brute = small
            .then(|| {
                let g = Graph::from_edges(input.n as usize, &input.edges);
                input
                    .queries
                    .iter()
                    .map(|q| every::brute_force_first_wins(&g, q, 200_000))
                    .collect::<Option<Vec<bool>>>()
            })
            .flatten()
            .map(|w| lines(w.into_iter().map(word)));
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every DAG on four vertices, queried with one token anywhere and every pair of tokens.
        let queries: Vec<Vec<u32>> = (0..4)
            .flat_map(|a| (a..4).map(move |b| vec![a, b]))
            .chain((0..4).map(|a| vec![a]))
            .collect();
        small_dags()
            .into_iter()
            .map(|edges| Input {
                n: 4,
                edges,
                queries: queries.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert!(EverySg.parse("3 2\n1 2\n2 3\n1\n2 1 3\n").is_ok());
        let rule = |t: &str| EverySg.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("2 2\n1 2\n2 1\n1\n1 1\n"),
            "line 3: this edge lies on a directed cycle (the graph must be acyclic)"
        );
        assert_eq!(
            rule("2 1\n1 2\n1\n11 1 1 1 1 1 1 1 1 1 1 1\n"),
            "line 4: c = 11 is outside 1..=10"
        );
        assert_eq!(
            rule("2 1\n1 2\n1\n2 1\n"),
            "line 4: expected 3 tokens (c followed by c vertices), found 2"
        );
        assert_eq!(
            rule("2 1\n1 2\n1\n1 3\n"),
            "line 4: v_1 = 3 is outside 1..=2"
        );
    }
}
