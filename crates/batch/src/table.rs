//! The on-disk layout of a Grundy table, inside zermelo-store's checksummed table container.
//!
//! The container header is a JSON object:
//!
//! ```text
//! {
//!   "kind": "zermelo-grundy-table",   fixed
//!   "family": "octal",                the game family (only octal tables are written)
//!   "game": "0.77",                   the canonical code: a resume must name the same game
//!   "length": 168,                    number of values, G(0..length)
//!   "computed": 167,                  length - 1
//!   "target": 1000,                   the --max the run was asked for
//!   "complete": true,                 false for a checkpoint of an unfinished run
//!   "max_value": 9,
//!   "preperiod": 71, "period": 12,    null when no period is established
//!   "proven": true,
//!   "encoding": "u16le"               how the payload holds the values
//! }
//! ```
//!
//! The payload is `length` little-endian u16 values, G(0) first. The container adds the magic,
//! format version, lengths and a CRC-32, and is written atomically.

use std::path::Path;

use serde_json::{json, Value};
use zermelo_grundy::period::Periodicity;
use zermelo_grundy::OctalGame;

use crate::{Error, Result};

/// The `kind` of every Grundy table.
pub const KIND: &str = "zermelo-grundy-table";

/// A Grundy table as stored: its values are a `Vec<u16>` when read back, and may be borrowed
/// (`&[u16]`) to write a table without copying it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableFile<V = Vec<u16>> {
    /// The game (canonical code).
    pub game: OctalGame,
    /// The --max the run was asked for.
    pub target: u64,
    /// Whether the run finished (reached its target or stopped on a proof).
    pub complete: bool,
    /// The period, when established.
    pub period: Option<Periodicity>,
    /// G(0..len).
    pub values: V,
}

/// Writes a table atomically, the values streamed to the file (no second copy in memory).
pub fn write<V: AsRef<[u16]>>(path: &Path, table: &TableFile<V>) -> Result<()> {
    let values = table.values.as_ref();
    let len = values.len();
    let header = json!({
        "kind": KIND,
        "family": "octal",
        "game": table.game.to_string(),
        "length": len,
        "computed": len.saturating_sub(1),
        "target": table.target,
        "complete": table.complete,
        "max_value": values.iter().copied().max().unwrap_or(0),
        "preperiod": table.period.map(|p| p.preperiod),
        "period": table.period.map(|p| p.period),
        "proven": table.period.is_some_and(|p| p.proven),
        "last_needed": table.period.map(|p| p.last_needed),
        "encoding": "u16le",
    });
    zermelo_store::table::write_with(path, &header, 2 * len as u64, |out| {
        let mut bytes = Vec::with_capacity(1 << 16);
        for chunk in values.chunks(1 << 15) {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            out.write_all(&bytes)?;
        }
        Ok(())
    })?;
    Ok(())
}

/// Reads a Grundy table back, checking every checksum: a table file, or the folder of a
/// stream ([`crate::stream`]).
pub fn read_any(path: &Path) -> Result<TableFile> {
    if path.is_dir() {
        crate::stream::read(path)
    } else {
        read(path)
    }
}

/// Reads a table back, checking the container (checksum, lengths) and the header.
pub fn read(path: &Path) -> Result<TableFile> {
    let stored = zermelo_store::table::read(path)?;
    let h = &stored.header;
    let field = |name: &str| -> Result<&Value> {
        h.get(name).ok_or_else(|| {
            Error::File(format!(
                "{}: not a Grundy table (no {name:?})",
                path.display()
            ))
        })
    };
    match field("kind")?.as_str() {
        Some(KIND) => {}
        Some("hex-retrograde") => bail!(
            File,
            "{} is a Hex table; read it with zermelo hex lookup --table {} --moves \"...\"",
            path.display(),
            path.display()
        ),
        _ => bail!(File, "{}: not a Grundy table", path.display()),
    }
    if field("encoding")?.as_str() != Some("u16le") {
        bail!(File, "{}: unknown value encoding", path.display());
    }
    let code = field("game")?
        .as_str()
        .ok_or_else(|| Error::File(format!("{}: bad game field", path.display())))?;
    let game: OctalGame = code.parse()?;
    let length = field("length")?
        .as_u64()
        .ok_or_else(|| Error::File(format!("{}: bad length field", path.display())))?;
    if length.checked_mul(2) != Some(stored.payload.len() as u64) {
        bail!(
            File,
            "{}: the header announces {length} values but the payload holds {} bytes",
            path.display(),
            stored.payload.len()
        );
    }
    let values: Vec<u16> = stored
        .payload
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    drop(stored.payload);
    let get_usize = |name: &str| h.get(name).and_then(Value::as_u64).map(|v| v as usize);
    let period = match (get_usize("preperiod"), get_usize("period")) {
        (Some(preperiod), Some(period)) => Some(Periodicity {
            preperiod,
            period,
            proven: h.get("proven").and_then(Value::as_bool).unwrap_or(false),
            last_needed: get_usize("last_needed").unwrap_or(values.len().saturating_sub(1)),
        }),
        _ => None,
    };
    Ok(TableFile {
        game,
        target: field("target")?.as_u64().unwrap_or(0),
        complete: field("complete")?.as_bool().unwrap_or(false),
        period,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.zgt");
        let table = TableFile {
            game: "0.77".parse().unwrap(),
            target: 10,
            complete: false,
            period: None,
            values: vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2],
        };
        write(&path, &table).unwrap();
        assert_eq!(read(&path).unwrap(), table);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 6;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(&path).is_err());
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        assert!(read(&path).is_err());
    }
}
