//! The problems the service offers: the built-in catalogue plus the problems teachers created
//! (uploaded packages and variants), which live in the database and are loaded the same way on
//! every node. Statements are rendered to HTML once, when a problem is loaded. A package's tests
//! are unpacked to disk (see [`Problems::load`]), so memory holds only what pages show.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io;
use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

use grundy_problems::{Catalogue, Problem, ReadLimits};
use grundy_store::{CustomProblem, CustomProblemInfo, ProblemVersion, Store, StoreError};

use crate::clock::now_ms;

/// Where a problem comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    Package,
    Variant,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Builtin => "builtin",
            Origin::Package => "package",
            Origin::Variant => "variant",
        }
    }
}

/// A loaded problem with what the API serves of it.
#[derive(Debug)]
pub struct Entry {
    pub problem: Arc<Problem>,
    pub origin: Origin,
    /// The creator of a custom problem.
    pub owner: Option<i64>,
    /// Built-in problems are; a custom one is a draft until it is published (see
    /// [`crate::domain::access::ProblemSight`] for who sees a draft).
    pub published: bool,
    /// Rendered statements by language.
    pub html: BTreeMap<String, String>,
}

impl Entry {
    fn new(problem: Problem, origin: Origin, owner: Option<i64>, published: bool) -> Entry {
        let html = problem
            .statement_languages()
            .map(|lang| {
                let markdown = problem.statement(lang).unwrap_or_default();
                (lang.to_owned(), grundy_statement::render(markdown).html)
            })
            .collect();
        Entry {
            problem: Arc::new(problem),
            origin,
            owner,
            published,
            html,
        }
    }

    /// The same problem, published.
    fn to_published(&self) -> Entry {
        Entry {
            problem: self.problem.clone(),
            origin: self.origin,
            owner: self.owner,
            published: true,
            html: self.html.clone(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the folder of unpacked packages: {0}")]
    Io(#[from] io::Error),
}

/// Limits on uploaded packages, unpacked: the defaults (see [`ReadLimits`]), with fewer files.
pub fn package_limits() -> ReadLimits {
    ReadLimits {
        max_files: 2000,
        ..ReadLimits::default()
    }
}

/// Builds a stored custom problem, a package's tests unpacked into a folder of their own inside
/// `folder`; its stored version becomes the problem's version.
pub fn build(custom: &CustomProblem, folder: &Path) -> Result<(Problem, Origin), RegistryError> {
    let (mut problem, origin) = match custom.origin.as_str() {
        "package" => (
            grundy_problems::read_zip_to(&custom.content, &package_limits(), folder)
                .map_err(|e| RegistryError::Invalid(e.to_string()))?,
            Origin::Package,
        ),
        "variant" => {
            let files: BTreeMap<String, String> = serde_json::from_slice(&custom.content)
                .map_err(|e| RegistryError::Invalid(format!("stored variant: {e}")))?;
            (
                Problem::from_files(&custom.slug, &files)
                    .map_err(|e| RegistryError::Invalid(e.to_string()))?,
                Origin::Variant,
            )
        }
        other => return Err(RegistryError::Invalid(format!("unknown origin {other:?}"))),
    };
    if problem.slug() != custom.slug {
        return Err(RegistryError::Invalid(format!(
            "the package names the slug {:?}, but it is stored as {:?}",
            problem.slug(),
            custom.slug
        )));
    }
    problem.spec.version = u32::try_from(custom.version)
        .map_err(|_| RegistryError::Invalid(format!("version {}", custom.version)))?;
    Ok((problem, origin))
}

/// This process's own folder for unpacked packages, inside the folder it is given. It holds a
/// lock while the process lives: processes sharing a data directory keep apart, and a start
/// removes the folders of processes that died without removing their own.
#[derive(Debug)]
struct Unpacked {
    dir: tempfile::TempDir,
    _lock: File,
}

impl Unpacked {
    const PREFIX: &str = "grundy-process-";

    fn claim(parent: &Path) -> io::Result<Unpacked> {
        fs::create_dir_all(parent)?;
        for entry in fs::read_dir(parent)? {
            let path = entry?.path();
            let ours = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(Self::PREFIX));
            // A folder whose lock nobody holds belongs to a process that is gone.
            if ours
                && let Ok(lock) = File::open(path.join("lock"))
                && lock.try_lock().is_ok()
            {
                tracing::info!(folder = %path.display(), "removing a stopped process's packages");
                fs::remove_dir_all(&path)?;
            }
        }
        // Locked before it takes a name that others look at.
        let staging = tempfile::Builder::new()
            .prefix(".new-")
            .tempdir_in(parent)?;
        let lock = File::create(staging.path().join("lock"))?;
        lock.lock()?;
        let named = tempfile::Builder::new()
            .prefix(Self::PREFIX)
            .tempdir_in(parent)?;
        fs::rename(staging.keep(), named.path())?;
        Ok(Unpacked {
            dir: named,
            _lock: lock,
        })
    }
}

/// Built-in problems never change while the process runs; custom ones are replaced by version.
#[derive(Debug, Default)]
pub struct Problems {
    builtin: Vec<Arc<Entry>>,
    custom: RwLock<BTreeMap<String, Arc<Entry>>>,
    /// Where packages' tests are unpacked, from [`Problems::load`] on. Last, so that the problems
    /// (and their folders inside it) go first.
    unpacked: OnceLock<Unpacked>,
}

impl Problems {
    pub fn new(catalogue: Catalogue) -> Problems {
        Problems {
            builtin: catalogue
                .into_problems()
                .into_iter()
                .map(|p| Arc::new(Entry::new(p, Origin::Builtin, None, true)))
                .collect(),
            custom: RwLock::default(),
            unpacked: OnceLock::new(),
        }
    }

    /// Built-in problems in catalogue order, then custom ones by slug.
    pub fn list(&self) -> Vec<Arc<Entry>> {
        let custom = self.custom.read().expect("registry lock");
        self.builtin
            .iter()
            .cloned()
            .chain(custom.values().cloned())
            .collect()
    }

    pub fn get(&self, slug: &str) -> Option<Arc<Entry>> {
        self.builtin
            .iter()
            .find(|e| e.problem.slug() == slug)
            .cloned()
            .or_else(|| {
                self.custom
                    .read()
                    .expect("registry lock")
                    .get(slug)
                    .cloned()
            })
    }

    pub fn is_builtin(&self, slug: &str) -> bool {
        self.builtin.iter().any(|e| e.problem.slug() == slug)
    }

    /// Whether any problem is a draft (most of the time none is, and nobody's sight needs
    /// working out).
    pub fn has_drafts(&self) -> bool {
        self.custom
            .read()
            .expect("registry lock")
            .values()
            .any(|e| !e.published)
    }

    /// Where packages' tests are unpacked (`None` before [`Problems::load`]).
    pub fn unpack_folder(&self) -> Option<&Path> {
        self.unpacked.get().map(|u| u.dir.path())
    }

    /// Adds a custom problem, or replaces an older version of it; returns what is offered now
    /// (a racing newer version stays). Publishing is for good: a new version of a published
    /// problem is published.
    pub fn insert(
        &self,
        problem: Problem,
        origin: Origin,
        owner: i64,
        published: bool,
    ) -> Arc<Entry> {
        let mut custom = self.custom.write().expect("registry lock");
        let slug = problem.slug().to_owned();
        let published = published || custom.get(&slug).is_some_and(|e| e.published);
        let entry = Arc::new(Entry::new(problem, origin, Some(owner), published));
        let slot = custom.entry(slug).or_insert_with(|| entry.clone());
        if slot.problem.spec.version < entry.problem.spec.version {
            *slot = entry;
        }
        slot.clone()
    }

    /// Marks a custom problem published; `None` when it is not loaded.
    pub fn publish(&self, slug: &str) -> Option<Arc<Entry>> {
        let mut custom = self.custom.write().expect("registry lock");
        let slot = custom.get_mut(slug)?;
        if !slot.published {
            *slot = Arc::new(slot.to_published());
        }
        Some(slot.clone())
    }

    /// Loads every custom problem from the store, one at a time (a package's content is dropped
    /// once its tests are unpacked). One that no longer loads (a format this version refuses) is
    /// logged and left out rather than stopping the service.
    async fn load_custom(&self, store: &Store) -> Result<usize, RegistryError> {
        let mut loaded = 0;
        for info in store.custom_problem_infos().await? {
            match self.load_one(store, &info).await {
                Ok(Some(_)) => loaded += 1,
                Ok(None) => {}
                Err(RegistryError::Invalid(e)) => {
                    tracing::error!(slug = %info.slug, error = %e, "custom problem not loaded")
                }
                Err(e) => return Err(e),
            }
        }
        Ok(loaded)
    }

    /// Builds a stored custom problem (off the async threads: a package's tests are unpacked
    /// to disk) and offers it; `None` when it is gone meanwhile.
    async fn load_one(
        &self,
        store: &Store,
        info: &CustomProblemInfo,
    ) -> Result<Option<Arc<Entry>>, RegistryError> {
        let Some(custom) = store.custom_problem(&info.slug).await? else {
            return Ok(None);
        };
        let folder = self
            .unpack_folder()
            .ok_or_else(|| RegistryError::Invalid("the problems are not loaded yet".into()))?
            .to_owned();
        let slug = info.slug.clone();
        // Variants stored before their generated tests were charged have none recorded: they
        // are measured once, here, at the stored version (a draw of at most MAX_TESTS tests).
        let uncharged = info.unpacked_bytes == 0;
        let (problem, origin, generated) = tokio::task::spawn_blocking(move || {
            let (problem, origin) = build(&custom, &folder)?;
            let generated = (uncharged && problem.is_family_backed())
                .then(|| problem.test_bytes_within(u64::MAX))
                .flatten();
            Ok::<_, RegistryError>((problem, origin, generated))
        })
        .await
        .map_err(|e| RegistryError::Invalid(format!("loading {slug}: {e}")))??;
        // Problems stored before their unpacked (or generated) size was recorded: record it
        // now, so the quota counts it.
        if let Some(unpacked) = problem
            .unpacked_bytes()
            .or(generated)
            .and_then(|b| i64::try_from(b).ok())
            && unpacked != info.unpacked_bytes
        {
            store
                .set_unpacked_bytes(&info.slug, info.version, unpacked)
                .await?;
        }
        Ok(Some(self.insert(
            problem,
            origin,
            info.owner_id,
            info.published_at.is_some(),
        )))
    }

    /// The problem as the store has it now: a worker on another machine learns of uploads and
    /// new versions here, before judging.
    pub async fn resolve(
        &self,
        store: &Store,
        slug: &str,
    ) -> Result<Option<Arc<Entry>>, RegistryError> {
        if let Some(entry) = self.builtin.iter().find(|e| e.problem.slug() == slug) {
            return Ok(Some(entry.clone()));
        }
        // The version alone first: the content (a package of megabytes) only when it changed.
        let Some(info) = store.custom_problem_info(slug).await? else {
            return Ok(None);
        };
        if let Some(entry) = self.get(slug)
            && i64::from(entry.problem.spec.version) == info.version
        {
            return Ok(Some(entry));
        }
        self.load_one(store, &info).await
    }

    /// Claims a folder of this process's own inside `folder` for unpacked packages (removing
    /// those of processes that are gone), records the built-in problems' versions (a changed
    /// problem must have a new one) and loads the problems teachers created; returns how many of
    /// those. Later uploads are unpacked into the same folder.
    pub async fn load(&self, store: &Store, folder: &Path) -> Result<usize, RegistryError> {
        if self.unpacked.get().is_none() {
            let claimed = Unpacked::claim(folder)?;
            tracing::info!(folder = %claimed.dir.path().display(), "packages are unpacked here");
            // A racing load claimed one first: this one is removed again.
            let _ = self.unpacked.set(claimed);
        }
        self.record_builtin_versions(store).await?;
        self.load_custom(store).await
    }

    /// Records the version of every built-in problem (a changed problem must have a new one).
    async fn record_builtin_versions(&self, store: &Store) -> Result<(), StoreError> {
        for entry in &self.builtin {
            let digest = grundy_judge::testset::digest(&entry.problem);
            record_version(store, &entry.problem, Origin::Builtin, digest).await?;
        }
        Ok(())
    }
}

/// Records a problem version with the digest of its tests ([`grundy_judge::testset::digest`];
/// a package's takes a moment, so the caller chooses where to compute it).
pub async fn record_version(
    store: &Store,
    problem: &Problem,
    origin: Origin,
    digest: String,
) -> Result<(), StoreError> {
    store
        .record_problem_version(&ProblemVersion {
            slug: problem.slug().to_owned(),
            version: i64::from(problem.spec.version),
            digest,
            origin: origin.as_str().into(),
            created_at: now_ms(),
        })
        .await
}
