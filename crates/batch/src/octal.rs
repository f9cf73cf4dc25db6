//! The long run of an octal game's table: an engine driven in chunks, the period watched as
//! the values come (and the run stopped once it is proven, if asked), the table checkpointed
//! to its file every interval and on a stop, or streamed to a folder of pieces
//! ([`crate::stream`]), and a checkpoint resumed; a proven period is checked a second time,
//! apart from the period search, before the table is written as finished. The table file's
//! format is zermelo-store's container ([`crate::table`]), which is why the driver lives here
//! rather than beside the engines in zermelo-grundy, which knows nothing of files.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use std::time::Duration;
//! use zermelo_batch::octal::{OctalRun, Outcome};
//!
//! let run = OctalRun {
//!     game: "0.77".parse()?,
//!     max: 1000,
//!     sparse: true,
//!     stop_when_proven: true,
//!     out: None,
//!     resume: None,
//!     stream: None,
//!     piece: None,
//!     checkpoint_every: Duration::from_secs(300),
//!     replace: false,
//! };
//! let Outcome::Finished(kayles) = run.run(&AtomicBool::new(false), |_, _| {})? else {
//!     unreachable!("nothing stops it")
//! };
//! // Kayles' period 12 is proven at G(167).
//! assert_eq!(kayles.values.len(), 168);
//! assert_eq!(kayles.period.map(|p| p.period), Some(12));
//! # Ok::<(), zermelo_batch::Error>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use zermelo_grundy::period::{self, PeriodWatch, Periodicity, ProofRule};
use zermelo_grundy::{naive, GrundyError, OctalGame, SparseEngine};

use crate::{stream, table, Result};

/// An octal table run: what it computes and where it keeps its table.
#[derive(Debug, Clone)]
pub struct OctalRun {
    /// The game.
    pub game: OctalGame,
    /// The largest heap: the run computes G(0..=max).
    pub max: usize,
    /// The sparse-space engine (for games whose moves leave at most two heaps), else the
    /// reference engine that looks at every option.
    pub sparse: bool,
    /// Stop as soon as the period is proven (values beyond follow from it); the table is cut
    /// where the proof completed.
    pub stop_when_proven: bool,
    /// The table file, written atomically every `checkpoint_every`, on a stop and at the end.
    pub out: Option<PathBuf>,
    /// A table to continue; checkpoints go back to it unless `out` is given.
    pub resume: Option<PathBuf>,
    /// A folder that keeps the table as pieces of `piece` values, each written once as it
    /// fills, the last at each checkpoint ([`crate::stream`]); created, or resumed when it
    /// holds a stream already. Not with `out` or `resume`.
    pub stream: Option<PathBuf>,
    /// Values per piece of a new stream folder (default 2^24); a resumed one must agree.
    pub piece: Option<usize>,
    /// The time between checkpoints.
    pub checkpoint_every: Duration,
    /// Replace a file already at `out` (other than `resume` itself); without it the run refuses
    /// to start rather than lose a table that may have taken hours.
    pub replace: bool,
}

/// A finished octal run.
#[derive(Debug, Clone, PartialEq)]
pub struct OctalTable {
    /// G(0..len): up to `max`, or up to where the period was proven.
    pub values: Vec<u16>,
    /// The period of the values, when one is established.
    pub period: Option<Periodicity>,
    /// Whether the run stopped on the proof of the period.
    pub stopped_on_proof: bool,
    /// The engine that computed it: `sparse` or `naive`.
    pub engine: &'static str,
    /// Seconds of computing.
    pub seconds: f64,
    /// The number of values the resumed table held.
    pub resumed_from: Option<usize>,
    /// The file written (the stream folder for a streamed run).
    pub checkpoint: Option<PathBuf>,
}

/// How an octal run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It computed every value asked for, or stopped on a proof.
    Finished(OctalTable),
    /// `stop` was set: G(0..=at) are computed, and written to `checkpoint` when there is one.
    Stopped {
        /// The last heap computed.
        at: usize,
        /// The file the values were written to (the stream folder for a streamed run, which
        /// the same run resumes).
        checkpoint: Option<PathBuf>,
    },
}

impl OctalRun {
    /// Refuses an `out` that already holds a file, unless it is the table being resumed.
    fn refuse_to_replace(&self, out: &Path) -> Result<()> {
        if !out.exists() {
            return Ok(());
        }
        let same = |p: &Path| p.canonicalize().ok() == out.canonicalize().ok();
        if self.resume.as_deref().is_some_and(same) {
            return Ok(());
        }
        let held = match table::read(out) {
            Ok(t) => format!(
                "holds a table of {} to G({}){}; continue it with --resume {}",
                t.game,
                t.values.len().saturating_sub(1),
                if t.complete { "" } else { " (unfinished)" },
                out.display()
            ),
            Err(_) => "exists and is not a table zermelo can read".to_string(),
        };
        bail!(
            Invalid,
            "{} {held}, write elsewhere with --out, or replace it with --force",
            out.display()
        )
    }

    /// Runs the table, from the table of `resume` when given. `progress` is told the number of
    /// values computed and the engine's state once the engine is ready (`resumed` for a
    /// resumed table), then about every 200 ms and at the end. When `stop` is set (by a signal
    /// handler) the run writes a checkpoint and returns [`Outcome::Stopped`].
    pub fn run(&self, stop: &AtomicBool, mut progress: impl FnMut(usize, &str)) -> Result<Outcome> {
        let (game, max, use_sparse) = (&self.game, self.max, self.sparse);
        let checkpoint_path = self.out.clone().or_else(|| self.resume.clone());
        if let Some(path) = &checkpoint_path {
            zermelo_store::ensure_writable(path)?;
        }
        if let Some(out) = self.out.as_ref().filter(|_| !self.replace) {
            self.refuse_to_replace(out)?;
        }
        if self.stream.is_some() && (self.out.is_some() || self.resume.is_some()) {
            bail!(
                Invalid,
                "a streamed run keeps its table in its folder: not with --out or --resume"
            );
        }
        let mut resumed_from = None;
        let mut streaming = None;
        let start_values = match (&self.resume, &self.stream) {
            (_, Some(dir)) => {
                let (opened, values) = stream::Stream::open(dir, game, self.piece)?;
                zermelo_store::ensure_writable(&dir.join("piece.zgt"))?;
                if values.len() > max + 1 {
                    bail!(
                        File,
                        "{}: the stream holds G(0..={}), more than --max {max} asks for; resume \
                         it with --max {} or more",
                        dir.display(),
                        values.len() - 1,
                        values.len() - 1
                    );
                }
                if !values.is_empty() {
                    resumed_from = Some(values.len());
                }
                streaming = Some(opened);
                values
            }
            (Some(path), None) => {
                let stored = table::read(path)?;
                if stored.game != *game {
                    bail!(
                        File,
                        "{}: the table is for {}, not {game}; resume it with the same code",
                        path.display(),
                        stored.game
                    );
                }
                // Writing the run back to the same file would throw away the values beyond --max.
                let writes_back = self.out.as_ref().is_none_or(|out| {
                    out.canonicalize()
                        .ok()
                        .is_some_and(|o| path.canonicalize().ok() == Some(o))
                });
                let held = stored.values.len().saturating_sub(1);
                if stored.values.len() > max + 1 && writes_back {
                    bail!(
                        File,
                        "{}: the table holds G(0..={held}), more than --max {max} asks for; resume it \
                         with --max {held} or more, write the shorter table elsewhere with --out, or \
                         read it with zermelo grundy show",
                        path.display()
                    );
                }
                resumed_from = Some(stored.values.len());
                let mut values = stored.values;
                values.truncate(max + 1);
                values
            }
            (None, None) => Vec::new(),
        };
        let mut engine = if use_sparse {
            Engine::Sparse(Box::new(SparseEngine::resume(game, start_values)?))
        } else {
            Engine::Naive {
                game: game.clone(),
                values: start_values,
            }
        };
        let rule = ProofRule::for_octal(game);
        let resumed = if resumed_from.is_some() {
            "resumed"
        } else {
            ""
        };
        progress(engine.values().len(), resumed);
        let started = Instant::now();
        let mut last_report = Instant::now();
        let mut last_checkpoint = Instant::now();
        let checkpoint_every = self.checkpoint_every;
        let mut watch = PeriodWatch::new(rule);
        let mut save = |values: &[u16], saving: Saving| -> Result<()> {
            let (complete, period) = match saving {
                Saving::FullPieces => {
                    if let Some(streaming) = &mut streaming {
                        streaming.write_full_pieces(values)?;
                    }
                    return Ok(());
                }
                Saving::Checkpoint => (false, None),
                Saving::Done(period) => (true, period),
            };
            if let Some(streaming) = &mut streaming {
                streaming.checkpoint(values, max as u64, complete, period)?;
            }
            if let Some(path) = &checkpoint_path {
                table::write(
                    path,
                    &table::TableFile {
                        game: game.clone(),
                        target: max as u64,
                        complete,
                        period,
                        values,
                    },
                )?;
            }
            Ok(())
        };
        // The proof, when --stop-when-proven ends the run: the table is cut where it completed.
        let mut proof_len = None;
        if self.stop_when_proven {
            // Resumed values go through the watch as a straight run's would, so that a proof they
            // already hold stops the run at the same n (a resumed finished table included).
            let values = engine.values();
            for len in 1..=values.len() {
                if watch
                    .observe(&values[..len])
                    .is_some_and(|found| found.proven)
                {
                    proof_len = Some(len);
                    break;
                }
            }
        }
        while engine.values().len() <= max && proof_len.is_none() {
            let before = engine.values().len();
            let chunk = if use_sparse { 1 << 14 } else { 64 };
            engine.advance((before + chunk - 1).min(max))?;
            let values = engine.values();
            for len in before + 1..=values.len() {
                if let Some(found) = watch.observe(&values[..len]) {
                    if self.stop_when_proven && found.proven {
                        proof_len = Some(len);
                        break;
                    }
                }
            }
            if last_report.elapsed() >= Duration::from_millis(200) {
                last_report = Instant::now();
                progress(values.len(), &engine.status());
            }
            if stop.load(Ordering::SeqCst) {
                save(values, Saving::Checkpoint)?;
                return Ok(Outcome::Stopped {
                    at: values.len() - 1,
                    checkpoint: self.stream.clone().or(checkpoint_path),
                });
            }
            if last_checkpoint.elapsed() >= checkpoint_every {
                save(values, Saving::Checkpoint)?;
                last_checkpoint = Instant::now();
            } else {
                save(values, Saving::FullPieces)?;
            }
        }
        if proof_len.is_none() {
            progress(engine.values().len(), &engine.status());
        }
        let engine_name = engine.name();
        let seconds = started.elapsed().as_secs_f64();
        let mut values = engine.into_values();
        let stopped_on_proof = proof_len.is_some();
        if let Some(len) = proof_len {
            values.truncate(len);
        }
        let found = period::find(&values, rule);
        if let Some(p) = found.filter(|p| p.proven) {
            // A proof is kept only once the check written apart from the period search agrees.
            if !zermelo_grundy::census::check_proof(game, &values, p.preperiod, p.period) {
                bail!(
                    Unverified,
                    "internal error: period {} from {} of {game} failed the independent \
                     Guy–Smith check; the table is not written as finished",
                    p.period,
                    p.preperiod
                );
            }
        }
        save(&values, Saving::Done(found))?;
        Ok(Outcome::Finished(OctalTable {
            values,
            period: found,
            stopped_on_proof,
            engine: engine_name,
            seconds,
            resumed_from,
            checkpoint: self.stream.clone().or(checkpoint_path),
        }))
    }
}

/// What an octal run writes to its table file or stream.
enum Saving {
    /// The pieces of a stream that the values fill (nothing for a table file).
    FullPieces,
    /// Everything so far, as an unfinished run.
    Checkpoint,
    /// The finished table, with its period.
    Done(Option<Periodicity>),
}

/// An octal table being computed by one of the engines.
enum Engine {
    Sparse(Box<SparseEngine>),
    Naive { game: OctalGame, values: Vec<u16> },
}

impl Engine {
    fn values(&self) -> &[u16] {
        match self {
            Engine::Sparse(e) => e.values(),
            Engine::Naive { values, .. } => values,
        }
    }

    /// Computes up to G(target), using both threads where it pays.
    fn advance(&mut self, target: usize) -> Result<(), GrundyError> {
        match self {
            Engine::Sparse(e) => e.extend_to_parallel(target),
            Engine::Naive { game, values } => {
                *values = naive::extend(game, std::mem::take(values), target, true)?;
                Ok(())
            }
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Engine::Sparse(_) => "sparse",
            Engine::Naive { .. } => "naive",
        }
    }

    /// The engine's state for progress lines: the last heap computed (n=1000 once G(0..=1000)
    /// is known) and, for the sparse engine, its rare values.
    fn status(&self) -> String {
        let last = |len: usize| {
            len.checked_sub(1)
                .map_or("-".to_string(), |n| n.to_string())
        };
        match self {
            Engine::Sparse(e) => format!(
                "n={} mask={:#x}{} rare={} last rare={}",
                last(e.values().len()),
                e.mask(),
                if e.twist() { "+twist" } else { "" },
                e.rare_count(),
                e.last_rare().map_or("-".to_string(), |r| r.to_string())
            ),
            Engine::Naive { values, .. } => format!("n={}", last(values.len())),
        }
    }

    fn into_values(self) -> Vec<u16> {
        match self {
            Engine::Sparse(e) => e.into_values(),
            Engine::Naive { values, .. } => values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A quiet octal run for the tests: no early stop, checkpoints only at the end.
    fn octal_run(
        code: &str,
        max: usize,
        out: Option<PathBuf>,
        resume: Option<PathBuf>,
    ) -> OctalRun {
        let game: OctalGame = code.parse().unwrap();
        OctalRun {
            sparse: !game.has_three_heap_moves(),
            game,
            max,
            stop_when_proven: false,
            out,
            resume,
            stream: None,
            piece: None,
            checkpoint_every: Duration::from_secs(300),
            replace: false,
        }
    }

    fn finish(run: &OctalRun) -> Result<OctalTable> {
        match run.run(&AtomicBool::new(false), |_, _| {})? {
            Outcome::Finished(table) => Ok(table),
            Outcome::Stopped { .. } => panic!("nothing stops it"),
        }
    }

    fn stored_values(path: &Path) -> Vec<u16> {
        table::read(path).unwrap().values
    }

    #[test]
    fn checkpoint_then_resume_gives_the_straight_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.zgt");
        finish(&octal_run("0.6", 700, Some(path.clone()), None)).unwrap();
        let resumed = finish(&octal_run("0.6", 3000, None, Some(path.clone()))).unwrap();
        assert_eq!(resumed.resumed_from, Some(701));
        let straight = naive::values(&"0.6".parse().unwrap(), 3000).unwrap();
        assert_eq!(stored_values(&path), straight);
    }

    #[test]
    fn a_stop_writes_a_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.zgt");
        let run = octal_run("0.6", 3000, Some(path.clone()), None);
        let Outcome::Stopped { at, checkpoint } =
            run.run(&AtomicBool::new(true), |_, _| {}).unwrap()
        else {
            panic!("the run was stopped")
        };
        assert_eq!(checkpoint, Some(path.clone()));
        let stored = table::read(&path).unwrap();
        assert!(!stored.complete);
        assert_eq!(stored.values.len(), at + 1);
    }

    #[test]
    fn a_stream_stopped_then_resumed_gives_the_straight_table() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("officers");
        let streamed = |max: usize| OctalRun {
            stream: Some(folder.clone()),
            piece: Some(512),
            ..octal_run("0.6", max, None, None)
        };
        let Outcome::Stopped { checkpoint, .. } = streamed(3000)
            .run(&AtomicBool::new(true), |_, _| {})
            .unwrap()
        else {
            panic!("the run was stopped")
        };
        assert_eq!(checkpoint, Some(folder.clone()));
        assert!(!stream::read(&folder).unwrap().complete);
        let resumed = finish(&streamed(6000)).unwrap();
        assert_eq!(resumed.resumed_from, Some(3001));
        let straight = naive::values(&"0.6".parse().unwrap(), 6000).unwrap();
        assert_eq!(resumed.values, straight);
        let back = table::read_any(&folder).unwrap();
        assert!(back.complete);
        assert_eq!(back.values, straight);
        // A stream is kept in its folder only.
        let both = OctalRun {
            out: Some(dir.path().join("t.zgt")),
            ..streamed(6000)
        };
        assert!(finish(&both).is_err());
    }

    #[test]
    fn an_existing_table_is_replaced_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.zgt");
        let grundy_game = OctalRun {
            sparse: false,
            ..octal_run("4!.0", 500, Some(path.clone()), None)
        };
        finish(&grundy_game).unwrap();
        let before = std::fs::read(&path).unwrap();
        // Another game, fewer values, or the same run again: refused, the table untouched.
        for (code, max) in [("0.77", 100), ("4!.0", 100), ("4!.0", 500)] {
            let run = OctalRun {
                sparse: false,
                ..octal_run(code, max, Some(path.clone()), None)
            };
            let err = finish(&run).unwrap_err().to_string();
            assert!(err.contains("holds a table of 4!.0 to G(500)"), "{err}");
            assert!(err.contains("--resume") && err.contains("--force"), "{err}");
            assert_eq!(std::fs::read(&path).unwrap(), before);
        }
        // A file that is no table is not replaced either.
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "mine").unwrap();
        let err = finish(&octal_run("0.77", 100, Some(other.clone()), None))
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not a table"), "{err}");
        assert_eq!(std::fs::read(&other).unwrap(), b"mine");
        // Resumed into itself it goes on; with `replace` it starts over.
        finish(&octal_run(
            "4!.0",
            600,
            Some(path.clone()),
            Some(path.clone()),
        ))
        .unwrap();
        let replaced = OctalRun {
            replace: true,
            ..octal_run("0.77", 100, Some(path.clone()), None)
        };
        finish(&replaced).unwrap();
        assert_eq!(
            stored_values(&path),
            naive::values(&"0.77".parse().unwrap(), 100).unwrap()
        );
    }

    #[test]
    fn resuming_with_a_smaller_max_keeps_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.zgt");
        let copy = dir.path().join("t2.zgt");
        let run = |max: usize, out: Option<PathBuf>, resume: Option<PathBuf>| {
            finish(&octal_run("0.6", max, out, resume))
        };
        run(2000, Some(path.clone()), None).unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = run(100, None, Some(path.clone())).unwrap_err().to_string();
        assert!(err.contains("G(0..=2000)"), "{err}");
        let err = run(100, Some(path.clone()), Some(path.clone()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("--max 2000"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // Written elsewhere, the shorter table is what was asked for.
        run(100, Some(copy.clone()), Some(path.clone())).unwrap();
        assert_eq!(stored_values(&copy), stored_values(&path)[..101]);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn resuming_a_proven_table_stops_where_the_straight_run_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.zgt");
        let run = |max: usize, stop: bool, out: Option<PathBuf>, resume: Option<PathBuf>| {
            finish(&OctalRun {
                stop_when_proven: stop,
                ..octal_run("0.77", max, out, resume)
            })
            .unwrap();
        };
        run(3000, true, Some(path.clone()), None);
        let straight = stored_values(&path);
        // Kayles' period is proven at G(167).
        assert_eq!(straight.len(), 168);
        run(3000, true, None, Some(path.clone()));
        assert_eq!(stored_values(&path), straight);
        // A table computed past the proof without stopping is cut back to it.
        let past = dir.path().join("past.zgt");
        run(400, false, Some(past.clone()), None);
        run(3000, true, None, Some(past.clone()));
        assert_eq!(stored_values(&past), straight);
    }
}
