//! Progress reporting: a bar on a terminal, plain periodic log lines otherwise (a cluster log).

use crate::output::errln;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often a log line is printed when stderr is not a terminal.
pub const DEFAULT_LOG_EVERY: Duration = Duration::from_secs(10);
/// The environment variable that overrides [`DEFAULT_LOG_EVERY`], in seconds.
pub const LOG_EVERY_ENV: &str = "ZERMELO_LOG_EVERY";

/// Reports progress of a job of `total` units to stderr.
///
/// On a terminal this is an indicatif bar with rate and ETA; otherwise it prints one plain line
/// at most every `log_every` (and one at the end), so a batch log stays readable.
pub struct Progress {
    bar: Option<ProgressBar>,
    log: Mutex<LogState>,
    label: String,
    total: u64,
    unit: &'static str,
    log_every: Duration,
    start: Instant,
}

struct LogState {
    last: Instant,
    done: u64,
    message: String,
}

impl Progress {
    /// A reporter for `total` units named `unit` (e.g. "openings", "values").
    /// `quiet` turns it off entirely (for `--json` output meant for scripts).
    /// The interval between log lines is [`DEFAULT_LOG_EVERY`], or the seconds in the
    /// environment variable `ZERMELO_LOG_EVERY`, which also asks for log lines when `quiet`
    /// (`zermelo batch run` sets it for its jobs, whose `--json` output it reads).
    pub fn new(label: &str, total: u64, unit: &'static str, quiet: bool) -> Self {
        match std::env::var(LOG_EVERY_ENV)
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
        {
            Some(secs) => {
                Self::with_log_every(label, total, unit, false, Duration::from_secs_f64(secs))
            }
            None => Self::with_log_every(label, total, unit, quiet, DEFAULT_LOG_EVERY),
        }
    }

    /// Like [`Progress::new`] with a chosen interval between log lines.
    pub fn with_log_every(
        label: &str,
        total: u64,
        unit: &'static str,
        quiet: bool,
        log_every: Duration,
    ) -> Self {
        let on_terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && on_terminal).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} \
                     ({{per_sec}}, eta {{eta}}) {{msg}}"
                ))
                .expect("the template is valid"),
            );
            bar.set_prefix(label.to_string());
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            log: Mutex::new(LogState {
                last: now,
                done: 0,
                message: String::new(),
            }),
            label: label.to_string(),
            total,
            unit,
            log_every: if quiet || on_terminal {
                Duration::MAX
            } else {
                log_every
            },
            start: now,
        }
    }

    /// Records `n` more units done, with a short message about the latest one.
    pub fn advance(&self, n: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
            bar.set_message(message.to_string());
            return;
        }
        let mut log = self.log.lock().expect("progress lock");
        log.done += n;
        log.message = message.to_string();
        if log.last.elapsed() >= self.log_every {
            log.last = Instant::now();
            self.print_line(&log);
        }
    }

    /// Sets the absolute position (for work measured in values rather than counted in steps).
    pub fn set_position(&self, done: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(message.to_string());
            return;
        }
        let mut log = self.log.lock().expect("progress lock");
        log.done = done;
        log.message = message.to_string();
        if log.last.elapsed() >= self.log_every {
            log.last = Instant::now();
            self.print_line(&log);
        }
    }

    /// Ends the report: clears the bar, or prints a last log line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        } else if self.log_every != Duration::MAX {
            let log = self.log.lock().expect("progress lock");
            self.print_line(&log);
        }
    }

    fn print_line(&self, log: &LogState) {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = log.done as f64 / secs.max(1e-9);
        let eta = if log.done > 0 && self.total > log.done {
            format!(
                ", eta {:.0} s",
                (self.total - log.done) as f64 / rate.max(1e-9)
            )
        } else {
            String::new()
        };
        errln!(
            "[{:>8.1} s] {}: {}/{} {} ({:.1}/s{eta}) {}",
            secs,
            self.label,
            log.done,
            self.total,
            self.unit,
            rate,
            log.message
        );
    }
}
