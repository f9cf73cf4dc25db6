//! `zermelo grundy census`: every octal code of a few digits, classified (see
//! `zermelo_grundy::census`), checkpointed per game.
//!
//! In the folder given with `--out`, for D digits:
//! - `census-D.params.json`: the digits and the heap bound, checked on resume (a larger bound
//!   extends the census: periodic games kept, unsolved ones computed on from their values), and
//!   the wall seconds spent so far;
//! - `census-D.games/CODE.zgt`: a finished game, a Grundy table file (`zermelo grundy show`
//!   reads it) holding the values that prove its period, or every value computed when unsolved;
//!   written atomically, so a kill loses only the games being computed. A game whose code
//!   gives the table of an earlier unsolved game (`census::same_table_as`) is not computed and
//!   has no file: it takes that game's values at the end of each run;
//! - `census-D.jsonl`, `census-D.md`: the results, once every game is done.

use crate::output::{out, outln};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use rayon::prelude::*;
use serde_json::{json, Value};
use zermelo_grundy::census::{self, Entry, MAX_SHIFT};
use zermelo_grundy::period::Periodicity;
use zermelo_grundy::OctalGame;

use crate::progress::Progress;
use zermelo_batch::table::{self, TableFile};

/// The `kind` of the parameters file.
const PARAMS_KIND: &str = "zermelo-grundy-census";

/// Arguments of `zermelo grundy census`.
#[derive(ClapArgs)]
pub struct CensusArgs {
    /// Digits after the point: every code 0.d1…dN and 4.d1…dN (1 to 4).
    #[arg(long, value_name = "N")]
    digits: usize,
    /// Folder for the per-game checkpoints and the results (census-N.md, census-N.jsonl); run
    /// the same command again to resume.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Heap bound: each game is computed to G(N) unless its period is proven first; a whole
    /// number or a power such as 2^20. A larger bound on a folder extends its census: the
    /// periodic games are kept and the unsolved ones go on from their values.
    #[arg(
        long,
        value_name = "N",
        default_value = "2^20",
        allow_hyphen_values = true
    )]
    max: String,
    /// Games computed at once, one thread each (default: one per core, or RAYON_NUM_THREADS).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print one JSON object (the counts and the files written) instead of the summary, and no
    /// progress output.
    #[arg(long)]
    json: bool,
}

/// Runs the census.
pub fn run(args: CensusArgs) -> anyhow::Result<()> {
    let games = census::games(args.digits)?;
    let max = super::table_max(&args.max)?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        crate::check_threads(t)?;
        pool = pool.num_threads(t);
    }
    let pool = pool.build()?;
    let digits = args.digits;
    let dir = &args.out;
    std::fs::create_dir_all(dir.join(games_dir(digits)))
        .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    let params_path = dir.join(format!("census-{digits}.params.json"));
    let mut wall_before = 0.0;
    if params_path.exists() {
        let params = zermelo_store::json::read(&params_path)?;
        let (d, m) = (params["digits"].as_u64(), params["max"].as_u64());
        if params["kind"].as_str() != Some(PARAMS_KIND) || d.is_none() || m.is_none() {
            bail!("{}: not a census parameters file", params_path.display());
        }
        // A census is resumed with its own bound, or extended to a larger one (its periodic
        // games are kept, its unsolved ones go on from their values); never cut back.
        if d != Some(digits as u64) || m > Some(max as u64) {
            bail!(
                "{} holds a census of {} digits to --max {}; resume it with those (or a larger \
                 --max to extend it), or use another --out",
                dir.display(),
                d.unwrap_or(0),
                m.unwrap_or(0)
            );
        }
        if m < Some(max as u64) && !args.json {
            outln!(
                "extending the census of {digits} digits from --max {} to {max}: its periodic \
                 games are kept, its unsolved ones computed on",
                m.unwrap_or(0)
            )?;
        }
        wall_before = params["wall_seconds"].as_f64().unwrap_or(0.0);
    }
    let save_params = |wall: f64| -> anyhow::Result<()> {
        zermelo_store::json::write(
            &params_path,
            &json!({"kind": PARAMS_KIND, "digits": digits, "max": max, "wall_seconds": wall}),
        )?;
        Ok(())
    };
    save_params(wall_before)?;

    let mut entries: Vec<Option<Entry>> = Vec::with_capacity(games.len());
    // The values of the unsolved games of a smaller bound, to go on from.
    let mut known: HashMap<usize, Vec<u16>> = HashMap::new();
    for (i, game) in games.iter().enumerate() {
        let path = game_path(dir, digits, game);
        entries.push(if path.exists() {
            let (entry, bound) = load(&path, game, max)?;
            if entry.period.is_none() && bound < max as u64 {
                known.insert(i, entry.values);
                None
            } else {
                Some(entry)
            }
        } else {
            None
        });
    }
    let known = Mutex::new(known);
    // A game whose code gives the table of an earlier one (its twin) is computed only when
    // the twin turns out periodic; an unsolved twin gives it its values.
    let index: HashMap<&OctalGame, usize> = games.iter().enumerate().map(|(i, g)| (g, i)).collect();
    let twins: Vec<usize> = games
        .iter()
        .map(|g| Ok(index[&census::same_table_as(g)?]))
        .collect::<anyhow::Result<_>>()?;
    let todo = (0..games.len()).filter(|&i| entries[i].is_none()).count();
    let interrupted = super::interrupt_flag();
    // The bar counts the games of this run only, so that its rate and ETA are this run's.
    let kept = games.len() - todo;
    let label = if kept > 0 {
        format!("census {digits} digits ({kept} kept)")
    } else {
        format!("census {digits} digits")
    };
    let mut progress = Progress::new(&label, todo as u64, "games", args.json);
    let started = Instant::now();
    let done = Mutex::new(());
    let compute = |todo: Vec<usize>| -> anyhow::Result<Vec<(usize, Entry)>> {
        pool.install(|| {
            todo.par_iter()
                .with_max_len(1)
                .filter_map(|&i| {
                    let game = &games[i];
                    let start = known.lock().expect("census lock").remove(&i);
                    match census::extend(game, start.unwrap_or_default(), max, &interrupted) {
                        Ok(None) => None,
                        Ok(Some(entry)) => Some(keep(dir, digits, max, entry).map(|e| (i, e))),
                        Err(e) => Some(Err(anyhow::Error::from(e))),
                    }
                    .map(|result| {
                        if let Ok((_, entry)) = &result {
                            let _guard = done.lock().expect("census lock");
                            let wall = wall_before + started.elapsed().as_secs_f64();
                            // The time so far survives a kill with the games it was spent on.
                            let saved = save_params(wall);
                            progress.advance(
                                1,
                                &format!(
                                    "{} {} (n={})",
                                    entry.game,
                                    entry.status(),
                                    entry.computed
                                ),
                            );
                            saved?;
                        }
                        result
                    })
                })
                .collect()
        })
    };
    // First the games that are their own twins; then those whose twin turned out periodic.
    let own: Vec<usize> = (0..games.len())
        .filter(|&i| entries[i].is_none() && twins[i] == i)
        .collect();
    for (i, entry) in compute(own)? {
        entries[i] = Some(entry);
    }
    let periodic_twin: Vec<usize> = (0..games.len())
        .filter(|&i| entries[i].is_none())
        .filter(|&i| {
            entries[twins[i]]
                .as_ref()
                .is_some_and(|e| e.period.is_some())
        })
        .collect();
    for (i, entry) in compute(periodic_twin)? {
        entries[i] = Some(entry);
    }
    let mut derived = 0;
    for i in 0..games.len() {
        if let (None, Some(twin)) = (&entries[i], &entries[twins[i]]) {
            if twin.period.is_none() {
                entries[i] = Some(Entry::twin(&games[i], twin)?);
                derived += 1;
            }
        }
    }
    if derived > 0 {
        progress.advance(
            derived,
            &format!("{derived} games take their unsolved twins' values"),
        );
    }
    progress.finish();
    let wall = wall_before + started.elapsed().as_secs_f64();
    save_params(wall)?;
    let left = entries.iter().filter(|e| e.is_none()).count();
    if interrupted.load(Ordering::SeqCst) || left > 0 {
        bail!(
            "interrupted with {left} of {} games left; the others are kept in {}: run the same \
             command to resume",
            games.len(),
            dir.display()
        );
    }
    let mut entries: Vec<Entry> = entries.into_iter().flatten().collect();
    census::find_equivalences(&mut entries)?;
    let jsonl: String = entries
        .iter()
        .map(|e| format!("{}\n", record(e, &entries)))
        .collect();
    let summary = summary(&entries, max);
    let md = markdown(&entries, digits, max, wall, &summary);
    for (name, text) in [
        (format!("census-{digits}.jsonl"), jsonl),
        (format!("census-{digits}.md"), md),
    ] {
        zermelo_store::atomic_write(&dir.join(name), text.as_bytes())?;
    }
    if args.json {
        let count = |status: &str| entries.iter().filter(|e| e.status() == status).count();
        outln!(
            "{}",
            json!({
                "family": "octal census",
                "digits": digits,
                "max": max,
                "games": entries.len(),
                "periodic": count("periodic"),
                "equivalent": count("equivalent"),
                "unsolved": count("unsolved"),
                "out": dir.display().to_string(),
                "wall_seconds": wall,
            })
        )?;
    } else {
        out!("{summary}")?;
        outln!(
            "census-{digits}.md and census-{digits}.jsonl written to {} ({wall:.0} s of wall \
             time)",
            dir.display()
        )?;
    }
    Ok(())
}

fn games_dir(digits: usize) -> String {
    format!("census-{digits}.games")
}

fn game_path(dir: &Path, digits: usize, game: &OctalGame) -> PathBuf {
    dir.join(games_dir(digits)).join(format!("{game}.zgt"))
}

/// Writes a finished game's table, then gives its entry back.
fn keep(dir: &Path, digits: usize, max: usize, entry: Entry) -> anyhow::Result<Entry> {
    table::write(
        &game_path(dir, digits, &entry.game),
        &TableFile {
            game: entry.game.clone(),
            target: max as u64,
            complete: true,
            period: entry.period,
            values: entry.values.clone(),
        },
    )?;
    Ok(entry)
}

/// Reads back a finished game, checking it belongs to this census (to `max`, or to a smaller
/// bound when the census is extended) and re-checking its proof; with the bound it was
/// computed to.
fn load(path: &Path, game: &OctalGame, max: usize) -> anyhow::Result<(Entry, u64)> {
    let stored = table::read(path)?;
    if &stored.game != game || stored.target > max as u64 || !stored.complete {
        bail!(
            "{}: not a finished game {game} of this census; delete it to compute it again",
            path.display()
        );
    }
    let entry = Entry::from_table(game, stored.values, stored.period)
        .with_context(|| format!("{}", path.display()))?;
    Ok((entry, stored.target))
}

/// The JSON line of an entry.
fn record(e: &Entry, entries: &[Entry]) -> Value {
    json!({
        "code": e.game.to_string(),
        "status": e.status(),
        "same_as": e.same_as.map(|s| entries[s.index].game.to_string()),
        "preperiod": e.period.map(|p| p.preperiod),
        "period": e.period.map(|p| p.period),
        "proven": e.period.is_some(),
        "computed": e.computed,
        "max_value": e.max_value,
        "rare_mask": e.rare.mask,
        "rare_count": e.rare.count,
        "last_rare": e.rare.last,
    })
}

/// How many games of each kind, and the longest proven preperiod and period.
fn summary(entries: &[Entry], max: usize) -> String {
    let count = |status: &str| entries.iter().filter(|e| e.status() == status).count();
    // Among the periodic games (an equivalent one repeats an earlier game), the first of the
    // longest: `max_by_key` keeps the last maximum, hence the reversed list.
    let longest = |key: fn(&Entry) -> Option<usize>| {
        entries
            .iter()
            .rev()
            .filter(|e| e.status() == "periodic")
            .filter_map(|e| Some((key(e)?, e)))
            .max_by_key(|&(k, _)| k)
            .map_or("none".to_string(), |(k, e)| format!("{k} ({})", e.game))
    };
    let mut out = String::new();
    let _ = writeln!(out, "games: {}", entries.len());
    let _ = writeln!(out, "periodic, proven: {}", count("periodic"));
    let twins = entries
        .iter()
        .filter(|e| e.same_as.is_some() && e.period.is_none())
        .count();
    let _ = writeln!(
        out,
        "equivalent to an earlier periodic game (also periodic, proven): {}",
        count("equivalent") - twins
    );
    let identical = entries
        .iter()
        .filter(|e| {
            e.period.is_some()
                && e.same_as
                    .is_some_and(|s| s.from == (-s.shift).max(0) as usize)
        })
        .count();
    let _ = writeln!(
        out,
        "  of which the same values from the first heap on (shifted): {identical}"
    );
    let _ = writeln!(
        out,
        "equivalent to an earlier unsolved game (the same table, by the code): {twins}"
    );
    let _ = writeln!(out, "unsolved up to heap {max}: {}", count("unsolved"));
    let _ = writeln!(
        out,
        "longest proven preperiod: {}",
        longest(|e| e.period.map(|p| p.preperiod))
    );
    let _ = writeln!(
        out,
        "longest proven period: {}",
        longest(|e| e.period.map(|p| p.period))
    );
    out
}

/// Games listed under each of the "longest" headings of the census page.
const LEADERS: usize = 20;

/// The [`LEADERS`] periodic games (equivalent ones left out: they repeat an earlier game) with
/// the longest proven `what` (preperiods or periods, read by `key`), longest first, as a
/// Markdown section.
fn leaders(out: &mut String, entries: &[Entry], what: &str, key: fn(&Periodicity) -> usize) {
    let mut periodic: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.status() == "periodic")
        .collect();
    // Stable: games of equal length keep the table's order.
    periodic.sort_by_key(|e| std::cmp::Reverse(e.period.as_ref().map_or(0, key)));
    let _ = writeln!(
        out,
        "\n## The longest proven {what}\n\n\
         | code | preperiod | period | largest value |\n|---|--:|--:|--:|"
    );
    for e in periodic.iter().take(LEADERS) {
        if let Some(p) = &e.period {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                e.game, p.preperiod, p.period, e.max_value
            );
        }
    }
}

/// The census as a Markdown page.
fn markdown(entries: &[Entry], digits: usize, max: usize, wall: f64, summary: &str) -> String {
    let mut out = String::new();
    let d: String = (1..=digits).map(|k| format!("d{k}")).collect();
    let _ = writeln!(out, "# Census of the octal games with {digits} digits\n");
    let _ = writeln!(
        out,
        "Every octal game 0.{d} and 4.{d}, each digit 0 to 7: {} games. A code ending in 0 is \
         the shorter game without it and is listed under that shortest code (0.010 is 0.01). \
         Order of the published tables: the 0. codes, then the 4. codes, each by its digits \
         read as one octal number (0.007 before 0.01).\n",
        entries.len()
    );
    let _ = writeln!(
        out,
        "Computed by `zermelo grundy census --digits {digits} --max {max}` in {wall:.0} s of \
         wall time: each game with the sparse engine until its period was proven or G({max}) \
         was known, except the games whose code gives the same table as an earlier unsolved \
         game (see the columns), which take its values.\n"
    );
    let _ = writeln!(out, "## Summary\n");
    for line in summary.lines() {
        // Indented summary lines detail the line above them.
        let _ = match line.strip_prefix("  ") {
            Some(detail) => writeln!(out, "  - {detail}"),
            None => writeln!(out, "- {line}"),
        };
    }
    leaders(&mut out, entries, "preperiods", |p| p.preperiod);
    leaders(&mut out, entries, "periods", |p| p.period);
    let unsolved: Vec<String> = entries
        .iter()
        .filter(|e| e.status() == "unsolved")
        .map(|e| e.game.to_string())
        .collect();
    let _ = writeln!(
        out,
        "\n## Unsolved up to heap {max}\n\n{}",
        if unsolved.is_empty() {
            "none".to_string()
        } else {
            unsolved.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "\n## Columns\n\n\
         - status: *periodic* when the preperiod and period are proven (Guy–Smith criterion, \
         or for codes without splits the last t values; each proof checked twice); \
         *equivalent* when periodic and, in addition, G(n) = G'(n + s) for every n from some \
         heap on, with G' an earlier game that is not itself equivalent, |s| ≤ {MAX_SHIFT} \
         (shown as \"G' at n+s from n0\"); also *equivalent*, with no period, when unsolved \
         and the same table as an earlier unsolved game G' for every heap, proven from the \
         codes (`same_table_as` in zermelo-grundy: G' has the code with some bits 1 and 2 \
         cleared, the tables agree up to the last place t, and each cleared bit 2 of digit k \
         has a split of digit j < k with G(k − j) = 0 giving the same value); *unsolved* when \
         no period is proven up to the heap computed.\n\
         - computed: the last heap computed (the last one the proof needs, for a periodic game).\n\
         - rare mask, rare heaps, last rare: a heap n ≥ 1 is rare when popcount(G(n) & mask) \
         is even; the mask (below 2^12) with the fewest rare heaps among those computed, then \
         their number and the last of them.\n"
    );
    let _ = writeln!(
        out,
        "| code | status | same as | preperiod | period | computed | largest value | rare mask \
         | rare heaps | last rare |"
    );
    let _ = writeln!(out, "|---|---|---|--:|--:|--:|--:|--:|--:|--:|");
    let opt = |v: Option<usize>| v.map_or("–".to_string(), |v| v.to_string());
    for e in entries {
        let same = e.same_as.map_or(String::new(), |s| {
            let shift = match s.shift {
                0 => String::new(),
                s if s > 0 => format!("+{s}"),
                s => s.to_string(),
            };
            format!("{} at n{shift} from {}", entries[s.index].game, s.from)
        });
        let _ = writeln!(
            out,
            "| {} | {} | {same} | {} | {} | {} | {} | {:#x} | {} | {} |",
            e.game,
            e.status(),
            opt(e.period.map(|p| p.preperiod)),
            opt(e.period.map(|p| p.period)),
            e.computed,
            e.max_value,
            e.rare.mask,
            e.rare.count,
            opt(e.rare.last),
        );
    }
    out
}
