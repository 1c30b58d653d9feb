//! POJ 2425's chess game on a page (`dag-chess`): tokens on a DAG, and a move takes one token
//! along one edge. A position is one test case of the statement with a single query: `N`, then
//! each vertex's children `k c_1 … c_k` (vertices 0 to N − 1, as the statement numbers them),
//! then the tokens `m p_1 … p_m`. A move is `u v`: a token on u goes along the edge u → v. The
//! tokens add up as in Nim: the value is the xor of their vertices' Grundy values.

use super::dag_chess::{children_of, edges_of, read_children};
use super::dag_play::Dag;
use super::random_forward_edges;
use crate::explain::nim_sum_text;
use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use rand::RngExt;
use rand::seq::IndexedRandom;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct DagChessPlay;

/// A page shows the graph whole: a few vertices, each line a vertex's children.
const MAX_N: u32 = 20;
/// As many tokens as a query of the statement may hold.
const MAX_TOKENS: u32 = 10;
/// The most winning moves a hint lists.
const MAX_LISTED: usize = 12;

/// The tokens on a graph, in the order the position lists them (a vertex may hold several).
#[derive(Clone)]
pub struct Tokens {
    dag: Arc<Dag>,
    at: Vec<u32>,
}

impl PartialEq for Tokens {
    fn eq(&self, other: &Tokens) -> bool {
        self.at == other.at
            && (Arc::ptr_eq(&self.dag, &other.dag)
                || (self.dag.n, &self.dag.edges) == (other.dag.n, &other.dag.edges))
    }
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tokens {{ n: {}, edges: {:?}, at: {:?} }}",
            self.dag.n, self.dag.edges, self.at
        )
    }
}

impl Tokens {
    fn new(n: u32, edges: Vec<(u32, u32)>, at: Vec<u32>) -> Tokens {
        Tokens {
            dag: Arc::new(Dag::new(n, edges)),
            at,
        }
    }

    fn g(&self, v: u32) -> u32 {
        self.dag.grundy[v as usize]
    }

    fn nim_sum(&self) -> u32 {
        self.at.iter().fold(0, |x, &t| x ^ self.g(t))
    }

    fn successors(&self, v: u32) -> &[u32] {
        self.dag.graph.successors(v)
    }

    /// Every move, once per vertex a token stands on (tokens on one vertex are alike).
    fn moves(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.at
            .iter()
            .enumerate()
            .filter(|&(i, t)| !self.at[..i].contains(t))
            .flat_map(|(_, &u)| self.successors(u).iter().map(move |&w| (u, w)))
    }
}

/// `0, 2, 2`: the tokens' vertices.
fn places(at: &[u32]) -> String {
    let names: Vec<String> = at.iter().map(u32::to_string).collect();
    names.join(", ")
}

impl Rules for DagChessPlay {
    type Position = Tokens;
    /// From a vertex holding a token to one of its children.
    type Move = (u32, u32);

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Tokens, ValidationError> {
        let children = read_children(reader, MAX_N)?;
        let n = children.len() as u32;
        let line = reader.line("the tokens \"m p_1 … p_m\"")?;
        let m: u32 = line.int(0, "m", 1..=MAX_TOKENS)?;
        line.expect_len(m as usize + 1, "m followed by m vertices")?;
        let at = (1..=m as usize)
            .map(|i| line.int(i, &format!("p_{i}"), 0..=n - 1))
            .collect::<Result<Vec<u32>, _>>()?;
        Ok(Tokens::new(n, edges_of(&children), at))
    }

    fn write_position(&self, tokens: &Tokens, out: &mut String) {
        let dag = &tokens.dag;
        super::push_line(out, [dag.n]);
        for list in children_of(dag.n, &dag.edges) {
            super::push_line(out, std::iter::once(list.len() as u32).chain(list));
        }
        super::push_line(
            out,
            std::iter::once(tokens.at.len() as u32).chain(tokens.at.iter().copied()),
        );
    }

    fn start_rule(&self, tokens: &Tokens) -> Result<(), String> {
        if self.is_over(tokens) {
            Err(format!(
                "no edge leaves the tokens' vertices ({}); a game starts with a move to make",
                places(&tokens.at)
            ))
        } else {
            Ok(())
        }
    }

    fn words(&self, tokens: &Tokens) -> String {
        match tokens.at[..] {
            [one] => format!("a token on {one}"),
            _ => format!("tokens on {}", places(&tokens.at)),
        }
    }

    fn is_over(&self, tokens: &Tokens) -> bool {
        tokens.moves().next().is_none()
    }

    fn value(&self, tokens: &Tokens) -> Value {
        let sum = tokens.nim_sum();
        Value {
            win: sum != 0,
            grundy: Some(sum.into()),
        }
    }

    fn value_words(&self, tokens: &Tokens, value: &Value) -> String {
        let values: Vec<u64> = tokens.at.iter().map(|&t| tokens.g(t).into()).collect();
        let name = if values.len() == 1 {
            "Grundy value"
        } else {
            "nim-sum"
        };
        let zero = if value.win { " ≠ 0" } else { "" };
        format!("with {name} {}{zero}", nim_sum_text(&values))
    }

    fn read_move(&self, tokens: &Tokens, text: &str) -> Result<(u32, u32), String> {
        let numbers: Option<Vec<i128>> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().ok())
            .collect();
        let Some(&[u, v]) = numbers.as_deref() else {
            return Err(
                "a move is `u v`: a token on vertex u goes along the edge u → v".to_owned(),
            );
        };
        let n = i128::from(tokens.dag.n);
        for x in [u, v] {
            if !(0..n).contains(&x) {
                return Err(format!(
                    "there is no vertex {x} (the vertices are 0 to {})",
                    n - 1
                ));
            }
        }
        let (u, v) = (u as u32, v as u32);
        if !tokens.at.contains(&u) {
            return Err(format!(
                "no token stands on vertex {u} (the tokens are on {})",
                places(&tokens.at)
            ));
        }
        if !tokens.successors(u).contains(&v) {
            return Err(format!("there is no edge from {u} to {v}"));
        }
        Ok((u, v))
    }

    fn write_move(&self, &(u, v): &(u32, u32)) -> String {
        format!("{u} {v}")
    }

    fn move_words(&self, _: &Tokens, &(u, v): &(u32, u32)) -> String {
        format!("a token from {u} to {v}")
    }

    fn move_done(&self, _: &Tokens, &(u, v): &(u32, u32)) -> String {
        format!("moved a token from {u} to {v}")
    }

    fn apply(&self, tokens: &Tokens, &(u, v): &(u32, u32)) -> Tokens {
        let mut after = tokens.clone();
        let i = after
            .at
            .iter()
            .position(|&t| t == u)
            .expect("a legal move starts at a token");
        after.at[i] = v;
        after
    }

    fn winning_moves(&self, tokens: &Tokens) -> Vec<(u32, u32)> {
        let sum = tokens.nim_sum();
        if sum == 0 {
            return Vec::new();
        }
        tokens
            .moves()
            .filter(|&(u, w)| tokens.g(w) == tokens.g(u) ^ sum)
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(&self, tokens: &Tokens, played: usize, rng: &mut TestRng) -> (u32, u32) {
        if let Some(&mv) = self.winning_moves(tokens).choose(rng) {
            return mv;
        }
        let moves: Vec<(u32, u32)> = tokens.moves().collect();
        if played < 4 && rng.random_bool(0.4) {
            return *moves.choose(rng).expect("the game is not over");
        }
        // The game lasts at most the sum of the tokens' longest paths: shorten it the most.
        let height = &tokens.dag.height;
        let drop = |&(u, w): &(u32, u32)| height[u as usize] - height[w as usize];
        let most = moves.iter().map(drop).max().expect("the game is not over");
        let steepest: Vec<(u32, u32)> = moves.into_iter().filter(|m| drop(m) == most).collect();
        *steepest.choose(rng).expect("one move drops the most")
    }

    fn random_start(&self, rng: &mut TestRng) -> Tokens {
        let lost = rng.random_bool(0.4);
        for _ in 0..100 {
            let n = rng.random_range(4..=8);
            let m = rng.random_range(n - 1..=2 * n);
            let mut edges = random_forward_edges(rng, n, m, 3);
            edges.sort_unstable();
            edges.dedup();
            let mut start = Tokens::new(n, edges, Vec::new());
            let count = rng.random_range(1..=3);
            start.at = (0..count).map(|_| rng.random_range(0..n)).collect();
            if lost {
                // A last token on a vertex worth the others' nim-sum cancels them.
                let sum = start.nim_sum();
                let cancels: Vec<u32> = (0..n).filter(|&v| start.g(v) == sum).collect();
                start.at.push(*cancels.choose(rng).unwrap_or(&0));
            }
            if self.start_rule(&start).is_ok() && self.value(&start).win != lost {
                return start;
            }
        }
        Tokens::new(2, vec![(0, 1)], vec![0])
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`N` (vertices 0 to N − 1), then one line per vertex i, `k c_1 … c_k`: the k \
                     edges i → c_j; then the tokens `m p_1 … p_m`. `3`, `1 1`, `1 2`, `0`, `2 0 1` \
                     is the path 0 → 1 → 2 with tokens on 0 and 1. At most 20 vertices and 10 \
                     tokens.",
                vi: "`N` (các đỉnh từ 0 đến N − 1), rồi mỗi đỉnh i một dòng `k c_1 … c_k`: k cạnh \
                     i → c_j; cuối cùng là các quân `m p_1 … p_m`. `3`, `1 1`, `1 2`, `0`, `2 0 1` \
                     là đường đi 0 → 1 → 2 với hai quân ở 0 và 1. Tối đa 20 đỉnh và 10 quân.",
            },
            moves: Words {
                en: "`u v` moves one token from vertex u along the edge u → v: `0 1`.",
                vi: "`u v` đi một quân từ đỉnh u theo cạnh u → v: `0 1`.",
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

    const BOARD: Played<DagChessPlay> = Played(DagChessPlay);

    /// The Grundy value of the tokens by the literal rules: one token moves along one edge.
    fn brute(children: &[Vec<u32>], tokens: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
        let mut key = tokens.to_vec();
        key.sort_unstable();
        if let Some(&g) = memo.get(&key) {
            return g;
        }
        let mut seen = Vec::new();
        for i in 0..key.len() {
            for &c in &children[key[i] as usize] {
                let mut next = key.clone();
                next[i] = c;
                seen.push(brute(children, &next, memo));
            }
        }
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        memo.insert(key, g);
        g
    }

    fn text(children: &[Vec<u32>], tokens: &[u32]) -> String {
        let mut out = format!("{}\n", children.len());
        for list in children {
            let line: Vec<String> = std::iter::once(list.len() as u32)
                .chain(list.iter().copied())
                .map(|x| x.to_string())
                .collect();
            out += &format!("{}\n", line.join(" "));
        }
        let line: Vec<String> = std::iter::once(tokens.len() as u32)
            .chain(tokens.iter().copied())
            .map(|x| x.to_string())
            .collect();
        out + &line.join(" ") + "\n"
    }

    /// The numbers of the text's last line, the tokens.
    fn tokens_of(text: &str) -> Vec<u32> {
        let last = text.lines().last().unwrap();
        last.split(' ')
            .skip(1)
            .map(|t| t.parse().unwrap())
            .collect()
    }

    /// Value, hints and moves of one position against the search.
    fn check(children: &[Vec<u32>], tokens: &[u32], memo: &mut HashMap<Vec<u32>, u32>) {
        let position = text(children, tokens);
        let g = brute(children, tokens, memo);
        let value = BOARD.value(&position).unwrap();
        assert_eq!(
            (value.win, value.grundy),
            (g != 0, Some(g.into())),
            "{position}"
        );
        let hints = BOARD.winning_moves(&position).unwrap();
        assert_eq!(hints.is_empty(), g == 0, "{position}");
        for mv in &hints {
            assert_eq!(
                brute(children, &tokens_of(&mv.after), memo),
                0,
                "{position}{mv:?}"
            );
            assert_eq!(&BOARD.play(&position, &mv.text).unwrap(), mv);
        }
        if hints.len() < MAX_LISTED {
            // Every winning move, once per vertex: tokens on one vertex are alike.
            let mut winning = HashSet::new();
            for (i, &u) in tokens.iter().enumerate() {
                for &w in &children[u as usize] {
                    let mut after = tokens.to_vec();
                    after[i] = w;
                    if brute(children, &after, memo) == 0 {
                        winning.insert(format!("{u} {w}"));
                    }
                }
            }
            let listed: HashSet<String> = hints.iter().map(|m| m.text.clone()).collect();
            assert_eq!(listed, winning, "{position}");
        }
    }

    #[test]
    fn values_and_hints_agree_with_a_search_of_the_rules() {
        // Every DAG on four vertices with up to three tokens; then the graph reversed, so that
        // edges also lead to lower numbers.
        for edges in small_dags() {
            for reversed in [false, true] {
                let mut children = vec![Vec::new(); 4];
                for &(u, v) in &edges {
                    let (u, v) = if reversed { (3 - u, 3 - v) } else { (u, v) };
                    children[u as usize].push(v);
                }
                let mut memo = HashMap::new();
                for tokens in token_multisets(4, 3) {
                    check(&children, &tokens, &mut memo);
                    let mut backwards = tokens.clone();
                    backwards.reverse();
                    check(&children, &backwards, &mut memo);
                }
            }
        }
    }

    #[test]
    fn random_starts_agree_with_the_search_all_game_long() {
        let mut lost = 0;
        for seed in 0..40 {
            let start = BOARD.random_start(seed);
            assert_eq!(BOARD.check_start(&start).unwrap(), start);
            let mut lines: Vec<&str> = start.lines().collect();
            let tokens = tokens_of(&start);
            lines.pop();
            let children: Vec<Vec<u32>> = lines[1..]
                .iter()
                .map(|l| l.split(' ').skip(1).map(|t| t.parse().unwrap()).collect())
                .collect();
            let mut memo = HashMap::new();
            lost += usize::from(brute(&children, &tokens, &mut memo) == 0);
            // Down the game by the referee's moves, checking each position on the way.
            let mut position = start;
            for step in 0.. {
                check(&children, &tokens_of(&position), &mut memo);
                match BOARD.reply(&position, seed + step).unwrap() {
                    Some(mv) => position = mv.after,
                    None => break,
                }
            }
        }
        assert!((8..=32).contains(&lost), "{lost} of 40 starts are lost");
    }

    #[test]
    fn moves_and_positions_are_refused_with_the_rule() {
        let path = "3\n1 1\n1 2\n0\n2 0 1\n";
        let refused = |mv: &str| BOARD.play(path, mv).unwrap_err().to_string();
        assert_eq!(refused("0 2"), "there is no edge from 0 to 2");
        assert_eq!(
            refused("2 1"),
            "no token stands on vertex 2 (the tokens are on 0, 1)"
        );
        assert_eq!(
            refused("0 3"),
            "there is no vertex 3 (the vertices are 0 to 2)"
        );
        assert!(refused("1").contains("a move is `u v`"));
        let moved = BOARD.play(path, "0 1").unwrap();
        assert_eq!(moved.after, "3\n1 1\n1 2\n0\n2 1 1\n");
        assert_eq!(
            (moved.words.as_str(), moved.after_words.as_str()),
            ("a token from 0 to 1", "tokens on 1, 1")
        );
        let not = |text: &str| BOARD.check(text).unwrap_err().to_string();
        assert!(
            not("2\n1 1\n1 0\n1 0\n").contains("directed cycle"),
            "{}",
            not("2\n1 1\n1 0\n1 0\n")
        );
        assert!(not("2\n1 1\n0\n1 2\n").contains("p_1 = 2 is outside 0..=1"));
        assert!(not("21\n").contains("N = 21 is outside 1..=20"));
        assert!(not("1\n0\n0\n").contains("m = 0 is outside 1..=10"));
        let over = BOARD
            .check_start("2\n1 1\n0\n2 1 1\n")
            .unwrap_err()
            .to_string();
        assert!(over.contains("a game starts with a move to make"), "{over}");
    }
}
