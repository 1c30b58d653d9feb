//! POJ 2425 "A Chess Game": test cases to the end of the file, separated by one empty line; each
//! is a DAG given by children lists, then token queries ended by `0`. Sprague–Grundy sum.

use super::dag_chess_play::DagChessPlay;
use super::dag_game::{dag_classes, distinct_successors, side_by_side, without_vertex};
use super::{at_most, first_duplicate, lines, push_line, random_forward_edges, small_dags, within};
use crate::explain::{Certificate, Explain, LISTED, Misconception, listed, nim_sum_text};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
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
    Graph::from_edges(case.children.len(), &edges_of(&case.children))
}

pub(super) fn edges_of(children: &[Vec<u32>]) -> Vec<(u32, u32)> {
    children
        .iter()
        .enumerate()
        .flat_map(|(v, cs)| cs.iter().map(move |&c| (v as u32, c)))
        .collect()
}

pub(super) fn children_of(n: u32, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let mut children = vec![Vec::new(); n as usize];
    for &(u, v) in edges {
        children[u as usize].push(v);
    }
    children
}

/// A test case's graph: the line `N` (at most `max_n`), then vertex i's children `k c_1 … c_k`
/// for each i; refused when a vertex lists itself or a child twice, or when the graph has a
/// directed cycle.
pub(super) fn read_children(
    reader: &mut StrictReader<'_>,
    max_n: u32,
) -> Result<Vec<Vec<u32>>, ValidationError> {
    let n: u32 = reader.single("N", 1..=max_n)?;
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
    if let Some(cycle) = graph::find_cycle(&Graph::from_edges(n as usize, &edges_of(&children))) {
        return Err(ValidationError::new(
            first_line + cycle[0] as usize,
            format!(
                "vertex {} lies on a directed cycle (the graph must be acyclic)",
                cycle[0]
            ),
        ));
    }
    Ok(children)
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
            let children = read_children(&mut reader, MAX_N)?;
            let n = children.len() as u32;
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// One graph and one query on a page: at most 20 vertices and 10 tokens.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(DagChessPlay))
    }
}

/// One query with its test case's graph: the game an answer line is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub children: Vec<Vec<u32>>,
    pub tokens: Vec<u32>,
}

impl Position {
    fn graph(&self) -> Graph {
        Graph::from_edges(self.children.len(), &edges_of(&self.children))
    }
}

/// Every non-empty multiset of at most `count` tokens on `0..n`, ascending.
pub(super) fn token_multisets(n: u32, count: usize) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    let mut layer: Vec<Vec<u32>> = vec![Vec::new()];
    for _ in 0..count {
        layer = layer
            .iter()
            .flat_map(|tokens| {
                let from = tokens.last().copied().unwrap_or(0);
                (from..n).map(move |t| {
                    let mut more = tokens.clone();
                    more.push(t);
                    more
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

const XOR_OF_OUTCOMES: Misconception = Misconception {
    id: "dag-chess-xor-of-outcomes",
    title: "Win and lose instead of values",
    text: "The program finds which vertices are winning for a token alone and combines the \
           tokens by the xor of win = 1 and lose = 0. Two winning tokens do not cancel in \
           general: a vertex with edges to a losing and to a winning vertex is worth 2, one with \
           an edge to a losing vertex only is worth 1, and tokens on both (2 ⊕ 1 = 3) are a win \
           for the first player. Each vertex needs its Sprague–Grundy value, the mex of its \
           successors' values, and the first player wins iff the xor of the tokens' values is \
           not 0.",
};

const ANY_WINNING_TOKEN: Misconception = Misconception {
    id: "dag-chess-any-winning-token",
    title: "A winning token wins the game",
    text: "The program answers WIN whenever some token stands on a vertex that wins for a token \
           alone. But with two tokens on such a vertex the second player copies every move with \
           the other token and makes the last move. Tokens add up as a Nim sum: each vertex has \
           a Sprague–Grundy value, the mex of its successors' values, and the first player wins \
           iff the xor of the tokens' values is not 0.",
};

impl Explain for DagChess {
    type Game = Position;

    fn small_games(&self) -> Vec<Position> {
        // Every DAG on up to four vertices, once per shape, with every multiset of one to three
        // tokens: about 1200 games in two inputs.
        let mut games: Vec<Position> = dag_classes(4)
            .into_iter()
            .flat_map(|(n, edges)| {
                let children = children_of(n, &edges);
                token_multisets(n, 3)
                    .into_iter()
                    .map(move |tokens| Position {
                        children: children.clone(),
                        tokens,
                    })
            })
            .collect();
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Position {
        let n = rng.random_range(1..=7);
        let m = rng.random_range(0..=2 * n);
        let mut edges = random_forward_edges(rng, n, m, 3);
        edges.sort_unstable();
        edges.dedup();
        let count = rng.random_range(1..=4);
        Position {
            children: children_of(n, &edges),
            tokens: (0..count).map(|_| rng.random_range(0..n)).collect(),
        }
    }

    fn games_per_input(&self) -> usize {
        // Small games have at most eight vertices: a thousand fit in the ten test cases.
        MAX_QUERIES as usize
    }

    fn input_of(&self, games: &[Position]) -> Input {
        let edges: Vec<Vec<(u32, u32)>> = games.iter().map(|g| edges_of(&g.children)).collect();
        let groups = side_by_side(
            games
                .iter()
                .zip(&edges)
                .map(|(g, e)| (g.children.len() as u32, e.as_slice(), g.tokens.as_slice())),
            MAX_N,
            MAX_EDGES as usize,
            MAX_QUERIES as usize,
        );
        debug_assert!(groups.len() <= MAX_CASES as usize);
        Input {
            cases: groups
                .into_iter()
                .map(|g| Case {
                    children: children_of(g.n, &g.edges),
                    queries: g.queries,
                })
                .collect(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Position> {
        input
            .cases
            .iter()
            .flat_map(|case| {
                case.queries.iter().map(|q| Position {
                    children: case.children.clone(),
                    tokens: q.clone(),
                })
            })
            .collect()
    }

    fn size(&self, game: &Position) -> u64 {
        let edges: usize = game.children.iter().map(Vec::len).sum();
        (game.children.len() as u64) << 40 | (game.tokens.len() as u64) << 20 | edges as u64
    }

    fn shrink(&self, game: &Position) -> Vec<Position> {
        let n = game.children.len() as u32;
        let edges = edges_of(&game.children);
        let mut smaller = Vec::new();
        for v in 0..n {
            let tokens: Vec<u32> = game
                .tokens
                .iter()
                .filter(|&&t| t != v)
                .map(|&t| if t > v { t - 1 } else { t })
                .collect();
            if n > 1 && !tokens.is_empty() {
                smaller.push(Position {
                    children: children_of(n - 1, &without_vertex(&edges, v)),
                    tokens,
                });
            }
        }
        if game.tokens.len() > 1 {
            for i in 0..game.tokens.len() {
                let mut fewer = game.clone();
                fewer.tokens.remove(i);
                smaller.push(fewer);
            }
        }
        for i in 0..edges.len() {
            let mut fewer = edges.clone();
            fewer.remove(i);
            smaller.push(Position {
                children: children_of(n, &fewer),
                tokens: game.tokens.clone(),
            });
        }
        smaller.sort_by(|a, b| {
            (self.size(a), &a.children, &a.tokens).cmp(&(self.size(b), &b.children, &b.tokens))
        });
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Position) -> Certificate {
        let graph = game.graph();
        let value = graph::grundy_values(&graph).expect("validated acyclic");
        let order = graph::topological_order(&graph).expect("validated acyclic");
        // The vertices the tokens can reach, dead ends first; only the tokens' own when many.
        let mut reached = vec![false; game.children.len()];
        let mut stack = game.tokens.clone();
        while let Some(v) = stack.pop() {
            if !std::mem::replace(&mut reached[v as usize], true) {
                stack.extend(graph.successors(v));
            }
        }
        let mut shown: Vec<u32> = order
            .iter()
            .rev()
            .copied()
            .filter(|&v| reached[v as usize])
            .collect();
        if shown.len() > LISTED {
            shown.retain(|v| game.tokens.contains(v));
        }
        let lines: Vec<(String, String)> = shown
            .iter()
            .map(|&v| {
                let next = distinct_successors(&graph, v);
                if next.is_empty() {
                    (
                        format!("g({v}) = 0 (no edge leaves {v})"),
                        format!("g({v}) = 0 (không có cạnh đi ra từ {v})"),
                    )
                } else {
                    let names = listed(next.iter().map(|w| format!("g({w})")), ", ");
                    let values = listed(next.iter().map(|&w| value[w as usize].to_string()), ", ");
                    let line = format!(
                        "g({v}) = mex{{{names}}} = mex{{{values}}} = {}",
                        value[v as usize]
                    );
                    (line.clone(), line)
                }
            })
            .collect();
        let lines_en = listed(lines.iter().map(|(en, _)| en.clone()), "; ");
        let lines_vi = listed(lines.iter().map(|(_, vi)| vi.clone()), "; ");
        let values: Vec<u64> = game
            .tokens
            .iter()
            .map(|&t| u64::from(value[t as usize]))
            .collect();
        let sum = values.iter().fold(0, |x, v| x ^ v);
        let places = listed(game.tokens.iter().map(u32::to_string), ", ");
        let (stand_en, stand_vi) = if game.tokens.len() == 1 {
            ("The token stands on", "Quân cờ đứng ở")
        } else {
            ("The tokens stand on", "Các quân cờ đứng ở")
        };
        let rule_en = format!(
            "A vertex's value g(v) is the mex (the smallest non-negative integer not among them) \
             of the values of the vertices its edges lead to, and tokens that move independently \
             add up as in Nim: {lines_en}. {stand_en} {places}, so the nim-sum is {}",
            nim_sum_text(&values)
        );
        let rule_vi = format!(
            "Giá trị g(v) của một đỉnh là mex (số tự nhiên nhỏ nhất không nằm trong tập) của \
             giá trị các đỉnh mà cạnh từ v đi tới, và các quân cờ đi độc lập nên cộng lại như \
             trong Nim: {lines_vi}. {stand_vi} {places}, nên tổng nim là {}",
            nim_sum_text(&values)
        );
        if sum == 0 {
            return Certificate {
                en: format!(
                    "The first player loses (LOSE). {rule_en}. Every move changes one token's \
                     value (a vertex's value differs from those of the vertices it leads to), so \
                     it leaves a non-zero nim-sum, and from there the second player can always \
                     make it 0 again, until the first player cannot move."
                ),
                vi: format!(
                    "Người thứ nhất thua (LOSE). {rule_vi}. Mỗi nước đi thay đổi giá trị của \
                     đúng một quân (giá trị của một đỉnh khác giá trị các đỉnh nó đi tới), nên \
                     để lại tổng nim khác 0, và từ đó người thứ hai luôn đưa được tổng nim về 0, \
                     cho đến khi người thứ nhất không còn nước đi."
                ),
            };
        }
        let (i, to) = game
            .tokens
            .iter()
            .enumerate()
            .find_map(|(i, &t)| {
                let want = u64::from(value[t as usize]) ^ sum;
                graph
                    .successors(t)
                    .iter()
                    .find(|&&w| u64::from(value[w as usize]) == want)
                    .map(|&w| (i, w))
            })
            .expect("a token's vertex reaches every smaller value");
        let from = game.tokens[i];
        let mut after = values.clone();
        after[i] = u64::from(value[to as usize]);
        let after = nim_sum_text(&after);
        Certificate {
            en: format!(
                "The first player wins (WIN). {rule_en} ≠ 0. Moving the token from {from} to {to} \
                 leaves a nim-sum of {after}, lost for the player to move: every move changes \
                 one token's value and makes the nim-sum non-zero, and the first player makes it \
                 0 again."
            ),
            vi: format!(
                "Người thứ nhất thắng (WIN). {rule_vi} ≠ 0. Đưa quân cờ từ {from} tới {to} để \
                 lại tổng nim {after}, là thế thua cho người phải đi: mỗi nước đi thay đổi giá \
                 trị của đúng một quân nên làm tổng nim khác 0, và người thứ nhất lại đưa nó về \
                 0."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[XOR_OF_OUTCOMES, ANY_WINNING_TOKEN]
    }

    fn misconceived(&self, id: &str, game: &Position) -> Option<String> {
        let value = graph::grundy_values(&game.graph()).expect("validated acyclic");
        let mut winning = game.tokens.iter().map(|&t| value[t as usize] != 0);
        let first_wins = match id {
            "dag-chess-xor-of-outcomes" => winning.fold(false, |x, w| x ^ w),
            "dag-chess-any-winning-token" => winning.any(|w| w),
            _ => return None,
        };
        Some(word(first_wins).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::explain::testing::Problem;
    use std::collections::HashMap;

    /// A program for the whole input, answering each query by `first_wins(children, tokens)`.
    fn program(first_wins: fn(&[Vec<usize>], &[usize]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut lines = input.lines().filter(|l| !l.trim().is_empty());
            let numbers = |line: &str| -> Vec<usize> {
                line.split_whitespace()
                    .map(|t| t.parse().unwrap())
                    .collect()
            };
            let mut out = String::new();
            while let Some(first) = lines.next() {
                let n = numbers(first)[0];
                let children: Vec<Vec<usize>> = (0..n)
                    .map(|_| numbers(lines.next().unwrap())[1..].to_vec())
                    .collect();
                loop {
                    let query = numbers(lines.next().unwrap());
                    if query[0] == 0 {
                        break;
                    }
                    let won = first_wins(&children, &query[1..]);
                    out.push_str(if won { "WIN\n" } else { "LOSE\n" });
                }
            }
            out
        }
    }

    /// The game itself: every placement of the tokens, won iff some move reaches a lost one.
    fn by_game_tree(children: &[Vec<usize>], tokens: &[usize]) -> bool {
        fn wins(
            tokens: Vec<usize>,
            children: &[Vec<usize>],
            memo: &mut HashMap<Vec<usize>, bool>,
        ) -> bool {
            if let Some(&known) = memo.get(&tokens) {
                return known;
            }
            let win = (0..tokens.len()).any(|i| {
                children[tokens[i]].iter().any(|&w| {
                    let mut next = tokens.clone();
                    next[i] = w;
                    next.sort_unstable();
                    !wins(next, children, memo)
                })
            });
            memo.insert(tokens, win);
            win
        }
        let mut start = tokens.to_vec();
        start.sort_unstable();
        wins(start, children, &mut HashMap::new())
    }

    /// Whether a token alone wins from each vertex.
    fn alone(children: &[Vec<usize>]) -> Vec<bool> {
        fn wins(v: usize, children: &[Vec<usize>], memo: &mut [Option<bool>]) -> bool {
            if let Some(known) = memo[v] {
                return known;
            }
            let win = children[v].iter().any(|&w| !wins(w, children, memo));
            memo[v] = Some(win);
            win
        }
        let mut memo = vec![None; children.len()];
        (0..children.len())
            .map(|v| wins(v, children, &mut memo))
            .collect()
    }

    fn position(children: &[&[u32]], tokens: &[u32]) -> Position {
        Position {
            children: children.iter().map(|c| c.to_vec()).collect(),
            tokens: tokens.to_vec(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("dag-chess").assert_sound();
    }

    #[test]
    fn the_game_tree_is_right() {
        Problem::new("dag-chess").assert_right(&program(by_game_tree));
    }

    #[test]
    fn outcomes_xored_are_named_with_values_two_and_one() {
        let found = Problem::new("dag-chess").assert_named(
            "dag-chess-xor-of-outcomes",
            &program(|children, tokens| {
                let wins = alone(children);
                tokens.iter().filter(|&&t| wins[t]).count() % 2 == 1
            }),
        );
        // 0 → 1, 0 → 2, 1 → 2: g(0) = 2 and g(1) = 1, both winning alone, 2 ⊕ 1 = 3.
        assert_eq!(found.position, "3\n2 1 2\n1 2\n0\n2 0 1\n0\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("WIN", "LOSE")
        );
    }

    #[test]
    fn a_winning_token_is_named_with_two_tokens_on_one_vertex() {
        let found = Problem::new("dag-chess").assert_named(
            "dag-chess-any-winning-token",
            &program(|children, tokens| {
                let wins = alone(children);
                tokens.iter().any(|&t| wins[t])
            }),
        );
        assert_eq!(found.position, "2\n1 1\n0\n2 0 0\n0\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("LOSE", "WIN")
        );
    }

    #[test]
    fn certificates_give_the_values_and_a_move() {
        // The statement's first test case: 0 → 1, 0 → 2, 2 → 3; tokens on 0 and 2.
        let win = DagChess.certificate(&position(&[&[1, 2], &[], &[3], &[]], &[0, 2]));
        for part in [
            "The first player wins (WIN)",
            "g(1) = 0 (no edge leaves 1)",
            "g(2) = mex{g(3)} = mex{0} = 1",
            "g(0) = mex{g(1), g(2)} = mex{0, 1} = 2",
            "the nim-sum is 2 ⊕ 1 = 3 ≠ 0",
            "Moving the token from 0 to 2 leaves a nim-sum of 1 ⊕ 1 = 0",
        ] {
            assert!(win.en.contains(part), "{part}: {}", win.en);
        }
        assert!(win.vi.contains("Đưa quân cờ từ 0 tới 2"), "{}", win.vi);
        // Its second: 0 → 1 → 2, and two tokens on 1.
        let lose = DagChess.certificate(&position(&[&[1], &[2], &[], &[]], &[1, 1]));
        assert!(
            lose.en.starts_with("The first player loses (LOSE)"),
            "{}",
            lose.en
        );
        assert!(lose.en.contains("the nim-sum is 1 ⊕ 1 = 0."), "{}", lose.en);
        assert!(
            !lose.en.contains("g(0)"),
            "unreachable vertices are left out: {}",
            lose.en
        );
        assert!(lose.vi.contains("Người thứ nhất thua"), "{}", lose.vi);
    }

    #[test]
    fn winning_moves_leave_lost_positions() {
        for game in DagChess.small_games() {
            let certificate = DagChess.certificate(&game);
            let Some(rest) = certificate.en.split("Moving the token from ").nth(1) else {
                assert_eq!(DagChess.answer(&game), "LOSE");
                continue;
            };
            let words: Vec<&str> = rest.split_whitespace().collect();
            let (from, to): (u32, u32) = (words[0].parse().unwrap(), words[2].parse().unwrap());
            let mut after = game.clone();
            let i = after.tokens.iter().position(|&t| t == from).unwrap();
            after.tokens[i] = to;
            assert!(game.children[from as usize].contains(&to), "{game:?}");
            assert_eq!(DagChess.answer(&after), "LOSE", "{game:?}");
        }
    }

    #[test]
    fn packing_puts_graphs_side_by_side() {
        let a = position(&[&[1], &[]], &[0]);
        let b = position(&[&[], &[0]], &[1, 1]);
        let input = DagChess.input_of(&[a.clone(), a.clone(), b.clone()]);
        // a's graph once for its two games, then b's after it.
        assert_eq!(
            DagChess.render(&input),
            "4\n1 1\n0\n0\n1 2\n1 0\n1 0\n2 3 3\n0\n"
        );
        assert_eq!(DagChess.solve(&input), "WIN\nWIN\nLOSE\n");
        assert_eq!(
            DagChess.games_of(&DagChess.input_of(std::slice::from_ref(&b))),
            vec![b]
        );
    }

    #[test]
    fn shrinking_drops_a_vertex_a_token_or_an_edge() {
        let game = position(&[&[1], &[]], &[0, 1]);
        assert_eq!(
            DagChess.shrink(&game),
            vec![
                position(&[&[]], &[0]),
                position(&[&[1], &[]], &[0]),
                position(&[&[1], &[]], &[1]),
                position(&[&[], &[]], &[0, 1]),
            ]
        );
    }

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
