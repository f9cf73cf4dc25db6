//! `zermelo batch status`: where each job of a results folder stands.

use crate::output::outln;
use std::path::PathBuf;

use serde_json::{json, Value};
use zermelo_batch::status::{status, LABELS};

/// List the jobs of a results folder: done, running, failed, checkpointed, corrupt, missing.
#[derive(clap::Args)]
pub struct Args {
    /// The results folder of `zermelo batch run --out`.
    dir: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `batch status`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let jobs = status(&args.dir)?;
    let mut rows = Vec::new();
    let mut counts = [0usize; LABELS.len()];
    for job in &jobs {
        if let Some(i) = LABELS.iter().position(|l| *l == job.state) {
            counts[i] += 1;
        }
        rows.push(
            json!({"name": job.name, "kind": job.kind, "state": job.state,
                         "detail": job.detail}),
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
