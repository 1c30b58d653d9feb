//! Explaining a wrong answer: the smallest game a program gets wrong, a certificate of the right
//! answer there, and the classic mistake the program's answers agree with.
//!
//! A family that can explain implements [`Explain`]: it splits its inputs into games, lists its
//! small games in order of size, shrinks a game, proves its answer in words and knows the wrong
//! strategies students use. [`search`] drives a program (any closure from an input to an output)
//! through those games within a budget; the judge gives it a sandboxed program, tests give it a
//! plain function.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::check::CheckOutcome;
use crate::family::Family;
use crate::seed::TestRng;

/// A classic wrong strategy, named so that teaching material can refer to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misconception {
    pub id: &'static str,
    pub title: &'static str,
    /// One paragraph for the student: what the strategy does and why it fails.
    pub text: &'static str,
}

/// The languages a misconception is written in: English, the constants' own, then one table per
/// other language (`explain/<code>.toml`), keyed by id. An id that several families word apart
/// (`sum-parity`) holds one sub-table per family name. A third language is one more table here.
const TABLES: &[(&str, &str)] = &[("vi", include_str!("explain/vi.toml"))];

/// Every language a misconception is written in, English first.
pub fn languages() -> impl Iterator<Item = &'static str> {
    std::iter::once("en").chain(TABLES.iter().map(|(code, _)| *code))
}

static TRANSLATIONS: LazyLock<BTreeMap<&'static str, toml::Table>> = LazyLock::new(|| {
    TABLES
        .iter()
        .map(|(code, text)| {
            let table = text
                .parse::<toml::Table>()
                .unwrap_or_else(|e| panic!("explain/{code}.toml: {e}"));
            (*code, table)
        })
        .collect()
});

/// A misconception's title and paragraph in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Words {
    pub title: String,
    pub text: String,
}

impl Misconception {
    /// Its title and paragraph in the language `code`, as a problem of `family` names it;
    /// `None` for a language it is not written in (a test walks every misconception of every
    /// family in every language of [`languages`]).
    pub fn words(&self, family: &str, code: &str) -> Option<Words> {
        if code == "en" {
            return Some(Words {
                title: self.title.to_owned(),
                text: self.text.to_owned(),
            });
        }
        let entry = TRANSLATIONS.get(code)?.get(self.id)?.as_table()?;
        let entry = match entry.get("title") {
            Some(_) => entry,
            None => entry.get(family)?.as_table()?,
        };
        Some(Words {
            title: entry.get("title")?.as_str()?.to_owned(),
            text: entry.get("text")?.as_str()?.to_owned(),
        })
    }

    /// Its words in every language besides English, by language code.
    pub fn translations(&self, family: &str) -> BTreeMap<String, Words> {
        languages()
            .skip(1)
            .filter_map(|code| Some((code.to_owned(), self.words(family, code)?)))
            .collect()
    }
}

/// Answering every position alike; recognised for every family, with no solver of its own.
pub const ALWAYS_FIRST: Misconception = Misconception {
    id: "always-first",
    title: "The same answer for every position",
    text: "The program gives the same answer whatever the position. Some positions of this game \
           are won by the first player and some are lost: the answer has to depend on the \
           position, through the rule that tells them apart.",
};

/// Why the right answer is right, in English and Vietnamese.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub en: String,
    pub vi: String,
}

/// What a family knows about its games beyond their answers.
pub trait Explain: Family {
    type Game: Clone + Debug;

    /// Every small game, smallest first: the search tries them in this order, so the first one
    /// a program gets wrong is a smallest counterexample.
    fn small_games(&self) -> Vec<Self::Game>;
    /// A random small game, for stress testing (a wider range than [`Explain::small_games`]).
    fn random_game(&self, rng: &mut TestRng) -> Self::Game;
    /// Large games on which a misconception is known to fail when every small game passes
    /// (floating point that loses precision only near the limits).
    fn witnesses(&self) -> Vec<Self::Game> {
        Vec::new()
    }
    /// How many games one input may hold; 1 for formats of a single game.
    fn games_per_input(&self) -> usize;
    /// The input holding these games, in this order (at most [`Explain::games_per_input`]).
    fn input_of(&self, games: &[Self::Game]) -> Self::Input;
    /// The games an input holds, in order.
    fn games_of(&self, input: &Self::Input) -> Vec<Self::Game>;
    /// The reference's answer to one game: its part of the expected output. By default the
    /// reference's output for an input holding that game alone.
    fn answer(&self, game: &Self::Game) -> String {
        self.solve(&self.input_of(std::slice::from_ref(game)))
            .trim_end()
            .to_owned()
    }
    /// Whether `got` is a right answer to `game`. Where the family has its own checker (any
    /// winning move is right), that checker judges the game alone; otherwise `got` must be
    /// [`Explain::answer`], token for token.
    fn is_right(&self, game: &Self::Game, got: &str, case_sensitive: bool) -> bool {
        if self.has_reference_checker()
            && let Some(outcome) =
                self.check_answer(&self.input_of(std::slice::from_ref(game)), got)
        {
            return outcome == CheckOutcome::Accepted;
        }
        same_answer(got, &self.answer(game), case_sensitive)
    }
    /// `output` cut into one answer per game of `games`, `None` once it runs out. By default
    /// each game takes as many tokens as its expected answer has, as the token checker lines
    /// them up; a family whose answers differ in length (`LOSE` or `WIN r c`) cuts by lines.
    fn split_output(&self, games: &[Self::Game], output: &str) -> Vec<Option<String>> {
        let expected: Vec<String> = games.iter().map(|g| self.answer(g)).collect();
        split_answers(output, &expected)
    }
    /// The order [`Explain::small_games`] follows (piles, vertices, …): what "smaller" means.
    fn size(&self, game: &Self::Game) -> u64;
    /// Games one step smaller than `game` (a pile fewer, a pile smaller, …), smallest first.
    fn shrink(&self, game: &Self::Game) -> Vec<Self::Game>;
    /// Why [`Explain::answer`] is right for `game`.
    fn certificate(&self, game: &Self::Game) -> Certificate;
    /// The certificate for a program that answered `got` (`None` when it failed to answer):
    /// where several answers are right, why the program's answer is not one of them (its move
    /// loses). By default the certificate of the answer alone.
    fn certificate_for(&self, game: &Self::Game, _got: Option<&str>) -> Certificate {
        self.certificate(game)
    }
    /// The family's wrong strategies ([`ALWAYS_FIRST`] is added for every family).
    fn misconceptions(&self) -> &'static [Misconception];
    /// The answer of the misconception `id` to `game`.
    fn misconceived(&self, id: &str, game: &Self::Game) -> Option<String>;
    /// Whether misconception `id` names a program that is wrong only where it is (and alike),
    /// rather than one that answers everything as it does: for a family of mistakes of which
    /// the solver is the worst case (floating point: a wider type fails on fewer games).
    fn named_where_wrong(&self, _id: &str) -> bool {
        false
    }
}

/// The object-safe view of [`Explain`]: a game is the text of an input holding that game alone.
pub trait Explainer: Send + Sync {
    fn small_games(&self) -> Vec<String>;
    fn random_game(&self, rng: &mut TestRng) -> String;
    fn witnesses(&self) -> Vec<String>;
    fn games_per_input(&self) -> usize;
    /// One input holding all of `games` (each a one-game input).
    fn pack(&self, games: &[String]) -> String;
    fn answer(&self, game: &str) -> String;
    /// Whether `got` is a right answer to `game` (one of several, for a move).
    fn is_right(&self, game: &str, got: &str, case_sensitive: bool) -> bool;
    /// `output` cut into one answer per game of `games`.
    fn split_output(&self, games: &[String], output: &str) -> Vec<Option<String>>;
    fn size(&self, game: &str) -> u64;
    fn shrink(&self, game: &str) -> Vec<String>;
    /// Why the answer is right, against the program's answer `got` (`None`: it failed).
    fn certificate(&self, game: &str, got: Option<&str>) -> Certificate;
    /// The family's misconceptions, then [`ALWAYS_FIRST`].
    fn misconceptions(&self) -> Vec<Misconception>;
    fn misconceived(&self, id: &str, game: &str) -> Option<String>;
    fn named_where_wrong(&self, id: &str) -> bool;
    /// The games of an input in the problem's format, each as a one-game input; `None` when
    /// the input does not parse.
    fn games(&self, input: &str) -> Option<Vec<String>>;
}

impl<E: Explain + Send + Sync> Explainer for E {
    fn small_games(&self) -> Vec<String> {
        Explain::small_games(self)
            .iter()
            .map(|g| self.text(g))
            .collect()
    }

    fn random_game(&self, rng: &mut TestRng) -> String {
        self.text(&Explain::random_game(self, rng))
    }

    fn witnesses(&self) -> Vec<String> {
        Explain::witnesses(self)
            .iter()
            .map(|g| self.text(g))
            .collect()
    }

    fn games_per_input(&self) -> usize {
        Explain::games_per_input(self)
    }

    fn pack(&self, games: &[String]) -> String {
        let games: Vec<E::Game> = games.iter().map(|g| self.game(g)).collect();
        self.render(&self.input_of(&games))
    }

    fn answer(&self, game: &str) -> String {
        Explain::answer(self, &self.game(game))
    }

    fn is_right(&self, game: &str, got: &str, case_sensitive: bool) -> bool {
        Explain::is_right(self, &self.game(game), got, case_sensitive)
    }

    fn split_output(&self, games: &[String], output: &str) -> Vec<Option<String>> {
        let games: Vec<E::Game> = games.iter().map(|g| self.game(g)).collect();
        Explain::split_output(self, &games, output)
    }

    fn size(&self, game: &str) -> u64 {
        Explain::size(self, &self.game(game))
    }

    fn shrink(&self, game: &str) -> Vec<String> {
        Explain::shrink(self, &self.game(game))
            .iter()
            .map(|g| self.text(g))
            .collect()
    }

    fn certificate(&self, game: &str, got: Option<&str>) -> Certificate {
        Explain::certificate_for(self, &self.game(game), got)
    }

    fn misconceptions(&self) -> Vec<Misconception> {
        let mut all = Explain::misconceptions(self).to_vec();
        all.push(ALWAYS_FIRST);
        all
    }

    fn misconceived(&self, id: &str, game: &str) -> Option<String> {
        Explain::misconceived(self, id, &self.game(game))
    }

    fn named_where_wrong(&self, id: &str) -> bool {
        Explain::named_where_wrong(self, id)
    }

    fn games(&self, input: &str) -> Option<Vec<String>> {
        let input = self.parse(input).ok()?;
        Some(self.games_of(&input).iter().map(|g| self.text(g)).collect())
    }
}

/// The text/game conversions of the blanket [`Explainer`]: games are rendered by the family
/// itself, so parsing them back cannot fail.
trait GameText: Explain {
    fn text(&self, game: &Self::Game) -> String {
        self.render(&self.input_of(std::slice::from_ref(game)))
    }

    fn game(&self, text: &str) -> Self::Game {
        let input = self
            .parse(text)
            .unwrap_or_else(|e| panic!("a game the family rendered parses back: {e}\n{text}"));
        self.games_of(&input)
            .into_iter()
            .next()
            .expect("a one-game input holds a game")
    }
}

impl<E: Explain> GameText for E {}

/// `a ⊕ b ⊕ c = x`, the nim-sum of `values` written out.
pub fn nim_sum_text(values: &[u64]) -> String {
    let sum = values.iter().fold(0, |a, b| a ^ b);
    let terms: Vec<String> = values.iter().map(u64::to_string).collect();
    if values.len() == 1 {
        format!("{sum}")
    } else {
        format!("{} = {sum}", terms.join(" ⊕ "))
    }
}

/// At most this many items of a list are written out in a certificate.
pub const LISTED: usize = 12;

/// The first [`LISTED`] of `items` joined by `separator`, and "…" after them when there are
/// more: a certificate about a large game stays readable.
pub fn listed(items: impl IntoIterator<Item = String>, separator: &str) -> String {
    let mut items = items.into_iter();
    let mut shown: Vec<String> = items.by_ref().take(LISTED).collect();
    if items.next().is_some() {
        shown.push("…".to_owned());
    }
    shown.join(separator)
}

/// What running the program on one input gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// It ended normally with this output.
    Output(String),
    /// It did not end normally: a time limit, a runtime error (in words, for the student).
    Failed(String),
    /// The budget is spent: the search stops here.
    OutOfBudget,
}

/// The bounds of one search.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Program runs at most.
    pub runs: u32,
    /// Games in one input at most (beyond the family's own limit).
    pub games_per_run: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            runs: 64,
            games_per_run: 1000,
        }
    }
}

/// A smallest game found wrong, confirmed by an input holding it alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The input text with that one game.
    pub position: String,
    pub expected: String,
    /// The program's answer, or what happened instead ("time limit exceeded").
    pub got: String,
    pub certificate: Certificate,
    pub misconception: Option<Misconception>,
    /// Whether it came from the large witness games: no small game was wrong.
    pub large: bool,
}

/// The result of [`search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub counterexample: Option<Counterexample>,
    pub runs: u32,
}

/// One game's result in a run.
#[derive(Clone, Debug)]
enum Seen {
    /// The program's answer (right or wrong).
    Answer(String),
    /// The run failed; the game was alone in it or the failure was traced to it.
    Failed(String),
}

impl Seen {
    /// The program's answer, `None` when it failed.
    fn answer(&self) -> Option<&str> {
        match self {
            Seen::Answer(answer) => Some(answer),
            Seen::Failed(_) => None,
        }
    }

    /// What the student is told the program gave: its answer, or what happened instead.
    fn into_got(self) -> String {
        match self {
            Seen::Answer(got) | Seen::Failed(got) => got,
        }
    }
}

struct Search<'a> {
    explainer: &'a dyn Explainer,
    case_sensitive: bool,
    bounds: Bounds,
    run: &'a mut dyn FnMut(&str) -> Attempt,
    runs: u32,
    spent: bool,
    /// Every game whose answer was read while scanning (small games, witnesses), for matching
    /// misconceptions. Shrinking tries arbitrary games, where two programs that make the same
    /// mistake may still differ (two floating-point types), so it does not add to them.
    seen: Vec<(String, String)>,
    scanning: bool,
}

/// Whether two answers are the same token for token, as the token checker compares them.
pub fn same_answer(a: &str, b: &str, case_sensitive: bool) -> bool {
    let (mut a, mut b) = (a.split_ascii_whitespace(), b.split_ascii_whitespace());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y || (!case_sensitive && x.eq_ignore_ascii_case(y)) => {}
            _ => return false,
        }
    }
}

/// Cuts `output` into one answer per game: each game takes as many tokens as its expected
/// answer has, which is how the token checker lines them up. `None` once the output runs out.
pub fn split_answers(output: &str, expected: &[String]) -> Vec<Option<String>> {
    let mut tokens = output.split_ascii_whitespace();
    let mut answers = Vec::with_capacity(expected.len());
    for (i, want) in expected.iter().enumerate() {
        let count = want.split_ascii_whitespace().count();
        let mut taken: Vec<&str> = tokens.by_ref().take(count).collect();
        if i + 1 == expected.len() {
            // Anything printed after the last answer belongs to it, and makes it wrong.
            taken.extend(tokens.by_ref());
        }
        answers.push((taken.len() >= count).then(|| taken.join(" ")));
    }
    answers
}

impl Search<'_> {
    fn attempt(&mut self, input: &str) -> Option<Attempt> {
        if self.spent || self.runs >= self.bounds.runs {
            self.spent = true;
            return None;
        }
        self.runs += 1;
        match (self.run)(input) {
            Attempt::OutOfBudget => {
                self.spent = true;
                None
            }
            attempt => Some(attempt),
        }
    }

    /// Runs `games` (in as many inputs as the limits ask) and returns what each got, `None`
    /// where the budget ran out first.
    fn try_games(&mut self, games: &[String]) -> Vec<Option<Seen>> {
        let per_input = self
            .explainer
            .games_per_input()
            .min(self.bounds.games_per_run)
            .max(1);
        let mut seen: Vec<Option<Seen>> = Vec::with_capacity(games.len());
        let mut wrong = false;
        for chunk in games.chunks(per_input) {
            let before = seen.len();
            seen.extend(self.try_chunk(chunk));
            wrong |= chunk
                .iter()
                .zip(&seen[before..])
                .any(|(game, seen)| seen.as_ref().is_some_and(|s| self.is_wrong(game, s)));
            // Where an input holds one game, running every game would spend the budget before
            // shrinking: stop at a wrong one once enough answers are read to match a
            // misconception against.
            if wrong && self.runs >= (self.bounds.runs / 4).min(16) {
                break;
            }
        }
        seen.resize(games.len(), None);
        seen
    }

    fn try_chunk(&mut self, games: &[String]) -> Vec<Option<Seen>> {
        let input = self.explainer.pack(games);
        let Some(attempt) = self.attempt(&input) else {
            return vec![None; games.len()];
        };
        match attempt {
            Attempt::Output(output) => self.read_answers(games, &output),
            Attempt::Failed(what) if games.len() == 1 => vec![Some(Seen::Failed(what))],
            Attempt::Failed(what) => self.trace_failure(games, what),
            Attempt::OutOfBudget => unreachable!("taken out by attempt()"),
        }
    }

    fn read_answers(&mut self, games: &[String], output: &str) -> Vec<Option<Seen>> {
        let answers = self.explainer.split_output(games, output);
        games
            .iter()
            .zip(answers)
            .map(|(game, answer)| {
                let answer = answer.unwrap_or_default();
                if self.scanning {
                    self.seen.push((game.clone(), answer.clone()));
                }
                Some(Seen::Answer(answer))
            })
            .collect()
    }

    /// Which game made a run of `games` fail: the shortest failing prefix, found by doubling
    /// and then halving. Games come smallest first, so the culprit is usually near the front,
    /// and prefixes that pass cost little (a failing run may cost a whole time limit).
    fn trace_failure(&mut self, games: &[String], what: String) -> Vec<Option<Seen>> {
        let mut seen: Vec<Option<Seen>> = vec![None; games.len()];
        // Prefixes of `passed` games ran normally; one of `failed` games did not.
        let (mut passed, mut failed, mut failure) = (0, games.len(), what);
        let mut length = 1;
        let mut doubling = true;
        while failed - passed > 1 {
            if !doubling {
                length = passed + (failed - passed) / 2;
            }
            let prefix = &games[..length];
            let Some(attempt) = self.attempt(&self.explainer.pack(prefix)) else {
                return seen;
            };
            match attempt {
                Attempt::Output(output) => {
                    let answers = self.read_answers(prefix, &output);
                    let wrong = prefix
                        .iter()
                        .zip(&answers)
                        .any(|(g, a)| a.as_ref().is_some_and(|a| self.is_wrong(g, a)));
                    seen[..length].clone_from_slice(&answers);
                    if wrong {
                        // A wrong answer before the failure: smaller, and enough.
                        return seen;
                    }
                    passed = length;
                    if doubling {
                        length = (length * 2).min(failed);
                    }
                }
                Attempt::Failed(what) => {
                    (failed, failure, doubling) = (length, what, false);
                }
                Attempt::OutOfBudget => unreachable!("taken out by attempt()"),
            }
        }
        seen[failed - 1] = Some(Seen::Failed(failure));
        seen
    }

    fn is_wrong(&self, game: &str, seen: &Seen) -> bool {
        match seen {
            Seen::Answer(answer) => !self.explainer.is_right(game, answer, self.case_sensitive),
            Seen::Failed(_) => true,
        }
    }

    /// The first game of `games` the program gets wrong, with what it got.
    fn first_wrong(&mut self, games: &[String]) -> Option<(String, Seen)> {
        let seen = self.try_games(games);
        games.iter().zip(seen).find_map(|(game, seen)| match seen {
            Some(seen) if self.is_wrong(game, &seen) => Some((game.clone(), seen)),
            _ => None,
        })
    }

    /// Smaller and smaller games the program still gets wrong.
    fn shrink(&mut self, mut game: String, mut seen: Seen) -> (String, Seen) {
        loop {
            let size = self.explainer.size(&game);
            let smaller: Vec<String> = self
                .explainer
                .shrink(&game)
                .into_iter()
                .filter(|g| self.explainer.size(g) < size)
                .collect();
            if smaller.is_empty() || self.spent {
                return (game, seen);
            }
            match self.first_wrong(&smaller) {
                Some((g, s)) => (game, seen) = (g, s),
                None => return (game, seen),
            }
        }
    }

    /// The misconception whose answers are the program's on every game seen, and wrong on at
    /// least one of them (a right program agrees with nothing).
    fn misconception(&self) -> Option<Misconception> {
        let right =
            |game: &str, answer: &str| self.explainer.is_right(game, answer, self.case_sensitive);
        let answers: Vec<(&String, &String, bool)> = self
            .seen
            .iter()
            .map(|(game, got)| (game, got, right(game, got)))
            .collect();
        let agrees = |answer: &dyn Fn(&str) -> Option<String>, where_wrong: bool| {
            let mut differs_from_reference = false;
            for &(game, got, got_right) in &answers {
                if where_wrong && got_right {
                    continue;
                }
                let Some(theirs) = answer(game) else {
                    return false;
                };
                let theirs_right = right(game, &theirs);
                // Two right answers agree even when they are different winning moves.
                let alike = same_answer(&theirs, got, self.case_sensitive);
                if !(alike || got_right && theirs_right) {
                    return false;
                }
                differs_from_reference |= !theirs_right;
            }
            differs_from_reference
        };
        for misconception in self.explainer.misconceptions() {
            let matched = if misconception == ALWAYS_FIRST {
                let (_, first, _) = answers.first()?;
                answers.len() > 1
                    && answers
                        .iter()
                        .all(|(_, got, _)| same_answer(got, first, self.case_sensitive))
                    && answers.iter().any(|&(_, _, got_right)| !got_right)
            } else {
                agrees(
                    &|game: &str| self.explainer.misconceived(misconception.id, game),
                    self.explainer.named_where_wrong(misconception.id),
                )
            };
            if matched {
                return Some(misconception);
            }
        }
        None
    }
}

/// Finds a smallest game the program gets wrong: the small games in order of size (many to an
/// input where the format allows), then the family's large witnesses; shrinks the first found,
/// confirms it with an input holding that game alone, and names the misconception the
/// program's answers agree with. `run` runs the program on one input; it decides the budget
/// beyond `bounds` (CPU time, wall time) by answering [`Attempt::OutOfBudget`].
pub fn search(
    explainer: &dyn Explainer,
    case_sensitive: bool,
    bounds: Bounds,
    run: &mut dyn FnMut(&str) -> Attempt,
) -> Finding {
    let mut search = Search {
        explainer,
        case_sensitive,
        bounds,
        run,
        runs: 0,
        spent: false,
        seen: Vec::new(),
        scanning: true,
    };
    let mut large = false;
    let mut found = search.first_wrong(&explainer.small_games());
    if found.is_none() && !search.spent {
        large = true;
        found = search.first_wrong(&explainer.witnesses());
    }
    search.scanning = false;
    let counterexample = found.and_then(|(game, seen)| {
        let (game, _) = search.shrink(game, seen);
        // Alone in its input: a program that answers it right there was wrong only because of
        // the games around it, and that is not this game's counterexample.
        let alone = search.try_chunk(std::slice::from_ref(&game));
        let seen = match alone.into_iter().next().flatten() {
            Some(seen) if search.is_wrong(&game, &seen) => seen,
            _ => return None,
        };
        Some(Counterexample {
            expected: explainer.answer(&game),
            certificate: explainer.certificate(&game, seen.answer()),
            got: seen.into_got(),
            misconception: search.misconception(),
            position: game,
            large,
        })
    });
    Finding {
        counterexample,
        runs: search.runs,
    }
}

/// One wrong answer of an answer submission, explained: the first game of the instance it gets
/// wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongInstance {
    pub name: String,
    /// That game alone, as an input.
    pub position: String,
    pub expected: String,
    pub got: String,
    pub certificate: Certificate,
}

/// Explains a student's answers to instances (name, input, their answer): for each instance
/// answered wrong, its first wrong game with the certificate; and the misconception every
/// answered game agrees with, if one does. Nothing runs: the answers are there.
pub fn explain_answers(
    explainer: &dyn Explainer,
    case_sensitive: bool,
    answered: &[(String, String, String)],
) -> (Vec<WrongInstance>, Option<Misconception>) {
    let mut wrong = Vec::new();
    let mut search = Search {
        explainer,
        case_sensitive,
        bounds: Bounds::default(),
        run: &mut |_| Attempt::OutOfBudget,
        runs: 0,
        spent: true,
        seen: Vec::new(),
        scanning: true,
    };
    for (name, input, answer) in answered {
        let Some(games) = explainer.games(input) else {
            continue;
        };
        let seen = search.read_answers(&games, answer);
        let first_wrong = games.iter().zip(seen).find_map(|(game, seen)| match seen {
            Some(Seen::Answer(got)) if search.is_wrong(game, &Seen::Answer(got.clone())) => {
                Some((game.clone(), got))
            }
            _ => None,
        });
        if let Some((game, got)) = first_wrong {
            wrong.push(WrongInstance {
                name: name.clone(),
                expected: explainer.answer(&game),
                certificate: explainer.certificate(&game, Some(&got)),
                position: game,
                got,
            });
        }
    }
    let misconception = if wrong.is_empty() {
        None
    } else {
        search.misconception()
    };
    (wrong, misconception)
}

/// A small game on which `misconception`, which a student's answers agree with, goes wrong, for
/// a reader who may not see the expected answers of the student's own instances: the smallest of
/// [`Explainer::small_games`] that is no game of `theirs` (the student's instances, each an input
/// in the problem's format) and whose certificate proves none of theirs, with the answer the
/// misconception gives there and the certificate against it. `constant` is the answer of [`ALWAYS_FIRST`], the one the student gave everywhere.
/// `None` when every small game outside theirs is answered right by the misconception.
pub fn worked_example(
    explainer: &dyn Explainer,
    case_sensitive: bool,
    misconception: Misconception,
    constant: &str,
    theirs: &[&str],
) -> Option<Counterexample> {
    let theirs: std::collections::BTreeSet<String> = theirs
        .iter()
        .filter_map(|input| explainer.games(input))
        .flatten()
        .collect();
    let misconceived = |game: &str| {
        if misconception == ALWAYS_FIRST {
            Some(constant.to_owned())
        } else {
            explainer.misconceived(misconception.id, game)
        }
    };
    // Games differ while their proofs read alike (one that never names the other pile): a
    // proof of one of hers would prove her answer, so the example's must be none of theirs.
    let their_proofs: std::collections::BTreeSet<String> = theirs
        .iter()
        .flat_map(|game| {
            let proof = explainer.certificate(game, misconceived(game).as_deref());
            [proof.en, proof.vi]
        })
        .collect();
    explainer
        .small_games()
        .into_iter()
        .filter(|game| !theirs.contains(game))
        .find_map(|game| {
            let answer = misconceived(&game)?;
            if explainer.is_right(&game, &answer, case_sensitive) {
                return None;
            }
            let certificate = explainer.certificate(&game, Some(&answer));
            if their_proofs.contains(&certificate.en) || their_proofs.contains(&certificate.vi) {
                return None;
            }
            Some(Counterexample {
                expected: explainer.answer(&game),
                certificate,
                got: answer,
                misconception: Some(misconception),
                position: game,
                large: false,
            })
        })
}

/// `games` (random ones, for stress testing) checked in order against the reference: the first
/// the program gets wrong, shrunk and explained as [`search`] does. `progress` hears how many
/// games are done.
pub fn stress(
    explainer: &dyn Explainer,
    case_sensitive: bool,
    games: &[String],
    run: &mut dyn FnMut(&str) -> Attempt,
    progress: &mut dyn FnMut(usize),
) -> Finding {
    let mut search = Search {
        explainer,
        case_sensitive,
        bounds: Bounds {
            runs: u32::MAX,
            ..Bounds::default()
        },
        run,
        runs: 0,
        spent: false,
        seen: Vec::new(),
        scanning: true,
    };
    let per_input = explainer
        .games_per_input()
        .clamp(1, Bounds::default().games_per_run);
    let mut found = None;
    let mut done = 0;
    for chunk in games.chunks(per_input) {
        let seen = search.try_chunk(chunk);
        done += chunk.len();
        progress(done);
        found = chunk.iter().zip(seen).find_map(|(game, seen)| match seen {
            Some(seen) if search.is_wrong(game, &seen) => Some((game.clone(), seen)),
            _ => None,
        });
        if found.is_some() || search.spent {
            break;
        }
    }
    search.scanning = false;
    let counterexample = found.map(|(game, seen)| {
        let (mut game, mut seen) = search.shrink(game, seen);
        // Shrinking is greedy and can stop at a game none of whose neighbours fails while a
        // smaller game elsewhere does: the small games below it settle that.
        let size = explainer.size(&game);
        let below: Vec<String> = explainer
            .small_games()
            .into_iter()
            .filter(|g| explainer.size(g) < size)
            .collect();
        search.scanning = true;
        let smaller = search.first_wrong(&below);
        search.scanning = false;
        if let Some((smaller, its)) = smaller {
            (game, seen) = search.shrink(smaller, its);
        }
        Counterexample {
            expected: explainer.answer(&game),
            certificate: explainer.certificate(&game, seen.answer()),
            misconception: search.misconception(),
            got: seen.into_got(),
            position: game,
            large: false,
        }
    });
    Finding {
        counterexample,
        runs: search.runs,
    }
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::families;

    /// Words of English prose that no Vietnamese sentence uses; notation (Nim, mex, xor, W, L,
    /// the games' names, the answers programs print) is not among them.
    const ENGLISH: &[&str] = &[
        "the",
        "and",
        "of",
        "is",
        "are",
        "was",
        "which",
        "when",
        "where",
        "with",
        "from",
        "that",
        "this",
        "each",
        "every",
        "player",
        "players",
        "wins",
        "win",
        "loses",
        "lose",
        "move",
        "moves",
        "pile",
        "piles",
        "program",
        "answer",
        "answers",
        "position",
        "positions",
        "because",
        "but",
        "not",
        "first",
        "second",
        "only",
        "whatever",
        "game",
        "games",
        "takes",
        "take",
        "stones",
        "value",
        "values",
        "rule",
        "should",
        "must",
        "into",
        "there",
        "their",
        "its",
        "it",
        "one",
        "two",
        "three",
        "as",
        "by",
        "for",
        "if",
        "or",
        "at",
    ];

    fn english_in(text: &str) -> Vec<&'static str> {
        // A word in capitals is an answer a program prints (WIN, YES), not prose.
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() < 2 || w.chars().any(char::is_lowercase))
            .map(str::to_lowercase)
            .collect();
        ENGLISH
            .iter()
            .copied()
            .filter(|w| words.iter().any(|x| x == w))
            .collect()
    }

    #[test]
    fn the_english_detector_finds_prose_but_not_notation() {
        assert_eq!(
            english_in("Người đi trước thắng khi tổng nim khác 0 (mex, xor, Nim, W, L)."),
            Vec::<&str>::new()
        );
        assert_eq!(english_in("Người đi trước wins."), vec!["wins"]);
        assert_eq!(english_in("Chương trình in WIN."), Vec::<&str>::new());
        assert_eq!(english_in("The tổng"), vec!["the"]);
    }

    /// Every misconception a problem can name, with the family that names it: each family by
    /// name and every built-in problem (the octal games' misconceptions follow their rules).
    fn every_misconception() -> Vec<(String, Misconception)> {
        let mut all = Vec::new();
        for name in families::names() {
            let Some(family) = families::by_name(name) else {
                continue;
            };
            if let Some(explainer) = family.explainer() {
                for m in explainer.misconceptions() {
                    all.push((name.to_owned(), m));
                }
            }
        }
        for problem in crate::Catalogue::builtin().unwrap().iter() {
            if let Some(explainer) = problem.explainer() {
                for m in explainer.misconceptions() {
                    all.push((problem.spec.family.clone(), m));
                }
            }
        }
        all.sort_by(|a, b| (a.0.as_str(), a.1.id).cmp(&(b.0.as_str(), b.1.id)));
        all.dedup_by(|a, b| a.0 == b.0 && a.1.id == b.1.id);
        all
    }

    #[test]
    fn every_misconception_is_written_in_every_language_without_english_in_the_others() {
        let all = every_misconception();
        assert!(all.len() > 40, "{}", all.len());
        let mut missing = Vec::new();
        let mut english = Vec::new();
        for (family, m) in &all {
            for code in languages() {
                let Some(words) = m.words(family, code) else {
                    missing.push(format!("{family}/{} in {code}", m.id));
                    continue;
                };
                assert!(!words.title.trim().is_empty() && !words.text.trim().is_empty());
                if code != "en" {
                    assert_ne!(words.text, m.text, "{family}/{} in {code}", m.id);
                    let found = english_in(&format!("{} {}", words.title, words.text));
                    if !found.is_empty() {
                        english.push(format!("{family}/{} in {code}: {found:?}", m.id));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "not written: {missing:#?}");
        assert!(english.is_empty(), "English left: {english:#?}");
    }

    #[test]
    fn every_table_entry_belongs_to_a_misconception() {
        let ids: BTreeSet<&str> = every_misconception().iter().map(|(_, m)| m.id).collect();
        for (code, table) in TRANSLATIONS.iter() {
            for id in table.keys() {
                assert!(
                    ids.contains(id.as_str()),
                    "explain/{code}.toml: {id} names nothing"
                );
            }
        }
    }

    /// A Nim "program": each line `M p_1 … p_M` answered by `rule`.
    fn nim_program(rule: impl Fn(&[u64]) -> bool) -> impl FnMut(&str) -> Attempt {
        move |input: &str| {
            let mut out = String::new();
            for line in input.lines() {
                let piles: Vec<u64> = line
                    .split_whitespace()
                    .skip(1)
                    .map(|t| t.parse().unwrap())
                    .collect();
                out.push_str(if rule(&piles) { "Yes\n" } else { "No\n" });
            }
            Attempt::Output(out)
        }
    }

    fn explain_nim(run: &mut dyn FnMut(&str) -> Attempt) -> Finding {
        let nim = families::by_name("nim").unwrap();
        search(nim.explainer().unwrap(), true, Bounds::default(), run)
    }

    #[test]
    fn a_right_program_gets_nothing() {
        let finding = explain_nim(&mut nim_program(|p| p.iter().fold(0, |a, b| a ^ b) != 0));
        assert_eq!(finding.counterexample, None);
        // Every small game in one input, then the (no) witnesses.
        assert_eq!(finding.runs, 1);
    }

    #[test]
    fn the_parity_of_the_total_is_named_with_one_pile_of_two() {
        let finding = explain_nim(&mut nim_program(|p| p.iter().sum::<u64>() % 2 == 1));
        let found = finding.counterexample.unwrap();
        assert_eq!(found.position, "1 2\n");
        assert_eq!((found.expected.as_str(), found.got.as_str()), ("Yes", "No"));
        assert_eq!(found.misconception.map(|m| m.id), Some("sum-parity"));
        assert!(!found.large);
    }

    #[test]
    fn a_constant_answer_is_always_first() {
        let found = explain_nim(&mut nim_program(|_| true))
            .counterexample
            .unwrap();
        assert_eq!(found.position, "2 1 1\n");
        assert_eq!(found.misconception.map(|m| m.id), Some("always-first"));
    }

    #[test]
    fn an_arbitrary_mistake_is_shrunk_and_not_named() {
        // Wrong whenever some pile is 5, in a game of three piles or more.
        let finding = explain_nim(&mut nim_program(|p| {
            let right = p.iter().fold(0, |a, b| a ^ b) != 0;
            right ^ (p.len() >= 3 && p.contains(&5))
        }));
        let found = finding.counterexample.unwrap();
        assert_eq!(found.position, "3 1 1 5\n");
        assert_eq!(found.misconception, None);
    }

    #[test]
    fn a_crash_is_traced_to_its_game() {
        let mut run = |input: &str| {
            if input.lines().any(|l| l == "2 3 3") {
                Attempt::Failed("runtime error (exit code 3)".into())
            } else {
                nim_program(|p| p.iter().fold(0, |a, b| a ^ b) != 0)(input)
            }
        };
        let finding = explain_nim(&mut run);
        let found = finding.counterexample.unwrap();
        assert_eq!(found.position, "2 3 3\n");
        assert_eq!(found.got, "runtime error (exit code 3)");
        assert!(finding.runs <= 64);
    }

    #[test]
    fn stress_goes_below_where_shrinking_stops() {
        // No neighbour of 1 1 2 fails by the parity of the total; one pile of 2 does.
        let nim = families::by_name("nim").unwrap();
        let mut done = 0;
        let finding = stress(
            nim.explainer().unwrap(),
            true,
            &["1 1\n".to_owned(), "3 1 1 2\n".to_owned()],
            &mut nim_program(|p| p.iter().sum::<u64>() % 2 == 1),
            &mut |n| done = n,
        );
        assert_eq!(done, 2);
        let found = finding.counterexample.unwrap();
        assert_eq!(found.position, "1 2\n");
        assert_eq!(found.misconception.map(|m| m.id), Some("sum-parity"));
    }

    #[test]
    fn the_run_budget_holds() {
        let mut runs = 0;
        let mut run = |_: &str| {
            runs += 1;
            Attempt::Failed("time limit exceeded".into())
        };
        let nim = families::by_name("nim").unwrap();
        let bounds = Bounds {
            runs: 2,
            ..Bounds::default()
        };
        // The batch, then the first game alone; confirming it would take a third.
        let finding = search(nim.explainer().unwrap(), true, bounds, &mut run);
        assert_eq!((finding.runs, runs), (2, 2));
        assert_eq!(finding.counterexample, None);
    }

    #[test]
    fn a_time_limit_is_traced_by_prefixes_from_the_front() {
        // Games run smallest first: 1, 2, 1 1, 3, … The game of one pile of 3 never ends.
        let mut runs = 0;
        let mut right = nim_program(|p| p.iter().fold(0, |a, b| a ^ b) != 0);
        let mut run = |input: &str| {
            runs += 1;
            if input.lines().any(|l| l == "1 3") {
                Attempt::Failed("time limit exceeded".into())
            } else {
                right(input)
            }
        };
        let nim = families::by_name("nim").unwrap();
        let finding = search(nim.explainer().unwrap(), true, Bounds::default(), &mut run);
        let found = finding.counterexample.unwrap();
        assert_eq!(found.position, "1 3\n");
        assert_eq!(found.got, "time limit exceeded");
        // All, then prefixes of 1, 2 and 4 games, then of 3; shrinking to 1 and 2 piles; alone.
        assert!(finding.runs <= 8, "{}", finding.runs);
    }

    #[test]
    fn answers_are_explained_instance_by_instance() {
        let nim = families::by_name("nim").unwrap();
        // Answered by the parity of the total: right on 1 1 1 and 1 2, wrong on 2 and 3 3.
        let answered = [
            (
                "a".to_owned(),
                "3 1 1 1\n1 2\n".to_owned(),
                "Yes\nNo\n".to_owned(),
            ),
            ("b".to_owned(), "2 1 2\n".to_owned(), "Yes\n".to_owned()),
            (
                "c".to_owned(),
                "2 3 3\n1 4\n".to_owned(),
                "No\nNo\n".to_owned(),
            ),
        ];
        let (wrong, misconception) = explain_answers(nim.explainer().unwrap(), true, &answered);
        let names: Vec<(&str, &str)> = wrong
            .iter()
            .map(|w| (w.name.as_str(), w.position.as_str()))
            .collect();
        assert_eq!(names, [("a", "1 2\n"), ("c", "1 4\n")]);
        assert!(
            wrong[0]
                .certificate
                .en
                .contains("Taking 2 from the pile of 2")
        );
        assert_eq!(misconception.map(|m| m.id), Some("sum-parity"));
        let right = [("a".to_owned(), "1 2\n".to_owned(), "Yes\n".to_owned())];
        assert_eq!(
            explain_answers(nim.explainer().unwrap(), true, &right),
            (vec![], None)
        );
    }

    /// Nim's rule, and the parity of the total, on a one-game input.
    fn nim_answers(game: &str) -> (&'static str, &'static str) {
        let piles: Vec<u64> = game
            .split_whitespace()
            .skip(1)
            .map(|t| t.parse().unwrap())
            .collect();
        let yes = |b: bool| if b { "Yes" } else { "No" };
        (
            yes(piles.iter().fold(0, |a, b| a ^ b) != 0),
            yes(piles.iter().sum::<u64>() % 2 == 1),
        )
    }

    #[test]
    fn a_worked_example_never_reads_as_the_proof_of_one_of_hers() {
        // SC4's proof for a first bowl of one chestnut never names the second: "1 1" and her
        // "1 45" read alike, so the example must be another game.
        let sc4 = families::by_name("sc4").unwrap();
        let explainer = sc4.explainer().unwrap();
        let hers = explainer.certificate("1 45\n", Some("1000"));
        assert_eq!(explainer.certificate("1 1\n", Some("1000")), hers);
        let example = worked_example(explainer, true, ALWAYS_FIRST, "1000", &["1 45\n"]).unwrap();
        assert_ne!(example.certificate.en, hers.en, "{example:?}");
        assert_ne!(example.certificate.vi, hers.vi, "{example:?}");
        assert!(
            !explainer.is_right(&example.position, "1000", true),
            "{example:?}"
        );
    }

    #[test]
    fn a_worked_example_is_a_small_game_outside_the_students_own() {
        let nim = families::by_name("nim").unwrap();
        let explainer = nim.explainer().unwrap();
        let parity = explainer
            .misconceptions()
            .into_iter()
            .find(|m| m.id == "sum-parity")
            .unwrap();
        // One pile of 2 is the smallest game the parity gets wrong; it is hers, and so is 1 4.
        let theirs = ["2 3 3\n1 4\n", "1 2\n"];
        let example = worked_example(explainer, true, parity, "", &theirs).unwrap();
        assert!(!["1 2\n", "1 4\n", "2 3 3\n"].contains(&example.position.as_str()));
        let (right, by_parity) = nim_answers(&example.position);
        assert_ne!(right, by_parity, "{example:?}");
        assert_eq!(
            (example.expected.as_str(), example.got.as_str()),
            (right, by_parity)
        );
        assert!(!example.certificate.en.is_empty());
        assert_eq!(example.misconception, Some(parity));
        // The smallest such game: the parity answers every smaller one outside hers right.
        let smaller = explainer
            .small_games()
            .into_iter()
            .take_while(|g| *g != example.position)
            .filter(|g| !["1 2\n", "1 4\n", "2 3 3\n"].contains(&g.as_str()))
            .collect::<Vec<_>>();
        assert!(!smaller.is_empty());
        for game in smaller {
            let (right, by_parity) = nim_answers(&game);
            assert_eq!(right, by_parity, "{game}");
        }
        // The same answer everywhere: the first game outside hers whose answer differs.
        let constant = worked_example(explainer, true, ALWAYS_FIRST, "No", &theirs).unwrap();
        assert_eq!(
            (constant.expected.as_str(), constant.got.as_str()),
            ("Yes", "No")
        );
        assert_eq!(
            constant.position, "1 1\n",
            "one pile of 1, the smallest game, is a win"
        );
    }

    #[test]
    fn answers_split_by_the_expected_token_counts() {
        let expected = ["Case 1: lose".to_owned(), "Case 2: 3".to_owned()];
        assert_eq!(
            split_answers("Case 1: lose\nCase 2:\n3 extra", &expected),
            [
                Some("Case 1: lose".to_owned()),
                Some("Case 2: 3 extra".to_owned())
            ]
        );
        assert_eq!(split_answers("Case 1:", &expected), [None, None]);
    }

    #[test]
    fn answers_compare_as_the_token_checker_does() {
        assert!(same_answer("Yes\n", " Yes ", true));
        assert!(!same_answer("Yes", "yes", true));
        assert!(same_answer("Yes", "yes", false));
        assert!(!same_answer("Yes", "Yes No", false));
    }
}
