//! Helpers shared by the command-line tests: run the binary, read its JSON.

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
