//! `zermelo hackenbush`: the value of a Green Hackenbush drawing, P or N, and every winning move
//! as the edge to erase; optionally its picture.

mod picture;

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use serde_json::json;
use zermelo_grundy::hackenbush::Drawing;

use crate::output::outln;

/// The largest drawing file read (a few bytes an edge, so far above any drawing that can be
/// solved; checked before reading).
const MAX_FILE_BYTES: u64 = 64 << 20;

/// How many fallen edges the text output names.
const FALLEN_SHOWN: usize = 20;

/// Green Hackenbush: the value of a drawing, P or N, and every winning move (the edge to erase).
///
/// A drawing is a list of edges U-V between numbered vertices; vertex 0 is the ground, U-U is a
/// loop, an edge may repeat. A move erases one edge, and every edge no longer joined to the
/// ground falls with it; whoever erases the last edge wins. Edges that nothing joins to the
/// ground fall at once, before play. Example: `zermelo hackenbush 0-1 1-2 2-0 1-3`.
#[derive(ClapArgs)]
pub struct Args {
    /// The edges, as U-V (commas may also separate them).
    edges: Vec<String>,
    /// Read the edges from a file instead: the same tokens (`#` starts a comment), or a Graphviz
    /// DOT graph whose nodes are vertex numbers (`graph { 0 -- 1 -- 2 -- 0 }`).
    #[arg(long, value_name = "PATH", conflicts_with = "edges")]
    file: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw the drawing as SVG into FILE (winning moves in red, fallen edges dashed).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// Runs `zermelo hackenbush`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let drawing = match &args.file {
        Some(path) => {
            let size = std::fs::metadata(path)
                .with_context(|| format!("cannot read {}", path.display()))?
                .len();
            if size > MAX_FILE_BYTES {
                bail!(
                    "{} has {size} bytes, more than the {MAX_FILE_BYTES} a drawing file may have",
                    path.display()
                );
            }
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Drawing::from_text(&text).with_context(|| path.display().to_string())?
        }
        None => {
            if args.edges.is_empty() {
                bail!("give the edges (as in 0-1 1-2 2-0) or --file PATH");
            }
            Drawing::parse(
                args.edges
                    .iter()
                    .flat_map(|t| t.split(','))
                    .filter(|t| !t.is_empty()),
            )?
        }
    };
    let analysis = drawing.analyse();
    let value = analysis.value();
    let outcome = if value == 0 { "P" } else { "N" };
    let winning = analysis.winning_moves();
    if let Some(path) = &args.svg {
        let doc = picture::svg(&drawing, &analysis, winning.as_deref().unwrap_or(&[]));
        zermelo_store::atomic_write(path, doc.as_bytes())?;
    }
    let skipped = format!(
        "the winning moves need {} steps of work, more than the {} allowed",
        analysis.erasure_work(),
        zermelo_grundy::hackenbush::DEFAULT_MOVE_BUDGET
    );
    if args.json {
        let moves = winning.as_ref().map(|w| {
            w.iter()
                // Numbered from 1, in the order the edges were given.
                .map(|&e| json!({"edge": e + 1, "erase": drawing.edge_name(e)}))
                .collect::<Vec<_>>()
        });
        let fallen: Vec<_> = analysis.fallen().iter().map(|&e| e + 1).collect();
        let mut out = json!({
            "edges": drawing.edge_count(),
            "fallen": fallen,
            "value": value,
            "outcome": outcome,
            "winning_moves": moves,
        });
        if winning.is_none() {
            out["winning_moves_skipped"] = json!(skipped);
        }
        outln!("{out}")?;
        return Ok(());
    }
    let standing = drawing.edge_count() - analysis.fallen().len();
    outln!(
        "drawing: {} edges on {} vertices besides the ground",
        drawing.edge_count(),
        drawing.vertex_count() - 1
    )?;
    if !analysis.fallen().is_empty() {
        let names: Vec<String> = analysis
            .fallen()
            .iter()
            .take(FALLEN_SHOWN)
            .map(|&e| drawing.edge_name(e))
            .collect();
        let more = analysis.fallen().len().saturating_sub(FALLEN_SHOWN);
        let fell = analysis.fallen().len();
        outln!(
            "{fell} {} at once, no path joining {} to the ground: {}{}; {standing} {}",
            if fell == 1 {
                "edge falls"
            } else {
                "edges fall"
            },
            if fell == 1 { "it" } else { "them" },
            names.join(" "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            if standing == 1 { "stands" } else { "stand" }
        )?;
    }
    outln!("value: {value}")?;
    if value == 0 {
        outln!("P-position: the player to move loses")?;
    } else {
        outln!("N-position: the player to move wins")?;
        match &winning {
            Some(list) => {
                for &e in list {
                    outln!(
                        "  winning move: erase {} (edge {})",
                        drawing.edge_name(e),
                        e + 1
                    )?;
                }
            }
            None => outln!("  winning moves not listed: {skipped}")?,
        }
    }
    if let Some(path) = &args.svg {
        outln!("picture written to {}", path.display())?;
    }
    Ok(())
}
