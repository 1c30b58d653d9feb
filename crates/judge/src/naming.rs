//! How the tests of a submission are named, in one place: the judge names every result it
//! writes this way, and the service finds the instance behind a result (to show a student their
//! failing input) and labels groups with the same functions.
//!
//! A test is named by its group and its place in the group, from 1 ([`TestName`]): the public
//! samples are `samples`, a subtask's tests carry the subtask's name, and a student's personal
//! instances run after a program's tests are `personal`. Instances answered without a program are
//! named like tests of their subtask, numbered in the order they were drawn.
//!
//! Those names are the judge's and the wire's. People read a subtask as the statements write it,
//! by its number and points ([`subtask_label`]: `Subtask 1 (30 points)`); [`Group::title`] gives
//! a group's name for people.

use grundy_problems::{Instance, Problem};
pub use grundy_verdict::TestName;

/// The group of the public samples.
pub const SAMPLES_GROUP: &str = "samples";

/// The group of a student's personal instances run after a program's tests.
pub const PERSONAL_GROUP: &str = "personal";

/// Where a test belongs: the samples, a subtask (1-based), or a student's personal instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    Samples,
    Subtask(usize),
    Personal,
}

impl Group {
    /// The group an instance was drawn for.
    pub fn of_instance(instance: &Instance) -> Group {
        instance.subtask.map_or(Group::Samples, Group::Subtask)
    }

    /// The group's name in `problem`: `samples`, the subtask's name, or `personal`.
    pub fn name(self, problem: &Problem) -> &str {
        match self {
            Group::Samples => SAMPLES_GROUP,
            Group::Subtask(s) => &problem.spec.subtasks[s - 1].name,
            Group::Personal => PERSONAL_GROUP,
        }
    }

    /// The test at `index` (from 1) of this group.
    pub fn test(self, problem: &Problem, index: usize) -> TestName {
        TestName::new(self.name(problem), index_u32(index))
    }

    /// The group named `name` in `problem`'s results; `personal` says whether the results may
    /// hold personal instances (a program's, in an assignment that runs them). `None` for a
    /// name the problem does not have, or one that could be either group.
    pub fn named(problem: &Problem, name: &str, personal: bool) -> Option<Group> {
        if name == SAMPLES_GROUP {
            return Some(Group::Samples);
        }
        if personal && name == PERSONAL_GROUP {
            return (!personal_group_is_ambiguous(problem)).then_some(Group::Personal);
        }
        let s = problem.spec.subtasks.iter().position(|s| s.name == name)?;
        Some(Group::Subtask(s + 1))
    }

    /// The group as people read it: `samples`, `Subtask 1` (as the statement numbers it) or
    /// `personal`.
    pub fn title(self) -> String {
        match self {
            Group::Samples => SAMPLES_GROUP.to_owned(),
            Group::Subtask(s) => format!("Subtask {s}"),
            Group::Personal => PERSONAL_GROUP.to_owned(),
        }
    }
}

/// Subtask `s` (1-based) as the statements list it: `Subtask 1 (30 points)`.
pub fn subtask_label(problem: &Problem, s: usize) -> String {
    let points = problem.spec.subtasks[s - 1].points;
    let unit = if points == 1 { "point" } else { "points" };
    format!("{} ({points} {unit})", Group::Subtask(s).title())
}

fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// The instances an answer submission is judged on, each with the name of its result: the
/// samples and each subtask's draws, numbered within their group in the order drawn.
pub fn answer_tests<'a>(
    problem: &Problem,
    instances: &'a [Instance],
) -> Vec<(TestName, &'a Instance)> {
    let mut counts: std::collections::BTreeMap<Group, usize> = std::collections::BTreeMap::new();
    instances
        .iter()
        .map(|instance| {
            let group = Group::of_instance(instance);
            let n = counts.entry(group).or_default();
            *n += 1;
            (group.test(problem, *n), instance)
        })
        .collect()
}

/// The personal instances a program runs on after its tests, each with its result's name: the
/// drawn ones only (the samples are among the program's tests already), numbered in order.
pub fn personal_tests(instances: &[Instance]) -> Vec<(TestName, &Instance)> {
    instances
        .iter()
        .filter(|i| i.subtask.is_some())
        .enumerate()
        .map(|(n, instance)| (TestName::new(PERSONAL_GROUP, index_u32(n + 1)), instance))
        .collect()
}

/// Whether a subtask is named like the personal group, which would make a program's results
/// ambiguous: such a problem shows no personal inputs.
pub fn personal_group_is_ambiguous(problem: &Problem) -> bool {
    problem
        .spec
        .subtasks
        .iter()
        .any(|s| s.name == PERSONAL_GROUP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_numbered_within_their_group_in_the_order_drawn() {
        let catalogue = grundy_problems::Catalogue::builtin().unwrap();
        let problem = catalogue.get("nim").unwrap();
        let instances = problem.instances(7, 2);
        let named = answer_tests(problem, &instances);
        let first_subtask = &problem.spec.subtasks[0].name;
        let names: Vec<String> = named.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(names[0], "samples #1");
        assert!(names.contains(&format!("{first_subtask} #1")));
        assert!(names.contains(&format!("{first_subtask} #2")));
        for (name, instance) in &named {
            assert_eq!(name.group, Group::of_instance(instance).name(problem));
        }
    }

    #[test]
    fn subtasks_are_labelled_as_the_statements_list_them() {
        let catalogue = grundy_problems::Catalogue::builtin().unwrap();
        for problem in catalogue.iter() {
            let statement = problem.statement("en").unwrap();
            let several = problem.spec.subtasks.len() > 1;
            for s in 1..=problem.spec.subtasks.len() {
                let label = subtask_label(problem, s);
                // "Subtask 1 (30 points)", or "Subtask 1 ($30$ points)" where the points are
                // typeset; a problem of one subtask says "a single subtask worth 100 points".
                let typeset = label
                    .replacen('(', "($", 1)
                    .replacen(" point", "$ point", 1);
                assert!(
                    !several || statement.contains(&label) || statement.contains(&typeset),
                    "{}: the statement does not list {label:?}",
                    problem.slug()
                );
            }
        }
        let stones = catalogue.get("stones").unwrap();
        assert_eq!(subtask_label(stones, 1), "Subtask 1 (30 points)");
        assert_eq!(Group::named(stones, "full", false), Some(Group::Subtask(2)));
        assert_eq!(Group::named(stones, "samples", true), Some(Group::Samples));
        assert_eq!(
            Group::named(stones, "personal", true),
            Some(Group::Personal)
        );
        assert_eq!(Group::named(stones, "personal", false), None);
        assert_eq!(Group::Subtask(2).title(), "Subtask 2");
    }

    #[test]
    fn personal_tests_leave_out_the_samples_and_count_from_one() {
        let catalogue = grundy_problems::Catalogue::builtin().unwrap();
        let problem = catalogue.get("nim").unwrap();
        let instances = problem.instances(7, 2);
        let personal = personal_tests(&instances);
        assert_eq!(personal.len(), 2 * problem.spec.subtasks.len());
        assert_eq!(personal[0].0, TestName::new("personal", 1));
        assert!(personal.iter().all(|(_, i)| i.subtask.is_some()));
        assert!(!personal_group_is_ambiguous(problem));
    }
}
