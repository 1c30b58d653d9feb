//! Every-SG: several tokens on a DAG, and every token that can move must be moved each turn. The
//! player who makes the last move overall wins, so a player drags out the components they win and
//! cuts short the ones they lose: the first player wins iff the largest `step` is odd, where
//! `step` is 0 at a sink, one more than the largest step among losing successors at a winning
//! vertex, and one more than the smallest step among successors at a losing vertex.

use crate::Outcome;
use crate::graph::{self, CycleError, Graph};
use crate::implicit::{self, Game};

pub fn steps(graph: &Graph) -> Result<Vec<u64>, CycleError> {
    let order = graph::topological_order(graph)?;
    let labels = graph::outcomes(graph);
    let mut step = vec![0u64; graph.vertex_count()];
    for &v in order.iter().rev() {
        let successors = graph.successors(v);
        if successors.is_empty() {
            continue;
        }
        step[v as usize] = 1 + if labels[v as usize] == Outcome::Win {
            successors
                .iter()
                .filter(|&&w| labels[w as usize] == Outcome::Lose)
                .map(|&w| step[w as usize])
                .max()
                .expect("a winning vertex has a losing successor")
        } else {
            successors
                .iter()
                .map(|&w| step[w as usize])
                .min()
                .expect("non-empty")
        };
    }
    Ok(step)
}

/// Whether the first player wins with tokens on `tokens`, given every vertex's step.
pub fn first_wins(step: &[u64], tokens: &[u32]) -> bool {
    tokens.iter().map(|&t| step[t as usize]).max().unwrap_or(0) % 2 == 1
}

/// Literal rules for brute force: the sorted token positions; a move moves every movable token.
#[derive(Debug)]
pub struct EveryRules<'a> {
    pub graph: &'a Graph,
}

impl Game for EveryRules<'_> {
    type Position = Vec<u32>;
    fn moves(&self, tokens: &Vec<u32>) -> Vec<Vec<u32>> {
        if tokens.iter().all(|&t| self.graph.successors(t).is_empty()) {
            return Vec::new();
        }
        let mut partial: Vec<Vec<u32>> = vec![Vec::new()];
        for &t in tokens {
            let options: Vec<u32> = match self.graph.successors(t) {
                [] => vec![t],
                successors => successors.to_vec(),
            };
            partial = partial
                .iter()
                .flat_map(|p| {
                    options.iter().map(move |&o| {
                        let mut next = p.clone();
                        next.push(o);
                        next
                    })
                })
                .collect();
        }
        for p in &mut partial {
            p.sort_unstable();
        }
        partial.sort();
        partial.dedup();
        partial
    }
}

pub fn brute_force_first_wins(graph: &Graph, tokens: &[u32], limit: usize) -> Option<bool> {
    let mut start = tokens.to_vec();
    start.sort_unstable();
    implicit::outcome(&EveryRules { graph }, start, limit)
        .ok()
        .map(|o| o.is_win())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_long_losing_component_beats_a_short_winning_one() {
        // Token A on a single edge 0 → 1 (first wins it in 1 step); token B on the path
        // 2 → 3 → 4 (a losing start, step 2). Max step 2 is even: the second player wins, though
        // the xor of Grundy values (1 ^ 0) would say first.
        let g = Graph::from_edges(5, &[(0, 1), (2, 3), (3, 4)]);
        let step = steps(&g).unwrap();
        assert_eq!(step, vec![1, 0, 2, 1, 0]);
        assert!(!first_wins(&step, &[0, 2]));
        assert_eq!(brute_force_first_wins(&g, &[0, 2], 1000), Some(false));
    }

    proptest! {
        #[test]
        fn step_rule_matches_game_tree(
            pairs in prop::collection::vec((0u32..7, 0u32..7), 0..12),
            tokens in prop::collection::vec(0u32..7, 1..4),
        ) {
            let edges: Vec<(u32, u32)> = pairs.into_iter().filter(|(a, b)| a != b).map(|(a, b)| (a.min(b), a.max(b))).collect();
            let g = Graph::from_edges(7, &edges);
            let step = steps(&g).unwrap();
            prop_assert_eq!(Some(first_wins(&step, &tokens)), brute_force_first_wins(&g, &tokens, 1_000_000));
        }
    }
}
