//! Teachers make problems from a heap game's octal code, through the API and the form at
//! `/teach/games`; students may not; codes that make no sense are refused with the place of the
//! fault. The problem's answers are checked against the test's own brute force of Dawson's chess.

use crate::common;

use std::collections::BTreeMap;

use common::Server;
use grundy_server::domain::accounts;
use grundy_server::{RequestLimits, SESSION_COOKIE};
use grundy_store::Role;
use reqwest::{Method, StatusCode};
use serde_json::json;

/// Dawson's chess (0.137) by its rules: remove one counter from a heap of one; remove one from
/// the end of a heap (or two, splitting nothing); remove three counters, leaving the rest in at
/// most two heaps — computed from the code's meaning digit by digit, not by Grundy's code.
fn grundy_values(code: &[u8], up_to: usize) -> Vec<u64> {
    let mut g = vec![0u64; up_to + 1];
    for n in 1..=up_to {
        let mut seen = BTreeMap::new();
        for (k, &digit) in code.iter().enumerate() {
            let k = k + 1;
            if k > n {
                break;
            }
            let rest = n - k;
            if digit & 1 != 0 && rest == 0 {
                seen.insert(0, ());
            }
            if digit & 2 != 0 && rest > 0 {
                seen.insert(g[rest], ());
            }
            if digit & 4 != 0 && rest >= 2 {
                for a in 1..rest {
                    seen.insert(g[a] ^ g[rest - a], ());
                }
            }
        }
        g[n] = (0..).find(|v| !seen.contains_key(v)).unwrap();
    }
    g
}

#[tokio::test]
async fn a_teachers_code_becomes_a_problem_and_nonsense_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    let teacher = server.token("tom", Role::Teacher).await;
    let student = server.token("ana", Role::Student).await;
    let chess = json!({"slug": "chess-heaps", "title": {"en": "Dawson's chess", "vi": "Cờ Dawson"},
                       "code": "0.137"});

    // A student may not make problems.
    let (status, _) = server
        .call(Method::POST, "/api/v1/games", &student, Some(chess.clone()))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server
        .call(Method::POST, "/api/v1/games", "", Some(chess.clone()))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // Codes that make no sense: the message says where.
    for (code, place) in [
        ("0.8", "position 3"),
        ("", "empty"),
        ("0.7x", "position 4"),
        ("1.7", "position 1"),
        ("0.123456701234567012345670123456701", "too long"),
    ] {
        let mut body = chess.clone();
        body["code"] = json!(code);
        let (status, error) = server
            .call(Method::POST, "/api/v1/games", &teacher, Some(body))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{code}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(place), "{code}: {message}");
    }

    let (status, made) = server
        .call(Method::POST, "/api/v1/games", &teacher, Some(chess.clone()))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["published"], false);
    let (status, problem) = server
        .call(Method::GET, "/api/v1/problems/chess-heaps", &teacher, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    // The statement states the rule in words and the proven limit.
    let statement = problem["statement_markdown"].as_str().unwrap();
    assert!(
        statement.contains("10^{18}") || statement.contains("10¹⁸"),
        "{statement}"
    );
    // A draft: the student does not see it until it is published.
    let (status, _) = server
        .call(Method::GET, "/api/v1/problems/chess-heaps", &student, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server
        .call(
            Method::POST,
            "/api/v1/problems/chess-heaps/publish",
            &teacher,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // The problem's answers agree with the rules on the instances a student is given.
    let values = grundy_values(&[1, 3, 7], 200);
    let catalogue_problem = server
        .state
        .domain
        .problems
        .get("chess-heaps")
        .expect("loaded");
    let instances = catalogue_problem.problem.instances(7, 3);
    let mut checked = 0;
    for instance in &instances {
        let mut lines = instance.input.lines();
        lines.next();
        for (game, answer) in lines.zip(instance.answer.lines()) {
            let heaps: Vec<usize> = game
                .split_whitespace()
                .skip(1)
                .map(|h| h.parse().unwrap())
                .collect();
            if heaps.iter().all(|&h| h <= 200) {
                let x = heaps.iter().fold(0, |x, &h| x ^ values[h]);
                assert_eq!(answer, if x != 0 { "First" } else { "Second" }, "{game}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    server.stop().await;
}

#[tokio::test]
async fn the_teachers_form_makes_the_same_problem() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path(), RequestLimits::default()).await;
    let user = server.create_user("tom", Role::Teacher).await;
    let secret = accounts::start_session(&server.state.domain, user.id, None)
        .await
        .unwrap();
    let cookie = format!("{SESSION_COOKIE}={secret}");
    let post = |fields: Vec<(&'static str, &'static str)>| {
        server
            .client
            .post(format!("{}/teach/games", server.url))
            .header(reqwest::header::COOKIE, cookie.clone())
            .form(&fields)
            .send()
    };
    let refused = post(vec![
        ("code", "0.9"),
        ("slug", "bad-game"),
        ("title_en", "Bad"),
    ])
    .await
    .unwrap();
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = refused.text().await.unwrap();
    assert!(html.contains("id=\"game-error\""), "{html}");
    // The form keeps what was typed.
    assert!(html.contains("value=\"bad-game\""), "{html}");
    let made = post(vec![
        ("code", "0.137"),
        ("slug", "form-chess"),
        ("title_en", "Dawson's chess"),
        ("title_vi", "Cờ Dawson"),
    ])
    .await
    .unwrap();
    assert_eq!(made.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        made.headers()[reqwest::header::LOCATION],
        "/problems/form-chess"
    );
    assert!(server.state.domain.problems.get("form-chess").is_some());
    server.stop().await;
}
