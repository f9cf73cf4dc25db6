//! A table kept as a folder of pieces (`grundy octal --stream DIR`, [`crate::octal::OctalRun`]'s
//! `stream`), for runs too long to rewrite the whole table at every checkpoint (2^32 heaps are
//! 8 GiB of values).
//!
//! In DIR:
//! - `stream.json`: the game, the values per piece, and the state of the run when it was last
//!   written (`length`, `target`, `complete`, the period); a checksummed JSON document, written
//!   atomically at every checkpoint and at the end;
//! - `piece-KKKKKK.zgt`: the values G(K·piece .. K·piece + length), in the table container
//!   (`kind` = `zermelo-grundy-piece`, with `game`, `first`, `length`, `piece`,
//!   `encoding` = `u16le`), each written atomically with its CRC-32: a full piece once, as soon
//!   as it fills, the last, partial piece again at every checkpoint.
//!
//! A run that is killed loses only the values after the last piece or checkpoint written; the
//! same command resumes from the pieces, each checked (checksum, game, place in the table).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zermelo_grundy::period::Periodicity;
use zermelo_grundy::OctalGame;

use crate::table::TableFile;
use crate::{Error, Result};

/// The `kind` of `stream.json`.
const KIND: &str = "zermelo-grundy-stream";

/// The `kind` of a piece.
const PIECE_KIND: &str = "zermelo-grundy-piece";

/// The name of the folder's manifest.
const MANIFEST: &str = "stream.json";

/// A table being streamed to a folder.
#[derive(Debug)]
pub struct Stream {
    dir: PathBuf,
    game: OctalGame,
    /// Values per piece.
    piece: usize,
    /// Pieces on disk in full.
    full: usize,
}

impl Stream {
    /// Opens `dir` for `game`: creates it with pieces of `piece` values (default 2^24), or reads
    /// back the values its pieces hold (`piece`, if given, must be the folder's). Returns the
    /// stream and the values.
    pub fn open(dir: &Path, game: &OctalGame, piece: Option<usize>) -> Result<(Stream, Vec<u16>)> {
        let manifest = dir.join(MANIFEST);
        if !manifest.exists() {
            let piece = piece.unwrap_or(1 << 24);
            if piece == 0 {
                bail!(Invalid, "--piece must be at least 1");
            }
            std::fs::create_dir_all(dir).map_err(Error::io(format!(
                "cannot create the folder {}",
                dir.display()
            )))?;
            let stream = Stream {
                dir: dir.to_path_buf(),
                game: game.clone(),
                piece,
                full: 0,
            };
            stream.write_manifest(&[], 0, false, None)?;
            return Ok((stream, Vec::new()));
        }
        let (mut stream, m) = Stream::read_manifest(dir)?;
        remove_stale_temporaries(dir);
        if stream.game != *game {
            bail!(
                File,
                "{}: the stream is of {}, not {game}; resume it with the same code",
                dir.display(),
                stream.game
            );
        }
        if piece.is_some_and(|p| p != stream.piece) {
            bail!(
                Invalid,
                "{}: the stream has pieces of {} values; resume it without --piece or with \
                 --piece {}",
                dir.display(),
                stream.piece,
                stream.piece
            );
        }
        let values = stream.read_pieces(&m)?;
        Ok((stream, values))
    }

    /// Reads the manifest of the folder `dir`: a stream with no piece counted yet, and the
    /// manifest itself.
    fn read_manifest(dir: &Path) -> Result<(Stream, Value)> {
        let path = dir.join(MANIFEST);
        let m = zermelo_store::json::read(&path)?;
        if m["kind"].as_str() != Some(KIND) {
            bail!(File, "{}: not a zermelo stream manifest", path.display());
        }
        let game: OctalGame = m["game"]
            .as_str()
            .ok_or_else(|| Error::File(format!("{}: bad game field", path.display())))?
            .parse()?;
        let piece = m["piece"]
            .as_u64()
            .filter(|&p| p > 0)
            .ok_or_else(|| Error::File(format!("{}: bad piece field", path.display())))?;
        let stream = Stream {
            dir: dir.to_path_buf(),
            game,
            piece: piece as usize,
            full: 0,
        };
        Ok((stream, m))
    }

    fn piece_path(&self, k: usize) -> PathBuf {
        self.dir.join(format!("piece-{k:06}.zgt"))
    }

    /// Reads the pieces in order, checking each and that they hold at least the values the
    /// manifest `m` records; sets `full`.
    fn read_pieces(&mut self, m: &Value) -> Result<Vec<u16>> {
        let mut values: Vec<u16> = Vec::new();
        let mut k = 0;
        loop {
            let path = self.piece_path(k);
            if !path.exists() {
                break;
            }
            if values.len() != k * self.piece {
                bail!(
                    File,
                    "{}: follows a piece that is not full; the stream is damaged",
                    path.display()
                );
            }
            let stored = zermelo_store::table::read(&path)?;
            let h = &stored.header;
            let first = h["first"].as_u64();
            let length = h["length"].as_u64().unwrap_or(u64::MAX);
            if h["kind"].as_str() != Some(PIECE_KIND)
                || h["game"].as_str() != Some(&self.game.to_string())
                || h["encoding"].as_str() != Some("u16le")
                || first != Some((k * self.piece) as u64)
                || length == 0
                || length > self.piece as u64
                || length.checked_mul(2) != Some(stored.payload.len() as u64)
            {
                bail!(
                    File,
                    "{}: not piece {k} of this stream ({} values from heap {})",
                    path.display(),
                    self.piece,
                    k * self.piece
                );
            }
            values.extend(
                stored
                    .payload
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
            );
            k += 1;
        }
        self.full = values.len() / self.piece;
        let recorded = m["length"].as_u64().unwrap_or(0);
        if (values.len() as u64) < recorded {
            bail!(
                File,
                "{}: the pieces hold {} values, fewer than the {recorded} its manifest records \
                 (a piece is missing)",
                self.dir.display(),
                values.len()
            );
        }
        Ok(values)
    }

    /// Writes piece `k` of `values` (full or not).
    fn write_piece(&self, values: &[u16], k: usize) -> Result<()> {
        let first = k * self.piece;
        let part = &values[first..values.len().min(first + self.piece)];
        let header = json!({
            "kind": PIECE_KIND,
            "game": self.game.to_string(),
            "first": first,
            "length": part.len(),
            "piece": self.piece,
            "encoding": "u16le",
        });
        zermelo_store::table::write_with(
            &self.piece_path(k),
            &header,
            2 * part.len() as u64,
            |out| {
                let mut bytes = Vec::with_capacity(1 << 16);
                for chunk in part.chunks(1 << 15) {
                    bytes.clear();
                    bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
                    out.write_all(&bytes)?;
                }
                Ok(())
            },
        )?;
        Ok(())
    }

    /// Writes every piece that `values` fills and is not on disk yet.
    pub fn write_full_pieces(&mut self, values: &[u16]) -> Result<()> {
        while (self.full + 1) * self.piece <= values.len() {
            self.write_piece(values, self.full)?;
            self.full += 1;
        }
        Ok(())
    }

    /// A checkpoint, or the end of the run: every piece of `values`, the last one partial,
    /// pieces beyond them removed (a resumed run that stops on a proof is cut there), then the
    /// manifest.
    pub fn checkpoint(
        &mut self,
        values: &[u16],
        target: u64,
        complete: bool,
        period: Option<Periodicity>,
    ) -> Result<()> {
        let pieces = values.len().div_ceil(self.piece);
        self.full = self.full.min(values.len() / self.piece);
        self.write_full_pieces(values)?;
        if values.len() % self.piece != 0 {
            self.write_piece(values, pieces - 1)?;
        }
        let mut k = pieces;
        while self.piece_path(k).exists() {
            let path = self.piece_path(k);
            std::fs::remove_file(&path)
                .map_err(Error::io(format!("cannot remove {}", path.display())))?;
            k += 1;
        }
        self.write_manifest(values, target, complete, period)
    }

    fn write_manifest(
        &self,
        values: &[u16],
        target: u64,
        complete: bool,
        period: Option<Periodicity>,
    ) -> Result<()> {
        let manifest: Value = json!({
            "kind": KIND,
            "game": self.game.to_string(),
            "piece": self.piece,
            "length": values.len(),
            "target": target,
            "complete": complete,
            "max_value": values.iter().copied().max().unwrap_or(0),
            "preperiod": period.map(|p| p.preperiod),
            "period": period.map(|p| p.period),
            "proven": period.is_some_and(|p| p.proven),
            "last_needed": period.map(|p| p.last_needed),
        });
        zermelo_store::json::write(&self.dir.join(MANIFEST), &manifest)?;
        Ok(())
    }
}

/// Reads a stream folder back as a table (for `grundy show`): the values of every piece, with
/// the target, completeness and period its manifest records.
pub fn read(dir: &Path) -> Result<TableFile> {
    let (mut stream, m) = Stream::read_manifest(dir)?;
    let values = stream.read_pieces(&m)?;
    let get = |name: &str| m[name].as_u64().map(|v| v as usize);
    let period = match (get("preperiod"), get("period"), get("last_needed")) {
        (Some(preperiod), Some(period), Some(last_needed)) => Some(Periodicity {
            preperiod,
            period,
            proven: m["proven"].as_bool().unwrap_or(false),
            last_needed,
        }),
        _ => None,
    };
    Ok(TableFile {
        game: stream.game,
        target: m["target"].as_u64().unwrap_or(0),
        complete: m["complete"].as_bool().unwrap_or(false),
        period,
        values,
    })
}

/// Removes the temporary files that a write of a piece or of the manifest, killed halfway, left
/// in the folder (the store names them `.NAME.PID.tmp`; a piece's is as large as the piece).
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = [".stream.json.", ".piece-"].iter().any(|stem| {
            name.strip_prefix(stem)
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .and_then(|rest| rest.rsplit('.').next())
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        });
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What the manifest of the folder `dir` records, without reading the pieces: the number of
/// values and the target of the run (for a runner's log; the pieces are checked by the run
/// that resumes them).
pub fn recorded(dir: &Path) -> Result<(u64, u64)> {
    let (_, m) = Stream::read_manifest(dir)?;
    Ok((
        m["length"].as_u64().unwrap_or(0),
        m["target"].as_u64().unwrap_or(0),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_read_back_and_resume() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("s");
        let game: OctalGame = "0.6".parse().unwrap();
        let values: Vec<u16> = (0..250u16).map(|v| v % 7).collect();
        let (mut stream, held) = Stream::open(&folder, &game, Some(64)).unwrap();
        assert!(held.is_empty());
        stream.write_full_pieces(&values[..130]).unwrap();
        assert!(folder.join("piece-000001.zgt").exists());
        assert!(!folder.join("piece-000002.zgt").exists());
        stream.checkpoint(&values, 1000, false, None).unwrap();
        let (_, back) = Stream::open(&folder, &game, None).unwrap();
        assert_eq!(back, values);
        let table = read(&folder).unwrap();
        assert_eq!(
            (table.values, table.target, table.complete),
            (values.clone(), 1000, false)
        );
        assert_eq!(recorded(&folder).unwrap(), (250, 1000));
        // A shorter checkpoint (a run cut on its proof) removes the pieces beyond it.
        let (mut stream, _) = Stream::open(&folder, &game, Some(64)).unwrap();
        stream.checkpoint(&values[..100], 1000, true, None).unwrap();
        assert!(!folder.join("piece-000002.zgt").exists());
        assert_eq!(read(&folder).unwrap().values, values[..100]);
        // Another game, other pieces, a missing piece: refused.
        assert!(Stream::open(&folder, &"0.77".parse().unwrap(), None).is_err());
        assert!(Stream::open(&folder, &game, Some(32)).is_err());
        std::fs::remove_file(folder.join("piece-000001.zgt")).unwrap();
        let err = Stream::open(&folder, &game, None).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
        // No piece of no values, and no folder for it.
        let none = dir.path().join("none");
        assert!(Stream::open(&none, &game, Some(0)).is_err());
        assert!(!none.exists());
    }
}
