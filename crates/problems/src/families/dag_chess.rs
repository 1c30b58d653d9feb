//! POJ 2425 "A Chess Game": test cases to the end of the file, separated by one empty line; each
//! is a DAG given by children lists, then token queries ended by `0`. Sprague–Grundy sum.

use super::{at_most, first_duplicate, lines, push_line, small_dags, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::{self, Graph};
use grundy_games::implicit::{self, Game};
use rand::RngExt;
use serde::Deserialize;

pub struct DagChess;

const MAX_CASES: u32 = 10;
const MAX_N: u32 = 1000;
const MAX_EDGES: u32 = 100_000;
const MAX_QUERIES: u32 = 1000;
const MAX_TOKENS: u32 = 10;

#[derive(Debug, Clone)]
pub struct Case {
    pub children: Vec<Vec<u32>>,
    pub queries: Vec<Vec<u32>>,
}

#[derive(Debug)]
pub struct Input {
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_cases: u32,
    pub max_n: u32,
    pub max_queries: u32,
    pub max_tokens: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "WIN" } else { "LOSE" }
}

fn graph_of(case: &Case) -> Graph {
    let edges: Vec<(u32, u32)> = case
        .children
        .iter()
        .enumerate()
        .flat_map(|(v, cs)| cs.iter().map(move |&c| (v as u32, c)))
        .collect();
    Graph::from_edges(case.children.len(), &edges)
}

/// Several tokens on one graph, moved one at a time: the literal game for brute force.
struct Tokens<'a> {
    graph: &'a Graph,
}

impl Game for Tokens<'_> {
    type Position = Vec<u32>;
    fn moves(&self, tokens: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut moves = Vec::new();
        for (i, &t) in tokens.iter().enumerate() {
            for &w in self.graph.successors(t) {
                let mut next = tokens.clone();
                next[i] = w;
                next.sort_unstable();
                moves.push(next);
            }
        }
        moves
    }
}

impl Family for DagChess {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut cases = Vec::new();
        while !reader.at_eof() {
            if !cases.is_empty() {
                reader.blank_line("test cases are separated by one empty line")?;
            }
            if cases.len() == MAX_CASES as usize {
                return Err(ValidationError::new(
                    reader.line_number() + 1,
                    format!("at most {MAX_CASES} test cases are allowed"),
                ));
            }
            let n: u32 = reader.single("N", 1..=MAX_N)?;
            let first_line = reader.line_number() + 1;
            let mut children = Vec::with_capacity(n as usize);
            let mut total = 0u32;
            for v in 0..n {
                let line = reader.line("a line \"k c_1 … c_k\"")?;
                let k: u32 = line.int(0, "k", 0..=n - 1)?;
                line.expect_len(k as usize + 1, "k followed by k children")?;
                let list = (1..=k as usize)
                    .map(|i| line.int(i, &format!("c_{i}"), 0..=n - 1))
                    .collect::<Result<Vec<u32>, _>>()?;
                if list.contains(&v) {
                    return Err(line.error(format!("vertex {v} lists itself as a child")));
                }
                if let Some(twice) = first_duplicate(&list) {
                    return Err(line.error(format!("child {} is listed twice", twice)));
                }
                total += k;
                if total > MAX_EDGES {
                    return Err(line.error(format!("a test case has at most {MAX_EDGES} edges")));
                }
                children.push(list);
            }
            let case_graph = Graph::from_edges(
                n as usize,
                &children
                    .iter()
                    .enumerate()
                    .flat_map(|(v, cs)| cs.iter().map(move |&c| (v as u32, c)))
                    .collect::<Vec<_>>(),
            );
            if let Some(cycle) = graph::find_cycle(&case_graph) {
                return Err(ValidationError::new(
                    first_line + cycle[0] as usize,
                    format!(
                        "vertex {} lies on a directed cycle (the graph must be acyclic)",
                        cycle[0]
                    ),
                ));
            }
            let mut queries = Vec::new();
            loop {
                let line = reader.line("a query \"m p_1 … p_m\" or the closing 0")?;
                let m: u32 = line.int(0, "m", 0..=MAX_TOKENS)?;
                line.expect_len(m as usize + 1, "m followed by m positions")?;
                if m == 0 {
                    break;
                }
                if queries.len() == MAX_QUERIES as usize {
                    return Err(line.error(format!("at most {MAX_QUERIES} queries per test case")));
                }
                queries.push(
                    (1..=m as usize)
                        .map(|i| line.int(i, &format!("p_{i}"), 0..=n - 1))
                        .collect::<Result<Vec<u32>, _>>()?,
                );
            }
            cases.push(Case { children, queries });
        }
        Ok(Input { cases })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        for (i, case) in input.cases.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            push_line(&mut out, [case.children.len()]);
            for cs in &case.children {
                push_line(
                    &mut out,
                    std::iter::once(cs.len() as u32).chain(cs.iter().copied()),
                );
            }
            for q in &case.queries {
                push_line(
                    &mut out,
                    std::iter::once(q.len() as u32).chain(q.iter().copied()),
                );
            }
            out.push_str("0\n");
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_cases", p.max_cases.into(), 1, MAX_CASES.into())?;
        within("max_n", p.max_n.into(), 1, MAX_N.into())?;
        within("max_queries", p.max_queries.into(), 1, MAX_QUERIES.into())?;
        within("max_tokens", p.max_tokens.into(), 1, MAX_TOKENS.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of test cases",
            input.cases.len() as u64,
            p.max_cases.into(),
        )?;
        for case in &input.cases {
            at_most("N", case.children.len() as u64, p.max_n.into())?;
            at_most(
                "the number of queries",
                case.queries.len() as u64,
                p.max_queries.into(),
            )?;
            case.queries
                .iter()
                .try_for_each(|q| at_most("m", q.len() as u64, p.max_tokens.into()))?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let cases = (0..p.max_cases)
            .map(|_| {
                let n = if index < 2 {
                    p.max_n
                } else {
                    rng.random_range(1..=p.max_n)
                };
                // Edges from a vertex to later ones in a random order: acyclic. Index 0 is dense
                // (deep Grundy values), index 1 a single path, later ones random.
                let mut order: Vec<u32> = (0..n).collect();
                rand::seq::SliceRandom::shuffle(order.as_mut_slice(), rng);
                let budget = (MAX_EDGES / n).max(1);
                let children: Vec<Vec<u32>> = {
                    let mut children = vec![Vec::new(); n as usize];
                    for pos in 0..n as usize {
                        let later = n as usize - pos - 1;
                        let count = match index {
                            0 => later.min(budget as usize),
                            1 => later.min(1),
                            _ => rng.random_range(0..=later.min(6)),
                        };
                        let picks = if index == 1 {
                            vec![0]
                        } else {
                            rand::seq::index::sample(rng, later, count).into_vec()
                        };
                        children[order[pos] as usize] = picks
                            .into_iter()
                            .take(count)
                            .map(|d| order[pos + 1 + d])
                            .collect();
                    }
                    children
                };
                let queries = (0..p.max_queries)
                    .map(|_| {
                        let m = if index == 0 {
                            p.max_tokens
                        } else {
                            rng.random_range(1..=p.max_tokens)
                        };
                        (0..m).map(|_| rng.random_range(0..n)).collect()
                    })
                    .collect();
                Case { children, queries }
            })
            .collect();
        Input { cases }
    }

    fn solve(&self, input: &Input) -> String {
        let mut answers = Vec::new();
        for case in &input.cases {
            let values = graph::grundy_values(&graph_of(case)).expect("validated acyclic");
            answers.extend(
                case.queries
                    .iter()
                    .map(|q| word(q.iter().fold(0, |acc, &t| acc ^ values[t as usize]) != 0)),
            );
        }
        lines(answers)
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input
            .cases
            .iter()
            .all(|c| c.children.len() <= 10 && c.queries.iter().all(|q| q.len() <= 3));
        let brute = small.then(|| {
            let mut answers = Vec::new();
            for case in &input.cases {
                let g = graph_of(case);
                for q in &case.queries {
                    let mut start = q.clone();
                    start.sort_unstable();
                    answers.push(word(
                        implicit::outcome(&Tokens { graph: &g }, start, 100_000)
                            .expect("small")
                            .is_win(),
                    ));
                }
            }
            lines(answers)
        });
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every DAG on four vertices, with every multiset of one to three tokens.
        let mut queries = Vec::new();
        for a in 0..4 {
            queries.push(vec![a]);
            for b in a..4 {
                queries.push(vec![a, b]);
                for c in b..4 {
                    queries.push(vec![a, b, c]);
                }
            }
        }
        let cases: Vec<Case> = small_dags()
            .into_iter()
            .map(|edges| {
                let mut children = vec![Vec::new(); 4];
                for (u, v) in edges {
                    children[u as usize].push(v);
                }
                Case {
                    children,
                    queries: queries.clone(),
                }
            })
            .collect();
        cases
            .chunks(MAX_CASES as usize)
            .map(|c| Input { cases: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        let sample =
            "4\n2 1 2\n0\n1 3\n0\n1 0\n2 0 2\n0\n\n4\n1 1\n1 2\n0\n0\n2 0 1\n2 1 1\n3 0 1 3\n0\n";
        assert_eq!(DagChess.parse(sample).unwrap().cases.len(), 2);
        let rule = |t: &str| DagChess.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n0\n1 0\n0\n1\n0\n0\n"),
            "line 5: expected an empty line (test cases are separated by one empty line)"
        );
        assert_eq!(
            rule("2\n1 1\n1 0\n0\n"),
            "line 3: vertex 1 lies on a directed cycle (the graph must be acyclic)"
        );
        assert_eq!(
            rule("2\n1 0\n0\n0\n"),
            "line 2: vertex 0 lists itself as a child"
        );
        assert_eq!(
            rule("3\n2 1 1\n0\n0\n0\n"),
            "line 2: child 1 is listed twice"
        );
        assert_eq!(rule("1\n0\n1 1\n0\n"), "line 3: p_1 = 1 is outside 0..=0");
        assert_eq!(
            rule("1\n0\n1 0\n"),
            "line 4: expected a query \"m p_1 … p_m\" or the closing 0, found the end of the input"
        );
        assert_eq!(
            rule("1\n0\n11 0 0 0 0 0 0 0 0 0 0 0\n0\n"),
            "line 3: m = 11 is outside 0..=10"
        );
    }
}
