//! `zermelo hex solve`: one position.

use crate::output::{out, outln};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::json;
use zermelo_hex::{MoveList, Player, Position, Sgf, Solver, MAX_LENGTH_SIZE};

use super::proofs::{keeping, ProofOptions};
use super::{rules_name, rules_prose, SearchOptions};
use crate::progress::Progress;

/// Solve one position: the winner, a winning move (or all of them), the perfect-play length.
#[derive(clap::Args)]
pub struct Args {
    /// Board size, 1 to 11.
    #[arg(long)]
    size: Option<usize>,
    /// Moves from the empty board, Black first, e.g. "c2 b3 d1".
    #[arg(long, default_value = "")]
    moves: String,
    /// Read the position from a diagram file instead (as printed by zermelo; `-` for stdin).
    #[arg(long, conflicts_with = "moves")]
    diagram: Option<std::path::PathBuf>,
    /// Read the position from an SGF file as HexGui writes it (`-` for stdin): setup stones
    /// AB/AW, moves B/W, PL for the player to move; the end of the main line is solved.
    #[arg(long, conflicts_with_all = ["moves", "diagram"])]
    sgf: Option<std::path::PathBuf>,
    /// The player to move. Default: the SGF file's PL or last move, else Black when both have
    /// as many stones and White when Black has one more. Given, any stone counts are accepted.
    #[arg(long, value_enum)]
    to_move: Option<Side>,
    /// List every winning move, not only one.
    #[arg(long)]
    all: bool,
    /// List the winning moves among those the analysis keeps (the must-play region less the
    /// inferior cells), as Hex engines' "find the winning moves" commands do: faster than
    /// `--all`, and it leaves out winning moves proven no better than a kept one.
    #[arg(long, conflicts_with = "all")]
    considered: bool,
    /// Also compute the perfect-play length in plies: boards up to 4x4 in a moment, 5x5
    /// positions with at least one stone in up to a minute or two (not the empty 5x5 board).
    #[arg(long)]
    plies: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchOptions,
    #[command(flatten)]
    proofs: ProofOptions,
}

/// A player, as `--to-move` takes it.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

impl From<Side> for Player {
    fn from(side: Side) -> Player {
        match side {
            Side::Black => Player::Black,
            Side::White => Player::White,
        }
    }
}

/// Runs `hex solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let to_move = args.to_move.map(Player::from);
    let position = match (&args.diagram, &args.sgf) {
        (Some(path), _) => {
            let text = super::read_input(path)?;
            match to_move {
                Some(p) => Position::from_diagram_to_move(&text, p)?,
                None => Position::from_diagram(&text)?,
            }
        }
        (_, Some(path)) => Sgf::parse(&super::read_input(path)?)
            .and_then(|sgf| sgf.position(to_move))
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
        (None, None) => {
            let n = args
                .size
                .ok_or_else(|| anyhow::anyhow!("give --size (or a --diagram or --sgf file)"))?;
            let p = Position::from_moves(n, &args.moves)?;
            to_move.map_or(p, |side| p.with_to_move(side))
        }
    };
    if let Some(n) = args.size {
        anyhow::ensure!(
            n == position.size(),
            "--size {n} does not match the {0}x{0} position read",
            position.size()
        );
    }
    if args.plies {
        check_plies(&position)?;
    }
    let (solver, file) = args
        .proofs
        .open(args.search.solver(position.size())?, position.size())?;
    // clap keeps --all and --considered apart.
    let list = match (args.all, args.considered) {
        (true, _) => MoveList::All,
        (_, true) => MoveList::Considered,
        _ => MoveList::One,
    };
    let considered = list == MoveList::Considered;
    let start = std::time::Instant::now();
    let ((solution, plies), kept) = keeping(&solver, file.as_ref(), || {
        with_progress(&solver, args.json, || {
            let solution = solver.solve_until(&position, list, None)?;
            let plies = if args.plies {
                Some(solver.perfect_play_length(&position)?)
            } else {
                None
            };
            Ok((solution, plies))
        })
    })?;
    // Every search of the run counts, the perfect-play length's included.
    let (nodes, seconds) = (solver.nodes_searched(), start.elapsed().as_secs_f64());
    let n = position.size();
    if args.json {
        let mut out = json!({
            "size": n,
            "rules": rules_name(args.search.rules()),
            "misere": args.search.misere,
            "moves": args.moves.split_whitespace().collect::<Vec<_>>(),
            "to_move": solution.to_move.name(),
            "winner": solution.winner.name(),
            "winning_move": solution.winning_move.map(|c| c.to_string()),
            "nodes": nodes,
            "seconds": seconds,
            "threads": solver.threads(),
        });
        if let Some(list) = &solution.winning_moves {
            out["winning_moves"] = json!(list.iter().map(ToString::to_string).collect::<Vec<_>>());
            out["listed"] = json!(if considered { "considered" } else { "all" });
        }
        if let Some(p) = plies {
            out["plies"] = json!(p);
        }
        if let Some(path) = &args.sgf {
            out["sgf"] = json!(path.display().to_string());
        }
        if let Some(kept) = kept {
            kept.annotate(&mut out);
        }
        outln!("{out}")?;
        return Ok(());
    }
    out!("{position}")?;
    outln!(
        "{}x{n} {} Hex, {} to move: {} wins",
        n,
        rules_prose(args.search.rules()),
        solution.to_move,
        solution.winner
    )?;
    if let Some(m) = solution.winning_move {
        outln!("winning move: {m}")?;
    }
    if let Some(list) = &solution.winning_moves {
        let names: Vec<String> = list.iter().map(ToString::to_string).collect();
        if names.is_empty() {
            outln!("no winning move: every move loses")?;
        } else {
            let which = if considered {
                "winning moves among those considered"
            } else {
                "all winning moves"
            };
            outln!("{which} ({}): {}", names.len(), names.join(" "))?;
        }
    }
    if let Some(p) = plies {
        outln!("perfect-play length: {p} plies from here")?;
    }
    let threads = solver.threads();
    let plural = if threads == 1 { "" } else { "s" };
    outln!("{nodes} nodes in {seconds:.3} s on {threads} thread{plural}")?;
    if let Some(kept) = kept {
        outln!("{}", kept.summary())?;
    }
    Ok(())
}

/// Refuses a perfect-play length that the search cannot deliver in reasonable time: boards
/// beyond [`MAX_LENGTH_SIZE`], and the empty board of that size (one 5x5 opening takes up to a
/// minute or two; the empty board needs all of its winning openings).
fn check_plies(position: &Position) -> anyhow::Result<()> {
    let n = position.size();
    if n > MAX_LENGTH_SIZE {
        anyhow::bail!(
            "perfect-play lengths are computed up to {MAX_LENGTH_SIZE}x{MAX_LENGTH_SIZE}, not on \
             {n}x{n}"
        );
    }
    if n == MAX_LENGTH_SIZE && position.stones() == 0 {
        anyhow::bail!(
            "--plies on the empty {n}x{n} board is out of reach (each opening takes up to minutes); \
             zermelo hex openings --size {n} --plies gives every opening's length, and the empty \
             board's is one more than the least length among the winning openings"
        );
    }
    Ok(())
}

/// Runs `work` with a progress report of the nodes searched (a spinner on a terminal, a log line
/// every 10 s otherwise): one solve can take minutes.
fn with_progress<T: Send>(
    solver: &Solver,
    quiet: bool,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    let mut progress = Progress::new("hex solve", 0, "nodes", quiet);
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                progress.set_position(solver.nodes_searched(), "");
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        // The reporter stops even if the work panics, or the scope would wait for it for ever.
        struct Stop<'a>(&'a AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _stop = Stop(&done);
        work()
    });
    // A failed solve says so in its error line alone.
    if result.is_ok() {
        progress.set_position(solver.nodes_searched(), "solved");
        progress.finish();
    }
    result
}
