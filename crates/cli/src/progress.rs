//! Progress reporting: a bar on a terminal, plain periodic log lines otherwise (a cluster log).

use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use crate::output::errln;
use zermelo_batch::LOG_EVERY_ENV;

/// How often a log line is printed when stderr is not a terminal.
pub const DEFAULT_LOG_EVERY: Duration = Duration::from_secs(10);

/// Reports progress of a job of `total` units to stderr.
///
/// On a terminal this is an indicatif bar with rate and ETA; otherwise a thread of its own prints
/// one plain line every `log_every` (and one at the end), whether or not the work has advanced
/// since, so a batch log gets its lines at regular times and a stalled step shows as such.
pub struct Progress {
    bar: Option<ProgressBar>,
    shared: Arc<Shared>,
    ticker: Option<JoinHandle<()>>,
}

/// What the log thread reads and the workers write.
struct Shared {
    state: Mutex<LogState>,
    /// Wakes the log thread early when the work ends.
    ended: Condvar,
    label: String,
    unit: &'static str,
    start: Instant,
}

struct LogState {
    done: u64,
    /// The number of units, 0 when unknown (then only the count is shown).
    total: u64,
    message: String,
    finished: bool,
}

impl Progress {
    /// A reporter for `total` units named `unit` (e.g. "openings", "values"); a `total` of 0
    /// means the amount of work is not known in advance, and only the count is shown.
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
        let bar = (!quiet && on_terminal).then(|| terminal_bar(label, total, unit));
        let shared = Arc::new(Shared {
            state: Mutex::new(LogState {
                done: 0,
                total,
                message: String::new(),
                finished: false,
            }),
            ended: Condvar::new(),
            label: label.to_string(),
            unit,
            start: Instant::now(),
        });
        // A zero interval would print without end.
        let log_every = log_every.max(Duration::from_millis(1));
        let ticker = (!quiet && !on_terminal).then(|| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || shared.log_until_finished(log_every))
        });
        Progress {
            bar,
            shared,
            ticker,
        }
    }

    /// Records `n` more units done, with a short message about the latest one.
    pub fn advance(&self, n: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
            bar.set_message(message.to_string());
            return;
        }
        let mut log = self.shared.state.lock().expect("progress lock");
        log.done += n;
        message.clone_into(&mut log.message);
    }

    /// Sets the absolute position (for work measured in values rather than counted in steps).
    pub fn set_position(&self, done: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(message.to_string());
            return;
        }
        let mut log = self.shared.state.lock().expect("progress lock");
        log.done = done;
        message.clone_into(&mut log.message);
    }

    /// Ends the report at `done` units of `done` (work that stopped before the planned total,
    /// as an octal run does once its period is proven), with a message saying why.
    pub fn finish_early(&mut self, done: u64, message: &str) {
        if let Some(bar) = &self.bar {
            bar.set_length(done);
        }
        self.shared.state.lock().expect("progress lock").total = done;
        self.set_position(done, message);
        self.finish();
    }

    /// Ends the report: clears the bar, or prints a last log line. Calling it again does
    /// nothing.
    pub fn finish(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if let Some(ticker) = self.ticker.take() {
            self.shared.state.lock().expect("progress lock").finished = true;
            self.shared.ended.notify_all();
            let _ = ticker.join();
            self.shared
                .print_line(&self.shared.state.lock().expect("progress lock"));
        }
    }
}

impl Drop for Progress {
    /// A command that fails midway still stops its log thread (without a last line).
    fn drop(&mut self) {
        if let Some(ticker) = self.ticker.take() {
            self.shared.state.lock().expect("progress lock").finished = true;
            self.shared.ended.notify_all();
            let _ = ticker.join();
        }
    }
}

impl Shared {
    /// The log thread: a line every `every`, until the work is finished.
    fn log_until_finished(&self, every: Duration) {
        let mut next = Instant::now() + every;
        let mut log = self.state.lock().expect("progress lock");
        loop {
            let now = Instant::now();
            if log.finished {
                return;
            }
            if now >= next {
                self.print_line(&log);
                // Keep to the schedule rather than drift by the time a line takes.
                while next <= now {
                    next += every;
                }
                continue;
            }
            log = self
                .ended
                .wait_timeout(log, next - now)
                .expect("progress lock")
                .0;
        }
    }

    fn print_line(&self, log: &LogState) {
        let secs = self.start.elapsed().as_secs_f64();
        let per_sec = log.done as f64 / secs.max(1e-9);
        let of_total = if log.total > 0 {
            format!("/{}", log.total)
        } else {
            String::new()
        };
        let eta = if log.done > 0 && log.total > log.done {
            format!(
                ", eta {:.0} s",
                (log.total - log.done) as f64 / per_sec.max(1e-9)
            )
        } else {
            String::new()
        };
        errln!(
            "[{:>8.1} s] {}: {}{of_total} {} ({}/s{eta}) {}",
            secs,
            self.label,
            log.done,
            self.unit,
            rate(per_sec),
            log.message
        );
    }
}

/// The indicatif bar (or, with no known total, a spinner with the count).
fn terminal_bar(label: &str, total: u64, unit: &str) -> ProgressBar {
    let (bar, template) = if total > 0 {
        (
            ProgressBar::new(total),
            format!(
                "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} \
                 ({{rate}}/s, eta {{eta}}) {{msg}}"
            ),
        )
    } else {
        (
            ProgressBar::new_spinner(),
            format!(
                "{{spinner}} {{prefix}} [{{elapsed_precise}}] {{pos}} {unit} ({{rate}}/s) {{msg}}"
            ),
        )
    };
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate(state.per_sec()));
                },
            ),
    );
    bar.set_prefix(label.to_string());
    // The clock keeps moving while one long step runs.
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}

/// A rate for people: three significant digits at most, with k (thousand) or M (million).
pub fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        return "?".to_string();
    }
    let (value, suffix) = if per_sec >= 1e6 {
        (per_sec / 1e6, "M")
    } else if per_sec >= 1e3 {
        (per_sec / 1e3, "k")
    } else {
        (per_sec, "")
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_have_three_significant_digits() {
        assert_eq!(rate(275_258.736_3), "275k");
        assert_eq!(rate(3_520_000.0), "3.52M");
        assert_eq!(rate(12.345), "12.3");
        assert_eq!(rate(0.5), "0.50");
        assert_eq!(rate(f64::NAN), "?");
    }
}
