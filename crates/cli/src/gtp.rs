//! `zermelo gtp`: the Hex Text Protocol on standard input and output, for HexGui and the
//! regression scripts of Hex programs. The engine itself is `zermelo_hex::gtp`; this module
//! only reads lines, passes the controller's interrupts on and writes the replies.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc;

use zermelo_hex::gtp::{format_reply, Engine, EngineConfig};
use zermelo_hex::{Rules, MAX_TT_MB};

use crate::output::errln;

/// Speak the Hex Text Protocol on stdin and stdout (HexGui, Benzene's regression scripts):
/// `dfpn-solve-state`, `dfpn-solver-find-winning`, `genmove`, analysis commands and the rest
/// (`list_commands` lists them). One log line per solve goes to stderr.
#[derive(clap::Args)]
pub struct Args {
    /// Play misère Hex (Reverse Hex): the player who connects loses (`param_game misere`
    /// switches too).
    #[arg(long)]
    misere: bool,
    /// Solver threads, 1 to 1024 (default: one per core; `param_dfpn threads` changes it).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The most the transposition table grows to, in MiB (`param_dfpn tt_size` changes it).
    /// The table is made at the first solve, and again after `dfpn-clear-tt`.
    #[arg(long, default_value_t = 1024)]
    tt_mb: usize,
}

/// The longest input line read: longer ones are answered with an error and skipped.
const MAX_LINE: usize = 1 << 16;

/// What the reading thread passes on.
enum Input {
    /// A line of input (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`], skipped.
    TooLong,
}

/// Runs `zermelo gtp` until `quit` or the end of input.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        crate::check_threads(t)?;
    }
    anyhow::ensure!(
        (1..=MAX_TT_MB).contains(&args.tt_mb),
        "--tt-mb must be between 1 and {MAX_TT_MB}, not {}",
        args.tt_mb
    );
    crate::memory::ensure_table_fits(args.tt_mb)?;
    let mut engine = Engine::new(EngineConfig {
        rules: if args.misere {
            Rules::Misere
        } else {
            Rules::Normal
        },
        threads: args.threads.unwrap_or(0),
        tt_mb: args.tt_mb,
        ..EngineConfig::default()
    });
    // Lines are read on a thread of their own, so that an interrupt ("# interrupt", sent by
    // GoGui and HexGui while a command runs) reaches the solve under way.
    let stop = engine.stop_flag();
    let (lines, input) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        while let Ok(Some(line)) = read_line(&mut stdin) {
            if let Input::Line(text) = &line {
                if text.trim() == "# interrupt" {
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            }
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdout = std::io::stdout().lock();
    for line in input {
        let reply = match line {
            Input::Line(text) => engine.execute(&text),
            Input::TooLong => {
                let text = format_reply(None, Err("the line is too long"));
                stdout.write_all(text.as_bytes())?;
                stdout.flush()?;
                continue;
            }
        };
        let Some(reply) = reply else {
            continue;
        };
        if let Some(log) = &reply.log {
            errln!("{log}");
        }
        stdout.write_all(reply.text.as_bytes())?;
        stdout.flush()?;
        if reply.quit {
            break;
        }
    }
    Ok(())
}

/// Reads one line (its end removed), `None` at the end of input; a line longer than
/// [`MAX_LINE`] is read past and reported as [`Input::TooLong`].
fn read_line(reader: &mut impl BufRead) -> std::io::Result<Option<Input>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            if line.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if !too_long {
            line.extend_from_slice(&buf[..take]);
            if line.len() > MAX_LINE {
                too_long = true;
                line.clear();
            }
        }
        reader.consume(take + usize::from(end));
        if end {
            break;
        }
    }
    if too_long {
        return Ok(Some(Input::TooLong));
    }
    Ok(Some(Input::Line(
        String::from_utf8_lossy(&line).into_owned(),
    )))
}
