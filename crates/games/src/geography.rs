//! Undirected vertex geography on a grid (BZOJ 1443): A places a token on a free cell, then B
//! moves first along unvisited free cells. The mover from `v` wins iff `v` is in every maximum
//! matching of the grid graph, so the placer wins exactly on the cells some maximum matching
//! leaves free.

use crate::implicit::{self, Game};
use crate::matching::{Bipartite, avoidable, maximum_matching};

const STEPS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

fn neighbours(free: &[Vec<bool>], r: usize, c: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    STEPS.iter().filter_map(move |&(dr, dc)| {
        let (nr, nc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
        (*free.get(nr)?.get(nc)?).then_some((nr, nc))
    })
}

/// Cells (row, column, 0-based, row-major order) on which the placer wins.
pub fn placer_winning_cells(free: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let rows = free.len();
    let cols = free.first().map_or(0, Vec::len);
    // Black cells (even r + c) on the left, white on the right, each numbered in its colour.
    let mut index = vec![vec![u32::MAX; cols]; rows];
    let (mut blacks, mut whites) = (0u32, 0u32);
    for r in 0..rows {
        for c in 0..cols {
            if free[r][c] {
                let counter = if (r + c) % 2 == 0 {
                    &mut blacks
                } else {
                    &mut whites
                };
                index[r][c] = *counter;
                *counter += 1;
            }
        }
    }
    let mut adjacency = vec![Vec::new(); blacks as usize];
    for r in 0..rows {
        for c in 0..cols {
            if free[r][c] && (r + c) % 2 == 0 {
                adjacency[index[r][c] as usize] = neighbours(free, r, c)
                    .map(|(nr, nc)| index[nr][nc])
                    .collect();
            }
        }
    }
    let graph = Bipartite {
        right: whites as usize,
        adjacency,
    };
    let matching = maximum_matching(&graph);
    let (black_free, white_free) = avoidable(&graph, &matching);
    let mut cells = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if free[r][c] {
                let flags = if (r + c) % 2 == 0 {
                    &black_free
                } else {
                    &white_free
                };
                if flags[index[r][c] as usize] {
                    cells.push((r, c));
                }
            }
        }
    }
    cells
}

/// Literal rules for brute force: the token's cell and the visited cells as a bit mask over the
/// free cells (so at most 64 of them).
#[derive(Debug, Clone)]
pub struct GeographyRules {
    cells: Vec<(usize, usize)>,
    adjacency: Vec<Vec<usize>>,
}

impl GeographyRules {
    pub fn new(free: &[Vec<bool>]) -> Self {
        let cells: Vec<(usize, usize)> = (0..free.len())
            .flat_map(|r| (0..free[r].len()).map(move |c| (r, c)))
            .filter(|&(r, c)| free[r][c])
            .collect();
        assert!(
            cells.len() <= 64,
            "brute force handles at most 64 free cells"
        );
        let adjacency = cells
            .iter()
            .map(|&(r, c)| {
                neighbours(free, r, c)
                    .map(|n| cells.iter().position(|&x| x == n).expect("a free cell"))
                    .collect()
            })
            .collect();
        GeographyRules { cells, adjacency }
    }

    /// Brute-force list of the placer's winning cells; `None` beyond `limit` positions.
    pub fn placer_winning_cells(&self, limit: usize) -> Option<Vec<(usize, usize)>> {
        let mut winning = Vec::new();
        for (i, &cell) in self.cells.iter().enumerate() {
            let mover = implicit::outcome(self, (i, 1u64 << i), limit).ok()?;
            if !mover.is_win() {
                winning.push(cell);
            }
        }
        Some(winning)
    }
}

impl Game for GeographyRules {
    type Position = (usize, u64);
    fn moves(&self, &(at, visited): &(usize, u64)) -> Vec<(usize, u64)> {
        self.adjacency[at]
            .iter()
            .filter(|&&next| visited >> next & 1 == 0)
            .map(|&next| (next, visited | 1 << next))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn grid(rows: &[&str]) -> Vec<Vec<bool>> {
        rows.iter()
            .map(|r| r.chars().map(|c| c == '.').collect())
            .collect()
    }

    #[test]
    fn bzoj_sample() {
        assert_eq!(
            placer_winning_cells(&grid(&[".##", "...", "#.#"])),
            vec![(1, 2), (2, 1)]
        );
    }

    proptest! {
        #[test]
        fn matching_rule_matches_game_tree(cells in prop::collection::vec(prop::collection::vec(prop::bool::weighted(0.7), 1..5), 1..5)) {
            let cols = cells[0].len();
            let free: Vec<Vec<bool>> = cells.into_iter().map(|mut row| { row.resize(cols, false); row }).collect();
            let brute = GeographyRules::new(&free).placer_winning_cells(1_000_000).unwrap();
            prop_assert_eq!(placer_winning_cells(&free), brute);
        }
    }
}
