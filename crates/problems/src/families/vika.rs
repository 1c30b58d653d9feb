//! Codeforces 1848A "Vika and Her Friends": `t` tests of `n m k`, Vika's room, `k` friends' rooms.
//! `YES` if she escapes forever; any letter case is accepted (the checker is case-insensitive).

use super::{at_most, lines, push_line, within};
use crate::explain::{Certificate, Explain, Misconception, listed};
use crate::family::{CrossCheck, Family};
use crate::seed::TestRng;
use crate::strict::{StrictReader, ValidationError};
use grundy_games::pursuit;
use rand::RngExt;
use serde::Deserialize;

pub struct Vika;

const MAX_T: u32 = 100;
const MAX_SIDE: u32 = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub rows: u32,
    pub cols: u32,
    pub vika: (u32, u32),
    pub friends: Vec<(u32, u32)>,
}

#[derive(Debug)]
pub struct Input {
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub max_tests: u32,
    pub max_side: u32,
    pub max_friends: u32,
}

fn word(escapes: bool) -> &'static str {
    if escapes { "YES" } else { "NO" }
}

impl Family for Vika {
    type Input = Input;
    type Params = Params;

    fn parse(&self, text: &str) -> Result<Input, ValidationError> {
        let mut reader = StrictReader::new(text)?;
        let t: u32 = reader.single("t", 1..=MAX_T)?;
        let mut cases = Vec::with_capacity(t as usize);
        for _ in 0..t {
            let head = reader.line("the line \"n m k\"")?;
            head.expect_len(3, "n m k")?;
            let rows: u32 = head.int(0, "n", 1..=MAX_SIDE)?;
            let cols: u32 = head.int(1, "m", 1..=MAX_SIDE)?;
            let k: u32 = head.int(2, "k", 1..=MAX_SIDE)?;
            let mut cell = |what: &str| -> Result<(u32, u32), ValidationError> {
                let line = reader.line(what)?;
                line.expect_len(2, "x y")?;
                Ok((line.int(0, "x", 1..=rows)?, line.int(1, "y", 1..=cols)?))
            };
            let vika = cell("Vika's room \"x y\"")?;
            let mut friends = Vec::with_capacity(k as usize);
            for _ in 0..k {
                let friend = cell("a friend's room \"x y\"")?;
                if friend == vika {
                    return Err(ValidationError::new(
                        reader.line_number(),
                        "a friend starts in Vika's room",
                    ));
                }
                friends.push(friend);
            }
            cases.push(Case {
                rows,
                cols,
                vika,
                friends,
            });
        }
        reader.expect_eof()?;
        Ok(Input { cases })
    }

    fn render(&self, input: &Input) -> String {
        let mut out = String::new();
        push_line(&mut out, [input.cases.len()]);
        for c in &input.cases {
            push_line(&mut out, [c.rows, c.cols, c.friends.len() as u32]);
            push_line(&mut out, [c.vika.0, c.vika.1]);
            for f in &c.friends {
                push_line(&mut out, [f.0, f.1]);
            }
        }
        out
    }

    fn check_params(&self, p: &Params) -> Result<(), String> {
        within("max_tests", p.max_tests.into(), 1, MAX_T.into())?;
        within("max_side", p.max_side.into(), 2, MAX_SIDE.into())?;
        within("max_friends", p.max_friends.into(), 1, MAX_SIDE.into())
    }

    fn fits(&self, input: &Input, p: &Params) -> Result<(), String> {
        at_most("t", input.cases.len() as u64, p.max_tests.into())?;
        for c in &input.cases {
            at_most("n", c.rows.into(), p.max_side.into())?;
            at_most("m", c.cols.into(), p.max_side.into())?;
            at_most("k", c.friends.len() as u64, p.max_friends.into())?;
        }
        Ok(())
    }

    fn generate(&self, p: &Params, index: usize, rng: &mut TestRng) -> Input {
        let cases = (0..p.max_tests as usize)
            .map(|case| {
                let (rows, cols) = match index {
                    0 => (p.max_side, p.max_side),
                    1 => (1, rng.random_range(2..=p.max_side)),
                    _ => (
                        rng.random_range(1..=p.max_side),
                        rng.random_range(2..=p.max_side),
                    ),
                };
                let vika = (rng.random_range(1..=rows), rng.random_range(1..=cols));
                let colour = (vika.0 + vika.1) % 2;
                let k = if index == 0 {
                    p.max_friends
                } else {
                    rng.random_range(1..=p.max_friends)
                };
                // Half the cases: every friend on the other colour but maybe one.
                let traitor = case % 2 == 0;
                let cells: Vec<(u32, u32)> = (1..=rows)
                    .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                    .filter(|&c| c != vika)
                    .collect();
                let friends = (0..k)
                    .map(|i| {
                        let want_same = traitor && i == k - 1;
                        let fitting: Vec<&(u32, u32)> = cells
                            .iter()
                            .filter(|c| ((c.0 + c.1) % 2 == colour) == want_same)
                            .collect();
                        // A 1 × 3 corridor has no other room of Vika's colour: take any room then.
                        match fitting.len() {
                            0 => cells[rng.random_range(0..cells.len())],
                            len => *fitting[rng.random_range(0..len)],
                        }
                    })
                    .collect();
                Case {
                    rows,
                    cols,
                    vika,
                    friends,
                }
            })
            .collect();
        Input { cases }
    }

    fn solve(&self, input: &Input) -> String {
        lines(
            input
                .cases
                .iter()
                .map(|c| word(pursuit::escapes(c.vika, &c.friends))),
        )
    }

    fn cross_checks(&self, input: &Input) -> Vec<CrossCheck> {
        let small = input
            .cases
            .iter()
            .all(|c| c.rows * c.cols <= 9 && c.friends.len() <= 2);
        let brute = small.then(|| {
            lines(input.cases.iter().map(|c| {
                word(pursuit::brute_force_escapes(
                    c.rows, c.cols, c.vika, &c.friends,
                ))
            }))
        });
        vec![CrossCheck::new("pursuit search", brute)]
    }

    fn small_positions(&self) -> Vec<Input> {
        let mut cases = Vec::new();
        for (rows, cols) in [(1, 2), (1, 3), (2, 2), (2, 3), (3, 3)] {
            let cells: Vec<(u32, u32)> = (1..=rows)
                .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                .collect();
            for &vika in &cells {
                for &f in cells.iter().filter(|&&f| f != vika) {
                    cases.push(Case {
                        rows,
                        cols,
                        vika,
                        friends: vec![f],
                    });
                }
            }
        }
        cases
            .chunks(MAX_T as usize)
            .map(|c| Input { cases: c.to_vec() })
            .collect()
    }

    fn explainer(&self) -> Option<&dyn crate::explain::Explainer> {
        Some(self)
    }
}

const NEAREST_FRIEND: Misconception = Misconception {
    id: "vika-nearest-friend",
    title: "Only the nearest friend",
    text: "The program looks only at the friend nearest to Vika and answers YES when that \
           friend's distance |x − x_i| + |y − y_i| is odd. Every friend chases her, and any one \
           at an even distance, however far, catches her: every minute changes the parity of \
           everybody's room (colour the rooms like a chessboard), so a friend on her colour \
           stays on it and can close in, while one on the other colour is never in her room. \
           In a corridor of 1 × 3 rooms with Vika in (1, 1) and friends in (1, 2) and (1, 3), \
           the nearest friend is at distance 1, but the one at distance 2 catches her: the \
           answer is NO.",
};

/// Room `(a, b)` by its colour on the chessboard: the parity of `a + b`.
fn colour(room: (u32, u32)) -> u32 {
    (room.0 + room.1) % 2
}

fn distance(a: (u32, u32), b: (u32, u32)) -> u32 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

fn parity_en(value: u32) -> &'static str {
    if value.is_multiple_of(2) {
        "even"
    } else {
        "odd"
    }
}

fn parity_vi(value: u32) -> &'static str {
    if value.is_multiple_of(2) {
        "chẵn"
    } else {
        "lẻ"
    }
}

impl Explain for Vika {
    type Game = Case;

    fn small_games(&self) -> Vec<Case> {
        let grids = [
            (1, 2),
            (2, 1),
            (1, 3),
            (3, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
        ];
        let mut games = Vec::new();
        for (rows, cols) in grids {
            let rooms: Vec<(u32, u32)> = (1..=rows)
                .flat_map(|x| (1..=cols).map(move |y| (x, y)))
                .collect();
            for &vika in &rooms {
                let others: Vec<(u32, u32)> =
                    rooms.iter().copied().filter(|&r| r != vika).collect();
                for &f in &others {
                    games.push(Case {
                        rows,
                        cols,
                        vika,
                        friends: vec![f],
                    });
                    // Two friends where the rooms are few: several friends are where taking one
                    // for all goes wrong.
                    if rows * cols <= 6 {
                        for &g in &others {
                            games.push(Case {
                                rows,
                                cols,
                                vika,
                                friends: vec![f, g],
                            });
                        }
                    }
                }
            }
        }
        games.sort_by_key(|g| self.size(g));
        games
    }

    fn random_game(&self, rng: &mut TestRng) -> Case {
        let rows = rng.random_range(1..=8);
        let cols = rng.random_range(if rows == 1 { 2 } else { 1 }..=8);
        let vika = (rng.random_range(1..=rows), rng.random_range(1..=cols));
        let k = rng.random_range(1..=4);
        let friends = (0..k)
            .map(|_| {
                loop {
                    let room = (rng.random_range(1..=rows), rng.random_range(1..=cols));
                    if room != vika {
                        break room;
                    }
                }
            })
            .collect();
        Case {
            rows,
            cols,
            vika,
            friends,
        }
    }

    fn games_per_input(&self) -> usize {
        MAX_T as usize
    }

    fn input_of(&self, games: &[Case]) -> Input {
        Input {
            cases: games.to_vec(),
        }
    }

    fn games_of(&self, input: &Input) -> Vec<Case> {
        input.cases.clone()
    }

    fn answer(&self, case: &Case) -> String {
        word(pursuit::escapes(case.vika, &case.friends)).to_owned()
    }

    fn size(&self, case: &Case) -> u64 {
        // Rooms, then friends, then how far from the corner (1, 1) everybody stands: at most
        // 10⁴ rooms, 100 friends and 101 · 200 in coordinates.
        let coordinates: u32 = std::iter::once(case.vika)
            .chain(case.friends.iter().copied())
            .map(|(x, y)| x + y)
            .sum();
        u64::from(case.rows * case.cols) << 32
            | (case.friends.len() as u64) << 16
            | u64::from(coordinates)
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        let mut smaller = Vec::new();
        if case.friends.len() > 1 {
            for i in 0..case.friends.len() {
                let mut fewer = case.clone();
                fewer.friends.remove(i);
                smaller.push(fewer);
            }
        }
        let people: Vec<(u32, u32)> = std::iter::once(case.vika)
            .chain(case.friends.iter().copied())
            .collect();
        // A row or column nobody stands in, taken out of the mall.
        for row in 1..=case.rows {
            if case.rows > 1 && people.iter().all(|p| p.0 != row) {
                let shift = |(x, y): (u32, u32)| (if x > row { x - 1 } else { x }, y);
                smaller.push(Case {
                    rows: case.rows - 1,
                    cols: case.cols,
                    vika: shift(case.vika),
                    friends: case.friends.iter().map(|&f| shift(f)).collect(),
                });
            }
        }
        for col in 1..=case.cols {
            if case.cols > 1 && people.iter().all(|p| p.1 != col) {
                let shift = |(x, y): (u32, u32)| (x, if y > col { y - 1 } else { y });
                smaller.push(Case {
                    rows: case.rows,
                    cols: case.cols - 1,
                    vika: shift(case.vika),
                    friends: case.friends.iter().map(|&f| shift(f)).collect(),
                });
            }
        }
        // Somebody one room nearer the corner (1, 1), where nobody else's rules forbid it.
        for who in 0..people.len() {
            let (x, y) = people[who];
            let nearer = [(x > 1).then(|| (x - 1, y)), (y > 1).then(|| (x, y - 1))];
            for room in nearer.into_iter().flatten() {
                let mut moved = people.clone();
                moved[who] = room;
                if moved[1..].contains(&moved[0]) {
                    continue;
                }
                smaller.push(Case {
                    rows: case.rows,
                    cols: case.cols,
                    vika: moved[0],
                    friends: moved[1..].to_vec(),
                });
            }
        }
        smaller.sort_by_key(|g| self.size(g));
        smaller.dedup();
        smaller
    }

    fn certificate(&self, case: &Case) -> Certificate {
        let (x, y) = case.vika;
        let own = x + y;
        let chessboard_en = format!(
            "Colour the rooms like a chessboard, room (a, b) by the parity of a + b: Vika's room \
             ({x}, {y}) has {x} + {y} = {own}, {}. Every minute everybody moves to a \
             neighbouring room, which changes the parity of everybody's room, so at the end of \
             every minute each friend is on Vika's colour exactly when they started on it.",
            parity_en(own)
        );
        let chessboard_vi = format!(
            "Tô màu các phòng như bàn cờ, phòng (a, b) theo tính chẵn lẻ của a + b: phòng của \
             Vika ({x}, {y}) có {x} + {y} = {own}, là số {}. Mỗi phút mọi người đều sang một \
             phòng kề, làm đổi tính chẵn lẻ của phòng mọi người, nên vào cuối mỗi phút, mỗi người bạn \
             cùng màu với Vika khi và chỉ khi lúc đầu người đó cùng màu với cô.",
            parity_vi(own)
        );
        if let Some(&catcher) = case
            .friends
            .iter()
            .find(|&&f| colour(f) == colour(case.vika))
        {
            let (a, b) = catcher;
            let d = distance(case.vika, catcher);
            return Certificate {
                en: format!(
                    "Vika is caught. The friend in ({a}, {b}) has {a} + {b} = {}, {} like \
                     hers: this friend is on her colour, at the even distance |{x} − {a}| + \
                     |{y} − {b}| = {d}. {chessboard_en} The friend chases her: after she moves, \
                     the distance is odd, so the friend can always step closer, and at the end \
                     of each minute it is even again and never larger. Closing in from the side \
                     she flees to, the friend pushes her against a wall of the {} × {} mall, \
                     the distance reaches 0 and she is caught.",
                    a + b,
                    parity_en(a + b),
                    case.rows,
                    case.cols
                ),
                vi: format!(
                    "Vika bị bắt. Người bạn ở ({a}, {b}) có {a} + {b} = {}, cũng là số {} như \
                     của Vika: người đó cùng màu với cô, khoảng cách |{x} − {a}| + |{y} − {b}| = \
                     {d} là số chẵn. {chessboard_vi} Người bạn đó đuổi theo: sau khi Vika đi, \
                     khoảng cách là số lẻ nên người bạn luôn bước lại gần được, và sau mỗi phút \
                     khoảng cách lại chẵn và không tăng. Áp sát từ phía cô chạy tới, người bạn \
                     dồn cô vào tường của trung tâm {} × {} phòng, khoảng cách về 0 và cô bị \
                     bắt.",
                    a + b,
                    parity_vi(a + b),
                    case.rows,
                    case.cols
                ),
            };
        }
        let friends_en = listed(
            case.friends.iter().map(|&(a, b)| {
                format!("({a}, {b}) has {a} + {b} = {}, {}", a + b, parity_en(a + b))
            }),
            "; ",
        );
        let friends_vi = listed(
            case.friends.iter().map(|&(a, b)| {
                format!(
                    "({a}, {b}) có {a} + {b} = {}, là số {}",
                    a + b,
                    parity_vi(a + b)
                )
            }),
            "; ",
        );
        Certificate {
            en: format!(
                "Vika escapes forever: every friend is on the other colour. {chessboard_en} The \
                 friends' rooms: {friends_en}. A friend on the other colour is never in her room \
                 at the end of a minute, whatever anybody does."
            ),
            vi: format!(
                "Vika trốn được mãi mãi: mọi người bạn đều khác màu với cô. {chessboard_vi} \
                 Phòng của các bạn: {friends_vi}. Người bạn khác màu không bao giờ ở cùng phòng \
                 với Vika vào cuối một phút, dù mọi người đi thế nào."
            ),
        }
    }

    fn misconceptions(&self) -> &'static [Misconception] {
        &[NEAREST_FRIEND]
    }

    fn misconceived(&self, id: &str, case: &Case) -> Option<String> {
        match id {
            "vika-nearest-friend" => {
                let nearest = case
                    .friends
                    .iter()
                    .map(|&f| distance(case.vika, f))
                    .min()
                    .expect("a friend");
                Some(word(nearest % 2 == 1).to_owned())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::testing::Problem;

    type Rule = fn(u32, u32, (u32, u32), &[(u32, u32)]) -> bool;

    /// A program for the whole input: every test answered by `escapes(n, m, vika, friends)`.
    fn program(escapes: Rule) -> impl Fn(&str) -> String {
        move |input: &str| {
            let mut numbers = input.split_whitespace().map(|t| t.parse::<u32>().unwrap());
            let mut next = || numbers.next().unwrap();
            let mut out = String::new();
            for _ in 0..next() {
                let (n, m, k) = (next(), next(), next());
                let vika = (next(), next());
                let friends: Vec<(u32, u32)> = (0..k).map(|_| (next(), next())).collect();
                out.push_str(if escapes(n, m, vika, &friends) {
                    "YES\n"
                } else {
                    "NO\n"
                });
            }
            out
        }
    }

    fn case(rows: u32, cols: u32, vika: (u32, u32), friends: &[(u32, u32)]) -> Case {
        Case {
            rows,
            cols,
            vika,
            friends: friends.to_vec(),
        }
    }

    #[test]
    fn explanations_are_sound() {
        Problem::new("vika").assert_sound();
    }

    #[test]
    fn the_pursuit_searched_is_right() {
        Problem::new("vika").assert_right(&program(pursuit::brute_force_escapes));
    }

    #[test]
    fn the_nearest_friend_alone_is_named_in_a_corridor() {
        let nearest_is_odd: Rule = |_, _, (x, y), friends| {
            let nearest = friends
                .iter()
                .map(|&(a, b)| x.abs_diff(a) + y.abs_diff(b))
                .min()
                .unwrap();
            nearest % 2 == 1
        };
        let found =
            Problem::new("vika").assert_named("vika-nearest-friend", &program(nearest_is_odd));
        // Three rooms in a row: the friend next to Vika is on the other colour, the one two
        // rooms away on hers.
        assert_eq!(found.position, "1\n1 3 2\n1 1\n1 2\n1 3\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("NO", "YES"));
    }

    #[test]
    fn certificates_go_by_the_colours_of_the_rooms() {
        let escape = Vika.certificate(&case(2, 2, (1, 1), &[(1, 2)]));
        assert!(
            escape.en.starts_with("Vika escapes forever"),
            "{}",
            escape.en
        );
        assert!(
            escape.en.contains("(1, 1) has 1 + 1 = 2, even"),
            "{}",
            escape.en
        );
        assert!(
            escape.en.contains("(1, 2) has 1 + 2 = 3, odd"),
            "{}",
            escape.en
        );
        assert!(
            escape.vi.contains("Vika trốn được mãi mãi"),
            "{}",
            escape.vi
        );
        // (3, 3) is two rooms from (2, 2), on its colour; (1, 2) is one room away.
        let caught = Vika.certificate(&case(3, 3, (2, 2), &[(1, 2), (3, 3)]));
        assert!(
            caught
                .en
                .contains("The friend in (3, 3) has 3 + 3 = 6, even like hers"),
            "{}",
            caught.en
        );
        assert!(caught.en.contains("|2 − 3| + |2 − 3| = 2"), "{}", caught.en);
        assert!(caught.vi.starts_with("Vika bị bắt"), "{}", caught.vi);
    }

    #[test]
    fn certificates_agree_with_the_pursuit_search() {
        for game in Vika.small_games() {
            let escapes =
                pursuit::brute_force_escapes(game.rows, game.cols, game.vika, &game.friends);
            let certificate = Vika.certificate(&game);
            assert_eq!(
                certificate.en.starts_with("Vika escapes forever"),
                escapes,
                "{game:?}"
            );
        }
    }

    #[test]
    fn shrinking_gives_smaller_games() {
        assert_eq!(
            Vika.shrink(&case(2, 3, (1, 3), &[(1, 1)])),
            vec![
                case(1, 3, (1, 3), &[(1, 1)]),
                case(2, 2, (1, 2), &[(1, 1)]),
                case(2, 3, (1, 2), &[(1, 1)]),
            ]
        );
        assert!(Vika.shrink(&case(1, 2, (1, 2), &[(1, 1)])).is_empty());
    }

    #[test]
    fn validator_rules() {
        assert!(Vika.parse("1\n2 2 1\n1 1\n1 2\n").is_ok());
        let rule = |t: &str| Vika.parse(t).unwrap_err().to_string();
        assert_eq!(
            rule("1\n2 2 1\n1 1\n1 1\n"),
            "line 4: a friend starts in Vika's room"
        );
        assert_eq!(
            rule("1\n2 2 1\n3 1\n1 1\n"),
            "line 3: x = 3 is outside 1..=2"
        );
        assert_eq!(rule("1\n2 2 0\n"), "line 2: k = 0 is outside 1..=100");
        assert_eq!(
            rule("1\n2 2 2\n1 1\n1 2\n"),
            "line 5: expected a friend's room \"x y\", found the end of the input"
        );
    }
}
