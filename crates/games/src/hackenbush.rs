//! Green Hackenbush on rooted graphs: a move deletes an edge, and whatever is no longer connected
//! to the root falls away. Trees use the colon principle (a vertex is worth the xor of its
//! children's values plus one); rings hanging off a tree fuse into a vertex (even length) or a
//! single edge (odd length) — the Christmas Game of POJ 3710.

use crate::implicit::{self, Game};
use std::collections::VecDeque;

/// Grundy value of a tree rooted at vertex 0, from its `n − 1` edges (0-based). Iterative: a path
/// of 10⁵ vertices must not recurse.
pub fn tree_value(n: usize, edges: &[(u32, u32)]) -> u64 {
    let mut adjacency = vec![Vec::new(); n];
    for &(a, b) in edges {
        adjacency[a as usize].push(b as usize);
        adjacency[b as usize].push(a as usize);
    }
    let mut parent = vec![usize::MAX; n];
    let mut order = Vec::with_capacity(n);
    let mut queue = VecDeque::from([0usize]);
    parent[0] = 0;
    while let Some(v) = queue.pop_front() {
        order.push(v);
        for &w in &adjacency[v] {
            if parent[w] == usize::MAX {
                parent[w] = v;
                queue.push_back(w);
            }
        }
    }
    let mut value = vec![0u64; n];
    for &v in order.iter().rev().filter(|&&v| v != 0) {
        value[parent[v]] ^= value[v] + 1;
    }
    value[0]
}

/// Why a graph is not a tree with rings attached.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RingError {
    #[error("vertex {0} is not connected to the root")]
    Disconnected(u32),
    #[error(
        "the cycle closed by edge {edge} does not hang off the rest at a single vertex (vertex {vertex} has {degree} edge ends)"
    )]
    NotARing {
        edge: usize,
        vertex: u32,
        degree: usize,
    },
}

/// Grundy value of a connected graph rooted at vertex 0 in which every cycle is a ring attached at
/// one vertex (its other vertices have degree two; a double edge is a ring of length two).
/// An odd ring counts as one pendant edge at its attachment, an even ring as nothing.
pub fn ring_graph_value(n: usize, edges: &[(u32, u32)]) -> Result<u64, RingError> {
    let mut adjacency: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (id, &(a, b)) in edges.iter().enumerate() {
        adjacency[a as usize].push((b as usize, id));
        adjacency[b as usize].push((a as usize, id));
    }
    const UNSEEN: usize = usize::MAX;
    let mut depth = vec![UNSEEN; n];
    let mut parent_edge = vec![usize::MAX; n];
    let mut parent = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut in_ring = vec![false; n];
    let mut odd_rings = vec![0u64; n];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Iterative DFS: (vertex, index of the next adjacency entry to look at).
    let mut stack = vec![(0usize, 0usize)];
    depth[0] = 0;
    on_stack[0] = true;
    while let Some(top) = stack.last_mut() {
        let (v, next) = *top;
        if next == adjacency[v].len() {
            on_stack[v] = false;
            stack.pop();
            continue;
        }
        top.1 += 1;
        let (w, id) = adjacency[v][next];
        if id == parent_edge[v] {
            continue;
        }
        if depth[w] == UNSEEN {
            depth[w] = depth[v] + 1;
            parent_edge[w] = id;
            parent[w] = v;
            children[v].push(w);
            on_stack[w] = true;
            stack.push((w, 0));
        } else if on_stack[w] {
            // A back edge closes the cycle w → … → v → w; all but w must be ring vertices.
            let length = depth[v] - depth[w] + 1;
            let mut u = v;
            while u != w {
                let degree = adjacency[u].len();
                if degree != 2 {
                    return Err(RingError::NotARing {
                        edge: id,
                        vertex: u as u32,
                        degree,
                    });
                }
                in_ring[u] = true;
                u = parent[u];
            }
            odd_rings[w] += (length % 2) as u64;
        }
    }
    if let Some(v) = depth.iter().position(|&d| d == UNSEEN) {
        return Err(RingError::Disconnected(v as u32));
    }
    // Colon principle over the tree that remains, deepest vertices first.
    let mut by_depth: Vec<usize> = (0..n).filter(|&v| !in_ring[v]).collect();
    by_depth.sort_unstable_by_key(|&v| std::cmp::Reverse(depth[v]));
    let mut value = vec![0u64; n];
    for v in by_depth {
        let mut x = odd_rings[v] % 2;
        for &c in &children[v] {
            if !in_ring[c] {
                x ^= value[c] + 1;
            }
        }
        value[v] = x;
    }
    Ok(value[0])
}

/// Literal rules on any rooted multigraph, for brute force: a position is the set of edges still
/// connected to the root, as a bit mask (so at most 64 edges).
#[derive(Debug, Clone)]
pub struct HackenbushRules {
    pub vertices: usize,
    pub edges: Vec<(u32, u32)>,
}

impl HackenbushRules {
    /// The edges of `mask` still connected to vertex 0.
    pub fn prune(&self, mask: u64) -> u64 {
        let mut reached = vec![false; self.vertices];
        reached[0] = true;
        let mut kept = 0u64;
        loop {
            let mut grew = false;
            for (i, &(a, b)) in self.edges.iter().enumerate() {
                if mask >> i & 1 == 1
                    && kept >> i & 1 == 0
                    && (reached[a as usize] || reached[b as usize])
                {
                    kept |= 1 << i;
                    reached[a as usize] = true;
                    reached[b as usize] = true;
                    grew = true;
                }
            }
            if !grew {
                return kept;
            }
        }
    }

    pub fn start(&self) -> u64 {
        assert!(self.edges.len() <= 64);
        let all = if self.edges.len() == 64 {
            u64::MAX
        } else {
            (1u64 << self.edges.len()) - 1
        };
        self.prune(all)
    }
}

impl Game for HackenbushRules {
    type Position = u64;
    fn moves(&self, &mask: &u64) -> Vec<u64> {
        (0..self.edges.len())
            .filter(|&i| mask >> i & 1 == 1)
            .map(|i| self.prune(mask & !(1 << i)))
            .collect()
    }
}

/// Brute-force Grundy value of a rooted multigraph; `None` beyond `limit` positions.
pub fn brute_force_value(vertices: usize, edges: &[(u32, u32)], limit: usize) -> Option<u64> {
    let rules = HackenbushRules {
        vertices,
        edges: edges.to_vec(),
    };
    implicit::grundy(&rules, rules.start(), limit)
        .ok()
        .map(u64::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn one_based(edges: &[(u32, u32)]) -> Vec<(u32, u32)> {
        edges.iter().map(|&(a, b)| (a - 1, b - 1)).collect()
    }

    #[test]
    fn agc017d_samples() {
        type Sample<'a> = (usize, &'a [(u32, u32)], bool);
        let samples: [Sample<'_>; 4] = [
            (5, &[(1, 2), (2, 3), (2, 4), (4, 5)], true),
            (5, &[(1, 2), (2, 3), (1, 4), (4, 5)], false),
            (6, &[(1, 2), (2, 4), (5, 1), (6, 3), (3, 2)], true),
            (7, &[(1, 2), (3, 7), (4, 6), (2, 3), (2, 4), (1, 5)], false),
        ];
        for (n, edges, alice) in samples {
            assert_eq!(tree_value(n, &one_based(edges)) != 0, alice);
        }
    }

    #[test]
    fn christmas_sample() {
        // Graph 1: one edge (value 1). Graph 2: 1-2, then a triangle 2-3-4 hanging at 2: the odd
        // ring is an edge at 2, so 2 is worth 1 and the root 2. Total 1 ^ 2 ≠ 0: Sally wins.
        assert_eq!(ring_graph_value(2, &one_based(&[(1, 2)])), Ok(1));
        assert_eq!(
            ring_graph_value(4, &one_based(&[(1, 2), (2, 3), (2, 4), (3, 4)])),
            Ok(2)
        );
    }

    #[test]
    fn non_rings_are_refused() {
        // Two triangles sharing the edge 2-3 (a "theta"): not a ring graph.
        let theta = one_based(&[(1, 2), (2, 3), (3, 1), (2, 4), (4, 3)]);
        assert!(matches!(
            ring_graph_value(4, &theta),
            Err(RingError::NotARing { .. })
        ));
        assert_eq!(
            ring_graph_value(3, &one_based(&[(1, 2)])),
            Err(RingError::Disconnected(2))
        );
        // A triple edge: the middle vertex of the "ring" has three edge ends.
        let triple = one_based(&[(1, 2), (1, 2), (1, 2)]);
        assert!(ring_graph_value(2, &triple).is_err());
    }

    /// A random tree on `n` vertices with rings of length 2..=5 hung at random vertices.
    fn ring_graph() -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
        (
            1usize..6,
            prop::collection::vec((0usize..100, 2usize..6), 0..3),
            prop::collection::vec(0usize..100, 5),
        )
            .prop_map(|(tree, rings, parents)| {
                let mut edges: Vec<(u32, u32)> = (1..tree)
                    .map(|v| ((parents[v - 1] % v) as u32, v as u32))
                    .collect();
                let mut n = tree;
                for (at, length) in rings {
                    let attach = (at % n.min(tree)) as u32;
                    let mut previous = attach;
                    for _ in 1..length {
                        edges.push((previous, n as u32));
                        previous = n as u32;
                        n += 1;
                    }
                    edges.push((previous, attach));
                }
                (n, edges)
            })
    }

    proptest! {
        #[test]
        fn colon_principle_matches_game_tree(parents in prop::collection::vec(0usize..100, 1..9)) {
            let edges: Vec<(u32, u32)> = parents.iter().enumerate().map(|(i, &p)| ((p % (i + 1)) as u32, i as u32 + 1)).collect();
            let n = edges.len() + 1;
            prop_assert_eq!(Some(tree_value(n, &edges)), brute_force_value(n, &edges, 100_000));
        }

        #[test]
        fn fusion_matches_game_tree((n, edges) in ring_graph()) {
            prop_assume!(edges.len() <= 14);
            prop_assert_eq!(ring_graph_value(n, &edges).ok(), brute_force_value(n, &edges, 1_000_000));
        }
    }
}
