//! `zermelo hex solve`: one position.

use std::io::Read;

use serde_json::json;
use zermelo_hex::{Player, Position, Sgf, MAX_LENGTH_SIZE};

use super::{rules_name, SearchOptions};

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
    diagram: Option<String>,
    /// Read the position from an SGF file as HexGui writes it (`-` for stdin): setup stones
    /// AB/AW, moves B/W, PL for the player to move; the end of the main line is solved.
    #[arg(long, conflicts_with_all = ["moves", "diagram"])]
    sgf: Option<String>,
    /// The player to move. Default: the SGF file's PL or last move, else Black when both have
    /// as many stones and White when Black has one more. Given, any stone counts are accepted.
    #[arg(long, value_enum)]
    to_move: Option<Side>,
    /// List every winning move, not only one.
    #[arg(long)]
    all: bool,
    /// Also compute the perfect-play length in plies (boards up to 5x5).
    #[arg(long)]
    plies: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchOptions,
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

/// The text of a file, or of stdin for `-`.
fn read_input(path: &str) -> anyhow::Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {path}: {e}"))
    }
}

/// Runs `hex solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let to_move = args.to_move.map(Player::from);
    let position = match (&args.diagram, &args.sgf) {
        (Some(path), _) => {
            let text = read_input(path)?;
            match to_move {
                Some(p) => Position::from_diagram_to_move(&text, p)?,
                None => Position::from_diagram(&text)?,
            }
        }
        (_, Some(path)) => Sgf::parse(&read_input(path)?)
            .and_then(|sgf| sgf.position(to_move))
            .map_err(|e| anyhow::anyhow!("{path}: {e}"))?,
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
    if args.plies && position.size() > MAX_LENGTH_SIZE {
        anyhow::bail!(
            "perfect-play lengths are computed up to {MAX_LENGTH_SIZE}x{MAX_LENGTH_SIZE}"
        );
    }
    let solver = args.search.solver(position.size())?;
    let solution = solver.solve(&position, args.all)?;
    let plies = if args.plies {
        Some(solver.perfect_play_length(&position)?)
    } else {
        None
    };
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
            "nodes": solution.nodes,
            "seconds": solution.seconds,
            "threads": solver.threads(),
        });
        if let Some(list) = &solution.winning_moves {
            out["winning_moves"] = json!(list.iter().map(ToString::to_string).collect::<Vec<_>>());
        }
        if let Some(p) = plies {
            out["plies"] = json!(p);
        }
        if let Some(path) = &args.sgf {
            out["sgf"] = json!(path);
        }
        println!("{out}");
        return Ok(());
    }
    print!("{position}");
    println!(
        "{}x{n} {} Hex, {} to move: {} wins",
        n,
        rules_name(args.search.rules()),
        solution.to_move,
        solution.winner
    );
    if let Some(m) = solution.winning_move {
        println!("winning move: {m}");
    }
    if let Some(list) = &solution.winning_moves {
        let names: Vec<String> = list.iter().map(ToString::to_string).collect();
        println!("all winning moves ({}): {}", names.len(), names.join(" "));
    }
    if let Some(p) = plies {
        println!("perfect-play length: {p} plies from here");
    }
    println!(
        "{} nodes in {:.3} s on {} threads",
        solution.nodes,
        solution.seconds,
        solver.threads()
    );
    Ok(())
}
