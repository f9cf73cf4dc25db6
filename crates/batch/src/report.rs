//! `zermelo batch report`: a Markdown summary of a results folder.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::{folder_jobs, state, Result, State};

/// A Markdown summary of a results folder: how many jobs are done, and a table of the jobs,
/// their results and timings.
pub fn markdown(dir: &Path) -> Result<String> {
    let jobs = folder_jobs(dir)?;
    let mut rows = String::new();
    let (mut done, mut wall, mut cpu) = (0, 0.0, 0.0);
    for job in &jobs {
        let st = state(dir, job)?;
        let (what, record) = match &st {
            State::Done(r) => (summary(job.kind_name(), &r["result"]), Some(r)),
            State::Failed(r) => (
                format!("failed: {}", r["reason"].as_str().unwrap_or("?")),
                Some(r),
            ),
            other => (other.label().to_string(), None),
        };
        let p = record.map(|r| &r["provenance"]);
        // A job finished over several runs: what they took together.
        let num = |key: &str| p.and_then(|p| crate::provenance_total(p, key).as_f64());
        if matches!(st, State::Done(_)) {
            done += 1;
            wall += num("wall_seconds").unwrap_or(0.0);
            cpu += num("cpu_seconds").unwrap_or(0.0);
        }
        let rate = match (num("nodes_per_second"), num("values_per_second")) {
            (Some(n), _) => format!("{n:.0} nodes/s"),
            (_, Some(v)) => format!("{v:.0} values/s"),
            _ => String::new(),
        };
        let secs = |key: &str| num(key).map_or(String::new(), |s| format!("{s:.2}"));
        let params = job
            .identity()
            .as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| *k != "name" && *k != "kind")
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default();
        let _ = writeln!(
            rows,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            job.name,
            job.kind_name(),
            params.replace('|', "\\|"),
            what.replace('|', "\\|"),
            secs("wall_seconds"),
            secs("cpu_seconds"),
            p.and_then(|p| p["threads"].as_u64())
                .map_or(String::new(), |t| t.to_string()),
            rate
        );
    }
    let text = format!(
        "# zermelo batch report\n\n{done} of {} jobs done in `{}`; {wall:.1} s wall and \
         {cpu:.1} s CPU in the finished jobs. Written by zermelo {}.\n\n\
         | job | kind | parameters | result | wall s | CPU s | threads | rate |\n\
         |---|---|---|---|---|---|---|---|\n{rows}",
        jobs.len(),
        dir.display(),
        env!("CARGO_PKG_VERSION"),
    );
    Ok(text)
}

/// One line about a result.
fn summary(kind: &str, r: &Value) -> String {
    let list = |v: &Value| {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    };
    match kind {
        "hex-openings" => format!(
            "first player {}; {} of {} openings win: {}",
            if r["first_player_wins"] == true {
                "wins"
            } else {
                "loses"
            },
            r["winning_openings"].as_array().map_or(0, Vec::len),
            r["openings"].as_array().map_or(0, Vec::len),
            list(&r["winning_openings"])
        ),
        "hex-solve" => {
            let (to_move, winner) = (
                r["to_move"].as_str().unwrap_or("?"),
                r["winner"].as_str().unwrap_or("?"),
            );
            if to_move != winner {
                // A lost position has no winning move to list.
                format!("{to_move} to move, {winner} wins")
            } else if r["winning_moves"].is_array() {
                format!(
                    "{to_move} to move, {winner} wins; winning moves: {}",
                    list(&r["winning_moves"])
                )
            } else {
                // A job with all = false: one winning move.
                format!(
                    "{to_move} to move, {winner} wins; winning move: {}",
                    r["winning_move"].as_str().unwrap_or("?")
                )
            }
        }
        "hex-parity" => format!(
            "parity theorem {} on every size",
            if r["theorem_holds_on_every_size"] == true {
                "holds"
            } else {
                "FAILS"
            }
        ),
        _ => match (r["period"].as_u64(), r["preperiod"].as_u64()) {
            (Some(p), Some(e)) => format!(
                "period {p} from {e}, {}; G(0..={})",
                if r["proven"] == true {
                    "proven"
                } else {
                    "not proven"
                },
                r["computed"]
            ),
            _ => format!("no period up to n = {}", r["computed"]),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_solve_lists_winning_moves_only_for_the_winner() {
        let won = json!({"to_move": "black", "winner": "black", "winning_moves": ["d4", "c5"]});
        assert_eq!(
            summary("hex-solve", &won),
            "black to move, black wins; winning moves: d4 c5"
        );
        let lost = json!({"to_move": "white", "winner": "black", "winning_moves": []});
        assert_eq!(summary("hex-solve", &lost), "white to move, black wins");
        let one = json!({"to_move": "white", "winner": "white", "winning_move": "b3"});
        assert_eq!(
            summary("hex-solve", &one),
            "white to move, white wins; winning move: b3"
        );
    }
}
