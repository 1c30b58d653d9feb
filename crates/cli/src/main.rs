//! `grundy`: one binary for the whole judge: the service and its workers, the catalogue tools,
//! the sandbox and the judging engine.

mod backup;
mod explaining;
mod games;
mod judging;
mod playing;
mod problems;
mod service;
mod setup;
mod status;

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
    #[command(flatten)]
    sandbox: judging::SandboxArgs,
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
    /// What Grundy computes and proves about a game given by its rules.
    Games {
        #[command(subcommand)]
        command: games::Command,
    },
    /// Run the service: the API, and judging workers inside it.
    Serve(service::ServeArgs),
    /// Judge submissions from a shared PostgreSQL (scale-out; `serve` judges by itself on SQLite).
    Worker(service::WorkerArgs),
    /// Accounts and tokens; the service's status.
    Admin {
        #[command(subcommand)]
        command: service::AdminCommand,
    },
    /// Submit a file to a Grundy server and follow it to the verdict.
    Submit(service::SubmitArgs),
    /// Run one program in the sandbox with standard input from this terminal or pipe.
    Run(judging::RunArgs),
    /// Judge a source file against a problem's whole test set.
    Judge(judging::JudgeArgs),
    /// Run a program against the reference on random small games before submitting it.
    Stress(explaining::StressArgs),
    /// Play an interactive problem's game against the reference in this terminal.
    Play(playing::PlayArgs),
    /// Report what isolation this machine gives and which languages it has.
    Doctor(judging::DoctorArgs),
    /// The sandbox supervisor (started by the judge; reads run requests on stdin).
    #[command(hide = true)]
    SandboxSupervisor {
        #[arg(long)]
        allow_weak: bool,
        #[arg(long)]
        cgroup_parent: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Dispatched before anything else starts a thread: the supervisor must stay single-threaded
    // to fork safely.
    if let Command::SandboxSupervisor {
        allow_weak,
        cgroup_parent,
    } = cli.command
    {
        let options = grundy_sandbox::supervisor::Options {
            allow_weak,
            cgroup_parent,
        };
        return ExitCode::from(grundy_sandbox::supervisor::main(options) as u8);
    }
    setup::init_logging(match cli.command {
        Command::Serve(_) | Command::Worker(_) => "info",
        _ => "warn",
    });
    let result = match cli.command {
        Command::SandboxSupervisor { .. } => unreachable!("dispatched above"),
        Command::Serve(args) => service::serve(&cli.sandbox, args),
        Command::Worker(args) => service::worker(&cli.sandbox, args),
        Command::Admin { command } => service::admin(command),
        Command::Submit(args) => service::submit(args),
        Command::Run(args) => judging::run(&cli.sandbox, args),
        Command::Judge(args) => judging::judge(&cli.sandbox, args),
        Command::Doctor(args) => judging::doctor(&cli.sandbox, args),
        Command::Stress(args) => explaining::stress(&cli.sandbox, args),
        Command::Play(args) => playing::play(args),
        Command::Games { command } => games::run(command),
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
