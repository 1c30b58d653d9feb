//! POJ 3710 "Christmas Game": test cases to the end of the file, each `N` graphs of `m k` and `k`
//! edges; every graph is a tree with rings hung on it, rooted at vertex 1. `Sally` moves first.

use super::{at_most, lines, push_line, shuffle_rooted, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::hackenbush;
use rand::RngExt;
use serde::Deserialize;

pub struct ChristmasGame;

const MAX_CASES: u32 = 20;
const MAX_GRAPHS: u32 = 99;
const MAX_VERTICES: u32 = 99;
const MAX_EDGES: u32 = 499;
/// The most edges a ring graph on 99 vertices can have: a root with 98 double edges.
const MAX_RING_GRAPH_EDGES: u32 = 196;

#[derive(Debug, Clone)]
pub struct Decoration {
    pub vertices: u32,
    /// 0-based.
    pub edges: Vec<(u32, u32)>,
}

#[derive(Debug)]
pub struct Input {
    pub cases: Vec<Vec<Decoration>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_cases: u32,
    pub max_graphs: u32,
    pub max_edges: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "Sally" } else { "Harry" }
}

fn value(d: &Decoration) -> u64 {
    hackenbush::ring_graph_value(d.vertices as usize, &d.edges).expect("validated")
}

/// A random tree of `tree` vertices with rings of random lengths (2 = a double edge) hung at
/// random tree vertices, within `max_edges` edges and the vertex limit.
fn decoration(rng: &mut TestRng, max_edges: u32) -> Decoration {
    let max_edges = max_edges.max(1);
    let tree = rng.random_range(1..=(max_edges / 2 + 1).min(MAX_VERTICES));
    let mut edges: Vec<(u32, u32)> = (1..tree)
        .map(|v| (rng.random_range(v.saturating_sub(4)..v), v))
        .collect();
    let mut vertices = tree;
    while (edges.len() as u32) < max_edges {
        let length = rng.random_range(2..=6u32);
        if edges.len() as u32 + length > max_edges || vertices + length - 1 > MAX_VERTICES {
            break;
        }
        let attach = rng.random_range(0..tree);
        let mut previous = attach;
        for _ in 1..length {
            edges.push((previous, vertices));
            previous = vertices;
            vertices += 1;
        }
        edges.push((previous, attach));
        if rng.random_bool(0.3) {
            break;
        }
    }
    let edges = shuffle_rooted(rng, vertices, edges);
    Decoration { vertices, edges }
}

impl Family for ChristmasGame {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let mut cases = Vec::new();
        while !reader.at_eof() {
            if cases.len() == MAX_CASES as usize {
                return Err(ValidationError::new(
                    reader.line_number() + 1,
                    format!("at most {MAX_CASES} test cases are allowed"),
                ));
            }
            let graphs: u32 = reader.single("N", 1..=MAX_GRAPHS)?;
            let mut decorations = Vec::with_capacity(graphs as usize);
            for _ in 0..graphs {
                let (vertices, k): (u32, u32) =
                    reader.pair(("m", 1..=MAX_VERTICES), ("k", 0..=MAX_EDGES))?;
                let head_line = reader.line_number();
                let mut edges = Vec::with_capacity(k as usize);
                for _ in 0..k {
                    let line = reader.line("an edge \"a b\"")?;
                    line.expect_len(2, "a b")?;
                    let (a, b): (u32, u32) = (
                        line.int(0, "a", 1..=vertices)?,
                        line.int(1, "b", 1..=vertices)?,
                    );
                    if a == b {
                        return Err(line.error(format!("the edge {a} {b} is a loop")));
                    }
                    edges.push((a - 1, b - 1));
                }
                if let Err(e) = hackenbush::ring_graph_value(vertices as usize, &edges) {
                    let message = match e {
                        hackenbush::RingError::Disconnected(v) => {
                            format!("vertex {} is not connected to the root", v + 1)
                        }
                        hackenbush::RingError::NotARing { edge, .. } => {
                            format!(
                                "the cycle through the edge on line {} is not a ring hanging from one vertex",
                                head_line + 1 + edge
                            )
                        }
                    };
                    return Err(ValidationError::new(head_line, message));
                }
                decorations.push(Decoration { vertices, edges });
            }
            cases.push(decorations);
        }
        Ok(Input { cases })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        for case in &input.cases {
            push_line(&mut out, [case.len()]);
            for d in case {
                push_line(&mut out, [d.vertices, d.edges.len() as u32]);
                for &(a, b) in &d.edges {
                    push_line(&mut out, [a + 1, b + 1]);
                }
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_cases", p.max_cases.into(), 1, MAX_CASES.into())?;
        within("max_graphs", p.max_graphs.into(), 1, MAX_GRAPHS.into())?;
        within(
            "max_edges",
            p.max_edges.into(),
            2,
            MAX_RING_GRAPH_EDGES.into(),
        )
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most(
            "the number of test cases",
            input.cases.len() as u64,
            p.max_cases.into(),
        )?;
        for case in &input.cases {
            at_most("N", case.len() as u64, p.max_graphs.into())?;
            for d in case {
                at_most("k", d.edges.len() as u64, p.max_edges.into())?;
            }
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let cases = (0..p.max_cases)
            .map(|_| {
                let graphs = if index == 0 {
                    p.max_graphs
                } else {
                    rng.random_range(1..=p.max_graphs)
                };
                (0..graphs)
                    .map(|g| match (index, g % 3) {
                        // A lone vertex (no edges) and a lone double edge: both worth nothing.
                        (1, 0) => Decoration {
                            vertices: 1,
                            edges: Vec::new(),
                        },
                        (1, 1) => Decoration {
                            vertices: 2,
                            edges: vec![(0, 1), (1, 0)],
                        },
                        _ => {
                            let edges = if index == 0 {
                                p.max_edges
                            } else {
                                rng.random_range(1..=p.max_edges)
                            };
                            decoration(rng, edges)
                        }
                    })
                    .collect::<Vec<Decoration>>()
            })
            .enumerate()
            .map(|(case, mut decorations)| {
                // Every other case made a loss for Sally: the last graph is replaced by a path
                // (a stalk worth its length) cancelling the others.
                if case % 2 == 1 {
                    let rest = decorations[..decorations.len() - 1]
                        .iter()
                        .fold(0, |acc, d| acc ^ value(d));
                    if rest <= u64::from(p.max_edges.min(MAX_VERTICES - 1)) {
                        let length = rest as u32;
                        let last = decorations.len() - 1;
                        decorations[last] = Decoration {
                            vertices: length + 1,
                            edges: (0..length).map(|v| (v, v + 1)).collect(),
                        };
                    }
                }
                decorations
            })
            .collect();
        Input { cases }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .cases
                .iter()
                .map(|case| word(case.iter().fold(0, |acc, d| acc ^ value(d)) != 0)),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let brute = input
            .cases
            .iter()
            .map(|case| {
                case.iter()
                    .map(|d| {
                        (d.edges.len() <= 12)
                            .then(|| {
                                hackenbush::brute_force_value(
                                    d.vertices as usize,
                                    &d.edges,
                                    500_000,
                                )
                            })
                            .flatten()
                    })
                    .try_fold(0, |acc, v| v.map(|v| acc ^ v))
            })
            .collect::<Option<Vec<u64>>>()
            .map(|values| lines(values.into_iter().map(|v| word(v != 0))));
        vec![CrossCheck::new("brute force", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        // A path with a ring of every length 2..=6 hung at each of its vertices, one graph each.
        let mut decorations = Vec::new();
        for path in 1..=3u32 {
            for at in 0..path {
                for length in 2..=6u32 {
                    let mut edges: Vec<(u32, u32)> = (1..path).map(|v| (v - 1, v)).collect();
                    let mut previous = at;
                    let mut next = path;
                    for _ in 1..length {
                        edges.push((previous, next));
                        previous = next;
                        next += 1;
                    }
                    edges.push((previous, at));
                    decorations.push(Decoration {
                        vertices: next,
                        edges,
                    });
                }
            }
        }
        decorations
            .chunks(3)
            .map(|c| Input {
                cases: vec![c.to_vec()],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        assert_eq!(
            ChristmasGame
                .parse("2\n2 1\n1 2\n4 4\n1 2\n2 3\n2 4\n3 4\n")
                .unwrap()
                .cases
                .len(),
            1
        );
        let rule = |t: &str| ChristmasGame.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n3 1\n1 2\n"),
            "line 2: vertex 3 is not connected to the root"
        );
        assert_eq!(
            rule("1\n4 5\n1 2\n2 3\n3 1\n2 4\n4 3\n"),
            "line 2: the cycle through the edge on line 5 is not a ring hanging from one vertex"
        );
        assert_eq!(rule("1\n2 1\n2 2\n"), "line 3: the edge 2 2 is a loop");
        assert_eq!(rule("1\n100 0\n"), "line 2: m = 100 is outside 1..=99");
    }
}
