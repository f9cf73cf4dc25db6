//! `zermelo hex`: solve positions, opening tables and retrograde tables.

use clap::{Args, Subcommand};
use zermelo_hex::{Position, Rules, Solver, SolverConfig, MAX_TT_MB};

mod board;
mod lookup;
mod openings;
mod parity;
pub mod proofs;
mod solve;
mod strong;
mod table;
mod templates;

/// The Hex subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Solve one position: the winner, a winning move (or all of them), the perfect-play length.
    Solve(solve::Args),
    /// Solve every first move of the empty board; print and write the opening table.
    Openings(openings::Args),
    /// Misère Hex on every board up to a size, checked against the parity theorem.
    Parity(parity::Args),
    /// Compute the retrograde table of every position of a board up to 4x4 and write it.
    Table(table::Args),
    /// Answer a position from a table written by `zermelo hex table`, or from the database
    /// `zermelo hex strong` writes, without searching.
    Lookup(lookup::Args),
    /// The strong solution of a board up to 5x5: every position's value, one file per layer.
    Strong(strong::Args),
    /// Find and prove the edge templates the solver starts from, and write their list.
    Templates(templates::Args),
    /// Proof files written by `--proofs`: pool those of several runs.
    #[command(subcommand)]
    Proofs(proofs::Command),
}

/// Runs a Hex subcommand.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Solve(args) => solve::run(args),
        Command::Openings(args) => openings::run(args),
        Command::Table(args) => table::run(args),
        Command::Parity(args) => parity::run(args),
        Command::Lookup(args) => lookup::run(args),
        Command::Strong(args) => strong::run(args),
        Command::Templates(args) => templates::run(args),
        Command::Proofs(command) => proofs::run(command),
    }
}

/// The text of a file, or of standard input for `-` (any path the system takes, UTF-8 or not).
pub fn read_input(path: &std::path::Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))
    }
}

/// The position a command is asked about: `moves` from the empty board of `size`, or a diagram
/// file (`-` for stdin), whose size `size` must match when given.
pub fn read_position(
    size: Option<usize>,
    moves: &str,
    diagram: Option<&std::path::Path>,
) -> anyhow::Result<Position> {
    match diagram {
        Some(path) => {
            let p = Position::from_diagram(&read_input(path)?)?;
            if let Some(n) = size {
                anyhow::ensure!(
                    n == p.size(),
                    "--size {n} does not match the {0}x{0} diagram",
                    p.size()
                );
            }
            Ok(p)
        }
        None => {
            let n = size.ok_or_else(|| anyhow::anyhow!("give --size (or a --diagram)"))?;
            Ok(Position::from_moves(n, moves)?)
        }
    }
}

/// Options shared by the searching subcommands.
#[derive(Args, Clone, Copy)]
pub struct SearchOptions {
    /// Play misère Hex (Reverse Hex): the player who connects loses.
    #[arg(long)]
    pub misere: bool,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The most the transposition table grows to, in MiB (default: by board size, 16 up to
    /// 4x4, 64 for 5x5, 512 for 6x6, 2048 beyond; misère proofs are longer: 512 for 5x5, 2048
    /// from 6x6 on). It starts at 64 MiB and grows only as the search needs.
    #[arg(long)]
    pub tt_mb: Option<usize>,
}

impl SearchOptions {
    /// The rules chosen.
    pub fn rules(&self) -> Rules {
        if self.misere {
            Rules::Misere
        } else {
            Rules::Normal
        }
    }

    /// A solver with these options for boards up to `size`, after checking the table fits in
    /// memory.
    pub fn solver(&self, size: usize) -> anyhow::Result<Solver> {
        if let Some(t) = self.threads {
            crate::check_threads(t)?;
        }
        let tt_mb = self.tt_mb.unwrap_or(default_tt_mb(size, self.rules()));
        if tt_mb <= MAX_TT_MB {
            crate::memory::ensure_table_fits(tt_mb)?;
        }
        Ok(Solver::new(SolverConfig {
            rules: self.rules(),
            threads: self.threads.unwrap_or(0),
            tt_mb,
        })?)
    }
}

/// The default transposition table for boards up to `size`, in MiB (measured: on 5x5 misère,
/// 512 MiB solves the openings in about half the time 64 MiB takes).
fn default_tt_mb(size: usize, rules: Rules) -> usize {
    match (size, rules) {
        (0..=4, _) => 16,
        (5, Rules::Normal) => 64,
        (5, Rules::Misere) | (6, Rules::Normal) => 512,
        _ => 2048,
    }
}

/// "normal" or "misere", as in file names and JSON (ASCII, for scripts).
pub fn rules_name(rules: Rules) -> &'static str {
    match rules {
        Rules::Normal => "normal",
        Rules::Misere => "misere",
    }
}

/// "normal" or "misère", as in sentences for people; file names and JSON use [`rules_name`].
pub fn rules_prose(rules: Rules) -> &'static str {
    match rules {
        Rules::Normal => "normal",
        Rules::Misere => "misère",
    }
}
