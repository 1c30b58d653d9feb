//! Maximum bipartite matching (Hopcroft–Karp, iterative) and the vertices that lie in every
//! maximum matching — which decides undirected vertex geography.

use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

/// A bipartite graph: `left` vertices with adjacency lists into `0..right`.
#[derive(Debug, Clone)]
pub struct Bipartite {
    pub right: usize,
    pub adjacency: Vec<Vec<u32>>,
}

/// A maximum matching: the partner of every left and right vertex, `None` if unmatched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matching {
    pub left: Vec<Option<u32>>,
    pub right: Vec<Option<u32>>,
}

impl Matching {
    pub fn size(&self) -> usize {
        self.left.iter().flatten().count()
    }
}

pub fn maximum_matching(graph: &Bipartite) -> Matching {
    let n = graph.adjacency.len();
    let mut match_left = vec![NONE; n];
    let mut match_right = vec![NONE; graph.right];
    let mut distance = vec![u32::MAX; n];
    loop {
        // Layer the free left vertices and everything reachable by alternating paths.
        let mut queue = VecDeque::new();
        for v in 0..n {
            if match_left[v] == NONE {
                distance[v] = 0;
                queue.push_back(v as u32);
            } else {
                distance[v] = u32::MAX;
            }
        }
        let mut found_free_right = false;
        while let Some(v) = queue.pop_front() {
            for &w in &graph.adjacency[v as usize] {
                let partner = match_right[w as usize];
                if partner == NONE {
                    found_free_right = true;
                } else if distance[partner as usize] == u32::MAX {
                    distance[partner as usize] = distance[v as usize] + 1;
                    queue.push_back(partner);
                }
            }
        }
        if !found_free_right {
            break;
        }
        // Vertex-disjoint shortest augmenting paths, by an explicit-stack DFS along the layers.
        let mut next_edge = vec![0usize; n];
        for start in 0..n {
            if match_left[start] != NONE {
                continue;
            }
            let mut path: Vec<u32> = vec![start as u32];
            while let Some(&v) = path.last() {
                let v = v as usize;
                if next_edge[v] == graph.adjacency[v].len() {
                    distance[v] = u32::MAX;
                    path.pop();
                    continue;
                }
                let w = graph.adjacency[v][next_edge[v]];
                next_edge[v] += 1;
                let partner = match_right[w as usize];
                if partner == NONE {
                    // Augment along the path: each left vertex on it takes the right vertex it
                    // stepped through, the last one takes w.
                    let mut take = w;
                    for &u in path.iter().rev() {
                        let previous = match_left[u as usize];
                        match_left[u as usize] = take;
                        match_right[take as usize] = u;
                        take = previous;
                    }
                    break;
                } else if distance[partner as usize] == distance[v] + 1 {
                    path.push(partner);
                }
            }
        }
    }
    let wrap = |v: &u32| (*v != NONE).then_some(*v);
    Matching {
        left: match_left.iter().map(wrap).collect(),
        right: match_right.iter().map(wrap).collect(),
    }
}

/// Which vertices avoid some maximum matching: the unmatched ones and those an even alternating
/// path reaches from an unmatched vertex of the same side. The others are in every maximum
/// matching. Returns `(left, right)` flags.
pub fn avoidable(graph: &Bipartite, matching: &Matching) -> (Vec<bool>, Vec<bool>) {
    let n = graph.adjacency.len();
    let mut reverse: Vec<Vec<u32>> = vec![Vec::new(); graph.right];
    for (v, targets) in graph.adjacency.iter().enumerate() {
        for &w in targets {
            reverse[w as usize].push(v as u32);
        }
    }
    let walk = |adjacency: &[Vec<u32>], mine: &[Option<u32>], theirs: &[Option<u32>]| {
        let mut free = vec![false; adjacency.len()];
        let mut queue: VecDeque<usize> = (0..adjacency.len())
            .filter(|&v| mine[v].is_none())
            .collect();
        for &v in &queue {
            free[v] = true;
        }
        while let Some(v) = queue.pop_front() {
            for &w in &adjacency[v] {
                if let Some(partner) = theirs[w as usize] {
                    let partner = partner as usize;
                    if !free[partner] {
                        free[partner] = true;
                        queue.push_back(partner);
                    }
                }
            }
        }
        free
    };
    let left = walk(&graph.adjacency, &matching.left, &matching.right);
    let right = walk(&reverse, &matching.right, &matching.left);
    debug_assert_eq!(left.len(), n);
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_maximum(graph: &Bipartite) -> usize {
        // Try every subset of edges for small graphs.
        let edges: Vec<(usize, u32)> = graph
            .adjacency
            .iter()
            .enumerate()
            .flat_map(|(v, ws)| ws.iter().map(move |&w| (v, w)))
            .collect();
        (0u32..1 << edges.len())
            .filter(|mask| {
                let chosen: Vec<_> = edges
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, e)| e)
                    .collect();
                let mut lefts: Vec<_> = chosen.iter().map(|e| e.0).collect();
                let mut rights: Vec<_> = chosen.iter().map(|e| e.1).collect();
                lefts.sort_unstable();
                lefts.dedup();
                rights.sort_unstable();
                rights.dedup();
                lefts.len() == chosen.len() && rights.len() == chosen.len()
            })
            .map(|mask| mask.count_ones() as usize)
            .max()
            .unwrap_or(0)
    }

    fn graph() -> impl Strategy<Value = Bipartite> {
        (1usize..5, 1usize..5).prop_flat_map(|(l, r)| {
            prop::collection::vec(prop::collection::btree_set(0..r as u32, 0..=r.min(3)), l)
                .prop_map(move |sets| Bipartite {
                    right: r,
                    adjacency: sets.into_iter().map(|s| s.into_iter().collect()).collect(),
                })
        })
    }

    proptest! {
        #[test]
        fn matching_is_maximum(graph in graph()) {
            let m = maximum_matching(&graph);
            prop_assert_eq!(m.size(), brute_maximum(&graph));
            for (v, partner) in m.left.iter().enumerate() {
                if let Some(w) = partner {
                    prop_assert!(graph.adjacency[v].contains(w));
                    prop_assert_eq!(m.right[*w as usize], Some(v as u32));
                }
            }
        }

        #[test]
        fn avoidable_vertices_are_exactly_those_some_maximum_matching_misses(graph in graph()) {
            let m = maximum_matching(&graph);
            let (left, _) = avoidable(&graph, &m);
            let full = m.size();
            for v in 0..graph.adjacency.len() {
                // v avoids some maximum matching iff deleting it keeps the maximum size.
                let mut without = graph.clone();
                without.adjacency[v].clear();
                prop_assert_eq!(left[v], maximum_matching(&without).size() == full, "left vertex {}", v);
            }
        }
    }
}
