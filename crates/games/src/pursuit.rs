//! Codeforces 1848A: Vika and her friends on a grid; every minute she and every friend move, at the
//! same time, each to a neighbouring room, and she is caught when a friend ends a minute in her
//! room. A friend can catch her iff they start on the same colour of the chessboard colouring:
//! every minute flips every colour, so a friend of the other colour is never in her room, and one
//! of the same colour closes in.

use crate::Outcome;
use crate::graph::{self, Graph};
use std::collections::HashMap;

/// Whether Vika escapes forever: every friend starts on the other colour.
pub fn escapes(vika: (u32, u32), friends: &[(u32, u32)]) -> bool {
    friends
        .iter()
        .all(|&(x, y)| (x + y) % 2 != (vika.0 + vika.1) % 2)
}

/// Brute force on the pursuit graph for a small grid. A minute is modelled as Vika choosing her
/// room and then the friends choosing theirs knowing it (the strongest pursuers), with the catch
/// checked only when the minute ends. Positions from which the friends cannot force a catch are
/// draws, which here means she escapes.
pub fn brute_force_escapes(rows: u32, cols: u32, vika: (u32, u32), friends: &[(u32, u32)]) -> bool {
    type State = (Vec<(u32, u32)>, bool);
    let step = |&(x, y): &(u32, u32)| -> Vec<(u32, u32)> {
        [(0i64, 1i64), (0, -1), (1, 0), (-1, 0)]
            .iter()
            .map(|&(dx, dy)| (x as i64 + dx, y as i64 + dy))
            .filter(|&(a, b)| a >= 1 && b >= 1 && a <= rows as i64 && b <= cols as i64)
            .map(|(a, b)| (a as u32, b as u32))
            .collect()
    };
    let caught = |people: &[(u32, u32)]| people[1..].contains(&people[0]);
    // A caught state at the end of a minute has no moves: Vika, to move, has lost.
    let start: State = (
        std::iter::once(vika)
            .chain(friends.iter().copied())
            .collect(),
        true,
    );
    let mut index: HashMap<State, u32> = HashMap::from([(start.clone(), 0)]);
    let mut states = vec![start];
    let mut edges = Vec::new();
    let mut next = 0;
    while next < states.len() {
        let (people, vika_moves) = states[next].clone();
        let successors: Vec<State> = if vika_moves && caught(&people) {
            Vec::new()
        } else if vika_moves {
            step(&people[0])
                .into_iter()
                .map(|v| {
                    (
                        std::iter::once(v)
                            .chain(people[1..].iter().copied())
                            .collect(),
                        false,
                    )
                })
                .collect()
        } else {
            let mut combos: Vec<Vec<(u32, u32)>> = vec![vec![people[0]]];
            for friend in &people[1..] {
                combos = combos
                    .iter()
                    .flat_map(|c| {
                        step(friend).into_iter().map(move |f| {
                            let mut n = c.clone();
                            n.push(f);
                            n
                        })
                    })
                    .collect();
            }
            combos.into_iter().map(|c| (c, true)).collect()
        };
        for s in successors {
            let id = *index.entry(s.clone()).or_insert_with(|| {
                states.push(s);
                states.len() as u32 - 1
            });
            edges.push((next as u32, id));
        }
        next += 1;
    }
    let labels = graph::outcomes(&Graph::from_edges(states.len(), &edges));
    // Vika to move at the start: Lose means caught; Draw means she escapes (she can never "win").
    labels[0] == Outcome::Draw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn official_sample() {
        assert!(escapes((1, 1), &[(1, 2)]));
        assert!(!escapes((1, 1), &[(2, 2), (2, 2)]));
        assert!(escapes((1, 1), &[(1, 2)]));
        assert!(!escapes((3, 3), &[(1, 1), (1, 5), (5, 1), (5, 5)]));
    }

    #[test]
    fn parity_rule_matches_pursuit_search() {
        for (rows, cols) in [(1, 2), (2, 2), (2, 3), (3, 3), (1, 4)] {
            let cells: Vec<(u32, u32)> = (1..=rows)
                .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                .collect();
            for &vika in &cells {
                for &f in cells.iter().filter(|&&c| c != vika) {
                    assert_eq!(
                        escapes(vika, &[f]),
                        brute_force_escapes(rows, cols, vika, &[f]),
                        "{rows}×{cols} {vika:?} {f:?}"
                    );
                    for &g in cells.iter().filter(|&&c| c != vika) {
                        if rows * cols <= 6 {
                            assert_eq!(
                                escapes(vika, &[f, g]),
                                brute_force_escapes(rows, cols, vika, &[f, g])
                            );
                        }
                    }
                }
            }
        }
    }
}
