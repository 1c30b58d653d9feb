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
        "dag-chess",
        "every-sg",
        "christmas-game",
        "bipartite-game",
    ] {
        assert!(playable.contains(&slug), "{slug} is playable: {playable:?}");
    }
    // Games whose positions are not heaps, piles or boards a person types: none of them.
    for slug in ["parigame", "spc4", "sc4", "vika"] {
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
