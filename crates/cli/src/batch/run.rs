//! `zermelo batch run`: the runner (zermelo-batch's [`Batch`]), with what it shows: a bar per
//! job on a terminal, plain log lines otherwise.

use crate::output::{errln, outln};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use zermelo_batch::{Batch, Job, JobLine, Observer, RunOptions, Shard, Stop};

/// Run the jobs of a job file; results go to --out, one file per job.
#[derive(clap::Args)]
pub struct Args {
    /// The job file (TOML).
    jobs: PathBuf,
    /// The results folder (created if needed). Running again skips finished jobs.
    #[arg(long)]
    out: PathBuf,
    /// Run only the jobs of these names (comma-separated or repeated), e.g. the first openings
    /// of a long job file; --shard and Slurm arrays then deal out these alone.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    only: Vec<String>,
    /// Run only shard I of N (0-based), e.g. 0/4. Default: from SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT when set, else every job.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Threads for jobs whose job file does not set them, 1 to 1024 (default: the cores shared
    /// among the --parallel jobs, at least one each).
    #[arg(long)]
    threads: Option<usize>,
    /// How many jobs run at once, each in its own process, 1 to 1024. On a machine with many
    /// cores, several single-thread jobs side by side get more done than one job's threads,
    /// which share one search.
    #[arg(long, value_name = "N", default_value_t = 1)]
    parallel: usize,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    log_every: u64,
}

/// Runs `batch run`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        crate::check_threads(t)?;
    }
    if args.parallel == 0 || args.parallel > crate::MAX_THREADS {
        bail!(
            "--parallel must be between 1 and {}, not {}",
            crate::MAX_THREADS,
            args.parallel
        );
    }
    // Jobs side by side share the cores rather than each taking them all.
    let threads = args.threads.or_else(|| {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (args.parallel > 1).then(|| (cores / args.parallel).max(1))
    });
    let shard = match &args.shard {
        Some(text) => Shard::parse(text)?,
        None => Shard::from_slurm(|k| std::env::var(k).ok())?.unwrap_or(Shard::ALL),
    };
    let exe = std::env::current_exe().context("cannot find the zermelo executable")?;
    let batch = Batch::open(&RunOptions {
        jobs: args.jobs,
        out: args.out.clone(),
        only: args.only,
        shard,
        threads,
        parallel: args.parallel,
        exe,
    })?;
    install_signal_handler(batch.stop());

    let log_every = Duration::from_secs(args.log_every.max(1));
    let display = Display::new(batch.jobs(), shard, log_every, args.parallel);
    let result = batch.run(&display);
    display.finish();
    let summary = result?;
    outln!(
        "{} of {} jobs done{} in {}",
        summary.done,
        summary.total,
        if shard == Shard::ALL {
            String::new()
        } else {
            format!(" (shard {shard})")
        },
        args.out.display()
    )?;
    if !summary.failed.is_empty() {
        bail!(
            "{} failed: {}",
            summary.failed.len(),
            summary.failed.join("; ")
        );
    }
    Ok(())
}

fn install_signal_handler(stop: std::sync::Arc<Stop>) {
    // ctrlc (with its termination feature) catches SIGINT and SIGTERM, as `grundy octal` does.
    // The first signal is forwarded to the job, which checkpoints and exits; the second kills
    // it and leaves. Every file is written atomically, so stopping anywhere corrupts nothing.
    let _ = ctrlc::set_handler(move || {
        if stop.signal() > 1 {
            errln!(
                "zermelo: stopped at once; finished results are kept, run the same command to \
                 go on"
            );
            std::process::exit(130);
        }
    });
}

/// What the runner shows: on a terminal an overall bar (jobs done of the shard's, ETA) and a
/// bar for each running job; otherwise, for each running job, a plain line every `log_every`,
/// and one per job started or ended.
struct Display {
    bars: Option<(MultiProgress, ProgressBar)>,
    total: usize,
    parallel: usize,
    state: Mutex<Tally>,
    log_every: Duration,
    start: Instant,
    shard: Shard,
}

/// The jobs ended so far, what the runner has measured of them, and the running ones.
struct Tally {
    ended: usize,
    /// Jobs that ran (not skipped as already done) and their wall time, for the ETA.
    ran: usize,
    ran_secs: f64,
    /// The running jobs, by name.
    running: HashMap<String, Running>,
}

/// What is shown of a running job.
struct Running {
    /// Its bar, on a terminal.
    bar: Option<ProgressBar>,
    /// When its last log line was written (off a terminal).
    last_log: Instant,
    /// When the job line shown last came, to tell a fresh line from a repeated one.
    shown_line_at: Option<Instant>,
    /// The time the job says it has left, from its latest line.
    own_eta: Option<f64>,
}

impl Display {
    fn new(jobs: &[Job], shard: Shard, log_every: Duration, parallel: usize) -> Display {
        let bars = std::io::stderr().is_terminal().then(|| {
            let multi = MultiProgress::new();
            let overall = multi.add(ProgressBar::new(jobs.len() as u64));
            overall.set_style(
                ProgressStyle::with_template(
                    "batch [{elapsed_precise}] {wide_bar} {pos}/{len} jobs {msg}",
                )
                .expect("the template is valid"),
            );
            // The clock keeps moving while a long job runs.
            overall.enable_steady_tick(Duration::from_secs(1));
            (multi, overall)
        });
        Display {
            bars,
            total: jobs.len(),
            parallel,
            state: Mutex::new(Tally {
                ended: 0,
                ran: 0,
                ran_secs: 0.0,
                running: HashMap::new(),
            }),
            log_every,
            start: Instant::now(),
            shard,
        }
    }

    fn ended(&self, job: &Job, ran: Option<f64>) {
        let mut p = self.state.lock().expect("display lock");
        p.ended += 1;
        if let Some(secs) = ran {
            p.ran += 1;
            p.ran_secs += secs;
        }
        if let Some(Running { bar: Some(bar), .. }) = p.running.remove(&job.name) {
            bar.finish_and_clear();
            if let Some((multi, _)) = &self.bars {
                multi.remove(&bar);
            }
        }
        if let Some((_, overall)) = &self.bars {
            overall.set_position(p.ended as u64);
            let waiting = self.total - p.ended - p.running.len();
            let eta = eta(p.ran, p.ran_secs, waiting, None, self.parallel);
            overall.set_message(eta.unwrap_or_default());
        }
    }

    fn finish(&self) {
        if let Some((multi, overall)) = &self.bars {
            for running in self.state.lock().expect("display lock").running.values() {
                if let Some(bar) = &running.bar {
                    bar.finish_and_clear();
                }
            }
            overall.finish_and_clear();
            let _ = multi.clear();
        }
    }
}

impl Observer for Display {
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
            Some((multi, _)) => {
                let _ = multi.println(line);
            }
            None => errln!("batch: {line}"),
        }
    }

    fn skip(&self, job: &Job) {
        self.say(&format!("{}: already done", job.name));
        self.ended(job, None);
    }

    fn start(&self, job: &Job) {
        let bar = self.bars.as_ref().map(|(multi, _)| {
            let bar = multi.add(ProgressBar::new_spinner());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {prefix} [{elapsed_precise}] {wide_msg}")
                    .expect("the template is valid"),
            );
            bar.enable_steady_tick(Duration::from_secs(1));
            bar.set_prefix(job.name.clone());
            bar.set_message("starting");
            bar
        });
        if bar.is_none() {
            errln!("batch: {} started ({})", job.name, job.kind_name());
        }
        let running = Running {
            bar,
            last_log: Instant::now(),
            shown_line_at: None,
            own_eta: None,
        };
        let mut p = self.state.lock().expect("display lock");
        p.running.insert(job.name.clone(), running);
    }

    fn end(&self, job: &Job, what: &str, wall: f64) {
        self.say(&format!("{}: {what}", job.name));
        self.ended(job, Some(wall));
    }

    fn tick(&self, job: &Job, elapsed: Duration, last: &JobLine) {
        // The job's own lines start with its elapsed time, which the bar shows already.
        let text = match last.text.split_once("] ") {
            Some((time, rest)) if time.starts_with('[') => rest,
            _ => &last.text,
        };
        let mut p = self.state.lock().expect("display lock");
        let Some(running) = p.running.get_mut(&job.name) else {
            return;
        };
        running.own_eta = job_eta(text);
        // The running jobs end when the longest of them does.
        let longest = p
            .running
            .values()
            .filter_map(|r| r.own_eta)
            .reduce(f64::max);
        let (ended, waiting) = (p.ended, self.total - p.ended - p.running.len());
        let eta = eta(p.ran, p.ran_secs, waiting, longest, self.parallel);
        let running = p.running.get_mut(&job.name).expect("found above");
        if let (Some((_, overall)), Some(bar)) = (&self.bars, &running.bar) {
            bar.set_message(text.to_string());
            overall.set_message(eta.unwrap_or_default());
            return;
        }
        if running.last_log.elapsed() < self.log_every {
            return;
        }
        running.last_log = Instant::now();
        // A line the job wrote before the last log line is not news: say how old it is.
        let news = match last.at {
            None => "started".to_string(),
            Some(at) if running.shown_line_at == Some(at) => {
                format!(
                    "no new line for {:.0} s; last: {text}",
                    at.elapsed().as_secs_f64()
                )
            }
            Some(_) => text.to_string(),
        };
        running.shown_line_at = last.at;
        errln!(
            "[{:>8.1} s] batch{}: {}/{} jobs ended{}; {} running {:.0} s: {news}",
            self.start.elapsed().as_secs_f64(),
            if self.shard == Shard::ALL {
                String::new()
            } else {
                format!(" shard {}", self.shard)
            },
            ended,
            self.total,
            eta.map(|e| format!(", {e}")).unwrap_or_default(),
            job.name,
            elapsed.as_secs_f64(),
        );
    }
}

/// The time the batch has left, from what was measured: the running job's own estimate (from
/// its progress line, when it gives one; the longest of them when `parallel` jobs run at once)
/// plus, for the `waiting` jobs not started, the mean wall time of the `ran` jobs that ran,
/// shared among the `parallel` jobs that run at once. `None` while nothing has been measured.
fn eta(
    ran: usize,
    ran_secs: f64,
    waiting: usize,
    running: Option<f64>,
    parallel: usize,
) -> Option<String> {
    let mean = (ran > 0).then(|| ran_secs / ran as f64);
    let (job, jobs) = if parallel > 1 {
        ("the longest running job's", "the running jobs")
    } else {
        ("the running job's", "the running job")
    };
    let running_part = running.map(|s| format!("{job} own {s:.0} s"));
    match (waiting, mean) {
        (0, _) => running_part.map(|p| format!("eta {:.0} s ({p})", running.unwrap_or(0.0))),
        (_, None) => None,
        (w, Some(mean)) => {
            let total = running.unwrap_or(0.0) + mean * w as f64 / parallel as f64;
            let measured = format!(
                "{w} job{} to start at the {mean:.1} s mean of {ran} run{}",
                if w == 1 { "" } else { "s" },
                if parallel > 1 {
                    format!(", {parallel} at a time")
                } else {
                    String::new()
                }
            );
            Some(match running_part {
                Some(p) => format!("eta {total:.0} s ({p} + {measured})"),
                None => format!("eta {total:.0} s ({measured}, + {jobs})"),
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
        assert_eq!(eta(0, 0.0, 3, None, 1), None);
        // Three jobs took 30 s in all; two wait; the running job says 5 s.
        assert_eq!(
            eta(3, 30.0, 2, Some(5.0), 1).unwrap(),
            "eta 25 s (the running job's own 5 s + 2 jobs to start at the 10.0 s mean of 3 run)"
        );
        assert_eq!(
            eta(3, 30.0, 1, None, 1).unwrap(),
            "eta 10 s (1 job to start at the 10.0 s mean of 3 run, + the running job)"
        );
        assert_eq!(
            eta(3, 30.0, 0, Some(7.0), 1).unwrap(),
            "eta 7 s (the running job's own 7 s)"
        );
        // Four jobs wait, two run at a time.
        assert_eq!(
            eta(3, 30.0, 4, None, 2).unwrap(),
            "eta 20 s (4 jobs to start at the 10.0 s mean of 3 run, 2 at a time, + the running \
             jobs)"
        );
        assert_eq!(
            eta(3, 30.0, 2, Some(5.0), 2).unwrap(),
            "eta 15 s (the longest running job's own 5 s + 2 jobs to start at the 10.0 s mean of \
             3 run, 2 at a time)"
        );
        assert_eq!(
            job_eta("grundy 0.6: 1/9 values (2.00/s, eta 4 s) n=2"),
            Some(4.0)
        );
        assert_eq!(job_eta("hex solve: 10 nodes (2.00/s) solved"), None);
    }
}
