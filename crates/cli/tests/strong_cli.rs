//! `zermelo hex strong` and `zermelo hex lookup --db`: the database answers as the retrograde
//! table does, a killed run goes on to the same files, bad requests are one clear line.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{json, zermelo};

/// Runs a command that must fail; returns its one-line error.
fn error(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "zermelo {args:?} succeeded");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    text
}

fn layer_bytes(dir: &Path, cells: usize) -> Vec<Vec<u8>> {
    (0..=cells)
        .map(|k| std::fs::read(dir.join(format!("layer-{k:02}.zt"))).unwrap())
        .collect()
}

#[test]
fn the_database_answers_as_the_retrograde_table() {
    let dir = tempfile::tempdir().unwrap();
    for misere in [false, true] {
        let table = dir.path().join(format!("t-{misere}.zt"));
        let db = dir.path().join(format!("db-{misere}"));
        let (t, d) = (table.to_str().unwrap(), db.to_str().unwrap());
        let mut make_table = vec!["hex", "table", "--size", "3", "--out", t];
        let mut make_db = vec!["hex", "strong", "--size", "3", "--out", d, "--json"];
        if misere {
            make_table.push("--misere");
            make_db.push("--misere");
        }
        assert!(zermelo(&make_table).status.success());
        let run = json(&make_db);
        assert_eq!(run["layers"].as_array().unwrap().len(), 10);
        assert_eq!(run["rules"], if misere { "misere" } else { "normal" });
        for moves in [
            "",
            "b2",
            "a1",
            "a1 c3",
            "b2 a3 c1",
            "a3 b2 c1 a2",
            "c1 a1 b2 b1",
        ] {
            let from_table = json(&["hex", "lookup", "--table", t, "--moves", moves, "--json"]);
            let from_db = json(&["hex", "lookup", "--db", d, "--moves", moves, "--json"]);
            for key in ["size", "rules", "to_move", "winner", "winning_moves"] {
                assert_eq!(from_db[key], from_table[key], "{key} after {moves:?}");
            }
            assert_eq!(from_db["db"], d);
        }
    }
    let d = dir.path().join("db-false");
    let d = d.to_str().unwrap();
    let text = String::from_utf8_lossy(&zermelo(&["hex", "lookup", "--db", d]).stdout).into_owned();
    assert!(text.contains("black to move: black wins"), "{text}");
    assert!(text.contains("from the database"), "{text}");
    assert!(error(&["hex", "lookup", "--db", d, "--moves", "d1"]).contains("3x3 database"));
    let over = error(&["hex", "lookup", "--db", d, "--moves", "a1 b1 a2 b2 a3"]);
    assert!(over.contains("already over"), "{over}");
    let verified = json(&[
        "hex", "strong", "--size", "3", "--out", d, "--verify", "--json",
    ]);
    assert_eq!(verified["verified"], true);
    assert_eq!(verified["layers"].as_array().unwrap().len(), 10);
}

#[test]
fn a_killed_run_goes_on_to_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let parts = dir.path().join("parts");
    let w = whole.to_str().unwrap();
    let p = parts.to_str().unwrap();
    json(&[
        "hex", "strong", "--size", "4", "--misere", "--out", w, "--json",
    ]);

    // Kill a run once its first layers are on disk (wherever it then is: the files written are
    // whole, whatever the moment).
    let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args([
            "hex", "strong", "--size", "4", "--misere", "--out", p, "--json",
        ])
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !parts.join("layer-14.zt").exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    json(&[
        "hex", "strong", "--size", "4", "--misere", "--out", p, "--json",
    ]);
    assert_eq!(layer_bytes(&parts, 16), layer_bytes(&whole, 16));
}

#[test]
fn requests_beyond_the_engine_or_the_memory_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let d = d.to_str().unwrap();
    let memory = error(&["hex", "strong", "--size", "5", "--out", d, "--memory", "1G"]);
    assert!(
        memory.contains("MiB") && memory.contains("--memory 1G"),
        "{memory}"
    );
    assert!(!dir.path().join("db").exists());
    let big = error(&["hex", "strong", "--size", "7", "--out", d]);
    assert!(big.contains("7x7"), "{big}");
    let layer = error(&[
        "hex",
        "strong",
        "--size",
        "3",
        "--out",
        d,
        "--down-to",
        "10",
    ]);
    assert!(layer.contains("--down-to 10"), "{layer}");
    assert!(
        error(&["hex", "strong", "--size", "3", "--out", d, "--memory", "lots"])
            .contains("--memory")
    );
    assert!(error(&["hex", "lookup", "--db", d]).contains("not a folder"));
    // An endgame table: layers 9 and 8 only; a look-up above them names the missing layer.
    let run = json(&[
        "hex",
        "strong",
        "--size",
        "3",
        "--out",
        d,
        "--down-to",
        "8",
        "--json",
    ]);
    assert_eq!(run["layers"].as_array().unwrap().len(), 2);
    let missing = error(&["hex", "lookup", "--db", d, "--moves", "a1"]);
    assert!(missing.contains("no layer 1"), "{missing}");
    let misere = error(&["hex", "strong", "--size", "3", "--misere", "--out", d]);
    assert!(misere.contains("normal"), "{misere}");
}
