//! Every-SG on a page (`every-sg`): tokens on a DAG, and a turn moves every token that can move,
//! each along an edge of its own vertex. A position is the statement's graph with one query:
//! `n m`, the `m` edges `u v`, then the tokens `c v_1 … v_c`. A move lists where the tokens that
//! can move go, in the order the tokens are listed. The game is not a sum: only who wins counts,
//! by the family's steps (the first player wins iff the largest step among the tokens is odd).

use super::dag_play::Dag;
use super::{edge_on_a_cycle, random_forward_edges, read_edges};
use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::every;
use rand::RngExt;
use rand::seq::IndexedRandom;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct EverySgPlay;

/// A page shows the graph whole: a few vertices and edges, and a few tokens, whose moves are
/// combined into one (the hints try combinations of them).
const MAX_N: u32 = 15;
const MAX_M: u32 = 30;
const MAX_TOKENS: u32 = 6;
/// The most winning moves a hint lists.
const MAX_LISTED: usize = 12;

/// The graph with each vertex's step.
struct Steps {
    dag: Dag,
    step: Vec<u64>,
}

/// The tokens on a graph (0-based), in the order the position lists them.
#[derive(Clone)]
pub struct Tokens {
    graph: Arc<Steps>,
    at: Vec<u32>,
}

impl PartialEq for Tokens {
    fn eq(&self, other: &Tokens) -> bool {
        let (a, b) = (&self.graph.dag, &other.graph.dag);
        self.at == other.at
            && (Arc::ptr_eq(&self.graph, &other.graph) || (a.n, &a.edges) == (b.n, &b.edges))
    }
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dag = &self.graph.dag;
        write!(
            f,
            "Tokens {{ n: {}, edges: {:?}, at: {:?} }}",
            dag.n, dag.edges, self.at
        )
    }
}

impl Tokens {
    /// `edges` must be acyclic.
    fn new(n: u32, edges: Vec<(u32, u32)>, at: Vec<u32>) -> Tokens {
        let dag = Dag::new(n, edges);
        let step = every::steps(&dag.graph).expect("an acyclic graph");
        Tokens {
            graph: Arc::new(Steps { dag, step }),
            at,
        }
    }

    fn step(&self, v: u32) -> u64 {
        self.graph.step[v as usize]
    }

    fn largest_step(&self) -> u64 {
        self.at.iter().map(|&t| self.step(t)).max().unwrap_or(0)
    }

    fn successors(&self, v: u32) -> &[u32] {
        self.graph.dag.graph.successors(v)
    }

    /// Where the token on `v` may go, each vertex once, by increasing step, then by vertex.
    fn options(&self, v: u32) -> Vec<u32> {
        let mut options = self.successors(v).to_vec();
        options.sort_unstable_by_key(|&w| (self.step(w), w));
        options.dedup();
        options
    }

    /// The indices of the tokens that can move, in the order they are listed.
    fn movable(&self) -> Vec<usize> {
        (0..self.at.len())
            .filter(|&i| !self.successors(self.at[i]).is_empty())
            .collect()
    }

    /// The winner's move of the Every-SG strategy: each token that wins its own game goes to
    /// the losing vertex of largest step (dragging out what it wins), each that loses goes to
    /// the vertex of smallest step (cutting short what it loses). Every step drops by one.
    fn strategy(&self) -> Vec<u32> {
        let grundy = &self.graph.dag.grundy;
        self.movable()
            .into_iter()
            .map(|i| {
                let u = self.at[i];
                let options = self.options(u);
                let best = if grundy[u as usize] != 0 {
                    options
                        .into_iter()
                        .filter(|&w| grundy[w as usize] == 0)
                        .max_by_key(|&w| (self.step(w), std::cmp::Reverse(w)))
                } else {
                    options.first().copied()
                };
                best.expect("a token that can move has a successor")
            })
            .collect()
    }

    /// Up to `cap` moves (in `out`) after which the largest step is exactly `top`: the moves
    /// that leave the opponent lost when `top` is even. Tokens on one vertex are alike, so they
    /// take their options in order and no move is found twice.
    fn moves_topping(&self, top: u64, cap: usize, out: &mut Vec<Vec<u32>>) {
        let movable = self.movable();
        let mut by_vertex = movable.clone();
        by_vertex.sort_by_key(|&i| self.at[i]);
        let options: Vec<Vec<u32>> = by_vertex
            .iter()
            .map(|&i| {
                let mut options = self.options(self.at[i]);
                options.retain(|&w| self.step(w) <= top);
                options
            })
            .collect();
        if options.iter().any(Vec::is_empty) {
            return;
        }
        let reaches: Vec<bool> = options
            .iter()
            .map(|o| self.step(*o.last().expect("not empty")) == top)
            .collect();
        let search = Search {
            tokens: self,
            top,
            cap,
            movable: &movable,
            by_vertex: &by_vertex,
            options: &options,
            reaches: &reaches,
        };
        search.run(0, false, &mut Vec::new(), out);
    }
}

/// The combinations of [`Tokens::moves_topping`], token by token in `by_vertex` order.
struct Search<'a> {
    tokens: &'a Tokens,
    top: u64,
    cap: usize,
    /// The tokens that can move, as listed; a move names their destinations in this order.
    movable: &'a [usize],
    by_vertex: &'a [usize],
    /// Each token's destinations of step at most `top`, by increasing step.
    options: &'a [Vec<u32>],
    /// Whether each token can reach step `top`: its last option has it.
    reaches: &'a [bool],
}

impl Search<'_> {
    /// Every choice of option indices from token `k` on, given `chosen` before it; `hit` when
    /// a token already reached `top`. Where no later token can reach `top` the branch is cut,
    /// and otherwise every branch ends in a move (the last options reach it), so the search
    /// costs no more than the moves it finds.
    fn run(&self, k: usize, hit: bool, chosen: &mut Vec<usize>, out: &mut Vec<Vec<u32>>) {
        if out.len() == self.cap {
            return;
        }
        if k == self.by_vertex.len() {
            if hit && !out.contains(&self.assemble(chosen)) {
                out.push(self.assemble(chosen));
            }
            return;
        }
        if !hit && !self.reaches[k..].contains(&true) {
            return;
        }
        let at = |k: usize| self.tokens.at[self.by_vertex[k]];
        let first = if k > 0 && at(k) == at(k - 1) {
            chosen[k - 1]
        } else {
            0
        };
        for j in first..self.options[k].len() {
            let reached = self.tokens.step(self.options[k][j]) == self.top;
            chosen.push(j);
            self.run(k + 1, hit || reached, chosen, out);
            chosen.pop();
        }
    }

    fn assemble(&self, chosen: &[usize]) -> Vec<u32> {
        let mut to = vec![0; self.tokens.at.len()];
        for (k, &i) in self.by_vertex.iter().enumerate() {
            to[i] = self.options[k][chosen[k]];
        }
        self.movable.iter().map(|&i| to[i]).collect()
    }
}

/// `1, 4, 4`: vertices, 1-based.
fn places(at: impl IntoIterator<Item = u32>) -> String {
    let names: Vec<String> = at.into_iter().map(|v| (v + 1).to_string()).collect();
    names.join(", ")
}

impl Rules for EverySgPlay {
    type Position = Tokens;
    /// Where each token that can move goes, in the order the tokens are listed (0-based).
    type Move = Vec<u32>;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Tokens, ValidationError> {
        let (n, m) = reader.pair(("n", 1..=MAX_N), ("m", 0..=MAX_M))?;
        let edges = read_edges(reader, n, m)?;
        if let Some(line) = edge_on_a_cycle(n, &edges) {
            return Err(ValidationError::new(
                line,
                "this edge lies on a directed cycle (the graph must be acyclic)",
            ));
        }
        let line = reader.line("the tokens \"c v_1 … v_c\"")?;
        let c: u32 = line.int(0, "c", 1..=MAX_TOKENS)?;
        line.expect_len(c as usize + 1, "c followed by c vertices")?;
        let at = (1..=c as usize)
            .map(|i| line.int(i, &format!("v_{i}"), 1..=n).map(|v| v - 1))
            .collect::<Result<Vec<u32>, _>>()?;
        Ok(Tokens::new(n, edges, at))
    }

    fn write_position(&self, tokens: &Tokens, out: &mut String) {
        let dag = &tokens.graph.dag;
        super::push_line(out, [dag.n, dag.edges.len() as u32]);
        for &(u, v) in &dag.edges {
            super::push_line(out, [u + 1, v + 1]);
        }
        super::push_line(
            out,
            std::iter::once(tokens.at.len() as u32).chain(tokens.at.iter().map(|v| v + 1)),
        );
    }

    fn start_rule(&self, tokens: &Tokens) -> Result<(), String> {
        if self.is_over(tokens) {
            Err(format!(
                "no edge leaves the tokens' vertices ({}); a game starts with a move to make",
                places(tokens.at.iter().copied())
            ))
        } else {
            Ok(())
        }
    }

    fn words(&self, tokens: &Tokens) -> String {
        match tokens.at[..] {
            [one] => format!("a token on {}", one + 1),
            _ => format!("tokens on {}", places(tokens.at.iter().copied())),
        }
    }

    fn is_over(&self, tokens: &Tokens) -> bool {
        tokens.movable().is_empty()
    }

    fn value(&self, tokens: &Tokens) -> Value {
        Value {
            win: every::first_wins(&tokens.graph.step, &tokens.at),
            grundy: None,
        }
    }

    fn value_words(&self, tokens: &Tokens, value: &Value) -> String {
        let largest = tokens.largest_step();
        if value.win {
            format!("a win for the player to move (the largest step is {largest}, odd)")
        } else {
            format!("a loss for the player to move (the largest step is {largest}, even)")
        }
    }

    fn read_move(&self, tokens: &Tokens, text: &str) -> Result<Vec<u32>, String> {
        let movable = tokens.movable();
        let from: Vec<u32> = movable.iter().map(|&i| tokens.at[i]).collect();
        let rule = || {
            let example: Vec<String> = from
                .iter()
                .map(|&u| (tokens.successors(u)[0] + 1).to_string())
                .collect();
            format!(
                "every token that can move must move: write where each of the {} token(s) on \
                 {} goes, in that order (for example `{}`)",
                from.len(),
                places(from.iter().copied()),
                example.join(" ")
            )
        };
        let numbers: Vec<i128> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().map_err(|_| rule()))
            .collect::<Result<_, _>>()?;
        if numbers.len() != from.len() {
            return Err(rule());
        }
        let n = i128::from(tokens.graph.dag.n);
        numbers
            .iter()
            .zip(&from)
            .map(|(&v, &u)| {
                if !(1..=n).contains(&v) {
                    return Err(format!(
                        "there is no vertex {v} (the vertices are 1 to {n})"
                    ));
                }
                let w = (v - 1) as u32;
                if tokens.successors(u).contains(&w) {
                    Ok(w)
                } else {
                    Err(format!("there is no edge from {} to {v}", u + 1))
                }
            })
            .collect()
    }

    fn write_move(&self, to: &Vec<u32>) -> String {
        let names: Vec<String> = to.iter().map(|v| (v + 1).to_string()).collect();
        names.join(" ")
    }

    fn move_words(&self, tokens: &Tokens, to: &Vec<u32>) -> String {
        let arrows: Vec<String> = tokens
            .movable()
            .into_iter()
            .zip(to)
            .map(|(i, w)| format!("{} → {}", tokens.at[i] + 1, w + 1))
            .collect();
        arrows.join(", ")
    }

    fn move_done(&self, tokens: &Tokens, to: &Vec<u32>) -> String {
        format!("moved {}", self.move_words(tokens, to))
    }

    fn apply(&self, tokens: &Tokens, to: &Vec<u32>) -> Tokens {
        let mut after = tokens.clone();
        for (i, &w) in tokens.movable().into_iter().zip(to) {
            after.at[i] = w;
        }
        after
    }

    /// The strategy's move first, then others, found by the largest step they leave (any even
    /// one loses for the opponent).
    fn winning_moves(&self, tokens: &Tokens) -> Vec<Vec<u32>> {
        if !self.value(tokens).win {
            return Vec::new();
        }
        let mut moves = vec![tokens.strategy()];
        let highest = tokens
            .movable()
            .iter()
            .flat_map(|&i| tokens.successors(tokens.at[i]))
            .map(|&w| tokens.step(w))
            .max()
            .expect("a won position has a move");
        for top in (0..=highest).step_by(2) {
            tokens.moves_topping(top, MAX_LISTED, &mut moves);
        }
        moves
    }

    fn referee_move(&self, tokens: &Tokens, played: usize, rng: &mut TestRng) -> Vec<u32> {
        if let Some(mv) = self.winning_moves(tokens).choose(rng) {
            return mv.clone();
        }
        let wander = played < 4 && rng.random_bool(0.4);
        // Lost: end every token's game as soon as it can be, as the strategy's loser does.
        tokens
            .movable()
            .into_iter()
            .map(|i| {
                let options = tokens.options(tokens.at[i]);
                let shortest = tokens.step(options[0]);
                let choices: Vec<u32> = if wander {
                    options
                } else {
                    options
                        .into_iter()
                        .filter(|&w| tokens.step(w) == shortest)
                        .collect()
                };
                *choices
                    .choose(rng)
                    .expect("a token that can move has a successor")
            })
            .collect()
    }

    fn random_start(&self, rng: &mut TestRng) -> Tokens {
        let won = rng.random_bool(0.5);
        for _ in 0..100 {
            let n = rng.random_range(4..=8);
            let m = rng.random_range(n - 1..=2 * n);
            let mut edges = random_forward_edges(rng, n, m, 3);
            edges.sort_unstable();
            edges.dedup();
            let count = rng.random_range(1..=3);
            let at = (0..count).map(|_| rng.random_range(0..n)).collect();
            let start = Tokens::new(n, edges, at);
            if self.start_rule(&start).is_ok() && self.value(&start).win == won {
                return start;
            }
        }
        Tokens::new(2, vec![(0, 1)], vec![0])
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`n m` (vertices 1 to n, edges), then the m edges `u v` (u → v), one per \
                     line, then the tokens `c v_1 … v_c`: `3 2`, `1 2`, `2 3`, `2 1 2` is the \
                     path 1 → 2 → 3 with tokens on 1 and 2. At most 15 vertices, 30 edges and \
                     6 tokens.",
                vi: "`n m` (các đỉnh từ 1 đến n, số cạnh), rồi m cạnh `u v` (u → v), mỗi cạnh \
                     một dòng, cuối cùng là các quân `c v_1 … v_c`: `3 2`, `1 2`, `2 3`, \
                     `2 1 2` là đường đi 1 → 2 → 3 với hai quân ở 1 và 2. Tối đa 15 đỉnh, 30 \
                     cạnh và 6 quân.",
            },
            moves: Words {
                en: "Every token that can move must move: write the vertex each one goes to, in \
                     the order the tokens are listed, skipping those that cannot move: `2 3` \
                     moves the token on 1 to 2 and the one on 2 to 3.",
                vi: "Mọi quân còn đi được đều phải đi: viết đỉnh mà từng quân đi tới, theo thứ \
                     tự các quân được liệt kê, bỏ qua những quân không đi được: `2 3` đưa quân ở \
                     1 tới 2 và quân ở 2 tới 3.",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::dag_chess::token_multisets;
    use crate::families::small_dags;
    use crate::play::{Board, Played};
    use std::collections::{HashMap, HashSet};

    const BOARD: Played<EverySgPlay> = Played(EverySgPlay);

    /// Every placement one turn can leave by the literal rules: each token that can move moves
    /// along any edge of its vertex, the others stay; sorted, as tokens are alike.
    fn turns(successors: &[Vec<u32>], tokens: &[u32]) -> Vec<Vec<u32>> {
        if tokens.iter().all(|&t| successors[t as usize].is_empty()) {
            return Vec::new();
        }
        let mut placements: Vec<Vec<u32>> = vec![Vec::new()];
        for &t in tokens {
            let to = match &successors[t as usize][..] {
                [] => vec![t],
                some => some.to_vec(),
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
        for p in &mut placements {
            p.sort_unstable();
        }
        placements
    }

    fn wins(successors: &[Vec<u32>], tokens: &[u32], memo: &mut HashMap<Vec<u32>, bool>) -> bool {
        let mut key = tokens.to_vec();
        key.sort_unstable();
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let win = turns(successors, &key)
            .iter()
            .any(|p| !wins(successors, p, memo));
        memo.insert(key, win);
        win
    }

    /// `n m`, the edges and the tokens, 0-based in and 1-based out.
    fn text(n: u32, edges: &[(u32, u32)], tokens: &[u32]) -> String {
        let mut out = format!("{n} {}\n", edges.len());
        for (u, v) in edges {
            out += &format!("{} {}\n", u + 1, v + 1);
        }
        let names: Vec<String> = tokens.iter().map(|t| (t + 1).to_string()).collect();
        out + &format!("{} {}\n", tokens.len(), names.join(" "))
    }

    /// The tokens of a position's text, 0-based and sorted.
    fn tokens_of(text: &str) -> Vec<u32> {
        let last = text.lines().last().unwrap();
        let mut tokens: Vec<u32> = last
            .split(' ')
            .skip(1)
            .map(|t| t.parse::<u32>().unwrap() - 1)
            .collect();
        tokens.sort_unstable();
        tokens
    }

    fn check(n: u32, edges: &[(u32, u32)], tokens: &[u32], memo: &mut HashMap<Vec<u32>, bool>) {
        let mut successors = vec![Vec::new(); n as usize];
        for &(u, v) in edges {
            successors[u as usize].push(v);
        }
        let position = text(n, edges, tokens);
        let win = wins(&successors, tokens, memo);
        let value = BOARD.value(&position).unwrap();
        assert_eq!((value.win, value.grundy), (win, None), "{position}");
        let hints = BOARD.winning_moves(&position).unwrap();
        assert_eq!(hints.is_empty(), !win, "{position}");
        assert!(hints.len() <= MAX_LISTED);
        let mut left = HashSet::new();
        for mv in &hints {
            let after = tokens_of(&mv.after);
            assert!(
                turns(&successors, tokens).contains(&after),
                "{position}{mv:?}"
            );
            assert!(!wins(&successors, &after, memo), "{position}{mv:?}");
            assert_eq!(&BOARD.play(&position, &mv.text).unwrap(), mv);
            left.insert(after);
        }
        let texts: HashSet<&str> = hints.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts.len(), hints.len(), "{position}: a move listed twice");
        if hints.len() < MAX_LISTED {
            // Every winning placement is left by some listed move.
            let winning: HashSet<Vec<u32>> = turns(&successors, tokens)
                .into_iter()
                .filter(|p| !wins(&successors, p, memo))
                .collect();
            assert_eq!(left, winning, "{position}");
        }
    }

    #[test]
    fn values_and_hints_agree_with_a_search_of_the_rules() {
        // Every DAG on four vertices with up to three tokens, and the graph reversed.
        for edges in small_dags() {
            for reversed in [false, true] {
                let edges: Vec<(u32, u32)> = edges
                    .iter()
                    .map(|&(u, v)| if reversed { (3 - u, 3 - v) } else { (u, v) })
                    .collect();
                let mut memo = HashMap::new();
                for tokens in token_multisets(4, 3) {
                    check(4, &edges, &tokens, &mut memo);
                    let mut backwards = tokens.clone();
                    backwards.reverse();
                    check(4, &edges, &backwards, &mut memo);
                }
            }
        }
    }

    #[test]
    fn random_starts_agree_with_the_search_all_game_long() {
        let mut won = 0;
        for seed in 0..40 {
            let start = BOARD.random_start(seed);
            assert_eq!(BOARD.check_start(&start).unwrap(), start);
            let tokens = BOARD.position(&start).unwrap();
            let dag = &tokens.graph.dag;
            let mut memo = HashMap::new();
            won += usize::from(BOARD.value(&start).unwrap().win);
            let mut position = start.clone();
            for step in 0.. {
                check(dag.n, &dag.edges, &tokens_of(&position), &mut memo);
                match BOARD.reply(&position, seed + step).unwrap() {
                    Some(mv) => position = mv.after,
                    None => break,
                }
            }
        }
        assert!((8..=32).contains(&won), "{won} of 40 starts are won");
    }

    #[test]
    fn many_combinations_are_listed_a_dozen_at_most() {
        // Six tokens on a vertex with three edges out to sinks: every placement wins.
        let star = "4 3\n1 2\n1 3\n1 4\n6 1 1 1 1 1 1\n";
        let hints = BOARD.winning_moves(star).unwrap();
        assert_eq!(hints.len(), MAX_LISTED);
        assert_eq!(hints[0].text, "2 2 2 2 2 2");
        assert_eq!(hints[0].words, "1 → 2, 1 → 2, 1 → 2, 1 → 2, 1 → 2, 1 → 2");
    }

    #[test]
    fn moves_and_positions_are_refused_with_the_rule() {
        // The statement's example graph with tokens on 1 and 4, and one on the sink 7.
        let example = "7 6\n1 2\n2 3\n4 7\n4 5\n5 6\n6 7\n3 1 7 4\n";
        let refused = |mv: &str| BOARD.play(example, mv).unwrap_err().to_string();
        assert_eq!(
            refused("2"),
            "every token that can move must move: write where each of the 2 token(s) on 1, 4 \
             goes, in that order (for example `2 7`)"
        );
        assert_eq!(refused("2 6"), "there is no edge from 4 to 6");
        assert_eq!(
            refused("2 8"),
            "there is no vertex 8 (the vertices are 1 to 7)"
        );
        let moved = BOARD.play(example, "2 5").unwrap();
        assert_eq!(moved.after.lines().last(), Some("3 2 7 5"));
        assert_eq!(moved.words, "1 → 2, 4 → 5");
        assert!(!moved.value.win);
        // The statement's answer: Lan wins by 1 → 2 and 4 → 5, the strategy's move.
        let hints = BOARD.winning_moves(example).unwrap();
        assert_eq!(hints[0].text, "2 5");
        let not = |text: &str| BOARD.check(text).unwrap_err().to_string();
        assert!(not("2 2\n1 2\n2 1\n1 1\n").contains("directed cycle"));
        assert!(not("2 1\n1 2\n7 1 1 1 1 1 1 1\n").contains("c = 7 is outside 1..=6"));
        assert!(not("16 0\n").contains("n = 16 is outside 1..=15"));
        let over = BOARD
            .check_start("2 1\n1 2\n2 2 2\n")
            .unwrap_err()
            .to_string();
        assert!(over.contains("a game starts with a move to make"), "{over}");
    }
}
