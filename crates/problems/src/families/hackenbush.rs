//! Green Hackenbush on trees, in two formats: AtCoder AGC017 D (one tree, `N ≥ 2`) and HDU 3094
//! (`T` trees, `N ≥ 1`). Vertex 1 is the root; the answer is `Alice` (first) or `Bob`.

use super::{at_most, lines, push_line, shuffle_rooted, within};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{Line, StrictReader, ValidationError};
use grundy_games::hackenbush;
use rand::RngExt;
use serde::Deserialize;

pub struct Hackenbush {
    /// Several trees after a count line (HDU 3094), or one tree (AGC017 D).
    counted: bool,
    max_trees: u32,
    min_n: u32,
}

impl Hackenbush {
    pub const AGC_017D: Hackenbush = Hackenbush {
        counted: false,
        max_trees: 1,
        min_n: 2,
    };
    pub const HDU_3094: Hackenbush = Hackenbush {
        counted: true,
        max_trees: 10,
        min_n: 1,
    };
}

const MAX_N: u32 = 100_000;

/// A tree as 0-based edges.
#[derive(Debug, Clone)]
pub struct Tree {
    pub n: u32,
    pub edges: Vec<(u32, u32)>,
}

#[derive(Debug)]
pub struct Input {
    pub trees: Vec<Tree>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_trees: u32,
    pub max_n: u32,
}

fn word(first_wins: bool) -> &'static str {
    if first_wins { "Alice" } else { "Bob" }
}

/// Union–find check that `n − 1` edges form a tree; returns the line of the edge closing a cycle.
fn first_cycle_edge(n: u32, edges: &[(u32, u32)]) -> Option<usize> {
    let mut parent: Vec<u32> = (0..n).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    for (i, &(a, b)) in edges.iter().enumerate() {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra == rb {
            return Some(i);
        }
        parent[ra as usize] = rb;
    }
    None
}

fn read_edge(line: &Line<'_>, n: u32) -> Result<(u32, u32), ValidationError> {
    line.expect_len(2, "x y")?;
    let x: u32 = line.int(0, "x", 1..=n)?;
    let y: u32 = line.int(1, "y", 1..=n)?;
    if x == y {
        return Err(line.error(format!("the edge {x} {y} is a loop")));
    }
    Ok((x - 1, y - 1))
}

/// A random tree of `n` vertices: each vertex hangs from one of the vertices before it (the one
/// just before for a path, the root for a star), with labels not yet shuffled.
fn random_tree(rng: &mut TestRng, n: u32, shape: usize) -> Vec<(u32, u32)> {
    (1..n)
        .map(|v| {
            let parent = match shape % 4 {
                0 => v - 1,
                1 => 0,
                2 => rng.random_range(v.saturating_sub(3)..v),
                _ => rng.random_range(0..v),
            };
            (parent, v)
        })
        .collect()
}

/// Hangs a path of as many edges as the tree is worth from the root, which makes it worth 0
/// (the second player wins), if that fits within `max_n` vertices.
fn make_losing(n: u32, mut edges: Vec<(u32, u32)>, max_n: u32) -> (u32, Vec<(u32, u32)>) {
    let value = hackenbush::tree_value(n as usize, &edges);
    if u64::from(n) + value > u64::from(max_n) {
        return (n, edges);
    }
    let mut previous = 0;
    for v in n..n + value as u32 {
        edges.push((previous, v));
        previous = v;
    }
    (n + value as u32, edges)
}

fn shuffled(rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>) -> Tree {
    Tree {
        n,
        edges: shuffle_rooted(rng, n, edges),
    }
}

impl Family for Hackenbush {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let count = if self.counted {
            reader.single("T", 1..=self.max_trees)?
        } else {
            1
        };
        let mut trees = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let n: u32 = reader.single("N", self.min_n..=MAX_N)?;
            let first_line = reader.line_number() + 1;
            let mut edges = Vec::with_capacity(n as usize - 1);
            for _ in 1..n {
                edges.push(read_edge(&reader.line("an edge \"x y\"")?, n)?);
            }
            if let Some(i) = first_cycle_edge(n, &edges) {
                return Err(ValidationError::new(
                    first_line + i,
                    "this edge closes a cycle (the edges must form a tree)",
                ));
            }
            trees.push(Tree { n, edges });
        }
        reader.expect_eof()?;
        Ok(Input { trees })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        if self.counted {
            push_line(&mut out, [input.trees.len()]);
        }
        for tree in &input.trees {
            push_line(&mut out, [tree.n]);
            for &(a, b) in &tree.edges {
                push_line(&mut out, [a + 1, b + 1]);
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_trees", p.max_trees.into(), 1, self.max_trees.into())?;
        within("max_n", p.max_n.into(), self.min_n.into(), MAX_N.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("T", input.trees.len() as u64, p.max_trees.into())?;
        input
            .trees
            .iter()
            .try_for_each(|t| at_most("N", t.n.into(), p.max_n.into()))
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let trees = (0..p.max_trees as usize)
            .map(|t| {
                // Indices 0..=3: the path, the star, a deep bushy tree and a random one, at full
                // size; later ones random sizes and shapes, every other tree made losing.
                let losing = index >= 4 && (index + t) % 2 == 1;
                // A losing tree gets a path as long as its value hung on: half the room for it.
                let largest = if losing {
                    (p.max_n / 2).max(self.min_n)
                } else {
                    p.max_n
                };
                let (n, shape) = if index < 4 {
                    (p.max_n, index)
                } else {
                    (
                        rng.random_range(self.min_n..=largest),
                        rng.random_range(0..4),
                    )
                };
                let edges = random_tree(rng, n, shape);
                let (n, edges) = if losing {
                    make_losing(n, edges, p.max_n)
                } else {
                    (n, edges)
                };
                shuffled(rng, n, edges)
            })
            .collect();
        Input { trees }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .trees
                .iter()
                .map(|t| word(hackenbush::tree_value(t.n as usize, &t.edges) != 0)),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let brute: Option<Vec<bool>> = input
            .trees
            .iter()
            .map(|t| {
                (t.n <= 10)
                    .then(|| hackenbush::brute_force_value(t.n as usize, &t.edges, 200_000))
                    .flatten()
                    .map(|v| v != 0)
            })
            .collect();
        let fusion = input
            .trees
            .iter()
            .map(|t| {
                hackenbush::ring_graph_value(t.n as usize, &t.edges)
                    .ok()
                    .map(|v| v != 0)
            })
            .collect::<Option<Vec<bool>>>();
        vec![
            CrossCheck::new("brute force", brute.map(|b| lines(b.into_iter().map(word)))),
            CrossCheck::new(
                "ring-graph evaluation",
                fusion.map(|f| lines(f.into_iter().map(word))),
            ),
        ]
    }

    fn small_positions(&self) -> Vec<Input> {
        // Every labelled tree on up to six vertices given by a parent array (parent < child).
        let mut trees = Vec::new();
        for n in self.min_n..=6u32 {
            let choices: u32 = (1..n).product();
            for code in 0..choices.max(1) {
                let mut rest = code;
                let edges = (1..n)
                    .map(|v| {
                        let parent = rest % v;
                        rest /= v;
                        (parent, v)
                    })
                    .collect();
                trees.push(Tree { n, edges });
            }
        }
        let per_input = self.max_trees as usize;
        trees
            .chunks(per_input)
            .map(|c| Input { trees: c.to_vec() })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validator_rules() {
        let agc = &Hackenbush::AGC_017D;
        assert!(agc.parse("2\n1 2\n").is_ok());
        assert_eq!(
            agc.parse("1\n").unwrap_err().to_string(),
            "line 1: N = 1 is outside 2..=100000"
        );
        assert_eq!(
            agc.parse("3\n1 2\n2 1\n").unwrap_err().to_string(),
            "line 3: this edge closes a cycle (the edges must form a tree)"
        );
        assert_eq!(
            agc.parse("3\n1 2\n3 3\n").unwrap_err().to_string(),
            "line 3: the edge 3 3 is a loop"
        );
        assert_eq!(
            agc.parse("3\n1 2\n3 4\n").unwrap_err().to_string(),
            "line 3: y = 4 is outside 1..=3"
        );
        let hdu = &Hackenbush::HDU_3094;
        assert!(hdu.parse("2\n1\n2\n2 1\n").is_ok());
        assert_eq!(
            hdu.parse("11\n").unwrap_err().to_string(),
            "line 1: T = 11 is outside 1..=10"
        );
        assert_eq!(
            hdu.parse("1\n3\n1 2\n").unwrap_err().to_string(),
            "line 4: expected an edge \"x y\", found the end of the input"
        );
    }
}
