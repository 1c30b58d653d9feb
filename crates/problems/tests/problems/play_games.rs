//! stones-play, dag-play, chomp-play and hackenbush-play played through the `Referee` interface
//! by players written here, each solving its game by its own means: perfect players win every
//! generated test, a blunder is stopped at its game and move, and the board's values agree with
//! a brute force written here on every small position.

use grundy_problems::Catalogue;
use grundy_problems::catalogue::Problem;
use grundy_problems::play::{Heard, Mover, Side};
use std::collections::{HashMap, VecDeque};

fn problem(slug: &str) -> &'static Problem {
    static CATALOGUE: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    CATALOGUE
        .get_or_init(|| Catalogue::builtin().unwrap())
        .iter()
        .find(|p| p.slug() == slug)
        .unwrap_or_else(|| panic!("{slug} is built in"))
}

/// A game as the test's players see it: positions read from the referee's lines, moves as text.
trait Rules {
    type State: Clone;
    /// How many lines a game's position takes, from its first line.
    fn lines(first: &str) -> usize;
    fn read(lines: &[&str]) -> Self::State;
    /// Every legal move, as the protocol writes it.
    fn moves(state: &Self::State) -> Vec<String>;
    fn apply(state: &Self::State, mv: &str) -> Self::State;
    /// Whether the player to move wins, by the test's own solution.
    fn wins(state: &Self::State) -> bool;
}

/// Plays `R` perfectly, except for one blunder at (game, own move), both 1-based: a legal move
/// that leaves the opponent a won position. `wrong_side` takes the losing side in game 1.
struct Player<R: Rules> {
    read_t: bool,
    pending: Vec<String>,
    needed: usize,
    state: Option<R::State>,
    game: usize,
    moves: usize,
    own_moves: usize,
    blunder: Option<(usize, usize)>,
    blundered_at: Option<(usize, usize)>,
    wrong_side: bool,
}

impl<R: Rules> Player<R> {
    fn new() -> Self {
        Player {
            read_t: false,
            pending: Vec::new(),
            needed: 0,
            state: None,
            game: 0,
            moves: 0,
            own_moves: 0,
            blunder: None,
            blundered_at: None,
            wrong_side: false,
        }
    }

    fn my_move(&mut self) -> String {
        let state = self.state.take().unwrap();
        self.own_moves += 1;
        self.moves += 1;
        let moves = R::moves(&state);
        let mv = if self.blunder == Some((self.game, self.own_moves)) {
            self.blundered_at = Some((self.game, self.moves));
            moves
                .into_iter()
                .find(|m| R::wins(&R::apply(&state, m)))
                .expect("a losing move to blunder with")
        } else {
            // On a lost position (only after taking the wrong side) any move will do.
            let winning = moves.iter().find(|m| !R::wins(&R::apply(&state, m)));
            winning.unwrap_or(&moves[0]).clone()
        };
        let after = R::apply(&state, &mv);
        if !R::moves(&after).is_empty() {
            self.state = Some(after);
        }
        mv
    }

    fn hear(&mut self, line: &str) -> Vec<String> {
        if !self.read_t {
            self.read_t = true;
            return Vec::new();
        }
        let Some(state) = &self.state else {
            if self.pending.is_empty() {
                self.needed = R::lines(line);
            }
            self.pending.push(line.to_owned());
            if self.pending.len() < self.needed {
                return Vec::new();
            }
            let lines: Vec<&str> = self.pending.iter().map(String::as_str).collect();
            let start = R::read(&lines);
            self.pending.clear();
            self.game += 1;
            self.moves = 0;
            self.own_moves = 0;
            let win = R::wins(&start);
            self.state = Some(start);
            return if win != (self.wrong_side && self.game == 1) {
                vec!["first".into(), self.my_move()]
            } else {
                vec!["second".into()]
            };
        };
        let after = R::apply(state, line);
        self.moves += 1;
        self.state = Some(after);
        vec![self.my_move()]
    }
}

#[derive(Debug)]
enum End {
    Over,
    Mistake { stop: String, message: String },
}

/// Plays `input` between the referee seeded with `seed` and `player`; the end, the sides taken
/// and the number of moves.
fn run<R: Rules>(
    problem: &Problem,
    input: &str,
    seed: u64,
    player: &mut Player<R>,
) -> (End, Vec<Option<Side>>, usize) {
    let mut referee = problem.play().unwrap().referee(input, seed).unwrap();
    let mut pending: VecDeque<String> = referee.open().lines().map(str::to_owned).collect();
    while let Some(line) = pending.pop_front() {
        for out in player.hear(&line) {
            let end = match referee.hear(&out) {
                Heard::Reply(text) => {
                    pending.extend(text.lines().map(str::to_owned));
                    continue;
                }
                Heard::Over => {
                    assert!(pending.is_empty(), "over with lines to read: {pending:?}");
                    End::Over
                }
                Heard::Mistake { stop, message } => End::Mistake { stop, message },
            };
            let transcript = referee.transcript();
            let sides = transcript.games.iter().map(|g| g.side).collect();
            let moves = transcript.games.iter().map(|g| g.moves.len()).sum();
            // Every move the player made left a position lost for the referee, until a blunder.
            for game in &transcript.games {
                let program = game.moves.iter().filter(|m| m.by == Mover::Program);
                for mv in program.filter(|_| game.mistake.is_none()) {
                    assert!(!mv.value.win, "{mv:?}");
                }
            }
            return (end, sides, moves);
        }
    }
    panic!("the referee and the player both wait");
}

/// The perfect player wins every test of every subtask, on the winning side of each game.
fn perfect_player_wins_every_test<R: Rules>(slug: &str) {
    let problem = problem(slug);
    let mut tests = 0;
    for test in problem.tests() {
        for seed in [1, 2] {
            let mut player = Player::<R>::new();
            let (end, sides, moves) = run(problem, &test.input, seed, &mut player);
            assert!(
                matches!(end, End::Over),
                "{slug} test {}: {end:?}",
                test.index
            );
            assert!(moves <= 100_000, "{slug}: {moves} moves");
            let sides: Vec<&str> = sides
                .iter()
                .map(|s| match s {
                    Some(Side::First) => "first",
                    Some(Side::Second) => "second",
                    None => "none",
                })
                .collect();
            assert_eq!(sides, test.answer.lines().collect::<Vec<_>>());
        }
        tests += 1;
    }
    assert!(tests >= 10, "{slug}: {tests} tests");
    let answers: String = problem.tests().map(|t| t.answer).collect();
    assert!(
        answers.contains("first") && answers.contains("second"),
        "{slug}"
    );
}

/// A blunder at (game, own move) is stopped there, with `stop`, naming the game and move; the
/// message is returned.
fn blunder_is_named<R: Rules>(slug: &str, input: &str, at: (usize, usize), stop: &str) -> String {
    let mut player = Player::<R>::new();
    player.blunder = Some(at);
    let (end, sides, _) = run(problem(slug), input, 3, &mut player);
    let (game, mv) = player.blundered_at.expect("the player blundered");
    assert_eq!(game, at.0);
    let End::Mistake {
        stop: written,
        message,
    } = end
    else {
        panic!("{slug}: a blunder passed")
    };
    assert_eq!(written, stop);
    assert_eq!(sides.len(), game);
    let prefix = format!("game {game}, move {mv}: from ");
    assert!(
        message.starts_with(&prefix),
        "{message} (expected {prefix})"
    );
    assert!(message.contains("; a winning move was "), "{message}");
    message
}

/// Taking the losing side of game 1 is a mistake at move 0.
fn wrong_side_is_move_zero<R: Rules>(slug: &str, input: &str) -> String {
    let mut player = Player::<R>::new();
    player.wrong_side = true;
    let (end, _, _) = run(problem(slug), input, 1, &mut player);
    let End::Mistake { message, .. } = end else {
        panic!("{slug}: the wrong side passed")
    };
    assert!(
        message.starts_with("game 1, move 0: you chose "),
        "{message}"
    );
    message
}

/// The board's Grundy values of `positions` (game texts) against `grundy`, and each hinted move
/// against the same.
fn board_agrees<S>(
    slug: &str,
    positions: impl IntoIterator<Item = (String, S)>,
    grundy: impl Fn(&S) -> u64,
) -> usize {
    let board = problem(slug).play().unwrap().board().unwrap();
    let mut count = 0;
    for (text, state) in positions {
        let expected = grundy(&state);
        let value = board.value(&text).unwrap();
        assert_eq!(value.grundy, Some(expected), "{slug}: {text}");
        assert_eq!(value.win, expected != 0, "{slug}: {text}");
        let hints = board.winning_moves(&text).unwrap();
        assert_eq!(hints.is_empty(), expected == 0, "{slug}: {text}");
        for mv in hints {
            assert_eq!(mv.value.grundy, Some(0), "{slug}: {text}: {mv:?}");
            assert_eq!(board.play(&text, &mv.text).unwrap(), mv);
        }
        count += 1;
    }
    count
}

fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let seen: std::collections::HashSet<u64> = values.into_iter().collect();
    (0..).find(|v| !seen.contains(v)).unwrap()
}

fn numbers(line: &str) -> Vec<u64> {
    line.split(' ').map(|t| t.parse().unwrap()).collect()
}

// Stones: a pile and a set of takes; the win table by the recurrence "some take reaches a loss".

#[derive(Clone)]
struct Stones {
    set: Vec<u64>,
    n: u64,
}

impl Stones {
    fn grundy(set: &[u64], n: u64) -> u64 {
        let mut values = Vec::new();
        for i in 0..=n {
            let next = set
                .iter()
                .filter(|&&t| t <= i)
                .map(|&t| values[(i - t) as usize]);
            values.push(mex(next));
        }
        values[n as usize]
    }
}

impl Rules for Stones {
    type State = Stones;
    fn lines(_: &str) -> usize {
        2
    }
    fn read(lines: &[&str]) -> Stones {
        Stones {
            set: numbers(lines[1]),
            n: numbers(lines[0])[1],
        }
    }
    fn moves(s: &Stones) -> Vec<String> {
        s.set
            .iter()
            .filter(|&&t| t <= s.n)
            .map(u64::to_string)
            .collect()
    }
    fn apply(s: &Stones, mv: &str) -> Stones {
        Stones {
            set: s.set.clone(),
            n: s.n - mv.parse::<u64>().unwrap(),
        }
    }
    fn wins(s: &Stones) -> bool {
        // Memoised per set: the pile only shrinks within a game.
        thread_local! {
            static WINS: std::cell::RefCell<HashMap<Vec<u64>, Vec<bool>>> = Default::default();
        }
        WINS.with(|wins| {
            let mut wins = wins.borrow_mut();
            let table = wins.entry(s.set.clone()).or_default();
            while table.len() as u64 <= s.n {
                let i = table.len() as u64;
                let win = s.set.iter().any(|&t| t <= i && !table[(i - t) as usize]);
                table.push(win);
            }
            table[s.n as usize]
        })
    }
}

#[test]
fn stones_perfect_player_wins_every_test() {
    perfect_player_wins_every_test::<Stones>("stones-play");
}

#[test]
fn stones_blunders_and_wrong_sides_are_named() {
    let input = "2\n2 10\n2 3\n3 8\n1 3 4\n";
    let message = blunder_is_named::<Stones>("stones-play", input, (2, 1), "-1\n");
    assert_eq!(
        message,
        "game 2, move 1: from 8 stones (S = {1, 3, 4}) you took 3, leaving 5 stones \
         (S = {1, 3, 4}) with Grundy value 3 ≠ 0; a winning move was to take 1 (`1`)"
    );
    blunder_is_named::<Stones>("stones-play", "1\n3 40\n1 3 4\n", (1, 3), "-1\n");
    let message = wrong_side_is_move_zero::<Stones>("stones-play", input);
    assert!(message.contains("you chose first, but at 10 stones (S = {2, 3}) with Grundy value 0"));
}

#[test]
fn stones_values_agree_with_brute_force() {
    let mut positions = Vec::new();
    for mask in 1u32..1 << 6 {
        let set: Vec<u64> = (1..=6).filter(|s| mask >> (s - 1) & 1 == 1).collect();
        for n in 0..=20 {
            let line: Vec<String> = set.iter().map(u64::to_string).collect();
            let text = format!("{} {n}\n{}\n", set.len(), line.join(" "));
            positions.push((text, (set.clone(), n)));
        }
    }
    let count = board_agrees("stones-play", positions, |(set, n)| Stones::grundy(set, *n));
    assert_eq!(count, 63 * 21);
}

#[test]
fn stones_garbage_and_illegal_takes_are_named() {
    let board = problem("stones-play").play().unwrap().board().unwrap();
    for (mv, why) in [
        ("2", "2 is not in S"),
        ("5", "the pile has only 4, not 5"),
        ("x", "a move is one integer `t` (take t stones)"),
        ("1 1", "a move is one integer `t` (take t stones)"),
        ("-3", "-3 is not in S"),
    ] {
        assert_eq!(board.play("3 4\n1 3 5\n", mv).unwrap_err().to_string(), why);
    }
    assert!(board.check_start("2 1\n2 3\n").is_err());
    assert!(board.check("2 1\n3 3\n").is_err());
}

// DAG: the token's vertex on a graph; a vertex wins iff some successor loses, by memoised search.

#[derive(Clone)]
struct Dag {
    successors: std::rc::Rc<Vec<Vec<usize>>>,
    wins: std::rc::Rc<Vec<bool>>,
    at: usize,
}

fn dag_wins(successors: &[Vec<usize>]) -> Vec<bool> {
    fn search(v: usize, successors: &[Vec<usize>], memo: &mut [Option<bool>]) -> bool {
        if let Some(win) = memo[v] {
            return win;
        }
        let win = successors[v].iter().any(|&w| !search(w, successors, memo));
        memo[v] = Some(win);
        win
    }
    let mut memo = vec![None; successors.len()];
    (0..successors.len())
        .map(|v| search(v, successors, &mut memo))
        .collect()
}

fn dag_grundy(successors: &[Vec<usize>], v: usize) -> u64 {
    mex(successors[v].iter().map(|&w| dag_grundy(successors, w)))
}

impl Rules for Dag {
    type State = Dag;
    fn lines(first: &str) -> usize {
        1 + numbers(first)[1] as usize
    }
    fn read(lines: &[&str]) -> Dag {
        let head = numbers(lines[0]);
        let mut successors = vec![Vec::new(); head[0] as usize + 1];
        for line in &lines[1..] {
            let edge = numbers(line);
            successors[edge[0] as usize].push(edge[1] as usize);
        }
        Dag {
            wins: dag_wins(&successors).into(),
            successors: successors.into(),
            at: head[2] as usize,
        }
    }
    fn moves(d: &Dag) -> Vec<String> {
        d.successors[d.at].iter().map(usize::to_string).collect()
    }
    fn apply(d: &Dag, mv: &str) -> Dag {
        Dag {
            at: mv.parse().unwrap(),
            ..d.clone()
        }
    }
    fn wins(d: &Dag) -> bool {
        d.wins[d.at]
    }
}

#[test]
fn dag_perfect_player_wins_every_test() {
    perfect_player_wins_every_test::<Dag>("dag-play");
    // The traps reach the limits: paths of both parities, stars of sinks.
    let inputs: Vec<String> = problem("dag-play").tests().map(|t| t.input).collect();
    let heads: Vec<Vec<u64>> = inputs
        .iter()
        .flat_map(|i| i.lines().filter(|l| l.split(' ').count() == 3).map(numbers))
        .collect();
    assert!(heads.iter().any(|h| h[0] == 2000 && h[1] == 1999));
    assert!(heads.iter().any(|h| h[0] == 1999 && h[1] == 1998));
}

#[test]
fn dag_blunders_and_wrong_sides_are_named() {
    let input = "2\n4 4 1\n1 2\n1 3\n2 4\n3 4\n3 3 1\n1 2\n2 3\n1 3\n";
    let message = blunder_is_named::<Dag>("dag-play", input, (2, 1), "-1\n");
    assert_eq!(
        message,
        "game 2, move 1: from vertex 1 you moved to vertex 2, leaving vertex 2 with Grundy \
         value 1 ≠ 0; a winning move was to vertex 3 (`3`)"
    );
    let message = wrong_side_is_move_zero::<Dag>("dag-play", input);
    assert!(message.contains("you chose first, but at vertex 1 with Grundy value 0"));
    let board = problem("dag-play").play().unwrap().board().unwrap();
    let position = "4 4 1\n1 2\n1 3\n2 4\n3 4\n";
    for (mv, why) in [
        ("4", "there is no edge from 1 to 4"),
        ("5", "there is no vertex 5 (the vertices are 1 to 4)"),
        (
            "2 3",
            "a move is one integer `v` (the vertex the token moves to)",
        ),
    ] {
        assert_eq!(board.play(position, mv).unwrap_err().to_string(), why);
    }
    assert!(board.check("2 2 1\n1 2\n2 1\n").is_err());
    assert!(board.check_start("2 1 2\n1 2\n").is_err());
}

#[test]
fn dag_values_agree_with_brute_force() {
    // Every graph on five vertices whose edges go from higher to lower labels, from every vertex.
    let pairs: Vec<(usize, usize)> = (1..=5).flat_map(|u| (1..u).map(move |v| (u, v))).collect();
    let mut positions = Vec::new();
    for mask in 0u32..1 << pairs.len() {
        let edges: Vec<(usize, usize)> = (0..pairs.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| pairs[i])
            .collect();
        let mut successors = vec![Vec::new(); 6];
        for &(u, v) in &edges {
            successors[u].push(v);
        }
        for at in 1..=5 {
            let mut text = format!("5 {} {at}\n", edges.len());
            for (u, v) in &edges {
                text += &format!("{u} {v}\n");
            }
            positions.push((text, (successors.clone(), at)));
        }
    }
    let count = board_agrees("dag-play", positions, |(s, at)| dag_grundy(s, *at));
    assert_eq!(count, 1024 * 5);
}

// Chomp: the lengths of the rows, top first; the Grundy value by memoised search over them.

fn chomp_grundy(rows: &[u8]) -> u64 {
    thread_local! {
        static MEMO: std::cell::RefCell<HashMap<Vec<u8>, u64>> = Default::default();
    }
    if let Some(g) = MEMO.with(|m| m.borrow().get(rows).copied()) {
        return g;
    }
    let g = mex(chomp_moves(rows)
        .iter()
        .map(|&(x, y)| chomp_grundy(&chomp_eat(rows, x, y))));
    MEMO.with(|m| m.borrow_mut().insert(rows.to_vec(), g));
    g
}

/// Present pieces but the poison, 1-based.
fn chomp_moves(rows: &[u8]) -> Vec<(u8, u8)> {
    let mut moves = Vec::new();
    for (i, &len) in rows.iter().enumerate() {
        for j in 1..=len {
            if (i, j) != (0, 1) {
                moves.push((i as u8 + 1, j));
            }
        }
    }
    moves
}

fn chomp_eat(rows: &[u8], x: u8, y: u8) -> Vec<u8> {
    let mut after: Vec<u8> = rows
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            if i + 1 >= x as usize {
                len.min(y - 1)
            } else {
                len
            }
        })
        .collect();
    while after.last() == Some(&0) {
        after.pop();
    }
    after
}

#[derive(Clone)]
struct Chomp(Vec<u8>);

impl Rules for Chomp {
    type State = Chomp;
    fn lines(first: &str) -> usize {
        1 + numbers(first)[0] as usize
    }
    fn read(lines: &[&str]) -> Chomp {
        let rows = lines[1..].iter().map(|l| l.matches('o').count() as u8);
        Chomp(chomp_eat(&rows.collect::<Vec<_>>(), 9, 9))
    }
    fn moves(c: &Chomp) -> Vec<String> {
        chomp_moves(&c.0)
            .iter()
            .map(|(x, y)| format!("{x} {y}"))
            .collect()
    }
    fn apply(c: &Chomp, mv: &str) -> Chomp {
        let xy = numbers(mv);
        Chomp(chomp_eat(&c.0, xy[0] as u8, xy[1] as u8))
    }
    fn wins(c: &Chomp) -> bool {
        chomp_grundy(&c.0) != 0
    }
}

fn chomp_text(height: usize, width: u8, rows: &[u8]) -> String {
    let mut text = format!("{height} {width}\n");
    for i in 0..height {
        let len = rows.get(i).copied().unwrap_or(0);
        text.extend((0..width).map(|j| if j < len { 'o' } else { '.' }));
        text.push('\n');
    }
    text
}

#[test]
fn chomp_perfect_player_wins_every_test() {
    perfect_player_wins_every_test::<Chomp>("chomp-play");
    let inputs: String = problem("chomp-play").tests().map(|t| t.input).collect();
    for trap in [
        chomp_text(8, 8, &[8; 8]),
        chomp_text(5, 5, &[5; 5]),
        chomp_text(1, 8, &[8]),
        chomp_text(2, 8, &[8, 7]),
    ] {
        assert!(inputs.contains(&trap), "{trap}");
    }
}

#[test]
fn chomp_blunders_and_wrong_sides_are_named() {
    let input = "2\n2 3\nooo\nooo\n3 3\nooo\no..\no..\n";
    let message = blunder_is_named::<Chomp>("chomp-play", input, (1, 1), "-1 -1\n");
    assert_eq!(
        message,
        "game 1, move 1: from rows (3, 3) you ate (1, 2), leaving rows (1, 1) with Grundy value \
         1 ≠ 0; a winning move was to eat (2, 3) (`2 3`)"
    );
    let full = format!("1\n{}", chomp_text(8, 8, &[8; 8]));
    blunder_is_named::<Chomp>("chomp-play", &full, (1, 2), "-1 -1\n");
    let message = wrong_side_is_move_zero::<Chomp>("chomp-play", input);
    assert!(message.contains("you chose second, but at rows (3, 3) with Grundy value "));
    let board = problem("chomp-play").play().unwrap().board().unwrap();
    let position = "3 3\nooo\noo.\n...\n";
    for (mv, why) in [
        ("1 1", "(1, 1) is the poisoned piece, which no move eats"),
        ("2 3", "the piece (2, 3) is already eaten"),
        ("4 1", "(4, 1) is off the bar (rows 1 to 3, columns 1 to 3)"),
        (
            "2",
            "a move is two integers `x y` (eat the piece in row x, column y)",
        ),
    ] {
        assert_eq!(board.play(position, mv).unwrap_err().to_string(), why);
    }
    for bad in ["2 2\n.o\noo\n", "2 2\no.\noo\n", "2 2\noo\no\n", "1 1\no\n"] {
        assert!(board.check_start(bad).is_err(), "{bad}");
    }
}

#[test]
fn chomp_values_agree_with_brute_force() {
    // Every staircase within 5 × 5, written in a 5 × 5 bar.
    let mut all = vec![Vec::new()];
    for _ in 0..5 {
        all = all
            .into_iter()
            .flat_map(|rows: Vec<u8>| {
                let cap = rows.last().copied().unwrap_or(5);
                (0..=cap).map(move |len| [rows.clone(), vec![len]].concat())
            })
            .collect();
    }
    let positions = all
        .into_iter()
        .filter(|rows| rows[0] > 0)
        .map(|rows| (chomp_text(5, 5, &rows), chomp_eat(&rows, 9, 9)));
    let count = board_agrees("chomp-play", positions, |rows| chomp_grundy(rows));
    assert_eq!(count, 251);
}

// Hackenbush: the standing edges of a tree rooted at vertex 1; a vertex is worth the xor of its
// children's values plus one (the colon principle), and small positions are searched whole.

#[derive(Clone)]
struct Hackenbush {
    n: usize,
    edges: std::rc::Rc<Vec<(usize, usize)>>,
    standing: Vec<bool>,
}

impl Hackenbush {
    /// The standing edges still joined to the root, and the root's value.
    fn settle(&mut self) -> u64 {
        let mut adjacency = vec![Vec::new(); self.n + 1];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            if self.standing[e] {
                adjacency[a].push((e, b));
                adjacency[b].push((e, a));
            }
        }
        let mut kept = vec![false; self.edges.len()];
        // Depth first, children after parents; values summed up in reverse.
        let mut order = Vec::new();
        let mut stack = vec![(1usize, usize::MAX)];
        while let Some((v, via)) = stack.pop() {
            order.push((v, via));
            for &(e, w) in &adjacency[v] {
                if e != via && !kept[e] {
                    kept[e] = true;
                    stack.push((w, e));
                }
            }
        }
        self.standing = kept;
        let mut value = vec![0u64; self.n + 1];
        for &(v, via) in order.iter().rev() {
            if via != usize::MAX {
                let (a, b) = self.edges[via];
                let parent = if a == v { b } else { a };
                value[parent] ^= value[v] + 1;
            }
        }
        value[1]
    }

    /// The value by searching every position reachable, for at most a dozen edges.
    fn searched(&self) -> u64 {
        fn search(h: &Hackenbush, memo: &mut HashMap<Vec<bool>, u64>) -> u64 {
            if let Some(&g) = memo.get(&h.standing) {
                return g;
            }
            let options = (0..h.edges.len()).filter(|&e| h.standing[e]).map(|e| {
                let mut next = h.clone();
                next.standing[e] = false;
                next.settle();
                search(&next, memo)
            });
            let g = mex(options.collect::<Vec<_>>());
            memo.insert(h.standing.clone(), g);
            g
        }
        search(self, &mut HashMap::new())
    }
}

impl Rules for Hackenbush {
    type State = Hackenbush;
    fn lines(first: &str) -> usize {
        first.parse::<usize>().unwrap()
    }
    fn read(lines: &[&str]) -> Hackenbush {
        let edges: Vec<(usize, usize)> = lines[1..]
            .iter()
            .map(|l| {
                let uv = numbers(l);
                (uv[0] as usize, uv[1] as usize)
            })
            .collect();
        Hackenbush {
            n: lines[0].parse().unwrap(),
            standing: vec![true; edges.len()],
            edges: edges.into(),
        }
    }
    fn moves(h: &Hackenbush) -> Vec<String> {
        (0..h.edges.len())
            .filter(|&e| h.standing[e])
            .map(|e| (e + 1).to_string())
            .collect()
    }
    fn apply(h: &Hackenbush, mv: &str) -> Hackenbush {
        let mut next = h.clone();
        next.standing[mv.parse::<usize>().unwrap() - 1] = false;
        next.settle();
        next
    }
    fn wins(h: &Hackenbush) -> bool {
        h.clone().settle() != 0
    }
}

#[test]
fn hackenbush_perfect_player_wins_every_test() {
    perfect_player_wins_every_test::<Hackenbush>("hackenbush-play");
}

#[test]
fn hackenbush_blunders_and_wrong_sides_are_named() {
    let input = "2\n4\n1 2\n1 3\n3 4\n5\n1 2\n2 3\n1 4\n4 5\n";
    let message = blunder_is_named::<Hackenbush>("hackenbush-play", input, (1, 1), "-1\n");
    assert_eq!(
        message,
        "game 1, move 1: from the tree of edges 1–3 you cut edge 1, leaving the tree of edges \
         2, 3 with Grundy value 2 ≠ 0; a winning move was to cut edge 3 (`3`)"
    );
    blunder_is_named::<Hackenbush>("hackenbush-play", input, (2, 1), "-1\n");
    let message = wrong_side_is_move_zero::<Hackenbush>("hackenbush-play", input);
    assert!(message.contains("you chose second, but at the tree of edges 1–3 with Grundy value 3"));
    let board = problem("hackenbush-play").play().unwrap().board().unwrap();
    let position = "4\n1 2\n0 0\n3 1\n";
    assert_eq!(board.words(position).unwrap(), "the tree of edges 1, 3");
    for (mv, why) in [
        ("2", "edge 2 has already fallen"),
        ("4", "there is no edge 4 (the edges are 1 to 3)"),
        (
            "1 2",
            "a move is one integer `e` (the number of the edge to cut)",
        ),
    ] {
        assert_eq!(board.play(position, mv).unwrap_err().to_string(), why);
    }
    let cut = board.play("4\n1 2\n2 3\n3 4\n", "2").unwrap();
    assert_eq!(cut.after, "4\n1 2\n0 0\n0 0\n");
    for bad in [
        "3\n1 2\n2 1\n",
        "4\n1 2\n0 0\n3 4\n",
        "3\n1 2\n0 0\n",
        "1\n",
    ] {
        assert!(board.check_start(bad).is_err(), "{bad}");
    }
}

#[test]
fn hackenbush_values_agree_with_brute_force() {
    // Every tree on up to seven vertices as a random-free list: vertex v hangs from any earlier
    // vertex, with the edges written both ways round by turns.
    let mut positions = Vec::new();
    for n in 2..=7usize {
        let count: usize = (1..n).product();
        for code in 0..count {
            let mut rest = code;
            let edges: Vec<(usize, usize)> = (2..=n)
                .map(|v| {
                    let parent = rest % (v - 1) + 1;
                    rest /= v - 1;
                    if v % 2 == 0 { (parent, v) } else { (v, parent) }
                })
                .collect();
            let mut text = format!("{n}\n");
            for (a, b) in &edges {
                text += &format!("{a} {b}\n");
            }
            let tree = Hackenbush {
                n,
                standing: vec![true; edges.len()],
                edges: edges.into(),
            };
            positions.push((text, tree));
        }
    }
    let count = board_agrees("hackenbush-play", positions, Hackenbush::searched);
    assert_eq!(count, 1 + 2 + 6 + 24 + 120 + 720);
}

#[test]
fn verify_plays_every_test_perfectly() {
    for slug in ["stones-play", "dag-play", "chomp-play", "hackenbush-play"] {
        let problem = problem(slug);
        let report = grundy_problems::verify::verify(problem, &mut || {});
        assert!(report.passed(), "{slug}: {:?}", report.failures);
        assert_eq!(report.perfect_wins, problem.test_count());
    }
}
