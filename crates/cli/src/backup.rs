//! `grundy admin backup` and `grundy admin restore`: the whole database in one file, taken while
//! the service runs, and put back into an empty data directory or database. SQLite is copied
//! with `VACUUM INTO` (one consistent snapshot); PostgreSQL with its own `pg_dump` and
//! `pg_restore` (custom format), which must be on the `PATH`. Everything a submission needs is in
//! the database: problems teachers made are stored there, and tests are generated again.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::setup::{DataArgs, runtime};

#[derive(Debug, Args)]
pub struct BackupArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// The file to write; it must not exist.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// Where to restore: a data directory without a database yet, or an empty PostgreSQL
    /// database. Stop every process using it first.
    #[command(flatten)]
    pub data: DataArgs,
    /// A file `grundy admin backup` wrote.
    #[arg(long)]
    pub from: PathBuf,
}

pub fn backup(args: BackupArgs) -> Result<ExitCode> {
    if args.out.exists() {
        bail!(
            "{} exists: a backup never overwrites a file",
            args.out.display()
        );
    }
    match &args.data.database_url {
        Some(url) => pg_tool(
            "pg_dump",
            url,
            &[
                "--format=custom".as_ref(),
                "--no-owner".as_ref(),
                "--file".as_ref(),
                args.out.as_os_str(),
            ],
        )?,
        None => runtime()?.block_on(async {
            let store = args.data.open().await?;
            let copied = store.copy_sqlite(&args.out).await;
            store.close().await;
            copied.with_context(|| format!("writing {}", args.out.display()))
        })?,
    }
    // A backup that cannot be read is worse than none: open it once and count what it holds.
    let summary = match &args.data.database_url {
        Some(_) => pg_list(&args.out)?,
        None => runtime()?.block_on(sqlite_summary(&args.out))?,
    };
    println!("backed up to {}: {summary}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

pub fn restore(args: RestoreArgs) -> Result<ExitCode> {
    if !args.from.is_file() {
        bail!("{} is not a file", args.from.display());
    }
    match &args.data.database_url {
        Some(url) => pg_tool(
            "pg_restore",
            url,
            &[
                "--no-owner".as_ref(),
                "--exit-on-error".as_ref(),
                "--single-transaction".as_ref(),
                args.from.as_os_str(),
            ],
        )?,
        None => restore_sqlite(&args.from, &args.data.data_dir)?,
    }
    // Opening runs the migrations a backup from an earlier release lacks.
    let requeued = runtime()?.block_on(async {
        let store = args.data.open().await?;
        let requeued = store.requeue_claims(grundy_server::now_ms()).await;
        store.close().await;
        requeued.context("putting the submissions being judged back in the queue")
    })?;
    println!(
        "restored from {}; {requeued} submission(s) that were being judged are queued again",
        args.from.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Copies the backup into `data_dir` as its database, which must not exist yet: restoring over a
/// database a service may be writing would lose what it writes.
fn restore_sqlite(from: &Path, data_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    let database = data_dir.join("grundy.db");
    if database.exists() {
        bail!(
            "{} exists: restore into a data directory without a database (stop the service and move it away first)",
            database.display()
        );
    }
    // Copied beside it and renamed, so that a crash halfway leaves no half a database.
    let partial = data_dir.join("grundy.db.restoring");
    std::fs::copy(from, &partial).with_context(|| format!("copying {}", from.display()))?;
    std::fs::rename(&partial, &database)
        .with_context(|| format!("moving the copy to {}", database.display()))?;
    Ok(())
}

async fn sqlite_summary(path: &Path) -> Result<String> {
    let store = grundy_store::Store::open_sqlite(path)
        .await
        .with_context(|| format!("reading the backup {}", path.display()))?;
    let users = store.count_users().await;
    let queue = store.queue_depth().await;
    store.close().await;
    let waiting: i64 = queue?.iter().map(|class| class.queued).sum();
    Ok(format!(
        "{} accounts, {waiting} submissions waiting",
        users?
    ))
}

/// Runs one of PostgreSQL's tools with `args` on the database at `url`; the password goes to
/// the tool in its environment, not in its arguments, which other users of the machine can read.
fn pg_tool(tool: &str, url: &str, args: &[&OsStr]) -> Result<()> {
    let (url, password) = without_password(url);
    let mut command = Command::new(tool);
    command.arg("--dbname").arg(&url).args(args);
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    let status = command
        .status()
        .with_context(|| format!("running {tool} (PostgreSQL's client tools must be installed)"))?;
    if !status.success() {
        bail!("{tool} failed ({status})");
    }
    Ok(())
}

/// What a PostgreSQL backup holds, as `pg_restore --list` reads it.
fn pg_list(file: &Path) -> Result<String> {
    let listed = Command::new("pg_restore")
        .arg("--list")
        .arg(file)
        .output()
        .context("running pg_restore --list")?;
    if !listed.status.success() {
        bail!(
            "the backup cannot be read: {}",
            String::from_utf8_lossy(&listed.stderr).trim()
        );
    }
    let tables = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter(|line| line.contains(" TABLE DATA "))
        .count();
    Ok(format!("{tables} tables with their rows"))
}

/// `postgres://user:secret@host/db` as `postgres://user@host/db` and `secret`.
fn without_password(url: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_owned(), None);
    };
    let Some((credentials, host)) = rest.rsplit_once('@') else {
        return (url.to_owned(), None);
    };
    match credentials.split_once(':') {
        Some((user, password)) => (
            format!("{scheme}://{user}@{host}"),
            Some(password.to_owned()),
        ),
        None => (url.to_owned(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_leaves_the_url() {
        assert_eq!(
            without_password("postgres://grundy:s3cret@db:5432/grundy"),
            (
                "postgres://grundy@db:5432/grundy".to_owned(),
                Some("s3cret".to_owned())
            )
        );
        assert_eq!(
            without_password("postgres://postgres@127.0.0.1/test"),
            ("postgres://postgres@127.0.0.1/test".to_owned(), None)
        );
    }
}
