//! `grundy play SLUG`: a game against the reference in the terminal, one move per line, with
//! hints on request and the value history at the end.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use comfy_table::{Cell, Color, Table, presets::UTF8_FULL_CONDENSED};
use grundy_problems::play::{Mover, Session, Side};

use crate::judging::named_problem;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SideArg {
    First,
    Second,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// An interactive problem (`nim-play`, `wythoff-play`, …).
    pub problem: String,
    /// The start as the game writes a position (`"3 1 2 3"` for Nim; the notation is printed
    /// as the game starts); random when absent.
    #[arg(long)]
    pub start: Option<String>,
    /// Your side: `first` moves first.
    #[arg(long, value_enum, default_value = "first")]
    pub side: SideArg,
    /// Fixes the random start.
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long, env = "GRUNDY_PROBLEMS_DIR")]
    pub problems_dir: Option<PathBuf>,
}

pub fn play(args: PlayArgs) -> Result<ExitCode> {
    let catalogue = crate::setup::load_catalogue(args.problems_dir.as_deref())?;
    let problem = named_problem(&catalogue, &args.problem)?;
    let Some(board) = problem.board() else {
        bail!(
            "{} has no game to play (the interactive problems and the catalogue's games whose \
             positions fit on a screen have one)",
            args.problem
        );
    };
    let side = match args.side {
        SideArg::First => Side::First,
        SideArg::Second => Side::Second,
    };
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut game = Session::new(board, args.start.as_deref(), seed, side)?;
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "{}: the game starts from {}; you play {}. Moves: {} Type `hint` for the winning \
         moves, `quit` to stop.",
        problem.title("en"),
        game.start_words,
        match side {
            Side::First => "first",
            Side::Second => "second",
        },
        board.notation().moves.en
    )?;
    let mut lines = std::io::stdin().lock().lines();
    loop {
        if let Some(step) = game.referee_moves()? {
            writeln!(
                out,
                "referee: {} ({}) → {}",
                step.made.text, step.made.words, step.made.after_words
            )?;
        }
        if game.is_over()? {
            break;
        }
        write!(out, "{} — your move: ", game.words()?)?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            break;
        };
        let line = line?;
        match line.trim() {
            "" => continue,
            "quit" => break,
            "hint" => {
                let moves = game.hint()?;
                if moves.is_empty() {
                    writeln!(out, "every move loses from here against perfect play")?;
                }
                for m in moves {
                    writeln!(out, "  {} ({}) → {}", m.text, m.words, m.after_words)?;
                }
            }
            text => {
                if let Err(why) = game.play(text) {
                    writeln!(out, "{why}")?;
                }
            }
        }
    }
    let winner = game.winner()?;
    match winner {
        Some(Mover::Program) => writeln!(out, "You won.")?,
        Some(Mover::Referee) => writeln!(out, "The referee won.")?,
        None => writeln!(out, "The game was left unfinished.")?,
    }
    print_history(&mut out, &game)?;
    Ok(if winner == Some(Mover::Program) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Every move with the value of the position it left; the first mistake in red with a winning
/// move there was.
fn print_history(out: &mut impl Write, game: &Session<'_>) -> Result<()> {
    if game.steps.is_empty() {
        return Ok(());
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_header([
        "#",
        "by",
        "move",
        "position left",
        "value for the next player",
    ]);
    let first_mistake = game.first_mistake();
    for (n, step) in game.steps.iter().enumerate() {
        let value = match (step.made.value.win, step.made.value.grundy) {
            (true, Some(g)) => format!("win ({g})"),
            (false, Some(g)) => format!("lose ({g})"),
            (true, None) => "win".into(),
            (false, None) => "lose".into(),
        };
        let value = match (first_mistake == Some(n), step.better.first()) {
            (true, Some(better)) => Cell::new(format!(
                "{value} — mistake: a winning move was {} ({})",
                better.text, better.words
            ))
            .fg(Color::Red),
            _ => Cell::new(value),
        };
        table.add_row(vec![
            Cell::new(n + 1),
            Cell::new(match step.by {
                Mover::Program => "you",
                Mover::Referee => "referee",
            }),
            Cell::new(&step.made.text),
            Cell::new(&step.made.after_words),
            value,
        ]);
    }
    writeln!(out, "Value history:\n{table}")?;
    Ok(())
}
