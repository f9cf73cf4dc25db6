//! `zermelo batch report`: a Markdown summary of a results folder.

use crate::output::outln;
use std::path::PathBuf;

/// Write a Markdown summary of a results folder: a table of the results and timings.
#[derive(clap::Args)]
pub struct Args {
    /// The results folder of `zermelo batch run --out`.
    dir: PathBuf,
    /// Where to write the report (default: report.md in the folder).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `batch report`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let text = zermelo_batch::report::markdown(&args.dir)?;
    let out = args.out.unwrap_or_else(|| args.dir.join("report.md"));
    zermelo_store::atomic_write(&out, text.as_bytes())?;
    outln!("wrote {}", out.display())?;
    Ok(())
}
