//! `zermelo`: the command line. Each subcommand is a module with its `Args` (whose doc comments
//! are the help text) and a `run` function; errors become one line on stderr and exit status 1.

use clap::{Parser, Subcommand};

mod grundy;
mod hex;
mod memory;
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
    /// Hex on small boards: solve positions, opening tables, retrograde tables.
    #[command(subcommand)]
    Hex(hex::Command),
    /// Sprague–Grundy tables: octal, subtraction and piece games.
    Grundy(grundy::Args),
    /// Analyse a sum of games: P or N, value, every winning move.
    Nim(nim::Args),
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                err.exit();
            }
            // Keep usage errors to one line, like every other error.
            let text = err.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!(
                "zermelo: {} (see --help)",
                first.trim_start_matches("error: ")
            );
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        Command::Hex(cmd) => hex::run(cmd),
        Command::Grundy(args) => grundy::run(args),
        Command::Nim(args) => nim::run(args),
    };
    if let Err(err) = result {
        eprintln!("zermelo: error: {err:#}");
        std::process::exit(1);
    }
}
