//! People playing against the reference: the JSON API (`POST /api/v1/problems/{slug}/play`)
//! and the play page, signed out. The test's own Nim arithmetic, not the reference's, decides
//! which moves win.

use crate::common;

use common::Server;
use grundy_server::RequestLimits;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

fn nim_sum(piles: &[u64]) -> u64 {
    piles.iter().fold(0, |x, p| x ^ p)
}

/// The piles of a position as the protocol writes a Nim game (`n a_1 … a_n`).
fn piles(position: &str) -> Vec<u64> {
    let numbers: Vec<u64> = position
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(numbers[0] as usize, numbers.len() - 1, "{position:?}");
    numbers[1..].to_vec()
}

/// A move to nim-sum 0, as `i k`.
fn winning_move(piles: &[u64]) -> String {
    let x = nim_sum(piles);
    let (i, p) = piles
        .iter()
        .enumerate()
        .find(|(_, p)| (**p ^ x) < **p)
        .expect("a won position");
    format!("{} {}", i + 1, p - (p ^ x))
}

fn moves_of(game: &Value) -> Vec<Value> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"]["text"].clone())
        .collect()
}

async fn play(server: &Server, body: Value) -> (StatusCode, Value) {
    server
        .call(
            Method::POST,
            "/api/v1/problems/nim-play/play",
            "",
            Some(body),
        )
        .await
}

#[tokio::test]
async fn a_person_plays_nim_to_the_end_with_hints_and_a_value_history() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;

    // A lost start: taking the second side, the referee moves first and the person is to move.
    let (status, game) = play(&server, json!({"start": "3 1 2 3", "side": "second"})).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["start_words"], "(1, 2, 3)");
    assert_eq!(game["start_value"]["win"], false);
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    assert_eq!(game["moves"][0]["by"], "referee");
    assert_eq!(game["your_turn"], true);

    // Play it out perfectly, asking for a hint each time: every hinted move wins.
    let mut game = game;
    while !game["over"].as_bool().unwrap() {
        let position = game["position"].as_str().unwrap().to_owned();
        let mut moves = moves_of(&game);
        let (status, hinted) = play(
            &server,
            json!({"start": game["start"], "side": "second", "moves": moves, "hint": true}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{hinted}");
        let hint = hinted["hint"].as_array().unwrap();
        assert!(!hint.is_empty(), "{hinted}");
        for m in hint {
            assert_eq!(nim_sum(&piles(m["after"].as_str().unwrap())), 0, "{m}");
        }
        let mine = winning_move(&piles(&position));
        moves.push(json!(mine));
        let (status, next) = play(
            &server,
            json!({"start": game["start"], "side": "second",
                   "moves": &moves[..moves.len() - 1], "move": mine}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = next;
    }
    assert_eq!(game["winner"], "you");
    assert!(game.get("first_mistake").is_none(), "{game}");

    // A game with a mistake: from (1, 2) the person takes the whole first pile.
    let (_, game) = play(
        &server,
        json!({"start": "2 1 2", "side": "first", "move": "1 1"}),
    )
    .await;
    assert_eq!(game["first_mistake"], 0, "{game}");
    let step = &game["moves"][0];
    assert_eq!(step["mistake"], true);
    assert_eq!(step["before"]["win"], true);
    let better: Vec<&str> = step["better"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(better, [winning_move(&[1, 2]).as_str()]);
    // The referee answered from the position the mistake left.
    assert_eq!(game["moves"][1]["by"], "referee");

    server.stop().await;
}

#[tokio::test]
async fn bad_games_are_refused_with_a_reason_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    let refused = [
        (
            json!({"start": "2 0 3", "side": "first"}),
            "pile 1 is empty",
        ),
        (
            json!({"start": "11 1 1 1 1 1 1 1 1 1 1 1", "side": "first"}),
            "",
        ),
        (
            json!({"start": "2 1 2", "side": "first", "move": "3 1"}),
            "no pile 3",
        ),
        (
            json!({"start": "2 1 2", "side": "first", "move": "1 5"}),
            "",
        ),
        (
            json!({"start": "2 1 2", "side": "first", "moves": ["1 1", "2 2"], "move": "1 1"}),
            "over",
        ),
        (
            json!({"start": "2 1 2", "side": "second", "moves": [], "move": "1 1"}),
            "referee's turn",
        ),
        (
            json!({"start": "2 1 2", "side": "first", "moves": ["9 9"]}),
            "move 1",
        ),
    ];
    for (body, reason) in refused {
        let (status, error) = play(&server, body.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(reason), "{body}: {message}");
    }
    let too_long = vec!["1 1"; 2_001];
    let (status, _) = play(
        &server,
        json!({"start": "1 5", "side": "first", "moves": too_long}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // A seed beyond the document's int64.
    let (status, error) = play(
        &server,
        json!({"side": "first", "seed": 9_223_372_036_854_775_808_u64}),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    let (status, _) = play(&server, json!({"side": "middle"})).await;
    assert!(status.is_client_error(), "{status}");
    // Only problems with a game to play have one.
    let (status, _) = server
        .call(
            Method::POST,
            "/api/v1/problems/spc4/play",
            "",
            Some(json!({"side": "first"})),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The service is as it was.
    let (status, game) = play(
        &server,
        json!({"start": "1 4", "side": "first", "move": "1 4"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["winner"], "you");
    server.stop().await;
}

/// A page's status and HTML, signed out.
async fn page(server: &Server, path: &str) -> (StatusCode, String) {
    let response = server
        .client
        .get(format!("{}{path}", server.url))
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

#[tokio::test]
async fn the_play_page_works_as_plain_forms() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    let shared = &server;
    let play = |query: &str| {
        let path = format!("/play/nim-play{query}");
        async move { page(shared, &path).await }
    };
    let (status, html) = play("").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("name=\"side\""), "{html}");
    // Won by taking everything: the value history follows, without a mistake.
    let (status, html) = play("?start=1+4&side=first&moves=&move=1+4").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("id=\"result\""), "{html}");
    assert!(html.contains("You won."), "{html}");
    assert!(html.contains("Value history"), "{html}");
    // A move that is not legal: the reason, and the game where it was.
    let (_, html) = play("?start=2+1+2&side=first&moves=&move=3+1").await;
    assert!(html.contains("id=\"play-error\""), "{html}");
    assert!(html.contains("no pile 3"), "{html}");
    assert!(html.contains("name=\"move\""), "{html}");
    // A hint lists the winning move.
    let (_, html) = play("?start=2+1+2&side=first&moves=&hint=1").await;
    assert!(html.contains("id=\"hint\""), "{html}");
    assert!(
        html.contains(&format!("<code>{}</code>", winning_move(&[1, 2]))),
        "{html}"
    );
    // The problem page links to it; a problem without a game has no play page.
    let (_, statement) = page(&server, "/problems/nim-play").await;
    assert!(statement.contains("href=\"/play/nim-play\""));
    let (status, _) = page(&server, "/play/spc4").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}

/// Kayles' values begin 0, 1, 2, 3, 1 (heaps 0 to 4), worked out by hand from its rules: knock
/// down one pin or two neighbours.
const KAYLES: [u64; 5] = [0, 1, 2, 3, 1];

#[tokio::test]
async fn catalogue_games_are_played_on_their_own_page_with_their_notation() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    // Kayles is a catalogue problem (no protocol of its own): its game is played all the same.
    let (status, problems) = server.call(Method::GET, "/api/v1/problems", "", None).await;
    assert_eq!(status, StatusCode::OK);
    let playable = |slug: &str| {
        problems["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == slug)
            .unwrap_or_else(|| panic!("{slug} is listed"))["playable"]
            .as_bool()
            .unwrap()
    };
    assert!(playable("kayles") && playable("nim") && playable("wythoff"));
    assert!(playable("parigame") && !playable("spc4"));

    // (3, 4) is worth 3 ⊕ 1 = 2: knocking one pin off the end of the 4 leaves (3, 3), worth 0.
    assert_eq!(KAYLES[3] ^ KAYLES[4], 2);
    let (status, game) = server
        .call(
            Method::POST,
            "/api/v1/problems/kayles/play",
            "",
            Some(json!({"start": "2 3 4", "side": "first", "move": "2 1", "hint": false})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["start_value"]["grundy"], 2);
    assert_eq!(game["moves"][0]["move"]["after_words"], "(3, 3)");
    assert_eq!(game["moves"][0]["mistake"], false);
    assert_eq!(game["moves"][1]["by"], "referee");
    // A split the rules do not allow is refused with the rule.
    let (status, error) = server
        .call(
            Method::POST,
            "/api/v1/problems/dawsons-kayles/play",
            "",
            Some(json!({"start": "1 5", "side": "first", "move": "1 1"})),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("0.07"),
        "{error}"
    );

    // The page says how to type positions and moves, and the problem page links to it.
    let (status, html) = page(&server, "/play/kayles").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("id=\"notation\""), "{html}");
    assert!(html.contains("<code>i t a</code>"), "{html}");
    assert!(html.contains("is three heaps"), "{html}");
    // In the reader's language: a Vietnamese reader gets the Vietnamese notation.
    let html = server
        .client
        .get(format!("{}/play/kayles", server.url))
        .header("accept-language", "vi")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("là ba đống 4, 5 và 6 viên"), "{html}");
    assert!(!html.contains("is three heaps"), "{html}");
    let (_, statement) = page(&server, "/problems/kayles").await;
    assert!(statement.contains("href=\"/play/kayles\""));
    server.stop().await;
}
