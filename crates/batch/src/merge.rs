//! `zermelo batch merge`: checks the results of shards and combines them in one folder.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::jobs::Job;
use crate::{folder_jobs, record_path, state, utc, Error, Result, State, JOBS_COPY};

/// What a merge wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The jobs merged.
    pub jobs: usize,
    /// The folders they came from.
    pub sources: usize,
    /// The file that holds every result, `batch.json` in the folder written.
    pub batch_json: PathBuf,
}

/// The arguments of a merge.
struct Args<'a> {
    sources: &'a [PathBuf],
    out: &'a Path,
}

/// Checks the results of shards (results folders written by a batch run; `out` may be one of
/// them) and combines them into `out`, with `batch.json` holding every result. Nothing is
/// written unless every job is done in some folder and no two folders disagree.
pub fn merge(sources: &[PathBuf], out: &Path) -> Result<Merged> {
    let args = Args { sources, out };
    if sources.is_empty() {
        bail!(Invalid, "no results folders to merge");
    }
    let jobs = folder_jobs(&args.sources[0])?;
    for src in &args.sources[1..] {
        if !same_jobs(&jobs, &folder_jobs(src)?) {
            bail!(
                Folder,
                "{} and {} were run with different job files",
                args.sources[0].display(),
                src.display()
            );
        }
    }
    if args.out.join(JOBS_COPY).exists() && !same_jobs(&jobs, &folder_jobs(args.out)?) {
        bail!(
            Folder,
            "{} holds results of another job file",
            args.out.display()
        );
    }
    let mut chosen: Vec<(&Job, PathBuf, Value)> = Vec::new();
    let mut missing = Vec::new();
    for job in &jobs {
        let mut found: Option<(PathBuf, Value)> = None;
        let mut why = "missing".to_string();
        for src in args.sources {
            match state(src, job)? {
                State::Done(record) => {
                    if let Some((first, r)) = &found {
                        if r["result"] != record["result"] {
                            bail!(
                                Folder,
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
                    Folder,
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
            Folder,
            "{} of {} jobs are not done: {}",
            missing.len(),
            jobs.len(),
            missing.join(", ")
        );
    }
    // Everything is checked that can be before --out is touched; a folder this merge creates is
    // removed again if a copy fails, so a failed merge leaves nothing behind.
    let created = !args.out.exists();
    std::fs::create_dir_all(args.out)
        .map_err(Error::io(format!("cannot create {}", args.out.display())))?;
    let result = write_merged(&args, &jobs, &chosen);
    if result.is_err() && created {
        let _ = std::fs::remove_dir_all(args.out);
    }
    result
}

/// Copies the chosen records (and tables) into --out and writes batch.json.
fn write_merged(args: &Args, jobs: &[Job], chosen: &[(&Job, PathBuf, Value)]) -> Result<Merged> {
    let out = args
        .out
        .canonicalize()
        .map_err(Error::io(format!("cannot open {}", args.out.display())))?;
    let mut results = Map::new();
    for (job, src, record) in chosen {
        let canonical = src
            .canonicalize()
            .map_err(Error::io(format!("cannot open {}", src.display())))?;
        if canonical != out {
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
                    Folder,
                    "job {:?}: the copy in {} does not verify",
                    job.name,
                    out.display()
                );
            }
        }
        results.insert(job.name.clone(), record["result"].clone());
    }
    let copy = args.sources[0].join(JOBS_COPY);
    let text =
        std::fs::read(&copy).map_err(Error::io(format!("cannot read {}", copy.display())))?;
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
    Ok(Merged {
        jobs: jobs.len(),
        sources: args.sources.len(),
        batch_json: out.join("batch.json"),
    })
}

fn same_jobs(a: &[Job], b: &[Job]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.identity() == y.identity())
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    let bytes =
        std::fs::read(from).map_err(Error::io(format!("cannot read {}", from.display())))?;
    zermelo_store::atomic_write(to, &bytes)?;
    Ok(())
}

/// Copies the files of a stream folder (its pieces and manifest), each atomically.
fn copy_folder(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).map_err(Error::io(format!("cannot create {}", to.display())))?;
    let entries =
        std::fs::read_dir(from).map_err(Error::io(format!("cannot read {}", from.display())))?;
    for entry in entries {
        let entry = entry.map_err(Error::io(format!("cannot read {}", from.display())))?;
        let name = entry.file_name();
        // The store's temporary files start with a dot; only finished files are copied.
        if entry.path().is_file() && !name.to_string_lossy().starts_with('.') {
            copy(&entry.path(), &to.join(name))?;
        }
    }
    Ok(())
}
