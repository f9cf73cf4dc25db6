//! `zermelo hex table`: the retrograde table of every position, for boards up to 4x4.

use crate::output::outln;
use std::path::PathBuf;

use serde_json::json;
use zermelo_hex::retro::{RetroTable, MAX_RETRO_SIZE};

/// Compute the retrograde table of every position of a board up to 4x4 and write it.
///
/// The file is zermelo's table container (see the book, docs/src/formats.md): a JSON header with `kind`
/// "hex-retrograde", `size`, `misere` and the value counts, then 2 bits per position indexed
/// by the base-3 number whose digit i is the content of cell i (0 empty, 1 black, 2 white):
/// 0 unreachable, 1 game over, 2 the side to move wins, 3 it loses.
#[derive(clap::Args)]
pub struct Args {
    /// Board size, 1 to 4.
    #[arg(long)]
    size: usize,
    /// The file to write.
    #[arg(long)]
    out: PathBuf,
    /// Misère play: the player who connects loses.
    #[arg(long)]
    misere: bool,
}

/// Runs `hex table`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if (1..=zermelo_hex::MAX_SIZE).contains(&args.size) && args.size > MAX_RETRO_SIZE {
        let cells = (args.size * args.size) as u32;
        anyhow::bail!(
            "a {0}x{0} retrograde table has 3^{cells} positions and does not fit in memory \
             (tables go up to {MAX_RETRO_SIZE}x{MAX_RETRO_SIZE})",
            args.size
        );
    }
    zermelo_store::ensure_writable(&args.out)?;
    let start = std::time::Instant::now();
    let table = RetroTable::compute(args.size, args.misere)?;
    let counts = table.counts();
    let header = json!({
        "kind": "hex-retrograde",
        "size": args.size,
        "misere": args.misere,
        "encoding": "base3 index, 2 bits per position: 0 unreachable, 1 game over, 2 win, 3 loss",
        "positions": 3u64.pow((args.size * args.size) as u32),
        "counts": {
            "unreachable": counts.illegal,
            "game_over": counts.game_over,
            "win": counts.win,
            "loss": counts.loss,
        },
        "zermelo_version": env!("CARGO_PKG_VERSION"),
    });
    zermelo_store::table::write(&args.out, &header, table.payload())?;
    outln!(
        "{0}x{0} {1} retrograde table: {2} positions in play ({3} wins, {4} losses for the side \
         to move), {5} finished games; written to {6} in {7:.2} s",
        args.size,
        if args.misere { "misère" } else { "normal" },
        counts.win + counts.loss,
        counts.win,
        counts.loss,
        counts.game_over,
        args.out.display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
