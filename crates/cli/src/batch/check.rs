//! `zermelo batch check`: a dry run of a job file, every job's structure and values checked as
//! `batch run` checks them before its first job.

use crate::output::outln;
use std::path::PathBuf;

/// Check a job file without running it: print its jobs, or the first problem and exit 1.
#[derive(clap::Args)]
pub struct Args {
    /// The job file (TOML).
    jobs: PathBuf,
}

/// Runs `batch check`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let jobs = zermelo_batch::jobs::load(&args.jobs)?;
    for job in &jobs {
        let mut what = job.identity();
        if let Some(map) = what.as_object_mut() {
            map.remove("kind");
            map.remove("name");
        }
        outln!("{:<24} {:<14} {what}", job.name, job.kind_name())?;
    }
    outln!(
        "{}: {} jobs, every value valid",
        args.jobs.display(),
        jobs.len()
    )?;
    Ok(())
}
