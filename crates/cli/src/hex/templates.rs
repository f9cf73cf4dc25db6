//! `zermelo hex templates`: find and prove the edge templates, and write the list the solver
//! starts from.

use std::path::PathBuf;
use std::time::Instant;

use crate::output::{errln, outln};
use zermelo_hex::templates;

/// The highest row the finder searches (its regions fit 64 cells up to there).
const MAX_ROW: i8 = 5;

/// Find every minimal edge template of rows 2 to --max-row whose carrier lies in the finder's
/// search region, and those with a second stone that the connection engine does not derive
/// (each proven by exhaustive play inside its carrier), and write the list in the format of
/// crates/hex/data/edge-templates.txt, which this command regenerates with the default
/// options.
#[derive(clap::Args)]
pub struct Args {
    /// The highest row, 2 to 5.
    #[arg(long, default_value_t = MAX_ROW)]
    max_row: i8,
    /// The largest carrier kept in the list, in cells; the default is the committed list's
    /// (see the finder's documentation for why it leaves out a larger template).
    #[arg(long, default_value_t = templates::MAX_CELLS)]
    max_cells: usize,
    /// The largest carrier kept for a template with a second stone, in cells; the default is
    /// the committed list's.
    #[arg(long, default_value_t = templates::MAX_CELLS_WITH_STONES)]
    max_cells_with_stones: usize,
    /// The file to write (the list is printed when not given).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `hex templates`.
pub fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        (2..=MAX_ROW).contains(&args.max_row),
        "--max-row {} is out of range (2 to {MAX_ROW})",
        args.max_row
    );
    if let Some(out) = &args.out {
        zermelo_store::ensure_writable(out)?;
    }
    let start = Instant::now();
    let max_cells = [args.max_cells, args.max_cells_with_stones];
    let found = templates::find(args.max_row, max_cells, |row, stones, list, larger| {
        let left_out = if larger > 0 {
            format!(
                ", {larger} of more than {} cells left out",
                max_cells[stones]
            )
        } else {
            String::new()
        };
        errln!(
            "{}: {} templates{left_out} ({:.1} s)",
            templates::kind(row, stones),
            list.len(),
            start.elapsed().as_secs_f64()
        );
    })?;
    let command = format!(
        "zermelo hex templates --max-row {} --max-cells {} --max-cells-with-stones {}",
        args.max_row, args.max_cells, args.max_cells_with_stones
    );
    let text = templates::to_text(&found, &command);
    match &args.out {
        Some(path) => {
            zermelo_store::atomic_write(path, text.as_bytes())?;
            outln!(
                "{} templates written to {} in {:.1} s",
                found.len(),
                path.display(),
                start.elapsed().as_secs_f64()
            )?;
        }
        None => crate::output::out!("{text}")?,
    }
    Ok(())
}
