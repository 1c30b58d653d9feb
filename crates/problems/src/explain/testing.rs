//! What every family's explanation tests check, against a problem's family by name: a program is
//! a plain function from an input's text to its output, written by the test from the rules.

use super::{Bounds, Counterexample, Explainer, search};
use crate::families;
use crate::family::Solver;
use crate::seed::TestRng;
use rand::SeedableRng;
use std::sync::Arc;

/// A program under test: the whole output for one input.
pub(crate) type Program<'a> = &'a dyn Fn(&str) -> String;

/// One problem's family, with the checks.
pub(crate) struct Problem {
    name: &'static str,
    solver: Arc<dyn Solver>,
}

impl Problem {
    /// The family a problem names in its `problem.toml`.
    pub(crate) fn new(name: &'static str) -> Problem {
        let solver = families::by_name(name).unwrap_or_else(|| panic!("no family {name}"));
        Problem::with(name, solver)
    }

    /// A family configured by a problem's `[game]` table, named for the messages.
    pub(crate) fn with(name: &'static str, solver: Arc<dyn Solver>) -> Problem {
        assert!(solver.explainer().is_some(), "{name} explains");
        Problem { name, solver }
    }

    pub(crate) fn explainer(&self) -> &dyn Explainer {
        self.solver.explainer().expect("checked in new")
    }

    /// The search's counterexample for `program`, with the default bounds.
    pub(crate) fn search(&self, program: Program<'_>) -> Option<Counterexample> {
        let mut run = |input: &str| super::Attempt::Output(program(input));
        search(self.explainer(), true, Bounds::default(), &mut run).counterexample
    }

    /// The first small game, in the family's order, that `program` gets wrong when it is alone
    /// in its input: what a brute force over the small games finds.
    pub(crate) fn brute_force_smallest(&self, program: Program<'_>) -> Option<String> {
        let explainer = self.explainer();
        explainer.small_games().into_iter().find(|game| {
            let input = explainer.pack(std::slice::from_ref(game));
            !explainer.is_right(game, &program(&input), true)
        })
    }

    pub(crate) fn assert_right(&self, program: Program<'_>) {
        assert_eq!(self.search(program), None, "{}", self.name);
    }

    /// `program` is found wrong on a small game no bigger than the brute force's, and its
    /// answers are named `id`.
    pub(crate) fn assert_named(&self, id: &str, program: Program<'_>) -> Counterexample {
        let found = self
            .search(program)
            .unwrap_or_else(|| panic!("{}: {id} is found wrong", self.name));
        assert_eq!(found.misconception.map(|m| m.id), Some(id), "{found:#?}");
        assert!(!found.large, "{found:#?}");
        let smallest = self
            .brute_force_smallest(program)
            .expect("the brute force finds a game too");
        let size = |game: &str| self.explainer().size(game);
        assert!(
            size(&found.position) <= size(&smallest),
            "{}: found {:?}, but {smallest:?} is smaller",
            self.name,
            found.position
        );
        found
    }

    /// `program` is right on every small game and found wrong on a large witness, named `id`.
    pub(crate) fn assert_named_large(&self, id: &str, program: Program<'_>) -> Counterexample {
        assert_eq!(self.brute_force_smallest(program), None, "{}", self.name);
        let found = self
            .search(program)
            .unwrap_or_else(|| panic!("{}: {id} is found wrong", self.name));
        assert_eq!(found.misconception.map(|m| m.id), Some(id), "{found:#?}");
        assert!(found.large, "{found:#?}");
        found
    }

    /// Each misconception is wrong on some small game (or on a witness when no small game
    /// shows it), and no two answer every small game alike.
    pub(crate) fn assert_misconceptions_tell_apart(&self) {
        let explainer = self.explainer();
        let games = explainer.small_games();
        let witnesses = explainer.witnesses();
        let own: Vec<_> = explainer
            .misconceptions()
            .into_iter()
            .filter(|m| *m != super::ALWAYS_FIRST)
            .collect();
        assert!(!own.is_empty(), "{}", self.name);
        let answers = |id: &str, games: &[String]| -> Vec<String> {
            games
                .iter()
                .map(|g| {
                    explainer
                        .misconceived(id, g)
                        .unwrap_or_else(|| panic!("{}: {id} answers {g:?}", self.name))
                })
                .collect()
        };
        let reference: Vec<String> = games.iter().map(|g| explainer.answer(g)).collect();
        let distinct: std::collections::BTreeSet<&String> = reference.iter().collect();
        assert!(
            distinct.len() > 1,
            "{}: always-first is wrong somewhere",
            self.name
        );
        for m in &own {
            assert!(!m.text.is_empty() && !m.title.is_empty());
            let wrong_small = answers(m.id, &games) != reference;
            let wrong_large = witnesses
                .iter()
                .any(|w| Some(explainer.answer(w)) != explainer.misconceived(m.id, w));
            assert!(
                wrong_small || wrong_large,
                "{}: {} is wrong somewhere",
                self.name,
                m.id
            );
            let constant = answers(m.id, &games).iter().all(|a| *a == reference[0]);
            assert!(!constant, "{}: {} is not always-first", self.name, m.id);
        }
        for (i, a) in own.iter().enumerate() {
            for b in &own[i + 1..] {
                assert_ne!(
                    answers(a.id, &games),
                    answers(b.id, &games),
                    "{}: {} and {} differ on a small game",
                    self.name,
                    a.id,
                    b.id
                );
            }
        }
        assert_eq!(explainer.misconceived("no-such-id", &games[0]), None);
    }

    /// Shrinking any small or random game gives strictly smaller games that the family's strict
    /// parser accepts, each holding one game.
    pub(crate) fn assert_shrinks_valid(&self) {
        let explainer = self.explainer();
        let mut rng = TestRng::seed_from_u64(17);
        let mut games = explainer.small_games();
        games.extend((0..50).map(|_| explainer.random_game(&mut rng)));
        games.extend(explainer.witnesses());
        for game in &games {
            self.solver
                .validate(game)
                .unwrap_or_else(|e| panic!("{}: {game:?} is valid: {e}", self.name));
            let size = explainer.size(game);
            for smaller in explainer.shrink(game) {
                self.solver
                    .validate(&smaller)
                    .unwrap_or_else(|e| panic!("{}: {smaller:?} is valid: {e}", self.name));
                assert!(
                    explainer.size(&smaller) < size,
                    "{}: {smaller:?} is smaller than {game:?}",
                    self.name
                );
                // One game: packing it alone gives it back.
                assert_eq!(explainer.pack(std::slice::from_ref(&smaller)), smaller);
            }
        }
    }

    /// The small games come in order of size.
    pub(crate) fn assert_small_games_ordered(&self) {
        let explainer = self.explainer();
        let sizes: Vec<u64> = explainer
            .small_games()
            .iter()
            .map(|g| explainer.size(g))
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{}", self.name);
    }

    /// All the shared checks that need no program.
    pub(crate) fn assert_sound(&self) {
        self.assert_small_games_ordered();
        self.assert_misconceptions_tell_apart();
        self.assert_shrinks_valid();
    }
}
