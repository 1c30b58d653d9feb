//! Teachers' work on problems: packages in (within each owner's quota), packages out, variants
//! of built-in games, drafts and publishing, and judging submissions again.

use std::sync::Arc;

use grundy_problems::families::octal::{self, OctalRequest};
use grundy_problems::spec::MAX_TEST_BYTES;
use grundy_problems::{PackageError, Problem, VariantRequest};
use grundy_store::{NewCustomProblem, Put, User};

use super::problems::visible;
use super::{Domain, Error, Result, access};
use crate::clock::now_ms;
use crate::registry::{self, Entry, Origin};

/// Stores a new custom problem (a draft), or a new version of one the caller owns, within the
/// owner's quota, and offers it.
async fn store_problem(
    domain: &Domain,
    user: &User,
    problem: Problem,
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
    let quota = domain
        .policy
        .problem_quota_bytes
        .map(|q| i64::try_from(q).unwrap_or(i64::MAX));
    // A family's tests are generated into the judge's cache when first judged: they are measured
    // now, for the version about to be stored (the generators are seeded by it), and charged
    // with the rest, so that no submission makes the cache grow past what was charged.
    let predicted = match domain.store.custom_problem_info(&slug).await? {
        Some(info) => info.version.saturating_add(1),
        None => 1,
    };
    let (mut problem, unpacked_bytes) = match problem.unpacked_bytes() {
        Some(bytes) => (problem, i64::try_from(bytes).unwrap_or(i64::MAX)),
        None => {
            let used = domain.store.custom_problem_usage(user.id, &slug).await?;
            let left = quota.map_or(i64::MAX, |q| q - used - content.len() as i64);
            let limit = MAX_TEST_BYTES.min(u64::try_from(left).unwrap_or(0));
            let (problem, bytes) = generated_bytes(problem, predicted, limit).await?;
            let Some(bytes) = bytes else {
                return Err(if limit == MAX_TEST_BYTES {
                    Error::Invalid(format!(
                        "the tests of {slug:?} come to more than {} MiB, the most a problem's tests may take; give it fewer tests or smaller ones",
                        MAX_TEST_BYTES >> 20
                    ))
                } else {
                    Error::Conflict(tests_over_quota(used, limit, quota))
                });
            };
            (problem, i64::try_from(bytes).unwrap_or(i64::MAX))
        }
    };
    let new = NewCustomProblem {
        slug: &slug,
        origin: origin.as_str(),
        owner: user.id,
        content,
        unpacked_bytes,
        now: now_ms(),
    };
    let (version, published) = match domain.store.put_custom_problem(&new, quota).await? {
        Put::Stored { version, published } => (version, published),
        Put::OverQuota { used } => {
            return Err(Error::Conflict(over_quota(used, new.charge(), quota)));
        }
    };
    if version != predicted && problem.is_family_backed() {
        // Another version of the slug was stored meanwhile: this one's tests are not those
        // measured. They are measured again and the charge corrected, past the quota at worst
        // by the difference between two draws of the same generators.
        let (measured, bytes) = generated_bytes(problem, version, u64::MAX).await?;
        problem = measured;
        let bytes = bytes.map_or(i64::MAX, |b| i64::try_from(b).unwrap_or(i64::MAX));
        domain
            .store
            .set_unpacked_bytes(&slug, version, bytes)
            .await?;
    }
    problem.spec.version = u32::try_from(version)
        .map_err(|_| Error::Internal(format!("version {version} of {slug}")))?;
    let digest = grundy_judge::testset::digest(&problem);
    registry::record_version(&domain.store, &problem, origin, digest).await?;
    let entry = domain.problems.insert(problem, origin, user.id, published);
    tracing::info!(slug = %slug, version, origin = origin.as_str(), user = %user.name, published, "problem stored");
    Ok(entry)
}

/// What a family problem's samples and tests come to at `version`, generated off the async
/// threads; `None` past `limit` (see [`Problem::test_bytes_within`]).
pub(crate) async fn generated_bytes(
    mut problem: Problem,
    version: i64,
    limit: u64,
) -> Result<(Problem, Option<u64>)> {
    problem.spec.version =
        u32::try_from(version).map_err(|_| Error::Internal(format!("version {version}")))?;
    tokio::task::spawn_blocking(move || {
        let bytes = problem.test_bytes_within(limit);
        (problem, bytes)
    })
    .await
    .map_err(|e| super::error::thread("measuring generated tests", e))
}

/// MiB to one decimal.
fn mib(bytes: i64) -> String {
    format!("{:.1}", bytes as f64 / f64::from(1 << 20))
}

/// Why a problem does not fit in its owner's quota, in MiB.
fn over_quota(used: i64, needed: i64, quota: Option<i64>) -> String {
    format!(
        "over your quota: your other problems take {} MiB of your {} MiB, and this one \
         needs {} MiB (as stored, plus its files unpacked or its tests generated); upload a \
         smaller version of one of yours, or ask the service's operator for a larger quota",
        mib(used),
        mib(quota.unwrap_or(i64::MAX)),
        mib(needed)
    )
}

/// Why a family problem's generated tests do not fit in what its owner's quota leaves.
fn tests_over_quota(used: i64, left: u64, quota: Option<i64>) -> String {
    format!(
        "over your quota: your other problems take {} MiB of your {} MiB, and the tests this \
         one generates come to more than the {} MiB left; give it fewer tests or smaller ones, \
         or ask the service's operator for a larger quota",
        mib(used),
        mib(quota.unwrap_or(i64::MAX)),
        mib(i64::try_from(left).unwrap_or(i64::MAX))
    )
}

/// Reads a zipped package (off the async threads, its tests unpacked to disk) and stores it for
/// a teacher as a draft, or as a new version of theirs.
pub async fn add_package(
    domain: &Domain,
    user: &User,
    zip: impl AsRef<[u8]> + Send + 'static,
) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    let folder = domain
        .problems
        .unpack_folder()
        .ok_or_else(|| Error::Internal("packages arrive before the problems are loaded".into()))?
        .to_owned();
    let (problem, zip) = tokio::task::spawn_blocking(move || {
        let read = grundy_problems::read_zip_to(zip.as_ref(), &registry::package_limits(), &folder);
        (read, zip)
    })
    .await
    .map_err(|e| super::error::thread("reading a package", e))?;
    let problem = problem.map_err(|e| match e {
        PackageError::Io(e) => Error::Internal(format!("unpacking a package: {e}")),
        refused => Error::Invalid(refused.to_string()),
    })?;
    store_problem(domain, user, problem, Origin::Package, zip.as_ref()).await
}

/// Builds a variant of the built-in `base` as the request describes and stores it for a teacher
/// as a draft, or as a new version of theirs.
pub async fn add_variant(
    domain: &Domain,
    user: &User,
    base: &str,
    request: &VariantRequest,
) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    let base = visible(domain, Some(user), base).await?;
    let files = grundy_problems::variant(&base.problem, request)
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let problem =
        Problem::from_files(&request.slug, &files).map_err(|e| Error::Invalid(e.to_string()))?;
    let content = serde_json::to_vec(&files).map_err(|e| Error::Internal(e.to_string()))?;
    store_problem(domain, user, problem, Origin::Variant, &content).await
}

/// Makes a problem of the octal game `request.code` (its values computed, its period proven
/// where the theorem allows) and stores it for a teacher as a draft, or as a new version of
/// theirs. It is kept as a variant of the built-in octal games: its files, rebuilt from the code.
pub async fn add_octal(domain: &Domain, user: &User, request: OctalRequest) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    // Computing the values takes seconds for a long code (within octal::VALUES_BUDGET, which
    // leaves the rest of octal::REQUEST_BUDGET for measuring and storing): off the async threads.
    let (files, problem) = tokio::task::spawn_blocking(move || octal::problem(&request))
        .await
        .map_err(|e| super::error::thread("computing an octal game", e))?
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let content = serde_json::to_vec(&files).map_err(|e| Error::Internal(e.to_string()))?;
    store_problem(domain, user, problem, Origin::Variant, &content).await
}

/// Publishes a draft for everyone to see: its owner or an admin (again: nothing changes).
pub async fn publish(domain: &Domain, user: &User, slug: &str) -> Result<Arc<Entry>> {
    access::require_teacher(user)?;
    let entry = visible(domain, Some(user), slug).await?;
    if entry.origin == Origin::Builtin {
        return Err(Error::Conflict(format!(
            "{slug:?} is a built-in problem: it is published already"
        )));
    }
    if !access::may_publish(user, &entry) {
        return Err(Error::Forbidden(
            "only the problem's owner or an admin publishes it",
        ));
    }
    if !domain.store.publish_custom_problem(slug, now_ms()).await? {
        return Err(Error::NotFound(format!("problem {slug:?}")));
    }
    tracing::info!(slug, user = %user.name, "problem published");
    domain
        .problems
        .publish(slug)
        .ok_or_else(|| Error::NotFound(format!("problem {slug:?}")))
}

/// What an owner's problems take against their quota, and the quota.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    pub used_bytes: u64,
    pub quota_bytes: Option<u64>,
}

/// The caller's usage of their quota (for the upload page).
pub async fn usage(domain: &Domain, user: &User) -> Result<Usage> {
    access::require_teacher(user)?;
    let used = domain.store.custom_problem_usage(user.id, "").await?;
    Ok(Usage {
        used_bytes: u64::try_from(used).unwrap_or(0),
        quota_bytes: domain.policy.problem_quota_bytes,
    })
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
    let entry = visible(domain, Some(user), slug).await?;
    if !access::may_export(user, entry.owner) {
        return Err(Error::Forbidden(
            "only the problem's owner or an admin downloads its package",
        ));
    }
    let problem = entry.problem.clone();
    tokio::task::spawn_blocking(move || grundy_problems::write_zip(&problem))
        .await
        .map_err(|e| super::error::thread("writing a package", e))?
        // What it is (a family's own checker, say) does not fit the package format.
        .map_err(|e| Error::Conflict(e.to_string()))
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
    /// Whether the caller may publish it (a draft of theirs, or any draft for an admin).
    pub publishable: bool,
}

/// Every problem the caller sees, for the teachers' index.
pub async fn problems(domain: &Domain, user: &User) -> Result<Vec<Listed>> {
    access::require_teacher(user)?;
    let sight = access::problem_sight(domain, Some(user)).await?;
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
        .filter(|entry| sight.sees(entry))
        .map(|entry| Listed {
            owner: entry.owner.and_then(|id| names.get(&id).cloned()),
            export: access::may_export(user, entry.owner),
            rejudge_all: access::owns(user, entry.owner),
            publishable: !entry.published && access::may_publish(user, &entry),
            entry,
        })
        .collect())
}

/// Queues a submission the caller (a teacher) may see again.
pub async fn rejudge(domain: &Domain, user: &User, id: i64) -> Result<()> {
    access::require_teacher(user)?;
    super::submissions::visible(domain, user, id).await?;
    if !domain.store.rejudge(id, domain.now()).await? {
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
    let queued = domain
        .store
        .rejudge_problem(slug, scope, domain.now())
        .await?;
    domain.queued.notify_waiters();
    Ok(queued)
}
