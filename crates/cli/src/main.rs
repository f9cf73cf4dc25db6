//! `zermelo`: the command line. Each subcommand is a module with its `Args` (whose doc comments
//! are the help text) and a `run` function; errors become one line on stderr and exit status 1.

use clap::{Parser, Subcommand};

mod grundy;
mod nim;
mod progress;

/// Exhaustive solver for two-player games of perfect information: Hex, misère Hex and
/// Sprague–Grundy tables.
#[derive(Parser)]
#[command(name = "zermelo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sprague–Grundy tables: octal, subtraction and piece games.
    Grundy(grundy::Args),
    /// Analyse a sum of games: P or N, value, every winning move.
    Nim(nim::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Grundy(args) => grundy::run(args),
        Command::Nim(args) => nim::run(args),
    };
    if let Err(err) = result {
        eprintln!("zermelo: error: {err:#}");
        std::process::exit(1);
    }
}
