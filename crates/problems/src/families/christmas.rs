//! POJ 3710 "Christmas Game": test cases to the end of the file, each `N` graphs of `m k` and `k`
//! edges; every graph is a tree with rings hung on it, rooted at vertex 1. `Sally` moves first.

use super::christmas_play::ChristmasPlay;
use super::{at_most, lines, push_line, shuffle_rooted, within};
use crate::explain::{Certificate, Explain, LISTED, Misconception, listed, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
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

#[derive(Debug, Clone, PartialEq, Eq)]
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
pub(super) fn decoration(rng: &mut TestRng, max_edges: u32) -> Decoration {
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// One test case on a page: at most 4 decorations and 15 edges in all.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(ChristmasPlay))
    }
}

/// A decoration taken apart by the fusion principle: its rings and the tree that remains.
struct Fused {
    /// Each ring: the vertex it hangs from and its length.
    rings: Vec<(u32, u32)>,
    /// The tree's children of each vertex (ring vertices other than the attachment left out).
    children: Vec<Vec<u32>>,
    /// The tree's vertices, parents before children.
    order: Vec<u32>,
}

impl Fused {
    /// Walks a valid decoration depth first: an edge back to a vertex on the walk closes a ring.
    fn new(d: &Decoration) -> Fused {
        let n = d.vertices as usize;
        let mut adjacent: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n];
        for (id, &(a, b)) in d.edges.iter().enumerate() {
            adjacent[a as usize].push((b, id));
            adjacent[b as usize].push((a, id));
        }
        let mut depth = vec![u32::MAX; n];
        let mut parent = vec![(0u32, usize::MAX); n];
        let mut on_walk = vec![false; n];
        let mut in_ring = vec![false; n];
        let mut rings = Vec::new();
        let mut order = Vec::new();
        let mut stack = vec![(0u32, 0usize)];
        depth[0] = 0;
        on_walk[0] = true;
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            let Some(&(w, id)) = adjacent[v as usize].get(next) else {
                on_walk[v as usize] = false;
                order.push(v);
                stack.pop();
                continue;
            };
            top.1 += 1;
            if id == parent[v as usize].1 {
                continue;
            }
            if depth[w as usize] == u32::MAX {
                depth[w as usize] = depth[v as usize] + 1;
                parent[w as usize] = (v, id);
                on_walk[w as usize] = true;
                stack.push((w, 0));
            } else if on_walk[w as usize] {
                rings.push((w, depth[v as usize] - depth[w as usize] + 1));
                let mut u = v;
                while u != w {
                    in_ring[u as usize] = true;
                    u = parent[u as usize].0;
                }
            }
        }
        // Finishing order reversed: parents before children.
        order.reverse();
        order.retain(|&v| !in_ring[v as usize]);
        let mut children = vec![Vec::new(); n];
        for &v in order.iter().skip(1) {
            children[parent[v as usize].0 as usize].push(v);
        }
        rings.sort_unstable();
        Fused {
            rings,
            children,
            order,
        }
    }

    /// The root's value when a ring of length `l` hanging from a vertex adds `ring(l)` to it,
    /// as a branch would.
    fn value(&self, ring: impl Fn(u32) -> u64) -> u64 {
        self.values(ring)[0]
    }

    /// Every tree vertex's value, as [`Fused::value`] gives the root's.
    fn values(&self, ring: impl Fn(u32) -> u64) -> Vec<u64> {
        let mut value = vec![0u64; self.children.len()];
        for &(at, length) in &self.rings {
            value[at as usize] ^= ring(length);
        }
        for &v in self.order.iter().rev() {
            let below = self.children[v as usize]
                .iter()
                .fold(0, |x, &c| x ^ (value[c as usize] + 1));
            value[v as usize] ^= below;
        }
        value
    }

    /// `g(1) = (g(2) + 1) ⊕ 1 = (0 + 1) ⊕ 1 = 1 ⊕ 1 = 0`: the root's value from its branches
    /// and its odd rings (1-based labels), `None` when there are too many to write out.
    fn root_text(&self) -> Option<String> {
        let value = self.values(|length| u64::from(length % 2));
        let odd_rings = self
            .rings
            .iter()
            .filter(|&&(at, length)| at == 0 && length % 2 == 1)
            .count();
        let children = &self.children[0];
        if children.len() + odd_rings > LISTED {
            return None;
        }
        let mut names: Vec<String> = children
            .iter()
            .map(|&c| format!("(g({}) + 1)", c + 1))
            .collect();
        let mut numbers: Vec<String> = children
            .iter()
            .map(|&c| format!("({} + 1)", value[c as usize]))
            .collect();
        let mut branches: Vec<u64> = children.iter().map(|&c| value[c as usize] + 1).collect();
        for _ in 0..odd_rings {
            names.push("1".to_owned());
            numbers.push("1".to_owned());
            branches.push(1);
        }
        if branches.is_empty() {
            return Some("g(1) = 0".to_owned());
        }
        let sum = nim_sum_text(&branches);
        let (names, numbers) = (names.join(" ⊕ "), numbers.join(" ⊕ "));
        Some(if names == numbers {
            format!("g(1) = {sum}")
        } else {
            format!("g(1) = {names} = {numbers} = {sum}")
        })
    }
}

/// What is left of a decoration when the edge `e` is deleted: the part still hanging from the
/// root, its vertices numbered in their old order.
fn without_edge(d: &Decoration, e: usize) -> Decoration {
    let n = d.vertices as usize;
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for (id, &(a, b)) in d.edges.iter().enumerate() {
            if id != e && reached[a as usize] != reached[b as usize] {
                reached[a as usize] = true;
                reached[b as usize] = true;
                grew = true;
            }
        }
    }
    let mut label = vec![u32::MAX; n];
    let mut vertices = 0;
    for v in 0..n {
        if reached[v] {
            label[v] = vertices;
            vertices += 1;
        }
    }
    let edges = d
        .edges
        .iter()
        .enumerate()
        .filter(|&(id, &(a, _))| id != e && reached[a as usize])
        .map(|(_, &(a, b))| (label[a as usize], label[b as usize]))
        .collect();
    Decoration { vertices, edges }
}

/// Every decoration of at most `max_edges` edges, once per shape (relabelling the vertices
/// other than the root): edges between lower and higher labels, at most two between a pair.
pub(super) fn small_decorations(max_edges: usize) -> Vec<Decoration> {
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for vertices in 1..=max_edges as u32 + 1 {
        let pairs: Vec<(u32, u32)> = (0..vertices)
            .flat_map(|a| (a + 1..vertices).map(move |b| (a, b)))
            .collect();
        // Multiplicities 0, 1 or 2 of each pair, as a number in base 3.
        for code in 0..3usize.pow(pairs.len() as u32) {
            let mut rest = code;
            let mut edges = Vec::new();
            for &pair in &pairs {
                edges.extend(std::iter::repeat_n(pair, rest % 3));
                rest /= 3;
            }
            if edges.len() > max_edges
                || hackenbush::ring_graph_value(vertices as usize, &edges).is_err()
            {
                continue;
            }
            let canonical = relabellings(vertices)
                .iter()
                .map(|label| {
                    let mut relabelled: Vec<(u32, u32)> = edges
                        .iter()
                        .map(|&(a, b)| {
                            let (a, b) = (label[a as usize], label[b as usize]);
                            (a.min(b), a.max(b))
                        })
                        .collect();
                    relabelled.sort_unstable();
                    relabelled
                })
                .min()
                .expect("at least one relabelling");
            if seen.insert((vertices, canonical)) {
                found.push(Decoration { vertices, edges });
            }
        }
    }
    found
}

/// Every numbering of `0..n` that keeps the root 0 in place.
fn relabellings(n: u32) -> Vec<Vec<u32>> {
    let mut all: Vec<Vec<u32>> = vec![vec![0]];
    for v in 1..n {
        all = all
            .iter()
            .flat_map(|label| {
                (1..=label.len()).map(move |at| {
                    let mut more = label.clone();
                    more.insert(at, v);
                    more
                })
            })
            .collect();
    }
    all
}

const PARITY_SWAPPED: Misconception = Misconception {
    id: "christmas-ring-parity-swapped",
    title: "Odd and even rings swapped",
    text: "The program fuses a ring of even length into one edge and a ring of odd length into \
           nothing: the rule the wrong way round. A double edge hanging from the root is a ring \
           of length 2: whoever deletes one of its edges leaves the other to the opponent, so it \
           is worth 0 and Sally loses there. A triangle is worth 1: deleting the edge opposite \
           the root leaves two single edges, worth 1 ⊕ 1 = 0. By the fusion principle an odd \
           ring counts as one edge hanging from its vertex, an even ring as nothing.",
};

const RINGS_AS_PATHS: Misconception = Misconception {
    id: "christmas-rings-as-paths",
    title: "Rings opened into paths",
    text: "The program walks each decoration as a tree and skips the edge that closes a ring, \
           so a ring of length L counts as a path of L − 1 edges. But the closing edge is part \
           of the game: a double edge hanging from the root is worth 0, not 1, since whoever \
           deletes one of its edges leaves the other to the opponent. By the fusion principle a \
           ring fuses into the vertex it hangs from: an odd ring counts as one edge there, an \
           even ring as nothing, and the tree that is left is valued by the colon principle.",
};

impl Explain for ChristmasGame {
    type Game = Vec<Decoration>;

    fn small_games(&self) -> Vec<Vec<Decoration>> {
        // Every decoration of at most four edges alone, and every two of them with four edges
        // between them.
        let decorations = small_decorations(4);
        let mut games: Vec<Vec<Decoration>> = decorations.iter().map(|d| vec![d.clone()]).collect();
        for (i, a) in decorations.iter().enumerate() {
            for b in &decorations[i..] {
                if a.edges.len() + b.edges.len() <= 4 {
                    games.push(vec![a.clone(), b.clone()]);
                }
            }
        }
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Vec<Decoration> {
        let count = rng.random_range(1..=3);
        (0..count)
            .map(|_| {
                let edges = rng.random_range(1..=8);
                decoration(rng, edges)
            })
            .collect()
    }

    fn games_per_input(&self) -> usize {
        MAX_CASES as usize
    }

    fn input_of(&self, games: &[Vec<Decoration>]) -> Input {
        Input {
            cases: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Vec<Decoration>> {
        input.cases.clone()
    }

    fn size(&self, game: &Vec<Decoration>) -> u64 {
        let edges: usize = game.iter().map(|d| d.edges.len()).sum();
        let vertices: u32 = game.iter().map(|d| d.vertices).sum();
        (edges as u64) << 32 | u64::from(vertices) << 16 | game.len() as u64
    }

    fn shrink(&self, game: &Vec<Decoration>) -> Vec<Vec<Decoration>> {
        let mut smaller = Vec::new();
        for (i, d) in game.iter().enumerate() {
            if game.len() > 1 {
                let mut fewer = game.clone();
                fewer.remove(i);
                smaller.push(fewer);
            }
            for e in 0..d.edges.len() {
                let mut cut = game.clone();
                cut[i] = without_edge(d, e);
                smaller.push(cut);
            }
        }
        smaller.sort_by_key(|g| self.size(g));
        let mut seen = std::collections::HashSet::new();
        smaller.retain(|g| seen.insert(format!("{g:?}")));
        smaller
    }

    fn certificate(&self, game: &Vec<Decoration>) -> Certificate {
        if game.iter().all(|d| d.edges.is_empty()) {
            return Certificate {
                en: "Harry wins: no decoration has an edge, so Sally cannot move.".to_owned(),
                vi: "Harry thắng: không món đồ nào có cạnh, nên Sally không đi được.".to_owned(),
            };
        }
        let values: Vec<u64> = game.iter().map(value).collect();
        let sum = values.iter().fold(0, |x, v| x ^ v);
        let worth: Vec<(String, String)> = game
            .iter()
            .zip(&values)
            .enumerate()
            .map(|(i, (d, v))| {
                let k = d.edges.len();
                let edges_en = if k == 1 {
                    "1 edge".to_owned()
                } else {
                    format!("{k} edges")
                };
                let fused = Fused::new(d);
                let rings = &fused.rings;
                let (rings_en, rings_vi) = if rings.is_empty() {
                    (String::new(), String::new())
                } else {
                    let each = |en: bool| {
                        listed(
                            rings.iter().map(|&(at, length)| {
                                let into = match (en, length % 2 == 1) {
                                    (true, true) => "one edge",
                                    (true, false) => "nothing",
                                    (false, true) => "một cạnh",
                                    (false, false) => "không có gì",
                                };
                                if en {
                                    format!("the ring of length {length} at {} → {into}", at + 1)
                                } else {
                                    format!("vòng độ dài {length} tại {} → {into}", at + 1)
                                }
                            }),
                            ", ",
                        )
                    };
                    (format!("; {}", each(true)), format!("; {}", each(false)))
                };
                let root = fused.root_text().unwrap_or_else(|| v.to_string());
                (
                    format!(
                        "decoration {} ({edges_en}{rings_en}) is worth {root}",
                        i + 1
                    ),
                    format!("món {} ({k} cạnh{rings_vi}) có giá trị {root}", i + 1),
                )
            })
            .collect();
        let worth_en = listed(worth.iter().map(|(en, _)| en.clone()), "; ");
        let worth_vi = listed(worth.iter().map(|(_, vi)| vi.clone()), "; ");
        let rule_en = format!(
            "By the fusion principle a ring fuses into the vertex it hangs from: a ring of odd \
             length counts as one edge hanging there, a ring of even length (a double edge too) \
             as nothing. What is left is a tree, worth by the colon principle the xor, over the \
             root's children, of the child's value plus one (a leaf is worth 0); the decorations \
             add up as in Nim. Here {worth_en}. The nim-sum is {}",
            nim_sum_text(&values)
        );
        let rule_vi = format!(
            "Theo nguyên lý hợp nhất (fusion principle), một vòng được thu về đỉnh mà nó treo \
             vào: vòng có độ dài lẻ tính như một cạnh treo ở đỉnh đó, vòng có độ dài chẵn (kể cả \
             cạnh đôi) coi như không có gì. Phần còn lại là một cây, có giá trị theo nguyên lý \
             dấu hai chấm (colon principle): xor, trên các con của gốc, của giá trị đỉnh con cộng \
             một (lá có giá trị 0); các món đồ cộng lại như trong Nim. Ở đây {worth_vi}. Tổng \
             nim là {}",
            nim_sum_text(&values)
        );
        if sum == 0 {
            return Certificate {
                en: format!(
                    "Harry wins. {rule_en}. Every deletion changes the value of the decoration \
                     it is made in, so Sally leaves a non-zero nim-sum, and Harry can always \
                     bring it back to 0, until Sally has no edge left."
                ),
                vi: format!(
                    "Harry thắng. {rule_vi}. Mỗi lần xoá cạnh đều thay đổi giá trị của món đồ \
                     chứa nó, nên Sally để lại tổng nim khác 0, và Harry luôn đưa được tổng nim \
                     về 0, cho đến khi Sally không còn cạnh nào để xoá."
                ),
            };
        }
        let (i, e, left) = game
            .iter()
            .zip(&values)
            .enumerate()
            .filter(|&(_, (_, &v))| v ^ sum < v)
            .find_map(|(i, (d, &v))| {
                (0..d.edges.len()).find_map(|e| {
                    let left = value(&without_edge(d, e));
                    (left == v ^ sum).then_some((i, e, left))
                })
            })
            .expect("a decoration worth v can be cut to any smaller value");
        let (a, b) = game[i].edges[e];
        let mut after = values.clone();
        after[i] = left;
        let after = nim_sum_text(&after);
        let (a, b, i) = (a + 1, b + 1, i + 1);
        Certificate {
            en: format!(
                "Sally wins. {rule_en} ≠ 0. Deleting the edge {a}–{b} of decoration {i} leaves \
                 it worth {left} and the nim-sum {after}: lost for Harry, since every deletion \
                 changes one decoration's value and Sally can bring the nim-sum back to 0."
            ),
            vi: format!(
                "Sally thắng. {rule_vi} ≠ 0. Xoá cạnh {a}–{b} của món {i} làm món đó còn giá \
                 trị {left} và tổng nim là {after}: thế thua cho Harry, vì mỗi lần xoá cạnh \
                 thay đổi giá trị của đúng một món và Sally lại đưa được tổng nim về 0."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[PARITY_SWAPPED, RINGS_AS_PATHS]
    }

    fn misconceived(&self, id: &str, game: &Vec<Decoration>) -> Option<String> {
        let ring: fn(u32) -> u64 = match id {
            "christmas-ring-parity-swapped" => |length| u64::from(1 - length % 2),
            "christmas-rings-as-paths" => |length| u64::from(length - 1),
            _ => return None,
        };
        let sum = game.iter().fold(0, |x, d| x ^ Fused::new(d).value(ring));
        Some(word(sum != 0).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;
    use std::collections::HashMap;

    type Decorations = [(usize, Vec<(usize, usize)>)];

    /// A program for the whole input: each case's decorations (vertex count and 0-based edges)
    /// answered by `sally_wins`.
    fn program(sally_wins: fn(&Decorations) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut numbers = input
                .split_whitespace()
                .map(|t| t.parse::<usize>().unwrap())
                .peekable();
            let mut out = String::new();
            while numbers.peek().is_some() {
                let count = numbers.next().unwrap();
                let decorations: Vec<(usize, Vec<(usize, usize)>)> = (0..count)
                    .map(|_| {
                        let (m, k) = (numbers.next().unwrap(), numbers.next().unwrap());
                        let edges = (0..k)
                            .map(|_| (numbers.next().unwrap() - 1, numbers.next().unwrap() - 1))
                            .collect();
                        (m, edges)
                    })
                    .collect();
                out.push_str(if sally_wins(&decorations) {
                    "Sally\n"
                } else {
                    "Harry\n"
                });
            }
            out
        }
    }

    /// A decoration's value from the game itself: the edges left as a bit mask, each deletion
    /// followed by dropping what no longer hangs from the root.
    fn by_game_tree(m: usize, edges: &[(usize, usize)]) -> u64 {
        fn grundy(
            mask: u32,
            m: usize,
            edges: &[(usize, usize)],
            memo: &mut HashMap<u32, u64>,
        ) -> u64 {
            if let Some(&known) = memo.get(&mask) {
                return known;
            }
            let hanging = |mask: u32| -> u32 {
                let mut reached = vec![false; m];
                reached[0] = true;
                let mut kept = 0u32;
                loop {
                    let before = kept;
                    for (i, &(a, b)) in edges.iter().enumerate() {
                        if mask >> i & 1 == 1 && (reached[a] || reached[b]) {
                            reached[a] = true;
                            reached[b] = true;
                            kept |= 1 << i;
                        }
                    }
                    if kept == before {
                        return kept;
                    }
                }
            };
            let reached: Vec<u64> = (0..edges.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| grundy(hanging(mask & !(1 << i)), m, edges, memo))
                .collect();
            let mex = (0..).find(|g| !reached.contains(g)).unwrap();
            memo.insert(mask, mex);
            mex
        }
        grundy((1u32 << edges.len()) - 1, m, edges, &mut HashMap::new())
    }

    fn game_tree(decorations: &Decorations) -> bool {
        decorations
            .iter()
            .fold(0, |x, (m, edges)| x ^ by_game_tree(*m, edges))
            != 0
    }

    /// The decorations' values when a ring of length `l` adds `ring(l)` to the vertex it hangs
    /// from: a depth-first walk finds a ring when an edge leads back to a vertex above.
    fn rings_worth(decorations: &Decorations, ring: fn(usize) -> u64) -> bool {
        struct Walk<'a> {
            adjacent: Vec<Vec<(usize, usize)>>,
            depth: Vec<usize>,
            from_rings: Vec<u64>,
            ring: &'a dyn Fn(usize) -> u64,
        }
        /// The value below `v` and, when `v` lies on a ring, the depth of its attachment.
        fn walk(v: usize, via: usize, w: &mut Walk) -> (u64, Option<usize>) {
            let (mut value, mut on_ring) = (0, None);
            for (u, id) in w.adjacent[v].clone() {
                if id == via {
                    continue;
                }
                if w.depth[u] == usize::MAX {
                    w.depth[u] = w.depth[v] + 1;
                    match walk(u, id, w) {
                        (_, Some(top)) if top == w.depth[v] => {}
                        (_, Some(top)) => on_ring = Some(top),
                        (below, None) => value ^= below + 1,
                    }
                } else if w.depth[u] < w.depth[v] {
                    w.from_rings[u] ^= (w.ring)(w.depth[v] - w.depth[u] + 1);
                    on_ring = Some(w.depth[u]);
                }
            }
            (value ^ w.from_rings[v], on_ring)
        }
        let mut sum = 0;
        for (m, edges) in decorations {
            let mut adjacent = vec![Vec::new(); *m];
            for (id, &(a, b)) in edges.iter().enumerate() {
                adjacent[a].push((b, id));
                adjacent[b].push((a, id));
            }
            let mut depth = vec![usize::MAX; *m];
            depth[0] = 0;
            let mut w = Walk {
                adjacent,
                depth,
                from_rings: vec![0; *m],
                ring: &ring,
            };
            sum ^= walk(0, usize::MAX, &mut w).0;
        }
        sum != 0
    }

    /// Each decoration walked as a tree, an edge to a vertex already seen skipped.
    fn as_trees(decorations: &Decorations) -> bool {
        fn walk(v: usize, adjacent: &[Vec<usize>], seen: &mut [bool]) -> u64 {
            seen[v] = true;
            let mut value = 0;
            for &u in &adjacent[v] {
                if !seen[u] {
                    value ^= walk(u, adjacent, seen) + 1;
                }
            }
            value
        }
        let mut sum = 0;
        for (m, edges) in decorations {
            let mut adjacent = vec![Vec::new(); *m];
            for &(a, b) in edges {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
            sum ^= walk(0, &adjacent, &mut vec![false; *m]);
        }
        sum != 0
    }

    fn decoration(vertices: u32, edges: &[(u32, u32)]) -> Decoration {
        Decoration {
            vertices,
            edges: edges.iter().map(|&(a, b)| (a - 1, b - 1)).collect(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("christmas-game").assert_sound();
        // Rooted shapes of at most four edges: 1 without edges, 1 with one, 3 with two (a path,
        // two leaves, a double edge)…
        let shapes = small_decorations(4);
        let with = |k: usize| shapes.iter().filter(|d| d.edges.len() == k).count();
        assert_eq!((with(0), with(1), with(2)), (1, 1, 3));
    }

    #[test]
    fn right_programs_get_nothing() {
        let problem = Problem::new("christmas-game");
        problem.assert_right(&program(game_tree));
        problem.assert_right(&program(|d| rings_worth(d, |l| (l % 2) as u64)));
    }

    #[test]
    fn swapped_parity_is_named_with_a_double_edge() {
        let found = Problem::new("christmas-game").assert_named(
            "christmas-ring-parity-swapped",
            &program(|d| rings_worth(d, |l| (1 - l % 2) as u64)),
        );
        assert_eq!(found.position, "1\n2 2\n1 2\n1 2\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("Harry", "Sally")
        );
    }

    #[test]
    fn rings_as_paths_are_named_with_a_double_edge() {
        let found = Problem::new("christmas-game")
            .assert_named("christmas-rings-as-paths", &program(as_trees));
        assert_eq!(found.position, "1\n2 2\n1 2\n1 2\n");
    }

    #[test]
    fn certificates_fuse_the_rings_and_name_a_deletion() {
        // The statement's example: a single edge, and 1–2 with the triangle 2–3–4 at 2.
        let sample = vec![
            decoration(2, &[(1, 2)]),
            decoration(4, &[(1, 2), (2, 3), (2, 4), (3, 4)]),
        ];
        let win = ChristmasGame.certificate(&sample);
        for part in [
            "Sally wins.",
            "decoration 1 (1 edge) is worth g(1) = (g(2) + 1) = (0 + 1) = 1",
            "decoration 2 (4 edges; the ring of length 3 at 2 → one edge) is worth g(1) = \
             (g(2) + 1) = (1 + 1) = 2",
            "The nim-sum is 1 ⊕ 2 = 3 ≠ 0",
            "Deleting the edge 3–4 of decoration 2 leaves it worth 1 and the nim-sum 1 ⊕ 1 = 0",
        ] {
            assert!(win.en.contains(part), "{part}: {}", win.en);
        }
        assert!(win.vi.contains("Xoá cạnh 3–4 của món 2"), "{}", win.vi);
        let double = ChristmasGame.certificate(&vec![decoration(2, &[(1, 2), (1, 2)])]);
        assert!(double.en.starts_with("Harry wins."), "{}", double.en);
        assert!(
            double.en.contains(
                "decoration 1 (2 edges; the ring of length 2 at 1 → nothing) is worth g(1) = 0"
            ),
            "{}",
            double.en
        );
        // A triangle and a single edge at the root: the ring counts as the edge 1.
        let mixed =
            ChristmasGame.certificate(&vec![decoration(4, &[(1, 2), (2, 3), (3, 1), (1, 4)])]);
        assert!(
            mixed
                .en
                .contains("is worth g(1) = (g(4) + 1) ⊕ 1 = (0 + 1) ⊕ 1 = 1 ⊕ 1 = 0"),
            "{}",
            mixed.en
        );
        let bare = ChristmasGame.certificate(&vec![decoration(1, &[])]);
        assert!(bare.en.contains("Sally cannot move"), "{}", bare.en);
    }

    #[test]
    fn deletions_named_leave_lost_cases() {
        for game in ChristmasGame.small_games() {
            let certificate = ChristmasGame.certificate(&game);
            let Some(rest) = certificate.en.split("Deleting the edge ").nth(1) else {
                assert_eq!(ChristmasGame.answer(&game), "Harry");
                continue;
            };
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (a, b) = words[0].split_once('–').unwrap();
            let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
            let i: usize = words[3].parse().unwrap();
            let e = game[i - 1]
                .edges
                .iter()
                .position(|&edge| edge == (a - 1, b - 1))
                .unwrap();
            let mut after = game.clone();
            after[i - 1] = without_edge(&game[i - 1], e);
            assert_eq!(ChristmasGame.answer(&after), "Harry", "{game:?}");
        }
    }

    #[test]
    fn fusion_agrees_with_the_reference_value() {
        let mut rng = <TestRng as rand::SeedableRng>::seed_from_u64(3);
        let mut decorations = small_decorations(4);
        decorations.extend((0..200).map(|_| super::decoration(&mut rng, 12)));
        for d in decorations {
            assert_eq!(
                Fused::new(&d).value(|l| u64::from(l % 2)),
                value(&d),
                "{d:?}"
            );
        }
    }

    #[test]
    fn shrinking_drops_a_decoration_or_deletes_an_edge() {
        let single = decoration(2, &[(1, 2)]);
        let double = decoration(2, &[(1, 2), (1, 2)]);
        let bare = decoration(1, &[]);
        assert_eq!(
            ChristmasGame.shrink(&vec![single.clone(), double.clone()]),
            vec![
                vec![single.clone()],
                vec![double.clone()],
                vec![bare, double],
                vec![single.clone(), single],
            ]
        );
    }

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
