//! How the tests of a submission are named, in one place: the judge names every result it
//! writes this way, and the service finds the instance behind a result (to show a student their
//! failing input) and labels groups with the same functions.
//!
//! A test is named by its group and its place in the group, from 1 ([`TestName`]): the public
//! samples are `samples`, a subtask's tests carry the subtask's name, and a student's personal
//! instances run after a program's tests are `personal`. Instances answered without a program are
//! named like tests of their subtask, numbered in the order they were drawn.

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
