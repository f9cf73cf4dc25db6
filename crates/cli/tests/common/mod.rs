//! Helpers shared by the command-line tests: run the binary, read its JSON.

// Each test binary compiles this module and uses only some of its helpers.
#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `zermelo` with `args` and returns what it printed.
pub fn zermelo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs a command that must succeed and print one JSON object; returns the object.
pub fn json(args: &[&str]) -> Value {
    let out = zermelo(args);
    assert!(
        out.status.success(),
        "zermelo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// Runs `zermelo` with `args`, reads the first `lines` lines of its stdout and closes the pipe,
/// as `zermelo … | head -n LINES` does; returns the exit status and stderr.
pub fn head(args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    for _ in 0..lines {
        line.clear();
        stdout.read_line(&mut line).expect("a line");
    }
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut stderr)
        .expect("stderr");
    (child.wait().expect("the binary ends"), stderr)
}

/// Runs `zermelo` with its progress lines asked for every `log_every` seconds (stderr is a pipe
/// here, so they are plain lines); returns what it printed.
pub fn with_log_lines(args: &[&str], log_every: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .env("ZERMELO_LOG_EVERY", log_every)
        .output()
        .expect("the binary runs")
}
