//! Green Hackenbush on a rooted tree played against the reference (`hackenbush-play`): the
//! referee writes `n` and the `n − 1` edges `u v` (numbered 1 to n − 1 in that order, rooted at
//! vertex 1), the program takes a side, then each player in turn writes `e` (cut edge e;
//! whatever is no longer connected to the root falls). Stop line `-1`.
//!
//! In the middle of a game, a position's text writes a fallen edge as `0 0`, so edges keep their
//! numbers; a start position has none.

use super::hackenbush::{make_losing, random_tree};
use super::{shuffle_rooted, within};
use crate::play::{Game, Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::hackenbush;
use rand::RngExt;
use rand::seq::IndexedRandom;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct HackenbushPlay;

const MAX_GAMES: u32 = 20;
/// A move removes at least one edge: 20 games on 1000 vertices stay within the 10⁵ moves of a
/// test.
const MAX_N: u32 = 1000;
/// The most winning moves a hint lists.
const HINTS: usize = 16;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub games: u32,
    pub max_n: u32,
}

/// The tree of a game (0-based vertices, root 0) and which of its edges still stand, every one
/// of them connected to the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    n: u32,
    edges: Arc<[(u32, u32)]>,
    present: Vec<bool>,
}

/// The standing edges seen from the root: for each vertex, the edge to its parent and its
/// children, and each vertex's value by the colon principle (the xor of its children's values
/// plus one).
struct Rooted {
    /// `(edge, parent, child)` in breadth-first order from the root.
    order: Vec<(usize, usize, usize)>,
    value: Vec<u64>,
}

impl Tree {
    fn rooted(&self) -> Rooted {
        let n = self.n as usize;
        let mut adjacency = vec![Vec::new(); n];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if self.present[e] {
                adjacency[a as usize].push((e, b as usize));
                adjacency[b as usize].push((e, a as usize));
            }
        }
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut order = Vec::new();
        let mut next = 0;
        let mut frontier = vec![0usize];
        while next < frontier.len() {
            let v = frontier[next];
            next += 1;
            for &(e, w) in &adjacency[v] {
                if !seen[w] {
                    seen[w] = true;
                    order.push((e, v, w));
                    frontier.push(w);
                }
            }
        }
        let mut value = vec![0u64; n];
        for &(_, parent, child) in order.iter().rev() {
            value[parent] ^= value[child] + 1;
        }
        Rooted { order, value }
    }

    fn grundy(&self) -> u64 {
        self.rooted().value[0]
    }

    /// Cuts edge `e`: it and every edge no longer connected to the root fall.
    fn cut(&self, e: usize) -> Tree {
        let mut after = self.clone();
        after.present[e] = false;
        let standing = after.rooted().order;
        after.present = vec![false; self.edges.len()];
        for (e, _, _) in standing {
            after.present[e] = true;
        }
        after
    }

    fn standing(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.edges.len()).filter(|&e| self.present[e])
    }

    fn new(n: u32, edges: Vec<(u32, u32)>) -> Tree {
        Tree {
            n,
            present: vec![true; edges.len()],
            edges: edges.into(),
        }
    }
}

/// `1–3, 5, 7–8`: edge numbers (1-based), consecutive runs joined.
fn runs(edges: impl Iterator<Item = usize>) -> String {
    let mut parts: Vec<(usize, usize)> = Vec::new();
    for e in edges.map(|e| e + 1) {
        match parts.last_mut() {
            Some((_, end)) if *end + 1 == e => *end = e,
            _ => parts.push((e, e)),
        }
    }
    let parts: Vec<String> = parts
        .into_iter()
        .map(|(start, end)| match end - start {
            0 => start.to_string(),
            1 => format!("{start}, {end}"),
            _ => format!("{start}–{end}"),
        })
        .collect();
    parts.join(", ")
}

impl HackenbushPlay {
    fn shuffled(&self, rng: &mut TestRng, n: u32, edges: Vec<(u32, u32)>) -> Tree {
        Tree::new(n, shuffle_rooted(rng, n, edges))
    }

    fn theme(&self, p: &Params, theme: usize, rng: &mut TestRng) -> Tree {
        let n = rng.random_range(2..=p.max_n);
        match theme {
            // Lost: a random tree and a stalk of its value beside it.
            0 => {
                let (size, shape) = ((n / 2).max(2), rng.random_range(2..4));
                let edges = random_tree(rng, size, shape);
                let (n, edges) = make_losing(size, edges, p.max_n);
                self.shuffled(rng, n, edges)
            }
            // Lost: two copies of one tree at the root mirror each other.
            1 => {
                let half = (n - 1) / 2;
                let shape = rng.random_range(0..4);
                let one = random_tree(rng, half.max(1) + 1, shape);
                let mut edges = one.clone();
                let shift = |v: u32| if v == 0 { 0 } else { v + half.max(1) };
                edges.extend(one.iter().map(|&(a, b)| (shift(a), shift(b))));
                self.shuffled(rng, 2 * half.max(1) + 1, edges)
            }
            _ => {
                let edges = random_tree(rng, n, theme);
                self.shuffled(rng, n, edges)
            }
        }
    }
}

impl Rules for HackenbushPlay {
    type Position = Tree;
    type Move = usize;

    fn read_position(&self, reader: &mut StrictReader<'_>) -> Result<Tree, ValidationError> {
        let n: u32 = reader.single("n", 1..=MAX_N)?;
        let mut edges = Vec::with_capacity(n as usize - 1);
        let mut present = Vec::with_capacity(n as usize - 1);
        // Union-find over the standing edges: one that joins two vertices already joined closes
        // a cycle.
        let mut leader: Vec<u32> = (0..n).collect();
        fn find(leader: &mut [u32], mut v: u32) -> u32 {
            // Path halving keeps the chains short: a stalk is read in linear time.
            while leader[v as usize] != v {
                let grandparent = leader[leader[v as usize] as usize];
                leader[v as usize] = grandparent;
                v = grandparent;
            }
            v
        }
        let mut line_of = Vec::with_capacity(n as usize - 1);
        for i in 1..n {
            let line = reader.line("an edge \"u v\"")?;
            line_of.push(reader.line_number());
            line.expect_len(2, "u v")?;
            let (u, v): (u32, u32) = (line.int(0, "u", 0..=n)?, line.int(1, "v", 0..=n)?);
            if (u, v) == (0, 0) {
                edges.push((0, 0));
                present.push(false);
                continue;
            }
            if u == 0 || v == 0 || u == v {
                return Err(line.error(format!(
                    "edge {i} is {u} {v}: an edge joins two different vertices 1 to {n} (`0 0` \
                     for an edge that has fallen)"
                )));
            }
            let (a, b) = (find(&mut leader, u - 1), find(&mut leader, v - 1));
            if a == b {
                return Err(line.error(format!("edge {i} closes a cycle (the graph is a tree)")));
            }
            leader[a as usize] = b;
            edges.push((u - 1, v - 1));
            present.push(true);
        }
        let tree = Tree {
            n,
            edges: edges.into(),
            present,
        };
        let mut reached = vec![false; tree.edges.len()];
        for (e, _, _) in tree.rooted().order {
            reached[e] = true;
        }
        if let Some(e) = tree.standing().find(|&e| !reached[e]) {
            return Err(ValidationError::new(
                line_of[e],
                format!(
                    "edge {} is not connected to the root, vertex 1 (a fallen edge is written \
                     `0 0`)",
                    e + 1
                ),
            ));
        }
        Ok(tree)
    }

    fn write_position(&self, tree: &Tree, out: &mut String) {
        super::push_line(out, [tree.n]);
        for (e, &(a, b)) in tree.edges.iter().enumerate() {
            if tree.present[e] {
                super::push_line(out, [a + 1, b + 1]);
            } else {
                out.push_str("0 0\n");
            }
        }
    }

    fn start_rule(&self, tree: &Tree) -> Result<(), String> {
        if tree.edges.is_empty() {
            return Err("n = 1: a game starts with an edge to cut".into());
        }
        match tree.present.iter().position(|&p| !p) {
            Some(e) => Err(format!(
                "edge {} has fallen; a game starts with every edge",
                e + 1
            )),
            None => Ok(()),
        }
    }

    fn words(&self, tree: &Tree) -> String {
        if tree.standing().next().is_none() {
            "the bare root".to_owned()
        } else {
            format!("the tree of edges {}", runs(tree.standing()))
        }
    }

    fn is_over(&self, tree: &Tree) -> bool {
        tree.standing().next().is_none()
    }

    fn value(&self, tree: &Tree) -> Value {
        let grundy = tree.grundy();
        Value {
            win: grundy != 0,
            grundy: Some(grundy),
        }
    }

    fn read_move(&self, tree: &Tree, text: &str) -> Result<usize, String> {
        let syntax = || "a move is one integer `e` (the number of the edge to cut)".to_owned();
        let e: i128 = match text.split_ascii_whitespace().collect::<Vec<_>>()[..] {
            [one] => one.parse().map_err(|_| syntax())?,
            _ => return Err(syntax()),
        };
        let count = tree.edges.len();
        if !(1..=count as i128).contains(&e) {
            return Err(format!("there is no edge {e} (the edges are 1 to {count})"));
        }
        let e = (e - 1) as usize;
        if !tree.present[e] {
            return Err(format!("edge {} has already fallen", e + 1));
        }
        Ok(e)
    }

    fn write_move(&self, &e: &usize) -> String {
        (e + 1).to_string()
    }

    fn move_words(&self, _: &Tree, &e: &usize) -> String {
        format!("to cut edge {}", e + 1)
    }

    fn move_done(&self, _: &Tree, &e: &usize) -> String {
        format!("cut edge {}", e + 1)
    }

    fn apply(&self, tree: &Tree, &e: &usize) -> Tree {
        tree.cut(e)
    }

    /// The first few in edge order: a star can have hundreds, and every one listed costs a
    /// person's page (and the verifying player) a copy of the tree.
    fn winning_moves(&self, tree: &Tree) -> Vec<usize> {
        let mut moves = every_winning_move(tree);
        moves.truncate(HINTS);
        moves
    }

    fn referee_move(&self, tree: &Tree, played: usize, rng: &mut TestRng) -> usize {
        if let Some(&e) = every_winning_move(tree).choose(rng) {
            return e;
        }
        let standing: Vec<usize> = tree.standing().collect();
        if played < 4 && rng.random_bool(0.4) {
            return *standing.choose(rng).expect("the game is not over");
        }
        // Cutting an edge at the root fells its whole branch; the heaviest ends the game soonest.
        let Rooted { order, .. } = tree.rooted();
        let mut size = vec![1usize; tree.n as usize];
        for &(_, parent, child) in order.iter().rev() {
            size[parent] += size[child];
        }
        let at_root: Vec<(usize, usize)> = order
            .iter()
            .filter(|&&(_, parent, _)| parent == 0)
            .map(|&(e, _, child)| (e, size[child]))
            .collect();
        let heaviest = at_root
            .iter()
            .map(|&(_, s)| s)
            .max()
            .expect("an edge stands");
        let heaviest: Vec<usize> = at_root
            .into_iter()
            .filter(|&(_, s)| s == heaviest)
            .map(|(e, _)| e)
            .collect();
        *heaviest.choose(rng).expect("one branch is heaviest")
    }

    fn random_start(&self, rng: &mut TestRng) -> Tree {
        let params = Params { games: 1, max_n: 9 };
        let theme = rng.random_range(0..6);
        self.theme(&params, theme, rng)
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`n`, then the n − 1 edges `u v`, one per line, rooted at vertex 1: `3`, `1 2`, `2 3` is a stalk of two edges.",
                vi: "`n`, rồi n − 1 cạnh `u v`, mỗi cạnh một dòng, gốc là đỉnh 1: `3`, `1 2`, `2 3` là một cành hai cạnh.",
            },
            moves: Words {
                en: "`e` cuts edge e (edges are numbered from 1 in the order given); whatever is no longer joined to the root falls: `2`.",
                vi: "`e` cắt cạnh e (cạnh đánh số từ 1 theo thứ tự cho); phần không còn nối với gốc sẽ rơi: `2`.",
            },
        }
    }
}

impl Game for HackenbushPlay {
    type Params = Params;
    const STOP: &'static str = "-1";
    const MAX_GAMES: u32 = MAX_GAMES;

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("games", p.games.into(), 1, MAX_GAMES.into())?;
        within("max_n", p.max_n.into(), 5, MAX_N.into())
    }

    fn fits(&self, games: &[Tree], p: &Params) -> Result<(), String> {
        super::at_most("T", games.len() as u64, p.games.into())?;
        for tree in games {
            super::at_most("n", tree.n.into(), p.max_n.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Vec<Tree> {
        let mut games = Vec::new();
        let n = p.max_n;
        if index == 0 {
            // Stalks of both parities, won by cutting at the root; stars of an odd and an even
            // number of edges (only parity counts); two equal stalks, lost to the mirror.
            for size in [n, n - 1] {
                let stalk = random_tree(rng, size, 0);
                games.push(self.shuffled(rng, size, stalk));
                let star = random_tree(rng, size, 1);
                games.push(self.shuffled(rng, size, star));
            }
            let half = (n - 1) / 2;
            let twin = (1..=2 * half).map(|v| (v.saturating_sub(2), v)).collect();
            games.push(self.shuffled(rng, 2 * half + 1, twin));
        }
        while games.len() < p.games as usize {
            let theme = (games.len() + index) % 6;
            games.push(self.theme(p, theme, rng));
        }
        games.truncate(p.games as usize);
        games
    }

    fn small_positions(&self) -> Vec<Tree> {
        // Every tree on up to six vertices, from its Prüfer sequence.
        let mut all = Vec::new();
        for n in 2..=6u32 {
            let count = n.pow(n - 2);
            for code in 0..count {
                let sequence: Vec<u32> = (0..n - 2).map(|i| code / n.pow(i) % n).collect();
                all.push(Tree::new(n, prufer_tree(n, &sequence)));
            }
        }
        all
    }

    fn brute_value(&self, tree: &Tree) -> Option<Value> {
        let standing: Vec<(u32, u32)> = tree.standing().map(|e| tree.edges[e]).collect();
        if standing.len() > 12 {
            return None;
        }
        let grundy = hackenbush::brute_force_value(tree.n as usize, &standing, 100_000)?;
        Some(Value {
            win: grundy != 0,
            grundy: Some(grundy),
        })
    }
}

/// Every winning cut, in edge order. Top down from the root: `need[v]` is the value `v` must
/// take for the root to be worth 0, if changing `v` can do it. Cutting the edge from `p` to its
/// child `c` takes `value[c] + 1` out of `p`'s xor; it wins when that leaves `need[p]`.
fn every_winning_move(tree: &Tree) -> Vec<usize> {
    let Rooted { order, value } = tree.rooted();
    let mut need: Vec<Option<u64>> = vec![None; tree.n as usize];
    need[0] = Some(0);
    let mut moves = Vec::new();
    for (e, parent, child) in order {
        let Some(wanted) = need[parent] else { continue };
        let without = value[parent] ^ (value[child] + 1);
        if without == wanted {
            moves.push(e);
        }
        need[child] = (without ^ wanted).checked_sub(1);
    }
    moves.sort_unstable();
    moves
}

/// The tree on `n` labelled vertices with the given Prüfer sequence.
fn prufer_tree(n: u32, sequence: &[u32]) -> Vec<(u32, u32)> {
    let mut degree = vec![1u32; n as usize];
    for &v in sequence {
        degree[v as usize] += 1;
    }
    let mut edges = Vec::new();
    for &v in sequence {
        let leaf = (0..n).find(|&u| degree[u as usize] == 1).expect("a leaf");
        edges.push((leaf, v));
        degree[leaf as usize] -= 1;
        degree[v as usize] -= 1;
    }
    let last: Vec<u32> = (0..n).filter(|&u| degree[u as usize] == 1).collect();
    edges.push((last[0], last[1]));
    edges
}
