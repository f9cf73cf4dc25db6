//! `zermelo hex lookup`: a position answered from a retrograde table file, or from the database
//! of a strong solution, without searching.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::json;
use zermelo_batch::strong::Database;
use zermelo_hex::retro::{RetroTable, RetroValue};
use zermelo_hex::{Cell, Position, Rules};

use super::{rules_name, rules_prose};
use crate::output::{out, outln};

/// Answer a position from a table written by `zermelo hex table`, or from the database folder
/// that `zermelo hex strong` writes: the winner and every winning move, read from the files alone
/// (no search). The files say the board size and the rules.
#[derive(clap::Args)]
pub struct Args {
    /// The table file (`zermelo hex table --size N --out FILE`).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "db",
        conflicts_with = "db"
    )]
    table: Option<PathBuf>,
    /// The database folder (`zermelo hex strong --size N --out DIR`): a look-up reads one byte
    /// of a layer file for the position and one of the next layer's for each move.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// Moves from the empty board, Black first, e.g. "c2 b3 d1".
    #[arg(long, default_value = "")]
    moves: String,
    /// Read the position from a diagram file instead (as printed by zermelo; `-` for stdin).
    #[arg(long, conflicts_with = "moves")]
    diagram: Option<std::path::PathBuf>,
    /// Print one JSON object (the fields of `hex solve --all --json` that the files give).
    #[arg(long)]
    json: bool,
}

/// What a look-up found.
struct Answer {
    position: Position,
    rules: Rules,
    mover_wins: bool,
    winning: Vec<Cell>,
}

/// Runs `hex lookup`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let (answer, source_key, source) = match (&args.table, &args.db) {
        (Some(path), _) => (from_table(&args, path)?, "table", path),
        (None, Some(dir)) => (from_db(&args, dir)?, "db", dir),
        (None, None) => bail!("give --table FILE or --db DIR"),
    };
    let Answer {
        position,
        rules,
        mover_wins,
        winning,
    } = answer;
    let n = position.size();
    let to_move = position.to_move();
    let winner = if mover_wins {
        to_move
    } else {
        to_move.opponent()
    };
    let names: Vec<String> = winning.iter().map(ToString::to_string).collect();
    if args.json {
        let out = json!({
            "size": n,
            "rules": rules_name(rules),
            "misere": rules == Rules::Misere,
            "moves": args.moves.split_whitespace().collect::<Vec<_>>(),
            "to_move": to_move.name(),
            "winner": winner.name(),
            "winning_move": names.first(),
            "winning_moves": names,
            source_key: source.display().to_string(),
        });
        return Ok(outln!("{out}")?);
    }
    out!("{position}")?;
    outln!(
        "{n}x{n} {} Hex, {to_move} to move: {winner} wins",
        rules_prose(rules)
    )?;
    if mover_wins {
        outln!("all winning moves ({}): {}", names.len(), names.join(" "))?;
    }
    let what = if source_key == "db" {
        "database"
    } else {
        "table"
    };
    outln!("from the {what} {}", source.display())?;
    Ok(())
}

/// The position asked for, on a board of `n`; a finished game is an error.
fn read_position(args: &Args, n: usize, source: &Path, what: &str) -> anyhow::Result<Position> {
    let position = super::read_position(Some(n), &args.moves, args.diagram.as_deref())
        .with_context(|| format!("{} is a {n}x{n} {what}", source.display()))?;
    if let Some(p) = position.connected() {
        bail!("the game is already over: {} has connected", p.name());
    }
    Ok(position)
}

fn from_table(args: &Args, path: &Path) -> anyhow::Result<Answer> {
    let table = read(path)?;
    let n = table.size();
    let position = read_position(args, n, path, "table")?;
    let rules = if table.misere() {
        Rules::Misere
    } else {
        Rules::Normal
    };
    let mover_wins = match value(&table, &position)? {
        RetroValue::Win => true,
        RetroValue::Loss => false,
        other => bail!(
            "{}: the table gives {other:?} for a position in play; it is damaged",
            path.display()
        ),
    };
    let mut winning = Vec::new();
    for i in position.empty().cells() {
        let cell = Cell::from_index(i, n);
        let child = position.play(cell)?;
        let wins = match child.connected() {
            // Completing one's connection wins in normal play and loses in misère play.
            Some(_) => rules == Rules::Normal,
            None => value(&table, &child)? == RetroValue::Loss,
        };
        if wins {
            winning.push(cell);
        }
    }
    if winning.is_empty() == mover_wins {
        bail!(
            "{}: the table contradicts itself on this position; it is damaged",
            path.display()
        );
    }
    Ok(Answer {
        position,
        rules,
        mover_wins,
        winning,
    })
}

/// The answer from a strong solution's layer files (which check that they agree).
fn from_db(args: &Args, dir: &Path) -> anyhow::Result<Answer> {
    let mut db = Database::open(dir)?;
    let n = db.size();
    let position = read_position(args, n, dir, "database")?;
    let stones =
        |b: zermelo_hex::Bitboard| u64::try_from(b.0).context("a board of more than 64 cells");
    let analysis = db.analyse(stones(position.black())?, stones(position.white())?)?;
    Ok(Answer {
        position,
        rules: db.rules(),
        mover_wins: analysis.mover_wins,
        winning: analysis
            .winning_moves
            .iter()
            .map(|&i| Cell::from_index(i, n))
            .collect(),
    })
}

/// Reads a table written by `hex table`, checking its kind and payload.
fn read(path: &Path) -> anyhow::Result<RetroTable> {
    let stored = zermelo_store::table::read(path)?;
    let h = &stored.header;
    match h["kind"].as_str() {
        Some("hex-retrograde") => {}
        Some(crate::grundy::TABLE_KIND) => bail!(
            "{} is a Grundy table; read it with zermelo grundy show {}",
            path.display(),
            path.display()
        ),
        _ => bail!(
            "{} is not a Hex table (write one with zermelo hex table)",
            path.display()
        ),
    }
    let size = h["size"]
        .as_u64()
        .with_context(|| format!("{}: no board size in the header", path.display()))?;
    let misere = h["misere"]
        .as_bool()
        .with_context(|| format!("{}: no rules in the header", path.display()))?;
    RetroTable::from_payload(size as usize, misere, stored.payload)
        .with_context(|| format!("{}: not a valid table", path.display()))
}

fn value(table: &RetroTable, position: &Position) -> anyhow::Result<RetroValue> {
    Ok(table.value(position.black().0, position.white().0)?)
}
