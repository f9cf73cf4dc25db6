//! `zermelo`: the command line. Each subcommand is a module with its `Args` (whose doc comments
//! are the help text) and a `run` function. Exit status: 0 done; 1 an error (one line on
//! stderr); 2 a usage error (bad arguments); 3 done, but the result is incomplete (openings
//! still open).

use clap::{CommandFactory, Parser, Subcommand};

mod output;

mod batch;
mod docs;
mod grundy;
mod gtp;
mod hackenbush;
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
    /// Green Hackenbush: the value of a drawing and every winning move.
    Hackenbush(hackenbush::Args),
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
    panics_end_the_run();
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
        Command::Hackenbush(args) => hackenbush::run(args),
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
        if let Some(incomplete) = err.downcast_ref::<output::Incomplete>() {
            errln!("zermelo: {incomplete}");
            std::process::exit(output::EXIT_INCOMPLETE);
        }
        errln!("zermelo: error: {err:#}");
        std::process::exit(1);
    }
}

/// A panic (a bug) anywhere, a worker thread of a parallel search included, ends the run at
/// once with one line and exit status 101: other threads waiting on the one that panicked
/// would otherwise keep the process alive. What was saved before stays (every file is written
/// atomically); the proofs and checkpoints of the last interval are not written by a run that
/// a bug has made suspect.
fn panics_end_the_run() {
    use std::sync::atomic::{AtomicBool, Ordering};
    std::panic::set_hook(Box::new(|info| {
        // One line however many workers panic at once: the first reports and exits, the others
        // wait for that exit (two lines were seen when both workers of a run hit the same bug).
        static REPORTING: AtomicBool = AtomicBool::new(false);
        if REPORTING.swap(true, Ordering::SeqCst) {
            loop {
                std::thread::park();
            }
        }
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let at = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        errln!(
            "zermelo: internal error: {}{at} (a bug: please report it with the command)",
            message.replace('\n', " ")
        );
        std::process::exit(101);
    }));
}

/// The most worker threads a command takes: far beyond any core count, and each thread has its
/// own stack, so a mistyped count fails at once instead of running for minutes.
pub const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value: 1 to [`MAX_THREADS`] (leaving the option out means one per core).
pub fn check_threads(threads: usize) -> anyhow::Result<()> {
    if threads > MAX_THREADS || threads == 0 {
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
