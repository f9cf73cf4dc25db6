//! `zermelo grundy`: Sprague–Grundy tables of octal, subtraction and piece games, and the
//! `show` command for stored tables.

mod census;
mod plot;

pub(crate) use zermelo_batch::table::{self, KIND as TABLE_KIND};

use crate::output::outln;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::{Args as ClapArgs, Subcommand};
use serde_json::{json, Value};
use zermelo_batch::octal::{OctalRun, Outcome as OctalOutcome};
use zermelo_grundy::period::{self, Periodicity, ProofRule};
use zermelo_grundy::piece::{PieceGame, PieceTable};
use zermelo_grundy::subtraction::SubtractionGame;
use zermelo_grundy::OctalGame;

use crate::progress::Progress;

/// Sprague–Grundy tables: octal and hexadecimal games, subtraction games, piece games.
#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The values of an octal or hexadecimal game, e.g. `0.77` (Kayles), `0.07`, `4!.0`
    /// (Grundy's game), with its period when one is established.
    Octal(OctalArgs),
    /// The values of a subtraction game S(1,3,4) or all-but subtraction game.
    Subtraction(SubtractionArgs),
    /// The values of a piece moving towards the corner of an N x N board.
    Piece(PieceArgs),
    /// Summary and values of a table written with --out.
    Show(ShowArgs),
    /// Every octal game 0.d1…dN and 4.d1…dN, classified as periodic (proven), equivalent to an
    /// earlier one or unsolved; checkpointed per game, resumed by running it again.
    Census(census::CensusArgs),
}

/// Which engine computes an octal table.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EngineChoice {
    /// The sparse-space engine where it applies (splits into at most two heaps), else naive.
    Auto,
    /// The sparse-space engine.
    Sparse,
    /// The reference engine: every option of every heap.
    Naive,
}

#[derive(ClapArgs)]
struct OctalArgs {
    /// The game code: a digit, a point and digits (octal or hexadecimal), `!` after a digit
    /// for unequal splits.
    code: String,
    /// Compute G(0..=N); a whole number or a power such as 2^22.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max: String,
    /// Stop as soon as the period is proven (values beyond follow from it).
    #[arg(long)]
    stop_when_proven: bool,
    /// Write the table to FILE (atomically, with checkpoints while computing).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the run stored in FILE (checkpoints go back to FILE unless --out is given).
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// Replace the file at --out if one is there (without it, an existing file is refused).
    #[arg(long, requires = "out")]
    force: bool,
    /// Keep the table in the folder DIR as pieces of --piece values, each written once as it
    /// fills (checksummed, atomically), the last at each checkpoint: for tables too large to
    /// rewrite at every checkpoint. Run the same command again to resume.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "resume"])]
    stream: Option<PathBuf>,
    /// Values per piece of a new --stream folder (default 2^24, 32 MiB a piece).
    #[arg(
        long,
        value_name = "N",
        requires = "stream",
        allow_hyphen_values = true
    )]
    piece: Option<String>,
    /// Seconds between checkpoints (at least 1).
    #[arg(long, value_name = "SECS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_secs: u64,
    /// Engine.
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    engine: EngineChoice,
    /// Threads (default: one per core, or RAYON_NUM_THREADS): with 2 or more, two threads
    /// compute each block of heaps from its two ends (sparse engine; only while timing shows
    /// it pays) or the option scans are split (naive engine). The values are the same for any
    /// number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print one JSON object instead of text (no progress output).
    #[arg(long)]
    json: bool,
    /// Include the values G(0..=computed).
    #[arg(long)]
    values: bool,
}

#[derive(ClapArgs)]
struct SubtractionArgs {
    /// The subtraction set, comma-separated, e.g. 1,3,4.
    #[arg(allow_hyphen_values = true)]
    set: String,
    /// The set lists the numbers that may NOT be taken.
    #[arg(long)]
    all_but: bool,
    /// Misère values (0 exactly at misère P-positions).
    #[arg(long)]
    misere: bool,
    /// Compute G(0..=N).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    max: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Include the values G(0..=N).
    #[arg(long)]
    values: bool,
}

#[derive(ClapArgs)]
struct PieceArgs {
    /// A named piece: wythoff, knight or rook (or give --jumps / --slides instead).
    game: Option<String>,
    /// Jump vectors dx,dy;dx,dy…: the piece goes from (x, y) to (x - dx, y - dy).
    #[arg(long, allow_hyphen_values = true)]
    jumps: Option<String>,
    /// Slide vectors dx,dy;…: any positive number of steps along the vector.
    #[arg(long, allow_hyphen_values = true)]
    slides: Option<String>,
    /// Board side N, 1 to 32768: cells (0..N) x (0..N). Pieces that slide (wythoff, rook,
    /// --slides) look at about N³ moves: N = 1000 took 5 s and N = 1500 two minutes on the
    /// development machine, so a few thousand is the practical limit. Pieces that only jump
    /// (knight, --jumps) look at about N² moves: N = 4096 took 1 s; 32768 takes 2 GiB of memory.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    size: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Include the values, row by row.
    #[arg(long)]
    values: bool,
}

#[derive(ClapArgs)]
struct ShowArgs {
    /// A table written by `zermelo grundy octal --out`, or the folder of `--stream`.
    file: PathBuf,
    /// First heap to list (a whole number or a power such as 2^20).
    #[arg(long, default_value = "0", value_parser = heap)]
    from: u64,
    /// Last heap to list (beyond the table only when the period is proven); default: the
    /// first 64 values, or the whole table with --csv.
    #[arg(long, value_parser = heap)]
    to: Option<u64>,
    /// Print the range as CSV (n,value) instead of text.
    #[arg(long)]
    csv: bool,
    /// Print the summary (and, with --values, the values) as JSON.
    #[arg(long)]
    json: bool,
    /// With --json, include the values of the range.
    #[arg(long)]
    values: bool,
    /// Write a plot of the values against the heap size to FILE, an SVG picture (default
    /// range: the whole table).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["csv", "json"])]
    plot: Option<PathBuf>,
}

/// Runs `zermelo grundy`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Octal(a) => octal(a),
        Command::Subtraction(a) => subtraction(a),
        Command::Piece(a) => piece(a),
        Command::Show(a) => show(a),
        Command::Census(a) => census::run(a),
    }
}

/// A heap given as digits or as a power `B^K`, as clap parses `--from` and `--to`.
fn heap(text: &str) -> Result<u64, String> {
    zermelo_grundy::parse_count(text, "heap").map_err(|e| e.to_string())
}

/// The largest heap of a table asked for with `--max`, checked against the largest table
/// zermelo computes and the memory available, before anything is allocated.
fn table_max(text: &str) -> anyhow::Result<usize> {
    let max = zermelo_grundy::parse_count(text, "--max")?;
    if max > OCTAL_MAX {
        bail!("--max {max} is beyond the largest table zermelo computes ({OCTAL_MAX})");
    }
    crate::memory::ensure_fits(
        &format!("a table of {} values", max + 1),
        u128::from(max + 1) * OCTAL_BYTES_PER_VALUE,
        |available| {
            let fits = (u128::from(available) / OCTAL_BYTES_PER_VALUE).saturating_sub(1);
            format!("--max {fits} fits")
        },
    )?;
    Ok(max as usize)
}

/// Bytes per value of an octal run: the values (2), the period search (4 for its prefix
/// function over half the table: 2), with some slack. The sparse engine's other state is
/// proportional to the rare heaps; reading a table back to resume it holds its bytes and its
/// values at once (4).
const OCTAL_BYTES_PER_VALUE: u128 = 5;

/// The largest --max of an octal run: heap indices are kept as u32.
const OCTAL_MAX: u64 = zermelo_grundy::MAX_HEAP as u64 - 1;

/// Set by Ctrl-C or SIGTERM: the run writes a checkpoint and stops.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let setter = Arc::clone(&flag);
    // Installing twice is impossible within one run; if another handler exists already the run
    // simply cannot be interrupted cleanly, which is not worth failing over.
    let _ = ctrlc::set_handler(move || setter.store(true, Ordering::SeqCst));
    flag
}

fn period_json(p: Option<Periodicity>) -> (Value, Value, Value) {
    match p {
        Some(p) => (json!(p.preperiod), json!(p.period), json!(p.proven)),
        None => (Value::Null, Value::Null, json!(false)),
    }
}

fn octal(args: OctalArgs) -> anyhow::Result<()> {
    let game: OctalGame = args.code.parse()?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    // Without --threads, like rayon: RAYON_NUM_THREADS (which the batch runner sets), else one
    // per core.
    if let Some(t) = args.threads {
        crate::check_threads(t)?;
        pool = pool.num_threads(t);
    }
    let pool = pool.build()?;
    pool.install(|| octal_run(args, game))
}

fn octal_run(args: OctalArgs, game: OctalGame) -> anyhow::Result<()> {
    let max = table_max(&args.max)?;
    let sparse = match args.engine {
        EngineChoice::Naive => false,
        EngineChoice::Sparse => true,
        EngineChoice::Auto => !game.has_three_heap_moves(),
    };
    let piece = match &args.piece {
        Some(text) => Some(usize::try_from(zermelo_grundy::parse_count(
            text, "--piece",
        )?)?),
        None => None,
    };
    let run = OctalRun {
        game: game.clone(),
        max,
        sparse,
        stop_when_proven: args.stop_when_proven,
        out: args.out.clone(),
        resume: args.resume.clone(),
        stream: args.stream.clone(),
        piece,
        checkpoint_every: Duration::from_secs(args.checkpoint_secs),
        replace: args.force,
    };
    let interrupted = interrupt_flag();
    // Started once the engine is ready, as a resumed table is read first.
    let mut progress: Option<Progress> = None;
    let outcome = run.run(&interrupted, |values, status| {
        progress
            .get_or_insert_with(|| {
                Progress::new(
                    &format!("grundy {game}"),
                    max as u64 + 1,
                    "values",
                    args.json,
                )
            })
            .set_position(values as u64, status);
    });
    let table = match outcome? {
        OctalOutcome::Finished(table) => table,
        OctalOutcome::Stopped { at, checkpoint } => {
            if let Some(progress) = &mut progress {
                progress.finish();
            }
            if let Some(dir) = &args.stream {
                bail!(
                    "interrupted at n = {at}; checkpoint written to {}, continue with the same \
                     command",
                    dir.display()
                );
            }
            match &checkpoint {
                Some(path) => bail!(
                    "interrupted at n = {at}; checkpoint written to {}, continue with --resume {}",
                    path.display(),
                    path.display()
                ),
                None => bail!("interrupted at n = {at} (no --out file, nothing saved)"),
            }
        }
    };
    if let Some(progress) = &mut progress {
        if table.stopped_on_proof {
            progress.finish_early(table.values.len() as u64, "stopped: period proven");
        } else {
            progress.finish();
        }
    }
    let rule = ProofRule::for_octal(&game);
    let (engine_name, seconds, stopped_on_proof) =
        (table.engine, table.seconds, table.stopped_on_proof);
    let (found, resumed_from, checkpoint_path) =
        (table.period, table.resumed_from, table.checkpoint);
    let values = table.values;
    let computed = values.len() - 1;
    let max_value = values.iter().copied().max().unwrap_or(0);
    if args.json {
        let (preperiod, period, proven) = period_json(found);
        let mut out = json!({
            "game": game.to_string(),
            "family": "octal",
            "computed": computed,
            "max_value": max_value,
            "preperiod": preperiod,
            "period": period,
            "proven": proven,
            "stopped_on_proof": stopped_on_proof,
            "engine": engine_name,
            "seconds": seconds,
        });
        if let Some(from) = resumed_from {
            out["resumed_from"] = json!(from);
        }
        if let Some(path) = &checkpoint_path {
            out["out"] = json!(path.display().to_string());
        }
        if args.values {
            out["values"] = json!(values);
        }
        outln!("{out}")?;
    } else {
        outln!("game {game} (octal), {engine_name} engine, {seconds:.2} s")?;
        outln!("computed G(0..={computed}); largest value {max_value}")?;
        print_period(found, rule, computed)?;
        if args.values {
            print_values(&values, 0)?;
        }
        match &args.stream {
            Some(dir) => outln!("table streamed to {}", dir.display())?,
            None => {
                if let Some(path) = &checkpoint_path {
                    outln!("table written to {}", path.display())?;
                }
            }
        }
    }
    Ok(())
}

fn print_period(
    found: Option<Periodicity>,
    rule: ProofRule,
    computed: usize,
) -> std::io::Result<()> {
    match found {
        Some(p) if p.proven => outln!(
            "period {} from {} (preperiod), proven: {} (values up to {})",
            p.period,
            p.preperiod,
            match rule {
                ProofRule::Window { .. } => "each value depends only on the last few",
                _ => "Guy–Smith check",
            },
            p.last_needed
        ),
        Some(p) => outln!(
            "apparent period {} from {}, not proven (no proof argument for this game)",
            p.period,
            p.preperiod
        ),
        None => outln!("not periodic up to n = {computed} (no period established)"),
    }
}

/// Prints values 16 to a line, each line led by the heap of its first value. Buffered: a long
/// table is millions of lines.
fn print_values(values: &[u16], first: usize) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (row, chunk) in values.chunks(16).enumerate() {
        write!(out, "{:>8}:", first + row * 16)?;
        for v in chunk {
            write!(out, " {v:>3}")?;
        }
        writeln!(out)?;
    }
    out.flush()
}

fn subtraction(args: SubtractionArgs) -> anyhow::Result<()> {
    let game = SubtractionGame::parse(&args.set, args.all_but)?;
    let max = table_max(&args.max)?;
    let started = Instant::now();
    let values = if args.misere {
        game.misere_values(max)?
    } else {
        game.values(max)?
    };
    let seconds = started.elapsed().as_secs_f64();
    let rule = game.proof_rule();
    let found = period::find(&values, rule);
    let max_value = values.iter().copied().max().unwrap_or(0);
    if args.json {
        let (preperiod, period, proven) = period_json(found);
        let mut out = json!({
            "game": game.to_string(),
            "family": if args.all_but { "all-but subtraction" } else { "subtraction" },
            "misere": args.misere,
            "computed": max,
            "max_value": max_value,
            "preperiod": preperiod,
            "period": period,
            "proven": proven,
            "seconds": seconds,
        });
        if args.values {
            out["values"] = json!(values);
        }
        outln!("{out}")?;
    } else {
        let play = if args.misere { "misère" } else { "normal" };
        outln!("game {game}, {play} play")?;
        outln!("computed G(0..={max}); largest value {max_value}")?;
        print_period(found, rule, max)?;
        if args.values || max < 64 {
            print_values(&values, 0)?;
        }
    }
    Ok(())
}

fn piece(args: PieceArgs) -> anyhow::Result<()> {
    let game = match (&args.game, &args.jumps, &args.slides) {
        (Some(name), None, None) => match name.to_ascii_lowercase().as_str() {
            "wythoff" | "queen" => PieceGame::wythoff(),
            "knight" | "horses" => PieceGame::knight(),
            "rook" => PieceGame::rook(),
            other => bail!("unknown piece {other:?} (known: wythoff, knight, rook)"),
        },
        (None, jumps, slides) if jumps.is_some() || slides.is_some() => {
            let mut moves = Vec::new();
            if let Some(j) = jumps {
                moves.extend(PieceGame::parse_vectors(j, false)?);
            }
            if let Some(s) = slides {
                moves.extend(PieceGame::parse_vectors(s, true)?);
            }
            PieceGame::new("custom", moves)?
        }
        (None, None, None) => {
            bail!("name a piece (wythoff, knight or rook) or give its moves with --jumps/--slides")
        }
        _ => bail!("give either a named piece or --jumps/--slides, not both"),
    };
    let size = zermelo_grundy::parse_count(&args.size, "--size")?;
    if size == 0 || size > zermelo_grundy::piece::MAX_SIZE as u64 {
        bail!(
            "--size {size} is outside 1..={}",
            zermelo_grundy::piece::MAX_SIZE
        );
    }
    crate::memory::ensure_fits(
        &format!("a {size} x {size} board"),
        u128::from(size) * u128::from(size) * 2,
        |available| format!("--size {} fits", ((available / 2) as f64).sqrt() as u64),
    )?;
    let size = size as usize;
    let started = Instant::now();
    let mut progress = Progress::new(
        &format!("piece {game} {size}x{size}"),
        game.move_count(size),
        "moves",
        args.json,
    );
    let table = game.solve_with_progress(size, |moves| progress.set_position(moves, ""))?;
    progress.finish();
    let seconds = started.elapsed().as_secs_f64();
    let max_value = table.values().iter().copied().max().unwrap_or(0);
    let zeros = table.values().iter().filter(|&&v| v == 0).count();
    if args.json {
        let mut out = json!({
            "game": game.to_string(),
            "family": "piece",
            "size": size,
            "computed": size - 1,
            "max_value": max_value,
            "preperiod": Value::Null,
            "period": Value::Null,
            "proven": false,
            "p_positions": zeros,
            "seconds": seconds,
        });
        if args.values {
            out["values"] = json!(rows(&table));
        }
        outln!("{out}")?;
    } else {
        outln!("game {game} on a {size} x {size} board (row y, column x; corner (0,0))")?;
        outln!("largest value {max_value}; {zeros} P-positions")?;
        if args.values || size <= 32 {
            for row in rows(&table) {
                let line: Vec<String> = row.iter().map(|v| format!("{v:>3}")).collect();
                outln!("{}", line.join(" "))?;
            }
        }
    }
    Ok(())
}

fn rows(table: &PieceTable) -> Vec<Vec<u16>> {
    table
        .values()
        .chunks(table.size())
        .map(<[u16]>::to_vec)
        .collect()
}

fn show(args: ShowArgs) -> anyhow::Result<()> {
    // A table file, or the folder of `grundy octal --stream`.
    let stored = table::read_any(&args.file)?;
    let computed = stored.values.len().saturating_sub(1) as u64;
    let proven = stored.period.filter(|p| p.proven);
    let to = args.to.unwrap_or(if args.csv || args.plot.is_some() {
        computed
    } else {
        (args.from + 63).min(computed)
    });
    if args.from > to {
        bail!("--from {} is after --to {to}", args.from);
    }
    if to > computed && proven.is_none() {
        bail!(
            "{}: the table stops at n = {computed} and has no proven period to go beyond it",
            args.file.display()
        );
    }
    let value_at = |n: u64| -> u16 {
        match proven {
            Some(p) => p.value(&stored.values, n as usize),
            None => stored.values[n as usize],
        }
    };
    if to - args.from > 100_000_000 {
        bail!(
            "the range --from {} --to {to} is too long to print",
            args.from
        );
    }
    if let Some(path) = &args.plot {
        let mut title = format!("G(n) of {}, n = {} to {to}", stored.game, args.from);
        if let Some(p) = stored.period {
            title.push_str(&format!(
                "; period {} from {}{}",
                p.period,
                p.preperiod,
                if p.proven { ", proven" } else { ", not proven" }
            ));
        }
        let preperiod = proven.map(|p| p.preperiod as u64);
        let doc = plot::svg(&title, args.from, to, value_at, preperiod);
        zermelo_store::atomic_write(path, doc.as_bytes())?;
        outln!(
            "plot of G({}..={to}) written to {}",
            args.from,
            path.display()
        )?;
        return Ok(());
    }
    if args.csv {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        writeln!(out, "n,value")?;
        for n in args.from..=to {
            writeln!(out, "{n},{}", value_at(n))?;
        }
        out.flush()?;
        return Ok(());
    }
    let max_value = stored.values.iter().copied().max().unwrap_or(0);
    if args.json {
        let (preperiod, period, proven_json) = period_json(stored.period);
        let mut out = json!({
            "game": stored.game.to_string(),
            "family": "octal",
            "computed": computed,
            "target": stored.target,
            "complete": stored.complete,
            "max_value": max_value,
            "preperiod": preperiod,
            "period": period,
            "proven": proven_json,
        });
        if args.values {
            out["values"] = json!((args.from..=to).map(value_at).collect::<Vec<_>>());
            out["from"] = json!(args.from);
        }
        outln!("{out}")?;
        return Ok(());
    }
    outln!("table {} of game {}", args.file.display(), stored.game)?;
    outln!(
        "G(0..={computed}) of a run to {}{}; largest value {max_value}",
        stored.target,
        if stored.complete {
            ""
        } else {
            " (checkpoint, unfinished)"
        }
    )?;
    print_period(
        stored.period,
        ProofRule::for_octal(&stored.game),
        computed as usize,
    )?;
    let range: Vec<u16> = (args.from..=to).map(value_at).collect();
    print_values(&range, args.from as usize)?;
    Ok(())
}
