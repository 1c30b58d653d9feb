//! Every-SG (own format): a DAG `n m` with `m` edges, then `q` queries `c v_1 … v_c` of token
//! positions; every movable token must be moved each turn.

use super::dag_chess::token_multisets;
use super::dag_game::{dag_classes, distinct_successors, side_by_side, without_vertex};
use super::every_sg_play::EverySgPlay;
use super::{
    at_most, edge_on_a_cycle, lines, push_line, random_forward_edges, read_edges, small_dags,
    within,
};
use crate::explain::{Certificate, Explain, LISTED, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::play::{Board, Played};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::graph::{self, Graph};
use grundy_games::{Outcome, every};
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

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }

    /// One query on a page: at most 15 vertices, 30 edges and 6 tokens.
    fn board(&self) -> Option<&dyn Board> {
        Some(&Played(EverySgPlay))
    }
}

/// One query with the graph: the game an answer line is about. Vertices are 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub n: u32,
    pub edges: Vec<(u32, u32)>,
    pub tokens: Vec<u32>,
}

/// Each vertex's step with the roles of the players swapped: the winner of a component
/// hurrying, its loser dragging it out.
fn swapped_steps(graph: &Graph) -> Vec<u64> {
    let order = graph::topological_order(graph).expect("validated acyclic");
    let outcome = graph::outcomes(graph);
    let mut step = vec![0u64; graph.vertex_count()];
    for &v in order.iter().rev() {
        let next = graph.successors(v).iter().copied();
        let best = if outcome[v as usize] == Outcome::Win {
            next.filter(|&w| outcome[w as usize] == Outcome::Lose)
                .map(|w| step[w as usize])
                .min()
        } else {
            next.map(|w| step[w as usize]).max()
        };
        if let Some(best) = best {
            step[v as usize] = best + 1;
        }
    }
    step
}

const AS_SUM: Misconception = Misconception {
    id: "every-sg-as-sum",
    title: "One token a turn",
    text: "The program xors the tokens' Sprague–Grundy values, as if a turn moved one token. \
           Here every token that can move must move each turn, so the tokens' games run side by \
           side and the one that ends last decides: with two tokens on vertex 1 and the edge \
           1 → 2 the values cancel (1 ⊕ 1 = 0), yet Lan moves both tokens to 2 and Minh cannot \
           move. Each vertex needs its step: 0 at a dead end, 1 + the largest step among its \
           losing successors at a winning vertex, 1 + the smallest step among its successors at \
           a losing vertex; Lan wins iff the largest step among the tokens is odd.",
};

const STEPS_SWAPPED: Misconception = Misconception {
    id: "every-sg-steps-swapped",
    title: "Winners hurry, losers drag on",
    text: "The program computes the steps with the players' aims swapped: at a winning vertex \
           the smallest step among its losing successors, at a losing vertex the largest among \
           its successors. The game is decided by the token whose game ends last, so the player \
           who wins a token's game makes it last as long as possible and the player who loses \
           it ends it as soon as possible: a winning vertex has 1 + the largest step among its \
           losing successors, a losing vertex 1 + the smallest step among its successors. Lan \
           wins iff the largest step among the tokens is odd.",
};

impl Explain for EverySg {
    type Game = Position;

    fn small_games(&self) -> Vec<Position> {
        // Every DAG on up to four vertices, once per shape, with every multiset of one to three
        // tokens: about 1200 games in one input.
        let mut games: Vec<Position> = dag_classes(4)
            .into_iter()
            .flat_map(|(n, edges)| {
                token_multisets(n, 3)
                    .into_iter()
                    .map(move |tokens| Position {
                        n,
                        edges: edges.clone(),
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
        let count = rng.random_range(1..=4);
        Position {
            n,
            edges: random_forward_edges(rng, n, m, 3),
            tokens: (0..count).map(|_| rng.random_range(0..n)).collect(),
        }
    }

    fn games_per_input(&self) -> usize {
        // Small games have at most eight vertices and sixteen edges: the limits hold for all.
        MAX_Q as usize
    }

    fn input_of(&self, games: &[Position]) -> Input {
        let mut groups = side_by_side(
            games
                .iter()
                .map(|g| (g.n, g.edges.as_slice(), g.tokens.as_slice())),
            MAX_N,
            MAX_M as usize,
            MAX_Q as usize,
        );
        debug_assert!(groups.len() <= 1, "the games fit in one input");
        let group = groups.pop().unwrap_or_default();
        Input {
            n: group.n.max(1),
            edges: group.edges,
            queries: group.queries,
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Position> {
        input
            .queries
            .iter()
            .map(|q| Position {
                n: input.n,
                edges: input.edges.clone(),
                tokens: q.clone(),
            })
            .collect()
    }

    fn size(&self, game: &Position) -> u64 {
        u64::from(game.n) << 40 | (game.tokens.len() as u64) << 20 | game.edges.len() as u64
    }

    fn shrink(&self, game: &Position) -> Vec<Position> {
        let mut smaller = Vec::new();
        for v in 0..game.n {
            let tokens: Vec<u32> = game
                .tokens
                .iter()
                .filter(|&&t| t != v)
                .map(|&t| if t > v { t - 1 } else { t })
                .collect();
            if game.n > 1 && !tokens.is_empty() {
                smaller.push(Position {
                    n: game.n - 1,
                    edges: without_vertex(&game.edges, v),
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
        for i in 0..game.edges.len() {
            let mut fewer = game.clone();
            fewer.edges.remove(i);
            smaller.push(fewer);
        }
        smaller.sort_by(|a, b| {
            (self.size(a), &a.edges, &a.tokens).cmp(&(self.size(b), &b.edges, &b.tokens))
        });
        smaller.dedup();
        smaller
    }

    fn certificate(&self, game: &Position) -> Certificate {
        let graph = Graph::from_edges(game.n as usize, &game.edges);
        let step = every::steps(&graph).expect("validated acyclic");
        let outcome = graph::outcomes(&graph);
        let order = graph::topological_order(&graph).expect("validated acyclic");
        let loses = |v: u32| outcome[v as usize] == Outcome::Lose;
        // The vertices the tokens can reach, dead ends first; only the tokens' own when many.
        let mut reached = vec![false; game.n as usize];
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
        let lines = listed(
            shown.iter().map(|&v| {
                let next = distinct_successors(&graph, v);
                let (which, over): (&str, Vec<u32>) = if next.is_empty() {
                    return format!("step({}) = 0", v + 1);
                } else if loses(v) {
                    ("min", next)
                } else {
                    ("max", next.into_iter().filter(|&w| loses(w)).collect())
                };
                let terms = listed(
                    over.iter()
                        .map(|&w| format!("step({}) = {}", w + 1, step[w as usize])),
                    ", ",
                );
                format!(
                    "step({}) = 1 + {which}{{{terms}}} = {}",
                    v + 1,
                    step[v as usize]
                )
            }),
            "; ",
        );
        let largest = game
            .tokens
            .iter()
            .map(|&t| step[t as usize])
            .max()
            .expect("a query has a token");
        if largest == 0 {
            return Certificate {
                en: "Minh (the second player) wins: every token stands on a vertex without \
                     outgoing edges, so Lan cannot move."
                    .to_owned(),
                vi: "Minh (người đi sau) thắng: mọi quân đều đứng ở đỉnh không có cạnh đi ra, \
                     nên Lan không đi được."
                    .to_owned(),
            };
        }
        let places = listed(game.tokens.iter().map(|t| (t + 1).to_string()), ", ");
        let steps = listed(
            game.tokens.iter().map(|&t| step[t as usize].to_string()),
            ", ",
        );
        let (stand_en, stand_vi) = if game.tokens.len() == 1 {
            (
                format!("The token stands on {places}, with step {steps}"),
                format!("Quân cờ đứng ở {places}, với bước {steps}"),
            )
        } else {
            (
                format!("The tokens stand on {places}, with steps {steps}"),
                format!("Các quân đứng ở {places}, với các bước {steps}"),
            )
        };
        let rule_en = format!(
            "A token's step is 0 on a vertex without outgoing edges; on a winning vertex (an \
             edge leads to a losing one) it is 1 + the largest step among its losing \
             successors, because the player who wins that token's game drags it out; on a \
             losing vertex it is 1 + the smallest step among its successors, because the player \
             who loses it ends it fast. Here {lines}. Played so, a token's game lasts exactly \
             its step in moves, and the game ends with the last of them. {stand_en}; the largest \
             is {largest}"
        );
        let rule_vi = format!(
            "Bước (step) của một quân là 0 ở đỉnh không có cạnh đi ra; ở đỉnh thắng (có cạnh \
             tới một đỉnh thua) nó bằng 1 + bước lớn nhất trong các đỉnh thua mà nó đi tới, vì \
             người thắng phần chơi của quân đó kéo dài nó; ở đỉnh thua nó bằng 1 + bước nhỏ nhất \
             trong các đỉnh nó đi tới, vì người thua phần chơi đó kết thúc nó thật nhanh. Ở đây \
             {lines}. Chơi như vậy, phần chơi của mỗi quân kéo dài đúng bằng bước của nó, và trò \
             chơi kết thúc cùng với phần chơi dài nhất. {stand_vi}; bước lớn nhất là {largest}"
        );
        if largest % 2 == 0 {
            return Certificate {
                en: format!(
                    "Minh (the second player) wins. {rule_en}, even, so the last move is Minh's \
                     (Lan makes moves 1, 3, 5, …, Minh moves 2, 4, …)."
                ),
                vi: format!(
                    "Minh (người đi sau) thắng. {rule_vi}, là số chẵn, nên nước đi cuối cùng là \
                     của Minh (Lan đi các nước 1, 3, 5, …, Minh đi các nước 2, 4, …)."
                ),
            };
        }
        // Lan's first move by the steps: each movable token to where its step came from.
        let moves = listed(
            game.tokens
                .iter()
                .filter(|&&t| !graph.successors(t).is_empty())
                .map(|&t| {
                    let next = distinct_successors(&graph, t);
                    let to = if loses(t) {
                        next.into_iter().min_by_key(|&w| step[w as usize])
                    } else {
                        next.into_iter()
                            .filter(|&w| loses(w))
                            .max_by_key(|&w| step[w as usize])
                    };
                    format!("{} → {}", t + 1, to.expect("a successor") + 1)
                }),
            ", ",
        );
        Certificate {
            en: format!(
                "Lan (the first player) wins. {rule_en}, odd, so the last move is Lan's (she \
                 makes moves 1, 3, 5, …). Her first move by the steps: {moves}."
            ),
            vi: format!(
                "Lan (người đi trước) thắng. {rule_vi}, là số lẻ, nên nước đi cuối cùng là của \
                 Lan (Lan đi các nước 1, 3, 5, …). Nước đi đầu tiên của Lan theo các bước: \
                 {moves}."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[AS_SUM, STEPS_SWAPPED]
    }

    fn misconceived(&self, id: &str, game: &Position) -> Option<String> {
        let graph = Graph::from_edges(game.n as usize, &game.edges);
        let first_wins = match id {
            "every-sg-as-sum" => {
                let value = graph::grundy_values(&graph).expect("validated acyclic");
                game.tokens.iter().fold(0, |x, &t| x ^ value[t as usize]) != 0
            }
            "every-sg-steps-swapped" => every::first_wins(&swapped_steps(&graph), &game.tokens),
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

    /// A program for the whole input, answering each query by `first_wins(successors, tokens)`
    /// (0-based).
    fn program(first_wins: fn(&[Vec<usize>], &[usize]) -> bool) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut numbers = input
                .split_whitespace()
                .map(|t| t.parse::<usize>().unwrap());
            let mut next = || numbers.next().unwrap();
            let (n, m) = (next(), next());
            let mut successors = vec![Vec::new(); n];
            for _ in 0..m {
                let (u, v) = (next(), next());
                successors[u - 1].push(v - 1);
            }
            let mut out = String::new();
            for _ in 0..next() {
                let tokens: Vec<usize> = (0..next()).map(|_| next() - 1).collect();
                let won = first_wins(&successors, &tokens);
                out.push_str(if won { "First\n" } else { "Second\n" });
            }
            out
        }
    }

    /// The game itself: every token that can move moves, each anywhere it may; a placement is
    /// won iff some such move reaches a lost one, and lost when no token can move.
    fn by_game_tree(successors: &[Vec<usize>], tokens: &[usize]) -> bool {
        fn wins(
            tokens: Vec<usize>,
            successors: &[Vec<usize>],
            memo: &mut HashMap<Vec<usize>, bool>,
        ) -> bool {
            if let Some(&known) = memo.get(&tokens) {
                return known;
            }
            let mut placements: Vec<Vec<usize>> = vec![Vec::new()];
            for &t in &tokens {
                let to: Vec<usize> = if successors[t].is_empty() {
                    vec![t]
                } else {
                    successors[t].clone()
                };
                placements = placements
                    .iter()
                    .flat_map(|p| {
                        to.iter().map(move |&w| {
                            let mut more = p.clone();
                            more.push(w);
                            more
                        })
                    })
                    .collect();
            }
            let movable = tokens.iter().any(|&t| !successors[t].is_empty());
            let win = movable
                && placements.into_iter().any(|mut p| {
                    p.sort_unstable();
                    !wins(p, successors, memo)
                });
            memo.insert(tokens, win);
            win
        }
        let mut start = tokens.to_vec();
        start.sort_unstable();
        wins(start, successors, &mut HashMap::new())
    }

    /// Each vertex's Sprague–Grundy value, by memoised recursion.
    fn grundy(successors: &[Vec<usize>]) -> Vec<u32> {
        fn value(v: usize, successors: &[Vec<usize>], memo: &mut [Option<u32>]) -> u32 {
            if let Some(known) = memo[v] {
                return known;
            }
            let seen: Vec<u32> = successors[v]
                .iter()
                .map(|&w| value(w, successors, memo))
                .collect();
            let mex = (0..).find(|g| !seen.contains(g)).unwrap();
            memo[v] = Some(mex);
            mex
        }
        let mut memo = vec![None; successors.len()];
        (0..successors.len())
            .map(|v| value(v, successors, &mut memo))
            .collect()
    }

    fn position(n: u32, edges: &[(u32, u32)], tokens: &[u32]) -> Position {
        Position {
            n,
            edges: edges.iter().map(|&(u, v)| (u - 1, v - 1)).collect(),
            tokens: tokens.iter().map(|t| t - 1).collect(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("every-sg").assert_sound();
    }

    #[test]
    fn the_game_tree_is_right() {
        Problem::new("every-sg").assert_right(&program(by_game_tree));
    }

    #[test]
    fn the_sum_of_values_is_named_with_two_tokens_on_an_edge() {
        let found = Problem::new("every-sg").assert_named(
            "every-sg-as-sum",
            &program(|successors, tokens| {
                let value = grundy(successors);
                tokens.iter().fold(0, |x, &t| x ^ value[t]) != 0
            }),
        );
        // Lan moves both tokens along 1 → 2 and Minh cannot move; the values cancel.
        assert_eq!(found.position, "2 1\n1 2\n1\n2 1 1\n");
        assert_eq!(
            (found.expected.as_str(), found.got.as_str()),
            ("First", "Second")
        );
    }

    #[test]
    fn swapped_steps_are_named_with_a_long_winning_line() {
        // Steps with the aims swapped: winners take the smallest, losers the largest.
        fn swapped(successors: &[Vec<usize>], tokens: &[usize]) -> bool {
            fn step(v: usize, next: &[Vec<usize>], won: &[bool]) -> usize {
                let steps = |losing_only: bool| {
                    next[v]
                        .iter()
                        .filter(move |&&w| !losing_only || !won[w])
                        .map(|&w| step(w, next, won))
                };
                if next[v].is_empty() {
                    0
                } else if won[v] {
                    1 + steps(true).min().unwrap()
                } else {
                    1 + steps(false).max().unwrap()
                }
            }
            let won: Vec<bool> = grundy(successors).iter().map(|&g| g != 0).collect();
            tokens
                .iter()
                .map(|&t| step(t, successors, &won))
                .max()
                .unwrap()
                % 2
                == 1
        }
        let found =
            Problem::new("every-sg").assert_named("every-sg-steps-swapped", &program(swapped));
        // A token's game alone is decided alike: two tokens and four vertices are needed.
        assert_eq!(
            Problem::new("every-sg").explainer().size(&found.position) >> 20,
            4 << 20 | 2
        );
    }

    #[test]
    fn certificates_give_the_steps() {
        // The statement's example: 1 → 2 → 3 and 4 → 7, 4 → 5 → 6 → 7.
        let edges = [(1, 2), (2, 3), (4, 7), (4, 5), (5, 6), (6, 7)];
        let win = EverySg.certificate(&position(7, &edges, &[1, 4]));
        for part in [
            "Lan (the first player) wins.",
            "step(7) = 0",
            "step(6) = 1 + max{step(7) = 0} = 1",
            "step(5) = 1 + min{step(6) = 1} = 2",
            "step(4) = 1 + max{step(5) = 2, step(7) = 0} = 3",
            "step(1) = 1 + min{step(2) = 1} = 2",
            "The tokens stand on 1, 4, with steps 2, 3; the largest is 3, odd",
            "Her first move by the steps: 1 → 2, 4 → 5.",
        ] {
            assert!(win.en.contains(part), "{part}: {}", win.en);
        }
        assert!(win.vi.contains("Lan (người đi trước) thắng"), "{}", win.vi);
        let lose = EverySg.certificate(&position(7, &edges, &[2, 5]));
        assert!(
            lose.en.starts_with("Minh (the second player) wins."),
            "{}",
            lose.en
        );
        assert!(
            lose.en.contains("with steps 1, 2; the largest is 2, even"),
            "{}",
            lose.en
        );
        assert!(!lose.en.contains("step(4)"), "{}", lose.en);
        let stuck = EverySg.certificate(&position(7, &edges, &[3, 7]));
        assert!(stuck.en.contains("so Lan cannot move"), "{}", stuck.en);
    }

    #[test]
    fn first_moves_leave_lost_positions() {
        for game in EverySg.small_games() {
            let certificate = EverySg.certificate(&game);
            let Some(rest) = certificate.en.split("Her first move by the steps: ").nth(1) else {
                assert_eq!(EverySg.answer(&game), "Second");
                continue;
            };
            let mut after = game.clone();
            let mut moved = vec![false; game.tokens.len()];
            for step in rest.trim_end_matches('.').split(", ") {
                let (from, to) = step.split_once(" → ").unwrap();
                let (from, to): (u32, u32) = (from.parse().unwrap(), to.parse().unwrap());
                assert!(game.edges.contains(&(from - 1, to - 1)), "{game:?}");
                let i = (0..game.tokens.len())
                    .find(|&i| !moved[i] && game.tokens[i] == from - 1)
                    .unwrap();
                (after.tokens[i], moved[i]) = (to - 1, true);
            }
            // Every token that could move did.
            let graph = Graph::from_edges(game.n as usize, &game.edges);
            for (i, &t) in game.tokens.iter().enumerate() {
                assert_eq!(moved[i], !graph.successors(t).is_empty(), "{game:?}");
            }
            assert_eq!(EverySg.answer(&after), "Second", "{game:?}");
        }
    }

    #[test]
    fn packing_puts_graphs_side_by_side() {
        let a = position(2, &[(1, 2)], &[1, 1]);
        let b = position(1, &[], &[1]);
        let input = EverySg.input_of(&[a.clone(), b.clone(), a.clone()]);
        assert_eq!(
            EverySg.render(&input),
            "5 2\n1 2\n4 5\n3\n2 1 1\n1 3\n2 4 4\n"
        );
        assert_eq!(EverySg.solve(&input), "First\nSecond\nFirst\n");
        assert_eq!(
            EverySg.games_of(&EverySg.input_of(std::slice::from_ref(&a))),
            vec![a]
        );
    }

    #[test]
    fn shrinking_drops_a_vertex_a_token_or_an_edge() {
        let smaller = EverySg.shrink(&position(2, &[(1, 2)], &[1, 2]));
        assert_eq!(
            smaller,
            vec![
                position(1, &[], &[1]),
                position(2, &[(1, 2)], &[1]),
                position(2, &[(1, 2)], &[2]),
                position(2, &[], &[1, 2]),
            ]
        );
    }

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
