//! Job files: a TOML list of named solves, parsed and checked before anything runs.
//!
//! ```toml
//! [defaults]            # optional: threads, tt_mb, time_limit (s), checkpoint_secs
//! threads = 2
//!
//! [[job]]
//! name = "hex-4x4"
//! kind = "hex-openings" # hex-openings, hex-solve, hex-parity, grundy-octal, grundy-census
//! size = 4
//! ```
//!
//! The structure (known kinds, the fields each kind takes, unique names usable as file names) and
//! the values (board sizes, moves, octal codes, heap bounds, census digits) are checked here, so
//! a typing error stops the batch before its first job rather than hours in. What depends on the
//! machine at the job's turn (the memory a table needs) is checked by the command that runs it.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};

use crate::{Error, Result};

/// The most threads a job may ask for, as the commands take (0, or none: one per core).
const MAX_THREADS: usize = 1024;
/// Seconds between Grundy checkpoints (and saves of a Hex job's proofs) when the job file does
/// not say.
const DEFAULT_CHECKPOINT_SECS: u64 = 60;
/// Transposition table of a Hex job when the job file does not say (MiB).

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    #[serde(default)]
    defaults: Defaults,
    #[serde(default)]
    job: Vec<RawJob>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Defaults {
    threads: Option<usize>,
    tt_mb: Option<usize>,
    time_limit: Option<u64>,
    checkpoint_secs: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawJob {
    name: String,
    kind: String,
    size: Option<usize>,
    moves: Option<String>,
    misere: Option<bool>,
    all: Option<bool>,
    max_size: Option<usize>,
    game: Option<String>,
    max: Option<toml::Value>,
    stop_when_proven: Option<bool>,
    stream: Option<bool>,
    digits: Option<usize>,
    threads: Option<usize>,
    tt_mb: Option<usize>,
    time_limit: Option<u64>,
    checkpoint_secs: Option<u64>,
}

/// What a job computes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `zermelo hex openings`: every first move of an empty board.
    HexOpenings {
        /// Board size.
        size: usize,
        /// Misère play.
        misere: bool,
    },
    /// `zermelo hex solve`: one position, its winner and a winning move, or every winning move.
    HexSolve {
        /// Board size.
        size: usize,
        /// Moves from the empty board.
        moves: String,
        /// Misère play.
        misere: bool,
        /// Every winning move (`--all`), not only one: far more work when the side to move
        /// wins, since every move is then proven.
        all: bool,
    },
    /// `zermelo hex parity`: misère Hex up to a size against the parity theorem.
    HexParity {
        /// The largest board.
        max_size: usize,
    },
    /// `zermelo grundy octal`: the values of an octal game, checkpointed and resumable.
    GrundyOctal {
        /// The game code.
        game: String,
        /// G(0..=max), as a number or a power such as 2^20.
        max: String,
        /// Stop once the period is proven.
        stop_when_proven: bool,
        /// Keep the table as the folder `NAME.stream` of pieces (`grundy octal --stream`)
        /// rather than the file `NAME.zgt`.
        stream: bool,
    },
    /// `zermelo grundy census`: every octal code of `digits` digits, resumed game by game from
    /// its folder `NAME.census`.
    GrundyCensus {
        /// Digits after the point.
        digits: usize,
        /// The heap bound, as a number or a power such as 2^20.
        max: String,
    },
}

/// One job of a job file, with its defaults applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Unique name; also the stem of its result files.
    pub name: String,
    /// What it computes.
    pub kind: Kind,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Hex transposition table, MiB; `None` lets the command choose by board size.
    pub tt_mb: Option<usize>,
    /// Wall-clock limit in seconds.
    pub time_limit: Option<u64>,
    /// Seconds between Grundy checkpoints.
    pub checkpoint_secs: u64,
}

/// Reads and checks a job file.
pub fn load(path: &Path) -> Result<Vec<Job>> {
    let text = std::fs::read_to_string(path).map_err(Error::io(format!(
        "cannot read the job file {}",
        path.display()
    )))?;
    parse(&text).map_err(|e| e.context(path.display()))
}

/// Parses and checks the text of a job file.
pub fn parse(text: &str) -> Result<Vec<Job>> {
    let spec: FileSpec = toml::from_str(text).map_err(|e| {
        // toml's messages span several lines (a snippet of the file); keep the gist on one.
        let msg = e.message().lines().collect::<Vec<_>>().join("; ");
        let at = e.span().map(|span| span.start.min(text.len()));
        // Some errors come without a message (a value cut off by the end of the file).
        let msg = match at {
            _ if !msg.trim().is_empty() => msg,
            Some(at) if text[at..].trim().is_empty() => {
                "the file ends where a value or a closing bracket is expected".to_string()
            }
            _ => "malformed TOML".to_string(),
        };
        match at {
            Some(at) => {
                let line = text[..at].split('\n').count();
                let content = text.split('\n').nth(line - 1).unwrap_or_default().trim();
                Error::Invalid(format!("line {line} ({content:?}): {msg}"))
            }
            None => Error::Invalid(msg),
        }
    })?;
    if spec.job.is_empty() {
        bail!(Invalid, "no jobs: add [[job]] tables");
    }
    let mut seen = HashSet::new();
    let mut jobs = Vec::new();
    for raw in spec.job {
        let job = check(raw, &spec.defaults)?;
        if !seen.insert(job.name.clone()) {
            bail!(
                Invalid,
                "two jobs are named {:?}; names must be unique",
                job.name
            );
        }
        jobs.push(job);
    }
    Ok(jobs)
}

fn check(raw: RawJob, defaults: &Defaults) -> Result<Job> {
    let name = raw.name.clone();
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !valid {
        bail!(
            Invalid,
            "job name {name:?}: use letters, digits, '-', '_' and '.' (not first), as it names files"
        );
    }
    if name == "batch" {
        bail!(
            Invalid,
            "job name \"batch\" is reserved (batch.json holds the merged results)"
        );
    }
    let who = format!("job {name:?}");
    // Every field a kind does not use is refused, so that a misplaced one is not silently ignored.
    let given: Vec<(&str, bool)> = vec![
        ("size", raw.size.is_some()),
        ("moves", raw.moves.is_some()),
        ("misere", raw.misere.is_some()),
        ("all", raw.all.is_some()),
        ("max_size", raw.max_size.is_some()),
        ("game", raw.game.is_some()),
        ("max", raw.max.is_some()),
        ("stop_when_proven", raw.stop_when_proven.is_some()),
        ("stream", raw.stream.is_some()),
        ("digits", raw.digits.is_some()),
        ("tt_mb", raw.tt_mb.is_some()),
        ("checkpoint_secs", raw.checkpoint_secs.is_some()),
    ];
    let allowed: &[&str] = match raw.kind.as_str() {
        "hex-openings" => &["size", "misere", "tt_mb", "checkpoint_secs"],
        "hex-solve" => &["size", "moves", "misere", "all", "tt_mb", "checkpoint_secs"],
        "hex-parity" => &["max_size", "tt_mb", "checkpoint_secs"],
        "grundy-octal" => &[
            "game",
            "max",
            "stop_when_proven",
            "stream",
            "checkpoint_secs",
        ],
        "grundy-census" => &["digits", "max"],
        other => bail!(
            Invalid,
            "{who}: unknown kind {other:?} (known: hex-openings, hex-solve, hex-parity, \
             grundy-octal, grundy-census)"
        ),
    };
    if let Some((field, _)) = given.iter().find(|(f, g)| *g && !allowed.contains(f)) {
        bail!(
            Invalid,
            "{who}: field {field:?} does not apply to kind {:?}",
            raw.kind
        );
    }
    let need = |field: &str| Error::Invalid(format!("{who}: kind {:?} needs {field:?}", raw.kind));
    let max = || -> Result<String> {
        Ok(match raw.max.clone().ok_or_else(|| need("max"))? {
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::String(s) => s,
            _ => bail!(
                Invalid,
                "{who}: max must be a number or a string such as \"2^20\""
            ),
        })
    };
    let kind = match raw.kind.as_str() {
        "hex-openings" => Kind::HexOpenings {
            size: raw.size.ok_or_else(|| need("size"))?,
            misere: raw.misere.unwrap_or(false),
        },
        "hex-solve" => Kind::HexSolve {
            size: raw.size.ok_or_else(|| need("size"))?,
            moves: raw.moves.unwrap_or_default(),
            misere: raw.misere.unwrap_or(false),
            all: raw.all.unwrap_or(true),
        },
        "hex-parity" => Kind::HexParity {
            max_size: raw.max_size.ok_or_else(|| need("max_size"))?,
        },
        "grundy-census" => Kind::GrundyCensus {
            digits: raw.digits.ok_or_else(|| need("digits"))?,
            max: max()?,
        },
        _ => Kind::GrundyOctal {
            game: raw.game.clone().ok_or_else(|| need("game"))?,
            max: max()?,
            stop_when_proven: raw.stop_when_proven.unwrap_or(false),
            stream: raw.stream.unwrap_or(false),
        },
    };
    check_values(&who, &kind)?;
    let time_limit = raw.time_limit.or(defaults.time_limit);
    if time_limit == Some(0) {
        bail!(Invalid, "{who}: time_limit must be at least 1 second");
    }
    if let Some(t) = raw
        .threads
        .or(defaults.threads)
        .filter(|&t| t > MAX_THREADS)
    {
        bail!(
            Invalid,
            "{who}: threads = {t}: at most {MAX_THREADS} (0 or none: one per core)"
        );
    }
    if raw.checkpoint_secs.or(defaults.checkpoint_secs) == Some(0) {
        bail!(Invalid, "{who}: checkpoint_secs must be at least 1 second");
    }
    Ok(Job {
        name,
        kind,
        threads: raw.threads.or(defaults.threads).unwrap_or(0),
        tt_mb: raw.tt_mb.or(defaults.tt_mb),
        time_limit,
        checkpoint_secs: raw
            .checkpoint_secs
            .or(defaults.checkpoint_secs)
            .unwrap_or(DEFAULT_CHECKPOINT_SECS),
    })
}

/// Checks a job's values as its command will (board sizes, the moves on that board, octal
/// codes, heap bounds, census digits), so that a bad one stops the batch before its first job
/// rather than failing hours in.
fn check_values(who: &str, kind: &Kind) -> Result<()> {
    let board = |size: usize, field: &str| -> Result<()> {
        if !(1..=zermelo_hex::MAX_SIZE).contains(&size) {
            bail!(
                Invalid,
                "{who}: {field} = {size}: Hex boards go from 1 to {}",
                zermelo_hex::MAX_SIZE
            );
        }
        Ok(())
    };
    let heap_bound = |max: &str| -> Result<()> {
        let n = zermelo_grundy::parse_count(max, "max")
            .map_err(|e| Error::Invalid(format!("{who}: {e}")))?;
        let largest = zermelo_grundy::MAX_HEAP as u64 - 1;
        if n > largest {
            bail!(
                Invalid,
                "{who}: max = {max} is beyond the largest table zermelo computes ({largest})"
            );
        }
        Ok(())
    };
    match kind {
        Kind::HexOpenings { size, .. } => board(*size, "size"),
        Kind::HexSolve { size, moves, .. } => {
            board(*size, "size")?;
            zermelo_hex::Position::from_moves(*size, moves)
                .map(drop)
                .map_err(|e| Error::Invalid(format!("{who}: moves {moves:?}: {e}")))
        }
        Kind::HexParity { max_size } => board(*max_size, "max_size"),
        Kind::GrundyOctal { game, max, .. } => {
            game.parse::<zermelo_grundy::OctalGame>()
                .map_err(|e| Error::Invalid(format!("{who}: {e}")))?;
            heap_bound(max)
        }
        Kind::GrundyCensus { digits, max } => {
            zermelo_grundy::census::games(*digits)
                .map_err(|e| Error::Invalid(format!("{who}: {e}")))?;
            heap_bound(max)
        }
    }
}

impl Job {
    /// The kind's name as written in job files.
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::HexOpenings { .. } => "hex-openings",
            Kind::HexSolve { .. } => "hex-solve",
            Kind::HexParity { .. } => "hex-parity",
            Kind::GrundyOctal { .. } => "grundy-octal",
            Kind::GrundyCensus { .. } => "grundy-census",
        }
    }

    /// What the job computes, as stored with its result: two jobs with equal identities produce
    /// equal results. Threads, table size and limits change how fast, not what, so they are
    /// provenance rather than identity.
    #[must_use]
    pub fn identity(&self) -> Value {
        let mut v = match &self.kind {
            Kind::HexOpenings { size, misere } => json!({"size": size, "misere": misere}),
            Kind::HexSolve {
                size,
                moves,
                misere,
                all,
            } => {
                let mut v = json!({"size": size, "moves": moves, "misere": misere});
                // Only when off, so that the records of earlier jobs keep their identity.
                if !*all {
                    v["all"] = json!(false);
                }
                v
            }
            Kind::HexParity { max_size } => json!({ "max_size": max_size }),
            Kind::GrundyOctal {
                game,
                max,
                stop_when_proven,
                stream,
            } => {
                let mut v = json!({"game": game, "max": max, "stop_when_proven": stop_when_proven});
                // Only when set, so that the records of earlier jobs keep their identity.
                if *stream {
                    v["stream"] = json!(true);
                }
                v
            }
            Kind::GrundyCensus { digits, max } => json!({"digits": digits, "max": max}),
        };
        v["name"] = json!(self.name);
        v["kind"] = json!(self.kind_name());
        v
    }

    /// The Grundy table of the job, if it writes one: a file, or the folder of a stream.
    #[must_use]
    pub fn table_file(&self) -> Option<String> {
        match self.kind {
            Kind::GrundyOctal { stream: true, .. } => Some(format!("{}.stream", self.name)),
            Kind::GrundyOctal { .. } => Some(format!("{}.zgt", self.name)),
            _ => None,
        }
    }

    /// Whether the job's table is a stream folder.
    #[must_use]
    pub fn streams(&self) -> bool {
        matches!(self.kind, Kind::GrundyOctal { stream: true, .. })
    }

    /// The proofs file of a Hex job that keeps its proven positions (`--proofs`), so that a
    /// rerun after a kill starts from them.
    #[must_use]
    pub fn proofs_file(&self) -> Option<String> {
        matches!(
            self.kind,
            Kind::HexOpenings { .. } | Kind::HexSolve { .. } | Kind::HexParity { .. }
        )
        .then(|| format!("{}.proofs", self.name))
    }

    /// The file a rerun of the unfinished job goes on from: a Grundy table or Hex proofs.
    #[must_use]
    pub fn checkpoint_file(&self) -> Option<String> {
        self.table_file().or_else(|| self.proofs_file())
    }

    /// The arguments of the zermelo command that computes the job. `resume` says a checkpoint
    /// of the Grundy table exists in `dir` and is to be continued. Operating-system strings:
    /// a folder whose name is not UTF-8 reaches the job as it is.
    #[must_use]
    pub fn command(&self, dir: &Path, resume: bool) -> Vec<OsString> {
        self.command_text(dir, resume)
            .into_iter()
            .map(|arg| match arg {
                Arg::Text(t) => OsString::from(t),
                Arg::Path(p) => p.into_os_string(),
            })
            .collect()
    }

    /// The command as text for the record's provenance (a path that is not UTF-8 is shown
    /// with replacement characters there, and only there).
    #[must_use]
    pub fn command_line(&self, dir: &Path, resume: bool) -> Vec<String> {
        self.command_text(dir, resume)
            .into_iter()
            .map(|arg| match arg {
                Arg::Text(t) => t,
                Arg::Path(p) => p.to_string_lossy().into_owned(),
            })
            .collect()
    }

    /// The command's arguments, the Grundy table's path kept as a path.
    fn command_text(&self, dir: &Path, resume: bool) -> Vec<Arg> {
        let hex = |mut args: Vec<String>| {
            args.push("--json".into());
            // Without a count, one thread per core (0 in a job file).
            if self.threads > 0 {
                args.extend(["--threads".into(), self.threads.to_string()]);
            }
            // Without a size, the command picks one for the board.
            if let Some(mb) = self.tt_mb {
                args.extend(["--tt-mb".into(), mb.to_string()]);
            }
            args
        };
        // Hex jobs keep their proofs in the results folder, saved every checkpoint interval.
        let proofs = |args: Vec<String>| -> Vec<Arg> {
            let mut args: Vec<Arg> = hex(args).into_iter().map(Arg::Text).collect();
            args.push(Arg::Text("--save-every".into()));
            args.push(Arg::Text(self.checkpoint_secs.to_string()));
            args.push(Arg::Text("--proofs".into()));
            args.push(Arg::Path(dir.join(self.proofs_file().unwrap_or_default())));
            args
        };
        match &self.kind {
            Kind::HexOpenings { size, misere } => {
                let mut a = vec!["hex".into(), "openings".into(), "--size".into()];
                a.push(size.to_string());
                if *misere {
                    a.push("--misere".into());
                }
                proofs(a)
            }
            Kind::HexSolve {
                size,
                moves,
                misere,
                all,
            } => {
                let mut a = vec!["hex".into(), "solve".into()];
                if *all {
                    a.push("--all".into());
                }
                a.extend(["--size".into(), size.to_string()]);
                a.extend(["--moves".into(), moves.clone()]);
                if *misere {
                    a.push("--misere".into());
                }
                proofs(a)
            }
            // The proofs are those of the largest board, the one that takes the time.
            Kind::HexParity { max_size } => proofs(vec![
                "hex".into(),
                "parity".into(),
                "--max-size".into(),
                max_size.to_string(),
            ]),
            Kind::GrundyOctal {
                game,
                max,
                stop_when_proven,
                stream,
            } => {
                let mut a: Vec<String> = vec!["grundy".into(), "octal".into(), game.clone()];
                a.extend(["--max".into(), max.clone(), "--json".into()]);
                a.extend(["--checkpoint-secs".into(), self.checkpoint_secs.to_string()]);
                if *stop_when_proven {
                    a.push("--stop-when-proven".into());
                }
                // A stream folder is created or resumed by the same command.
                a.push(
                    match (stream, resume) {
                        (true, _) => "--stream",
                        (false, true) => "--resume",
                        (false, false) => "--out",
                    }
                    .into(),
                );
                let mut args: Vec<Arg> = a.into_iter().map(Arg::Text).collect();
                args.push(Arg::Path(dir.join(self.table_file().unwrap_or_default())));
                args
            }
            // The census resumes from the games its folder holds.
            Kind::GrundyCensus { digits, max } => {
                let mut a = vec!["grundy".into(), "census".into(), "--json".into()];
                a.extend([
                    "--digits".into(),
                    digits.to_string(),
                    "--max".into(),
                    max.clone(),
                ]);
                if self.threads > 0 {
                    a.extend(["--threads".into(), self.threads.to_string()]);
                }
                a.push("--out".into());
                let mut args: Vec<Arg> = a.into_iter().map(Arg::Text).collect();
                args.push(Arg::Path(dir.join(format!("{}.census", self.name))));
                args
            }
        }
    }

    /// A rough cost in seconds on one core, machine-independent by construction: it only
    /// orders and balances jobs (shards, ETA), it predicts nothing.
    #[must_use]
    pub fn cost(&self) -> f64 {
        // Hex openings by size, from the committed runs: each size is one to three orders of
        // magnitude above the previous one.
        fn openings(n: usize) -> f64 {
            const BY_SIZE: [f64; 7] = [0.0, 0.001, 0.001, 0.01, 0.1, 5.0, 2000.0];
            BY_SIZE
                .get(n)
                .copied()
                .unwrap_or(2000.0 * 1000f64.powi(n.saturating_sub(6) as i32))
        }
        match &self.kind {
            Kind::HexOpenings { size, .. } => openings(*size),
            Kind::HexSolve { size, moves, .. } => {
                openings(*size) / (1 + moves.split_whitespace().count()) as f64
            }
            Kind::HexParity { max_size } => (1..=*max_size).map(openings).sum(),
            Kind::GrundyOctal { max, .. } => parse_max(max).unwrap_or(1) as f64 * 1e-6 + 0.001,
            // Two octal codes per number of D digits, most of them short runs.
            Kind::GrundyCensus { digits, max } => {
                (2u64 << (3 * (*digits).min(8))) as f64
                    * (parse_max(max).unwrap_or(1) as f64 * 1e-8)
            }
        }
    }
}

/// Job tables that [`parse`] reads back as `jobs`, each field written out (defaults applied), so
/// that they mean the same after any `[defaults]`.
#[must_use]
pub fn to_toml(jobs: &[Job]) -> String {
    let tables: Vec<toml::Table> = jobs
        .iter()
        .map(|job| {
            let mut t = toml::Table::new();
            let mut put = |key: &str, value: toml::Value| {
                t.insert(key.to_string(), value);
            };
            put("name", job.name.clone().into());
            put("kind", job.kind_name().into());
            match &job.kind {
                Kind::HexOpenings { size, misere } => {
                    put("size", (*size as i64).into());
                    put("misere", (*misere).into());
                    put("checkpoint_secs", (job.checkpoint_secs as i64).into());
                }
                Kind::HexSolve {
                    size,
                    moves,
                    misere,
                    all,
                } => {
                    put("size", (*size as i64).into());
                    put("moves", moves.clone().into());
                    put("misere", (*misere).into());
                    put("all", (*all).into());
                    put("checkpoint_secs", (job.checkpoint_secs as i64).into());
                }
                Kind::HexParity { max_size } => {
                    put("max_size", (*max_size as i64).into());
                    put("checkpoint_secs", (job.checkpoint_secs as i64).into());
                }
                Kind::GrundyOctal {
                    game,
                    max,
                    stop_when_proven,
                    stream,
                } => {
                    put("game", game.clone().into());
                    put("max", max.clone().into());
                    put("stop_when_proven", (*stop_when_proven).into());
                    if *stream {
                        put("stream", true.into());
                    }
                    put("checkpoint_secs", (job.checkpoint_secs as i64).into());
                }
                Kind::GrundyCensus { digits, max } => {
                    put("digits", (*digits as i64).into());
                    put("max", max.clone().into());
                }
            }
            put("threads", (job.threads as i64).into());
            if let Some(mb) = job.tt_mb.filter(|_| job.table_file().is_none()) {
                put("tt_mb", (mb as i64).into());
            }
            if let Some(limit) = job.time_limit {
                put("time_limit", (limit as i64).into());
            }
            t
        })
        .collect();
    let mut doc = toml::Table::new();
    doc.insert(
        "job".into(),
        toml::Value::Array(tables.into_iter().map(toml::Value::Table).collect()),
    );
    toml::to_string(&doc).expect("a table of strings, numbers and booleans serialises")
}

/// One argument of a job's command.
enum Arg {
    Text(String),
    Path(PathBuf),
}

/// `max` as a number: digits or a power `B^K`.
fn parse_max(text: &str) -> Option<u64> {
    match text.trim().split_once('^') {
        Some((b, k)) => b
            .trim()
            .parse::<u64>()
            .ok()?
            .checked_pow(k.trim().parse().ok()?),
        None => text.trim().parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_batch_parses() {
        let jobs = parse(include_str!("../../../jobs/overnight.toml")).unwrap();
        assert!(jobs
            .iter()
            .any(|j| j.kind == Kind::HexParity { max_size: 5 }));
        assert_eq!(jobs.iter().filter(|j| j.table_file().is_some()).count(), 12);
    }

    /// The misère 6x6 job solves the openings and keeps its proofs, so that a rerun goes on.
    #[test]
    fn the_misere_6x6_job_parses() {
        let jobs = parse(include_str!("../../../jobs/misere-6x6.toml")).unwrap();
        assert_eq!(jobs.len(), 1);
        let job = &jobs[0];
        assert_eq!(
            job.kind,
            Kind::HexOpenings {
                size: 6,
                misere: true
            }
        );
        assert_eq!(job.proofs_file().as_deref(), Some("misere-6x6.proofs"));
    }

    /// The 8x8 openings: one solve job for each opening up to the 180° rotation (a1 to h4),
    /// each keeping its proofs, none listing every winning move.
    #[test]
    fn the_8x8_openings_job_file_parses() {
        let jobs = parse(include_str!("../../../jobs/hex-8x8.toml")).unwrap();
        let mut cells = Vec::new();
        for job in &jobs {
            let Kind::HexSolve {
                size: 8,
                moves,
                misere: false,
                all: false,
            } = &job.kind
            else {
                panic!("{:?}", job.kind);
            };
            let cell = zermelo_hex::Cell::parse(moves, 8).unwrap();
            cells.push(cell.index(8));
            assert_eq!(job.proofs_file(), Some(format!("{}.proofs", job.name)));
        }
        cells.sort_unstable();
        assert_eq!(cells, (0..32).collect::<Vec<_>>());
        let args = jobs[0].command_line(Path::new("out"), false);
        assert!(!args.contains(&"--all".into()), "{args:?}");
    }

    /// A parity job keeps the proofs of its largest board, so that a rerun after a kill goes
    /// on from them.
    #[test]
    fn a_parity_job_keeps_its_proofs() {
        let jobs = parse("[[job]]\nname = \"p\"\nkind = \"hex-parity\"\nmax_size = 6\n").unwrap();
        assert_eq!(jobs[0].proofs_file().as_deref(), Some("p.proofs"));
        let args = jobs[0].command_line(Path::new("out"), false);
        assert_eq!(args[..4], ["hex", "parity", "--max-size", "6"]);
        assert!(
            args.ends_with(&["--proofs".into(), "out/p.proofs".into()]),
            "{args:?}"
        );
    }

    #[test]
    fn jobs_written_out_read_back_the_same() {
        let jobs = parse(include_str!("../../../jobs/overnight.toml")).unwrap();
        let more = parse(
            "[[job]]\nname = \"s\"\nkind = \"hex-solve\"\nsize = 4\nmoves = \"a1 b2\"\n\
             misere = true\ntt_mb = 32\ntime_limit = 60\nthreads = 3\n\n\
             [[job]]\nname = \"one\"\nkind = \"hex-solve\"\nsize = 4\nmoves = \"a1\"\nall = false\n",
        )
        .unwrap();
        // Everything a job means; checkpoints apply to Grundy tables and Hex proofs only.
        let meaning = |list: &[Job]| -> Vec<_> {
            list.iter()
                .map(|j| {
                    let checkpoints = j.checkpoint_file().map(|_| j.checkpoint_secs);
                    (j.identity(), j.threads, j.tt_mb, j.time_limit, checkpoints)
                })
                .collect()
        };
        for list in [jobs, more] {
            assert_eq!(meaning(&parse(&to_toml(&list)).unwrap()), meaning(&list));
        }
    }

    #[test]
    fn the_census_and_record_jobs_parse() {
        let jobs = parse(include_str!("../../../jobs/octal-census.toml")).unwrap();
        assert_eq!(
            jobs[0].kind,
            Kind::GrundyCensus {
                digits: 3,
                max: "2^20".into()
            }
        );
        let args = jobs[0].command_line(Path::new("out"), false);
        assert_eq!(args[..3], ["grundy", "census", "--json"]);
        assert!(args.ends_with(&["--out".into(), "out/census-3.census".into()]));
        let record = parse(include_str!("../../../jobs/octal-record.toml")).unwrap();
        assert_eq!(record[0].identity()["game"], "0.1777");
        assert_eq!(record[0].identity().get("stream"), None);
    }

    #[test]
    fn streamed_jobs_keep_their_table_as_a_folder() {
        let jobs = parse(include_str!("../../../jobs/grundy-2-32.toml")).unwrap();
        assert!(jobs.iter().all(Job::streams));
        assert_eq!(jobs[0].table_file().as_deref(), Some("grundy-2-32.stream"));
        assert_eq!(jobs[0].identity()["stream"], true);
        // The same command starts and resumes a stream.
        for resume in [false, true] {
            let args = jobs[0].command_line(Path::new("out"), resume);
            assert!(
                args.ends_with(&["--stream".into(), "out/grundy-2-32.stream".into()]),
                "{args:?}"
            );
        }
        assert_eq!(
            parse(&to_toml(&jobs)).unwrap(),
            jobs,
            "the stream field is written out"
        );
        let err =
            parse("[[job]]\nname = \"h\"\nkind = \"hex-openings\"\nsize = 4\nstream = true\n")
                .unwrap_err();
        assert!(format!("{err:#}").contains("\"stream\""), "{err:#}");
    }

    #[test]
    fn values_are_checked_before_any_job_runs() {
        let job = |fields: &str, kind: &str| {
            format!("[[job]]\nname = \"j\"\nkind = \"{kind}\"\n{fields}\n")
        };
        let bad = |fields: &str, kind: &str| parse(&job(fields, kind)).unwrap_err().to_string();
        for (fields, kind, says) in [
            ("size = 13", "hex-openings", "size = 13"),
            ("size = 0", "hex-solve", "size = 0"),
            (
                "size = 5\nmoves = \"a1 a1\"",
                "hex-solve",
                "moves \"a1 a1\"",
            ),
            ("size = 5\nmoves = \"f1\"", "hex-solve", "moves \"f1\""),
            ("max_size = 12", "hex-parity", "max_size = 12"),
            ("game = \"0.9Z\"\nmax = 100", "grundy-octal", "0.9Z"),
            ("game = \"0.77\"\nmax = \"2^99\"", "grundy-octal", "2^99"),
            (
                "game = \"0.77\"\nmax = \"2^32\"",
                "grundy-octal",
                "largest table",
            ),
            ("game = \"0.77\"\nmax = \"ten\"", "grundy-octal", "ten"),
            ("digits = 9\nmax = 100", "grundy-census", "9"),
            (
                "game = \"0.77\"\nmax = 100\ncheckpoint_secs = 0",
                "grundy-octal",
                "checkpoint_secs",
            ),
            ("size = 4\nthreads = 5000", "hex-openings", "threads = 5000"),
        ] {
            let err = bad(fields, kind);
            assert!(
                err.starts_with("job \"j\": ") && err.contains(says),
                "{fields}: {err}"
            );
        }
        // The same values, good, pass.
        for (fields, kind) in [
            ("size = 11", "hex-openings"),
            ("size = 5\nmoves = \"a1 e5\"", "hex-solve"),
            ("game = \"4!.0\"\nmax = \"2^20\"", "grundy-octal"),
            ("digits = 2\nmax = 1000", "grundy-census"),
        ] {
            parse(&job(fields, kind)).unwrap();
        }
    }

    #[test]
    fn defaults_apply_and_fields_are_checked() {
        let jobs = parse(
            "[defaults]\nthreads = 3\n[[job]]\nname = \"a\"\nkind = \"hex-openings\"\nsize = 4\n\
             [[job]]\nname = \"k\"\nkind = \"grundy-octal\"\ngame = \"0.77\"\nmax = \"2^10\"\n\
             threads = 1\n",
        )
        .unwrap();
        assert_eq!(jobs[0].threads, 3);
        assert_eq!(jobs[1].threads, 1);
        assert_eq!(jobs[1].identity()["max"], "2^10");
        assert!(jobs[0].cost() > jobs[1].cost());
        let bad = |text: &str| parse(text).unwrap_err().to_string();
        assert!(bad("[[job]]\nname = \"a\"\nkind = \"chess\"\n").contains("unknown kind"));
        assert!(bad("[[job]]\nname = \"a\"\nkind = \"hex-openings\"\n").contains("needs"));
        assert!(
            bad("[[job]]\nname = \"a\"\nkind = \"hex-openings\"\nsize = 3\ngame = \"0.7\"\n")
                .contains("does not apply")
        );
        assert!(bad("[[job]]\nname = \"../x\"\nkind = \"hex-parity\"\n").contains("job name"));
        assert!(
            bad("[[job]]\nname = \"a\"\nkind = \"hex-parity\"\nmax_size = 2\nsize = [\n")
                .starts_with("line ")
        );
        assert!(bad("").contains("no jobs"));
        // A file cut after `moves =` says why it is refused.
        let cut = bad("[[job]]\nname = \"a\"\nkind = \"hex-solve\"\nsize = 3\nmoves =");
        assert_eq!(
            cut,
            "line 5 (\"moves =\"): the file ends where a value or a closing bracket is expected"
        );
    }
}
