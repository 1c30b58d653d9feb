//! The catalogue's games for people: which problems have a board, and the boards of the octal
//! games checked against a brute-force search of the literal rules and against values worked
//! out by hand.

use grundy_games::implicit;
use grundy_games::octal::{OctalCode, OctalRules};
use grundy_problems::Catalogue;
use grundy_problems::catalogue::Problem;
use grundy_problems::play::{Board, Mover, Session, Side};

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(|| Catalogue::builtin().unwrap())
}

fn problem(slug: &str) -> &'static Problem {
    catalogue()
        .iter()
        .find(|p| p.slug() == slug)
        .unwrap_or_else(|| panic!("{slug} is built in"))
}

fn board(slug: &str) -> &'static dyn Board {
    problem(slug)
        .board()
        .unwrap_or_else(|| panic!("{slug} has a board"))
}

/// The heaps of a position as the octal board writes it (`k h_1 … h_k`).
fn heaps(text: &str) -> Vec<u64> {
    let numbers: Vec<u64> = text
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(numbers[0] as usize, numbers.len() - 1, "{text:?}");
    numbers[1..].to_vec()
}

/// Whether the player to move wins, by searching the game tree of the literal rules.
fn brute_win(code: &str, heaps: &[u64]) -> bool {
    let rules = OctalRules {
        code: code.parse::<OctalCode>().unwrap(),
    };
    let mut sorted = heaps.to_vec();
    sorted.sort_unstable();
    implicit::grundy(&rules, sorted, 1_000_000).unwrap() != 0
}

#[test]
fn the_interactive_problems_and_the_catalogue_s_games_that_fit_on_a_page_are_playable() {
    let playable: Vec<&str> = catalogue()
        .iter()
        .filter(|p| p.board().is_some())
        .map(|p| p.slug())
        .collect();
    for slug in [
        "nim-play",
        "wythoff-play",
        "stones-play",
        "dag-play",
        "chomp-play",
        "hackenbush-play",
        "nim",
        "wythoff",
        "wythoff-big",
        "chomp",
        "stones",
        "bash",
        "green-hackenbush",
        "green-hackenbush-multi",
        "dag-game",
        "stick-game",
        "kayles",
        "dawsons-kayles",
        "dawsons-chess",
        "fibonacci-nim",
        "k-multiple-subtraction",
        "coin-flipping",
        "misere-nim",
        "lasker-nim",
        "nim-k",
        "square-nim",
        "staircase-nim",
        "dag-chess",
        "every-sg",
        "christmas-game",
        "bipartite-game",
        "parigame",
    ] {
        assert!(playable.contains(&slug), "{slug} is playable: {playable:?}");
    }
    // SPC4 and SC4 are scoring games, whose values are amounts rather than a win or a loss, and
    // Vika is a pursuit game on a grid in which play can go on forever.
    for slug in ["spc4", "sc4", "vika"] {
        assert!(!playable.contains(&slug), "{slug} has no board");
    }
}

#[test]
fn perfect_play_on_every_board_is_won_by_the_side_the_start_s_value_names() {
    for p in catalogue().iter().filter(|p| p.board().is_some()) {
        let board = p.board().unwrap();
        for seed in 0..6 {
            let start = board.random_start(seed);
            assert_eq!(board.check_start(&start).unwrap(), start, "{}", p.slug());
            // The person plays the reference's own moves: both sides play perfectly.
            let mut game = Session::new(board, Some(&start), seed, Side::First).unwrap();
            let mut moves = 0;
            while !game.is_over().unwrap() {
                if game.to_move() == Mover::Program {
                    let reply = board.reply(&game.position, seed + moves).unwrap().unwrap();
                    game.play(&reply.text).unwrap();
                } else {
                    game.referee_moves().unwrap();
                }
                moves += 1;
                assert!(moves < 20_000, "{}: {start:?} never ends", p.slug());
            }
            let first_won = game.winner().unwrap() == Some(Mover::Program);
            assert_eq!(first_won, game.start_value.win, "{}: {start:?}", p.slug());
            assert_eq!(game.first_mistake(), None, "{}: {start:?}", p.slug());
        }
    }
}

#[test]
fn octal_boards_agree_with_a_brute_force_search_of_the_rules() {
    for (slug, code) in [
        ("kayles", "0.77"),
        ("dawsons-kayles", "0.07"),
        ("dawsons-chess", "0.137"),
    ] {
        let board = board(slug);
        for a in 1..=9u64 {
            for b in 0..=9u64 {
                let position: Vec<u64> = [a, b].into_iter().filter(|&h| h > 0).collect();
                let text = format!(
                    "{} {}\n",
                    position.len(),
                    position
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                let win = brute_win(code, &position);
                assert_eq!(board.value(&text).unwrap().win, win, "{slug} {text:?}");
                let winning = board.winning_moves(&text).unwrap();
                assert_eq!(!winning.is_empty(), win, "{slug} {text:?}");
                for mv in winning {
                    assert!(
                        !brute_win(code, &heaps(&mv.after)),
                        "{slug} {text:?}: {} leaves a won position",
                        mv.text
                    );
                    assert_eq!(board.play(&text, &mv.text).unwrap(), mv);
                }
            }
        }
    }
}

#[test]
fn a_kayles_position_worked_by_hand() {
    // Kayles' values begin 0, 1, 2, 3, 1 (heaps 0 to 4): (3, 4) has value 3 ⊕ 1 = 2. The moves
    // to value 0 leave a heap of value 1 in place of the 3 (take 2, leaving 1) or one of value 3
    // in place of the 4 (take 1 leaving 3, or take 1 and split the 3 left into 1 and 2).
    let kayles = board("kayles");
    let value = kayles.value("2 3 4\n").unwrap();
    assert_eq!((value.win, value.grundy), (true, Some(2)));
    let mut winning: Vec<String> = kayles
        .winning_moves("2 3 4\n")
        .unwrap()
        .into_iter()
        .map(|m| m.text)
        .collect();
    winning.sort();
    assert_eq!(winning, ["1 2", "2 1", "2 1 1"]);
    let split = kayles.play("2 3 4\n", "2 1 1").unwrap();
    assert_eq!(split.after, "3 3 1 2\n");
    assert_eq!(split.after_words, "(3, 1, 2)");
    assert_eq!(
        split.words,
        "1 from heap 2, splitting the rest into 1 and 2"
    );
    assert_eq!(split.value.grundy, Some(0));
    // Taking a whole heap removes it.
    let whole = kayles.play("2 3 2\n", "2 2").unwrap();
    assert_eq!(whole.after, "1 3\n");
    assert!(kayles.is_over("0\n").unwrap());
    assert!(kayles.check_start("0\n").is_err());
}

#[test]
fn moves_the_code_does_not_allow_are_refused_with_the_rule() {
    // Dawson's Kayles, 0.07: a move takes exactly two, leaving no heap, one heap or two.
    let dawson = board("dawsons-kayles");
    let error = dawson.play("1 5\n", "1 1").unwrap_err().to_string();
    assert!(
        error.contains("0.07") && error.contains("take 1"),
        "{error}"
    );
    assert!(dawson.play("1 5\n", "1 2 1").is_ok());
    let error = dawson.play("1 5\n", "1 2 3").unwrap_err().to_string();
    assert!(error.contains("1 ≤ a ≤ 2"), "{error}");
    // Dawson's chess, 0.137: one counter only as a whole heap, and no split after taking two.
    let chess = board("dawsons-chess");
    let error = chess.play("1 4\n", "1 1").unwrap_err().to_string();
    assert!(error.contains("0.137"), "{error}");
    assert!(chess.play("1 1\n", "1 1").is_ok());
    let error = chess.play("1 6\n", "1 2 2").unwrap_err().to_string();
    assert!(error.contains("split"), "{error}");
    assert!(chess.play("1 6\n", "1 3 1").is_ok());
    // Heaps beyond the page's limit, or a heap of zero, are not positions.
    assert!(chess.check("1 1001\n").is_err());
    assert!(chess.check("2 0 3\n").is_err());
    let error = dawson.play("1 5\n", "3 2").unwrap_err().to_string();
    assert_eq!(error, "there is no heap 3 (the heaps are 1 to 1)");
}

#[test]
fn every_board_says_how_positions_and_moves_are_typed() {
    for p in catalogue().iter().filter(|p| p.board().is_some()) {
        let notation = p.board().unwrap().notation();
        for text in [
            notation.position.en,
            notation.position.vi,
            notation.moves.en,
            notation.moves.vi,
        ] {
            // Each carries an example as code.
            assert!(text.matches('`').count() >= 2, "{}: {text}", p.slug());
        }
    }
}

/// Whether the player to move wins each pile of at most `max_n` stones with up to `m` to take
/// (`wins[n][m]`, `m ≤ n`), by the literal rules: take 1 to m; the opponent may then take up to
/// k times that; whoever takes the last stone wins.
fn take_away_wins(k: usize, max_n: usize) -> Vec<Vec<bool>> {
    let mut wins: Vec<Vec<bool>> = Vec::with_capacity(max_n + 1);
    for n in 0..=max_n {
        let row = (0..=n)
            .map(|m| {
                (1..=m).any(|t| {
                    let left = n - t;
                    left == 0 || !wins[left][(k * t).min(left)]
                })
            })
            .collect();
        wins.push(row);
    }
    wins
}

#[test]
fn take_away_boards_agree_with_a_search_of_the_rules() {
    for (slug, ks) in [
        ("fibonacci-nim", vec![2]),
        ("k-multiple-subtraction", (1..=6).collect()),
    ] {
        let board = board(slug);
        for k in ks {
            let wins = take_away_wins(k, 40);
            let text = |n: usize, m: usize| match slug {
                "fibonacci-nim" => format!("{n} {m}\n"),
                _ => format!("{n} {k} {m}\n"),
            };
            assert!(board.is_over(&text(0, 0)).unwrap());
            for n in 1..=40 {
                for m in 1..=n {
                    let position = text(n, m);
                    let value = board.value(&position).unwrap();
                    assert_eq!(value.win, wins[n][m], "{slug} {position:?}");
                    assert_eq!(value.grundy, None, "{slug} {position:?}");
                    // Every take that leaves the opponent lost (at most a few on these piles).
                    let expected: Vec<String> = (1..=m)
                        .filter(|&t| n == t || !wins[n - t][(k * t).min(n - t)])
                        .map(|t| t.to_string())
                        .collect();
                    let winning = board.winning_moves(&position).unwrap();
                    let mut listed: Vec<String> =
                        winning.iter().map(|mv| mv.text.clone()).collect();
                    listed.sort_by_key(|t| t.parse::<usize>().unwrap());
                    assert_eq!(listed, expected, "{slug} {position:?}");
                    for mv in winning {
                        let t: usize = mv.text.parse().unwrap();
                        assert_eq!(mv.after, text(n - t, (k * t).min(n - t)), "{slug}");
                        assert_eq!(board.play(&position, &mv.text).unwrap(), mv);
                    }
                }
            }
        }
    }
}

#[test]
fn take_away_boards_refuse_what_the_rules_do_not_allow() {
    let fibonacci = board("fibonacci-nim");
    let error = |position: &str, mv: &str| fibonacci.play(position, mv).unwrap_err().to_string();
    assert_eq!(error("10 9\n", "10"), "at most 9 may be taken now, not 10");
    assert_eq!(error("10 9\n", "11"), "the pile has only 10, not 11");
    assert_eq!(error("10 4\n", "5"), "at most 4 may be taken now, not 5");
    assert!(error("10 4\n", "0").contains("at least 1"));
    assert!(error("10 4\n", "two").contains("one integer"));
    assert!(error("10 4\n", "1 1").contains("one integer"));
    // The take sets the next limit: 2 from 10 lets the opponent take up to 4 of the 8.
    let two = fibonacci.play("10 9\n", "2").unwrap();
    assert_eq!(
        (two.after.as_str(), two.after_words.as_str()),
        ("8 4\n", "8 stones, take up to 4")
    );
    // And the limit never exceeds the pile.
    assert_eq!(fibonacci.play("10 9\n", "7").unwrap().after, "3 3\n");
    for bad in [
        "10\n",
        "10 11\n",
        "10 0\n",
        "0 1\n",
        "1000001 5\n",
        "10 9 2\n",
    ] {
        assert!(fibonacci.check(bad).is_err(), "{bad:?}");
    }
    let refused = fibonacci.check("10 11\n").unwrap_err().to_string();
    assert!(refused.contains("more than the pile"), "{refused}");
    assert!(fibonacci.check_start("0 0\n").is_err());
    assert!(fibonacci.is_over("0 0\n").unwrap());

    let multiple = board("k-multiple-subtraction");
    assert_eq!(multiple.play("20 3 19\n", "5").unwrap().after, "15 3 15\n");
    assert_eq!(multiple.play("20 3 19\n", "4").unwrap().after, "16 3 12\n");
    for bad in ["20 0 19\n", "20 1001 19\n", "20 19\n", "20 3 21\n"] {
        assert!(multiple.check(bad).is_err(), "{bad:?}");
    }
    let error = multiple.play("20 3 6\n", "7").unwrap_err().to_string();
    assert_eq!(error, "at most 6 may be taken now, not 7");
}

/// The Grundy value of every row of `length` coins (bit i of the index is coin i + 1), by the
/// literal rules: turn over one, two or three coins, the rightmost from heads to tails.
fn mock_turtles_values(length: usize) -> Vec<u64> {
    let mut values = vec![0u64; 1 << length];
    // Every move lowers the row read as a binary number, so smaller rows are valued first.
    for row in 1..1usize << length {
        let mut options = Vec::new();
        for top in (0..length).filter(|&c| row >> c & 1 == 1) {
            let base = row ^ 1 << top;
            options.push(values[base]);
            for i in 0..top {
                options.push(values[base ^ 1 << i]);
                for j in i + 1..top {
                    options.push(values[base ^ 1 << i ^ 1 << j]);
                }
            }
        }
        values[row] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    values
}

#[test]
fn the_coin_board_agrees_with_a_search_of_the_rules() {
    let board = board("coin-flipping");
    let values = mock_turtles_values(8);
    let text = |length: usize, row: usize| -> String {
        (0..length)
            .map(|c| if row >> c & 1 == 1 { 'H' } else { 'T' })
            .chain(['\n'])
            .collect()
    };
    for length in 1..=8 {
        for row in 0..1usize << length {
            let position = text(length, row);
            let value = board.value(&position).unwrap();
            assert_eq!(value.grundy, Some(values[row]), "{position:?}");
            assert_eq!(value.win, values[row] != 0, "{position:?}");
            assert_eq!(board.is_over(&position).unwrap(), row == 0);
            // Every move to a row worth 0, written with its coins in increasing order.
            let mut expected = Vec::new();
            for top in (0..length).filter(|&c| row >> c & 1 == 1) {
                let mut turned = vec![vec![top]];
                for i in 0..top {
                    turned.push(vec![i, top]);
                    for j in i + 1..top {
                        turned.push(vec![i, j, top]);
                    }
                }
                for coins in turned {
                    if values[coins.iter().fold(row, |r, &c| r ^ 1 << c)] == 0 {
                        let numbers: Vec<String> =
                            coins.iter().map(|c| (c + 1).to_string()).collect();
                        expected.push(numbers.join(" "));
                    }
                }
            }
            let winning = board.winning_moves(&position).unwrap();
            let listed: Vec<String> = winning.iter().map(|mv| mv.text.clone()).collect();
            if expected.len() <= 12 {
                let (mut a, mut b) = (listed.clone(), expected.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b, "{position:?}");
            } else {
                assert_eq!(listed.len(), 12, "{position:?}");
                assert!(
                    listed.iter().all(|mv| expected.contains(mv)),
                    "{position:?}"
                );
            }
            for mv in winning {
                assert_eq!(mv.value.grundy, Some(0), "{position:?}: {}", mv.text);
                assert_eq!(board.play(&position, &mv.text).unwrap(), mv);
            }
        }
    }
}

#[test]
fn the_coin_board_refuses_what_the_rules_do_not_allow() {
    let board = board("coin-flipping");
    let error = |mv: &str| board.play("HTTHT\n", mv).unwrap_err().to_string();
    assert!(
        error("3").contains("coin 3, the rightmost turned, shows tails"),
        "{}",
        error("3")
    );
    assert!(error("1 5").contains("coin 5"), "{}", error("1 5"));
    assert_eq!(error("6"), "there is no coin 6 (the coins are 1 to 5)");
    assert_eq!(error("0 4"), "there is no coin 0 (the coins are 1 to 5)");
    assert!(error("4 4").contains("named twice"), "{}", error("4 4"));
    assert!(
        error("1 2 3 4").contains("one to three"),
        "{}",
        error("1 2 3 4")
    );
    assert!(error("x").contains("one to three"), "{}", error("x"));
    assert!(error("").contains("one to three"), "{}", error(""));
    // Any order; the rightmost coin is the largest number, and tails to its left turn to heads.
    let turned = board.play("HTTHT\n", "4 2 1").unwrap();
    assert_eq!(turned, board.play("HTTHT\n", "1 2 4").unwrap());
    assert_eq!(turned.text, "1 2 4");
    assert_eq!(turned.after, "THTTT\n");
    assert_eq!(turned.words, "to turn over coins 1, 2 and 4");
    assert_eq!(turned.after_words, "THTTT (a head at 2)");
    for bad in ["HXT\n", "H T\n", "3\nHTH\n", "\n"] {
        assert!(board.check(bad).is_err(), "{bad:?}");
    }
    let long = format!("{}\n", "H".repeat(1001));
    assert!(
        board
            .check(&long)
            .unwrap_err()
            .to_string()
            .contains("at most 1000")
    );
    assert!(board.check(&format!("{}\n", "H".repeat(1000))).is_ok());
    assert!(board.check_start("TTT\n").is_err());
    assert!(board.is_over("TTT\n").unwrap());
}

/// Whether the player to move wins on `table` (rows of equal length, none once it is empty), by
/// the literal rules: erase the last row or the last column when its numbers add up to an even
/// sum; a player who cannot move loses.
fn parigame_win(table: &[Vec<u64>]) -> bool {
    parigame_moves(table)
        .iter()
        .any(|(_, after)| !parigame_win(after))
}

/// The legal moves, `row` or `col`, with the table each leaves.
fn parigame_moves(table: &[Vec<u64>]) -> Vec<(&'static str, Vec<Vec<u64>>)> {
    let mut moves = Vec::new();
    let Some(last) = table.last() else {
        return moves;
    };
    let cols = last.len();
    let tidy = |rest: Vec<Vec<u64>>| -> Vec<Vec<u64>> {
        if rest.iter().any(Vec::is_empty) {
            Vec::new()
        } else {
            rest
        }
    };
    if last.iter().sum::<u64>() % 2 == 0 {
        moves.push(("row", tidy(table[..table.len() - 1].to_vec())));
    }
    if table.iter().map(|row| row[cols - 1]).sum::<u64>() % 2 == 0 {
        moves.push((
            "col",
            tidy(table.iter().map(|row| row[..cols - 1].to_vec()).collect()),
        ));
    }
    moves
}

fn parigame_text(table: &[Vec<u64>]) -> String {
    let cols = table.first().map_or(0, Vec::len);
    let mut text = format!("{} {cols}\n", table.len());
    for row in table {
        let numbers: Vec<String> = row.iter().map(u64::to_string).collect();
        text.push_str(&numbers.join(" "));
        text.push('\n');
    }
    text
}

/// Checks the board on one table against the search of the rules: the value, the end of the
/// game, and the winning moves, exactly the legal moves to a lost table.
fn check_parigame_table(board: &dyn Board, table: &[Vec<u64>]) {
    let text = parigame_text(table);
    assert_eq!(board.check(&text).unwrap(), text);
    let win = parigame_win(table);
    let value = board.value(&text).unwrap();
    assert_eq!(value.win, win, "{text:?}");
    assert_eq!(value.grundy, None, "{text:?}");
    let moves = parigame_moves(table);
    assert_eq!(board.is_over(&text).unwrap(), moves.is_empty(), "{text:?}");
    let expected: Vec<(String, String)> = moves
        .iter()
        .filter(|(_, after)| !parigame_win(after))
        .map(|(mv, after)| (mv.to_string(), parigame_text(after)))
        .collect();
    let listed: Vec<(String, String)> = board
        .winning_moves(&text)
        .unwrap()
        .into_iter()
        .map(|mv| {
            assert!(!mv.value.win, "{text:?}: {}", mv.text);
            (mv.text, mv.after)
        })
        .collect();
    assert_eq!(listed, expected, "{text:?}");
    assert_eq!(!listed.is_empty(), win, "{text:?}");
    for (mv, after) in &moves {
        assert_eq!(board.play(&text, mv).unwrap().after, parigame_text(after));
    }
    for mv in ["row", "col"] {
        if !moves.is_empty() && !moves.iter().any(|(m, _)| *m == mv) {
            assert!(board.play(&text, mv).is_err(), "{text:?}: {mv}");
        }
    }
}

#[test]
fn the_parigame_board_agrees_with_a_search_of_the_rules() {
    let board = board("parigame");
    check_parigame_table(board, &[]);
    // Every parity pattern of every table up to 3 × 3 (numbers 1 and 2).
    for rows in 1..=3usize {
        for cols in 1..=3usize {
            for mask in 0u32..1 << (rows * cols) {
                let table: Vec<Vec<u64>> = (0..rows)
                    .map(|i| {
                        (0..cols)
                            .map(|j| 1 + u64::from(mask >> (i * cols + j) & 1))
                            .collect()
                    })
                    .collect();
                check_parigame_table(board, &table);
            }
        }
    }
    // Random tables up to 5 × 5 with large numbers, from a fixed linear congruential sequence.
    let mut state = 12345u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    for _ in 0..400 {
        let (rows, cols) = (1 + next() as usize % 5, 1 + next() as usize % 5);
        let table: Vec<Vec<u64>> = (0..rows)
            .map(|_| (0..cols).map(|_| 1 + next() % 1_000_000_000).collect())
            .collect();
        check_parigame_table(board, &table);
    }
}

#[test]
fn the_parigame_board_refuses_what_the_rules_do_not_allow() {
    let board = board("parigame");
    // The last row sums to 3 + 4 = 7, the last column to 2 + 4 = 6.
    let table = "2 2\n1 2\n3 4\n";
    let error = board.play(table, "row").unwrap_err().to_string();
    assert!(error.contains("the last row sums to 3 + 4 = 7"), "{error}");
    assert!(error.contains("odd"), "{error}");
    for written in ["col", "COL", "c", "C", "column", "Column"] {
        let column = board.play(table, written).unwrap();
        assert_eq!(column.text, "col");
        assert_eq!(column.after, "2 1\n1\n3\n");
        assert_eq!(column.words, "to erase the last column (2 + 4 = 6)");
    }
    assert_eq!(board.play("1 2\n2 4\n", "R").unwrap().after, "0 0\n");
    for bad in ["x", "", "row col", "1"] {
        let error = board.play(table, bad).unwrap_err().to_string();
        assert!(error.contains("`row`"), "{bad:?}: {error}");
    }
    assert!(board.play("1 1\n3\n", "row").is_err());
    assert!(board.is_over("1 1\n3\n").unwrap());
    assert!(board.check_start("1 1\n3\n").is_err());
    assert!(board.check_start("0 0\n").is_err());
    assert!(board.is_over("0 0\n").unwrap());
    for bad in [
        "2 2\n1 2\n",
        "2 2\n1 2\n3\n",
        "2 2\n1 2\n3 4 5\n",
        "1 1\n0\n",
        "1 1\n1000000001\n",
        "9 1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n",
        "1 9\n1 1 1 1 1 1 1 1 1\n",
        "2\n1 2\n",
        "1 1\n1\n1\n",
    ] {
        assert!(board.check(bad).is_err(), "{bad:?}");
    }
    let empty = board.check("0 3\n").unwrap_err().to_string();
    assert!(empty.contains("`0 0`"), "{empty}");
    let zero = board.check("1 1\n0\n").unwrap_err().to_string();
    assert!(zero.contains("outside 1..=1000000000"), "{zero}");
}

#[test]
fn parigame_starts_are_small_and_a_mix_of_won_and_lost_tables() {
    let board = board("parigame");
    let won = (0..40)
        .filter(|&seed| {
            let start = board.random_start(seed);
            assert_eq!(board.check_start(&start).unwrap(), start);
            let sides: Vec<usize> = start
                .lines()
                .next()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            assert!(sides.iter().all(|s| (3..=6).contains(s)), "{start}");
            let numbers: Vec<u64> = start
                .lines()
                .skip(1)
                .flat_map(|l| l.split(' ').map(|t| t.parse::<u64>().unwrap()))
                .collect();
            assert!(numbers.iter().any(|n| n % 2 == 1), "{start}");
            assert!(numbers.iter().any(|n| n % 2 == 0), "{start}");
            board.value(&start).unwrap().win
        })
        .count();
    assert!((8..=32).contains(&won), "{won} of 40 starts are won");
}

#[test]
fn the_parigame_sample_of_voi_2011_worked_by_hand() {
    let board = board("parigame");
    // Erasing the last column leaves 1 2 / 1 2 / 2 3, whose last row (5) and last column (7)
    // are both odd: no move. Erasing the last row leaves 1 2 2 / 1 2 3, from which the only move
    // (the last row again) leaves 1 2 2, then 1 2, then 1: the mover there wins, so only the
    // column wins.
    let sample = "3 3\n1 2 2\n1 2 3\n2 3 1\n";
    assert_eq!(
        board.words(sample).unwrap(),
        "3 × 3 table (last row 2 + 3 + 1 = 6, last column 2 + 3 + 1 = 6)"
    );
    assert!(board.value(sample).unwrap().win);
    let hints = board.winning_moves(sample).unwrap();
    assert_eq!(hints.len(), 1);
    assert_eq!(hints[0].text, "col");
    assert_eq!(hints[0].after, "3 2\n1 2\n1 2\n2 3\n");
    assert_eq!(
        hints[0].after_words,
        "3 × 2 table (last row 2 + 3 = 5, last column 2 + 2 + 3 = 7)"
    );
    assert!(board.is_over(&hints[0].after).unwrap());
    let row = board.play(sample, "row").unwrap();
    assert_eq!(row.after, "2 3\n1 2 2\n1 2 3\n");
    assert!(row.value.win);
    assert_eq!(board.words("0 0\n").unwrap(), "the empty table");
}
