//! The catalogue as the service offers it, and the instances a student answers without a
//! program: the samples and a few inputs per subtask drawn from a seed of their own.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use grundy_judge::naming::Group;
use grundy_problems::spec::MAX_INSTANCE_BYTES;
use grundy_problems::{Instance, Problem};
use grundy_store::{ProblemMark, User};

use super::{Domain, Error, Result, access};
use crate::registry::Entry;

/// How many instances of each subtask a student answers.
pub const INSTANCES_PER_SUBTASK: usize = 2;

/// The seed of a student's practice instances: fixed per user, different between users. (An
/// assignment's are keyed: see [`super::assignments`].)
pub fn practice_seed(user: i64) -> u64 {
    user as u64
}

/// The instances drawn from `seed`: the samples, then each subtask's.
pub fn instances(problem: &Problem, seed: u64) -> Vec<Instance> {
    problem.instances(seed, INSTANCES_PER_SUBTASK)
}

/// A problem by its slug, whoever asks: for callers whose permission is settled otherwise (a
/// submission they may see, an assignment they teach). On someone's behalf, [`visible`].
pub fn find(domain: &Domain, slug: &str) -> Result<Arc<Entry>> {
    domain
        .problems
        .get(slug)
        .ok_or_else(|| Error::NotFound(format!("problem {slug:?}")))
}

/// A problem `viewer` may see (see [`access::ProblemSight`]); a draft they may not is "not
/// found".
pub async fn visible(domain: &Domain, viewer: Option<&User>, slug: &str) -> Result<Arc<Entry>> {
    let entry = find(domain, slug)?;
    if access::sees_problem(domain, viewer, &entry).await? {
        Ok(entry)
    } else {
        Err(Error::NotFound(format!("problem {slug:?}")))
    }
}

/// The catalogue as `viewer` sees it, built-in problems first, narrowed to a tag.
pub async fn list(
    domain: &Domain,
    viewer: Option<&User>,
    tag: Option<&str>,
) -> Result<Vec<Arc<Entry>>> {
    let sight = access::problem_sight(domain, viewer).await?;
    Ok(domain
        .problems
        .list()
        .into_iter()
        .filter(|e| sight.sees(e))
        .filter(|e| tag.is_none_or(|t| e.problem.spec.tags.iter().any(|own| own == t)))
        .collect())
}

/// Every tag of the problems `viewer` sees, in order.
pub async fn tags(domain: &Domain, viewer: Option<&User>) -> Result<Vec<String>> {
    let tags: BTreeSet<String> = list(domain, viewer, None)
        .await?
        .iter()
        .flat_map(|e| e.problem.spec.tags.iter().cloned())
        .collect();
    Ok(tags.into_iter().collect())
}

/// A visitor's standing on each problem they tried (nothing for someone not signed in).
pub async fn marks(domain: &Domain, user: Option<&User>) -> Result<BTreeMap<String, ProblemMark>> {
    let Some(user) = user else {
        return Ok(BTreeMap::new());
    };
    Ok(domain
        .store
        .problem_marks(user.id)
        .await?
        .into_iter()
        .map(|m| (m.problem.clone(), m))
        .collect())
}

/// Instances drawn for someone, each with its group's name.
#[derive(Debug)]
pub struct Drawn {
    /// The problem they are drawn from.
    pub entry: Arc<Entry>,
    /// The problem version they belong to: answers to another version's are refused.
    pub version: u32,
    /// In an assignment: which draw of the student's instances these are.
    pub draw: Option<i64>,
    pub instances: Vec<(String, Instance)>,
}

/// Draws `seed`'s instances (the largest subtasks' inputs take a moment: off the async threads).
pub(crate) async fn draw(entry: Arc<Entry>, seed: u64, draw: Option<i64>) -> Result<Drawn> {
    let problem = entry.problem.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        problem.instances_within(seed, INSTANCES_PER_SUBTASK, MAX_INSTANCE_BYTES)
    })
    .await
    .map_err(|e| super::error::thread("drawing instances", e))?
    .ok_or_else(|| {
        Error::Conflict(format!(
            "the instances of {:?} come to more than {} MiB, more than one page holds; it takes programs only",
            entry.problem.slug(),
            MAX_INSTANCE_BYTES >> 20
        ))
    })?;
    let named = drawn
        .into_iter()
        .map(|i| (Group::of_instance(&i).name(&entry.problem).to_owned(), i))
        .collect();
    Ok(Drawn {
        version: entry.problem.spec.version,
        entry,
        draw,
        instances: named,
    })
}

/// The caller's practice instances of a problem: the samples plus instances drawn for them (an
/// uploaded package has only its samples to offer: its other tests are hidden).
pub async fn practice_instances(domain: &Domain, user: &User, slug: &str) -> Result<Drawn> {
    draw(
        visible(domain, Some(user), slug).await?,
        practice_seed(user.id),
        None,
    )
    .await
}
