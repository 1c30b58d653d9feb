//! `grundy judge --explain` and `grundy stress`: the smallest game a program gets wrong, why the
//! right answer is right, and the classic mistake behind it.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use grundy_judge::explain::Explanation;
use indicatif::{ProgressBar, ProgressStyle};

use crate::judging::{SandboxArgs, default_cache_dir, named_problem, read_source};

/// Prints an explanation for a person.
pub fn print_explanation(explanation: &Explanation) {
    let (Some(position), Some(expected), Some(got)) = (
        &explanation.position,
        &explanation.expected,
        &explanation.got,
    ) else {
        println!(
            "No small counterexample found within the bounds ({} runs, {} ms of CPU): the \
             program answers every small game right, so its mistake shows only on larger ones.",
            explanation.runs, explanation.cpu_ms
        );
        return;
    };
    println!(
        "{} counterexample ({} runs, {} ms of CPU):",
        if explanation.large {
            "A large"
        } else {
            "The smallest"
        },
        explanation.runs,
        explanation.cpu_ms
    );
    for line in position.lines() {
        println!("  | {line}");
    }
    println!("expected: {}", expected.trim_end());
    println!("got:      {}", got.trim_end());
    if let Some(certificate) = &explanation.certificate {
        println!("why: {}", certificate.en);
    }
    if let Some(m) = &explanation.misconception {
        println!("misconception: {} ({})", m.title, m.id);
        println!("  {}", m.text);
    }
}

#[derive(Debug, Args)]
pub struct StressArgs {
    /// Source file.
    pub file: PathBuf,
    #[arg(long)]
    pub problem: String,
    /// Language id or alias, in any case (`grundy doctor` lists them: `cpp` is the default
    /// C++); guessed from the extension when absent.
    #[arg(long)]
    pub lang: Option<String>,
    /// How many random small games to try.
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// The random games' seed (the same seed gives the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    /// Load problems from this folder instead of the built-in catalogue.
    #[arg(long, env = "GRUNDY_PROBLEMS_DIR")]
    pub problems_dir: Option<PathBuf>,
    /// Where test sets, precompiled headers and compiled programs are kept between runs.
    #[arg(long, env = "GRUNDY_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Runs a program against the reference on random small games; exit 0 when all agree.
pub fn stress(sandbox: &SandboxArgs, args: StressArgs) -> Result<ExitCode> {
    let catalogue = crate::setup::load_catalogue(args.problems_dir.as_deref())?;
    let problem = named_problem(&catalogue, &args.problem)?;
    let Some(explainer) = problem.explainer() else {
        bail!(
            "{} has no list of small games to stress a program with",
            problem.slug()
        );
    };
    let source = read_source(&args.file)?;
    let mut judge = sandbox.judge(args.cache_dir.unwrap_or_else(default_cache_dir))?;
    let language = judge
        .languages()
        .choose(args.lang.as_deref(), &args.file)?
        .clone();
    let compiled = judge.compile(&language, &source)?;
    if !compiled.result.ok {
        eprintln!("{}", compiled.result.message);
        bail!("the program does not compile");
    }
    let mut rng = grundy_problems::seed::stress_rng(args.seed);
    let games: Vec<String> = (0..args.count)
        .map(|_| explainer.random_game(&mut rng))
        .collect();
    let bar = if std::io::stderr().is_terminal() && !args.json {
        ProgressBar::new(games.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} games")
            .expect("a valid template"),
    );
    let explanation = judge.stress(
        problem,
        explainer,
        &language,
        &compiled,
        &games,
        &mut |done| bar.set_position(done as u64),
    )?;
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&explanation)?);
    } else if explanation.found() {
        print_explanation(&explanation);
    } else {
        println!(
            "All {} random games agree with the reference (seed {}).",
            games.len(),
            args.seed
        );
    }
    Ok(if explanation.found() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
