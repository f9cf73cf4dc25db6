//! `zermelo batch`: overnight runs of many solves from a job file, resumable after any crash,
//! shardable over a cluster. The runner, the job files and the results folders are
//! zermelo-batch's; these commands parse arguments and print.

use clap::Subcommand;

mod check;
mod merge;
mod report;
mod run;
mod status;

/// The batch subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Run the jobs of a job file (or of one shard of it), skipping those already done.
    Run(run::Args),
    /// Check a job file (every job's fields and values) without running anything.
    Check(check::Args),
    /// List the jobs of a results folder: done, running, failed, checkpointed, missing.
    Status(status::Args),
    /// Write a Markdown summary of a results folder (a table of results and timings).
    Report(report::Args),
    /// Check the results of shards (one folder or several) and combine them into one folder.
    Merge(merge::Args),
}

/// Runs a batch subcommand.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Run(args) => run::run(args),
        Command::Check(args) => check::run(args),
        Command::Status(args) => status::run(args),
        Command::Report(args) => report::run(args),
        Command::Merge(args) => merge::run(args),
    }
}
