//! `zermelo batch run`: the runner.
//!
//! Each job runs in a child process: the runner starts the zermelo executable with the job's
//! `hex …` or `grundy …` command and `--json`. The Hex solver has no cancellation hook, so a
//! separate process is what lets a time limit stop a job (SIGTERM, then SIGKILL after a grace
//! period); it also keeps a crash or an out-of-memory kill inside one job, and reuses the
//! commands' own checkpoints (Grundy tables checkpoint on SIGTERM and resume with --resume).
//! The runner alone writes records, each atomically, so a kill -9 at any moment leaves every
//! file either complete or absent.
//!
//! A runner may run several jobs at once (`parallel`), each in its own child process: on a
//! machine with many cores, jobs side by side use them better than one job's threads do (a
//! solver's threads share one search tree and gain less than one each).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use nix::fcntl::Flock;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value};

use crate::jobs::{self, Job, Kind};
use crate::shard::Shard;
use crate::{
    chain, job_lock_path, lock_job, record_path, state, try_lock, utc, Error, Result, State,
    JOBS_COPY,
};

/// What a batch run is asked to do.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The job file (TOML).
    pub jobs: PathBuf,
    /// The results folder (created if needed). Running again skips finished jobs.
    pub out: PathBuf,
    /// Only the jobs of these names (all of them when empty); the shard is dealt from them.
    pub only: Vec<String>,
    /// The shard of the job list to run.
    pub shard: Shard,
    /// Threads for jobs whose job file does not set them.
    pub threads: Option<usize>,
    /// How many jobs run at once (at least 1), each in its own process.
    pub parallel: usize,
    /// The zermelo executable that computes each job.
    pub exe: PathBuf,
}

/// What a runner tells of its progress. The runner calls it from the threads that run its
/// jobs, one thread a job running at once (see [`RunOptions::parallel`]).
pub trait Observer: Sync {
    /// How often a job should write its progress line to stderr (the job's
    /// [`LOG_EVERY_ENV`]): its latest line comes back in [`Observer::tick`].
    fn child_log_every(&self) -> Duration;
    /// A note about a job's files (a corrupt file that is redone, a checkpoint that is not
    /// resumed).
    fn say(&self, line: &str);
    /// A job skipped as already done.
    fn skip(&self, job: &Job);
    /// A job started.
    fn start(&self, job: &Job);
    /// A job ended (`done in …`, `failed: …`, `interrupted`) after `wall` seconds.
    fn end(&self, job: &Job, what: &str, wall: f64);
    /// A job running for `elapsed`, with the latest line it wrote: called every 50 ms.
    fn tick(&self, job: &Job, elapsed: Duration, last: &JobLine);
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
    "proofs_loaded",
    "proofs_saved",
    "open_restored",
];
/// The environment variable that tells a child zermelo its runner's pid: the child dies with
/// its runner (zermelo sets its parent-death signal).
pub const PARENT_ENV: &str = "ZERMELO_BATCH_PARENT";
/// The environment variable that sets the seconds between a job's progress lines on stderr
/// (and asks for them even under `--json`).
pub const LOG_EVERY_ENV: &str = "ZERMELO_LOG_EVERY";

/// The signals a runner received, and the jobs it is running: the first signal stops the jobs
/// after a checkpoint, the second at once.
#[derive(Debug, Default)]
pub struct Stop {
    /// Signals received.
    signals: AtomicUsize,
    /// The running jobs' pids, for the signals to reach.
    children: Mutex<Vec<i32>>,
}

impl Stop {
    /// Tells the runner of a signal (from a SIGINT or SIGTERM handler, which ctrlc runs on a
    /// thread of its own): the first is forwarded to the running jobs as SIGTERM, which
    /// checkpoint and exit, and no job starts after it; a second kills them with SIGKILL.
    /// Returns how many signals came so far, so that the handler leaves at once on the second.
    /// Every file is written atomically, so stopping anywhere corrupts nothing.
    pub fn signal(&self) -> usize {
        let n = self.signals.fetch_add(1, Ordering::SeqCst) + 1;
        for &child in self.children.lock().expect("stop lock").iter() {
            Self::send(child, n);
        }
        n
    }

    /// Sends a job what `signals` signals ask for: nothing, SIGTERM after the first, SIGKILL
    /// after more.
    fn send(pid: i32, signals: usize) {
        let sig = match signals {
            0 => return,
            1 => Signal::SIGTERM,
            _ => Signal::SIGKILL,
        };
        let _ = kill(Pid::from_raw(pid), sig);
    }

    /// Keeps a started job's pid for the signals. A job started as a signal came gets it now:
    /// under the lock, either [`Stop::signal`] sees the pid or this sees the signal.
    fn track(&self, pid: i32) {
        let mut children = self.children.lock().expect("stop lock");
        children.push(pid);
        Self::send(pid, self.signals.load(Ordering::SeqCst));
    }

    fn stopping(&self) -> bool {
        self.signals.load(Ordering::SeqCst) > 0
    }
}

/// What a finished batch run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Jobs done, now or before.
    pub done: usize,
    /// The jobs of the shard.
    pub total: usize,
    /// The jobs that failed, each `NAME: reason`.
    pub failed: Vec<String>,
}

/// A batch run whose folder is ready: its jobs selected, the folder's shard lock held and the
/// job file's copy kept.
pub struct Batch {
    dir: PathBuf,
    exe: PathBuf,
    shard: Shard,
    jobs: Vec<Job>,
    parallel: usize,
    stop: Arc<Stop>,
    _lock: Flock<File>,
}

impl Batch {
    /// Reads the job file, selects the shard's jobs, creates the results folder and takes its
    /// lock for the shard (refused while another runner holds it).
    pub fn open(args: &RunOptions) -> Result<Batch> {
        let all = jobs::load(&args.jobs)?;
        let chosen = only(&all, &args.only, &args.jobs)?;
        let shard = args.shard;
        let mine: Vec<Job> = shard
            .select(&chosen)
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
        std::fs::create_dir_all(dir)
            .map_err(Error::io(format!("cannot create {}", dir.display())))?;
        let lock_path = dir.join(format!(".lock.{}-of-{}", shard.index, shard.count));
        let Some(mut lock) = try_lock(&lock_path)? else {
            let pid = std::fs::read_to_string(&lock_path).unwrap_or_default();
            bail!(
                Folder,
                "{} is in use by another zermelo batch run of shard {shard} (pid {}); wait for \
                 it or stop it",
                dir.display(),
                pid.trim()
            );
        };
        {
            use std::io::{Seek, Write};
            let io = Error::io(format!("cannot write {}", lock_path.display()));
            lock.set_len(0)
                .and_then(|()| lock.seek(std::io::SeekFrom::Start(0)))
                .and_then(|_| writeln!(lock, "{}", std::process::id()))
                .map_err(io)?;
        }
        keep_job_file(dir, &args.jobs, &all)?;
        Ok(Batch {
            dir: dir.clone(),
            exe: args.exe.clone(),
            shard,
            jobs: mine,
            parallel: args.parallel.max(1),
            stop: Arc::new(Stop::default()),
            _lock: lock,
        })
    }

    /// The jobs of the shard, in job-file order.
    #[must_use]
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The shard run.
    #[must_use]
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// What a signal handler tells the run.
    #[must_use]
    pub fn stop(&self) -> Arc<Stop> {
        Arc::clone(&self.stop)
    }

    /// Runs the jobs not done yet, in job-file order, [`RunOptions::parallel`] at a time, each
    /// in a child process, writing their records. A job that fails is recorded and the run goes
    /// on; a signal ([`Stop`]) ends it with [`Error::Interrupted`] once the running jobs have
    /// checkpointed; any other error starts no more jobs and ends it once the running ones
    /// have ended.
    pub fn run(self, display: &dyn Observer) -> Result<Summary> {
        let mine = &self.jobs;
        let next = AtomicUsize::new(0);
        let tally = Mutex::new(Tally::default());
        let workers = self.parallel.min(mine.len()).max(1);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| loop {
                    if tally.lock().expect("tally lock").error.is_some() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = mine.get(i) else { return };
                    if self.stop.stopping() {
                        let mut t = tally.lock().expect("tally lock");
                        t.not_started = Some(t.not_started.map_or(i, |n| n.min(i)));
                        return;
                    }
                    let outcome = self.run_one(job, display);
                    let mut t = tally.lock().expect("tally lock");
                    match outcome {
                        Ok(Outcome::Done) => t.done += 1,
                        Ok(Outcome::Failed(reason)) => {
                            t.failed.push((i, format!("{}: {reason}", job.name)));
                        }
                        Ok(Outcome::Interrupted(what)) => t.interrupted.push((i, what)),
                        Err(e) => {
                            if workers > 1 {
                                // The run ends with the error once the running jobs have
                                // ended; it is said now, as that may be hours away.
                                display.say(&format!(
                                    "{}: {}; no job starts after it",
                                    job.name,
                                    chain(&e)
                                ));
                            }
                            t.error.get_or_insert(e);
                        }
                    }
                });
            }
        });
        let mut t = tally.into_inner().expect("tally lock");
        if let Some(e) = t.error {
            return Err(e);
        }
        t.failed.sort();
        t.interrupted.sort();
        let what = if t.interrupted.is_empty() {
            t.not_started
                .map(|i| format!(" before job {}", mine[i].name))
        } else {
            let each: Vec<String> = t.interrupted.into_iter().map(|(_, w)| w).collect();
            Some(format!(": {}", each.join("; ")))
        };
        if let Some(what) = what {
            return Err(Error::Interrupted {
                what,
                done: t.done,
                total: mine.len(),
            });
        }
        Ok(Summary {
            done: t.done,
            total: mine.len(),
            failed: t.failed.into_iter().map(|(_, f)| f).collect(),
        })
    }

    /// Runs one job unless it is done already (then it counts as done).
    fn run_one(&self, job: &Job, display: &dyn Observer) -> Result<Outcome> {
        let dir = &self.dir;
        match state(dir, job)? {
            State::Done(_) => {
                display.skip(job);
                return Ok(Outcome::Done);
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
                Folder,
                "job {:?} in {} is being run by another zermelo batch (with another \
                 --shard?); run one shard per runner",
                job.name,
                dir.display()
            ),
            State::Failed(_) | State::Checkpointed | State::Missing => {}
        }
        run_job(dir, &self.exe, &self.stop, job, self.shard, display)
    }
}

/// What the jobs of a run came to, as its workers end them. Indices are places in the run's
/// job list, so that what is said comes in job-file order whatever order the jobs ended in.
#[derive(Default)]
struct Tally {
    /// Jobs done, now or before.
    done: usize,
    failed: Vec<(usize, String)>,
    /// The jobs a signal stopped, and what became of each.
    interrupted: Vec<(usize, String)>,
    /// The first job that a signal kept from starting.
    not_started: Option<usize>,
    /// The first error other than a job's failure: no job starts after it.
    error: Option<Error>,
}

/// Keeps a copy of the job file in the folder, so that `status`, `report` and `merge` know the
/// whole list. A folder used with another job file is refused where the two disagree on a job.
/// Jobs of the folder's earlier list that the new file leaves out stay in the copy when the
/// folder holds files of theirs (a record or a table): a run with a part of the job file must
/// not hide results already computed.
/// The jobs of `all` named in `names`, in job-file order; all of them when `names` is empty.
/// A name that no job has is an error, so that a typo does not quietly run nothing.
fn only(all: &[Job], names: &[String], path: &Path) -> Result<Vec<Job>> {
    if names.is_empty() {
        return Ok(all.to_vec());
    }
    if let Some(missing) = names.iter().find(|n| !all.iter().any(|j| &j.name == *n)) {
        bail!(
            Invalid,
            "--only {missing:?}: {} has no job of that name",
            path.display()
        );
    }
    Ok(all
        .iter()
        .filter(|j| names.contains(&j.name))
        .cloned()
        .collect())
}

fn keep_job_file(dir: &Path, path: &Path, all: &[Job]) -> Result<()> {
    let copy = dir.join(JOBS_COPY);
    let mut earlier = Vec::new();
    if copy.exists() {
        let kept = jobs::load(&copy)?;
        for old in &kept {
            if let Some(new) = all.iter().find(|j| j.name == old.name) {
                if new.identity() != old.identity() {
                    bail!(
                        Folder,
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
                    || old.checkpoint_file().is_some_and(|t| dir.join(t).exists())
            })
            .collect();
    }
    let mut text =
        std::fs::read(path).map_err(Error::io(format!("cannot read {}", path.display())))?;
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

/// The latest line a job wrote to stderr (its progress, or its error), and when it came.
#[derive(Debug, Clone, Default)]
pub struct JobLine {
    /// The line.
    pub text: String,
    /// When it came; `None` before the job wrote any.
    pub at: Option<Instant>,
}

enum Outcome {
    Done,
    Failed(String),
    Interrupted(String),
}

/// Runs one job in a child process and writes its record.
fn run_job(
    dir: &Path,
    exe: &Path,
    stop: &Stop,
    job: &Job,
    shard: Shard,
    display: &dyn Observer,
) -> Result<Outcome> {
    let Some(_job_lock) = lock_job(&job_lock_path(dir, &job.name))? else {
        bail!(
            Folder,
            "job {:?} in {} is being run by another zermelo batch",
            job.name,
            dir.display()
        );
    };
    remove_stale_temporaries(dir, job);
    let mut resume = false;
    // A stream folder is checked piece by piece by the command that resumes it, which refuses
    // a damaged one with its reason rather than losing every piece; only its manifest is read
    // here, for the log.
    if let Some(t) = job.table_file().filter(|_| job.streams()) {
        if let Ok((length, target)) = crate::stream::recorded(&dir.join(t)) {
            if length > 0 {
                display.say(&format!(
                    "{}: resuming from its checkpoint ({length} of {} values)",
                    job.name,
                    target.saturating_add(1)
                ));
            }
        }
    }
    if let Some(t) = job.table_file().filter(|_| !job.streams()) {
        let path = dir.join(t);
        if path.exists() {
            match crate::table::read(&path) {
                Ok(table) => {
                    // Said in the log, so that a requeued or resubmitted task shows it went on
                    // from its checkpoint rather than from the start.
                    display.say(&format!(
                        "{}: resuming from its checkpoint ({} of {} values)",
                        job.name,
                        table.values.len(),
                        table.target.saturating_add(1)
                    ));
                    resume = true;
                }
                Err(e) => {
                    display.say(&format!("{}: {}; starting over", job.name, chain(&e)));
                    remove(&path)?;
                }
            }
        }
    }
    if let Some(p) = job.proofs_file() {
        let path = dir.join(p);
        if path.exists() {
            if let Err(e) = crate::proofs::read(&path) {
                display.say(&format!("{}: {}; starting over", job.name, chain(&e)));
                remove(&path)?;
            }
        }
        // The open entries only speed a rerun up: damaged ones are dropped, the proofs kept.
        if let Err(e) = crate::proofs::read_open(&path) {
            display.say(&format!(
                "{}: {}; going on from the proofs alone",
                job.name,
                chain(&e)
            ));
            remove(&crate::proofs::open_path(&path))?;
        }
    }
    let args = job.command(dir, resume);
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
    let started = SystemTime::now();
    let clock = Instant::now();
    if stop.stopping() {
        // The checks above can take a while; a job asked to stop before it starts is not
        // started.
        return Ok(Outcome::Interrupted(format!(
            "job {} not started",
            job.name
        )));
    }
    let mut child = command.spawn().map_err(Error::io("cannot start a job"))?;
    stop.track(child.id() as i32);
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
    let (status, cpu) = loop {
        if let Some(ended) = reap(&mut child, stop)
            .map_err(Error::io(format!("cannot wait for job {}", job.name)))?
        {
            break ended;
        }
        if stop.stopping() && stopping.is_none() {
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
    let wall = clock.elapsed().as_secs_f64();
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
    if (stop.stopping() || stopped) && !status.success() {
        add_part(dir, job, wall, cpu, nodes_in(&last))?;
        display.end(job, "interrupted", wall);
        return Ok(Outcome::Interrupted(match job.checkpoint_file() {
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
            add_earlier_parts(dir, job, &mut provenance)?;
            json!({"status": "done", "job": job.identity(), "result": result,
                   "provenance": provenance})
        }
        _ => {
            let reason = if out_of_time {
                format!(
                    "out of time (limit {} s){}",
                    job.time_limit.unwrap_or(0),
                    if job.checkpoint_file().is_some() {
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
    let parts = parts_path(dir, &job.name);
    if record["status"] == "done" && parts.exists() {
        // The record holds their sums now.
        remove(&parts)?;
    }
    if record["status"] == "done" {
        display.end(job, &format!("done in {wall:.1} s"), wall);
        Ok(Outcome::Done)
    } else {
        let reason = record["reason"].as_str().unwrap_or_default().to_string();
        display.end(job, &format!("failed: {reason}"), wall);
        Ok(Outcome::Failed(reason))
    }
}

/// The file where a job's interrupted runs add up what they spent: `NAME.parts.json`.
fn parts_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.parts.json"))
}

/// The node count in a child's last line: its progress line (`… 138240 nodes …`) or the line
/// a search stopped by a signal ends with (`interrupted after 138240 nodes; …`).
fn nodes_in(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[1].trim_end_matches([';', ',']) == "nodes")
        .and_then(|w| w[0].parse().ok())
}

/// Adds an interrupted run of `job` to its parts file (written atomically, with a checksum),
/// so that the record of the run that finishes it tells the whole time it took.
fn add_part(dir: &Path, job: &Job, wall: f64, cpu: f64, nodes: Option<u64>) -> Result<()> {
    let path = parts_path(dir, &job.name);
    let mut parts = if path.exists() {
        // The writer replaces the checksum read with a fresh one.
        zermelo_store::json::read(&path)?
    } else {
        json!({"parts": 0, "wall_seconds": 0.0, "cpu_seconds": 0.0, "nodes": 0})
    };
    let add = |v: &Value, x: f64| json!(v.as_f64().unwrap_or(0.0) + x);
    parts["parts"] = json!(parts["parts"].as_u64().unwrap_or(0) + 1);
    parts["wall_seconds"] = add(&parts["wall_seconds"], wall);
    parts["cpu_seconds"] = add(&parts["cpu_seconds"], cpu);
    parts["nodes"] = json!(parts["nodes"].as_u64().unwrap_or(0) + nodes.unwrap_or(0));
    if nodes.is_none() {
        parts["nodes_unknown_parts"] =
            json!(parts["nodes_unknown_parts"].as_u64().unwrap_or(0) + 1);
    }
    zermelo_store::json::write(&path, &parts)?;
    Ok(())
}

/// Puts the interrupted runs of `job` (its parts file), if any, into the provenance of the run
/// that finished it, with the totals: `total_wall_seconds`, `total_cpu_seconds` and
/// `total_nodes` (a run killed with no line of its nodes adds none: `nodes_unknown_parts` counts
/// those).
fn add_earlier_parts(dir: &Path, job: &Job, provenance: &mut Value) -> Result<()> {
    let path = parts_path(dir, &job.name);
    if !path.exists() {
        return Ok(());
    }
    let mut parts = zermelo_store::json::read(&path)?;
    // The record has a checksum of its own.
    if let Value::Object(map) = &mut parts {
        map.remove(zermelo_store::json::CHECKSUM_FIELD);
    }
    let sum = |key: &str, own: &Value| {
        json!(parts[key].as_f64().unwrap_or(0.0) + own[key].as_f64().unwrap_or(0.0))
    };
    let (wall, cpu) = (
        sum("wall_seconds", provenance),
        sum("cpu_seconds", provenance),
    );
    let nodes = parts["nodes"].as_u64().unwrap_or(0) + provenance["nodes"].as_u64().unwrap_or(0);
    provenance["total_wall_seconds"] = wall;
    provenance["total_cpu_seconds"] = cpu;
    provenance["total_nodes"] = json!(nodes);
    provenance["earlier_parts"] = parts;
    Ok(())
}

/// Removes a file that is to be rewritten.
fn remove(path: &Path) -> Result<()> {
    std::fs::remove_file(path).map_err(Error::io(format!("cannot remove {}", path.display())))
}

/// Removes the temporary files that a write of the job's record or table killed halfway left
/// behind (a Grundy table's can be large). Holding the job's lock, no one else writes them.
fn remove_stale_temporaries(dir: &Path, job: &Job) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let stems: Vec<String> = [
        format!("{}.json", job.name),
        format!("{}.parts.json", job.name),
    ]
    .into_iter()
    .chain(job.checkpoint_file())
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

/// Reaps `child` if it has ended: its exit status and the CPU time it spent, user and system.
/// The time is what reaping it adds to the runner's children's (getrusage), measured around the
/// reaping under one lock for the whole process, so that jobs ending at once on other threads
/// never count in it. Its pid leaves `stop` in the same step, under `stop`'s lock, so that no
/// signal is sent to a pid the system may have given to another process since.
fn reap(
    child: &mut Child,
    stop: &Stop,
) -> std::io::Result<Option<(std::process::ExitStatus, f64)>> {
    static REAPING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = REAPING.lock().expect("reaping lock");
    let mut children = stop.children.lock().expect("stop lock");
    let before = children_cpu();
    let Some(status) = child.try_wait()? else {
        return Ok(None);
    };
    let cpu = children_cpu() - before;
    children.retain(|&c| c != child.id() as i32);
    Ok(Some((status, cpu)))
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
            // The octal engine uses at most two threads (both compute each block of heaps, from its two ends).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nodes_of_a_childs_last_line() {
        assert_eq!(nodes_in("hex solve: 138240 nodes (2.30k/s)"), Some(138_240));
        let line = "zermelo: error: interrupted after 5120 nodes; 3 proofs (1 new) saved to x";
        assert_eq!(nodes_in(line), Some(5120));
        assert_eq!(nodes_in("grundy octal: 1200 values"), None);
    }

    #[test]
    fn interrupted_runs_add_up_in_the_record_of_the_run_that_finishes() {
        let tmp = tempfile::tempdir().unwrap();
        let jobs = crate::jobs::parse(
            "[[job]]\nname = \"a\"\nkind = \"hex-solve\"\nsize = 4\nmoves = \"a1\"\n",
        )
        .unwrap();
        let job = &jobs[0];
        add_part(tmp.path(), job, 10.0, 18.0, Some(1000)).unwrap();
        add_part(tmp.path(), job, 5.0, 9.0, None).unwrap();
        let mut provenance = json!({"wall_seconds": 2.0, "cpu_seconds": 3.0, "nodes": 7});
        add_earlier_parts(tmp.path(), job, &mut provenance).unwrap();
        assert_eq!(provenance["total_wall_seconds"], 17.0);
        assert_eq!(provenance["total_cpu_seconds"], 30.0);
        assert_eq!(provenance["total_nodes"], 1007);
        assert_eq!(provenance["earlier_parts"]["parts"], 2);
        assert_eq!(provenance["earlier_parts"]["nodes_unknown_parts"], 1);
        // A job with no parts file keeps its own figures alone.
        let mut alone = json!({"wall_seconds": 2.0});
        let other = crate::jobs::parse(
            "[[job]]\nname = \"b\"\nkind = \"hex-solve\"\nsize = 4\nmoves = \"a2\"\n",
        )
        .unwrap();
        add_earlier_parts(tmp.path(), &other[0], &mut alone).unwrap();
        assert_eq!(alone, json!({"wall_seconds": 2.0}));
    }

    #[test]
    fn what_a_proofs_file_did_is_a_fact_of_the_run_not_of_the_result() {
        // A job resumed from its proofs restores open entries, a fresh one does not: both must
        // hold the same result, or `batch merge` refuses them.
        let result = json!({"winner": "white", "winning_move": "d4"});
        for kept in [
            crate::proofs::Kept::default(),
            crate::proofs::Kept {
                loaded: 12,
                saved: 3,
                open_restored: 8380,
            },
        ] {
            let mut doc = json!({"solve": result.clone()});
            kept.annotate(&mut doc["solve"]);
            strip_run_keys(&mut doc);
            assert_eq!(doc, json!({"solve": result}));
        }
    }
}
