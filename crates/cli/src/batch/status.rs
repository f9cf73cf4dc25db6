//! `zermelo batch status`: where each job of a results folder stands.

use crate::output::outln;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::{folder_jobs, state, State};

/// List the jobs of a results folder: done, running, failed, checkpointed, corrupt, missing.
#[derive(clap::Args)]
pub struct Args {
    /// The results folder of `zermelo batch run --out`.
    dir: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

const LABELS: [&str; 6] = [
    "done",
    "running",
    "failed",
    "checkpointed",
    "corrupt",
    "missing",
];

/// Runs `batch status`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let jobs = folder_jobs(&args.dir)?;
    let mut rows = Vec::new();
    let mut counts = [0usize; LABELS.len()];
    for job in &jobs {
        let st = state(&args.dir, job)?;
        let label = st.label();
        if let Some(i) = LABELS.iter().position(|l| *l == label) {
            counts[i] += 1;
        }
        let detail = match &st {
            State::Done(r) => json!(format!(
                "{:.2} s wall, {:.2} s CPU",
                r["provenance"]["wall_seconds"].as_f64().unwrap_or(0.0),
                r["provenance"]["cpu_seconds"].as_f64().unwrap_or(0.0)
            )),
            State::Failed(r) => r["reason"].clone(),
            State::Corrupt(why) => json!(why),
            State::Checkpointed => json!("a checkpoint will be resumed"),
            State::Running | State::Missing => Value::Null,
        };
        rows.push(
            json!({"name": job.name, "kind": job.kind_name(), "state": label,
                         "detail": detail}),
        );
    }
    let summary = LABELS
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(l, n)| format!("{n} {l}"))
        .collect::<Vec<_>>()
        .join(", ");
    if args.json {
        let counts: serde_json::Map<String, Value> = LABELS
            .iter()
            .zip(counts)
            .map(|(l, n)| (l.to_string(), json!(n)))
            .collect();
        outln!("{}", json!({"jobs": rows, "counts": counts}))?;
        return Ok(());
    }
    for row in &rows {
        outln!(
            "{:<13} {:<24} {:<13} {}",
            row["state"].as_str().unwrap_or(""),
            row["name"].as_str().unwrap_or(""),
            row["kind"].as_str().unwrap_or(""),
            row["detail"].as_str().unwrap_or("")
        )?;
    }
    outln!("{} jobs: {summary}", jobs.len())?;
    Ok(())
}
