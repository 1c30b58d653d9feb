//! The interactive problems played through the `Referee` interface by players written here,
//! independently of the reference: perfect players win every generated test, and each kind of
//! mistake is stopped where it happens, with a message that names it.

use grundy_games::{implicit, nim, wythoff};
use grundy_problems::Catalogue;
use grundy_problems::catalogue::Problem;
use grundy_problems::play::{Heard, Mover, Side, Transcript};
use std::collections::VecDeque;

/// A program's side of the protocol: the lines it writes after reading one line.
trait Player {
    fn hear(&mut self, line: &str) -> Vec<String>;
}

#[derive(Debug, PartialEq)]
enum End {
    Over,
    Mistake { stop: String, message: String },
}

struct Run {
    end: End,
    transcript: Transcript,
    moves: usize,
}

fn run(problem: &Problem, input: &str, seed: u64, player: &mut dyn Player) -> Run {
    let mut referee = problem
        .play()
        .expect("an interactive problem")
        .referee(input, seed)
        .unwrap();
    let mut pending: VecDeque<String> = referee.open().lines().map(str::to_owned).collect();
    let mut moves = 0;
    while let Some(line) = pending.pop_front() {
        for out in player.hear(&line) {
            if out != "first" && out != "second" {
                moves += 1;
            }
            match referee.hear(&out) {
                Heard::Reply(text) => {
                    moves += text.lines().filter(|l| l.split(' ').count() == 2).count();
                    pending.extend(text.lines().map(str::to_owned))
                }
                Heard::Over => {
                    assert!(pending.is_empty(), "over with lines to read: {pending:?}");
                    return Run {
                        end: End::Over,
                        transcript: referee.transcript(),
                        moves,
                    };
                }
                Heard::Mistake { stop, message } => {
                    return Run {
                        end: End::Mistake { stop, message },
                        transcript: referee.transcript(),
                        moves,
                    };
                }
            }
        }
    }
    panic!("the referee and the player both wait");
}

fn problem(slug: &str) -> &'static Problem {
    static CATALOGUE: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    CATALOGUE
        .get_or_init(|| Catalogue::builtin().unwrap())
        .iter()
        .find(|p| p.slug() == slug)
        .unwrap_or_else(|| panic!("{slug} is built in"))
}

/// Where a player went wrong on purpose: game and move numbers as the referee counts them.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Place {
    game: usize,
    moves: usize,
}

/// Nim by the nim-sum. `blunder` names the game and the player's own move (1-based) at which
/// it makes a move that leaves a non-zero nim-sum; `side_wrong` makes it take the losing side
/// in the first game.
#[derive(Default)]
struct NimPlayer {
    read_t: bool,
    piles: Option<Vec<u64>>,
    place: Place,
    own_moves: usize,
    blunder: Option<(usize, usize)>,
    blundered_at: Option<Place>,
    side_wrong: bool,
}

impl NimPlayer {
    fn my_move(&mut self) -> String {
        let piles = self.piles.as_mut().unwrap();
        self.own_moves += 1;
        self.place.moves += 1;
        let sum = piles.iter().fold(0, |a, &p| a ^ p);
        let (i, to) = if self.blunder == Some((self.place.game, self.own_moves)) {
            self.blundered_at = Some(self.place);
            // A move that leaves a non-zero nim-sum: taking one from some pile.
            let i = (0..piles.len())
                .find(|&i| piles[i] > 0 && sum ^ piles[i] ^ (piles[i] - 1) != 0)
                .unwrap();
            (i, piles[i] - 1)
        } else {
            match (0..piles.len()).find(|&i| piles[i] ^ sum < piles[i]) {
                Some(i) => (i, piles[i] ^ sum),
                // Lost: any move, one from the first pile that has one.
                None => {
                    let i = (0..piles.len()).find(|&i| piles[i] > 0).unwrap();
                    (i, piles[i] - 1)
                }
            }
        };
        let take = piles[i] - to;
        piles[i] = to;
        if piles.iter().all(|&p| p == 0) {
            self.piles = None;
        }
        format!("{} {take}", i + 1)
    }
}

impl Player for NimPlayer {
    fn hear(&mut self, line: &str) -> Vec<String> {
        if !self.read_t {
            self.read_t = true;
            return Vec::new();
        }
        let numbers: Vec<u64> = line.split(' ').map(|t| t.parse().unwrap()).collect();
        match &mut self.piles {
            None => {
                self.piles = Some(numbers[1..].to_vec());
                self.place = Place {
                    game: self.place.game + 1,
                    moves: 0,
                };
                self.own_moves = 0;
                let lost = numbers[1..].iter().fold(0, |a, &p| a ^ p) == 0;
                let wrong = self.side_wrong && self.place.game == 1;
                if lost != wrong {
                    vec!["second".into()]
                } else {
                    vec!["first".into(), self.my_move()]
                }
            }
            Some(piles) => {
                piles[numbers[0] as usize - 1] -= numbers[1];
                self.place.moves += 1;
                vec![self.my_move()]
            }
        }
    }
}

/// `⌊kφ⌋`, exactly: the smaller number of the k-th losing pair.
fn floor_k_phi(k: u64) -> u64 {
    let k = u128::from(k);
    ((k + (5 * k * k).isqrt()) / 2) as u64
}

/// The `j` with `f(j) = x` for an increasing `f`, if there is one.
fn inverse(x: u64, f: impl Fn(u64) -> u64) -> Option<u64> {
    let (mut low, mut high) = (0, x);
    while low < high {
        let mid = low + (high - low) / 2;
        if f(mid) < x {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    (f(low) == x).then_some(low)
}

/// A winning Wythoff move `(x, y)` from `(a, b)`, by the losing pairs `(⌊kφ⌋, ⌊kφ⌋ + k)`.
fn wythoff_move(a: u64, b: u64) -> Option<(u64, u64)> {
    let (low, high) = (a.min(b), a.max(b));
    let d = high - low;
    let diagonal = floor_k_phi(d);
    let (from_low, from_high) = if low > diagonal {
        (low - diagonal, low - diagonal)
    } else if low == diagonal {
        return None;
    } else if let Some(j) = inverse(low, floor_k_phi) {
        (0, high - (low + j))
    } else {
        let j = inverse(low, |j| floor_k_phi(j) + j).unwrap();
        (0, high - floor_k_phi(j))
    };
    Some(if a <= b {
        (from_low, from_high)
    } else {
        (from_high, from_low)
    })
}

#[derive(Default)]
struct WythoffPlayer {
    read_t: bool,
    piles: Option<(u64, u64)>,
    place: Place,
    own_moves: usize,
    blunder: Option<(usize, usize)>,
    blundered_at: Option<Place>,
}

impl WythoffPlayer {
    fn my_move(&mut self) -> String {
        let (a, b) = self.piles.unwrap();
        self.own_moves += 1;
        self.place.moves += 1;
        let (x, y) = if self.blunder == Some((self.place.game, self.own_moves)) {
            self.blundered_at = Some(self.place);
            // Emptying a pile leaves a position the opponent wins by taking the other, unless
            // the other is empty already.
            if a > 0 && b > 0 {
                (a, 0)
            } else {
                (1, 0).min((a, b))
            }
        } else {
            wythoff_move(a, b).expect("the player stands on a winning position")
        };
        let after = (a - x, b - y);
        self.piles = (after != (0, 0)).then_some(after);
        format!("{x} {y}")
    }
}

impl Player for WythoffPlayer {
    fn hear(&mut self, line: &str) -> Vec<String> {
        if !self.read_t {
            self.read_t = true;
            return Vec::new();
        }
        let numbers: Vec<u64> = line.split(' ').map(|t| t.parse().unwrap()).collect();
        match self.piles {
            None => {
                self.piles = Some((numbers[0], numbers[1]));
                self.place = Place {
                    game: self.place.game + 1,
                    moves: 0,
                };
                self.own_moves = 0;
                if wythoff_move(numbers[0], numbers[1]).is_none() {
                    vec!["second".into()]
                } else {
                    vec!["first".into(), self.my_move()]
                }
            }
            Some((a, b)) => {
                self.piles = Some((a - numbers[0], b - numbers[1]));
                self.place.moves += 1;
                vec![self.my_move()]
            }
        }
    }
}

#[test]
fn perfect_players_win_every_test() {
    for (slug, make) in [
        (
            "nim-play",
            (|| Box::new(NimPlayer::default()) as Box<dyn Player>) as fn() -> _,
        ),
        ("wythoff-play", || Box::new(WythoffPlayer::default())),
    ] {
        let problem = problem(slug);
        let mut tests = 0;
        for test in problem.tests() {
            for seed in [1, 2] {
                let run = run(problem, &test.input, seed, make().as_mut());
                assert_eq!(run.end, End::Over, "{slug} test {}", test.index);
                assert!(run.moves <= 20_000, "{slug}: {} moves", run.moves);
                let sides: Vec<&str> = run
                    .transcript
                    .games
                    .iter()
                    .map(|g| match g.side {
                        Some(Side::First) => "first",
                        Some(Side::Second) => "second",
                        None => "none",
                    })
                    .collect();
                assert_eq!(sides, test.answer.lines().collect::<Vec<_>>());
                // Every move the program made left a position lost for the referee.
                for game in &run.transcript.games {
                    for mv in game.moves.iter().filter(|m| m.by == Mover::Program) {
                        assert!(!mv.value.win, "{slug}: {mv:?}");
                    }
                }
            }
            tests += 1;
        }
        assert!(tests >= 10, "{slug}: {tests} tests");
    }
}

#[test]
fn the_start_positions_mix_wins_and_losses_and_hold_the_traps() {
    let nim = problem("nim-play");
    let inputs: Vec<String> = nim.tests().map(|t| t.input).collect();
    let answers: String = nim.tests().map(|t| t.answer).collect();
    assert!(answers.matches("first").count() >= 200);
    assert!(answers.matches("second").count() >= 200);
    let lines: Vec<Vec<u64>> = inputs
        .iter()
        .flat_map(|i| {
            i.lines()
                .skip(1)
                .map(|l| l.split(' ').skip(1).map(|t| t.parse().unwrap()).collect())
                .collect::<Vec<Vec<u64>>>()
        })
        .collect();
    assert!(lines.iter().any(|p| p.len() == 1));
    assert!(
        lines
            .iter()
            .any(|p| p.len() == 10 && p.iter().all(|&a| a == 1_000_000_000))
    );
    assert!(lines.iter().any(|p| p.len() >= 3
        && p.iter().all(|&a| a > 500_000_000)
        && p.iter().fold(0, |x, &a| x ^ a) == 0));

    let wythoff = problem("wythoff-play");
    let pairs: Vec<(u64, u64)> = wythoff
        .tests()
        .flat_map(|t| {
            t.input
                .lines()
                .skip(1)
                .map(|l| {
                    let (a, b) = l.split_once(' ').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect::<Vec<_>>()
        })
        .collect();
    // 267914296 is a Fibonacci number: its losing pair is one where doubles go wrong.
    let (a, b) = (
        floor_k_phi(267_914_296),
        floor_k_phi(267_914_296) + 267_914_296,
    );
    assert!(b <= 1_000_000_000);
    assert!(pairs.contains(&(a, b)) && pairs.contains(&(b, a)));
    assert!(pairs.iter().any(|&(a, b)| a == b));
    assert!(pairs.iter().any(|&(a, b)| a == 0 || b == 0));
    let wythoff_answers: String = wythoff.tests().map(|t| t.answer).collect();
    assert!(wythoff_answers.matches("second").count() >= 200);
    assert!(wythoff_answers.matches("first").count() >= 200);
}

#[test]
fn a_blunder_is_stopped_at_its_game_and_move() {
    let nim = problem("nim-play");
    let input = "3\n3 1 2 3\n2 5 9\n3 7 7 1\n";
    for (game, own) in [(2, 1), (3, 2), (1, 2)] {
        let mut player = NimPlayer {
            blunder: Some((game, own)),
            ..NimPlayer::default()
        };
        let run = run(nim, input, 7, &mut player);
        let place = player.blundered_at.expect("the player blundered");
        let End::Mistake { stop, message } = run.end else {
            panic!("a blunder passed: {:?}", run.end)
        };
        assert_eq!(stop, "-1\n");
        let prefix = format!("game {}, move {}: from (", place.game, place.moves);
        assert!(
            message.starts_with(&prefix),
            "{message} (expected {prefix})"
        );
        assert!(message.contains("you took 1 from pile"), "{message}");
        assert!(message.contains("≠ 0; a winning move was"), "{message}");
        assert_eq!(run.transcript.games.len(), game);
        assert_eq!(
            run.transcript.games.last().unwrap().mistake.as_deref(),
            Some(message.as_str())
        );
    }

    let wythoff = problem("wythoff-play");
    let mut player = WythoffPlayer {
        blunder: Some((2, 1)),
        ..WythoffPlayer::default()
    };
    let run = run(wythoff, "2\n3 5\n4 9\n", 3, &mut player);
    let End::Mistake { stop, message } = run.end else {
        panic!("a blunder passed")
    };
    assert_eq!(stop, "-1 -1\n");
    assert_eq!(
        message,
        "game 2, move 1: from (4, 9) you took 4 from the first pile, leaving (0, 9) (not a \
         losing pair: the losing pair with difference 9 is (14, 23)); a winning move was 2 \
         from the second pile (`0 2`)"
    );
}

#[test]
fn the_losing_side_is_a_mistake_at_move_zero() {
    let nim = problem("nim-play");
    for input in ["1\n2 4 1\n", "1\n2 4 4\n"] {
        let mut player = NimPlayer {
            side_wrong: true,
            ..NimPlayer::default()
        };
        let End::Mistake { message, .. } = run(nim, input, 1, &mut player).end else {
            panic!("the wrong side passed")
        };
        assert!(
            message.starts_with("game 1, move 0: you chose "),
            "{message}"
        );
        if input.contains("4 1") {
            assert!(message.contains("chose second, but at (4, 1) with nim-value 5 ≠ 0"));
            assert!(message.contains("a winning move was 3 from pile 1 (`1 3`)"));
        } else {
            assert!(message.contains("chose first, but at (4, 4) with nim-value 0"));
        }
    }
}

/// The message of the mistake among `lines`, written one after another whatever the referee says.
fn scripted(slug: &str, input: &str, lines: &[&str]) -> String {
    let mut referee = problem(slug).play().unwrap().referee(input, 5).unwrap();
    referee.open();
    let mut last = Heard::Reply(String::new());
    for line in lines {
        last = referee.hear(line);
        if let Heard::Mistake { message, .. } = &last {
            return message.clone();
        }
    }
    panic!("no mistake: {last:?}")
}

#[test]
fn garbage_and_illegal_moves_are_named() {
    let input = "1\n3 1 2 4\n";
    assert_eq!(
        scripted("nim-play", input, &["FIRST"]),
        "game 1, move 0: expected `first` or `second`, found `FIRST`"
    );
    let cases = [
        ("hello", "is two integers `i k`"),
        ("4 1", "there is no pile 4 (the piles are 1 to 3)"),
        ("3 5", "pile 3 has only 4, not 5"),
        ("1 0", "k = 0, but a move takes at least 1"),
        ("1 1 1", "is two integers"),
        ("", "an empty line"),
    ];
    for (line, why) in cases {
        let message = scripted("nim-play", input, &["first", line]);
        assert!(
            message.starts_with("game 1, move 1: from (1, 2, 4) you wrote "),
            "{message}"
        );
        assert!(message.contains(why), "{line:?}: {message}");
    }
    let wythoff = [
        ("2 1", "the same number from both"),
        ("0 0", "at least one stone"),
        ("4 0", "the first pile has only 3, not 4"),
        ("-1 0", "cannot be negative"),
    ];
    for (line, why) in wythoff {
        let message = scripted("wythoff-play", "1\n3 3\n", &["first", line]);
        assert!(message.contains(why), "{line:?}: {message}");
    }
}

#[test]
fn writing_after_the_end_is_a_mistake() {
    let nim = problem("nim-play");
    let mut referee = nim.play().unwrap().referee("1\n1 5\n", 0).unwrap();
    assert_eq!(referee.open(), "1\n1 5\n");
    assert_eq!(referee.hear("first"), Heard::Reply(String::new()));
    assert_eq!(referee.hear("1 5"), Heard::Over);
    let Heard::Mistake { message, .. } = referee.hear("1 1") else {
        panic!("writing after the end passed")
    };
    assert_eq!(
        message,
        "after the last game was over, the program wrote `1 1`"
    );
}

#[test]
fn the_referee_varies_its_moves_with_the_seed() {
    let nim = problem("nim-play");
    let input = "1\n4 900 900 12345 12345\n";
    let lines: std::collections::BTreeSet<Vec<String>> = (0..20)
        .map(|seed| {
            let run = run(nim, input, seed, &mut NimPlayer::default());
            assert_eq!(run.end, End::Over);
            run.transcript.games[0]
                .moves
                .iter()
                .map(|m| m.text.clone())
                .collect()
        })
        .collect();
    assert!(lines.len() >= 10, "only {} lines in 20 seeds", lines.len());
}

#[test]
fn board_values_agree_with_brute_force_on_small_positions() {
    let nim = problem("nim-play");
    let board = nim.play().unwrap().board().unwrap();
    for a in 0..=5u64 {
        for b in 0..=5u64 {
            for c in 0..=5u64 {
                let text = format!("3 {a} {b} {c}\n");
                let mut sorted = vec![a, b, c];
                sorted.sort_unstable();
                let grundy = implicit::grundy(&nim::NimRules, sorted, 10_000).unwrap();
                let value = board.value(&text).unwrap();
                assert_eq!(value.grundy, Some(u64::from(grundy)), "{text}");
                assert_eq!(value.win, grundy != 0);
                // The hint's moves are exactly the moves to a zero nim-sum.
                let winning = board.winning_moves(&text).unwrap();
                assert_eq!(winning.is_empty(), grundy == 0, "{text}");
                for mv in winning {
                    assert_eq!(mv.value.grundy, Some(0), "{text}: {mv:?}");
                    assert_eq!(board.play(&text, &mv.text).unwrap(), mv);
                }
            }
        }
    }
    let wythoff = problem("wythoff-play");
    let board = wythoff.play().unwrap().board().unwrap();
    let table = wythoff::winning_table(40);
    for a in 0..=40u64 {
        for b in 0..=40u64 {
            let text = format!("{a} {b}\n");
            let win = table[a as usize][b as usize];
            assert_eq!(board.value(&text).unwrap().win, win, "{text}");
            let hints = board.winning_moves(&text).unwrap();
            assert_eq!(!hints.is_empty(), win);
            for mv in hints {
                assert!(!mv.value.win);
                let (x, y) = mv.after.trim().split_once(' ').unwrap();
                assert!(!table[x.parse::<usize>().unwrap()][y.parse::<usize>().unwrap()]);
            }
            // Every winning move is hinted: count them by brute force.
            let all = implicit::Game::moves(&wythoff::WythoffRules, &(a, b));
            let count = all
                .iter()
                .filter(|&&(x, y)| !table[x as usize][y as usize])
                .count();
            assert_eq!(board.winning_moves(&text).unwrap().len(), count, "{text}");
        }
    }
}

#[test]
fn the_board_speaks_in_the_game_s_terms() {
    let nim = problem("nim-play");
    let board = nim.play().unwrap().board().unwrap();
    assert_eq!(board.words("3 3 5 6\n").unwrap(), "(3, 5, 6)");
    assert_eq!(board.check("3 3 0 6\n").unwrap(), "3 3 0 6\n");
    assert!(board.check_start("3 3 0 6\n").is_err());
    assert!(board.check("3 3 5\n").is_err());
    assert!(board.check("11 1 1 1 1 1 1 1 1 1 1 1\n").is_err());
    let mv = board.play("3 3 5 6\n", "2 2").unwrap();
    assert_eq!(
        (
            mv.after.as_str(),
            mv.after_words.as_str(),
            mv.words.as_str()
        ),
        ("3 3 3 6\n", "(3, 3, 6)", "2 from pile 2")
    );
    assert_eq!(mv.value.grundy, Some(6));
    assert_eq!(
        board.play("3 3 5 6\n", "2 6").unwrap_err().to_string(),
        "pile 2 has only 5, not 6"
    );
    assert!(board.is_over("2 0 0\n").unwrap());
    assert_eq!(board.reply("2 0 0\n", 1).unwrap(), None);
    let reply = board.reply("2 3 3\n", 1).unwrap().unwrap();
    assert!(reply.value.win);
    let start = board.random_start(42);
    assert_eq!(board.check_start(&start).unwrap(), start);
    assert_eq!(board.random_start(42), start);
}

#[test]
fn verify_plays_every_test_perfectly() {
    for slug in ["nim-play", "wythoff-play"] {
        let problem = problem(slug);
        let report = grundy_problems::verify::verify(problem, &mut || {});
        assert!(report.passed(), "{slug}: {:?}", report.failures);
        assert_eq!(report.perfect_wins, problem.test_count());
    }
}
