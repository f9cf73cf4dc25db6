//! `zermelo`: the command line. Each subcommand is a module with its `Args` (whose doc comments
//! are the help text) and a `run` function; errors become one line on stderr and exit status 1.

use clap::{CommandFactory, Parser, Subcommand};

mod output;

mod batch;
mod docs;
mod grundy;
mod gtp;
mod hex;
mod memory;
mod nim;
mod progress;
mod svg;

use output::errln;

/// What `--version` prints: the version, the commit built and the build profile (see build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("ZERMELO_COMMIT"),
    ", ",
    env!("ZERMELO_PROFILE"),
    " build)"
);

/// Exhaustive solver for two-player games of perfect information: Hex, misère Hex and
/// Sprague–Grundy tables.
#[derive(Parser)]
#[command(name = "zermelo", version = VERSION, about, long_about = None)]
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
    /// Be a Hex engine on stdin and stdout (the Hex Text Protocol of HexGui and Benzene).
    Gtp(gtp::Args),
    /// Overnight batches: run a job file, resume it, shard it over a cluster, report on it.
    #[command(subcommand)]
    Batch(batch::Command),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(docs::CompletionsArgs),
    /// Write the manual pages (zermelo.1 and one per subcommand) into a folder.
    Man(docs::ManArgs),
}

fn main() {
    die_with_batch_runner();
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
            errln!(
                "zermelo: {} (see --help)",
                usage_error_line(&err.to_string())
            );
            std::process::exit(2);
        }
    };
    let result = match cli.command {
        Command::Hex(cmd) => hex::run(cmd),
        Command::Grundy(args) => grundy::run(args),
        Command::Nim(args) => nim::run(args),
        Command::Gtp(args) => gtp::run(args),
        Command::Batch(cmd) => batch::run(cmd),
        Command::Completions(args) => docs::completions(args, Cli::command()),
        Command::Man(args) => docs::man(args, Cli::command()),
    };
    if let Err(err) = result {
        if output::is_closed_pipe(&err) {
            // The reader has gone (`| head`): stop quietly, as Unix tools do.
            std::process::exit(0);
        }
        errln!("zermelo: error: {err:#}");
        std::process::exit(1);
    }
}

/// The most worker threads a command takes: far beyond any core count, and each thread has its
/// own stack, so a mistyped count fails at once instead of running for minutes.
pub const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value: 1 to [`MAX_THREADS`], or 0 where `zero_means_all_cores`.
pub fn check_threads(threads: usize, zero_means_all_cores: bool) -> anyhow::Result<()> {
    if threads > MAX_THREADS || (threads == 0 && !zero_means_all_cores) {
        anyhow::bail!("--threads must be between 1 and {MAX_THREADS}, not {threads}");
    }
    Ok(())
}

/// A clap usage error on one line, like every other error: its message and the lines that
/// complete it (the missing arguments, a tip), without the usage block that follows.
fn usage_error_line(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.trim_start_matches("error: ");
        match line.strip_prefix("tip: ") {
            Some(tip) => parts.push(format!("({tip})")),
            None => parts.push(line.to_string()),
        }
    }
    if parts.is_empty() {
        return "invalid arguments".to_string();
    }
    parts.join(" ")
}

/// A job started by `zermelo batch run` dies with its runner: a runner killed with SIGKILL
/// cannot stop it, and an orphan would go on writing the checkpoint that the next runner
/// resumes from.
fn die_with_batch_runner() {
    let Some(parent) = std::env::var(zermelo_batch::PARENT_ENV)
        .ok()
        .and_then(|p| p.parse::<i32>().ok())
    else {
        return;
    };
    let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
    // The runner may have died before the line above took effect.
    if nix::unistd::getppid().as_raw() != parent {
        std::process::exit(1);
    }
}
