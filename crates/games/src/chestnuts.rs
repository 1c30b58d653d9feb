//! SC4, "chestnut bowls": players take 1..=m chestnuts from a pile into their own bowl; whoever
//! takes the last one eats their bowl, the other pours theirs back into the pile and moves first
//! in the new round. Both maximise what they eat; the question is how much the first player eats.

use crate::implicit::{Game, ScoredGame};

/// The tutorial's second formulation: `eats[i][a][b]` is what the mover eats from here on when
/// `i` chestnuts are still in play (pile and both bowls), the mover's bowl holds `a` and both bowls
/// together hold `b`. The round ends when the bowls hold everything (`b == i`): the opponent ate
/// `b - a`, the mover's `a` go back and the mover starts a game of `a`.
///
/// A move of `x` leads to `eats[i][b - a][b + x]`, with a larger `b`, so `b` runs downwards. (The
/// tutorial's first formulation iterates its bowl sizes upwards and reads entries before it has
/// written them; it is wrong on every input.)
pub fn first_player_eats(n: usize, m: usize) -> u32 {
    rounds(n, m).0[n]
}

/// What the first player eats after each first move of a game of `n` chestnuts: entry `x − 1`
/// for taking `x` (the move leaves the other player to move with an empty bowl and `x` in the
/// bowls).
pub fn first_move_values(n: usize, m: usize) -> Vec<u32> {
    let (_, layer) = rounds(n, m);
    (1..=m.min(n)).map(|x| n as u32 - layer[x]).collect()
}

/// `start[i] = eats[i][0][0]` for every `i ≤ n`, and the last layer computed, `eats[n][a][b]` at
/// `a · (n + 1) + b`.
fn rounds(n: usize, m: usize) -> (Vec<u32>, Vec<u32>) {
    let width = n + 1;
    let at = |a: usize, b: usize| a * width + b;
    let mut start = vec![0u32; n + 1];
    let mut layer = vec![0u32; width * width];
    for i in 1..=n {
        for b in (0..=i).rev() {
            for a in 0..=b {
                layer[at(a, b)] = if b == i {
                    start[a]
                } else {
                    (1..=m.min(i - b))
                        .map(|x| i as u32 - layer[at(b - a, b + x)])
                        .max()
                        .expect("at least one chestnut can be taken")
                };
            }
        }
        start[i] = layer[at(0, 0)];
    }
    (start, layer)
}

/// The only closed form that holds: with `m ≥ n` the first player takes the whole pile at once.
/// (The tutorial's "m ≥ n/2 gives n" is false: n = 5, m = 3 gives 3.)
pub fn closed_form(n: usize, m: usize) -> Option<u32> {
    (m >= n).then_some(n as u32)
}

/// Literal rules for brute force: the pile, both bowls and what each player has eaten so far.
#[derive(Debug, Clone, Copy)]
pub struct ChestnutRules {
    pub max_take: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChestnutPosition {
    pub pile: usize,
    pub bowls: [usize; 2],
    pub eaten: [usize; 2],
    pub to_move: usize,
}

impl Game for ChestnutRules {
    type Position = ChestnutPosition;
    fn moves(&self, p: &ChestnutPosition) -> Vec<ChestnutPosition> {
        let mover = p.to_move;
        let other = 1 - mover;
        (1..=self.max_take.min(p.pile))
            .map(|take| {
                let mut next = p.clone();
                next.pile -= take;
                next.bowls[mover] += take;
                next.to_move = other;
                if next.pile == 0 {
                    next.eaten[mover] += next.bowls[mover];
                    next.bowls[mover] = 0;
                    next.pile = next.bowls[other];
                    next.bowls[other] = 0;
                    next.to_move = other;
                }
                next
            })
            .collect()
    }
}

impl ScoredGame for ChestnutRules {
    fn terminal_score(&self, p: &ChestnutPosition) -> i64 {
        p.eaten[0] as i64
    }
    fn maximiser_to_move(&self, p: &ChestnutPosition) -> bool {
        p.to_move == 0
    }
}

/// Brute force over the game tree; `None` when it has more than `limit` positions.
pub fn brute_force_eats(n: usize, m: usize, limit: usize) -> Option<u32> {
    let start = ChestnutPosition {
        pile: n,
        bowls: [0, 0],
        eaten: [0, 0],
        to_move: 0,
    };
    let rules = ChestnutRules { max_take: m };
    crate::implicit::minimax(&rules, start, limit)
        .ok()
        .map(|v| v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_and_catalogue_examples() {
        assert_eq!(first_player_eats(5, 2), 3);
        assert_eq!(first_player_eats(5, 3), 3);
        assert_eq!(first_player_eats(4, 4), 4);
        assert_eq!(first_player_eats(1, 1), 1);
        // m = 1: the players alternate single chestnuts, so the round's last chestnut goes to
        // whoever matches the pile's parity: 6 → second eats 3, first restarts with 3 and so on.
        assert_eq!(first_player_eats(6, 1), 2);
    }

    #[test]
    fn dp_matches_game_tree_on_every_small_position() {
        for n in 1..=9 {
            for m in 1..=n + 1 {
                let brute = brute_force_eats(n, m, 2_000_000).unwrap();
                assert_eq!(first_player_eats(n, m), brute, "n = {n}, m = {m}");
                if let Some(closed) = closed_form(n, m) {
                    assert_eq!(closed, brute, "n = {n}, m = {m}");
                }
            }
        }
    }
}
