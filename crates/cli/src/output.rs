//! Standard output and standard error for every command.
//!
//! `println!` panics when stdout is a closed pipe (`zermelo grundy show F --csv | head -1`), so
//! the commands print through [`outln!`] and [`out!`], which return the write error; `main`
//! ends the program quietly with status 0 when that error is a closed pipe, as Unix tools do.
//! Messages to stderr go through [`errln!`], which drops a failed write: a closed stderr must not
//! turn a progress line into a crash.

use std::fmt;
use std::io::{self, Write};

/// Prints a line to stdout; evaluates to `std::io::Result<()>`.
macro_rules! outln {
    () => { $crate::output::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints to stdout without a newline; evaluates to `std::io::Result<()>`.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write(format_args!($($arg)*)) };
}

/// Prints a line to stderr, ignoring a failed write.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::output::write_err(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {errln, out, outln};

/// Writes to stdout, returning the error instead of panicking.
pub fn write(args: fmt::Arguments<'_>) -> io::Result<()> {
    io::stdout().lock().write_fmt(args)
}

/// Writes to stderr; a failure is dropped (there is nowhere left to report it).
pub fn write_err(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Whether `err` is, or was caused by, a write to a closed pipe.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Creates the output folder `dir` if needed and checks, before any computation, that files can
/// be written in it: a mistyped or read-only `--out` fails at once, not after hours of work.
pub fn prepare_out_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    zermelo_store::ensure_writable(&dir.join("zermelo-write-check"))?;
    Ok(())
}

/// The exit status of a run that did all it was asked but whose result is not complete (a
/// table with openings still open): distinct from 1 (an error) and 2 (a usage error), so that
/// a script can tell "not done yet" from "failed".
pub const EXIT_INCOMPLETE: i32 = 3;

/// Returned by a command whose output is written but incomplete: `main` prints its message
/// and exits with [`EXIT_INCOMPLETE`].
#[derive(Debug)]
pub struct Incomplete(pub String);

impl fmt::Display for Incomplete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Incomplete {}
