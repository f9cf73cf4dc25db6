//! zermelo's long runs: overnight batches of many solves from a job file, resumable after any
//! crash and shardable over a cluster, and the drivers that keep a long solve's work on disk
//! (octal tables with checkpoints and period checks, [`octal`]; Hex proofs saved as they are
//! found, [`proofs`]).
//!
//! A job file, and the jobs one shard of a cluster takes:
//!
//! ```
//! use zermelo_batch::{jobs, Shard};
//!
//! let jobs = jobs::parse(
//!     "[[job]]\nname = \"kayles\"\nkind = \"grundy-octal\"\ngame = \"0.77\"\nmax = \"2^12\"\n\
//!      [[job]]\nname = \"hex-4x4\"\nkind = \"hex-openings\"\nsize = 4\n",
//! )?;
//! let first = Shard::parse("0/2")?.select(&jobs);
//! let second = Shard::parse("1/2")?.select(&jobs);
//! assert_eq!(first.len() + second.len(), 2);
//! assert_eq!(jobs[0].table_file().as_deref(), Some("kayles.zgt"));
//! # Ok::<(), zermelo_batch::Error>(())
//! ```
//!
//! The library prints nothing: a runner reports to an [`Observer`], and errors are [`Error`]s.
//!
//! A results folder holds, for a job named NAME:
//!
//! - `NAME.json`: the job's record (checksummed JSON): `status` (`"done"` or `"failed"`), `job`
//!   (what it computes), `result` (done) or `reason` (failed), and `provenance` (version, times,
//!   threads, rates);
//! - `NAME.zgt`: a Grundy job's table, a checkpoint until its record says done; or, for a job
//!   with `stream = true`, the folder `NAME.stream` of its pieces ([`stream`]);
//! - `NAME.proofs`: a Hex job's proven positions (`--proofs`), which a rerun starts from;
//! - `NAME.proofs.open`: the open entries of an unfinished Hex job's table, saved with its
//!   proofs, which a rerun puts back;
//! - `NAME.parts.json`: what the interrupted runs of an unfinished job spent (checksummed JSON:
//!   `parts`, `wall_seconds`, `cpu_seconds`, `nodes`), added up into the record of the run that
//!   finishes it (`total_wall_seconds`, `total_cpu_seconds`, `total_nodes`), then removed;
//! - `.NAME.lock`: locked while a runner computes the job.
//!
//! and `jobs.toml` (the job file the results belong to), `.lock.I-of-N` (one runner per
//! shard), and after `merge`, `batch.json` with every result. The book's chapter on batches
//! (`docs/src/batch.md`) describes them for users.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::{Flock, FlockArg};
use serde_json::Value;

/// Returns an [`Error`] of the given message-carrying variant, its text formatted.
macro_rules! bail {
    ($variant:ident, $($arg:tt)*) => {
        return Err($crate::Error::$variant(format!($($arg)*)))
    };
}

mod error;
pub mod jobs;
pub mod merge;
pub mod octal;
pub mod proofs;
pub mod report;
pub mod run;
pub mod shard;
pub mod status;
pub mod stream;
pub mod strong;
pub mod table;

pub use error::Error;
pub use jobs::{Job, Kind};
pub use run::{Batch, JobLine, Observer, RunOptions, Stop, Summary, LOG_EVERY_ENV, PARENT_ENV};
pub use shard::Shard;

/// The result of the library's functions.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The copy of the job file kept in a results folder.
pub const JOBS_COPY: &str = "jobs.toml";

/// A figure of a record's `provenance`: the total over every run of a job stopped and resumed
/// (`total_KEY`) when there is one, else the last run's (`KEY`).
#[must_use]
pub fn provenance_total<'a>(provenance: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    match &provenance[format!("total_{key}").as_str()] {
        serde_json::Value::Null => &provenance[key],
        total => total,
    }
}

fn record_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.json"))
}

fn job_lock_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.lock"))
}

/// The jobs a results folder was run with.
pub fn folder_jobs(dir: &Path) -> Result<Vec<Job>> {
    let path = dir.join(JOBS_COPY);
    if !path.exists() {
        bail!(
            Folder,
            "{} is not a batch results folder (no {JOBS_COPY}; see zermelo batch run)",
            dir.display()
        );
    }
    jobs::load(&path)
}

/// Takes an advisory lock (flock) on `path` (created if needed) without waiting: `Ok(None)` if
/// another process holds it. The operating system drops the lock when its holder dies, so a
/// killed runner never leaves a stale lock behind. (nix's flock rather than std's
/// `File::try_lock`, which is younger than the workspace's minimum Rust.)
fn try_lock(path: &Path) -> Result<Option<Flock<File>>> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(Error::io(format!(
            "cannot open the lock file {}",
            path.display()
        )))?;
    match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Ok(Some(lock)),
        Err((_, Errno::EWOULDBLOCK)) => Ok(None),
        Err((_, e)) => Err(Error::io(format!("cannot lock {}", path.display()))(
            e.into(),
        )),
    }
}

/// Where a job stands in a results folder.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// Finished; its record (checksum verified, and its table for a Grundy job).
    Done(Value),
    /// Its last attempt failed; the record says why.
    Failed(Value),
    /// A runner is computing it now.
    Running,
    /// Not finished, but a Grundy checkpoint or Hex proofs will let it resume.
    Checkpointed,
    /// A file of the job does not verify; the job will be redone.
    Corrupt(String),
    /// Never run, or stopped before it could write anything.
    Missing,
}

impl State {
    /// The state's name: `done`, `failed`, `running`, `checkpointed`, `corrupt` or `missing`.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            State::Done(_) => "done",
            State::Failed(_) => "failed",
            State::Running => "running",
            State::Checkpointed => "checkpointed",
            State::Corrupt(_) => "corrupt",
            State::Missing => "missing",
        }
    }
}

/// Reads the state of `job` in `dir`, verifying every checksum. A record for a job of the same
/// name but different parameters is an error: the folder belongs to another job file.
pub fn state(dir: &Path, job: &Job) -> Result<State> {
    let path = record_path(dir, &job.name);
    if path.exists() {
        let record = match zermelo_store::json::read(&path) {
            Ok(r) => r,
            Err(e) => return Ok(State::Corrupt(e.to_string())),
        };
        if record["job"] != job.identity() {
            bail!(
                Folder,
                "{} holds job {:?} with other parameters ({}, the job file says {}); use another \
                 results folder or remove that file",
                path.display(),
                job.name,
                record["job"],
                job.identity()
            );
        }
        if record["status"] == "done" {
            if let Some(table) = job.table_file() {
                if let Err(e) = verify_table(&dir.join(table), &record) {
                    return Ok(State::Corrupt(chain(&e)));
                }
            }
            return Ok(State::Done(record));
        }
        if running(dir, &job.name)? {
            return Ok(State::Running);
        }
        return Ok(State::Failed(record));
    }
    if running(dir, &job.name)? {
        return Ok(State::Running);
    }
    match job.checkpoint_file() {
        Some(t) if dir.join(&t).exists() => Ok(State::Checkpointed),
        _ => Ok(State::Missing),
    }
}

/// Whether another process holds the job's lock.
fn running(dir: &Path, name: &str) -> Result<bool> {
    let path = job_lock_path(dir, name);
    Ok(path.exists() && lock_job(&path)?.is_none())
}

/// Takes a job's lock, trying a few times: `status` takes it for an instant to see whether a
/// job is running, which must not make a runner believe that another runner has the job.
fn lock_job(path: &Path) -> Result<Option<Flock<File>>> {
    for _ in 0..5 {
        if let Some(lock) = try_lock(path)? {
            return Ok(Some(lock));
        }
        std::thread::sleep(std::time::Duration::from_millis(40));
    }
    Ok(None)
}

/// Checks a finished Grundy table: its container checksum, and that it is complete and as long
/// as its record says.
fn verify_table(path: &Path, record: &Value) -> Result<()> {
    let table = table::read_any(path)?;
    let computed = record["result"]["computed"].as_u64();
    if !table.complete || computed != Some(table.values.len() as u64 - 1) {
        bail!(File, "{}: does not match its record", path.display());
    }
    Ok(())
}

/// An error and its causes on one line, `what: cause: cause`, as the command line shows them.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}

/// A UTC time as RFC 3339, `2026-11-22T01:23:45Z`.
fn utc(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days to a civil date (the proleptic Gregorian calendar), after Howard Hinnant's algorithm.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn utc_dates() {
        assert_eq!(utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3661);
        assert_eq!(utc(t), "2000-02-29T01:01:01Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_798_761_599);
        assert_eq!(utc(t), "2026-12-31T23:59:59Z");
    }
}
