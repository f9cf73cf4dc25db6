//! `zermelo hex parity`: misère Hex on every board up to a size, checked against the parity
//! theorem of Lagarias and Sleator (the first player wins on even boards, the second on odd
//! ones, and the loser can make the game fill the board).

use crate::output::{out, outln};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};
use zermelo_batch::proofs::ProofFile;
use zermelo_hex::{Position, Solver, DEFAULT_LENGTH_SIZE};

use super::proofs::{keeping, ProofOptions};
use super::SearchOptions;
use crate::progress::Progress;

/// Solve misère Hex on every board from 1x1 to the given size: who wins, the winning openings,
/// the perfect-play length, and whether the parity theorem holds; write misere-parity.json/.md.
#[derive(clap::Args)]
pub struct Args {
    /// The largest board size, 1 to 11.
    #[arg(long)]
    max_size: usize,
    /// Folder where misere-parity.json and misere-parity.md are written.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Transposition table size in MiB (default: by board size, as for `hex solve`).
    #[arg(long)]
    tt_mb: Option<usize>,
    /// The proofs file is for the largest board, the one that takes the time: a run stopped
    /// there goes on from it, and the proofs of `hex openings --size N --misere --proofs` (or a
    /// batch run of them) let the largest size be checked without searching it again.
    #[command(flatten)]
    proofs: ProofOptions,
}

/// Runs `hex parity`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if !(1..=zermelo_hex::MAX_SIZE).contains(&args.max_size) {
        anyhow::bail!(
            "board size {} is out of range (1 to {})",
            args.max_size,
            zermelo_hex::MAX_SIZE
        );
    }
    if let Some(dir) = &args.out {
        crate::output::prepare_out_dir(dir)?;
    }
    let options = SearchOptions {
        misere: true,
        threads: args.threads,
        tt_mb: args.tt_mb,
    };
    // The largest board's solver first, so that a proofs file that does not fit is refused
    // before any work; the smaller boards get tables sized for them.
    let (largest, file) = args
        .proofs
        .open(options.solver(args.max_size)?, args.max_size)?;
    let mut sizes = (1..args.max_size)
        .map(|n| check_size(n, &options.solver(n)?, None, args.json))
        .collect::<anyhow::Result<Vec<_>>>()?;
    sizes.push(check_size(
        args.max_size,
        &largest,
        file.as_ref(),
        args.json,
    )?);
    let doc = json!({
        "misere": true,
        "rules": "misere",
        "max_size": args.max_size,
        "sizes": sizes,
        "theorem_holds_on_every_size": sizes.iter().all(|s| s["parity_theorem_holds"] == true),
        "threads": largest.threads(),
        "zermelo_version": env!("CARGO_PKG_VERSION"),
    });
    if args.json {
        outln!("{doc}")?;
    } else {
        out!("{}", text(&doc))?;
    }
    if let Some(dir) = &args.out {
        zermelo_store::json::write(&dir.join("misere-parity.json"), &doc)?;
        zermelo_store::atomic_write(&dir.join("misere-parity.md"), markdown(&doc).as_bytes())?;
    }
    Ok(())
}

/// Solves the misère openings of the n x n board (and the perfect-play length from the empty
/// board, where the search can afford it), keeping proofs in `file` if given: the size's JSON
/// entry.
fn check_size(
    n: usize,
    solver: &Solver,
    file: Option<&ProofFile>,
    json_output: bool,
) -> anyhow::Result<Value> {
    let start = Instant::now();
    let ((openings, plies), kept) = keeping(solver, file, || {
        let mut progress = Progress::new(
            &format!("misère {n}x{n}"),
            (n * n) as u64,
            "openings",
            json_output,
        );
        let openings = solver.openings(n, |o| progress.advance(1, &o.cell.to_string()))?;
        progress.finish();
        let plies = if n <= DEFAULT_LENGTH_SIZE {
            Some(solver.perfect_play_length(&Position::new(n)?)?)
        } else {
            None
        };
        Ok((openings, plies))
    })?;
    let winning: Vec<String> = openings
        .iter()
        .filter(|o| o.first_player_wins)
        .map(|o| o.cell.to_string())
        .collect();
    let first_wins = !winning.is_empty();
    let mut size = json!({
        "size": n,
        "first_player_wins": first_wins,
        "parity_theorem_holds": first_wins == (n % 2 == 0),
        "winning_openings": winning,
        "openings": openings.iter().map(|o| json!({
            "cell": o.cell.to_string(),
            "first_player_wins": o.first_player_wins,
            "nodes": o.nodes,
        })).collect::<Vec<_>>(),
        "plies": plies,
        "fills_the_board": plies.map(|p| p as usize == n * n),
        "seconds": start.elapsed().as_secs_f64(),
    });
    if let Some(kept) = kept {
        kept.annotate(&mut size);
    }
    Ok(size)
}

fn line(s: &Value) -> String {
    let n = s["size"].as_u64().unwrap_or(0);
    let plies = match s["plies"].as_u64() {
        Some(p) => format!("{p} plies of {} cells", n * n),
        None => "length not computed".to_string(),
    };
    format!(
        "{n}x{n}: {} player wins ({}); winning openings: {}; {plies}",
        if s["first_player_wins"] == true {
            "first"
        } else {
            "second"
        },
        if s["parity_theorem_holds"] == true {
            "as the parity theorem says"
        } else {
            "AGAINST the parity theorem"
        },
        join(&s["winning_openings"]),
    )
}

fn join(list: &Value) -> String {
    let cells: Vec<&str> = list
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if cells.is_empty() {
        "none".to_string()
    } else {
        cells.join(" ")
    }
}

fn text(doc: &Value) -> String {
    let mut s = String::new();
    for size in doc["sizes"].as_array().into_iter().flatten() {
        let _ = writeln!(s, "{}", line(size));
    }
    s
}

fn markdown(doc: &Value) -> String {
    let mut s = format!(
        "# Misère Hex and the parity theorem\n\nWritten by `zermelo hex parity --max-size {}` \
         (zermelo {}). In misère Hex the player who connects loses. Lagarias and Sleator proved \
         that the first player wins on even boards and the second on odd ones, and that the loser \
         can make the game last until the board is full; zermelo checks both by search.\n\n\
         | size | winner | theorem | winning openings | perfect-play length |\n\
         |---|---|---|---|---|\n",
        doc["max_size"],
        doc["zermelo_version"].as_str().unwrap_or("?")
    );
    for size in doc["sizes"].as_array().into_iter().flatten() {
        let n = size["size"].as_u64().unwrap_or(0);
        let _ = writeln!(
            s,
            "| {n}x{n} | {} | {} | {} | {} |",
            if size["first_player_wins"] == true {
                "first"
            } else {
                "second"
            },
            if size["parity_theorem_holds"] == true {
                "holds"
            } else {
                "FAILS"
            },
            join(&size["winning_openings"]),
            size["plies"]
                .as_u64()
                .map_or("not computed".to_string(), |p| format!(
                    "{p} plies ({} cells)",
                    n * n
                )),
        );
    }
    // Say where the largest size's values came from when a proofs file gave them.
    let sizes = doc["sizes"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if let Some(last) = sizes
        .last()
        .filter(|l| l["proofs_loaded"].as_u64() > Some(0))
    {
        let n = last["size"].as_u64().unwrap_or(0);
        let _ = write!(
            s,
            "\nThe {n}x{n} run started from {} positions proven by earlier runs of the same \
             openings (`--proofs`), and proved {} more.\n",
            last["proofs_loaded"], last["proofs_saved"]
        );
    }
    s
}
