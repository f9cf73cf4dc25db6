//! `zermelo batch run`: the runner.
//!
//! Each job runs in a child process: zermelo re-invokes its own executable with the job's
//! `hex …` or `grundy …` command and `--json`. The Hex solver has no cancellation hook, so a
//! separate process is what lets a time limit stop a job (SIGTERM, then SIGKILL after a grace
//! period); it also keeps a crash or an out-of-memory kill inside one job, and reuses the
//! commands' own checkpoints (Grundy tables checkpoint on SIGTERM and resume with --resume).
//! The runner alone writes records, each atomically, so a kill -9 at any moment leaves every
//! file either complete or absent.

use crate::output::{errln, outln};
use std::io::{BufRead, BufReader, IsTerminal, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value};

use super::jobs::{self, Job, Kind};
use super::shard::Shard;
use super::{job_lock_path, lock_job, record_path, state, try_lock, utc, State, JOBS_COPY};
use crate::progress::LOG_EVERY_ENV;

/// Run the jobs of a job file; results go to --out, one file per job.
#[derive(clap::Args)]
pub struct Args {
    /// The job file (TOML).
    jobs: PathBuf,
    /// The results folder (created if needed). Running again skips finished jobs.
    #[arg(long)]
    out: PathBuf,
    /// Run only shard I of N (0-based), e.g. 0/4. Default: from SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT when set, else every job.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Threads for jobs whose job file does not set them, 1 to 1024 (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    log_every: u64,
}

/// How long a job may take to checkpoint and exit after SIGTERM before it is killed.
const GRACE: Duration = Duration::from_secs(30);
/// Keys of a command's JSON output that describe the run, not the result: moved to provenance
/// (top level) or dropped (nested), so that results compare equal across runs and machines.
const RUN_KEYS: &[&str] = &[
    "nodes",
    "seconds",
    "wall_seconds",
    "threads",
    "zermelo_version",
    "out",
    "resumed_from",
];
/// The environment variable that tells a child zermelo its runner's pid (see `main`).
pub const PARENT_ENV: &str = "ZERMELO_BATCH_PARENT";

/// Signals received: the first stops after a checkpoint, the second at once.
static SIGNALS: AtomicUsize = AtomicUsize::new(0);
/// The running job's pid, for the second signal to kill.
static CHILD: AtomicI32 = AtomicI32::new(0);

/// Runs `batch run`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        crate::check_threads(t, false)?;
    }
    let all = jobs::load(&args.jobs)?;
    let shard = match &args.shard {
        Some(text) => Shard::parse(text)?,
        None => Shard::from_slurm(|k| std::env::var(k).ok())?.unwrap_or(Shard::ALL),
    };
    let mine: Vec<Job> = shard
        .select(&all)
        .into_iter()
        .cloned()
        .map(|mut j| {
            if let Some(t) = args.threads {
                j.threads = if j.threads == 0 { t } else { j.threads };
            }
            j
        })
        .collect();
    let dir = &args.out;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let lock_path = dir.join(format!(".lock.{}-of-{}", shard.index, shard.count));
    let Some(mut lock) = try_lock(&lock_path)? else {
        let pid = std::fs::read_to_string(&lock_path).unwrap_or_default();
        bail!(
            "{} is in use by another zermelo batch run of shard {shard} (pid {}); wait for it \
             or stop it",
            dir.display(),
            pid.trim()
        );
    };
    {
        use std::io::{Seek, Write};
        lock.set_len(0)?;
        lock.seek(std::io::SeekFrom::Start(0))?;
        writeln!(lock, "{}", std::process::id())?;
    }
    keep_job_file(dir, &args.jobs, &all)?;
    install_signal_handler();

    let log_every = Duration::from_secs(args.log_every.max(1));
    let display = Display::new(&mine, shard, log_every);
    let mut done = 0;
    let mut failed = Vec::new();
    for job in &mine {
        if SIGNALS.load(Ordering::SeqCst) > 0 {
            display.finish();
            bail!(
                "interrupted before job {}; {done} of {} jobs done; run the same command again \
                 to go on",
                job.name,
                mine.len()
            );
        }
        match state(dir, job)? {
            State::Done(_) => {
                display.skip(job);
                done += 1;
                continue;
            }
            State::Corrupt(why) => {
                display.say(&format!("{}: {why}; redoing the job", job.name));
                let _ = std::fs::remove_file(record_path(dir, &job.name));
                if let Some(t) = job.table_file() {
                    let _ = if job.streams() {
                        std::fs::remove_dir_all(dir.join(t))
                    } else {
                        std::fs::remove_file(dir.join(t))
                    };
                }
            }
            State::Running => bail!(
                "job {:?} in {} is being run by another zermelo batch (with another --shard?); \
                 run one shard per runner",
                job.name,
                dir.display()
            ),
            State::Failed(_) | State::Checkpointed | State::Missing => {}
        }
        match run_job(dir, job, shard, &display)? {
            Outcome::Done => done += 1,
            Outcome::Failed(reason) => failed.push(format!("{}: {reason}", job.name)),
            Outcome::Interrupted(what) => {
                display.finish();
                bail!(
                    "interrupted: {what}; {done} of {} jobs done; run the same command again to \
                     go on",
                    mine.len()
                );
            }
        }
    }
    display.finish();
    outln!(
        "{done} of {} jobs done{} in {}",
        mine.len(),
        if shard == Shard::ALL {
            String::new()
        } else {
            format!(" (shard {shard})")
        },
        dir.display()
    )?;
    if !failed.is_empty() {
        bail!("{} failed: {}", failed.len(), failed.join("; "));
    }
    Ok(())
}

/// Keeps a copy of the job file in the folder, so that `status`, `report` and `merge` know the
/// whole list. A folder used with another job file is refused where the two disagree on a job.
/// Jobs of the folder's earlier list that the new file leaves out stay in the copy when the
/// folder holds files of theirs (a record or a table): a run with a part of the job file must
/// not hide results already computed.
fn keep_job_file(dir: &Path, path: &Path, all: &[Job]) -> anyhow::Result<()> {
    let copy = dir.join(JOBS_COPY);
    let mut earlier = Vec::new();
    if copy.exists() {
        let kept = jobs::load(&copy)?;
        for old in &kept {
            if let Some(new) = all.iter().find(|j| j.name == old.name) {
                if new.identity() != old.identity() {
                    bail!(
                        "{} was run with another definition of job {:?} ({} there, {} now); use \
                         another results folder",
                        dir.display(),
                        old.name,
                        old.identity(),
                        new.identity()
                    );
                }
            }
        }
        earlier = kept
            .into_iter()
            .filter(|old| !all.iter().any(|j| j.name == old.name))
            .filter(|old| {
                record_path(dir, &old.name).exists()
                    || old.table_file().is_some_and(|t| dir.join(t).exists())
            })
            .collect();
    }
    let mut text =
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !earlier.is_empty() {
        if text.last().is_some_and(|&b| b != b'\n') {
            text.push(b'\n');
        }
        text.extend_from_slice(
            b"\n# Jobs of earlier runs of this folder, with results here, that the job file above \
              leaves out\n",
        );
        text.extend_from_slice(jobs::to_toml(&earlier).as_bytes());
    }
    if std::fs::read(&copy).ok().as_deref() != Some(&text[..]) {
        zermelo_store::atomic_write(&copy, &text)?;
    }
    Ok(())
}

fn install_signal_handler() {
    // ctrlc (with its termination feature) catches SIGINT and SIGTERM, as `grundy octal` does.
    // The first signal is forwarded to the job, which checkpoints and exits; the second kills
    // it and leaves. Every file is written atomically, so stopping anywhere corrupts nothing.
    let _ = ctrlc::set_handler(|| {
        let n = SIGNALS.fetch_add(1, Ordering::SeqCst) + 1;
        let child = CHILD.load(Ordering::SeqCst);
        if n == 1 {
            if child > 0 {
                let _ = kill(Pid::from_raw(child), Signal::SIGTERM);
            }
        } else {
            if child > 0 {
                let _ = kill(Pid::from_raw(child), Signal::SIGKILL);
            }
            errln!(
                "zermelo: stopped at once; finished results are kept, run the same command to \
                 go on"
            );
            std::process::exit(130);
        }
    });
}

/// The latest line a job wrote to stderr (its progress, or its error), and when it came.
#[derive(Default)]
struct JobLine {
    text: String,
    at: Option<Instant>,
}

enum Outcome {
    Done,
    Failed(String),
    Interrupted(String),
}

/// Runs one job in a child process and writes its record.
fn run_job(dir: &Path, job: &Job, shard: Shard, display: &Display) -> anyhow::Result<Outcome> {
    let Some(_job_lock) = lock_job(&job_lock_path(dir, &job.name))? else {
        bail!(
            "job {:?} in {} is being run by another zermelo batch",
            job.name,
            dir.display()
        );
    };
    remove_stale_temporaries(dir, job);
    let mut resume = false;
    // A stream folder is checked piece by piece by the command that resumes it, which refuses
    // a damaged one with its reason rather than losing every piece.
    if let Some(t) = job.table_file().filter(|_| !job.streams()) {
        let path = dir.join(t);
        if path.exists() {
            match crate::grundy::read_table(&path) {
                Ok(_) => resume = true,
                Err(e) => {
                    display.say(&format!("{}: {e:#}; starting over", job.name));
                    std::fs::remove_file(&path)?;
                }
            }
        }
    }
    let args = job.command(dir, resume);
    let exe = std::env::current_exe().context("cannot find the zermelo executable")?;
    let mut command = Command::new(exe);
    command
        .args(&args)
        .env(PARENT_ENV, std::process::id().to_string())
        // The job's progress lines feed the runner's job bar (every second) or its log lines.
        .env(
            LOG_EVERY_ENV,
            display.child_log_every().as_secs().to_string(),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group: a Ctrl-C on the terminal reaches the runner only, which
        // forwards it, so the job never dies before the runner knows it was asked to stop.
        .process_group(0);
    if matches!(job.kind, Kind::GrundyOctal { .. }) && job.threads > 0 {
        // The octal command sizes its thread pool like rayon does: from this variable.
        command.env("RAYON_NUM_THREADS", job.threads.to_string());
    }
    let cpu_before = children_cpu();
    let started = SystemTime::now();
    let clock = Instant::now();
    let mut child = command.spawn().context("cannot start a job")?;
    CHILD.store(child.id() as i32, Ordering::SeqCst);
    display.start(job);
    let stdout = reader(child.stdout.take(), |mut r| {
        let mut s = String::new();
        let _ = r.read_to_string(&mut s);
        s
    });
    let last_line = Arc::new(Mutex::new(JobLine::default()));
    let stderr = {
        let last = Arc::clone(&last_line);
        reader(child.stderr.take(), move |r| {
            for line in BufReader::new(r).lines().map_while(Result::ok) {
                if !line.trim().is_empty() {
                    *last.lock().expect("stderr lock") = JobLine {
                        text: line,
                        at: Some(Instant::now()),
                    };
                }
            }
        })
    };
    let deadline = job.time_limit.map(Duration::from_secs);
    let mut out_of_time = false;
    let mut stopping: Option<Instant> = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if SIGNALS.load(Ordering::SeqCst) > 0 && stopping.is_none() {
            // The handler has sent SIGTERM already if the child was known to it.
            signal(&child, Signal::SIGTERM);
            stopping = Some(Instant::now());
        }
        if let Some(limit) = deadline {
            if !out_of_time && clock.elapsed() >= limit {
                out_of_time = true;
                signal(&child, Signal::SIGTERM);
                stopping = Some(Instant::now());
            }
        }
        if stopping.is_some_and(|t| t.elapsed() >= GRACE) {
            let _ = child.kill();
        }
        display.tick(
            job,
            clock.elapsed(),
            &last_line.lock().expect("stderr lock"),
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    CHILD.store(0, Ordering::SeqCst);
    let wall = clock.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu_before;
    let stdout = stdout.join().unwrap_or_default();
    let _ = stderr.join();
    let last = last_line.lock().expect("stderr lock").text.clone();
    let finished = SystemTime::now();
    let mut provenance = json!({
        "zermelo_version": env!("CARGO_PKG_VERSION"),
        "command": std::iter::once("zermelo".to_string())
            .chain(job.command_line(dir, resume))
            .collect::<Vec<_>>(),
        "started": utc(started),
        "finished": utc(finished),
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "tt_mb": job.tt_mb,
        "time_limit": job.time_limit,
        "shard": shard.to_string(),
        "host": hostname(),
    });
    // A job killed by SIGTERM or SIGINT from outside (a scheduler signalling every process of
    // the job) was stopped, not failed: it is left to be rerun, like an interrupted one.
    let stopped = matches!(status.signal(), Some(s) if s == Signal::SIGTERM as i32 || s == Signal::SIGINT as i32)
        && !out_of_time;
    if (SIGNALS.load(Ordering::SeqCst) > 0 || stopped) && !status.success() {
        display.end(job, "interrupted", wall);
        return Ok(Outcome::Interrupted(match job.table_file() {
            Some(t) if dir.join(&t).exists() => {
                format!("job {} checkpointed to {}", job.name, dir.join(t).display())
            }
            _ => format!("job {} stopped; it will be rerun", job.name),
        }));
    }
    let output: Option<Value> = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str(l).ok());
    let record = match (status.success(), output) {
        (true, Some(output)) => {
            let result = split_result(job, output, &mut provenance, wall);
            json!({"status": "done", "job": job.identity(), "result": result,
                   "provenance": provenance})
        }
        _ => {
            let reason = if out_of_time {
                format!(
                    "out of time (limit {} s){}",
                    job.time_limit.unwrap_or(0),
                    if job.table_file().is_some() {
                        "; checkpointed, a rerun resumes it"
                    } else {
                        ""
                    }
                )
            } else if let Some(code) = status.code() {
                let why = last
                    .trim_start_matches("zermelo: error: ")
                    .trim_start_matches("zermelo: ")
                    .trim_end_matches(" (see --help)")
                    .trim();
                format!(
                    "{} (exit status {code})",
                    if why.is_empty() { "no message" } else { why }
                )
            } else {
                format!("killed by a signal ({status}); out of memory?")
            };
            json!({"status": "failed", "job": job.identity(), "reason": reason,
                   "provenance": provenance})
        }
    };
    zermelo_store::json::write(&record_path(dir, &job.name), &record)?;
    if record["status"] == "done" {
        display.end(job, &format!("done in {wall:.1} s"), wall);
        Ok(Outcome::Done)
    } else {
        let reason = record["reason"].as_str().unwrap_or_default().to_string();
        display.end(job, &format!("failed: {reason}"), wall);
        Ok(Outcome::Failed(reason))
    }
}

/// Removes the temporary files that a write of the job's record or table killed halfway left
/// behind (a Grundy table's can be large). Holding the job's lock, no one else writes them.
fn remove_stale_temporaries(dir: &Path, job: &Job) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let stems: Vec<String> = std::iter::once(format!("{}.json", job.name))
        .chain(job.table_file())
        .map(|file| format!(".{file}."))
        .collect();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        // The store names them .FILE.PID.tmp.
        let stale = stems.iter().any(|stem| {
            name.strip_prefix(stem.as_str())
                .and_then(|rest| rest.strip_suffix(".tmp"))
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        });
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn signal(child: &Child, sig: Signal) {
    let _ = kill(Pid::from_raw(child.id() as i32), sig);
}

/// Reads a child's pipe on a thread of its own, so that neither pipe can fill up and block it.
fn reader<R: Read + Send + 'static, T: Default + Send + 'static>(
    pipe: Option<R>,
    f: impl FnOnce(R) -> T + Send + 'static,
) -> std::thread::JoinHandle<T> {
    std::thread::spawn(move || pipe.map(f).unwrap_or_default())
}

/// CPU seconds (user and system) of the children waited for so far.
fn children_cpu() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0.0, |u| {
        let s = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 * 1e-6;
        s(u.user_time()) + s(u.system_time())
    })
}

fn hostname() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .or_else(|| std::env::var("HOSTNAME").ok())
}

/// Splits a command's JSON output into the result proper and the facts of the run, which go to
/// `provenance` with the rate (nodes or values per second).
fn split_result(job: &Job, mut output: Value, provenance: &mut Value, wall: f64) -> Value {
    let mut nodes = 0u64;
    if let Value::Object(map) = &mut output {
        for key in RUN_KEYS {
            if let Some(v) = map.remove(*key) {
                if *key == "nodes" {
                    nodes = v.as_u64().unwrap_or(0);
                } else if *key != "out" && *key != "seconds" && *key != "wall_seconds" {
                    provenance[*key] = v;
                }
            }
        }
    }
    let nested = strip_run_keys(&mut output);
    let rate = |n: u64| n as f64 / wall.max(1e-9);
    match &job.kind {
        Kind::GrundyOctal { .. } => {
            let from = provenance["resumed_from"].as_u64().unwrap_or(0);
            let computed = output["computed"].as_u64().map_or(0, |c| c + 1);
            let new = computed.saturating_sub(from);
            provenance["values_computed"] = json!(new);
            provenance["values_per_second"] = json!(rate(new));
            // The octal engine uses at most two threads (one scans ahead for the other).
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let pool = if job.threads > 0 { job.threads } else { cores };
            provenance["threads"] = json!(pool.min(2));
            output["table"] = json!(job.table_file());
        }
        _ => {
            let nodes = if nodes > 0 { nodes } else { nested };
            provenance["nodes"] = json!(nodes);
            provenance["nodes_per_second"] = json!(rate(nodes));
        }
    }
    output
}

/// Removes run facts from every object inside `value` (per-opening node counts, per-size
/// seconds), returning the nodes found.
fn strip_run_keys(value: &mut Value) -> u64 {
    match value {
        Value::Object(map) => {
            let mut nodes = 0;
            for key in RUN_KEYS {
                if let Some(v) = map.remove(*key) {
                    if *key == "nodes" {
                        nodes += v.as_u64().unwrap_or(0);
                    }
                }
            }
            nodes + map.values_mut().map(strip_run_keys).sum::<u64>()
        }
        Value::Array(items) => items.iter_mut().map(strip_run_keys).sum(),
        _ => 0,
    }
}

/// What the runner shows: on a terminal an overall bar (jobs done of the shard's, ETA) and a
/// bar for the running job; otherwise a plain line every `log_every`, and one per job started
/// or ended.
struct Display {
    bars: Option<(MultiProgress, ProgressBar, ProgressBar)>,
    total: usize,
    state: Mutex<Tally>,
    log_every: Duration,
    start: Instant,
    shard: Shard,
}

/// The jobs ended so far, and what the runner has measured of them.
struct Tally {
    ended: usize,
    /// Jobs that ran (not skipped as already done) and their wall time, for the ETA.
    ran: usize,
    ran_secs: f64,
    last_log: Instant,
    /// When the job line shown last came, to tell a fresh line from a repeated one.
    shown_line_at: Option<Instant>,
}

impl Display {
    fn new(jobs: &[Job], shard: Shard, log_every: Duration) -> Display {
        let bars = std::io::stderr().is_terminal().then(|| {
            let multi = MultiProgress::new();
            let overall = multi.add(ProgressBar::new(jobs.len() as u64));
            overall.set_style(
                ProgressStyle::with_template(
                    "batch [{elapsed_precise}] {wide_bar} {pos}/{len} jobs {msg}",
                )
                .expect("the template is valid"),
            );
            let job = multi.add(ProgressBar::new_spinner());
            job.set_style(
                ProgressStyle::with_template("{spinner} {prefix} [{elapsed_precise}] {wide_msg}")
                    .expect("the template is valid"),
            );
            // Both clocks keep moving while a long job runs.
            overall.enable_steady_tick(Duration::from_secs(1));
            job.enable_steady_tick(Duration::from_secs(1));
            (multi, overall, job)
        });
        Display {
            bars,
            total: jobs.len(),
            state: Mutex::new(Tally {
                ended: 0,
                ran: 0,
                ran_secs: 0.0,
                last_log: Instant::now(),
                shown_line_at: None,
            }),
            log_every,
            start: Instant::now(),
            shard,
        }
    }

    /// How often the job should report: every second for the bar, else as often as the log.
    fn child_log_every(&self) -> Duration {
        if self.bars.is_some() {
            Duration::from_secs(1)
        } else {
            self.log_every
        }
    }

    fn say(&self, line: &str) {
        match &self.bars {
            Some((multi, ..)) => {
                let _ = multi.println(line);
            }
            None => errln!("batch: {line}"),
        }
    }

    fn ended(&self, ran: Option<f64>) {
        let mut p = self.state.lock().expect("display lock");
        p.ended += 1;
        if let Some(secs) = ran {
            p.ran += 1;
            p.ran_secs += secs;
        }
        if let Some((_, overall, _)) = &self.bars {
            overall.set_position(p.ended as u64);
            let waiting = self.total - p.ended;
            overall.set_message(eta(p.ran, p.ran_secs, waiting, None).unwrap_or_default());
        }
        p.shown_line_at = None;
    }

    fn skip(&self, job: &Job) {
        self.say(&format!("{}: already done", job.name));
        self.ended(None);
    }

    fn start(&self, job: &Job) {
        match &self.bars {
            Some((_, _, bar)) => {
                bar.reset_elapsed();
                bar.set_prefix(job.name.clone());
                bar.set_message("starting");
            }
            None => errln!("batch: {} started ({})", job.name, job.kind_name()),
        }
    }

    fn end(&self, job: &Job, what: &str, wall: f64) {
        self.say(&format!("{}: {what}", job.name));
        self.ended(Some(wall));
    }

    fn tick(&self, job: &Job, elapsed: Duration, last: &JobLine) {
        // The job's own lines start with its elapsed time, which the bar shows already.
        let text = match last.text.split_once("] ") {
            Some((time, rest)) if time.starts_with('[') => rest,
            _ => &last.text,
        };
        let mut p = self.state.lock().expect("display lock");
        // Jobs not started yet: all but the running one.
        let waiting = self.total - p.ended - 1;
        let eta = eta(p.ran, p.ran_secs, waiting, job_eta(text));
        if let Some((_, overall, bar)) = &self.bars {
            bar.set_message(text.to_string());
            overall.set_message(eta.unwrap_or_default());
            return;
        }
        if p.last_log.elapsed() < self.log_every {
            return;
        }
        p.last_log = Instant::now();
        // A line the job wrote before the last log line is not news: say how old it is.
        let news = match last.at {
            None => "started".to_string(),
            Some(at) if p.shown_line_at == Some(at) => {
                format!(
                    "no new line for {:.0} s; last: {text}",
                    at.elapsed().as_secs_f64()
                )
            }
            Some(_) => text.to_string(),
        };
        p.shown_line_at = last.at;
        errln!(
            "[{:>8.1} s] batch{}: {}/{} jobs ended{}; {} running {:.0} s: {news}",
            self.start.elapsed().as_secs_f64(),
            if self.shard == Shard::ALL {
                String::new()
            } else {
                format!(" shard {}", self.shard)
            },
            p.ended,
            self.total,
            eta.map(|e| format!(", {e}")).unwrap_or_default(),
            job.name,
            elapsed.as_secs_f64(),
        );
    }

    fn finish(&self) {
        if let Some((multi, overall, job)) = &self.bars {
            job.finish_and_clear();
            overall.finish_and_clear();
            let _ = multi.clear();
        }
    }
}

/// The time the batch has left, from what was measured: the running job's own estimate (from
/// its progress line, when it gives one) plus, for the `waiting` jobs not started, the mean wall
/// time of the `ran` jobs that ran. `None` while nothing has been measured.
fn eta(ran: usize, ran_secs: f64, waiting: usize, running: Option<f64>) -> Option<String> {
    let mean = (ran > 0).then(|| ran_secs / ran as f64);
    let running_part = running.map(|s| format!("the running job's own {s:.0} s"));
    match (waiting, mean) {
        (0, _) => running_part.map(|p| format!("eta {:.0} s ({p})", running.unwrap_or(0.0))),
        (_, None) => None,
        (w, Some(mean)) => {
            let total = running.unwrap_or(0.0) + mean * w as f64;
            let measured = format!(
                "{w} job{} to start at the {mean:.1} s mean of {ran} run",
                if w == 1 { "" } else { "s" }
            );
            Some(match running_part {
                Some(p) => format!("eta {total:.0} s ({p} + {measured})"),
                None => format!("eta {total:.0} s ({measured}, + the running job)"),
            })
        }
    }
}

/// The ETA in a job's progress line (`…, eta 12 s) …`), in seconds.
fn job_eta(line: &str) -> Option<f64> {
    let (_, rest) = line.split_once(", eta ")?;
    let (secs, _) = rest.split_once(" s)")?;
    secs.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eta_comes_from_measured_times_and_says_so() {
        // Nothing measured yet: no figure rather than a guess.
        assert_eq!(eta(0, 0.0, 3, None), None);
        // Three jobs took 30 s in all; two wait; the running job says 5 s.
        assert_eq!(
            eta(3, 30.0, 2, Some(5.0)).unwrap(),
            "eta 25 s (the running job's own 5 s + 2 jobs to start at the 10.0 s mean of 3 run)"
        );
        assert_eq!(
            eta(3, 30.0, 1, None).unwrap(),
            "eta 10 s (1 job to start at the 10.0 s mean of 3 run, + the running job)"
        );
        assert_eq!(
            eta(3, 30.0, 0, Some(7.0)).unwrap(),
            "eta 7 s (the running job's own 7 s)"
        );
        assert_eq!(
            job_eta("grundy 0.6: 1/9 values (2.00/s, eta 4 s) n=2"),
            Some(4.0)
        );
        assert_eq!(job_eta("hex solve: 10 nodes (2.00/s) solved"), None);
    }
}
