//! `zermelo batch merge`: checks the results of shards and combines them in one folder.

use crate::output::outln;
use std::path::PathBuf;

/// Check the results of shards (one folder, or one per machine) and combine them into --out,
/// with batch.json holding every result.
#[derive(clap::Args)]
pub struct Args {
    /// Results folders written by `zermelo batch run` (the folder of --out may be one of them).
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// The folder that receives every job's files and batch.json.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `batch merge`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let merged = zermelo_batch::merge::merge(&args.sources, &args.out)?;
    outln!(
        "merged {} jobs from {} folder(s) into {}",
        merged.jobs,
        merged.sources,
        merged.batch_json.display()
    )?;
    Ok(())
}
