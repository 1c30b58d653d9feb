//! The problems the service offers: the built-in catalogue plus the problems teachers created
//! (uploaded packages and variants), which live in the database and are loaded the same way on
//! every node. Statements are rendered to HTML once, when a problem is loaded.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use grundy_problems::{Catalogue, Problem, ReadLimits};
use grundy_store::{CustomProblem, ProblemVersion, Store, StoreError};

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
    /// Rendered statements by language.
    pub html: BTreeMap<String, String>,
}

impl Entry {
    fn new(problem: Problem, origin: Origin, owner: Option<i64>) -> Entry {
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
            html,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Limits on uploaded packages, unpacked.
pub fn package_limits() -> ReadLimits {
    ReadLimits {
        max_total_bytes: 256 << 20,
        max_files: 2000,
    }
}

/// Builds a stored custom problem; its stored version becomes the problem's version.
pub fn build(custom: &CustomProblem) -> Result<(Problem, Origin), RegistryError> {
    let (mut problem, origin) = match custom.origin.as_str() {
        "package" => (
            grundy_problems::read_zip(&custom.content, &package_limits())
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

/// Built-in problems never change while the process runs; custom ones are replaced by version.
#[derive(Debug, Default)]
pub struct Problems {
    builtin: Vec<Arc<Entry>>,
    custom: RwLock<BTreeMap<String, Arc<Entry>>>,
}

impl Problems {
    pub fn new(catalogue: Catalogue) -> Problems {
        Problems {
            builtin: catalogue
                .into_problems()
                .into_iter()
                .map(|p| Arc::new(Entry::new(p, Origin::Builtin, None)))
                .collect(),
            custom: RwLock::default(),
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

    /// Adds a custom problem, or replaces an older version of it; returns what is offered now
    /// (a racing newer version stays).
    pub fn insert(&self, problem: Problem, origin: Origin, owner: i64) -> Arc<Entry> {
        let entry = Arc::new(Entry::new(problem, origin, Some(owner)));
        let mut custom = self.custom.write().expect("registry lock");
        let slot = custom
            .entry(entry.problem.slug().to_owned())
            .or_insert_with(|| entry.clone());
        if slot.problem.spec.version < entry.problem.spec.version {
            *slot = entry;
        }
        slot.clone()
    }

    /// Loads every custom problem from the store. One that no longer loads (a format this
    /// version refuses) is logged and left out rather than stopping the service.
    async fn load_custom(&self, store: &Store) -> Result<usize, StoreError> {
        let mut loaded = 0;
        for custom in store.custom_problems().await? {
            match build(&custom) {
                Ok((problem, origin)) => {
                    self.insert(problem, origin, custom.owner_id);
                    loaded += 1;
                }
                Err(e) => {
                    tracing::error!(slug = %custom.slug, error = %e, "custom problem not loaded")
                }
            }
        }
        Ok(loaded)
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
        let Some(version) = store.custom_problem_version(slug).await? else {
            return Ok(None);
        };
        if let Some(entry) = self.get(slug)
            && i64::from(entry.problem.spec.version) == version
        {
            return Ok(Some(entry));
        }
        let Some(custom) = store.custom_problem(slug).await? else {
            return Ok(None);
        };
        let owner = custom.owner_id;
        // Unpacking a package of megabytes is no work for the async threads.
        let (problem, origin) = tokio::task::spawn_blocking(move || build(&custom))
            .await
            .map_err(|e| RegistryError::Invalid(format!("loading {slug}: {e}")))??;
        Ok(Some(self.insert(problem, origin, owner)))
    }

    /// Records the built-in problems' versions (a changed problem must have a new one) and loads
    /// the problems teachers created; returns how many of those.
    pub async fn load(&self, store: &Store) -> Result<usize, StoreError> {
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
