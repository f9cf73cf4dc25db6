//! `zermelo hex openings`: the value of every first move.

use crate::output::{out, outln};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{json, Value};
use zermelo_hex::{Cell, Opening, Position, Rules, Solver, DEFAULT_LENGTH_SIZE, MAX_LENGTH_SIZE};

use super::proofs::{keeping, ProofOptions};
use super::{rules_name, rules_prose, SearchOptions};
use crate::progress::Progress;
use zermelo_batch::proofs::Kept;

/// Solve every first move of the empty board; print the table and write it as JSON and Markdown.
#[derive(clap::Args)]
pub struct Args {
    /// Board size, 1 to 11, or a range such as 1-5 for every size in it.
    #[arg(long, value_parser = parse_sizes)]
    size: (usize, usize),
    /// Folder where NxN-openings.json, .md and .svg (the board as a picture) are written
    /// (NxN-misere-openings.* in misère play).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Skip the perfect-play lengths (computed by default up to 4x4).
    #[arg(long, conflicts_with = "plies")]
    no_plies: bool,
    /// Compute the perfect-play lengths on 5x5 too (minutes per opening).
    #[arg(long)]
    plies: bool,
    /// Print one JSON object per size instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    search: SearchOptions,
    #[command(flatten)]
    proofs: ProofOptions,
    /// Search nothing: take each opening from the proofs file (or the analysis of the position
    /// after it) and list those still open. The table is printed and written as usual once
    /// every opening is known; until then the openings known and open are, and --out gets
    /// NxN-report.md (NxN-misere-report.md in misère play), and the exit status is 3. Needs
    /// --proofs.
    #[arg(long, requires = "proofs")]
    proven_only: bool,
    /// With --proven-only: each opening's time and nodes from the records of a batch results
    /// folder whose hex-solve jobs solved the openings (as jobs/hex-8x8.toml does), all the runs
    /// of a job together; an opening answered from its twin's proof shows none. While openings
    /// are still open, the report lists the done jobs' openings with theirs, and their total.
    #[arg(long, requires = "proven_only")]
    batch: Option<PathBuf>,
}

/// Parses "5" or "1-5".
fn parse_sizes(text: &str) -> Result<(usize, usize), String> {
    let parse = |t: &str| -> Result<usize, String> {
        let n: usize = t
            .trim()
            .parse()
            .map_err(|_| format!("'{t}' is not a board size"))?;
        if !(1..=zermelo_hex::MAX_SIZE).contains(&n) {
            return Err(format!(
                "board size {n} is out of range (1 to {})",
                zermelo_hex::MAX_SIZE
            ));
        }
        Ok(n)
    };
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (parse(a)?, parse(b)?);
            if a > b {
                return Err(format!("empty size range {text}"));
            }
            Ok((a, b))
        }
        None => parse(text).map(|n| (n, n)),
    }
}

/// One size's results.
struct Table {
    n: usize,
    rules: Rules,
    openings: Vec<Opening>,
    plies: Option<Vec<u32>>,
    seconds: f64,
    threads: usize,
    /// What the run did with its proofs file, when it has one.
    kept: Option<Kept>,
    /// Whether each opening's seconds are its own (from a batch's records), to be listed.
    timed: bool,
}

/// The environment variable that makes a worker thread panic (`worker-panic`), so that the
/// tests can check that a bug in a worker ends the run with one line rather than a hang.
const FAULT_ENV: &str = "ZERMELO_FAULT";

/// Runs `hex openings`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.plies && args.size.1 > MAX_LENGTH_SIZE {
        anyhow::bail!(
            "--plies: perfect-play lengths are computed up to {MAX_LENGTH_SIZE}x{MAX_LENGTH_SIZE}, \
             and --size goes to {0}x{0}",
            args.size.1
        );
    }
    if args.proofs.proofs.is_some() && args.size.0 != args.size.1 {
        anyhow::bail!(
            "--proofs keeps the proofs of one board size; give one --size, not {}-{}",
            args.size.0,
            args.size.1
        );
    }
    if let Some(dir) = &args.out {
        crate::output::prepare_out_dir(dir)?;
    }
    if args.proven_only {
        return proven_only(&args);
    }
    let (solver, file) = args
        .proofs
        .open(args.search.solver(args.size.1)?, args.size.1)?;
    for n in args.size.0..=args.size.1 {
        let start = Instant::now();
        let (openings, kept) = keeping(&solver, file.as_ref(), || {
            let mut progress = Progress::new(
                &format!("{n}x{n} openings"),
                (n * n) as u64,
                "openings",
                args.json,
            );
            // A fault for the tests: a panic in a worker thread must end the run, not hang it.
            let fault = std::env::var_os(FAULT_ENV).is_some_and(|v| v == "worker-panic");
            let openings = solver.openings(n, |o| {
                assert!(
                    !fault,
                    "{FAULT_ENV}=worker-panic: a worker panics on purpose"
                );
                progress.advance(
                    1,
                    &format!(
                        "{} {}",
                        o.cell,
                        if o.first_player_wins { "wins" } else { "loses" }
                    ),
                )
            })?;
            progress.finish();
            Ok(openings)
        })?;
        let limit = if args.plies {
            MAX_LENGTH_SIZE
        } else {
            DEFAULT_LENGTH_SIZE
        };
        let mut table = Table {
            n,
            rules: args.search.rules(),
            openings,
            plies: None,
            seconds: start.elapsed().as_secs_f64(),
            threads: solver.threads(),
            kept,
            timed: false,
        };
        if args.no_plies || n > limit {
            write_table(&args, &table)?;
            continue;
        }
        // Asked for with --plies, the lengths can take far longer than the values (minutes an
        // opening on 5x5): the win/loss table is printed and written first, so that a stop does
        // not lose it, and each length is said as it is found.
        let slow = args.plies;
        if slow && !args.json {
            write_table(&args, &table)?;
        } else if let (true, Some(dir)) = (slow, &args.out) {
            table.write_files(dir)?;
        }
        table.plies = Some(lengths(
            &solver,
            n,
            &table.openings,
            args.json,
            slow && !args.json,
        )?);
        table.seconds = start.elapsed().as_secs_f64();
        write_table(&args, &table)?;
    }
    Ok(())
}

/// Prints a size's table and writes its files to --out.
fn write_table(args: &Args, table: &Table) -> anyhow::Result<()> {
    if args.json {
        outln!("{}", table.json())?;
    } else {
        out!("{}", table.text())?;
    }
    if let Some(dir) = &args.out {
        table.write_files(dir)?;
        if !args.json {
            outln!(
                "wrote {}",
                Path::new(dir)
                    .join(format!("{}.{{json,md,svg}}", table.file_stem()))
                    .display()
            )?;
        }
    }
    Ok(())
}

/// The wall seconds and nodes of each opening that a done hex-solve job of the batch folder
/// `dir` solved on an n x n board in `rules`: the totals over the job's runs where it was
/// stopped and resumed.
fn batch_times(dir: &Path, n: usize, rules: Rules) -> anyhow::Result<HashMap<Cell, (f64, u64)>> {
    let mut times = HashMap::new();
    for job in zermelo_batch::folder_jobs(dir)? {
        let zermelo_batch::State::Done(record) = zermelo_batch::state(dir, &job)? else {
            continue;
        };
        let j = &record["job"];
        let ours = j["kind"] == "hex-solve"
            && j["size"].as_u64() == Some(n as u64)
            && j["misere"].as_bool().unwrap_or(false) == (rules == Rules::Misere);
        // A job of one move solved that opening; longer lines are not openings.
        let Some(cell) = j["moves"]
            .as_str()
            .filter(|_| ours)
            .and_then(|m| Cell::parse(m, n).ok())
        else {
            continue;
        };
        let p = &record["provenance"];
        let seconds = zermelo_batch::provenance_total(p, "wall_seconds").as_f64();
        let nodes = zermelo_batch::provenance_total(p, "nodes").as_u64();
        times.insert(cell, (seconds.unwrap_or(0.0), nodes.unwrap_or(0)));
    }
    Ok(times)
}

/// `--proven-only`: the openings of one size known without a search (see [`Args`]).
fn proven_only(args: &Args) -> anyhow::Result<()> {
    let n = args.size.0;
    let path = args.proofs.proofs.as_ref().expect("clap requires --proofs");
    if !path.exists() {
        anyhow::bail!("--proven-only: no proofs file at {}", path.display());
    }
    let start = Instant::now();
    let (solver, _) = args.proofs.open(args.search.solver(n)?, n)?;
    let known = solver.known_openings(n)?;
    let rules = args.search.rules();
    let times = match &args.batch {
        Some(dir) => batch_times(dir, n, rules)?,
        None => HashMap::new(),
    };
    if known.iter().all(|(_, v)| v.is_some()) {
        let openings = known
            .iter()
            .map(|&(cell, v)| {
                let (seconds, nodes) = times.get(&cell).copied().unwrap_or_default();
                Opening {
                    cell,
                    first_player_wins: v.expect("all known"),
                    nodes,
                    seconds,
                }
            })
            .collect();
        let table = Table {
            n,
            rules,
            openings,
            plies: None,
            seconds: start.elapsed().as_secs_f64(),
            threads: solver.threads(),
            kept: None,
            timed: args.batch.is_some(),
        };
        return write_table(args, &table);
    }
    let open: Vec<String> = known
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(c, _)| c.to_string())
        .collect();
    let value = |v: Option<bool>| match v {
        Some(true) => "wins",
        Some(false) => "loses",
        None => "open",
    };
    let summary = format!(
        "{n}x{n} {} Hex: {} of {} openings known from {}; open: {}",
        rules_prose(rules),
        n * n - open.len(),
        n * n,
        path.display(),
        open.join(" ")
    );
    // With --batch, a done job's opening carries the job's time and nodes.
    let timed = args.batch.is_some();
    if args.json {
        let openings: Vec<Value> = known
            .iter()
            .map(|&(cell, v)| {
                let mut o = json!({"cell": cell.to_string(), "first_player_wins": v});
                if let Some(&(seconds, nodes)) = times.get(&cell).filter(|_| v.is_some()) {
                    o["seconds"] = json!(seconds);
                    o["nodes"] = json!(nodes);
                }
                o
            })
            .collect();
        outln!(
            "{}",
            json!({
                "size": n,
                "rules": rules_name(rules),
                "misere": rules == Rules::Misere,
                "openings": openings,
                "open": open,
                "zermelo_version": env!("CARGO_PKG_VERSION"),
            })
        )?;
    } else {
        outln!("{summary}")?;
    }
    if let Some(dir) = &args.out {
        let mut md = format!(
            "# {n}x{n} Hex openings, {} play: the openings still open\n\n{summary}.\n\n\
             Written by `zermelo hex openings --size {n}{} --proofs PATH --proven-only` \
             (zermelo {}): each opening as the proofs of the runs so far give it, or the \
             analysis of the position after it, without a search. Black moves first.\n\n{}",
            rules_prose(rules),
            if rules == Rules::Misere {
                " --misere"
            } else {
                ""
            },
            env!("CARGO_PKG_VERSION"),
            match timed {
                true => {
                    let (seconds, nodes) = times
                        .values()
                        .fold((0.0, 0), |(s, n), &(js, jn)| (s + js, n + jn));
                    format!(
                        "The {} done jobs of the batch folder took {seconds:.1} s of wall time \
                         and {nodes} nodes; each opening they solved shows its job's share (its \
                         180° twin is answered from its proofs).\n\n\
                         | opening | first player | seconds | nodes |\n\
                         |---------|--------------|---------|-------|\n",
                        times.len()
                    )
                }
                false => "| opening | first player |\n|---------|--------------|\n".to_string(),
            },
        );
        for &(cell, v) in &known {
            let time = match times.get(&cell).filter(|_| v.is_some()) {
                Some((seconds, nodes)) => format!(" {seconds:.1} | {nodes} |"),
                None if timed => " | |".to_string(),
                None => String::new(),
            };
            let _ = writeln!(md, "| {cell} | {} |{time}", value(v));
        }
        let stem = match rules {
            Rules::Normal => format!("{n}x{n}-report"),
            Rules::Misere => format!("{n}x{n}-misere-report"),
        };
        let file = dir.join(format!("{stem}.md"));
        zermelo_store::atomic_write(&file, md.as_bytes())?;
        if !args.json {
            outln!("wrote {}", file.display())?;
        }
    }
    Err(crate::output::Incomplete(format!(
        "{} of {} openings still open (exit status {})",
        open.len(),
        n * n,
        crate::output::EXIT_INCOMPLETE
    ))
    .into())
}

/// Perfect-play lengths from the empty board (the opening included), in parallel; `quiet` turns
/// the progress off, `say_each` prints each length as it is found.
fn lengths(
    solver: &Solver,
    n: usize,
    openings: &[Opening],
    quiet: bool,
    say_each: bool,
) -> anyhow::Result<Vec<u32>> {
    let mut progress = Progress::new(
        &format!("{n}x{n} lengths"),
        openings.len() as u64,
        "openings",
        quiet,
    );
    let empty = Position::new(n)?;
    let plies: anyhow::Result<Vec<u32>> = openings
        .par_iter()
        .map(|o| -> anyhow::Result<u32> {
            let after = empty.play(o.cell)?;
            let plies = if after.connected().is_some() {
                1
            } else {
                1 + solver.perfect_play_length(&after)?
            };
            progress.advance(1, &format!("{} {plies}", o.cell));
            if say_each {
                // Each length as it is found: the search of one can take minutes.
                outln!(
                    "{n}x{n} perfect-play length after {}: {plies} plies",
                    o.cell
                )?;
            }
            Ok(plies)
        })
        .collect();
    progress.finish();
    plies
}

impl Table {
    /// Writes the table's JSON, Markdown and SVG files into `dir`, each atomically.
    fn write_files(&self, dir: &Path) -> anyhow::Result<()> {
        let stem = self.file_stem();
        zermelo_store::json::write(&dir.join(format!("{stem}.json")), &self.json())?;
        zermelo_store::atomic_write(&dir.join(format!("{stem}.md")), self.markdown().as_bytes())?;
        zermelo_store::atomic_write(&dir.join(format!("{stem}.svg")), self.svg().as_bytes())?;
        Ok(())
    }

    fn file_stem(&self) -> String {
        match self.rules {
            Rules::Normal => format!("{0}x{0}-openings", self.n),
            Rules::Misere => format!("{0}x{0}-misere-openings", self.n),
        }
    }

    fn winning(&self) -> Vec<String> {
        self.openings
            .iter()
            .filter(|o| o.first_player_wins)
            .map(|o| o.cell.to_string())
            .collect()
    }

    fn json(&self) -> Value {
        let openings: Vec<Value> = self
            .openings
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let mut v = json!({
                    "cell": o.cell.to_string(),
                    "first_player_wins": o.first_player_wins,
                    "nodes": o.nodes,
                });
                if self.timed {
                    v["seconds"] = json!(o.seconds);
                }
                if let Some(p) = &self.plies {
                    v["plies"] = json!(p[i]);
                }
                v
            })
            .collect();
        let mut doc = json!({
            "size": self.n,
            "rules": rules_name(self.rules),
            "misere": self.rules == Rules::Misere,
            "first_player_wins": self.openings.iter().any(|o| o.first_player_wins),
            "winning_openings": self.winning(),
            "openings": openings,
            "nodes": self.openings.iter().map(|o| o.nodes).sum::<u64>(),
            "wall_seconds": self.seconds,
            "threads": self.threads,
            "zermelo_version": env!("CARGO_PKG_VERSION"),
        });
        if let Some(kept) = self.kept {
            kept.annotate(&mut doc);
        }
        doc
    }

    /// The board with each cell marked + (the opening wins) or − (it loses), followed by its
    /// perfect-play length when known.
    fn diagram(&self) -> String {
        let n = self.n;
        let width = if self.plies.is_some() { 4 } else { 2 };
        let mut s = String::from("   ");
        for x in 0..n {
            let _ = write!(s, "{:>width$}", (b'a' + x as u8) as char);
        }
        s.push('\n');
        for y in 0..n {
            let _ = write!(s, "{:indent$}{:>2} ", "", y + 1, indent = y * width / 2);
            for x in 0..n {
                let i = Cell {
                    x: x as u8,
                    y: y as u8,
                }
                .index(n);
                let o = &self.openings[i];
                let mark = if o.first_player_wins { '+' } else { '-' };
                let cell = match &self.plies {
                    Some(p) => format!("{mark}{}", p[i]),
                    None => mark.to_string(),
                };
                let _ = write!(s, "{cell:>width$}");
            }
            s.push('\n');
        }
        s
    }

    fn summary(&self) -> String {
        let n = self.n;
        let wins = self.winning().len();
        format!(
            "{n}x{n} {} Hex: the first player {} the empty board; {wins} of {} openings win",
            rules_prose(self.rules),
            if wins > 0 { "wins" } else { "loses" },
            n * n
        )
    }

    fn text(&self) -> String {
        let legend = if self.plies.is_some() {
            "(+ first player wins, - loses; then the perfect-play length in plies)"
        } else {
            "(+ first player wins, - loses)"
        };
        let kept = self
            .kept
            .map_or(String::new(), |k| format!("{}\n", k.summary()));
        format!(
            "{}\n{legend}\n{}winning openings: {}\nsolved in {:.2} s on {} thread{}\n{kept}\n",
            self.summary(),
            self.diagram(),
            self.winning().join(" "),
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }

    /// The board as an SVG picture (see [`super::board`]).
    fn svg(&self) -> String {
        let wins: Vec<bool> = self.openings.iter().map(|o| o.first_player_wins).collect();
        super::board::openings_svg(self.n, &wins, self.plies.as_deref(), &self.summary())
    }

    fn markdown(&self) -> String {
        let n = self.n;
        let mut s = format!(
            "# {n}x{n} Hex openings, {} play\n\n{}.\n\nWritten by `zermelo hex openings --size {n}{}` \
             (zermelo {}). Black moves first and connects row 1 to row {n}; \
             + marks an opening that wins for Black, - one that loses{}.\n\n```text\n{}```\n\n\
             ![The {n}x{n} board, winning openings in green]({}.svg)\n\n",
            rules_prose(self.rules),
            self.summary(),
            if self.rules == Rules::Misere { " --misere" } else { "" },
            env!("CARGO_PKG_VERSION"),
            if self.plies.is_some() {
                ", followed by the length of the game in plies with perfect play (the winner \
                 hurries, the loser delays), the opening included"
            } else {
                ""
            },
            self.diagram(),
            self.file_stem()
        );
        s.push_str("| opening | first player |");
        let mut rule = String::from("|---|---|");
        if self.plies.is_some() {
            s.push_str(" plies |");
            rule.push_str("---|");
        }
        if self.timed {
            s.push_str(" seconds | nodes |");
            rule.push_str("---|---|");
        }
        let _ = writeln!(s, "\n{rule}");
        for (i, o) in self.openings.iter().enumerate() {
            let plies = self
                .plies
                .as_ref()
                .map_or(String::new(), |p| format!(" {} |", p[i]));
            // An opening answered from its twin's proof took no search of its own.
            let timed = match (self.timed, o.nodes > 0 || o.seconds > 0.0) {
                (false, _) => String::new(),
                (true, true) => format!(" {:.1} | {} |", o.seconds, o.nodes),
                (true, false) => " | |".to_string(),
            };
            let _ = writeln!(
                s,
                "| {} | {} |{plies}{timed}",
                o.cell,
                if o.first_player_wins { "wins" } else { "loses" }
            );
        }
        s
    }
}
