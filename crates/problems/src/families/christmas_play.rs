//! POJ 3710's Christmas game on a page (`christmas-game`): decorations that are trees with rings
//! hung on them, each rooted at its vertex 1; a move deletes an edge, and whatever no longer
//! hangs from its root falls. A position is one test case of the statement: `N`, then each
//! decoration's `m k` and its `k` edges `a b`. A move is `g e`: delete edge e (numbered from 1 in
//! the order given) of decoration g. In the middle of a game a fallen edge is written `0 0`, so
//! edges keep their numbers. Values by the fusion principle, the family's solver.

use super::christmas::{Decoration, decoration};
use crate::explain::nim_sum_text;
use crate::play::{Notation, Rules, Value, Words};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::hackenbush::{self, RingError};
use rand::RngExt;
use rand::seq::IndexedRandom;
use std::sync::Arc;

#[derive(Debug, Clone, Copy)]
pub struct ChristmasPlay;

/// A page draws every decoration: a few, with few edges between them.
const MAX_GRAPHS: u32 = 4;
const MAX_VERTICES: u32 = 16;
const MAX_EDGES: u32 = 15;
/// The most winning moves a hint lists.
const MAX_LISTED: usize = 12;

/// A decoration (0-based vertices, root 0) and which of its edges still hang from the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Hanging {
    vertices: u32,
    edges: Arc<[(u32, u32)]>,
    present: Vec<bool>,
}

impl Hanging {
    fn new(d: Decoration) -> Hanging {
        Hanging {
            vertices: d.vertices,
            present: vec![true; d.edges.len()],
            edges: d.edges.into(),
        }
    }

    fn standing(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.edges.len()).filter(|&e| self.present[e])
    }

    /// The vertices the present edges join to the root.
    fn reached(&self) -> Vec<bool> {
        let mut reached = vec![false; self.vertices as usize];
        reached[0] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for e in self.standing() {
                let (a, b) = self.edges[e];
                if reached[a as usize] != reached[b as usize] {
                    (reached[a as usize], reached[b as usize]) = (true, true);
                    grew = true;
                }
            }
        }
        reached
    }

    /// The present edges as a decoration of their own, the vertices they reach numbered in
    /// their old order (the solver wants every vertex connected), with each edge's number here.
    fn compact(&self) -> (usize, Vec<(u32, u32)>, Vec<usize>) {
        let reached = self.reached();
        let mut label = vec![u32::MAX; reached.len()];
        let mut count = 0;
        for (v, _) in reached.iter().enumerate().filter(|&(_, &r)| r) {
            label[v] = count;
            count += 1;
        }
        let numbers: Vec<usize> = self.standing().collect();
        let edges = numbers
            .iter()
            .map(|&e| {
                let (a, b) = self.edges[e];
                (label[a as usize], label[b as usize])
            })
            .collect();
        (count as usize, edges, numbers)
    }

    fn value(&self) -> u64 {
        let (n, edges, _) = self.compact();
        hackenbush::ring_graph_value(n, &edges).expect("a position's decorations are valid")
    }

    /// Deletes edge `e`: it falls with every edge no longer joined to the root.
    fn cut(&self, e: usize) -> Hanging {
        let mut after = self.clone();
        after.present[e] = false;
        let reached = after.reached();
        for e in 0..after.edges.len() {
            after.present[e] &= reached[after.edges[e].0 as usize];
        }
        after
    }
}

/// A random decoration of two to six edges: the family's generator, which may leave a lone
/// root, drawn again until it has an edge.
fn some_decoration(rng: &mut TestRng) -> Hanging {
    loop {
        let edges = rng.random_range(2..=6);
        let d = decoration(rng, edges);
        if !d.edges.is_empty() {
            return Hanging::new(d);
        }
    }
}

fn nim_sum(decorations: &[Hanging]) -> u64 {
    decorations.iter().fold(0, |x, d| x ^ d.value())
}

/// Every edge that can be deleted: (decoration, edge), 0-based.
fn all_moves(decorations: &[Hanging]) -> impl Iterator<Item = (usize, usize)> + '_ {
    decorations
        .iter()
        .enumerate()
        .flat_map(|(g, d)| d.standing().map(move |e| (g, e)))
}

impl Rules for ChristmasPlay {
    type Position = Vec<Hanging>;
    /// Decoration and edge, 0-based.
    type Move = (usize, usize);

    fn read_position(
        &self,
        reader: &mut StrictReader<'_>,
    ) -> Result<Vec<Hanging>, ValidationError> {
        let count: u32 = reader.single("N", 1..=MAX_GRAPHS)?;
        let mut decorations = Vec::with_capacity(count as usize);
        let mut total = 0;
        for g in 1..=count {
            let (vertices, k): (u32, u32) =
                reader.pair(("m", 1..=MAX_VERTICES), ("k", 0..=MAX_EDGES))?;
            total += k;
            if total > MAX_EDGES {
                return Err(ValidationError::new(
                    reader.line_number(),
                    format!("the decorations have more than {MAX_EDGES} edges in all"),
                ));
            }
            let first = reader.line_number() + 1;
            let mut edges = Vec::with_capacity(k as usize);
            let mut present = Vec::with_capacity(k as usize);
            for e in 1..=k {
                let line = reader.line("an edge \"a b\" (`0 0` for a fallen edge)")?;
                line.expect_len(2, "a b")?;
                let (a, b): (u32, u32) = (
                    line.int(0, "a", 0..=vertices)?,
                    line.int(1, "b", 0..=vertices)?,
                );
                if (a, b) == (0, 0) {
                    edges.push((0, 0));
                    present.push(false);
                    continue;
                }
                if a == 0 || b == 0 || a == b {
                    return Err(line.error(format!(
                        "edge {e} is {a} {b}: an edge joins two different vertices 1 to \
                         {vertices} (`0 0` for an edge that has fallen)"
                    )));
                }
                edges.push((a - 1, b - 1));
                present.push(true);
            }
            let hanging = Hanging {
                vertices,
                edges: edges.into(),
                present,
            };
            let reached = hanging.reached();
            if let Some(e) = hanging
                .standing()
                .find(|&e| !reached[hanging.edges[e].0 as usize])
            {
                return Err(ValidationError::new(
                    first + e,
                    format!(
                        "edge {} of decoration {g} is not connected to the root, vertex 1 (a \
                         fallen edge is written `0 0`)",
                        e + 1
                    ),
                ));
            }
            let (n, compact, numbers) = hanging.compact();
            if let Err(RingError::NotARing { edge, .. }) = hackenbush::ring_graph_value(n, &compact)
            {
                return Err(ValidationError::new(
                    first + numbers[edge],
                    format!(
                        "the cycle through edge {} of decoration {g} is not a ring hanging from \
                         one vertex",
                        numbers[edge] + 1
                    ),
                ));
            }
            decorations.push(hanging);
        }
        Ok(decorations)
    }

    fn write_position(&self, decorations: &Vec<Hanging>, out: &mut String) {
        super::push_line(out, [decorations.len()]);
        for d in decorations {
            super::push_line(out, [d.vertices, d.edges.len() as u32]);
            for (e, &(a, b)) in d.edges.iter().enumerate() {
                if d.present[e] {
                    super::push_line(out, [a + 1, b + 1]);
                } else {
                    out.push_str("0 0\n");
                }
            }
        }
    }

    fn start_rule(&self, decorations: &Vec<Hanging>) -> Result<(), String> {
        for (g, d) in (1..).zip(decorations) {
            if let Some(e) = d.present.iter().position(|&p| !p) {
                return Err(format!(
                    "edge {} of decoration {g} has fallen; a game starts with every edge",
                    e + 1
                ));
            }
            if let Some(v) = d.reached().iter().position(|&r| !r) {
                return Err(format!(
                    "vertex {} of decoration {g} is not connected to its root",
                    v + 1
                ));
            }
        }
        if self.is_over(decorations) {
            return Err("no decoration has an edge; a game starts with an edge to delete".into());
        }
        Ok(())
    }

    fn words(&self, decorations: &Vec<Hanging>) -> String {
        let sizes: Vec<String> = decorations
            .iter()
            .map(|d| d.standing().count().to_string())
            .collect();
        let (last, rest) = sizes.split_last().expect("a position has a decoration");
        match (rest, last.as_str()) {
            ([], "1") => "a decoration of 1 edge".to_owned(),
            ([], _) => format!("a decoration of {last} edges"),
            _ => format!("decorations of {} and {last} edges", rest.join(", ")),
        }
    }

    fn is_over(&self, decorations: &Vec<Hanging>) -> bool {
        all_moves(decorations).next().is_none()
    }

    fn value(&self, decorations: &Vec<Hanging>) -> Value {
        let sum = nim_sum(decorations);
        Value {
            win: sum != 0,
            grundy: Some(sum),
        }
    }

    fn value_words(&self, decorations: &Vec<Hanging>, value: &Value) -> String {
        let values: Vec<u64> = decorations.iter().map(Hanging::value).collect();
        let name = if values.len() == 1 {
            "Grundy value"
        } else {
            "nim-sum"
        };
        let zero = if value.win { " ≠ 0" } else { "" };
        format!("with {name} {}{zero}", nim_sum_text(&values))
    }

    fn read_move(&self, decorations: &Vec<Hanging>, text: &str) -> Result<(usize, usize), String> {
        let numbers: Option<Vec<i128>> = text
            .split_ascii_whitespace()
            .map(|t| t.parse().ok())
            .collect();
        let Some(&[g, e]) = numbers.as_deref() else {
            return Err("a move is `g e`: delete edge e of decoration g".to_owned());
        };
        let count = decorations.len() as i128;
        if !(1..=count).contains(&g) {
            return Err(format!(
                "there is no decoration {g} (the decorations are 1 to {count})"
            ));
        }
        let d = &decorations[(g - 1) as usize];
        let edges = d.edges.len() as i128;
        if !(1..=edges).contains(&e) {
            return Err(match edges {
                0 => format!("decoration {g} has no edges"),
                _ => format!("decoration {g} has no edge {e} (its edges are 1 to {edges})"),
            });
        }
        let (g, e) = ((g - 1) as usize, (e - 1) as usize);
        if !d.present[e] {
            return Err(format!(
                "edge {} of decoration {} has already fallen",
                e + 1,
                g + 1
            ));
        }
        Ok((g, e))
    }

    fn write_move(&self, &(g, e): &(usize, usize)) -> String {
        format!("{} {}", g + 1, e + 1)
    }

    fn move_words(&self, decorations: &Vec<Hanging>, &(g, e): &(usize, usize)) -> String {
        let (a, b) = decorations[g].edges[e];
        format!(
            "edge {} ({}–{}) of decoration {}",
            e + 1,
            a + 1,
            b + 1,
            g + 1
        )
    }

    fn move_done(&self, decorations: &Vec<Hanging>, mv: &(usize, usize)) -> String {
        format!("deleted {}", self.move_words(decorations, mv))
    }

    fn apply(&self, decorations: &Vec<Hanging>, &(g, e): &(usize, usize)) -> Vec<Hanging> {
        let mut after = decorations.clone();
        after[g] = decorations[g].cut(e);
        after
    }

    fn winning_moves(&self, decorations: &Vec<Hanging>) -> Vec<(usize, usize)> {
        let values: Vec<u64> = decorations.iter().map(Hanging::value).collect();
        let sum = values.iter().fold(0, |x, v| x ^ v);
        if sum == 0 {
            return Vec::new();
        }
        all_moves(decorations)
            .filter(|&(g, e)| decorations[g].cut(e).value() == values[g] ^ sum)
            .take(MAX_LISTED)
            .collect()
    }

    fn referee_move(
        &self,
        decorations: &Vec<Hanging>,
        played: usize,
        rng: &mut TestRng,
    ) -> (usize, usize) {
        if let Some(&mv) = self.winning_moves(decorations).choose(rng) {
            return mv;
        }
        let moves: Vec<(usize, usize)> = all_moves(decorations).collect();
        if played < 4 && rng.random_bool(0.4) {
            return *moves.choose(rng).expect("the game is not over");
        }
        // Lost: the deletion that fells the most edges ends the game soonest.
        let left = |&(g, e): &(usize, usize)| decorations[g].cut(e).standing().count();
        let fewest = moves.iter().map(left).min().expect("the game is not over");
        let heaviest: Vec<(usize, usize)> =
            moves.into_iter().filter(|m| left(m) == fewest).collect();
        *heaviest.choose(rng).expect("one deletion fells the most")
    }

    fn random_start(&self, rng: &mut TestRng) -> Vec<Hanging> {
        let lost = rng.random_bool(0.4);
        for _ in 0..100 {
            let count = rng.random_range(1..=3);
            let mut start: Vec<Hanging> = (0..count).map(|_| some_decoration(rng)).collect();
            let sum = nim_sum(&start);
            if lost && sum != 0 {
                // One more decoration worth the others' nim-sum cancels them: a random one that
                // happens to be, or a stalk of that many edges.
                let cancel = (0..20)
                    .map(|_| some_decoration(rng))
                    .find(|d| d.value() == sum)
                    .unwrap_or_else(|| {
                        let stalk = sum.min(u64::from(MAX_EDGES)) as u32;
                        Hanging::new(Decoration {
                            vertices: stalk + 1,
                            edges: (0..stalk).map(|v| (v, v + 1)).collect(),
                        })
                    });
                start.push(cancel);
            }
            let edges: usize = start.iter().map(|d| d.edges.len()).sum();
            if edges <= MAX_EDGES as usize && self.value(&start).win != lost {
                return start;
            }
        }
        vec![Hanging::new(Decoration {
            vertices: 2,
            edges: vec![(0, 1)],
        })]
    }

    fn notation(&self) -> Notation {
        Notation {
            position: Words {
                en: "`N` decorations, then for each `m k` (vertices 1 to m, the root is 1; k \
                     edges) and its k edges `a b`, one per line; a fallen edge is `0 0`: `1`, \
                     `3 3`, `1 2`, `2 3`, `3 2` is a stalk 1–2 with a double edge 2–3. At most \
                     4 decorations, 16 vertices each and 15 edges in all.",
                vi: "`N` món đồ trang trí, rồi với mỗi món là `m k` (các đỉnh từ 1 đến m, gốc \
                     là 1; k cạnh) và k cạnh `a b`, mỗi cạnh một dòng; cạnh đã rơi ghi là `0 0`: \
                     `1`, `3 3`, `1 2`, `2 3`, `3 2` là cành 1–2 với cạnh đôi 2–3. Tối đa 4 món, \
                     mỗi món 16 đỉnh, và tổng cộng 15 cạnh.",
            },
            moves: Words {
                en: "`g e` deletes edge e of decoration g (both numbered from 1 in the order \
                     given); whatever no longer hangs from the root falls: `1 2`.",
                vi: "`g e` xoá cạnh e của món g (cả hai đánh số từ 1 theo thứ tự cho); phần \
                     không còn nối với gốc sẽ rơi: `1 2`.",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::christmas::small_decorations;
    use crate::play::{Board, Played};
    use std::collections::{HashMap, HashSet};

    const BOARD: Played<ChristmasPlay> = Played(ChristmasPlay);

    /// A position's text read afresh: the decorations side by side with their roots made one
    /// vertex 0 (hanging them on one hook changes nothing), and each edge's decoration and
    /// number; fallen edges left out.
    fn merged(text: &str) -> Vec<((usize, usize), (usize, usize))> {
        let mut lines = text.lines().map(|l| {
            l.split(' ')
                .map(|t| t.parse::<usize>().unwrap())
                .collect::<Vec<_>>()
        });
        let count = lines.next().unwrap()[0];
        let mut edges = Vec::new();
        let mut offset = 0;
        for g in 0..count {
            let head = lines.next().unwrap();
            let id = |v: usize| if v == 1 { 0 } else { offset + v };
            for e in 0..head[1] {
                let ab = lines.next().unwrap();
                if ab != [0, 0] {
                    edges.push(((id(ab[0]), id(ab[1])), (g, e)));
                }
            }
            offset += head[0];
        }
        edges
    }

    /// The edges of `mask` still joined to the root.
    fn prune(edges: &[(usize, usize)], mask: u32) -> u32 {
        let mut reached = 1u64;
        let mut kept = 0u32;
        loop {
            let before = kept;
            for (i, &(a, b)) in edges.iter().enumerate() {
                if mask >> i & 1 == 1 && (reached >> a | reached >> b) & 1 == 1 {
                    kept |= 1 << i;
                    reached |= 1 << a | 1 << b;
                }
            }
            if kept == before {
                return kept;
            }
        }
    }

    /// The Grundy value by the literal rules: delete an edge, and what no longer hangs falls.
    fn grundy(edges: &[(usize, usize)], mask: u32, memo: &mut HashMap<u32, u32>) -> u32 {
        if let Some(&g) = memo.get(&mask) {
            return g;
        }
        let seen: Vec<u32> = (0..edges.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| grundy(edges, prune(edges, mask & !(1 << i)), memo))
            .collect();
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        memo.insert(mask, g);
        g
    }

    /// Checks a position against the search, and returns where each move leads.
    fn check(position: &str) -> Vec<String> {
        let named = merged(position);
        let edges: Vec<(usize, usize)> = named.iter().map(|&(e, _)| e).collect();
        let all = ((1u64 << edges.len()) - 1) as u32;
        let mut memo = HashMap::new();
        let g = grundy(&edges, all, &mut memo);
        let value = BOARD.value(position).unwrap();
        assert_eq!(
            (value.win, value.grundy),
            (g != 0, Some(g.into())),
            "{position}"
        );
        let mut winning = HashSet::new();
        let mut after = Vec::new();
        for (i, &(_, (d, e))) in named.iter().enumerate() {
            let text = format!("{} {}", d + 1, e + 1);
            let left = prune(&edges, all & !(1 << i));
            let played = BOARD.play(position, &text).unwrap();
            // The board's position after the move keeps exactly the edges still hanging.
            let kept: HashSet<(usize, usize)> =
                merged(&played.after).iter().map(|&(_, n)| n).collect();
            let hanging: HashSet<(usize, usize)> = (0..named.len())
                .filter(|j| left >> j & 1 == 1)
                .map(|j| named[j].1)
                .collect();
            assert_eq!(kept, hanging, "{position}{text}");
            if grundy(&edges, left, &mut memo) == 0 {
                winning.insert(text);
            }
            after.push(played.after);
        }
        let hints = BOARD.winning_moves(position).unwrap();
        assert_eq!(hints.is_empty(), g == 0, "{position}");
        for mv in &hints {
            assert!(winning.contains(&mv.text), "{position}{mv:?}");
            assert_eq!(mv.value.grundy, Some(0));
        }
        if hints.len() < MAX_LISTED {
            let listed: HashSet<String> = hints.into_iter().map(|m| m.text).collect();
            assert_eq!(listed, winning, "{position}");
        }
        after
    }

    fn text(decorations: &[&Decoration]) -> String {
        let mut out = format!("{}\n", decorations.len());
        for d in decorations {
            out += &format!("{} {}\n", d.vertices, d.edges.len());
            for (a, b) in &d.edges {
                out += &format!("{} {}\n", a + 1, b + 1);
            }
        }
        out
    }

    /// Every position a game from `start` can reach, each checked once.
    fn check_all_game_long(start: String, seen: &mut HashSet<String>) {
        let mut stack = vec![start];
        while let Some(position) = stack.pop() {
            if seen.insert(position.clone()) {
                stack.extend(check(&position));
            }
        }
    }

    #[test]
    fn values_and_hints_agree_with_a_search_of_the_rules() {
        // Every decoration of at most four edges, alone and beside one of at most two edges
        // (their edge numbers in both orders), and every position a game from them reaches.
        let small = small_decorations(4);
        let mut seen = HashSet::new();
        for a in &small {
            check_all_game_long(text(&[a]), &mut seen);
            for b in small.iter().filter(|b| b.edges.len() <= 2) {
                check_all_game_long(text(&[a, b]), &mut seen);
                let mut backwards = a.clone();
                backwards.edges.reverse();
                check_all_game_long(text(&[b, &backwards]), &mut seen);
            }
        }
        assert!(seen.len() > 1000, "{} positions", seen.len());
    }

    #[test]
    fn random_starts_agree_with_the_search_all_game_long() {
        let mut lost = 0;
        for seed in 0..30 {
            let start = BOARD.random_start(seed);
            assert_eq!(BOARD.check_start(&start).unwrap(), start);
            // No bare root: a decoration's line `m 0` (an edge never ends at 0 in a start).
            assert!(!start.lines().any(|l| l.ends_with(" 0")), "{start}");
            lost += usize::from(!BOARD.value(&start).unwrap().win);
            let mut position = start;
            for step in 0.. {
                check(&position);
                match BOARD.reply(&position, seed + step).unwrap() {
                    Some(mv) => position = mv.after,
                    None => break,
                }
            }
        }
        assert!((6..=24).contains(&lost), "{lost} of 30 starts are lost");
    }

    #[test]
    fn moves_and_positions_are_refused_with_the_rule() {
        // The statement's example: an edge, and a stalk 1–2 with a triangle 2–3–4 hung at 2.
        let example = "2\n2 1\n1 2\n4 4\n1 2\n2 3\n2 4\n3 4\n";
        let refused = |mv: &str| BOARD.play(example, mv).unwrap_err().to_string();
        assert_eq!(
            refused("3 1"),
            "there is no decoration 3 (the decorations are 1 to 2)"
        );
        assert_eq!(
            refused("2 5"),
            "decoration 2 has no edge 5 (its edges are 1 to 4)"
        );
        assert!(refused("2").contains("a move is `g e`"));
        let cut = BOARD.play(example, "2 1").unwrap();
        assert_eq!(cut.after, "2\n2 1\n1 2\n4 4\n0 0\n0 0\n0 0\n0 0\n");
        assert_eq!(cut.words, "edge 1 (1–2) of decoration 2");
        assert_eq!(cut.after_words, "decorations of 1 and 0 edges");
        assert_eq!(
            BOARD.play(&cut.after, "2 3").unwrap_err().to_string(),
            "edge 3 of decoration 2 has already fallen"
        );
        let not = |text: &str| BOARD.check(text).unwrap_err().to_string();
        // Two triangles sharing the edge 2–3: a cycle that is not a ring.
        let theta = "1\n4 5\n1 2\n2 3\n3 1\n2 4\n4 3\n";
        assert!(
            not(theta).contains("is not a ring hanging from one vertex"),
            "{}",
            not(theta)
        );
        assert!(
            not("1\n3 1\n2 3\n").contains("edge 1 of decoration 1 is not connected to the root")
        );
        assert!(not("1\n2 1\n1 1\n").contains("an edge joins two different vertices"));
        assert!(not("1\n17 0\n").contains("m = 17 is outside 1..=16"));
        assert!(
            not("2\n9 8\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 8\n")
                .contains("more than 15 edges in all")
        );
        let start = |text: &str| BOARD.check_start(text).unwrap_err().to_string();
        assert!(start(&cut.after).contains("has fallen; a game starts with every edge"));
        assert!(start("1\n3 1\n1 2\n").contains("vertex 3 of decoration 1 is not connected"));
    }
}
