//! `zermelo`: the command line. Each subcommand is a module with its `Args` (whose doc comments
//! are the help text) and a `run` function; errors become one line on stderr and exit status 1.

use clap::{Parser, Subcommand};

mod hex;
mod memory;
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
    };
    if let Err(err) = result {
        eprintln!("zermelo: error: {err:#}");
        std::process::exit(1);
    }
}
