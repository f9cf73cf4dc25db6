//! `zermelo hex strong`: the strong solution of a board up to 5x5, one file per layer of stones.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context};
use serde_json::json;
use zermelo_batch::strong::{self, LayerRecord, Observer};
use zermelo_hex::strong::Engine;
use zermelo_hex::Rules;

use super::{rules_name, rules_prose};
use crate::output::{errln, outln};
use crate::progress::Progress;

/// Solve every position of a board by layered retrograde analysis and write one checksummed
/// file per layer of stones (the strong solution), from the full board down.
///
/// Layer K holds every position with K stones (Black as many as White or one more), one bit a
/// position: whether the side to move wins. Each layer is written as soon as it is finished, so
/// a run stopped anywhere goes on from its last finished layer when run again with the same
/// folder. Memory: the two largest neighbouring layers (5x5: 6.1 GiB, layers 16 and 17),
/// checked before anything is allocated. `zermelo hex lookup --db DIR` answers positions from
/// the folder.
#[derive(clap::Args)]
pub struct Args {
    /// Board size, 1 to 5 (6 only for endgame layers, with --down-to).
    #[arg(long)]
    size: usize,
    /// Misère play: the player who connects loses.
    #[arg(long)]
    misere: bool,
    /// The database folder (created if missing); a run there goes on from its last finished
    /// layer.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Stop once layer K (K stones on the board) is written: an endgame table of the positions
    /// with at most n² − K empty cells. 0, the default, is the whole solution.
    #[arg(long, value_name = "K", default_value_t = 0)]
    down_to: usize,
    /// Re-check the layers in DIR instead of computing new ones: each is recomputed from the
    /// file of the layer above and compared with its own file, bit for bit (every finished
    /// layer, or those given with --layer).
    #[arg(long)]
    verify: bool,
    /// With --verify: a layer to check (repeat for several).
    #[arg(long, value_name = "K", requires = "verify")]
    layer: Vec<usize>,
    /// The memory the run may take, e.g. 16G or 512M (default: the memory available now).
    #[arg(long, value_name = "BYTES")]
    memory: Option<String>,
    /// Threads, 1 to 1024 (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Search every position, rather than one of each pair that the 180° rotation maps onto
    /// each other: the same files, more slowly (a check, and a measure of what the rotation
    /// saves).
    #[arg(long)]
    no_rotation: bool,
    /// Print one JSON object with every finished layer instead of the table.
    #[arg(long)]
    json: bool,
}

/// Reports layers to a progress bar (or log lines): the current layer, and the time and rate
/// of the last one finished.
struct Report {
    progress: Progress,
    /// The message shown: "layer K" and, once a layer is done, its figures.
    current: Mutex<(usize, String)>,
    quiet: bool,
}

impl Report {
    fn message(&self) -> String {
        let current = self.current.lock().expect("report lock");
        format!("layer {}{}", current.0, current.1)
    }
}

impl Observer for Report {
    fn say(&self, line: &str) {
        if !self.quiet {
            errln!("{line}");
        }
    }

    fn layer_started(&self, stones: usize, _positions: u64) {
        self.current.lock().expect("report lock").0 = stones;
        self.progress.advance(0, &self.message());
    }

    fn advance(&self, positions: u64) {
        self.progress.advance(positions, &self.message());
    }

    fn layer_done(&self, record: &LayerRecord) {
        let seconds = record.seconds.unwrap_or(0.0);
        self.current.lock().expect("report lock").1 = format!(
            " (layer {}: {seconds:.1} s, {:.1}M positions/s)",
            record.stones,
            rate(record.counts.positions, seconds) / 1e6
        );
    }
}

/// Positions a second.
fn rate(positions: u64, seconds: f64) -> f64 {
    positions as f64 / seconds.max(1e-9)
}

/// Runs `hex strong`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = if args.misere {
        Rules::Misere
    } else {
        Rules::Normal
    };
    if args.size > zermelo_hex::strong::MAX_STRONG_SIZE && args.size <= zermelo_hex::MAX_SIZE {
        bail!(
            "a {0}x{0} board is beyond the strong solution (1x1 to 5x5, and 6x6 endgame layers)",
            args.size
        );
    }
    let mut engine = Engine::new(args.size, rules)?;
    if args.no_rotation {
        engine = engine.without_rotation();
    }
    let cells = engine.ranking().cells();
    if args.down_to > cells {
        bail!(
            "--down-to {} is beyond the {cells} cells of the board",
            args.down_to
        );
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        crate::check_threads(t)?;
        pool = pool.num_threads(t);
    }
    let pool = pool.build()?;

    let lowest = strong::lowest_finished(&args.out, &engine)?;
    let layers: Vec<usize> = if args.verify {
        let Some(lowest) = lowest else {
            bail!(
                "{} has no finished layers of the {} solution to verify",
                args.out.display(),
                describe(&engine)
            );
        };
        if args.layer.is_empty() {
            (lowest..=cells).collect()
        } else {
            args.layer.clone()
        }
    } else {
        (args.down_to..lowest.unwrap_or(cells + 1)).collect()
    };
    let needed = if args.verify {
        layers
            .iter()
            .map(|&k| strong::pair_bytes(&engine, k))
            .max()
            .unwrap_or(0)
    } else {
        strong::memory_needed(&engine, lowest, args.down_to)
    };
    check_memory(&engine, needed, args.memory.as_deref())?;

    let total: u64 = layers
        .iter()
        .filter(|&&k| k <= cells)
        .map(|&k| engine.ranking().layer_len(k))
        .sum();
    let label = format!(
        "{} {}",
        describe(&engine),
        if args.verify { "verify" } else { "strong" }
    );
    let mut report = Report {
        progress: Progress::new(&label, total, "positions", args.json),
        current: Mutex::new((0, String::new())),
        quiet: args.json,
    };
    let result = pool.install(|| {
        if args.verify {
            strong::verify(&args.out, &engine, &layers, &report)
        } else {
            strong::solve(&args.out, &engine, args.down_to, &report)
        }
    });
    report.progress.finish();
    let records = result?;
    print(&args, &engine, &records)
}

/// "5x5 normal", "4x4 misère".
fn describe(engine: &Engine) -> String {
    let n = engine.ranking().size();
    format!("{n}x{n} {}", rules_prose(engine.rules()))
}

/// Refuses a run whose two largest layers exceed `--memory`, or the memory available.
fn check_memory(engine: &Engine, needed: u64, limit: Option<&str>) -> anyhow::Result<()> {
    let what = format!("the {} strong solution", describe(engine));
    match limit {
        Some(text) => {
            let limit = parse_bytes(text).with_context(|| format!("--memory {text}"))?;
            if needed > limit {
                bail!(
                    "{what} needs {} MiB for its two largest layers, more than --memory {text}",
                    needed.div_ceil(1 << 20)
                );
            }
            Ok(())
        }
        None => crate::memory::ensure_fits(&what, u128::from(needed), |_| {
            "free some memory, or compute fewer layers with --down-to".to_string()
        }),
    }
}

/// Bytes from "16G", "512M", "64K" (powers of 1024) or a plain number.
fn parse_bytes(text: &str) -> anyhow::Result<u64> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => bail!("not a size: give bytes, or a number with K, M, G or T"),
            };
            (&text[..i], shift)
        }
        _ => (text, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| anyhow::anyhow!("not a size: give bytes, or a number with K, M, G or T"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| anyhow::anyhow!("absurdly large"))
}

fn print(args: &Args, engine: &Engine, records: &[LayerRecord]) -> anyhow::Result<()> {
    let out: &Path = &args.out;
    if args.json {
        let layers: Vec<_> = records
            .iter()
            .map(|r| {
                json!({
                    "stones": r.stones,
                    "positions": r.counts.positions,
                    "terminal": r.counts.terminal,
                    "mover_wins": r.counts.mover_wins,
                    "seconds": r.seconds,
                    "checksum": format!("crc32:{:08x}", r.checksum),
                })
            })
            .collect();
        let doc = json!({
            "size": engine.ranking().size(),
            "rules": rules_name(engine.rules()),
            "db": out.display().to_string(),
            "verified": args.verify,
            "layers": layers,
        });
        return Ok(outln!("{doc}")?);
    }
    outln!("stones     positions      terminal    mover wins   seconds  positions/s  checksum")?;
    for r in records {
        let seconds = r.seconds.map_or("-".to_string(), |s| format!("{s:.2}"));
        let speed = r.seconds.map_or("-".to_string(), |s| {
            format!("{:.1}M", rate(r.counts.positions, s) / 1e6)
        });
        outln!(
            "{:>6} {:>13} {:>13} {:>13} {seconds:>9} {speed:>12}  {:08x}",
            r.stones,
            r.counts.positions,
            r.counts.terminal,
            r.counts.mover_wins,
            r.checksum
        )?;
    }
    let what = if args.verify { "verified" } else { "in" };
    outln!(
        "{}: {} layer(s) {what} {}",
        describe(engine),
        records.len(),
        out.display()
    )?;
    if !args.verify && records.iter().any(|r| r.stones == 0) {
        let mut db = strong::Database::open(out)?;
        let empty = db.analyse(0, 0)?;
        outln!(
            "the first player {} the empty board",
            if empty.mover_wins { "wins" } else { "loses" }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_bytes("16G").unwrap(), 16 << 30);
        assert_eq!(parse_bytes("512m").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("12X").is_err());
        assert!(parse_bytes("G").is_err());
        assert!(parse_bytes("99999999999T").is_err());
    }
}
