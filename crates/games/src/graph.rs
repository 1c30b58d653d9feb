//! Games on explicit directed graphs: a token sits on a vertex and a move follows an edge.
//!
//! Everything here is iterative. The catalogue's DAG game has paths of a million vertices, and a
//! recursive search over one of those overflows any default thread stack.

use crate::Outcome;
use crate::mex::Mex;
use std::collections::VecDeque;

/// A directed graph in compressed sparse row form, vertices `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

/// The graph has a directed cycle, so Grundy values are undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the graph has a directed cycle through vertex {vertex}")]
pub struct CycleError {
    pub vertex: u32,
}

impl Graph {
    /// Builds the graph from `(from, to)` pairs. Panics if an endpoint is not below `n` or the
    /// sizes do not fit `u32`: callers validate input before building.
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Self {
        assert!(n < u32::MAX as usize && edges.len() < u32::MAX as usize);
        let mut offsets = vec![0u32; n + 1];
        for &(from, to) in edges {
            assert!(
                (from as usize) < n && (to as usize) < n,
                "edge endpoint out of range"
            );
            offsets[from as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut cursor = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(from, to) in edges {
            let slot = &mut cursor[from as usize];
            targets[*slot as usize] = to;
            *slot += 1;
        }
        Graph { offsets, targets }
    }

    pub fn vertex_count(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The same vertices with every edge turned around.
    pub fn reversed(&self) -> Graph {
        let edges: Vec<(u32, u32)> = (0..self.vertex_count() as u32)
            .flat_map(|v| self.successors(v).iter().map(move |&w| (w, v)))
            .collect();
        Graph::from_edges(self.vertex_count(), &edges)
    }
}

/// Kahn's algorithm: the vertices it can order, and the in-degrees left over (non-zero exactly
/// on the vertices that lie on or after a cycle).
fn kahn(graph: &Graph) -> (Vec<u32>, Vec<u32>) {
    let n = graph.vertex_count();
    let mut in_degree = vec![0u32; n];
    for &w in &graph.targets {
        in_degree[w as usize] += 1;
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&v| in_degree[v as usize] == 0)
        .collect();
    let mut next = 0;
    while next < order.len() {
        let v = order[next];
        next += 1;
        for &w in graph.successors(v) {
            in_degree[w as usize] -= 1;
            if in_degree[w as usize] == 0 {
                order.push(w);
            }
        }
    }
    (order, in_degree)
}

/// Vertices ordered so that every edge goes from an earlier to a later one.
pub fn topological_order(graph: &Graph) -> Result<Vec<u32>, CycleError> {
    let (order, in_degree) = kahn(graph);
    if order.len() == graph.vertex_count() {
        Ok(order)
    } else {
        let cycle = cycle_among_leftovers(graph, &in_degree)
            .expect("Kahn's algorithm stops only on a cycle");
        Err(CycleError { vertex: cycle[0] })
    }
}

/// The vertices of one directed cycle, in order (each has an edge to the next, the last to the
/// first), or `None` for an acyclic graph.
pub fn find_cycle(graph: &Graph) -> Option<Vec<u32>> {
    cycle_among_leftovers(graph, &kahn(graph).1)
}

/// Every vertex Kahn's algorithm left has a predecessor it left too: walking back n steps from
/// one lands on a cycle, which the walk then traces.
fn cycle_among_leftovers(graph: &Graph, in_degree: &[u32]) -> Option<Vec<u32>> {
    let n = graph.vertex_count();
    let stuck = (0..n as u32).find(|&v| in_degree[v as usize] > 0)?;
    let mut predecessor = vec![u32::MAX; n];
    for v in (0..n as u32).filter(|&v| in_degree[v as usize] > 0) {
        for &w in graph.successors(v) {
            if in_degree[w as usize] > 0 {
                predecessor[w as usize] = v;
            }
        }
    }
    let mut v = stuck;
    for _ in 0..n {
        v = predecessor[v as usize];
    }
    let mut cycle = vec![v];
    let mut u = predecessor[v as usize];
    while u != v {
        cycle.push(u);
        u = predecessor[u as usize];
    }
    cycle.reverse();
    Some(cycle)
}

/// Grundy value of every vertex of an acyclic graph: the mex of its successors' values.
pub fn grundy_values(graph: &Graph) -> Result<Vec<u32>, CycleError> {
    let order = topological_order(graph)?;
    let mut values = vec![0u32; graph.vertex_count()];
    let mut mex = Mex::default();
    for &v in order.iter().rev() {
        values[v as usize] = mex.of(graph.successors(v).iter().map(|&w| values[w as usize]));
    }
    Ok(values)
}

/// Win/lose/draw label of every vertex by retrograde analysis, for any graph.
///
/// Sinks lose; a vertex with a losing successor wins; a vertex whose successors all win loses.
/// Whatever is never labelled lies on or leads only into cycles the winner cannot force a way out
/// of, and is a draw. Linear in the size of the graph.
pub fn outcomes(graph: &Graph) -> Vec<Outcome> {
    let n = graph.vertex_count();
    let predecessors = graph.reversed();
    let mut undecided_successors: Vec<u32> = (0..n as u32)
        .map(|v| graph.successors(v).len() as u32)
        .collect();
    let mut labels: Vec<Option<Outcome>> = vec![None; n];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for v in 0..n {
        if undecided_successors[v] == 0 {
            labels[v] = Some(Outcome::Lose);
            queue.push_back(v as u32);
        }
    }
    while let Some(v) = queue.pop_front() {
        let v_loses = labels[v as usize] == Some(Outcome::Lose);
        for &u in predecessors.successors(v) {
            let u = u as usize;
            if labels[u].is_some() {
                continue;
            }
            if v_loses {
                labels[u] = Some(Outcome::Win);
                queue.push_back(u as u32);
            } else {
                undecided_successors[u] -= 1;
                if undecided_successors[u] == 0 {
                    labels[u] = Some(Outcome::Lose);
                    queue.push_back(u as u32);
                }
            }
        }
    }
    labels
        .into_iter()
        .map(|l| l.unwrap_or(Outcome::Draw))
        .collect()
}

/// Brute force for acyclic graphs: a position wins iff some move reaches a losing one, searched
/// straight from that definition with memoisation. The one recursive search here, kept for
/// cross-checks on graphs of at most a few thousand vertices.
pub fn brute_force_wins(graph: &Graph, v: u32, memo: &mut Vec<Option<bool>>) -> bool {
    if memo.len() < graph.vertex_count() {
        memo.resize(graph.vertex_count(), None);
    }
    if let Some(known) = memo[v as usize] {
        return known;
    }
    let wins = graph
        .successors(v)
        .iter()
        .any(|&w| !brute_force_wins(graph, w, memo));
    memo[v as usize] = Some(wins);
    wins
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn path(n: u32) -> Graph {
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        Graph::from_edges(n as usize, &edges)
    }

    #[test]
    fn long_path_does_not_overflow_the_stack() {
        let n = 1_000_000;
        let g = path(n);
        let labels = outcomes(&g);
        // The last vertex is a sink and loses; labels alternate back to the start.
        assert_eq!(labels[(n - 1) as usize], Outcome::Lose);
        assert_eq!(labels[0], Outcome::Win);
        assert_eq!(
            labels.iter().filter(|l| l.is_win()).count(),
            (n / 2) as usize
        );
        let values = grundy_values(&g).unwrap();
        assert_eq!(values[0], 1);
        assert_eq!(values[1], 0);
    }

    #[test]
    fn cycles_are_reported_and_drawn() {
        // 0 -> 1 -> 2 -> 0, 2 -> 3 (sink). From 2 the mover escapes to the sink and wins; from 1
        // the mover must go to 2 and loses; from 0 the mover goes to 1 and wins.
        let g = Graph::from_edges(4, &[(0, 1), (1, 2), (2, 0), (2, 3)]);
        assert!(grundy_values(&g).is_err());
        // Vertex 4 hangs after the cycle: the error must name a vertex on it.
        let after = Graph::from_edges(5, &[(4, 0), (0, 1), (1, 2), (2, 0), (2, 3)]);
        let cycle = find_cycle(&after).unwrap();
        assert_eq!(cycle.len(), 3);
        for (i, &v) in cycle.iter().enumerate() {
            assert!(after.successors(v).contains(&cycle[(i + 1) % 3]));
        }
        assert!(cycle.contains(&topological_order(&after).unwrap_err().vertex));
        assert_eq!(find_cycle(&path(10)), None);
        assert_eq!(
            outcomes(&g),
            vec![Outcome::Win, Outcome::Lose, Outcome::Win, Outcome::Lose]
        );
        // A bare two-cycle is a draw.
        let g = Graph::from_edges(2, &[(0, 1), (1, 0)]);
        assert_eq!(outcomes(&g), vec![Outcome::Draw, Outcome::Draw]);
    }

    #[test]
    fn grundy_values_of_a_small_dag() {
        // 0 -> {1, 2}, 1 -> 2, 2 sink: g(2)=0, g(1)=1, g(0)=mex{1,0}=2.
        let g = Graph::from_edges(3, &[(0, 1), (0, 2), (1, 2)]);
        assert_eq!(grundy_values(&g).unwrap(), vec![2, 1, 0]);
    }

    fn random_dag() -> impl Strategy<Value = Graph> {
        (1usize..12).prop_flat_map(|n| {
            prop::collection::vec((0..n as u32, 0..n as u32), 0..30).prop_map(move |pairs| {
                // Orient every pair from the smaller to the larger vertex: always acyclic.
                let edges: Vec<(u32, u32)> = pairs
                    .into_iter()
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| (a.min(b), a.max(b)))
                    .collect();
                Graph::from_edges(n, &edges)
            })
        })
    }

    proptest! {
        #[test]
        fn retrograde_labels_agree_with_brute_force(g in random_dag()) {
            let labels = outcomes(&g);
            let values = grundy_values(&g).unwrap();
            let mut memo = Vec::new();
            for v in 0..g.vertex_count() as u32 {
                let wins = brute_force_wins(&g, v, &mut memo);
                prop_assert_eq!(labels[v as usize].is_win(), wins);
                prop_assert_eq!(values[v as usize] != 0, wins);
            }
        }
    }
}
