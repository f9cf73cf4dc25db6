//! `--proofs` (the proven positions of Hex runs kept on disk, by zermelo-batch's proofs
//! driver) and `zermelo hex proofs merge`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::json;
use zermelo_batch::proofs::{self, describe, Kept, ProofFile};
use zermelo_hex::Solver;

use super::rules_name;
use crate::output::{errln, outln};

/// The options of the commands that keep proofs.
#[derive(Args, Clone)]
pub struct ProofOptions {
    /// Keep proven positions in this file: the proofs it holds (of the same board size and
    /// rules) are loaded at the start, and the run saves its own there as it goes, every
    /// --save-every seconds, on Ctrl-C or SIGTERM, and at the end. A rerun starts from them.
    #[arg(long, value_name = "PATH")]
    pub proofs: Option<PathBuf>,
    /// Seconds between saves of the proofs file.
    #[arg(long, value_name = "SECS", default_value_t = 120, requires = "proofs",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub save_every: u64,
}

impl ProofOptions {
    /// The proof file asked for, loaded for n x n boards, and the solver made to keep proofs.
    pub fn open(&self, solver: Solver, n: usize) -> anyhow::Result<(Solver, Option<ProofFile>)> {
        let Some(path) = &self.proofs else {
            return Ok((solver, None));
        };
        let file = ProofFile {
            path: path.clone(),
            every: Duration::from_secs(self.save_every),
        };
        Ok((file.open(solver, n)?, Some(file)))
    }
}

/// Runs `work` while the solver's new proofs are saved to `file` every interval, on Ctrl-C or
/// SIGTERM (then the program stops, with one line saying where the proofs are) and at the end.
/// Without a file, runs `work` alone.
pub fn keeping<T: Send>(
    solver: &Solver,
    file: Option<&ProofFile>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<(T, Option<Kept>)> {
    let interrupted = Arc::new(AtomicBool::new(false));
    if let Some(file) = file {
        let flag = Arc::clone(&interrupted);
        // One handler per process; if one exists already, a signal simply ends the run with
        // the last interval's proofs saved.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
        let stopped = |kept: Kept| {
            errln!(
                "zermelo: error: interrupted after {} nodes; {} proofs ({} new) saved to {}: \
                 the same command goes on from them",
                solver.nodes_searched(),
                kept.loaded + kept.saved,
                kept.saved,
                file.path.display()
            );
            std::process::exit(1);
        };
        return proofs::keeping(solver, Some(file), &interrupted, stopped, work);
    }
    Ok((work()?, None))
}

/// The proofs subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Pool proof files of the same board and rules (from runs on different machines or
    /// shards) into one.
    Merge(MergeArgs),
}

/// Arguments of `hex proofs merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The file to write (it may be one of the inputs).
    out: PathBuf,
    /// The proof files to pool, all of one board size and rules.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Keep only the positions with at most this many stones (1: the openings alone), so that
    /// a long run's finished openings can be kept with its results without the millions of
    /// positions below them.
    #[arg(long, value_name = "N")]
    max_stones: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs a proofs subcommand.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Merge(args) => merge(args),
    }
}

fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let mut all = proofs::pool(&args.inputs)?;
    let dropped = args.max_stones.map_or(0, |n| all.keep_at_most(n));
    proofs::write(&args.out, &all)?;
    if args.json {
        outln!(
            "{}",
            json!({
                "size": all.size(),
                "rules": rules_name(all.rules()),
                "inputs": args.inputs.len(),
                "proofs": all.len(),
                "dropped": dropped,
                "out": args.out.display().to_string(),
            })
        )?;
    } else {
        let kept = match args.max_stones {
            Some(n) => format!(" ({dropped} with more than {n} stones left out)"),
            None => String::new(),
        };
        outln!(
            "{} proofs of {} from {} files written to {}{kept}",
            all.len(),
            describe(all.size(), all.rules()),
            args.inputs.len(),
            args.out.display()
        )?;
    }
    Ok(())
}
