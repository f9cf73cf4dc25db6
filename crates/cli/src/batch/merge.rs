//! `zermelo batch merge`: checks the results of shards and combines them in one folder.

use crate::output::outln;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::{json, Map, Value};

use super::jobs::Job;
use super::{folder_jobs, record_path, state, utc, State, JOBS_COPY};

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
    let jobs = folder_jobs(&args.sources[0])?;
    for src in &args.sources[1..] {
        if !same_jobs(&jobs, &folder_jobs(src)?) {
            bail!(
                "{} and {} were run with different job files",
                args.sources[0].display(),
                src.display()
            );
        }
    }
    if args.out.join(JOBS_COPY).exists() && !same_jobs(&jobs, &folder_jobs(&args.out)?) {
        bail!("{} holds results of another job file", args.out.display());
    }
    let mut chosen: Vec<(&Job, PathBuf, Value)> = Vec::new();
    let mut missing = Vec::new();
    for job in &jobs {
        let mut found: Option<(PathBuf, Value)> = None;
        let mut why = "missing".to_string();
        for src in &args.sources {
            match state(src, job)? {
                State::Done(record) => {
                    if let Some((first, r)) = &found {
                        if r["result"] != record["result"] {
                            bail!(
                                "job {:?}: {} and {} hold different results",
                                job.name,
                                first.display(),
                                src.display()
                            );
                        }
                    } else {
                        found = Some((src.clone(), record));
                    }
                }
                State::Running => bail!(
                    "job {:?} is still running in {}; merge when the runs have ended",
                    job.name,
                    src.display()
                ),
                State::Failed(r) => {
                    why = format!("failed: {}", r["reason"].as_str().unwrap_or("?"));
                }
                other => {
                    if why == "missing" {
                        other.label().clone_into(&mut why);
                    }
                }
            }
        }
        match found {
            Some((src, record)) => chosen.push((job, src, record)),
            None => missing.push(format!("{} ({why})", job.name)),
        }
    }
    if !missing.is_empty() {
        bail!(
            "{} of {} jobs are not done: {}",
            missing.len(),
            jobs.len(),
            missing.join(", ")
        );
    }
    // Everything is checked that can be before --out is touched; a folder this merge creates is
    // removed again if a copy fails, so a failed merge leaves nothing behind.
    let created = !args.out.exists();
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let result = write_merged(&args, &jobs, &chosen);
    if result.is_err() && created {
        let _ = std::fs::remove_dir_all(&args.out);
    }
    result
}

/// Copies the chosen records (and tables) into --out and writes batch.json.
fn write_merged(
    args: &Args,
    jobs: &[Job],
    chosen: &[(&Job, PathBuf, Value)],
) -> anyhow::Result<()> {
    let out = args
        .out
        .canonicalize()
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    let mut results = Map::new();
    for (job, src, record) in chosen {
        if src.canonicalize()? != out {
            copy(&record_path(src, &job.name), &record_path(&out, &job.name))?;
            if let Some(t) = job.table_file() {
                if job.streams() {
                    copy_folder(&src.join(&t), &out.join(&t))?;
                } else {
                    copy(&src.join(&t), &out.join(&t))?;
                }
            }
            // The copies are read back like any result before they count.
            if !matches!(state(&out, job)?, State::Done(_)) {
                bail!(
                    "job {:?}: the copy in {} does not verify",
                    job.name,
                    out.display()
                );
            }
        }
        results.insert(job.name.clone(), record["result"].clone());
    }
    let text = std::fs::read(args.sources[0].join(JOBS_COPY))?;
    zermelo_store::atomic_write(&out.join(JOBS_COPY), &text)?;
    let sources: Vec<String> = args
        .sources
        .iter()
        .map(|s| s.display().to_string())
        .collect();
    let doc = json!({
        "jobs": jobs.iter().map(|j| j.identity()).collect::<Vec<_>>(),
        "results": results,
        "provenance": {
            "zermelo_version": env!("CARGO_PKG_VERSION"),
            "merged": utc(std::time::SystemTime::now()),
            "sources": sources,
        },
    });
    zermelo_store::json::write(&out.join("batch.json"), &doc)?;
    outln!(
        "merged {} jobs from {} folder(s) into {}",
        jobs.len(),
        args.sources.len(),
        out.join("batch.json").display()
    )?;
    Ok(())
}

fn same_jobs(a: &[Job], b: &[Job]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.identity() == y.identity())
}

fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
    zermelo_store::atomic_write(to, &bytes)?;
    Ok(())
}

/// Copies the files of a stream folder (its pieces and manifest), each atomically.
fn copy_folder(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let entries =
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let name = entry.file_name();
        // The store's temporary files start with a dot; only finished files are copied.
        if entry.path().is_file() && !name.to_string_lossy().starts_with('.') {
            copy(&entry.path(), &to.join(name))?;
        }
    }
    Ok(())
}
