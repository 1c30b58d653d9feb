//! The DAG game (seed 000): `n m`, then `m` edges `u v`; count the winning start vertices.

use super::dag_play::DagPlay;
use super::{
    at_most, edge_on_a_cycle, push_line, random_forward_edges, read_edges, small_dags, within,
};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::Outcome;
use grundy_games::graph::{self, Graph};
use rand::RngExt;
use rand::seq::SliceRandom;
use serde::Deserialize;

pub struct DagGame;

const MAX_N: u32 = 1_000_000;
const MAX_M: u32 = 1_000_000;

/// Vertices are 0-based here and 1-based in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// A coin on a DAG on a page: the interactive problem's game, from any start vertex.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(DagPlay))
    }
}

/// Every ordering of `0..n`.
fn permutations(n: u32) -> Vec<Vec<u32>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for shorter in permutations(n - 1) {
        for at in 0..n as usize {
            let mut order = shorter.clone();
            order.insert(at, n - 1);
            all.push(order);
        }
    }
    all
}

/// Every DAG on one to `max_n` vertices up to relabelling, fewest vertices first, each once: the
/// first of its class among the graphs whose edges go from lower to higher labels (0-based).
pub(super) fn dag_classes(max_n: u32) -> Vec<(u32, Vec<(u32, u32)>)> {
    let mut classes = Vec::new();
    for n in 1..=max_n {
        let orders = permutations(n);
        let pairs: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .collect();
        let mut seen = std::collections::HashSet::new();
        for mask in 0u32..1 << pairs.len() {
            let edges: Vec<(u32, u32)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            let canonical = orders
                .iter()
                .map(|order| {
                    let mut relabelled: Vec<(u32, u32)> = edges
                        .iter()
                        .map(|&(u, v)| (order[u as usize], order[v as usize]))
                        .collect();
                    relabelled.sort_unstable();
                    relabelled
                })
                .min()
                .expect("n ≥ 1 has an ordering");
            if seen.insert(canonical) {
                classes.push((n, edges));
            }
        }
    }
    classes
}

/// The edges without those at vertex `v`, the labels above it moved down by one.
pub(super) fn without_vertex(edges: &[(u32, u32)], v: u32) -> Vec<(u32, u32)> {
    let label = |u: u32| if u > v { u - 1 } else { u };
    edges
        .iter()
        .filter(|&&(a, b)| a != v && b != v)
        .map(|&(a, b)| (label(a), label(b)))
        .collect()
}

/// A vertex's successors, each once, ascending.
pub(super) fn distinct_successors(graph: &Graph, v: u32) -> Vec<u32> {
    let mut next = graph.successors(v).to_vec();
    next.sort_unstable();
    next.dedup();
    next
}

/// Each vertex's longest (or shortest) way to a vertex without outgoing edges, in edges.
fn way_out(graph: &Graph, longest: bool) -> Vec<u32> {
    let order = graph::topological_order(graph).expect("validated acyclic");
    let mut length = vec![0u32; graph.vertex_count()];
    for &v in order.iter().rev() {
        let next = graph.successors(v).iter().map(|&w| length[w as usize]);
        if let Some(best) = if longest { next.max() } else { next.min() } {
            length[v as usize] = best + 1;
        }
    }
    length
}

/// Games on small graphs as one graph or a few: the games side by side, each graph once (a game
/// on the graph just added shares it) with its tokens moved to where the graph went. A graph
/// starts a new group when the group would pass `max_n` vertices, `max_edges` edges or
/// `max_queries` games.
#[derive(Debug, Default)]
pub(super) struct SideBySide {
    pub n: u32,
    pub edges: Vec<(u32, u32)>,
    pub queries: Vec<Vec<u32>>,
}

pub(super) fn side_by_side<'a>(
    games: impl IntoIterator<Item = (u32, &'a [(u32, u32)], &'a [u32])>,
    max_n: u32,
    max_edges: usize,
    max_queries: usize,
) -> Vec<SideBySide> {
    /// The last graph added and where its vertices start.
    struct Added<'a> {
        n: u32,
        edges: &'a [(u32, u32)],
        at: u32,
    }
    let mut groups: Vec<SideBySide> = Vec::new();
    let mut last: Option<Added<'a>> = None;
    for (n, edges, tokens) in games {
        let shared = last
            .as_ref()
            .filter(|added| added.edges == edges && added.n == n)
            .map(|added| added.at);
        let group = groups.last_mut().filter(|g| {
            g.queries.len() < max_queries
                && (shared.is_some()
                    || g.n + n <= max_n && g.edges.len() + edges.len() <= max_edges)
        });
        let (group, shared) = match group {
            Some(group) => (group, shared),
            None => {
                groups.push(SideBySide::default());
                (groups.last_mut().expect("just pushed"), None)
            }
        };
        let at = shared.unwrap_or_else(|| {
            let at = group.n;
            group.n += n;
            group
                .edges
                .extend(edges.iter().map(|&(u, v)| (u + at, v + at)));
            at
        });
        group.queries.push(tokens.iter().map(|&t| t + at).collect());
        last = Some(Added { n, edges, at });
    }
    groups
}

const LONGEST_PATH: Misconception = Misconception {
    id: "dag-longest-path-parity",
    title: "The parity of the longest path",
    text: "The program calls a start vertex winning when the longest path from it has an odd \
           number of edges, as if the game always went on as long as it can. But the player to \
           move chooses where the coin goes: with the edges 1 → 2, 2 → 3 and 1 → 3 the longest \
           path from 1 has two edges, yet Lan moves straight to 3 and Minh cannot move. A vertex \
           is winning exactly when some edge leads to a losing vertex (a vertex without outgoing \
           edges is losing), decided from the dead ends backwards.",
};

const SHORTEST_PATH: Misconception = Misconception {
    id: "dag-shortest-path-parity",
    title: "The parity of the shortest way to a dead end",
    text: "The program calls a start vertex winning when the nearest vertex without outgoing \
           edges is an odd number of edges away, as if both players raced to the closest dead \
           end. The player who would lose that race goes another way: with the edges 1 → 2, \
           1 → 3, 2 → 3 and 3 → 4, vertex 1 is two edges from the dead end 4, yet Lan moves to \
           2, Minh must go on to 3, and Lan reaches 4. A vertex is winning exactly when some \
           edge leads to a losing vertex (a vertex without outgoing edges is losing), decided \
           from the dead ends backwards.",
};

impl Explain for DagGame {
    type Game = Input;

    fn small_games(&self) -> Vec<Input> {
        // Every DAG on up to four vertices, once per shape: 1 + 2 + 6 + 31 games, each its own
        // run, within the search's budget.
        let mut games: Vec<Input> = dag_classes(4)
            .into_iter()
            .map(|(n, edges)| Input { n, edges })
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Input {
        let n = rng.random_range(1..=8);
        let m = rng.random_range(0..=2 * n);
        let edges = random_forward_edges(rng, n, m, 3);
        shuffled(rng, n, edges)
    }

    fn games_per_input(&self) -> usize {
        1
    }

    fn input_of(&self, games: &[Input]) -> Input {
        games.first().expect("one game").clone()
    }

    fn games_of(&self, input: &Input) -> Vec<Input> {
        vec![input.clone()]
    }

    fn size(&self, game: &Input) -> u64 {
        u64::from(game.n) << 32 | game.edges.len() as u64
    }

    fn shrink(&self, game: &Input) -> Vec<Input> {
        let mut smaller = Vec::new();
        if game.n > 1 {
            smaller.extend((0..game.n).map(|v| Input {
                n: game.n - 1,
                edges: without_vertex(&game.edges, v),
            }));
        }
        for i in 0..game.edges.len() {
            let mut fewer = game.clone();
            fewer.edges.remove(i);
            smaller.push(fewer);
        }
        smaller.sort_by(|a, b| (self.size(a), &a.edges).cmp(&(self.size(b), &b.edges)));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Input) -> Certificate {
        let graph = Graph::from_edges(game.n as usize, &game.edges);
        let outcome = graph::outcomes(&graph);
        let order = graph::topological_order(&graph).expect("validated acyclic");
        let won: Vec<u32> = (0..game.n)
            .filter(|&v| outcome[v as usize] == Outcome::Win)
            .collect();
        let labels = |vertices: &[u32]| listed(vertices.iter().map(|v| (v + 1).to_string()), ", ");
        // Each vertex's label, dead ends first, with the reason in each language.
        let steps: Vec<(String, String)> = order
            .iter()
            .rev()
            .take(crate::explain::LISTED + 1)
            .map(|&v| {
                let label = v + 1;
                let next = distinct_successors(&graph, v);
                if next.is_empty() {
                    (
                        format!("{label} has no outgoing edge, so it is lost"),
                        format!("{label} không có cạnh đi ra nên thua"),
                    )
                } else if outcome[v as usize] == Outcome::Win {
                    let to = next
                        .iter()
                        .find(|&&w| outcome[w as usize] == Outcome::Lose)
                        .expect("a won vertex has a lost successor")
                        + 1;
                    (
                        format!("{label} → {to} reaches a lost vertex, so {label} is won"),
                        format!("{label} → {to} tới một đỉnh thua nên {label} thắng"),
                    )
                } else {
                    let to = labels(&next);
                    (
                        format!(
                            "every edge from {label} leads to a won vertex ({to}), so {label} \
                             is lost"
                        ),
                        format!("mọi cạnh từ {label} đều tới đỉnh thắng ({to}) nên {label} thua"),
                    )
                }
            })
            .collect();
        let steps_en = listed(steps.iter().map(|(en, _)| en.clone()), "; ");
        let steps_vi = listed(steps.iter().map(|(_, vi)| vi.clone()), "; ");
        let (answer_en, answer_vi) = if won.is_empty() {
            (
                "The answer is 0: Lan wins from no start vertex.".to_owned(),
                "Đáp án là 0: không có đỉnh xuất phát nào mà Lan thắng.".to_owned(),
            )
        } else {
            (
                format!(
                    "The answer is {}: Lan wins when the coin starts on {}.",
                    won.len(),
                    labels(&won)
                ),
                format!(
                    "Đáp án là {}: Lan thắng khi đồng xu bắt đầu ở {}.",
                    won.len(),
                    labels(&won)
                ),
            )
        };
        Certificate {
            en: format!(
                "{answer_en} A vertex without outgoing edges is lost for the player to move; a \
                 vertex is won when some edge leads to a lost vertex, and lost when every edge \
                 leads to a won one. Working back from the dead ends: {steps_en}."
            ),
            vi: format!(
                "{answer_vi} Đỉnh không có cạnh đi ra là đỉnh thua cho người phải đi; một đỉnh \
                 là đỉnh thắng khi có cạnh tới một đỉnh thua, và là đỉnh thua khi mọi cạnh đều \
                 tới đỉnh thắng. Xét ngược từ các đỉnh không có cạnh đi ra: {steps_vi}."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[LONGEST_PATH, SHORTEST_PATH]
    }

    fn misconceived(&self, id: &str, game: &Input) -> Option<String> {
        let longest = match id {
            "dag-longest-path-parity" => true,
            "dag-shortest-path-parity" => false,
            _ => return None,
        };
        let graph = Graph::from_edges(game.n as usize, &game.edges);
        let odd = way_out(&graph, longest)
            .iter()
            .filter(|&&l| l % 2 == 1)
            .count();
        Some(odd.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;

    /// A program for `n m` and the edges, answering the count of vertices `wins` says win
    /// from, given every vertex's successors (0-based).
    fn program(wins: fn(&[Vec<usize>]) -> Vec<bool>) -> impl Fn(&str) -> String {
        move |input: &str| {
            let numbers: Vec<usize> = input
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let mut next = vec![Vec::new(); numbers[0]];
            for edge in numbers[2..].chunks(2) {
                next[edge[0] - 1].push(edge[1] - 1);
            }
            let count = wins(&next).iter().filter(|&&w| w).count();
            format!("{count}\n")
        }
    }

    /// The definition: a vertex wins iff some successor loses, by memoised recursion.
    fn by_definition(next: &[Vec<usize>]) -> Vec<bool> {
        fn wins(v: usize, next: &[Vec<usize>], memo: &mut [Option<bool>]) -> bool {
            if let Some(known) = memo[v] {
                return known;
            }
            let win = next[v].iter().any(|&w| !wins(w, next, memo));
            memo[v] = Some(win);
            win
        }
        let mut memo = vec![None; next.len()];
        (0..next.len()).map(|v| wins(v, next, &mut memo)).collect()
    }

    /// Each vertex's longest (or shortest) number of edges to a dead end, odd or not.
    fn odd_way(next: &[Vec<usize>], longest: bool) -> Vec<bool> {
        fn length(v: usize, next: &[Vec<usize>], longest: bool) -> usize {
            let lengths = next[v].iter().map(|&w| 1 + length(w, next, longest));
            if longest {
                lengths.max()
            } else {
                lengths.min()
            }
            .unwrap_or(0)
        }
        (0..next.len())
            .map(|v| length(v, next, longest) % 2 == 1)
            .collect()
    }

    fn dag(n: u32, edges: &[(u32, u32)]) -> Input {
        Input {
            n,
            edges: edges.iter().map(|&(u, v)| (u - 1, v - 1)).collect(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("dag-game").assert_sound();
        // DAGs up to relabelling on one to four vertices.
        let shapes: Vec<u32> = (1..=4)
            .map(|n| dag_classes(4).iter().filter(|(m, _)| *m == n).count() as u32)
            .collect();
        assert_eq!(shapes, [1, 2, 6, 31]);
    }

    #[test]
    fn the_definition_is_right() {
        Problem::new("dag-game").assert_right(&program(by_definition));
    }

    #[test]
    fn the_longest_path_is_named_with_a_shortcut() {
        let found = Problem::new("dag-game").assert_named(
            "dag-longest-path-parity",
            &program(|next| odd_way(next, true)),
        );
        // 1 → 2 → 3 with the shortcut 1 → 3: 1 and 2 win, but the longest path from 1 is even.
        assert_eq!(found.position, "3 3\n1 2\n1 3\n2 3\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("2", "1"));
    }

    #[test]
    fn the_shortest_way_is_named_with_a_detour() {
        let found = Problem::new("dag-game").assert_named(
            "dag-shortest-path-parity",
            &program(|next| odd_way(next, false)),
        );
        // Four vertices: the smallest graph where some vertex wins by the longer way.
        assert_eq!(
            Problem::new("dag-game").explainer().size(&found.position),
            4 << 32 | 4
        );
        assert_ne!(found.expected, found.got);
    }

    #[test]
    fn certificates_work_back_from_the_dead_ends() {
        // The statement's example: 2 → 1, 4 → 3, 6 → 2, 6 → 4, 5 → 6, 5 → 2.
        let sample = dag(6, &[(2, 1), (4, 3), (6, 2), (6, 4), (5, 6), (5, 2)]);
        let c = DagGame.certificate(&sample);
        assert!(
            c.en.starts_with("The answer is 3: Lan wins when the coin starts on 2, 4, 5."),
            "{}",
            c.en
        );
        assert!(
            c.en.contains("every edge from 6 leads to a won vertex (2, 4), so 6 is lost"),
            "{}",
            c.en
        );
        assert!(
            c.en.contains("5 → 6 reaches a lost vertex, so 5 is won"),
            "{}",
            c.en
        );
        assert!(
            c.en.contains("1 has no outgoing edge, so it is lost"),
            "{}",
            c.en
        );
        assert!(
            c.vi.contains("mọi cạnh từ 6 đều tới đỉnh thắng (2, 4) nên 6 thua"),
            "{}",
            c.vi
        );
        let alone = DagGame.certificate(&dag(2, &[]));
        assert!(
            alone
                .en
                .starts_with("The answer is 0: Lan wins from no start vertex."),
            "{}",
            alone.en
        );
        // A path of 20 vertices: only the first steps back from its end are written out.
        let path = dag(20, &(1..20).map(|v| (v, v + 1)).collect::<Vec<_>>());
        let long = DagGame.certificate(&path);
        assert!(long.en.starts_with("The answer is 10:"), "{}", long.en);
        assert!(long.en.ends_with("; …."), "{}", long.en);
    }

    #[test]
    fn shrinking_removes_a_vertex_or_an_edge() {
        let smaller = DagGame.shrink(&dag(3, &[(1, 2), (2, 3)]));
        assert_eq!(
            smaller,
            vec![
                dag(2, &[]),
                dag(2, &[(1, 2)]),
                dag(3, &[(1, 2)]),
                dag(3, &[(2, 3)]),
            ]
        );
        assert!(DagGame.shrink(&dag(1, &[])).is_empty());
    }

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
