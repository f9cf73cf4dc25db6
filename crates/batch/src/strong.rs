//! The strong solution on disk: one checksummed table per layer of stones, written as soon as
//! the layer is finished, so that a run stopped anywhere goes on from its last finished layer.
//!
//! A database folder holds, for an n x n board and one set of rules:
//!
//! - `layer-KK.zt` for each finished layer KK (two digits, 00 to n²): zermelo-store's table
//!   container (magic, version, JSON header, payload, CRC-32), written atomically. The header:
//!
//!   ```text
//!   {
//!     "kind": "hex-strong-layer",
//!     "size": 5, "rules": "normal", "misere": false,
//!     "stones": 24, "black": 12, "white": 12, "to_move": "black",
//!     "ranking": "colex: rank(B among n² cells) · C(n² − b, w) + rank(W among the cells not black)",
//!     "positions": 67603900,     every placement of the layer's stones
//!     "terminal": …,             positions where someone has connected
//!     "mover_wins": …,           positions nobody has connected that the side to move wins
//!     "ones": …,                 bits set (mover_wins, plus in misère play the finished games)
//!     "encoding": "…"
//!   }
//!   ```
//!
//!   The payload is the layer's bits as [`Layer::words`] holds them, each 64-bit word
//!   little-endian: position i is bit i mod 8 of payload byte ⌊i/8⌋. What a bit means, and the
//!   ranking, are documented in [`zermelo_hex::strong`].
//! - `summary.json`: checksummed JSON, rewritten after each layer: every finished layer's counts,
//!   CRC-32 and the seconds it took (null for a layer computed by an earlier version of the
//!   summary), and whether the run is complete.
//!
//! The layer files depend on nothing but the board and the rules: a run stopped and resumed
//! writes the same bytes as one that was not.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};
use zermelo_hex::strong::{Engine, Layer, LayerCounts, Ranking};
use zermelo_hex::Rules;
use zermelo_store::table;

use crate::{Error, Result};

/// The `kind` of every layer file.
pub const KIND: &str = "hex-strong-layer";
/// The run's summary in a database folder.
pub const SUMMARY_FILE: &str = "summary.json";
const SUMMARY_KIND: &str = "hex-strong-summary";
const RANKING: &str =
    "colex: rank(B among n² cells) · C(n² − b, w) + rank(W among the cells not black)";
const ENCODING: &str =
    "1 bit per position, bit i = bit i mod 64 of little-endian u64 word i / 64; \
     1: the side to move wins (a finished game: 1 in misère play only; the side to move has \
     connected: 0)";

/// The file of layer `stones` in a database folder.
#[must_use]
pub fn layer_path(dir: &Path, stones: usize) -> PathBuf {
    dir.join(format!("layer-{stones:02}.zt"))
}

fn rules_name(rules: Rules) -> &'static str {
    match rules {
        Rules::Normal => "normal",
        Rules::Misere => "misere",
    }
}

/// One finished layer, as the summary lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerRecord {
    /// Stones on the board.
    pub stones: usize,
    /// What the layer holds.
    pub counts: LayerCounts,
    /// The CRC-32 of the layer file.
    pub checksum: u32,
    /// Seconds the layer took to compute, when known.
    pub seconds: Option<f64>,
}

/// What a long run reports as it goes.
pub trait Observer: Sync {
    /// A note (a layer loaded, a stale temporary file removed).
    fn say(&self, line: &str);
    /// Layer `stones`, of `positions` positions, is being computed (or verified).
    fn layer_started(&self, stones: usize, positions: u64);
    /// `positions` more positions of the current layer are done.
    fn advance(&self, positions: u64);
    /// A layer is finished and written (or verified).
    fn layer_done(&self, record: &LayerRecord);
}

fn layer_header(engine: &Engine, stones: usize, counts: &LayerCounts) -> Value {
    let ranking = engine.ranking();
    let (black, white) = Ranking::stone_counts(stones);
    json!({
        "kind": KIND,
        "size": ranking.size(),
        "rules": rules_name(engine.rules()),
        "misere": engine.rules() == Rules::Misere,
        "stones": stones,
        "black": black,
        "white": white,
        "to_move": if stones % 2 == 0 { "black" } else { "white" },
        "ranking": RANKING,
        "positions": counts.positions,
        "terminal": counts.terminal,
        "mover_wins": counts.mover_wins,
        "ones": counts.ones,
        "encoding": ENCODING,
    })
}

/// Checks a layer file's header against the engine and the layer expected; gives its counts.
fn check_header(path: &Path, h: &Value, engine: &Engine, stones: usize) -> Result<LayerCounts> {
    let bad = |what: &str| Error::File(format!("{}: {what}", path.display()));
    if h["kind"].as_str() != Some(KIND) {
        return Err(bad("not a layer of a strong solution (zermelo hex strong)"));
    }
    let size = engine.ranking().size();
    let rules = rules_name(engine.rules());
    if h["size"].as_u64() != Some(size as u64) || h["rules"].as_str() != Some(rules) {
        return Err(bad(&format!(
            "a layer of the {}x{} {} solution, not of the {size}x{size} {rules} one",
            h["size"],
            h["size"],
            h["rules"].as_str().unwrap_or("?")
        )));
    }
    if h["stones"].as_u64() != Some(stones as u64) {
        return Err(bad(&format!("holds layer {}, not {stones}", h["stones"])));
    }
    let count = |key: &str| {
        h[key]
            .as_u64()
            .ok_or_else(|| bad(&format!("no {key} in the header")))
    };
    let counts = LayerCounts {
        positions: count("positions")?,
        terminal: count("terminal")?,
        mover_wins: count("mover_wins")?,
        ones: count("ones")?,
    };
    if counts.positions != engine.ranking().layer_len(stones) {
        return Err(bad("the header's count of positions is not the layer's"));
    }
    Ok(counts)
}

/// The CRC-32 stored at the end of a table file.
fn stored_checksum(path: &Path) -> Result<u32> {
    use std::io::{Read, Seek, SeekFrom};
    let what = || format!("cannot read the checksum of {}", path.display());
    let mut file = std::fs::File::open(path).map_err(Error::io(what()))?;
    let mut sum = [0u8; 4];
    file.seek(SeekFrom::End(-4))
        .and_then(|_| file.read_exact(&mut sum))
        .map_err(Error::io(what()))?;
    Ok(u32::from_le_bytes(sum))
}

/// Writes a finished layer atomically; gives the file's CRC-32.
pub fn write_layer(
    dir: &Path,
    engine: &Engine,
    layer: &Layer,
    counts: &LayerCounts,
) -> Result<u32> {
    let path = layer_path(dir, layer.stones());
    let header = layer_header(engine, layer.stones(), counts);
    let words = layer.words();
    table::write_with(&path, &header, words.len() as u64 * 8, |out| {
        let mut bytes = Vec::with_capacity(1 << 16);
        for piece in words.chunks(1 << 13) {
            bytes.clear();
            bytes.extend(piece.iter().flat_map(|w| w.to_le_bytes()));
            out.write_all(&bytes)?;
        }
        Ok(())
    })?;
    stored_checksum(&path)
}

/// Reads a layer file in full, checking its header and checksum.
pub fn read_layer(dir: &Path, engine: &Engine, stones: usize) -> Result<(Layer, LayerRecord)> {
    let path = layer_path(dir, stones);
    let mut reader = table::open(&path)?;
    let counts = check_header(&path, reader.header(), engine, stones)?;
    let words_len = engine.layer_bytes(stones) / 8;
    if reader.payload_len() != words_len * 8 {
        return Err(Error::File(format!(
            "{}: the payload is {} bytes, layer {stones} has {}",
            path.display(),
            reader.payload_len(),
            words_len * 8
        )));
    }
    let mut words = Vec::with_capacity(words_len as usize);
    let checksum = reader.read_payload(|piece| {
        words.extend(
            piece
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        );
    })?;
    let layer = Layer::from_words(engine.ranking(), stones, words)
        .map_err(|e| Error::File(format!("{}: {e}", path.display())))?;
    Ok((
        layer,
        LayerRecord {
            stones,
            counts,
            checksum,
            seconds: None,
        },
    ))
}

/// The lowest layer L such that layers L to n² are all in `dir` (their headers checked, not
/// their checksums), or `None` when the full board's layer is not there. Any layer file of
/// another board or other rules in `dir` is an error.
pub fn lowest_finished(dir: &Path, engine: &Engine) -> Result<Option<usize>> {
    for path in layer_files(dir)? {
        let reader = table::open(&path)?;
        let stones = reader.header()["stones"].as_u64().unwrap_or(u64::MAX) as usize;
        check_header(&path, reader.header(), engine, stones)?;
    }
    let mut lowest = None;
    for stones in (0..=engine.ranking().cells()).rev() {
        let path = layer_path(dir, stones);
        if !path.exists() {
            break;
        }
        let reader = table::open(&path)?;
        check_header(&path, reader.header(), engine, stones)?;
        lowest = Some(stones);
    }
    Ok(lowest)
}

/// The layer files in `dir` (none when `dir` does not exist), in order of their names.
fn layer_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(format!("cannot read {}", dir.display()))(e)),
    };
    let mut names: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("layer-") && n.ends_with(".zt"))
        })
        .collect();
    names.sort();
    Ok(names)
}

/// The memory a run needs to compute the layers from `down_to` up to below `lowest_finished`
/// (up to the full board for `None`): the largest two neighbouring layers among them, in bytes.
#[must_use]
pub fn memory_needed(engine: &Engine, lowest_finished: Option<usize>, down_to: usize) -> u64 {
    let top = lowest_finished.unwrap_or(engine.ranking().cells() + 1);
    (down_to.min(top)..top)
        .map(|k| pair_bytes(engine, k))
        .max()
        .unwrap_or(0)
}

/// The bytes of layer `k` and of the layer above it, which computing or verifying `k` holds.
#[must_use]
pub fn pair_bytes(engine: &Engine, k: usize) -> u64 {
    let above = if k < engine.ranking().cells() {
        engine.layer_bytes(k + 1)
    } else {
        0
    };
    engine.layer_bytes(k) + above
}

/// Computes every layer not yet in `dir`, from the lowest finished one down to layer `down_to`
/// (0 for the whole solution; a higher layer gives an endgame table, the positions with at most
/// n² − `down_to` empty cells), writing each as it finishes and the summary after each; gives
/// every finished layer's record.
///
/// The caller checks [`memory_needed`] first. Files of another board or rules are refused;
/// temporary files left by a killed run are removed.
pub fn solve(
    dir: &Path,
    engine: &Engine,
    down_to: usize,
    observer: &dyn Observer,
) -> Result<Vec<LayerRecord>> {
    std::fs::create_dir_all(dir).map_err(Error::io(format!("cannot create {}", dir.display())))?;
    zermelo_store::ensure_writable(&dir.join(SUMMARY_FILE))?;
    remove_stale_temporaries(dir, observer)?;
    let cells = engine.ranking().cells();
    let lowest = lowest_finished(dir, engine)?;
    let mut records = previous_records(dir, engine, lowest)?;
    let mut next = match lowest {
        Some(stones) => {
            let (layer, record) = read_layer(dir, engine, stones)?;
            observer.say(&format!(
                "going on from layer {stones} (layers {stones} to {cells} are in {})",
                dir.display()
            ));
            records.push(LayerRecord {
                seconds: records_seconds(dir, stones),
                ..record
            });
            Some(layer)
        }
        None => None,
    };
    let top = lowest.unwrap_or(cells + 1);
    for stones in (down_to..top).rev() {
        let positions = engine.ranking().layer_len(stones);
        observer.layer_started(stones, positions);
        let start = Instant::now();
        let (layer, counts) = engine.layer(stones, next.as_ref(), &|n| observer.advance(n))?;
        let seconds = start.elapsed().as_secs_f64();
        // The next layer is no longer needed: free it before writing, so the peak is two layers.
        drop(next.take());
        let checksum = write_layer(dir, engine, &layer, &counts)?;
        let record = LayerRecord {
            stones,
            counts,
            checksum,
            seconds: Some(seconds),
        };
        observer.layer_done(&record);
        records.push(record);
        write_summary(dir, engine, &records)?;
        next = Some(layer);
    }
    write_summary(dir, engine, &records)?;
    records.sort_by_key(|r| r.stones);
    Ok(records)
}

/// Removes `.layer-KK.zt.PID.tmp` files: what a run killed while writing a layer leaves.
fn remove_stale_temporaries(dir: &Path, observer: &dyn Observer) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).map_err(Error::io(format!("cannot read {}", dir.display())))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(".layer-") && name.ends_with(".tmp") {
            std::fs::remove_file(entry.path()).map_err(Error::io(format!(
                "cannot remove {}",
                entry.path().display()
            )))?;
            observer.say(&format!("removed {name}, left by a stopped run"));
        }
    }
    Ok(())
}

/// The records of the layers above `lowest` (headers and checksums of their files, seconds from
/// the summary when it has them).
fn previous_records(
    dir: &Path,
    engine: &Engine,
    lowest: Option<usize>,
) -> Result<Vec<LayerRecord>> {
    let Some(lowest) = lowest else {
        return Ok(Vec::new());
    };
    let mut records = Vec::new();
    for stones in lowest + 1..=engine.ranking().cells() {
        let path = layer_path(dir, stones);
        let reader = table::open(&path)?;
        let counts = check_header(&path, reader.header(), engine, stones)?;
        records.push(LayerRecord {
            stones,
            counts,
            checksum: stored_checksum(&path)?,
            seconds: records_seconds(dir, stones),
        });
    }
    Ok(records)
}

/// The seconds an earlier run took for layer `stones`, from the summary (when readable).
fn records_seconds(dir: &Path, stones: usize) -> Option<f64> {
    let summary = zermelo_store::json::read(&dir.join(SUMMARY_FILE)).ok()?;
    summary["layers"]
        .as_array()?
        .iter()
        .find(|l| l["stones"].as_u64() == Some(stones as u64))?["seconds"]
        .as_f64()
}

fn write_summary(dir: &Path, engine: &Engine, records: &[LayerRecord]) -> Result<()> {
    let mut sorted: Vec<&LayerRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.stones);
    let layers: Vec<Value> = sorted
        .iter()
        .map(|r| {
            json!({
                "stones": r.stones,
                "positions": r.counts.positions,
                "terminal": r.counts.terminal,
                "mover_wins": r.counts.mover_wins,
                "ones": r.counts.ones,
                "seconds": r.seconds,
                "checksum": format!("crc32:{:08x}", r.checksum),
            })
        })
        .collect();
    let size = engine.ranking().size();
    let summary = json!({
        "kind": SUMMARY_KIND,
        "size": size,
        "rules": rules_name(engine.rules()),
        "complete": sorted.first().is_some_and(|r| r.stones == 0),
        "layers": layers,
        "zermelo_version": env!("CARGO_PKG_VERSION"),
    });
    Ok(zermelo_store::json::write(
        &dir.join(SUMMARY_FILE),
        &summary,
    )?)
}

/// Re-checks layers of `dir` against the layers above them: each layer in `layers` (every
/// finished layer but the full board's own, which has none above, is checked from its
/// definition alone) is recomputed from the file of the next layer, checksum verified, and
/// compared bit for bit and count for count with its file. Layers are checked from the top
/// down, each recomputed layer serving for the one below.
pub fn verify(
    dir: &Path,
    engine: &Engine,
    layers: &[usize],
    observer: &dyn Observer,
) -> Result<Vec<LayerRecord>> {
    let cells = engine.ranking().cells();
    let mut wanted: Vec<usize> = layers.to_vec();
    wanted.sort_unstable_by(|a, b| b.cmp(a));
    wanted.dedup();
    let mut above: Option<Layer> = None;
    let mut records = Vec::new();
    for &stones in &wanted {
        if stones > cells {
            return Err(Error::Invalid(format!(
                "a {0}x{0} board has layers 0 to {cells}",
                engine.ranking().size()
            )));
        }
        let next = if stones == cells {
            None
        } else if above.as_ref().is_some_and(|l| l.stones() == stones + 1) {
            above.take()
        } else {
            Some(read_layer(dir, engine, stones + 1)?.0)
        };
        observer.layer_started(stones, engine.ranking().layer_len(stones));
        let start = Instant::now();
        let (computed, counts) = engine.layer(stones, next.as_ref(), &|n| observer.advance(n))?;
        drop(next);
        let path = layer_path(dir, stones);
        let record = compare_with_file(&path, engine, &computed)?;
        if record.counts != counts {
            return Err(Error::Unverified(format!(
                "{}: the header's counts {:?} are not the recomputed {counts:?}",
                path.display(),
                record.counts
            )));
        }
        let record = LayerRecord {
            seconds: Some(start.elapsed().as_secs_f64()),
            ..record
        };
        observer.layer_done(&record);
        records.push(record);
        above = Some(computed);
    }
    Ok(records)
}

/// Compares a layer file, streamed through its checksum, with a computed layer (without holding
/// the file's bits); gives the file's record.
fn compare_with_file(path: &Path, engine: &Engine, computed: &Layer) -> Result<LayerRecord> {
    let stones = computed.stones();
    let mut reader = table::open(path)?;
    let counts = check_header(path, reader.header(), engine, stones)?;
    if reader.payload_len() != computed.words().len() as u64 * 8 {
        return Err(Error::File(format!(
            "{}: the payload is not the layer's length",
            path.display()
        )));
    }
    let mut word = 0;
    let mut first_difference = None;
    let checksum = reader.read_payload(|piece| {
        for bytes in piece.chunks_exact(8) {
            let stored = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            let differs = stored ^ computed.words()[word];
            if differs != 0 && first_difference.is_none() {
                first_difference = Some(word as u64 * 64 + u64::from(differs.trailing_zeros()));
            }
            word += 1;
        }
    })?;
    if let Some(index) = first_difference {
        return Err(Error::Unverified(format!(
            "{}: position {index} is {} in the file but {} recomputed from layer {}",
            path.display(),
            u8::from(!computed.get(index)),
            u8::from(computed.get(index)),
            stones + 1
        )));
    }
    Ok(LayerRecord {
        stones,
        counts,
        checksum,
        seconds: None,
    })
}

/// A database folder opened for look-ups: a few bytes of two layer files a question, read in
/// place (checksums are verified by [`verify`] and when a run loads a layer, not by a look-up).
pub struct Database {
    dir: PathBuf,
    engine: Engine,
    readers: HashMap<usize, table::Reader>,
}

/// A position's value and winning moves, read from a [`Database`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Whether the side to move wins.
    pub mover_wins: bool,
    /// Every cell (y·n + x) whose move wins, in increasing order.
    pub winning_moves: Vec<usize>,
}

impl Database {
    /// Opens the database in `dir`, taking the board size and the rules from its layer files.
    pub fn open(dir: &Path) -> Result<Database> {
        if !dir.is_dir() {
            return Err(Error::Folder(format!("{} is not a folder", dir.display())));
        }
        let names = layer_files(dir)?;
        let Some(first) = names.last() else {
            return Err(Error::Folder(format!(
                "{} holds no layer files (write them with zermelo hex strong --out {})",
                dir.display(),
                dir.display()
            )));
        };
        let reader = table::open(first)?;
        let h = reader.header();
        if h["kind"].as_str() != Some(KIND) {
            return Err(Error::File(format!(
                "{}: not a layer of a strong solution",
                first.display()
            )));
        }
        let size = h["size"].as_u64().unwrap_or(0) as usize;
        let rules = match h["rules"].as_str() {
            Some("normal") => Rules::Normal,
            Some("misere") => Rules::Misere,
            _ => {
                return Err(Error::File(format!(
                    "{}: no rules in the header",
                    first.display()
                )))
            }
        };
        let engine = Engine::new(size, rules)
            .map_err(|e| Error::File(format!("{}: {e}", first.display())))?;
        Ok(Database {
            dir: dir.to_path_buf(),
            engine,
            readers: HashMap::new(),
        })
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> usize {
        self.engine.ranking().size()
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.engine.rules()
    }

    /// The stored bit of position `index` of layer `stones`.
    fn bit(&mut self, stones: usize, index: u64) -> Result<bool> {
        if !self.readers.contains_key(&stones) {
            let path = layer_path(&self.dir, stones);
            if !path.exists() {
                return Err(Error::Folder(format!(
                    "{} has no layer {stones} yet (a run computes the layers from the full \
                     board down; run zermelo hex strong again to go on)",
                    self.dir.display()
                )));
            }
            let reader = table::open(&path)?;
            check_header(&path, reader.header(), &self.engine, stones)?;
            if reader.payload_len() != self.engine.layer_bytes(stones) {
                return Err(Error::File(format!(
                    "{}: the payload is not the layer's length",
                    path.display()
                )));
            }
            self.readers.insert(stones, reader);
        }
        let reader = self.readers.get_mut(&stones).expect("just opened");
        let mut byte = [0u8];
        reader.read_at(index / 8, &mut byte)?;
        Ok(byte[0] >> (index % 8) & 1 == 1)
    }

    /// The value of the position with `black` and `white` stones (bit y·n + x for column x,
    /// row y), which nobody has connected, and every winning move: a move wins when the
    /// position it leads to is lost for the opponent. Checks that the two layers agree.
    pub fn analyse(&mut self, black: u64, white: u64) -> Result<Analysis> {
        let ranking = self.engine.ranking().clone();
        let (stones, index) = ranking.index(black, white)?;
        let mover_wins = self.bit(stones, index)?;
        let black_to_move = stones % 2 == 0;
        let mut winning_moves = Vec::new();
        for cell in (0..ranking.cells()).filter(|&c| (black | white) >> c & 1 == 0) {
            let (b, w) = if black_to_move {
                (black | 1 << cell, white)
            } else {
                (black, white | 1 << cell)
            };
            let (_, child) = ranking.index(b, w)?;
            if !self.bit(stones + 1, child)? {
                winning_moves.push(cell);
            }
        }
        if mover_wins == winning_moves.is_empty() {
            return Err(Error::File(format!(
                "{}: layers {stones} and {} disagree on this position; the database is damaged",
                self.dir.display(),
                stones + 1
            )));
        }
        Ok(Analysis {
            mover_wins,
            winning_moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zermelo_hex::retro::{RetroTable, RetroValue};

    /// An observer that says nothing.
    struct Quiet;
    impl Observer for Quiet {
        fn say(&self, _: &str) {}
        fn layer_started(&self, _: usize, _: u64) {}
        fn advance(&self, _: u64) {}
        fn layer_done(&self, _: &LayerRecord) {}
    }

    fn layer_files(dir: &Path, cells: usize) -> Vec<Vec<u8>> {
        (0..=cells)
            .map(|k| std::fs::read(layer_path(dir, k)).unwrap())
            .collect()
    }

    #[test]
    fn a_resumed_run_writes_the_same_files_as_one_run() {
        let engine = Engine::new(4, Rules::Misere).unwrap();
        let whole = tempfile::tempdir().unwrap();
        let records = solve(whole.path(), &engine, 0, &Quiet).unwrap();
        assert_eq!(records.len(), 17);
        assert!(records.iter().all(|r| r.seconds.is_some()));

        let parts = tempfile::tempdir().unwrap();
        let first = solve(parts.path(), &engine, 9, &Quiet).unwrap();
        assert_eq!(first.len(), 8);
        assert_eq!(lowest_finished(parts.path(), &engine).unwrap(), Some(9));
        let summary = zermelo_store::json::read(&parts.path().join(SUMMARY_FILE)).unwrap();
        assert_eq!(summary["complete"], false);
        // What a run killed while writing layer 8 leaves behind.
        std::fs::write(parts.path().join(".layer-08.zt.12345.tmp"), b"half").unwrap();
        let second = solve(parts.path(), &engine, 0, &Quiet).unwrap();
        assert_eq!(second.len(), 17);
        assert_eq!(layer_files(parts.path(), 16), layer_files(whole.path(), 16));
        assert!(!parts.path().join(".layer-08.zt.12345.tmp").exists());
        let summary = zermelo_store::json::read(&parts.path().join(SUMMARY_FILE)).unwrap();
        assert_eq!(summary["complete"], true);
        assert_eq!(summary["layers"].as_array().unwrap().len(), 17);
        for (a, b) in records.iter().zip(&second) {
            assert_eq!(
                (a.stones, a.counts, a.checksum),
                (b.stones, b.counts, b.checksum)
            );
        }
        // A finished database has nothing left to do.
        assert_eq!(memory_needed(&engine, Some(0), 0), 0);
        assert_eq!(solve(parts.path(), &engine, 0, &Quiet).unwrap().len(), 17);
    }

    #[test]
    fn verify_finds_a_wrong_bit_behind_a_good_checksum() {
        let engine = Engine::new(3, Rules::Normal).unwrap();
        let dir = tempfile::tempdir().unwrap();
        solve(dir.path(), &engine, 0, &Quiet).unwrap();
        let all: Vec<usize> = (0..=9).collect();
        assert_eq!(verify(dir.path(), &engine, &all, &Quiet).unwrap().len(), 10);

        let (layer, record) = read_layer(dir.path(), &engine, 4).unwrap();
        let mut words = layer.words().to_vec();
        words[0] ^= 1 << 5;
        let bad = Layer::from_words(engine.ranking(), 4, words).unwrap();
        write_layer(dir.path(), &engine, &bad, &record.counts).unwrap();
        let err = verify(dir.path(), &engine, &[4], &Quiet).unwrap_err();
        assert!(matches!(err, Error::Unverified(_)), "{err}");
        assert!(err.to_string().contains("position 5"), "{err}");
        // A byte changed on disk fails the checksum.
        let path = layer_path(dir.path(), 6);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 5;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(verify(dir.path(), &engine, &[5], &Quiet).is_err());
    }

    #[test]
    fn another_board_or_rules_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        solve(
            dir.path(),
            &Engine::new(2, Rules::Normal).unwrap(),
            2,
            &Quiet,
        )
        .unwrap();
        for (size, rules) in [(2, Rules::Misere), (3, Rules::Normal)] {
            let err = solve(dir.path(), &Engine::new(size, rules).unwrap(), 0, &Quiet);
            assert!(matches!(err, Err(Error::File(_))), "{size} {rules:?}");
        }
    }

    #[test]
    fn look_ups_agree_with_the_retrograde_oracle() {
        for rules in [Rules::Normal, Rules::Misere] {
            let engine = Engine::new(3, rules).unwrap();
            let dir = tempfile::tempdir().unwrap();
            solve(dir.path(), &engine, 0, &Quiet).unwrap();
            let oracle = RetroTable::compute(3, rules == Rules::Misere).unwrap();
            let mut db = Database::open(dir.path()).unwrap();
            assert_eq!((db.size(), db.rules()), (3, rules));
            let ranking = engine.ranking();
            let mut checked = 0;
            for stones in 0..9 {
                for index in 0..ranking.layer_len(stones) {
                    let (black, white) = ranking.position(stones, index);
                    let value = oracle.value(black.into(), white.into()).unwrap();
                    if !matches!(value, RetroValue::Win | RetroValue::Loss) {
                        continue;
                    }
                    let analysis = db.analyse(black, white).unwrap();
                    assert_eq!(analysis.mover_wins, value == RetroValue::Win);
                    let black_to_move = stones % 2 == 0;
                    for cell in (0..9).filter(|&c| (black | white) >> c & 1 == 0) {
                        let (b, w) = if black_to_move {
                            (black | 1 << cell, white)
                        } else {
                            (black, white | 1 << cell)
                        };
                        let wins = match oracle.value(b.into(), w.into()).unwrap() {
                            RetroValue::GameOver => rules == Rules::Normal,
                            child => child == RetroValue::Loss,
                        };
                        assert_eq!(analysis.winning_moves.contains(&cell), wins);
                    }
                    checked += 1;
                }
            }
            assert!(checked > 1000);
        }
    }

    #[test]
    fn a_missing_layer_is_named() {
        let engine = Engine::new(3, Rules::Normal).unwrap();
        let dir = tempfile::tempdir().unwrap();
        solve(dir.path(), &engine, 5, &Quiet).unwrap();
        let mut db = Database::open(dir.path()).unwrap();
        assert!(db
            .analyse(0b11, 0b1100)
            .is_err_and(|e| e.to_string().contains("no layer 4")));
        assert!(db.analyse(0b111, 0b11000).is_ok());
        let empty = tempfile::tempdir().unwrap();
        assert!(Database::open(empty.path()).is_err());
    }
}
