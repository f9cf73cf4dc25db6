//! Proof files: the proven positions of Hex runs kept on disk (`--proofs`), and
//! `zermelo hex proofs merge`.
//!
//! A proof file is zermelo-store's table container (magic `ZRMLTABL`, format version, JSON
//! header, payload, CRC-32; written to a temporary file, fsynced and renamed) with the header
//! `{"kind": "zermelo-hex-proofs", "size": n, "rules": "normal"|"misere", "count": N,
//! "record_bytes": 34}` and a payload of N records of [`zermelo_hex::ProofSet`]'s layout: the
//! whole position (both stone sets, the side to move) in canonical orientation, and the winning
//! move or a loss, in increasing order.
//!
//! Chosen by measurement over an embedded database (redb 2.6, one million 34-byte proofs saved
//! in ten rounds): the container rewritten whole at each save took 2.0 s in all (the slowest
//! save 0.34 s) for a 34 MB file; redb, one transaction of the new proofs per save, 8.1 s (the
//! slowest commit 1.3 s) for a 135 MB file. Reading them all back took 0.24 s either way.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use serde_json::json;
use zermelo_hex::{ProofSet, Rules, Solver, PROOF_RECORD_BYTES};

use super::rules_name;
use crate::output::{errln, outln};

/// The `kind` of a proof file's header.
const KIND: &str = "zermelo-hex-proofs";

/// The options of the commands that keep proofs.
#[derive(Args, Clone)]
pub struct ProofOptions {
    /// Keep proven positions in this file: the proofs it holds (of the same board size and
    /// rules) are loaded at the start, and the run saves its own there as it goes, every
    /// --save-every seconds, on Ctrl-C or SIGTERM, and at the end. A rerun starts from them.
    #[arg(long, value_name = "PATH")]
    pub proofs: Option<PathBuf>,
    /// Seconds between saves of the proofs file.
    #[arg(long, value_name = "SECS", default_value_t = 120, requires = "proofs",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub save_every: u64,
}

/// What a run did with its proof file, for the JSON output.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kept {
    /// Proofs read at the start.
    pub loaded: usize,
    /// Proofs this run added to the file (new positions).
    pub saved: usize,
}

impl Kept {
    /// The line the text output ends with.
    pub fn summary(&self) -> String {
        format!("proofs: {} loaded, {} new saved", self.loaded, self.saved)
    }

    /// Adds `proofs_loaded` and `proofs_saved` to a JSON object.
    pub fn annotate(&self, doc: &mut serde_json::Value) {
        doc["proofs_loaded"] = json!(self.loaded);
        doc["proofs_saved"] = json!(self.saved);
    }
}

/// Reads a proof file, checking its checksum, its header and every record.
pub fn read(path: &Path) -> anyhow::Result<ProofSet> {
    let table = zermelo_store::table::read(path)?;
    let h = &table.header;
    if h["kind"] != KIND {
        anyhow::bail!(
            "{}: not a proofs file (it holds {})",
            path.display(),
            h["kind"]
        );
    }
    let corrupt = |what: &str| anyhow::anyhow!("{}: corrupt proofs file ({what})", path.display());
    let size = h["size"].as_u64().ok_or_else(|| corrupt("no board size"))? as usize;
    let rules = match h["rules"].as_str() {
        Some("normal") => Rules::Normal,
        Some("misere") => Rules::Misere,
        _ => return Err(corrupt("no rules")),
    };
    if h["record_bytes"] != PROOF_RECORD_BYTES
        || h["count"].as_u64().map(|c| c as usize) != Some(table.payload.len() / PROOF_RECORD_BYTES)
    {
        return Err(corrupt("the header does not describe the records"));
    }
    ProofSet::from_bytes(size, rules, &table.payload)
        .map_err(|e| anyhow::anyhow!("{}: corrupt proofs file ({e})", path.display()))
}

/// Writes a proof file atomically.
pub fn write(path: &Path, set: &ProofSet) -> anyhow::Result<()> {
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
fn describe(size: usize, rules: Rules) -> String {
    format!("{size}x{size} {} Hex", super::rules_prose(rules))
}

/// The proofs of `path` for n x n boards and `rules`: those it holds, or none when it does not
/// exist yet (then it must be writable). A file of another board or rules is refused.
pub fn load(path: &Path, n: usize, rules: Rules) -> anyhow::Result<ProofSet> {
    if !path.exists() {
        zermelo_store::ensure_writable(path)?;
        return Ok(ProofSet::new(n, rules)?);
    }
    let set = read(path)?;
    if (set.size(), set.rules()) != (n, rules) {
        anyhow::bail!(
            "{} holds proofs of {}, not {}; give another --proofs file",
            path.display(),
            describe(set.size(), set.rules()),
            describe(n, rules)
        );
    }
    Ok(set)
}

/// Where the run keeps its proofs.
pub struct ProofFile {
    path: PathBuf,
    every: Duration,
}

impl ProofOptions {
    /// The proof file asked for, loaded for n x n boards, and the solver made to keep proofs.
    pub fn open(&self, solver: Solver, n: usize) -> anyhow::Result<(Solver, Option<ProofFile>)> {
        let Some(path) = &self.proofs else {
            return Ok((solver, None));
        };
        let set = load(path, n, solver.rules())?;
        let file = ProofFile {
            path: path.clone(),
            every: Duration::from_secs(self.save_every),
        };
        Ok((solver.with_proofs(set)?, Some(file)))
    }
}

/// Runs `work` while the solver's new proofs are saved to `file` every interval, on Ctrl-C or
/// SIGTERM (then the program stops, with one line saying where the proofs are) and at the end.
/// Without a file, runs `work` alone.
pub fn keeping<T: Send>(
    solver: &Solver,
    file: Option<&ProofFile>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<(T, Option<Kept>)> {
    let Some(file) = file else {
        return Ok((work()?, None));
    };
    let known = solver
        .known_proofs()
        .expect("ProofOptions::open gave the solver its proofs");
    let mut saver = Saver {
        path: &file.path,
        loaded: known.len(),
        all: known.clone(),
    };
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        // One handler per process; if one exists already, a signal simply ends the run with
        // the last interval's proofs saved.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let done = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let keeper = scope.spawn(|| -> anyhow::Result<Kept> {
            let mut last = Instant::now();
            loop {
                let (lock, wake) = &done;
                let finished = *wake
                    .wait_timeout(lock.lock().expect("no panic holding it"), POLL)
                    .expect("no panic holding it")
                    .0;
                if finished {
                    return saver.save(solver);
                }
                if interrupted.load(Ordering::SeqCst) {
                    let kept = saver.save(solver)?;
                    errln!(
                        "zermelo: error: interrupted; {} proofs ({} new) saved to {}: the same \
                         command goes on from them",
                        kept.loaded + kept.saved,
                        kept.saved,
                        file.path.display()
                    );
                    std::process::exit(1);
                }
                if last.elapsed() >= file.every {
                    saver.save(solver)?;
                    last = Instant::now();
                }
            }
        });
        let result = work();
        *done.0.lock().expect("no panic holding it") = true;
        done.1.notify_all();
        let kept = keeper.join().expect("the saver does not panic");
        Ok((result?, Some(kept?)))
    })
}

/// How often the saver looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// The proofs loaded and those found since, as the file will hold them.
struct Saver<'a> {
    path: &'a Path,
    loaded: usize,
    all: ProofSet,
}

impl Saver<'_> {
    /// Takes the solver's new proofs and writes the file.
    fn save(&mut self, solver: &Solver) -> anyhow::Result<Kept> {
        for proof in solver.take_new_proofs() {
            self.all.insert(proof)?;
        }
        write(self.path, &self.all)
            .with_context(|| format!("cannot save the proofs to {}", self.path.display()))?;
        Ok(Kept {
            loaded: self.loaded,
            saved: self.all.len() - self.loaded,
        })
    }
}

/// The proofs subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Pool proof files of the same board and rules (from runs on different machines or
    /// shards) into one.
    Merge(MergeArgs),
}

/// Arguments of `hex proofs merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The file to write (it may be one of the inputs).
    out: PathBuf,
    /// The proof files to pool, all of one board size and rules.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs a proofs subcommand.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Merge(args) => merge(args),
    }
}

fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let mut all: Option<ProofSet> = None;
    for path in &args.inputs {
        let set = read(path)?;
        match &mut all {
            None => all = Some(set),
            Some(all) => {
                if (set.size(), set.rules()) != (all.size(), all.rules()) {
                    anyhow::bail!(
                        "{} holds proofs of {}, the files before it {}: only proofs of one \
                         board and rules can be pooled",
                        path.display(),
                        describe(set.size(), set.rules()),
                        describe(all.size(), all.rules())
                    );
                }
                all.merge(&set)
                    .with_context(|| format!("pooling {}", path.display()))?;
            }
        }
    }
    let all = all.expect("clap requires one input at least");
    write(&args.out, &all)?;
    if args.json {
        outln!(
            "{}",
            json!({
                "size": all.size(),
                "rules": rules_name(all.rules()),
                "inputs": args.inputs.len(),
                "proofs": all.len(),
                "out": args.out.display().to_string(),
            })
        )?;
    } else {
        outln!(
            "{} proofs of {} from {} files written to {}",
            all.len(),
            describe(all.size(), all.rules()),
            args.inputs.len(),
            args.out.display()
        )?;
    }
    Ok(())
}
