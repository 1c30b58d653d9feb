//! What the commands start from: the problem catalogue, the data directory and its database,
//! the async runtime and logging.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use grundy_problems::Catalogue;
use grundy_store::Store;

/// The problems of a folder, or the built-in catalogue.
pub fn load_catalogue(problems_dir: Option<&Path>) -> Result<Catalogue> {
    Ok(match problems_dir {
        Some(dir) => Catalogue::from_dir(dir)
            .with_context(|| format!("loading problems from {}", dir.display()))?,
        None => Catalogue::builtin().context("loading the built-in catalogue")?,
    })
}

/// Where the service keeps its data.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Directory for the SQLite database, the test-set cache and unpacked packages (created if
    /// missing).
    #[arg(long, env = "GRUNDY_DATA_DIR", default_value = "grundy-data")]
    pub data_dir: PathBuf,
    /// `postgres://…` to use PostgreSQL instead of SQLite in the data directory.
    #[arg(long, env = "GRUNDY_DATABASE_URL")]
    pub database_url: Option<String>,
}

impl DataArgs {
    fn url(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| format!("sqlite:{}", self.data_dir.join("grundy.db").display()))
    }

    /// Where packages' tests are unpacked, each process in a folder of its own.
    pub(crate) fn packages_dir(&self) -> PathBuf {
        self.data_dir.join("packages")
    }

    pub(crate) async fn open(&self) -> Result<Store> {
        std::fs::create_dir_all(&self.data_dir)
            .with_context(|| format!("creating {}", self.data_dir.display()))?;
        Store::connect(&self.url())
            .await
            .with_context(|| format!("opening the database {}", redact(&self.url())))
    }
}

/// A database URL fit for logs: no password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://…@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// Logs to stderr, filtered by `GRUNDY_LOG` or else `default` (the service says what it does;
/// the other commands only what went wrong, such as a sandbox or checker failure in the judge).
pub(crate) fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("GRUNDY_LOG")
        .unwrap_or_else(|_| default.into());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
