//! `grundy games`: the theory behind problems, on its own: what Grundy computes and proves about
//! a game given by its rules.

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use grundy_games::octal::{Analysis, Ending, OctalCode};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute an octal game's nim-sequence and prove its period, if the values allow.
    Analyse(AnalyseArgs),
}

/// The most values `analyse` keeps in memory (four bytes each).
const MAX_UPTO: usize = 100_000_000;
/// How many values the report (and `--json`) lists.
const SHOWN: usize = 200;

#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The octal code, such as 0.77 (Kayles) or 0.137 (Dawson's chess).
    code: String,
    /// Compute G(0..=N).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    upto: usize,
    /// Report G at these heap sizes (any size up to 10¹⁸ once a period is proven).
    #[arg(long, value_name = "n", num_args = 1..)]
    at: Vec<u64>,
    /// Stop computing after this many seconds, keeping what is computed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    time_limit: u64,
    /// Print `{code, values, preperiod, period, computed_to, at}` as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Analyse(args) => analyse(args),
    }
}

/// The largest heap `--at` may ask for.
const MAX_HEAP: u64 = 1_000_000_000_000_000_000;

fn analyse(args: AnalyseArgs) -> anyhow::Result<ExitCode> {
    let code: OctalCode = args
        .code
        .parse()
        .with_context(|| format!("{:?} is not an octal code", args.code))?;
    if args.upto > MAX_UPTO {
        bail!(
            "--upto {} is more than the {MAX_UPTO} values analyse keeps",
            args.upto
        );
    }
    if let Some(&n) = args.at.iter().find(|&&n| n > MAX_HEAP) {
        bail!("--at {n}: heaps go up to 10^18");
    }
    let bar = if std::io::stderr().is_terminal() && !args.json {
        ProgressBar::new(args.upto as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} values")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let budget = Duration::from_secs(args.time_limit);
    let analysis = Analysis::run(&code, args.upto, |done| {
        bar.set_position(done as u64);
        if start.elapsed() > budget {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let elapsed = start.elapsed();
    bar.finish_and_clear();

    let mut at = BTreeMap::new();
    for &n in &args.at {
        let value = analysis.value(n).with_context(|| format!("--at {n}"))?;
        at.insert(n, value);
    }
    let shown = &analysis.values()[..analysis.values().len().min(SHOWN)];
    let period = analysis.periodicity;
    if args.json {
        let json = serde_json::json!({
            "code": code.to_string(),
            "values": shown,
            "preperiod": period.map(|p| p.preperiod),
            "period": period.map(|p| p.period),
            "computed_to": analysis.computed_to(),
            "at": at.iter().map(|(n, v)| (n.to_string(), v)).collect::<BTreeMap<_, _>>(),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("Octal game {code}");
    println!(
        "G(0..={}): {}",
        shown.len() - 1,
        shown
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    match period {
        Some(p) => println!(
            "Period {}, pre-period {}: G(n + {}) = G(n) for every n ≥ {}, proven by the Octal \
             Game Periodicity Theorem.",
            p.period, p.preperiod, p.period, p.preperiod
        ),
        None => println!("No period proven up to {}.", analysis.computed_to()),
    }
    for (n, value) in &at {
        println!("G({n}) = {value}");
    }
    match analysis.ending {
        Ending::Complete => println!(
            "Computed G(0..={}) in {:.3} s.",
            analysis.computed_to(),
            elapsed.as_secs_f64()
        ),
        Ending::Stopped => println!(
            "Stopped at the time limit of {} s: computed G(0..={}) of the {} asked for.",
            args.time_limit,
            analysis.computed_to(),
            args.upto
        ),
    }
    Ok(ExitCode::SUCCESS)
}
