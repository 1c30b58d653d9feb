//! Green Hackenbush on trees, in two formats: AtCoder AGC017 D (one tree, `N ≥ 2`) and HDU 3094
//! (`T` trees, `N ≥ 1`). Vertex 1 is the root; the answer is `Alice` (first) or `Bob`.

use super::hackenbush_play::HackenbushPlay;
use super::{at_most, lines, push_line, shuffle_rooted, within};
use crate::explain::{Certificate, Explain, Misconception, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
pub(super) fn random_tree(rng: &mut TestRng, n: u32, shape: usize) -> Vec<(u32, u32)> {
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
pub(super) fn make_losing(
    n: u32,
    mut edges: Vec<(u32, u32)>,
    max_n: u32,
) -> (u32, Vec<(u32, u32)>) {
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// Green Hackenbush on one rooted tree; several trees are one tree with their roots joined.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(HackenbushPlay))
    }
}

/// A tree hung from vertex 0: each vertex's parent and children, and the vertices in
/// breadth-first order (parents before children).
struct Rooted {
    parent: Vec<u32>,
    children: Vec<Vec<u32>>,
    order: Vec<u32>,
}

impl Rooted {
    fn new(tree: &Tree) -> Rooted {
        let n = tree.n as usize;
        let mut adjacency = vec![Vec::new(); n];
        for &(a, b) in &tree.edges {
            adjacency[a as usize].push(b);
            adjacency[b as usize].push(a);
        }
        let mut parent = vec![u32::MAX; n];
        let mut children = vec![Vec::new(); n];
        let mut order = vec![0u32];
        parent[0] = 0;
        let mut next = 0;
        while let Some(&v) = order.get(next) {
            next += 1;
            for &w in &adjacency[v as usize] {
                if parent[w as usize] == u32::MAX {
                    parent[w as usize] = v;
                    children[v as usize].push(w);
                    order.push(w);
                }
            }
        }
        Rooted {
            parent,
            children,
            order,
        }
    }

    /// Every vertex's value by the colon principle, deepest first.
    fn values(&self) -> Vec<u64> {
        let mut value = vec![0u64; self.order.len()];
        for &v in self.order.iter().rev() {
            value[v as usize] = self.children[v as usize]
                .iter()
                .fold(0, |x, &c| x ^ (value[c as usize] + 1));
        }
        value
    }

    /// A string equal for two trees iff they are the same rooted tree up to relabelling.
    fn shape(&self) -> String {
        let mut shapes = vec![String::new(); self.order.len()];
        for &v in self.order.iter().rev() {
            let mut below: Vec<&String> = self.children[v as usize]
                .iter()
                .map(|&c| &shapes[c as usize])
                .collect();
            below.sort();
            let shape = format!("({})", below.into_iter().cloned().collect::<String>());
            shapes[v as usize] = shape;
        }
        std::mem::take(&mut shapes[0])
    }

    /// The tree without the subtree hanging from `v` (not the root), labels kept in order.
    fn without_subtree(&self, v: u32) -> Tree {
        let n = self.order.len();
        let mut gone = vec![false; n];
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            gone[u as usize] = true;
            stack.extend(&self.children[u as usize]);
        }
        let mut label = vec![u32::MAX; n];
        let mut kept = 0;
        for u in 0..n {
            if !gone[u] {
                label[u] = kept;
                kept += 1;
            }
        }
        let edges = (1..n)
            .filter(|&u| !gone[u])
            .map(|u| (label[self.parent[u] as usize], label[u]))
            .collect();
        Tree { n: kept, edges }
    }

    /// An edge whose cut leaves the tree worth 0, as (parent, child), when it is worth more.
    fn winning_cut(&self, value: &[u64]) -> Option<(u32, u32)> {
        // Bring the value of `v` down to `target`: a branch of `v` holding the highest bit of
        // the change is cut off, or its own vertex brought down to one less than it must be.
        let (mut v, mut target) = (0u32, 0u64);
        if value[0] == 0 {
            return None;
        }
        loop {
            let change = value[v as usize] ^ target;
            let (child, branch) = self.children[v as usize]
                .iter()
                .map(|&c| (c, value[c as usize] + 1))
                .find(|&(_, branch)| branch ^ change < branch)
                .expect("a branch holds the highest bit of the change");
            let wanted = branch ^ change;
            if wanted == 0 {
                return Some((v, child));
            }
            (v, target) = (child, wanted - 1);
        }
    }
}

/// `(g(2) + 1) ⊕ (g(5) + 1) = (1 + 1) ⊕ (0 + 1) = 2 ⊕ 1 = 3`: the root's value from its
/// branches (1-based labels).
fn root_value_text(rooted: &Rooted, value: &[u64]) -> String {
    let children = &rooted.children[0];
    if children.len() > 12 {
        return format!(
            "the xor of g(c) + 1 over its {} children = {}",
            children.len(),
            value[0]
        );
    }
    let terms: Vec<String> = children
        .iter()
        .map(|&c| format!("(g({}) + 1)", c + 1))
        .collect();
    let plus_one: Vec<String> = children
        .iter()
        .map(|&c| format!("({} + 1)", value[c as usize]))
        .collect();
    let branches: Vec<u64> = children.iter().map(|&c| value[c as usize] + 1).collect();
    format!(
        "{} = {} = {}",
        terms.join(" ⊕ "),
        plus_one.join(" ⊕ "),
        nim_sum_text(&branches)
    )
}

const EDGE_PARITY: Misconception = Misconception {
    id: "hackenbush-edge-parity",
    title: "The parity of the number of edges",
    text: "The program decides by the parity of the number of edges, as if every move deleted \
           exactly one edge. A move deletes the chosen edge and everything no longer connected \
           to the root: in the path 1–2–3 Alice deletes 1–2, both edges are gone, and Bob \
           cannot move, although the tree has two edges. The right value comes from the colon \
           principle: a vertex is worth the xor, over its children, of the child's value plus \
           one (a leaf is worth 0), and Alice wins iff the root is worth more than 0.",
};

const BRANCHES_AS_STALKS: Misconception = Misconception {
    id: "hackenbush-branches-as-stalks",
    title: "Each branch as a stalk",
    text: "The program treats every branch hanging from the root as a stalk (a path) of as \
           many edges as the branch has, and xors those lengths. That is right while every \
           branch is a path, but a branch that forks is worth less than its edge count: two \
           leaves on one vertex cancel (1 ⊕ 1 = 0). Apply the colon principle at every vertex, \
           not only at the root: a vertex is worth the xor, over its children, of the child's \
           value plus one.",
};

impl Explain for Hackenbush {
    type Game = Tree;

    fn small_games(&self) -> Vec<Tree> {
        // Every rooted tree up to six vertices, once per shape.
        let mut seen = std::collections::HashSet::new();
        let mut games: Vec<Tree> = self
            .small_positions()
            .into_iter()
            .flat_map(|input| input.trees)
            .filter(|t| seen.insert(Rooted::new(t).shape()))
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Tree {
        let n = rng.random_range(self.min_n..=12);
        let edges = (1..n).map(|v| (rng.random_range(0..v), v)).collect();
        Tree { n, edges }
    }

    fn games_per_input(&self) -> usize {
        self.max_trees as usize
    }

    fn input_of(&self, games: &[Tree]) -> Input {
        Input {
            trees: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Tree> {
        input.trees.clone()
    }

    fn answer(&self, tree: &Tree) -> String {
        word(hackenbush::tree_value(tree.n as usize, &tree.edges) != 0).to_owned()
    }

    fn size(&self, tree: &Tree) -> u64 {
        tree.n.into()
    }

    fn shrink(&self, tree: &Tree) -> Vec<Tree> {
        let rooted = Rooted::new(tree);
        // Cutting off each subtree (a leaf is one), smallest tree left first; a large tree
        // tries only the root's branches and a few leaves.
        let mut cuts: Vec<u32> = (1..tree.n).collect();
        if tree.n > 64 {
            let leaves = cuts
                .iter()
                .copied()
                .filter(|&v| rooted.children[v as usize].is_empty())
                .take(16);
            cuts = rooted.children[0]
                .iter()
                .copied()
                .take(16)
                .chain(leaves)
                .collect();
        }
        let mut smaller: Vec<Tree> = cuts
            .into_iter()
            .map(|v| rooted.without_subtree(v))
            .filter(|t| t.n >= self.min_n)
            .collect();
        smaller.sort_by_key(|t| t.n);
        if tree.n <= 64 {
            let mut seen = std::collections::HashSet::new();
            smaller.retain(|t| seen.insert(Rooted::new(t).shape()));
        }
        smaller
    }

    fn certificate(&self, tree: &Tree) -> Certificate {
        let rooted = Rooted::new(tree);
        let value = rooted.values();
        let colon_en = "By the colon principle a vertex is worth the xor, over its children, of \
                        the child's value plus one (a leaf is worth 0), and the player to move \
                        wins iff the root is worth more than 0";
        let colon_vi = "Theo nguyên lý dấu hai chấm (colon principle), giá trị của một đỉnh là \
                        xor, trên các con của nó, của giá trị đỉnh con cộng một (lá có giá trị \
                        0), và người phải đi thắng khi và chỉ khi gốc có giá trị lớn hơn 0";
        if tree.n == 1 {
            return Certificate {
                en: "Bob wins: the tree is the root alone, so Alice has no edge to delete."
                    .to_owned(),
                vi: "Bob thắng: cây chỉ có gốc, nên Alice không có cạnh nào để xóa.".to_owned(),
            };
        }
        let root = root_value_text(&rooted, &value);
        let Some((from, to)) = rooted.winning_cut(&value) else {
            return Certificate {
                en: format!(
                    "Bob wins. {colon_en}. Here the root is worth g(1) = {root}. Every cut \
                     changes the tree into one of another value, so Alice leaves a tree worth \
                     more than 0, and from there Bob can always cut back to a tree worth 0, \
                     until Alice has no edge left."
                ),
                vi: format!(
                    "Bob thắng. {colon_vi}. Ở đây gốc có giá trị g(1) = {root}. Mỗi lần cắt đều \
                     đổi cây thành cây có giá trị khác, nên Alice để lại một cây có giá trị lớn \
                     hơn 0, và từ đó Bob luôn cắt được về một cây có giá trị 0, cho đến khi \
                     Alice không còn cạnh nào."
                ),
            };
        };
        let (from, to) = (from + 1, to + 1);
        let below = if !rooted.children[to as usize - 1].is_empty() {
            format!(" and everything below {to}")
        } else {
            String::new()
        };
        let below_vi = if below.is_empty() {
            String::new()
        } else {
            format!(" cùng mọi thứ bên dưới {to}")
        };
        Certificate {
            en: format!(
                "Alice wins. {colon_en}. Here the root is worth g(1) = {root} ≠ 0. Deleting \
                 the edge {from}–{to}{below} leaves a tree worth 0: every cut from there gives \
                 Alice a tree worth more than 0 again, from which she can cut back to 0."
            ),
            vi: format!(
                "Alice thắng. {colon_vi}. Ở đây gốc có giá trị g(1) = {root} ≠ 0. Xóa cạnh \
                 {from}–{to}{below_vi} để lại một cây có giá trị 0: mỗi lần cắt từ đó lại cho \
                 Alice một cây có giá trị lớn hơn 0, từ đó Alice lại cắt về 0."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[EDGE_PARITY, BRANCHES_AS_STALKS]
    }

    fn misconceived(&self, id: &str, tree: &Tree) -> Option<String> {
        match id {
            "hackenbush-edge-parity" => Some(word(tree.edges.len() % 2 == 1).to_owned()),
            "hackenbush-branches-as-stalks" => {
                let rooted = Rooted::new(tree);
                // A branch's edges: the one to the root and those below, one per vertex.
                let mut below = vec![1u64; rooted.order.len()];
                for &v in rooted.order.iter().skip(1).rev() {
                    let parent = rooted.parent[v as usize] as usize;
                    if parent != 0 {
                        below[parent] += below[v as usize];
                    }
                }
                let stalks = rooted.children[0]
                    .iter()
                    .fold(0, |x, &c| x ^ below[c as usize]);
                Some(word(stalks != 0).to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    /// A program for either format, answering each tree (`N` and its edges) by `alice_wins`
    /// on its 1-based edge list.
    fn program(
        counted: bool,
        alice_wins: fn(usize, &[(usize, usize)]) -> bool,
    ) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut numbers = input
                .split_whitespace()
                .map(|t| t.parse::<usize>().unwrap());
            let trees = if counted { numbers.next().unwrap() } else { 1 };
            let mut out = String::new();
            for _ in 0..trees {
                let n = numbers.next().unwrap();
                let edges: Vec<(usize, usize)> = (1..n)
                    .map(|_| (numbers.next().unwrap(), numbers.next().unwrap()))
                    .collect();
                out.push_str(if alice_wins(n, &edges) {
                    "Alice\n"
                } else {
                    "Bob\n"
                });
            }
            out
        }
    }

    /// The colon principle, recursively from vertex 1.
    fn colon(n: usize, edges: &[(usize, usize)]) -> bool {
        fn worth(v: usize, from: usize, adjacent: &[Vec<usize>]) -> u64 {
            adjacent[v]
                .iter()
                .filter(|&&w| w != from)
                .fold(0, |x, &w| x ^ (worth(w, v, adjacent) + 1))
        }
        let mut adjacent = vec![Vec::new(); n + 1];
        for &(x, y) in edges {
            adjacent[x].push(y);
            adjacent[y].push(x);
        }
        worth(1, 0, &adjacent) != 0
    }

    fn tree(edges: &[(u32, u32)]) -> Tree {
        Tree {
            n: edges.len() as u32 + 1,
            edges: edges.iter().map(|&(a, b)| (a - 1, b - 1)).collect(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        for family in ["green-hackenbush", "green-hackenbush-multi"] {
            Problem::new(family).assert_sound();
        }
        // Rooted trees on 2..=6 vertices: 1, 2, 4, 9 and 20 shapes; and the single vertex.
        assert_eq!(Hackenbush::AGC_017D.small_games().len(), 36);
        assert_eq!(Hackenbush::HDU_3094.small_games().len(), 37);
    }

    #[test]
    fn the_colon_principle_is_right() {
        Problem::new("green-hackenbush").assert_right(&program(false, colon));
        Problem::new("green-hackenbush-multi").assert_right(&program(true, colon));
    }

    #[test]
    fn edge_parity_is_named_with_a_path_of_two_edges() {
        let odd_edges = |n: usize, _: &[(usize, usize)]| (n - 1) % 2 == 1;
        let found = Problem::new("green-hackenbush")
            .assert_named("hackenbush-edge-parity", &program(false, odd_edges));
        assert_eq!(found.position, "3\n1 2\n2 3\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("Alice", "Bob")
        );
        let found = Problem::new("green-hackenbush-multi")
            .assert_named("hackenbush-edge-parity", &program(true, odd_edges));
        assert_eq!(found.position, "1\n3\n1 2\n2 3\n");
    }

    #[test]
    fn branches_as_stalks_are_named_with_a_forked_branch() {
        // Root 1's branches, each worth its edge count, xored.
        fn stalks(n: usize, edges: &[(usize, usize)]) -> bool {
            fn count(v: usize, from: usize, adjacent: &[Vec<usize>]) -> u64 {
                adjacent[v]
                    .iter()
                    .filter(|&&w| w != from)
                    .map(|&w| 1 + count(w, v, adjacent))
                    .sum()
            }
            let mut adjacent = vec![Vec::new(); n + 1];
            for &(x, y) in edges {
                adjacent[x].push(y);
                adjacent[y].push(x);
            }
            adjacent[1]
                .iter()
                .fold(0, |x, &w| x ^ (1 + count(w, 1, &adjacent)))
                != 0
        }
        for (family, counted) in [
            ("green-hackenbush", false),
            ("green-hackenbush-multi", true),
        ] {
            let found = Problem::new(family)
                .assert_named("hackenbush-branches-as-stalks", &program(counted, stalks));
            // A forked branch of 3 edges is worth 1 (1–2 with 2–3 and 2–4: (1 ⊕ 1) + 1), so
            // beside a branch of one edge it loses, where the stalks say 3 ⊕ 1 ≠ 0.
            assert_eq!(
                (found.expected.as_str(), found.got.as_str()),
                ("Bob", "Alice")
            );
        }
    }

    #[test]
    fn certificates_give_the_root_value_and_a_cut() {
        let agc = &Hackenbush::AGC_017D;
        // The statement's first example: g(3) = g(5) = 0, g(4) = 1, g(2) = 1 ⊕ 2 = 3, and the
        // root is worth 4: deleting 1–2 is the winning move.
        let first = agc.certificate(&tree(&[(1, 2), (2, 3), (2, 4), (4, 5)]));
        assert!(
            first.en.contains("g(1) = (g(2) + 1) = (3 + 1) = 4 ≠ 0"),
            "{}",
            first.en
        );
        assert!(
            first
                .en
                .contains("Deleting the edge 1–2 and everything below 2"),
            "{}",
            first.en
        );
        // Its second example: two branches worth 2 each.
        let second = agc.certificate(&tree(&[(1, 2), (2, 3), (1, 4), (4, 5)]));
        assert!(second.en.starts_with("Bob wins"), "{}", second.en);
        assert!(
            second
                .en
                .contains("(g(2) + 1) ⊕ (g(4) + 1) = (1 + 1) ⊕ (1 + 1) = 2 ⊕ 2 = 0"),
            "{}",
            second.en
        );
        // Branches worth 2 (1–2–4) and 1 (1–3): cutting 2–4 leaves 1 ⊕ 1 = 0.
        let deep = agc.certificate(&tree(&[(1, 2), (1, 3), (2, 4)]));
        assert!(
            deep.en.contains("= (1 + 1) ⊕ (0 + 1) = 2 ⊕ 1 = 3 ≠ 0"),
            "{}",
            deep.en
        );
        assert!(
            deep.en.contains("Deleting the edge 2–4 leaves"),
            "{}",
            deep.en
        );
        assert!(deep.vi.contains("Xóa cạnh 2–4"), "{}", deep.vi);
        let alone = Hackenbush::HDU_3094.certificate(&tree(&[]));
        assert!(
            alone.en.contains("Bob wins: the tree is the root alone"),
            "{}",
            alone.en
        );
    }

    #[test]
    fn winning_cuts_leave_a_tree_worth_nothing() {
        for t in Hackenbush::HDU_3094.small_games() {
            let rooted = Rooted::new(&t);
            let value = rooted.values();
            assert_eq!(value[0], hackenbush::tree_value(t.n as usize, &t.edges));
            match rooted.winning_cut(&value) {
                None => assert_eq!(value[0], 0),
                Some((_, child)) => {
                    let rest = rooted.without_subtree(child);
                    assert_eq!(
                        hackenbush::tree_value(rest.n as usize, &rest.edges),
                        0,
                        "{t:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_largest_trees_shrink_and_explain() {
        let n = MAX_N;
        let path = Tree {
            n,
            edges: (1..n).map(|v| (v - 1, v)).collect(),
        };
        let star = Tree {
            n,
            edges: (1..n).map(|v| (0, v)).collect(),
        };
        // A path of 99 999 edges is worth 99 999: deleting the edge at the root wins.
        assert!(
            Hackenbush::AGC_017D
                .certificate(&path)
                .en
                .contains("Deleting the edge 1–2 ")
        );
        assert!(
            Hackenbush::AGC_017D
                .certificate(&star)
                .en
                .contains("the xor of g(c) + 1 over")
        );
        for t in [path, star] {
            let smaller = Hackenbush::AGC_017D.shrink(&t);
            assert!(!smaller.is_empty() && smaller.len() <= 32);
            assert!(
                smaller
                    .iter()
                    .all(|s| s.n < n && s.edges.len() == s.n as usize - 1)
            );
        }
    }

    #[test]
    fn shrinking_cuts_off_subtrees() {
        // A root with the branches 1–2–4 and 1–3.
        let smaller = Hackenbush::AGC_017D.shrink(&tree(&[(1, 2), (1, 3), (2, 4)]));
        assert_eq!(
            smaller,
            vec![
                tree(&[(1, 2)]),
                tree(&[(1, 2), (2, 3)]),
                tree(&[(1, 2), (1, 3)])
            ]
        );
        assert!(Hackenbush::AGC_017D.shrink(&tree(&[(1, 2)])).is_empty());
        assert_eq!(
            Hackenbush::HDU_3094.shrink(&tree(&[(1, 2)])),
            vec![tree(&[])]
        );
    }

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
