//! A token on a DAG played against the reference (`dag-play`): the referee writes `n m s` and the
//! `m` edges `u v`, the program takes a side, then each player in turn writes `v` (move the token
//! along an edge to vertex v). Stop line `-1`.

use super::{edge_on_a_cycle, random_forward_edges, read_edges, small_dags, within};
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::{self, Graph};
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct DagPlay;

const MAX_GAMES: u32 = 20;
/// A game lasts fewer than n moves: 20 games on 2000 vertices stay within the 10⁵ moves of a
/// test.
const MAX_N: u32 = 2000;
const MAX_M: u32 = 10_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_n: u32,
    pub max_m: u32,
}

/// The graph of a game with every vertex's Grundy value and the length of the longest path from
/// it, computed once and shared by the game's positions (of `dag-play`, and of `dag-chess`'s
/// tokens).
pub(super) struct Dag {
    pub(super) n: u32,
    pub(super) edges: Vec<(u32, u32)>,
    pub(super) graph: Graph,
    pub(super) grundy: Vec<u32>,
    pub(super) height: Vec<u32>,
}

impl Dag {
    /// `edges` must be acyclic.
    pub(super) fn new(n: u32, edges: Vec<(u32, u32)>) -> Dag {
        let graph = Graph::from_edges(n as usize, &edges);
        let grundy = graph::grundy_values(&graph).expect("an acyclic graph");
        let order = graph::topological_order(&graph).expect("an acyclic graph");
        let mut height = vec![0u32; n as usize];
        for &v in order.iter().rev() {
            height[v as usize] = graph
                .successors(v)
                .iter()
                .map(|&w| height[w as usize] + 1)
                .max()
                .unwrap_or(0);
        }
        Dag {
            n,
            edges,
            graph,
            grundy,
            height,
        }
    }
}

/// The token at vertex `at` (0-based) of a graph.
#[derive(Clone)]
pub struct Token {
    dag: Arc<Dag>,
    at: u32,
}

impl PartialEq for Token {
    fn eq(&self, other: &Token) -> bool {
        self.at == other.at
            && (Arc::ptr_eq(&self.dag, &other.dag)
                || (self.dag.n, &self.dag.edges) == (other.dag.n, &other.dag.edges))
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Token {{ n: {}, m: {}, at: {} }}",
            self.dag.n,
            self.dag.edges.len(),
            self.at + 1
        )
    }
}

impl Token {
    fn successors(&self) -> &[u32] {
        self.dag.graph.successors(self.at)
    }

    fn to(&self, at: u32) -> Token {
        Token {
            dag: Arc::clone(&self.dag),
            at,
        }
    }
}

/// Relabels the vertices by a random permutation and shuffles the edges, so that no program can
/// lean on how the generator built the graph; `start` follows its vertex.
fn shuffled(rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>, start: u32) -> (Dag, u32) {
    let mut label: Vec<u32> = (0..n).collect();
    label.shuffle(rng);
    let mut edges: Vec<(u32, u32)> = edges
        .into_iter()
        .map(|(u, v)| (label[u as usize], label[v as usize]))
        .collect();
    edges.shuffle(rng);
    (Dag::new(n, edges), label[start as usize])
}

impl DagPlay {
    fn token(&self, rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>, start: u32) -> Token {
        let (dag, at) = shuffled(rng, n, edges, start);
        Token {
            dag: Arc::new(dag),
            at,
        }
    }

    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> Token {
        let n = rng.random_range(2..=p.max_n);
        let m = rng.random_range(1..=p.max_m.min(n * (n - 1) / 2));
        // Deep graphs (edges reach a few vertices ahead) for some themes, flat ones for others.
        let reach = if theme.is_multiple_of(2) { 3 } else { n };
        let mut edges = random_forward_edges(rng, n, m, reach);
        let dag = Dag::new(n, edges.clone());
        let movable: Vec<u32> = (0..n).filter(|&v| dag.height[v as usize] > 0).collect();
        let wanted = |v: &&u32| match theme {
            0 | 1 => dag.grundy[**v as usize] == 0,
            2 | 3 => dag.grundy[**v as usize] > 1,
            _ => true,
        };
        let choices: Vec<u32> = movable.iter().filter(wanted).copied().collect();
        let start = match choices.choose(rng).or(movable.choose(rng)) {
            Some(&v) => v,
            None => {
                edges.push((0, 1));
                0
            }
        };
        self.token(rng, n, edges, start)
    }
}

impl Rules for DagPlay {
    type Position = Token;
    type Move = u32;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Token, ValidationError> {
        let line = reader.line("a game \"n m s\"")?;
        line.expect_len(3, "n m s")?;
        let n: u32 = line.int(0, "n", 1..=MAX_N)?;
        let m: u32 = line.int(1, "m", 0..=MAX_M)?;
        let s: u32 = line.int(2, "s", 1..=n)?;
        let first = reader.line_number();
        let edges = read_edges(reader, n, m)?;
        if let Some(at) = edge_on_a_cycle(n, &edges) {
            return Err(ValidationError::new(
                first + at - 1,
                "this edge lies on a directed cycle (the graph must be acyclic)",
            ));
        }
        Ok(Token {
            dag: Arc::new(Dag::new(n, edges)),
            at: s - 1,
        })
    }

    fn write_position(&self, token: &Token, out: &mut String) {
        let dag = &token.dag;
        out.reserve(12 * (dag.edges.len() + 1));
        super::push_line(out, [dag.n, dag.edges.len() as u32, token.at + 1]);
        for &(u, v) in &dag.edges {
            super::push_line(out, [u + 1, v + 1]);
        }
    }

    fn start_rule(&self, token: &Token) -> Result<(), String> {
        if token.successors().is_empty() {
            Err(format!(
                "vertex s = {} has no outgoing edge; a game starts with a move to make",
                token.at + 1
            ))
        } else {
            Ok(())
        }
    }

    fn words(&self, token: &Token) -> String {
        format!("vertex {}", token.at + 1)
    }

    fn is_over(&self, token: &Token) -> bool {
        token.successors().is_empty()
    }

    fn value(&self, token: &Token) -> Value {
        let grundy = token.dag.grundy[token.at as usize];
        Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        }
    }

    fn read_move(&self, token: &Token, text: &str) -> Result<u32, String> {
        let syntax = || "a move is one integer `v` (the vertex the token moves to)".to_owned();
        let v: i128 = match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
            [one] => one.parse().map_err(|_| syntax())?,
            _ => return Err(syntax()),
        };
        let n = token.dag.n;
        if !(1..=i128::from(n)).contains(&v) {
            return Err(format!(
                "there is no vertex {v} (the vertices are 1 to {n})"
            ));
        }
        let to = (v - 1) as u32;
        if !token.successors().contains(&to) {
            return Err(format!("there is no edge from {} to {v}", token.at + 1));
        }
        Ok(to)
    }

    fn write_move(&self, &to: &u32) -> String {
        (to + 1).to_string()
    }

    fn move_words(&self, _: &Token, &to: &u32) -> String {
        format!("to vertex {}", to + 1)
    }

    fn move_done(&self, _: &Token, &to: &u32) -> String {
        format!("moved to vertex {}", to + 1)
    }

    fn apply(&self, token: &Token, &to: &u32) -> Token {
        token.to(to)
    }

    fn winning_moves(&self, token: &Token) -> Vec<u32> {
        let mut moves: Vec<u32> = token
            .successors()
            .iter()
            .copied()
            .filter(|&w| token.dag.grundy[w as usize] == 0)
            .collect();
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    fn referee_move(&self, token: &Token, played: usize, rng: &mut TestRng) -> u32 {
        if let Some(&to) = self.winning_moves(token).choose(rng) {
            return to;
        }
        let successors = token.successors();
        if played < 4 && rng.random_bool(0.4) {
            return *successors.choose(rng).expect("the game is not over");
        }
        // The successor with the shortest longest path ends the game soonest.
        let height = &token.dag.height;
        let lowest = successors
            .iter()
            .map(|&w| height[w as usize])
            .min()
            .expect("the game is not over");
        let lowest: Vec<u32> = successors
            .iter()
            .copied()
            .filter(|&w| height[w as usize] == lowest)
            .collect();
        *lowest.choose(rng).expect("one successor is lowest")
    }

    fn random_start(&self, rng: &mut TestRng) -> Token {
        let params = Params {
            games: 1,
            max_n: 8,
            max_m: 14,
        };
        let theme = rng.random_range(0..6);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`n m s` (vertices, edges, the token's vertex), then the m edges `u v`, one per line: `3 2 1`, `1 2`, `2 3`.",
                vi: "`n m s` (số đỉnh, số cạnh, đỉnh có quân), rồi m cạnh `u v`, mỗi cạnh một dòng: `3 2 1`, `1 2`, `2 3`.",
            },
            moves: Words {
                en: "`v` moves the token along an edge to vertex v: `2`.",
                vi: "`v` đi quân theo một cạnh tới đỉnh v: `2`.",
            },
        }
    }
}

impl Game for DagPlay {
    type Params = Params;
    const STOP: &'static str = "-1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_n", p.max_n.into(), 4, MAX_N.into())?;
        within("max_m", p.max_m.into(), p.max_n.into(), MAX_M.into())
    }

    fn fits(&self, games: &[Token], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for token in games {
            super::at_most("n", token.dag.n.into(), p.max_n.into())?;
            super::at_most("m", token.dag.edges.len() as u64, p.max_m.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<Token> {
        let mut games = Vec::new();
        if index == 0 {
            let n = p.max_n;
            // The longest paths, of both parities: the game is forced, and a recursive search
            // goes n deep.
            for length in [n, n - 1] {
                let path = (0..length - 1).map(|v| (v, v + 1)).collect();
                games.push(self.token(rng, length, path, 0));
            }
            // Many sinks: a star (won by any move), and a start whose every successor has a sink
            // of its own (lost).
            let leaves = (n - 1).min(p.max_m);
            games.push(self.token(rng, leaves + 1, (1..=leaves).map(|v| (0, v)).collect(), 0));
            let pairs = ((n - 1) / 2).min(p.max_m / 2);
            let lost = (1..=pairs).flat_map(|i| [(0, 2 * i - 1), (2 * i - 1, 2 * i)]);
            games.push(self.token(rng, 2 * pairs + 1, lost.collect(), 0));
            // Every forward edge among k vertices: the start is worth k − 1.
            let k = (1..=n)
                .take_while(|k| k * (k - 1) / 2 <= p.max_m)
                .last()
                .unwrap_or(2);
            let complete = (0..k).flat_map(|u| (u + 1..k).map(move |v| (u, v)));
            games.push(self.token(rng, k, complete.collect(), 0));
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 6;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<Token> {
        small_dags()
            .into_iter()
            .flat_map(|edges| {
                let dag = Arc::new(Dag::new(4, edges));
                (0..4)
                    .map(move |at| Token {
                        dag: Arc::clone(&dag),
                        at,
                    })
                    .filter(|t| !t.successors().is_empty())
            })
            .collect()
    }

    fn brute_value(&self, token: &Token) -> Option<Value> {
        /// The mex of the successors' values, straight from the definition.
        fn grundy(graph: &Graph, v: u32) -> u32 {
            let values: Vec<u32> = graph
                .successors(v)
                .iter()
                .map(|&w| grundy(graph, w))
                .collect();
            (0..).find(|g| !values.contains(g)).expect("a mex exists")
        }
        if token.dag.n > 8 {
            return None;
        }
        let grundy = grundy(&token.dag.graph, token.at);
        Some(Value {
            win: grundy != 0,
            grundy: Some(grundy.into()),
        })
    }
}
