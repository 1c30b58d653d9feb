//! `grundy problems …`: the catalogue from the terminal.

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use comfy_table::{Cell, Color, Table, presets::UTF8_FULL_CONDENSED};
use grundy_problems::spec::{Difficulty, MAX_TEST_BYTES};
use grundy_problems::verify::{self, Report};
use grundy_problems::{Catalogue, Problem};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use crate::setup::{DataArgs, load_catalogue, runtime};
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the problems as a table.
    List {
        /// Only problems with this tag.
        #[arg(long)]
        tag: Option<String>,
        /// Only problems of this difficulty.
        #[arg(long, value_enum)]
        difficulty: Option<DifficultyArg>,
    },
    /// Print a problem's statement, limits and samples.
    Show {
        slug: String,
        /// Statement language (en, vi).
        #[arg(long, default_value = "en")]
        lang: String,
    },
    /// Write the generated tests as <DIR>/<number>-<subtask name>/NN.in and NN.ans, and the
    /// samples as <DIR>/samples/<name>.in and .ans; at most 64 MiB of tests (a problem's most),
    /// one test in memory at a time.
    Tests {
        slug: String,
        #[arg(long)]
        out: PathBuf,
    },
    /// Read a test input on stdin, validate it, and print the reference answer.
    Solve { slug: String },
    /// Check every problem (or one): tests valid, reference agrees with brute force and closed
    /// forms, samples reproduce. Exits non-zero on any failure.
    Verify { slug: Option<String> },
    /// Write a problem as a Kattis/ICPC problem package (zip), with all its tests, for DOMjudge
    /// or Kattis. Problems created in the service are looked up in its database.
    Export {
        slug: String,
        #[arg(long, env = "GRUNDY_EXPORT_OUT")]
        out: PathBuf,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Check a Kattis/ICPC problem package (zip) and add it to the service's database (a new
    /// version if the slug exists and belongs to the same owner). A running `grundy serve`
    /// offers it after a restart; `POST /api/v1/problems` adds one at once.
    Import {
        file: PathBuf,
        /// The teacher or admin who owns it.
        #[arg(long, env = "GRUNDY_IMPORT_OWNER", default_value = "admin")]
        owner: String,
        #[command(flatten)]
        data: DataArgs,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum DifficultyArg {
    Easy,
    Medium,
    Hard,
}

impl DifficultyArg {
    fn matches(self, difficulty: Difficulty) -> bool {
        matches!(
            (self, difficulty),
            (DifficultyArg::Easy, Difficulty::Easy)
                | (DifficultyArg::Medium, Difficulty::Medium)
                | (DifficultyArg::Hard, Difficulty::Hard)
        )
    }
}

/// Runs a `grundy problems` command on the built-in catalogue, or on the problem folders under
/// `problems_dir`.
pub fn run(problems_dir: Option<&Path>, command: Command) -> Result<ExitCode> {
    let catalogue = load_catalogue(problems_dir)?;
    let command = match command {
        Command::Export { slug, out, data } => return export(&catalogue, &slug, &out, &data),
        Command::Import { file, owner, data } => return import(&catalogue, &file, &owner, &data),
        other => other,
    };
    let find = |slug: &str| -> Result<&Problem> {
        catalogue
            .get(slug)
            .with_context(|| format!("no problem named {slug:?} (see `grundy problems list`)"))
    };
    match command {
        Command::List { tag, difficulty } => list(&catalogue, tag.as_deref(), difficulty),
        Command::Show { slug, lang } => show(find(&slug)?, &lang),
        Command::Tests { slug, out } => write_tests(find(&slug)?, &out),
        Command::Solve { slug } => solve(find(&slug)?),
        Command::Verify { slug } => match slug {
            Some(slug) => verify_all(&[find(&slug)?]),
            None => verify_all(&catalogue.iter().collect::<Vec<_>>()),
        },
        Command::Export { .. } | Command::Import { .. } => unreachable!("handled above"),
    }
}

fn export(catalogue: &Catalogue, slug: &str, out: &Path, data: &DataArgs) -> Result<ExitCode> {
    let zip = match catalogue.get(slug) {
        Some(problem) => grundy_problems::write_zip(problem)?,
        None => {
            if data.database_url.is_none() && !data.data_dir.exists() {
                bail!("no problem named {slug:?} (see `grundy problems list`)");
            }
            runtime()?.block_on(async {
                let store = data.open().await?;
                let stored = store.custom_problem(slug).await?;
                store.close().await;
                let stored = stored.with_context(|| format!("no problem named {slug:?}"))?;
                let unpacked = tempfile::tempdir()?;
                let (problem, _) = grundy_server::registry::build(&stored, unpacked.path())?;
                Ok::<_, anyhow::Error>(grundy_problems::write_zip(&problem)?)
            })?
        }
    };
    std::fs::write(out, &zip).with_context(|| format!("writing {}", out.display()))?;
    eprintln!("wrote {slug} to {} ({} bytes)", out.display(), zip.len());
    Ok(ExitCode::SUCCESS)
}

fn import(catalogue: &Catalogue, file: &Path, owner: &str, data: &DataArgs) -> Result<ExitCode> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let mut problem = grundy_problems::read_zip(&bytes, &grundy_server::registry::package_limits())
        .with_context(|| format!("{} is not a usable problem package", file.display()))?;
    let slug = problem.slug().to_owned();
    if catalogue.get(&slug).is_some() {
        bail!("{slug:?} is a built-in problem; give the package another slug");
    }
    runtime()?.block_on(async {
        let store = data.open().await?;
        let user = store
            .user_by_name(owner)
            .await?
            .with_context(|| format!("no user named {owner:?}"))?;
        if user.role == grundy_store::Role::Student {
            bail!("{owner:?} is a student; problems belong to teachers or admins");
        }
        let new = grundy_store::NewCustomProblem {
            slug: &slug,
            origin: "package",
            owner: user.id,
            content: &bytes,
            unpacked_bytes: i64::try_from(problem.unpacked_bytes().unwrap_or(0))?,
            now: grundy_server::now_ms(),
        };
        // The operator's import is not held to the owner's quota.
        let (version, published) = match store.put_custom_problem(&new, None).await? {
            grundy_store::Put::Stored { version, published } => (version, published),
            grundy_store::Put::OverQuota { used } => {
                bail!("{owner:?}'s problems already take {used} bytes")
            }
        };
        problem.spec.version = u32::try_from(version)?;
        grundy_server::registry::record_version(
            &store,
            &problem,
            grundy_server::registry::Origin::Package,
            grundy_judge::testset::digest(&problem),
        )
        .await?;
        store.close().await;
        println!(
            "imported {slug} version {version}: {} tests, {} samples",
            problem.test_count(),
            problem.samples.len()
        );
        if !published {
            println!(
                "{slug} is a draft: {owner} publishes it on /teach or with \
                 POST /api/v1/problems/{slug}/publish"
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}

fn list(
    catalogue: &Catalogue,
    tag: Option<&str>,
    difficulty: Option<DifficultyArg>,
) -> Result<ExitCode> {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header([
        "slug",
        "title",
        "difficulty",
        "tags",
        "time",
        "memory",
        "subtasks",
        "tests",
    ]);
    let mut shown = 0;
    for problem in catalogue.iter() {
        let spec = &problem.spec;
        if tag.is_some_and(|t| !spec.tags.iter().any(|x| x == t))
            || difficulty.is_some_and(|d| !d.matches(spec.difficulty))
        {
            continue;
        }
        shown += 1;
        table.add_row([
            spec.slug.clone(),
            problem.title("en").to_string(),
            spec.difficulty.as_str().to_string(),
            spec.tags.join(", "),
            format!("{} ms", spec.time_limit_ms),
            format!("{} MiB", spec.memory_limit_mib),
            spec.subtasks.len().to_string(),
            problem.test_count().to_string(),
        ]);
    }
    println!("{table}");
    println!("{shown} of {} problems", catalogue.len());
    Ok(ExitCode::SUCCESS)
}

fn show(problem: &Problem, lang: &str) -> Result<ExitCode> {
    let Some(statement) = problem.statement(lang) else {
        let available: Vec<&str> = problem.statement_languages().collect();
        bail!(
            "{} has no statement in {lang:?} (available: {})",
            problem.slug(),
            available.join(", ")
        );
    };
    let spec = &problem.spec;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", statement.trim_end())?;
    writeln!(out)?;
    writeln!(
        out,
        "Limits: {} ms, {} MiB. Difficulty: {}. Tags: {}.",
        spec.time_limit_ms,
        spec.memory_limit_mib,
        spec.difficulty.as_str(),
        spec.tags.join(", ")
    )?;
    if let Some(source) = &spec.source {
        writeln!(out, "Format: {source}.")?;
    }
    for sample in &problem.samples {
        writeln!(
            out,
            "\n--- sample {} input ---\n{}--- sample {} output ---\n{}",
            sample.name, sample.input, sample.name, sample.answer
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_tests(problem: &Problem, out: &Path) -> Result<ExitCode> {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
    };
    let samples = out.join("samples");
    std::fs::create_dir_all(&samples).with_context(|| format!("creating {}", samples.display()))?;
    for sample in &problem.samples {
        write(&samples.join(format!("{}.in", sample.name)), &sample.input)?;
        write(
            &samples.join(format!("{}.ans", sample.name)),
            &sample.answer,
        )?;
    }
    let mut written = 0;
    // What a problem's tests may take (as the service holds variants to it): a problem folder
    // asking for more is refused as soon as it passes that, its files so far left to look at.
    let mut bytes = 0u64;
    for test in problem.tests() {
        bytes += (test.input.len() + test.answer.len()) as u64;
        if bytes > MAX_TEST_BYTES {
            bail!(
                "the tests of {} come to more than {} MiB, the most a problem's tests may take; \
                 stopped after {written} tests in {}",
                problem.slug(),
                MAX_TEST_BYTES >> 20,
                out.display()
            );
        }
        let subtask = &problem.spec.subtasks[test.subtask - 1];
        let dir = out.join(format!("{}-{}", test.subtask, subtask.name));
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        // Wide enough that the names sort in test order.
        let width = subtask.tests.to_string().len().max(2);
        write(&dir.join(format!("{:0width$}.in", test.index)), &test.input)?;
        write(
            &dir.join(format!("{:0width$}.ans", test.index)),
            &test.answer,
        )?;
        written += 1;
    }
    eprintln!(
        "wrote {written} tests and {} samples of {} to {}",
        problem.samples.len(),
        problem.slug(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn solve(problem: &Problem) -> Result<ExitCode> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .context("reading standard input")?;
    let input = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
            eprintln!("invalid input: line {line}: the input is not UTF-8 text");
            return Ok(ExitCode::FAILURE);
        }
    };
    let Some(solver) = problem.solver() else {
        bail!(
            "{} is an uploaded package: it has tests but no reference solver",
            problem.slug()
        );
    };
    match solver.solve_text(&input) {
        Ok(answer) => {
            std::io::stdout().lock().write_all(answer.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("invalid input: {error}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn verify_all(problems: &[&Problem]) -> Result<ExitCode> {
    let total: u64 = problems.iter().map(|p| verify::work_units(p)).sum();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}")
            .expect("a valid template"),
    );
    let mut reports: Vec<Report> = Vec::new();
    for problem in problems {
        bar.set_message(problem.slug().to_string());
        reports.push(verify::verify(problem, &mut || bar.inc(1)));
    }
    bar.finish_and_clear();

    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header([
        "problem",
        "tests",
        "small positions",
        "samples",
        "agreements",
        "time",
        "result",
    ]);
    for report in &reports {
        let agreements: Vec<String> = report
            .agreements
            .iter()
            .map(|(method, n)| format!("{method}: {n}"))
            .collect();
        let result = if report.passed() {
            Cell::new("ok").fg(Color::Green)
        } else {
            Cell::new(format!("{} failures", report.failures.len())).fg(Color::Red)
        };
        table.add_row(vec![
            Cell::new(&report.slug),
            Cell::new(report.tests),
            Cell::new(report.small_positions),
            Cell::new(report.samples),
            Cell::new(agreements.join("\n")),
            Cell::new(format!("{:.2?}", report.elapsed)),
            result,
        ]);
    }
    println!("{table}");
    let failed: Vec<&Report> = reports.iter().filter(|r| !r.passed()).collect();
    for report in &failed {
        for failure in report.failures.iter().take(20) {
            eprintln!("{}: {failure}", report.slug);
        }
        if report.failures.len() > 20 {
            eprintln!("{}: … and {} more", report.slug, report.failures.len() - 20);
        }
    }
    if failed.is_empty() {
        println!("all {} problems verified", reports.len());
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "{} of {} problems failed verification",
            failed.len(),
            reports.len()
        );
        Ok(ExitCode::FAILURE)
    }
}
