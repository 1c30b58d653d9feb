//! Teachers' work on problems: packages in, packages out, variants of built-in games, and
//! judging submissions again.

use std::sync::Arc;

use grundy_problems::{Problem, VariantRequest};
use grundy_store::User;

use super::problems::find;
use super::{Domain, Error, Result, access};
use crate::clock::now_ms;
use crate::registry::{self, Entry, Origin};

/// Stores a new custom problem, or a new version of one the caller owns, and offers it.
async fn publish(
    domain: &Domain,
    user: &User,
    mut problem: Problem,
    origin: Origin,
    content: &[u8],
) -> Result<Arc<Entry>> {
    let slug = problem.slug().to_owned();
    if !grundy_problems::is_valid_slug(&slug) {
        return Err(Error::Invalid(format!(
            "the slug {slug:?} is not allowed: 2 to 48 lower-case letters, digits and '-'"
        )));
    }
    if domain.problems.is_builtin(&slug) {
        return Err(Error::Conflict(format!(
            "{slug:?} is a built-in problem; choose another slug"
        )));
    }
    let version = domain
        .store
        .put_custom_problem(&slug, origin.as_str(), user.id, content, now_ms())
        .await?;
    problem.spec.version = u32::try_from(version)
        .map_err(|_| Error::Internal(format!("version {version} of {slug}")))?;
    // A package's digest hashes all its tests: off the async threads.
    let (problem, digest) = tokio::task::spawn_blocking(move || {
        let digest = grundy_judge::testset::digest(&problem);
        (problem, digest)
    })
    .await
    .map_err(|e| super::error::thread("digesting a problem", e))?;
    registry::record_version(&domain.store, &problem, origin, digest).await?;
    let entry = domain.problems.insert(problem, origin, user.id);
    tracing::info!(slug = %slug, version, origin = origin.as_str(), user = %user.name, "problem published");
    Ok(entry)
}

/// Reads a zipped package (off the async threads) and publishes it for a teacher.
pub async fn publish_package(
    domain: &Domain,
    user: &User,
    zip: impl AsRef<[u8]> + Send + 'static,
) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    let (problem, zip) = tokio::task::spawn_blocking(move || {
        let read = grundy_problems::read_zip(zip.as_ref(), &registry::package_limits());
        (read, zip)
    })
    .await
    .map_err(|e| super::error::thread("reading a package", e))?;
    let problem = problem.map_err(|e| Error::Invalid(e.to_string()))?;
    publish(domain, user, problem, Origin::Package, zip.as_ref()).await
}

/// Builds a variant of the built-in `base` as the request describes and publishes it for a
/// teacher.
pub async fn publish_variant(
    domain: &Domain,
    user: &User,
    base: &str,
    request: &VariantRequest,
) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    let base = find(domain, base)?;
    let files = grundy_problems::variant(&base.problem, request)
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let problem =
        Problem::from_files(&request.slug, &files).map_err(|e| Error::Invalid(e.to_string()))?;
    let content = serde_json::to_vec(&files).map_err(|e| Error::Internal(e.to_string()))?;
    publish(domain, user, problem, Origin::Variant, &content).await
}

/// The built-in games a variant can start from: (slug, title).
pub fn variant_bases(domain: &Domain) -> Vec<Arc<Entry>> {
    domain
        .problems
        .list()
        .into_iter()
        .filter(|e| e.origin == Origin::Builtin && e.problem.is_family_backed())
        .collect()
}

/// A problem as a Kattis/ICPC zip (built-in ones with their generated tests). It holds the
/// hidden tests: see [`access::may_export`].
pub async fn export(domain: &Domain, user: &User, slug: &str) -> Result<Vec<u8>> {
    access::require_teacher(user)?;
    let entry = find(domain, slug)?;
    if !access::may_export(user, entry.owner) {
        return Err(Error::Forbidden(
            "only the problem's owner or an admin downloads its package",
        ));
    }
    let problem = entry.problem.clone();
    tokio::task::spawn_blocking(move || grundy_problems::write_zip(&problem))
        .await
        .map_err(|e| super::error::thread("writing a package", e))?
        .map_err(|e| Error::Invalid(e.to_string()))
}

/// A problem on the teachers' index, with who owns it and what the caller may do.
#[derive(Debug)]
pub struct Listed {
    pub entry: Arc<Entry>,
    /// The owner's name (custom problems).
    pub owner: Option<String>,
    /// Whether the caller may download it as a package.
    pub export: bool,
    /// Whether the caller may judge all its submissions again.
    pub rejudge_all: bool,
}

/// Every problem, for the teachers' index.
pub async fn problems(domain: &Domain, user: &User) -> Result<Vec<Listed>> {
    access::require_teacher(user)?;
    let names: std::collections::BTreeMap<i64, String> = domain
        .store
        .users()
        .await?
        .into_iter()
        .map(|u| (u.id, u.name))
        .collect();
    Ok(domain
        .problems
        .list()
        .into_iter()
        .map(|entry| Listed {
            owner: entry.owner.and_then(|id| names.get(&id).cloned()),
            export: access::may_export(user, entry.owner),
            rejudge_all: access::owns(user, entry.owner),
            entry,
        })
        .collect())
}

/// Queues a submission the caller (a teacher) may see again.
pub async fn rejudge(domain: &Domain, user: &User, id: i64) -> Result<()> {
    access::require_teacher(user)?;
    super::submissions::visible(domain, user, id).await?;
    if !domain.store.rejudge(id).await? {
        return Err(Error::NotFound(format!("submission {id}")));
    }
    domain.queued.notify_one();
    Ok(())
}

/// Queues the submissions of a problem again (after a new version, say), behind fresh ones: for
/// its owner, those they may see (their own and their courses'); for an admin, all. Returns how
/// many.
pub async fn rejudge_problem(domain: &Domain, user: &User, slug: &str) -> Result<u64> {
    access::require_teacher(user)?;
    if !access::owns_problem(domain, user, slug).await? {
        return Err(Error::Forbidden(
            "only the problem's owner or an admin rejudges all of it",
        ));
    }
    let scope = access::visible_submissions(user, None).and_then(|query| query.teacher);
    let queued = domain.store.rejudge_problem(slug, scope).await?;
    domain.queued.notify_waiters();
    Ok(queued)
}
