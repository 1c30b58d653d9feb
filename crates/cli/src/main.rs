//! `grundy`: one binary for the whole judge. For now it holds the catalogue tools.

mod problems;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "grundy",
    version,
    about = "An online judge for combinatorial game theory"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Browse, generate, solve and verify the problem catalogue.
    Problems {
        /// Load problems from this folder instead of the built-in catalogue.
        #[arg(long, env = "GRUNDY_PROBLEMS_DIR", global = true)]
        problems_dir: Option<PathBuf>,
        #[command(subcommand)]
        command: problems::Command,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Problems {
            problems_dir,
            command,
        } => problems::run(problems_dir.as_deref(), command),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
