//! `zermelo batch status`: where each job of a results folder stands.

use std::path::Path;

use crate::{folder_jobs, provenance_total, state, Result, State};

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

/// A done job's times: all its runs together when it was stopped and resumed.
fn times(provenance: &serde_json::Value) -> String {
    let total = |key| provenance_total(provenance, key).as_f64().unwrap_or(0.0);
    let runs = match provenance["earlier_parts"]["parts"].as_u64() {
        Some(earlier) => format!(" in {} runs", earlier + 1),
        None => String::new(),
    };
    format!(
        "{:.2} s wall, {:.2} s CPU{runs}",
        total("wall_seconds"),
        total("cpu_seconds")
    )
}

/// The jobs of a results folder, in job-file order, with where each stands.
pub fn status(dir: &Path) -> Result<Vec<JobStatus>> {
    let jobs = folder_jobs(dir)?;
    let mut rows = Vec::new();
    for job in &jobs {
        let st = state(dir, job)?;
        let detail = match &st {
            State::Done(r) => Some(times(&r["provenance"])),
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

#[cfg(test)]
mod tests {
    use super::times;
    use serde_json::json;

    /// A job run once shows its run's times; one stopped and resumed shows the totals of all
    /// its runs, and how many there were.
    #[test]
    fn a_resumed_job_shows_the_times_of_all_its_runs() {
        let once = json!({"wall_seconds": 1.5, "cpu_seconds": 2.25});
        assert_eq!(times(&once), "1.50 s wall, 2.25 s CPU");
        let resumed = json!({
            "wall_seconds": 1.5,
            "cpu_seconds": 2.25,
            "total_wall_seconds": 10.0,
            "total_cpu_seconds": 19.5,
            "earlier_parts": {"parts": 2, "wall_seconds": 8.5, "cpu_seconds": 17.25, "nodes": 9},
        });
        assert_eq!(times(&resumed), "10.00 s wall, 19.50 s CPU in 3 runs");
    }
}
