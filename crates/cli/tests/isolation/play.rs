//! Interactive problems end to end: `grundy judge` on players in C, C++, Python and Java that
//! play perfectly, and on players that blunder, take the wrong side, never flush, write garbage,
//! exit early, go on after the end or never read (tests/programs/play/<problem>/).

use crate::common;
use crate::serial;

use common::{grundy, isolation_available, json, programs, sandbox_processes, tool_available};
use serde_json::Value;

fn judge(problem: &str, program: &str) -> Value {
    let path = programs().join("play").join(problem).join(program);
    let out = grundy(
        &[
            "judge",
            "--json",
            "--stop-at-first-failure",
            "--problem",
            problem,
            path.to_str().unwrap(),
        ],
        b"",
    );
    json(&out)
}

/// The first test that did not pass.
fn first_failure(judgement: &Value) -> &Value {
    judgement["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["verdict"] != "accepted" && t["verdict"] != "skipped")
        .unwrap_or_else(|| panic!("no failing test: {judgement:#}"))
}

/// `game G, move M: …` → (G, M).
fn place(message: &str) -> (u64, u64) {
    let (place, _) = message
        .split_once(':')
        .unwrap_or_else(|| panic!("no place in {message:?}"));
    let numbers: Vec<u64> = place
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(place.starts_with("game "), "{message:?}");
    (numbers[0], numbers[1])
}

#[test]
fn perfect_players_win_every_game() {
    if !isolation_available("perfect_players_win_every_game") {
        return;
    }
    let _serial = serial();
    let players = [
        ("nim-play", "perfect.c", "/usr/bin/gcc"),
        ("nim-play", "perfect.cpp", "/usr/bin/g++"),
        ("nim-play", "perfect.py", "/usr/bin/python3"),
        ("nim-play", "perfect.java", "/usr/bin/javac"),
        ("wythoff-play", "perfect.c", "/usr/bin/gcc"),
    ];
    for (problem, program, tool) in players {
        if !tool_available("perfect_players_win_every_game", tool) {
            continue;
        }
        let judgement = judge(problem, program);
        assert_eq!(
            judgement["verdict"], "accepted",
            "{problem} {program}: {judgement:#}"
        );
        let tests = judgement["tests"].as_array().unwrap();
        // Every test was played, each game to its end by the program's win.
        for test in tests {
            let games = test["transcript"]["games"].as_array().unwrap();
            assert!(!games.is_empty(), "{test:#}");
            for game in games {
                assert!(game.get("mistake").is_none(), "{game:#}");
                let last = game["moves"].as_array().unwrap().last().unwrap();
                assert_eq!(last["by"], "program", "{problem}: {game:#}");
            }
        }
    }
}

#[test]
fn every_misbehaviour_gets_its_verdict_and_nothing_is_left_running() {
    if !isolation_available("every_misbehaviour_gets_its_verdict")
        || !tool_available("every_misbehaviour_gets_its_verdict", "/usr/bin/gcc")
        || !tool_available("every_misbehaviour_gets_its_verdict", "/usr/bin/python3")
    {
        return;
    }
    let _serial = serial();
    // One mistake, in a game after the first: that game and move are named, the detail adds the
    // position and a correct move, and the transcript ends there.
    let judgement = judge("nim-play", "blunder.c");
    assert_eq!(judgement["verdict"], "wrong_answer", "{judgement:#}");
    let failed = first_failure(&judgement);
    let message = failed["message"].as_str().unwrap();
    let (game, mov) = place(message);
    assert!(game >= 2, "{message}");
    assert!(mov >= 1, "{message}");
    assert!(!message.contains("from ("), "{message}");
    let detail = failed["detail"].as_str().unwrap();
    assert_eq!(place(detail), (game, mov), "{detail}");
    assert!(detail.contains("from ("), "{detail}");
    let games = failed["transcript"]["games"].as_array().unwrap();
    assert_eq!(games.len() as u64, game, "{message}");
    assert!(games.last().unwrap()["mistake"].is_string());

    // The losing side is a mistake before any move.
    let judgement = judge("nim-play", "wrong-side.c");
    assert_eq!(judgement["verdict"], "wrong_answer");
    assert_eq!(
        place(first_failure(&judgement)["message"].as_str().unwrap()),
        (1, 0)
    );
    let judgement = judge("nim-play", "garbage.py");
    assert_eq!(judgement["verdict"], "wrong_answer");
    assert_eq!(
        place(first_failure(&judgement)["message"].as_str().unwrap()),
        (1, 0)
    );

    // An illegal move is named where it was made.
    let judgement = judge("nim-play", "illegal.c");
    assert_eq!(judgement["verdict"], "wrong_answer");
    assert_eq!(
        place(first_failure(&judgement)["message"].as_str().unwrap()).0,
        1
    );

    // Waiting, for a move that sits in an unflushed buffer or for nothing, meets the idleness
    // limit, which names the likely cause.
    for program in ["no-flush.c", "never-reads.c"] {
        let judgement = judge("nim-play", program);
        assert_eq!(
            judgement["verdict"], "time_limit",
            "{program}: {judgement:#}"
        );
        let message = first_failure(&judgement)["message"].as_str().unwrap();
        assert!(message.contains("idleness limit"), "{message}");
        assert!(message.contains("flush"), "{message}");
    }

    let judgement = judge("nim-play", "early-exit.c");
    assert_eq!(judgement["verdict"], "wrong_answer");
    let message = first_failure(&judgement)["message"].as_str().unwrap();
    assert!(
        message.contains("exited before the games were over"),
        "{message}"
    );

    let judgement = judge("nim-play", "after-end.c");
    assert_eq!(judgement["verdict"], "wrong_answer");
    let message = first_failure(&judgement)["message"].as_str().unwrap();
    assert!(message.contains("after the last game"), "{message}");

    assert_eq!(sandbox_processes(), Vec::<String>::new());
}

#[test]
fn a_person_plays_in_the_terminal_and_reads_the_value_history() {
    // From (3, 5) the only winning move takes 2 from pile 2; the person takes 1 from pile 1
    // instead, leaving (2, 5), from which the referee leaves (2, 2): the person, lost now, asks
    // for a hint, tries an illegal move and plays on to the end.
    let out = grundy(
        &["play", "nim-play", "--start", "2 3 5", "--side", "first"],
        b"1 1\nhint\n1 9\n1 2\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("The referee won."), "{text}");
    assert!(text.contains("every move loses from here"), "{text}");
    assert!(text.contains("referee: 2 3"), "{text}");
    assert!(text.contains("pile 1"), "{text}");
    assert!(text.contains("Value history"), "{text}");
    assert!(text.contains("mistake: a winning move was 2 2"), "{text}");

    let out = grundy(&["play", "nim-play", "--start", "1 3"], b"1 3\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("You won."), "{text}");
    // A catalogue game plays as well, with its notation; a problem without a game refuses.
    let out = grundy(&["play", "kayles", "--start", "1 3"], b"1 1 1\n1 1\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("`i t a`"), "{text}");
    assert!(text.contains("You won."), "{text}");
    let out = grundy(&["play", "spc4"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game to play"));
}
