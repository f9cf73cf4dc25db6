//! `zermelo hex lookup`: a position answered from a retrograde table file, without searching.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::json;
use zermelo_hex::retro::{RetroTable, RetroValue};
use zermelo_hex::{Cell, Position, Rules};

use super::{rules_name, rules_prose};
use crate::output::{out, outln};

/// Answer a position from a table written by `zermelo hex table`: the winner and every winning
/// move, read from the table alone (no search). The table says the board size and the rules.
#[derive(clap::Args)]
pub struct Args {
    /// The table file (`zermelo hex table --size N --out FILE`).
    #[arg(long, value_name = "FILE")]
    table: PathBuf,
    /// Moves from the empty board, Black first, e.g. "c2 b3 d1".
    #[arg(long, default_value = "")]
    moves: String,
    /// Read the position from a diagram file instead (as printed by zermelo; `-` for stdin).
    #[arg(long, conflicts_with = "moves")]
    diagram: Option<std::path::PathBuf>,
    /// Print one JSON object (the fields of `hex solve --all --json` that the table gives).
    #[arg(long)]
    json: bool,
}

/// Runs `hex lookup`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let table = read(&args.table)?;
    let n = table.size();
    let position = super::read_position(Some(n), &args.moves, args.diagram.as_deref())
        .with_context(|| format!("{} is a {n}x{n} table", args.table.display()))?;
    if let Some(p) = position.connected() {
        bail!("the game is already over: {} has connected", p.name());
    }
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
            args.table.display()
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
            args.table.display()
        );
    }
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
            "table": args.table.display().to_string(),
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
    outln!("from the table {}", args.table.display())?;
    Ok(())
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
