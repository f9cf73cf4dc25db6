//! Proof files: the proven positions of Hex runs kept on disk (`--proofs`), and the driver
//! that saves a running solver's new proofs as it goes.
//!
//! A proof file is zermelo-store's table container (magic `ZRMLTABL`, format version, JSON
//! header, payload, CRC-32; written to a temporary file, fsynced and renamed) with the header
//! `{"kind": "zermelo-hex-proofs", "size": n, "rules": "normal"|"misere", "count": N,
//! "record_bytes": 34}` and a payload of N records of [`zermelo_hex::ProofSet`]'s layout: the
//! whole position (both stone sets, the side to move) in canonical orientation, and the winning
//! move or a loss, in increasing order.
//!
//! Beside it, `PATH.open` keeps where the searches stood at the last save: the open entries of
//! the transposition table ([`zermelo_hex::Solver::table_snapshot`]), in the same container with
//! the header `{"kind": "zermelo-hex-open", "size": n, "rules": ..., "entries": N,
//! "estimates": E, "entry_bytes": 43}` and a payload of 43·N + 2·E bytes. A rerun puts them
//! back before it searches, so a killed run goes on from where its searches stood at the last
//! save; they only steer the search, never decide a value. A run that finishes removes the
//! file, having no open proofs left to go on with.
//!
//! Chosen by measurement over an embedded database (redb 2.6, one million 34-byte proofs saved
//! in ten rounds): the container rewritten whole at each save took 2.0 s in all (the slowest
//! save 0.34 s) for a 34 MB file; redb, one transaction of the new proofs per save, 8.1 s (the
//! slowest commit 1.3 s) for a 135 MB file. Reading them all back took 0.24 s either way.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use zermelo_hex::{Proof, ProofSet, Rules, Solver, PROOF_RECORD_BYTES, SNAPSHOT_ENTRY_BYTES};

use crate::{Error, Result};

/// The `kind` of a proof file's header.
const KIND: &str = "zermelo-hex-proofs";

/// The `kind` of the header of a proof file's open entries.
const OPEN_KIND: &str = "zermelo-hex-open";

/// What a run did with its proof file, for the JSON output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kept {
    /// Proofs read at the start.
    pub loaded: usize,
    /// Proofs this run added to the file (new positions).
    pub saved: usize,
    /// Open entries of the last run's table put back at the start.
    pub open_restored: usize,
}

impl Kept {
    /// The line the text output ends with.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "proofs: {} loaded, {} new saved; {} open entries restored",
            self.loaded, self.saved, self.open_restored
        )
    }

    /// Adds `proofs_loaded`, `proofs_saved` and `open_restored` to a JSON object.
    pub fn annotate(&self, doc: &mut serde_json::Value) {
        doc["proofs_loaded"] = json!(self.loaded);
        doc["proofs_saved"] = json!(self.saved);
        doc["open_restored"] = json!(self.open_restored);
    }
}

/// Reads a proof file, checking its checksum, its header and every record.
pub fn read(path: &Path) -> Result<ProofSet> {
    let table = zermelo_store::table::read(path)?;
    let h = &table.header;
    if h["kind"] != KIND {
        bail!(
            File,
            "{}: not a proofs file (it holds {})",
            path.display(),
            h["kind"]
        );
    }
    let corrupt =
        |what: &str| Error::File(format!("{}: corrupt proofs file ({what})", path.display()));
    let size = h["size"].as_u64().ok_or_else(|| corrupt("no board size"))? as usize;
    let rules = header_rules(h).ok_or_else(|| corrupt("no rules"))?;
    if h["record_bytes"] != PROOF_RECORD_BYTES
        || h["count"].as_u64().map(|c| c as usize) != Some(table.payload.len() / PROOF_RECORD_BYTES)
    {
        return Err(corrupt("the header does not describe the records"));
    }
    ProofSet::from_bytes(size, rules, &table.payload)
        .map_err(|e| Error::File(format!("{}: corrupt proofs file ({e})", path.display())))
}

/// Writes a proof file atomically.
pub fn write(path: &Path, set: &ProofSet) -> Result<()> {
    let header = json!({
        "kind": KIND,
        "size": set.size(),
        "rules": rules_name(set.rules()),
        "count": set.len(),
        "record_bytes": PROOF_RECORD_BYTES,
    });
    zermelo_store::table::write(path, &header, &set.to_bytes())?;
    Ok(())
}

/// "6x6 normal Hex", for messages.
#[must_use]
pub fn describe(size: usize, rules: Rules) -> String {
    let rules = match rules {
        Rules::Normal => "normal",
        Rules::Misere => "misère",
    };
    format!("{size}x{size} {rules} Hex")
}

/// "normal" or "misere", as a proof file's header names the rules.
fn rules_name(rules: Rules) -> &'static str {
    match rules {
        Rules::Normal => "normal",
        Rules::Misere => "misere",
    }
}

/// The proofs of `path` for n x n boards and `rules`: those it holds, or none when it does not
/// exist yet (then it must be writable). A file of another board or rules is refused.
pub fn load(path: &Path, n: usize, rules: Rules) -> Result<ProofSet> {
    if !path.exists() {
        zermelo_store::ensure_writable(path)?;
        return Ok(ProofSet::new(n, rules)?);
    }
    let set = read(path)?;
    if (set.size(), set.rules()) != (n, rules) {
        bail!(
            File,
            "{} holds proofs of {}, not {}; give another --proofs file",
            path.display(),
            describe(set.size(), set.rules()),
            describe(n, rules)
        );
    }
    Ok(set)
}

/// The file beside a proof file that keeps the open entries of its run's table.
#[must_use]
pub fn open_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".open");
    PathBuf::from(name)
}

/// The open entries saved beside the proof file `path` ([`open_path`]): their board size,
/// rules and records, checked against the container's checksum and header; `None` when there
/// is no such file.
pub fn read_open(path: &Path) -> Result<Option<(usize, Rules, Vec<u8>)>> {
    let path = open_path(path);
    if !path.exists() {
        return Ok(None);
    }
    let table = zermelo_store::table::read(&path)?;
    let h = &table.header;
    let corrupt = |what: &str| corrupt_open(&path, what);
    if h["kind"] != OPEN_KIND {
        return Err(corrupt("not a file of open entries"));
    }
    let rules = header_rules(h).ok_or_else(|| corrupt("no rules"))?;
    let size = h["size"].as_u64().ok_or_else(|| corrupt("no board size"))? as usize;
    let (entries, estimates) = (h["entries"].as_u64(), h["estimates"].as_u64());
    if h["entry_bytes"] != SNAPSHOT_ENTRY_BYTES
        || entries
            .zip(estimates)
            .map(|(n, e)| n as usize * SNAPSHOT_ENTRY_BYTES + 2 * e as usize)
            != Some(table.payload.len())
    {
        return Err(corrupt("the header does not describe the entries"));
    }
    Ok(Some((size, rules, table.payload)))
}

/// Puts the open entries saved beside the proof file `path` back into the solver's table, for
/// n x n boards, with their children's first estimates; returns how many entries (0 when there
/// is no such file). A damaged file, or one of another board or rules, is refused.
fn restore_open(path: &Path, solver: &Solver, n: usize) -> Result<usize> {
    let Some((size, rules, records)) = read_open(path)? else {
        return Ok(0);
    };
    let open = open_path(path);
    if (size, rules) != (n, solver.rules()) {
        bail!(
            File,
            "{} holds open entries of {}, not {}; remove it to go on from the proofs alone",
            open.display(),
            describe(size, rules),
            describe(n, solver.rules())
        );
    }
    let counts = solver
        .restore_table(n, &records)
        .map_err(|e| corrupt_open(&open, &e.to_string()))?;
    Ok(counts.entries)
}

/// The error for a damaged file of open entries, which the proofs can do without.
fn corrupt_open(path: &Path, what: &str) -> Error {
    Error::File(format!(
        "{}: corrupt file of open entries ({what}); remove it to go on from the proofs alone",
        path.display()
    ))
}

/// The rules a file's header names ("normal" or "misere").
fn header_rules(h: &serde_json::Value) -> Option<Rules> {
    match h["rules"].as_str()? {
        "normal" => Some(Rules::Normal),
        "misere" => Some(Rules::Misere),
        _ => None,
    }
}

/// Saves the open entries of the solver's table for n x n boards beside the proof file `path`.
fn save_open(path: &Path, solver: &Solver, n: usize) -> Result<()> {
    let (payload, counts) = solver.table_snapshot(n);
    let header = json!({
        "kind": OPEN_KIND,
        "size": n,
        "rules": rules_name(solver.rules()),
        "entries": counts.entries,
        "estimates": counts.estimates,
        "entry_bytes": SNAPSHOT_ENTRY_BYTES,
    });
    zermelo_store::table::write(&open_path(path), &header, &payload)?;
    Ok(())
}

/// Where a run keeps its proofs, and how often it saves them.
#[derive(Debug, Clone)]
pub struct ProofFile {
    /// The file.
    pub path: PathBuf,
    /// The time between saves.
    pub every: Duration,
}

impl ProofFile {
    /// The proofs of the file for n x n boards and the solver's rules (see [`load`]), and the
    /// solver made to answer them and to keep its own.
    pub fn open(&self, solver: Solver, n: usize) -> Result<Solver> {
        let set = load(&self.path, n, solver.rules())?;
        Ok(solver.with_proofs(set)?)
    }
}

/// Runs `work` while the solver's new proofs are saved to `file` every interval and at the end,
/// with the open entries of its table beside them ([`open_path`]) until it finishes; open
/// entries saved by an earlier run of the file are put back first.
/// When `stop` is set (by a signal handler) the searches are stopped at the next position each
/// proves ([`Solver::seal_proofs`]), the proofs saved, and `stopped` told what the file holds:
/// it ends the process (the searches cannot go on), and no proof found is lost. Without a
/// file, runs `work` alone.
///
/// The solver must have been given its proofs ([`ProofFile::open`]).
pub fn keeping<T: Send, E: From<Error> + Send>(
    solver: &Solver,
    file: Option<&ProofFile>,
    stop: &AtomicBool,
    stopped: impl FnOnce(Kept) -> std::convert::Infallible + Send,
    work: impl FnOnce() -> Result<T, E> + Send,
) -> Result<(T, Option<Kept>), E> {
    let Some(file) = file else {
        return Ok((work()?, None));
    };
    let known = solver
        .known_proofs()
        .expect("ProofFile::open gave the solver its proofs");
    let n = known.size();
    let mut saver = Saver {
        path: &file.path,
        n,
        kept: Kept {
            loaded: known.len(),
            saved: 0,
            open_restored: restore_open(&file.path, solver, n)?,
        },
        all: known.clone(),
    };
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let keeper = scope.spawn(|| -> Result<Kept> {
            let mut last = Instant::now();
            let mut stopped = Some(stopped);
            loop {
                let (lock, wake) = &done;
                let finished = *wake
                    .wait_timeout(lock.lock().expect("no panic holding it"), POLL)
                    .expect("no panic holding it")
                    .0;
                if finished {
                    return saver.save(solver, false);
                }
                // An interval counts from the start of a save, which takes what the run holds
                // at that moment: so what a kill loses is at most one interval old, however
                // long the saves take.
                if stop.load(Ordering::SeqCst) {
                    if let Some(stopped) = stopped.take() {
                        match stopped(saver.save_last(solver)?) {}
                    }
                }
                if last.elapsed() >= file.every {
                    last = Instant::now();
                    saver.save(solver, true)?;
                }
            }
        });
        let result = {
            // Tells the saver the work is over even if it panics, so that the scope, which
            // waits for the saver, does not wait for ever.
            let _over = Over(&done);
            work()
        };
        let kept = keeper.join().expect("the saver does not panic");
        Ok((result?, Some(kept?)))
    })
}

/// Marks the work over when dropped, at its end or as a panic unwinds through it.
struct Over<'a>(&'a (Mutex<bool>, Condvar));

impl Drop for Over<'_> {
    fn drop(&mut self) {
        let (lock, wake) = self.0;
        *lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        wake.notify_all();
    }
}

/// How often the saver looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// The proofs loaded and those found since, as the file will hold them.
struct Saver<'a> {
    path: &'a Path,
    n: usize,
    kept: Kept,
    all: ProofSet,
}

impl Saver<'_> {
    /// Takes the solver's new proofs and writes the file; then saves the table's open entries
    /// beside it while the run goes on (`open`), or removes them once it has finished.
    fn save(&mut self, solver: &Solver, open: bool) -> Result<Kept> {
        let new = solver.take_new_proofs();
        self.write(solver, new, open)
    }

    /// The save before a stop: the searches are stopped at their next proof first, so that
    /// the file holds every proof found (and the open entries, for the next run).
    fn save_last(&mut self, solver: &Solver) -> Result<Kept> {
        let new = solver.seal_proofs();
        self.write(solver, new, true)
    }

    fn write(&mut self, solver: &Solver, new: Vec<Proof>, open: bool) -> Result<Kept> {
        for proof in new {
            self.all.insert(proof)?;
        }
        let failed =
            |e: Error| e.context(format!("cannot save the proofs to {}", self.path.display()));
        write(self.path, &self.all).map_err(failed)?;
        if open {
            save_open(self.path, solver, self.n).map_err(failed)?;
        } else {
            let open = open_path(self.path);
            match std::fs::remove_file(&open) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::io(format!("cannot remove {}", open.display()))(e));
                }
                _ => {}
            }
        }
        self.kept.saved = self.all.len() - self.kept.loaded;
        Ok(self.kept)
    }
}

/// Pools proof files of one board size and rules (from runs on different machines or
/// shards): the proofs of every input, refusing files of other boards or rules and
/// contradicting proofs.
pub fn pool(inputs: &[PathBuf]) -> Result<ProofSet> {
    let mut all: Option<ProofSet> = None;
    for path in inputs {
        let set = read(path)?;
        match &mut all {
            None => all = Some(set),
            Some(all) => {
                if (set.size(), set.rules()) != (all.size(), all.rules()) {
                    bail!(
                        File,
                        "{} holds proofs of {}, the files before it {}: only proofs of one \
                         board and rules can be pooled",
                        path.display(),
                        describe(set.size(), set.rules()),
                        describe(all.size(), all.rules())
                    );
                }
                all.merge(&set)
                    .map_err(|e| Error::from(e).context(format!("pooling {}", path.display())))?;
            }
        }
    }
    all.ok_or_else(|| Error::Invalid("no proof files to pool".into()))
}
