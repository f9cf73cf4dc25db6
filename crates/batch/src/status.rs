//! `zermelo batch status`: where each job of a results folder stands.

use std::path::Path;

use crate::{folder_jobs, state, Result, State};

/// The states a job can be in, in the order a summary lists them.
pub const LABELS: [&str; 6] = [
    "done",
    "running",
    "failed",
    "checkpointed",
    "corrupt",
    "missing",
];

/// Where one job of a results folder stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobStatus {
    /// The job's name.
    pub name: String,
    /// Its kind, as job files write it.
    pub kind: &'static str,
    /// One of [`LABELS`].
    pub state: &'static str,
    /// The times of a done job, the reason of a failed one, what a corrupt or checkpointed one
    /// will do.
    pub detail: Option<String>,
}

/// The jobs of a results folder, in job-file order, with where each stands.
pub fn status(dir: &Path) -> Result<Vec<JobStatus>> {
    let jobs = folder_jobs(dir)?;
    let mut rows = Vec::new();
    for job in &jobs {
        let st = state(dir, job)?;
        let detail = match &st {
            State::Done(r) => Some(format!(
                "{:.2} s wall, {:.2} s CPU",
                r["provenance"]["wall_seconds"].as_f64().unwrap_or(0.0),
                r["provenance"]["cpu_seconds"].as_f64().unwrap_or(0.0)
            )),
            State::Failed(r) => r["reason"].as_str().map(str::to_string),
            State::Corrupt(why) => Some(why.clone()),
            State::Checkpointed => Some("a checkpoint will be resumed".to_string()),
            State::Running | State::Missing => None,
        };
        rows.push(JobStatus {
            name: job.name.clone(),
            kind: job.kind_name(),
            state: st.label(),
            detail,
        });
    }
    Ok(rows)
}
