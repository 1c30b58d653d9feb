//! `grundy games analyse` run as a user would run it.

use std::process::{Command, Output};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("the binary starts")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn kayles_has_period_12_and_answers_any_heap() {
    let out = grundy(&[
        "games",
        "analyse",
        "0.77",
        "--at",
        "3",
        "1000000000000000000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Period 12, pre-period 71"), "{text}");
    // G(3) = 3 (take the middle pin), and 10^18 ≡ 4 (mod 12) lands on Kayles's value 1.
    assert!(text.contains("G(3) = 3\n"), "{text}");
    assert!(text.contains("G(1000000000000000000) = 1\n"), "{text}");
    assert!(
        text.starts_with("Octal game 0.77\nG(0..=199): 0 1 2 3 1 4 3 2 1 4 2 6 4 "),
        "{text}"
    );
}

#[test]
fn json_has_the_documented_shape() {
    let out = grundy(&[
        "games", "analyse", "0.07", "--json", "--at", "10", "1000000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["at", "code", "computed_to", "period", "preperiod", "values"]
    );
    assert_eq!(json["code"], "0.07");
    assert_eq!(json["period"], 34);
    assert_eq!(json["preperiod"], 53);
    assert_eq!(json["values"].as_array().unwrap().len(), 200);
    // Dawson's Kayles, G(0..=10) from Winning Ways: 0 0 1 1 2 0 3 1 1 0 3.
    assert_eq!(json["values"][10], 3);
    assert_eq!(json["at"]["10"], 3);
    assert!(json["at"]["1000000"].is_u64());
}

#[test]
fn an_open_code_proves_nothing_and_says_so() {
    let out = grundy(&["games", "analyse", "0.6", "--upto", "5000", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["period"].is_null() && json["preperiod"].is_null(),
        "{json}"
    );
    assert_eq!(json["computed_to"], 5000);

    let text = stdout(&grundy(&["games", "analyse", "0.6", "--upto", "5000"]));
    assert!(text.contains("No period proven up to 5000."), "{text}");

    let beyond = grundy(&[
        "games", "analyse", "0.007", "--upto", "5000", "--at", "5001",
    ]);
    assert!(!beyond.status.success());
    assert!(
        stderr(&beyond).contains("G(5001) is known only for heaps up to 5000"),
        "{}",
        stderr(&beyond)
    );
}

#[test]
fn bad_codes_name_the_fault() {
    for (code, message) in [
        ("0.78", "position 4: the digit 8 is out of range"),
        (
            "0.7x",
            "position 4: expected an octal digit 0 to 7, found 'x'",
        ),
        ("", "the code is empty"),
        ("0.", "no digits after"),
        ("1.7", "position 1: expected \"0\""),
        (
            &format!("0.{}", "7".repeat(33)),
            "position 35: the code is too long",
        ),
    ] {
        let out = grundy(&["games", "analyse", code]);
        assert!(!out.status.success(), "{code}");
        assert!(stderr(&out).contains(message), "{code}: {}", stderr(&out));
    }
}

#[test]
fn a_time_limit_stops_and_says_how_far_it_got() {
    let out = grundy(&[
        "games",
        "analyse",
        "0.6",
        "--upto",
        "100000000",
        "--time-limit",
        "0",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Stopped at the time limit of 0 s: computed G(0..="),
        "{text}"
    );
    assert!(text.contains("of the 100000000 asked for"), "{text}");
}
