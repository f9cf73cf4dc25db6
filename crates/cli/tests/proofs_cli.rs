//! `--proofs`: a Hex run killed in the middle resumes from the proofs it saved, SIGTERM saves
//! them, damaged or foreign proof files are refused with one line, and `hex proofs merge` pools
//! the files of several runs.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;
use common::{json, zermelo};

/// Runs a command that must fail and returns its single error line.
fn error(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "zermelo {args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

/// The header of a proofs file (zermelo-store's container: its JSON header at byte 24).
fn header(path: &Path) -> Option<Value> {
    let bytes = std::fs::read(path).ok()?;
    let len = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?) as usize;
    serde_json::from_slice(bytes.get(24..24 + len)?).ok()
}

/// Where a proofs file's records start.
fn payload_offset(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    24 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize
}

/// The file of open entries beside a proofs file.
fn open_path(p: &Path) -> PathBuf {
    PathBuf::from(format!("{}.open", p.display()))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `hex openings --no-plies --json` on one board size (`--misere` if `misere`), keeping its
/// proofs in `path`: the JSON it prints.
fn openings_keeping(size: &str, misere: bool, path: &Path) -> Value {
    let mut args = vec!["hex", "openings", "--size", size, "--no-plies", "--json"];
    if misere {
        args.push("--misere");
    }
    args.extend(["--proofs", s(path)]);
    json(&args)
}

/// Each opening's cell and value.
fn table(v: &Value) -> Vec<(String, bool)> {
    v["openings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["cell"].as_str().unwrap().to_string(),
                o["first_player_wins"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// A 7x7 position that takes a few seconds on two threads: long enough to be killed in the
/// middle, short enough to be solved three times over. (After a2 took 0.9 s, under the one
/// second between saves, so the run could end before its first save.)
const SOLVE_7: [&str; 12] = [
    "hex",
    "solve",
    "--size",
    "7",
    "--moves",
    "a4",
    "--json",
    "--threads",
    "2",
    "--tt-mb",
    "256",
    "--proofs",
];

/// The misère 6x6 openings, which no test waits for: a run that is still going when it is
/// signalled.
const MISERE_6: [&str; 9] = [
    "hex",
    "openings",
    "--size",
    "6",
    "--misere",
    "--no-plies",
    "--json",
    "--tt-mb",
    "256",
];

/// Starts `args` keeping its proofs in `path`, saved every `save_every` seconds.
fn spawn_keeping(args: &[&str], path: &Path, save_every: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(args)
        .args(["--proofs", s(path), "--save-every", save_every])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

#[test]
fn a_killed_run_resumes_from_its_proofs() {
    let dir = tempfile::tempdir().unwrap();
    let fresh_path = dir.path().join("fresh.proofs");
    let mut args = SOLVE_7.to_vec();
    args.push(s(&fresh_path));
    let fresh = json(&args);
    assert_eq!(fresh["proofs_loaded"], 0);
    assert_eq!(fresh["open_restored"], 0);
    let written = header(&fresh_path).unwrap()["count"].as_u64().unwrap();
    assert_eq!(fresh["proofs_saved"], written);
    assert!(
        !open_path(&fresh_path).exists(),
        "a finished run leaves no open entries"
    );

    // The same run, killed (SIGKILL: no handler runs) once its file holds a quarter of the
    // fresh run's proofs, and the open entries of its table are saved beside them. (Killed at
    // its first save on a loaded machine, it had too few proofs to save any work.)
    let path = dir.path().join("7x7.proofs");
    let proofs_flag = SOLVE_7.len() - 1;
    let mut child = spawn_keeping(&SOLVE_7[..proofs_flag], &path, "1");
    let start = Instant::now();
    let saved = loop {
        if let (Some(h), Some(o)) = (header(&path), header(&open_path(&path))) {
            if h["count"].as_u64().unwrap() >= written / 4 && o["entries"].as_u64().unwrap() > 0 {
                break h["count"].as_u64().unwrap();
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before a save held a quarter of its proofs"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no save in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    // Killed in the middle: by the signal, with part of the proofs on disk.
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "the run ended before the kill");
    let on_disk = header(&path).unwrap()["count"].as_u64().unwrap();
    assert!(
        on_disk >= saved && on_disk < written,
        "{on_disk} of {written}"
    );
    let open = header(&open_path(&path)).unwrap()["entries"]
        .as_u64()
        .unwrap();

    // Resumed on one thread, so that its node count can be set against that of a fresh
    // one-thread run: on two threads either count depends on how the threads were scheduled.
    args.pop();
    args.push(s(&path));
    args[8] = "1";
    let resumed = json(&args);
    assert_eq!(resumed["proofs_loaded"], on_disk);
    assert_eq!(resumed["open_restored"], open);
    assert!(!open_path(&path).exists());
    assert_eq!(resumed["winner"], fresh["winner"]);
    let nodes = |v: &Value| v["nodes"].as_u64().unwrap();
    let mut one_thread = SOLVE_7[..proofs_flag].to_vec();
    one_thread[8] = "1";
    let fresh_one = json(&one_thread);
    assert!(
        nodes(&resumed) < nodes(&fresh_one),
        "resumed {} nodes, fresh {} (one thread each)",
        nodes(&resumed),
        nodes(&fresh_one)
    );
    let total = header(&path).unwrap()["count"].as_u64().unwrap();
    assert!(total > on_disk);
    assert_eq!(
        resumed["proofs_saved"].as_u64().unwrap(),
        total - on_disk,
        "proofs_saved counts the new positions"
    );
    // A third run finds the position proven: no search at all.
    let again = json(&args);
    assert_eq!(again["winner"], fresh["winner"]);
    assert_eq!(
        (nodes(&again), again["proofs_saved"].as_u64()),
        (0, Some(0))
    );
}

#[test]
fn sigterm_saves_the_proofs_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("6x6.proofs");
    // No save before the signal: the interval is far longer than the wait.
    let child = spawn_keeping(&MISERE_6, &path, "100000");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!path.exists());
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr.lines().last().unwrap();
    assert!(
        line.starts_with("zermelo: error: interrupted after ") && line.contains(s(&path)),
        "{stderr}"
    );
    let count = header(&path).unwrap()["count"].as_u64().unwrap();
    assert!(count > 0);
    assert!(line.contains(&format!("{count} proofs")), "{line}");
    // The open entries are saved beside them, and belong to misère 6x6 runs only.
    assert_eq!(header(&open_path(&path)).unwrap()["size"], 6);
    let other = dir.path().join("5x5.proofs");
    std::fs::copy(open_path(&path), open_path(&other)).unwrap();
    let e = error(&[
        "hex",
        "openings",
        "--size",
        "5",
        "--misere",
        "--proofs",
        s(&other),
    ]);
    assert!(
        e.contains("holds open entries of 6x6 misère Hex, not 5x5 misère Hex"),
        "{e}"
    );
}

#[test]
fn damaged_and_foreign_proof_files_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let p5 = dir.path().join("5x5.proofs");
    let v = openings_keeping("5", false, &p5);
    assert!(v["proofs_saved"].as_u64().unwrap() > 0);
    let good = std::fs::read(&p5).unwrap();
    let run5 = |path: &Path| -> Vec<String> {
        ["hex", "openings", "--size", "5", "--no-plies", "--json"]
            .iter()
            .map(ToString::to_string)
            .chain(["--proofs".to_string(), s(path).to_string()])
            .collect()
    };
    let fails = |args: &[String]| error(&args.iter().map(String::as_str).collect::<Vec<_>>());

    // One stone more in the first record: the checksum no longer matches.
    let mut bad = good.clone();
    bad[payload_offset(&p5)] ^= 0x01;
    std::fs::write(&p5, &bad).unwrap();
    let e = fails(&run5(&p5));
    assert!(e.contains("corrupt") && e.contains("checksum"), "{e}");
    // The file is left as it was, for its owner to look at.
    assert_eq!(std::fs::read(&p5).unwrap(), bad);

    std::fs::write(&p5, &good[..good.len() - 7]).unwrap();
    let e = fails(&run5(&p5));
    assert!(e.contains("corrupt or truncated"), "{e}");

    std::fs::write(&p5, &good).unwrap();
    let e = error(&[
        "hex",
        "openings",
        "--size",
        "6",
        "--proofs",
        s(&p5),
        "--no-plies",
    ]);
    assert!(
        e.contains("holds proofs of 5x5 normal Hex, not 6x6 normal Hex"),
        "{e}"
    );
    let e = error(&[
        "hex",
        "solve",
        "--size",
        "5",
        "--misere",
        "--proofs",
        s(&p5),
    ]);
    assert!(e.contains("not 5x5 misère Hex"), "{e}");
    let e = error(&["hex", "openings", "--size", "4-5", "--proofs", s(&p5)]);
    assert!(e.contains("one board size"), "{e}");
    let e = error(&["hex", "solve", "--size", "5", "--save-every", "5"]);
    assert!(e.contains("--proofs"), "{e}");

    // Another zermelo file is not a proofs file.
    let t = dir.path().join("3x3.zt");
    assert!(zermelo(&["hex", "table", "--size", "3", "--out", s(&t)])
        .status
        .success());
    let e = fails(&run5(&t));
    assert!(e.contains("not a proofs file"), "{e}");
    // A folder that does not exist is refused before any work.
    let e = fails(&run5(&dir.path().join("no/such/dir/p")));
    assert!(e.contains("no/such/dir"), "{e}");
    // Nothing was written over the good file by the refused runs.
    assert_eq!(std::fs::read(&p5).unwrap(), good);

    // The file of open entries beside it is checked as carefully: another kind of file, or a
    // truncated one, is refused and left as it was.
    std::fs::write(open_path(&p5), &good).unwrap();
    let e = fails(&run5(&p5));
    assert!(
        e.contains("corrupt file of open entries") && e.contains("remove it"),
        "{e}"
    );
    std::fs::write(open_path(&p5), &good[..good.len() - 7]).unwrap();
    let e = fails(&run5(&p5));
    assert!(e.contains("corrupt or truncated"), "{e}");
    assert_eq!(std::fs::read(&p5).unwrap(), good);
}

#[test]
fn proof_files_of_several_runs_merge_and_a_solve_resumes_from_them() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, m) = (
        dir.path().join("a.proofs"),
        dir.path().join("b.proofs"),
        dir.path().join("m.proofs"),
    );
    // One thread: the node counts compared below then do not depend on scheduling (on two
    // threads of a loaded machine a first solve took as few nodes as the resumed one).
    let solve = |moves: &str, path: &Path| {
        json(&[
            "hex",
            "solve",
            "--size",
            "5",
            "--moves",
            moves,
            "--all",
            "--json",
            "--threads",
            "1",
            "--proofs",
            s(path),
        ])
    };
    let first = solve("a1", &a);
    let second = solve("b1", &b);
    let count = |p: &Path| header(p).unwrap()["count"].as_u64().unwrap();
    let (ca, cb) = (count(&a), count(&b));
    assert!(ca > 0 && cb > 0);
    let v = json(&["hex", "proofs", "merge", s(&m), s(&a), s(&b), "--json"]);
    let cm = count(&m);
    assert_eq!(v["proofs"], cm);
    assert!(cm >= ca.max(cb) && cm <= ca + cb, "{ca} + {cb} -> {cm}");
    for (moves, before) in [("a1", &first), ("b1", &second)] {
        // The first solve may add proofs the second then loads: each loads the file as it is.
        let held = count(&m);
        let again = solve(moves, &m);
        assert_eq!(again["proofs_loaded"], held);
        assert_eq!(again["winner"], before["winner"]);
        assert_eq!(again["winning_moves"], before["winning_moves"]);
        assert!(again["nodes"].as_u64().unwrap() < before["nodes"].as_u64().unwrap());
    }
    // The merged file only grows by what the solves above added.
    assert!(count(&m) >= cm);

    // Files of other boards or rules are not pooled.
    let c = dir.path().join("c.proofs");
    json(&[
        "hex",
        "solve",
        "--size",
        "4",
        "--moves",
        "a1",
        "--json",
        "--proofs",
        s(&c),
    ]);
    let e = error(&["hex", "proofs", "merge", s(&m), s(&a), s(&c)]);
    assert!(e.contains("4x4 normal Hex") && e.contains("5x5"), "{e}");
    let d = dir.path().join("d.proofs");
    json(&[
        "hex",
        "solve",
        "--size",
        "4",
        "--moves",
        "a1",
        "--misere",
        "--json",
        "--proofs",
        s(&d),
    ]);
    let e = error(&["hex", "proofs", "merge", s(&m), s(&c), s(&d)]);
    assert!(e.contains("4x4 misère Hex"), "{e}");
}

/// `hex openings --proven-only` searches nothing: it gives the table once the proofs hold every
/// opening, and otherwise lists the openings known and open, with a report in --out.
#[test]
fn proven_only_gives_the_table_or_what_is_still_open() {
    let dir = tempfile::tempdir().unwrap();
    let four = dir.path().join("four.proofs");
    let solved = openings_keeping("4", true, &four);
    let known = json(&[
        "hex",
        "openings",
        "--size",
        "4",
        "--misere",
        "--json",
        "--proofs",
        s(&four),
        "--proven-only",
    ]);
    assert_eq!(table(&known), table(&solved));
    assert_eq!(known["nodes"], 0);

    // The proofs of one 5x5 opening that needs a search, e3 (a loss for the first player).
    let five = dir.path().join("five.proofs");
    let e3 = json(&[
        "hex",
        "solve",
        "--size",
        "5",
        "--moves",
        "e3",
        "--json",
        "--proofs",
        s(&five),
    ]);
    assert_eq!(e3["winner"], "white", "{e3}");
    let out = dir.path().join("out");
    // Openings still open: the output is written, and the exit status (3) says it is partial.
    let run = zermelo(&[
        "hex",
        "openings",
        "--size",
        "5",
        "--json",
        "--proofs",
        s(&five),
        "--proven-only",
        "--out",
        s(&out),
    ]);
    assert_eq!(run.status.code(), Some(3));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("openings still open"), "{said}");
    let partial: Value = serde_json::from_slice(&run.stdout).unwrap();
    let openings = partial["openings"].as_array().unwrap();
    let e3 = openings.iter().find(|o| o["cell"] == "e3").unwrap();
    assert_eq!(e3["first_player_wins"], false, "{partial}");
    let open = partial["open"].as_array().unwrap();
    assert!(
        !open.is_empty() && !open.contains(&"e3".into()),
        "{partial}"
    );
    for o in openings {
        assert_eq!(
            o["first_player_wins"].is_null(),
            open.contains(&o["cell"]),
            "{partial}"
        );
    }
    let report = std::fs::read_to_string(out.join("5x5-report.md")).unwrap();
    assert!(report.contains("| e3 | loses |"), "{report}");

    let missing = dir.path().join("missing.proofs");
    let line = error(&[
        "hex",
        "openings",
        "--size",
        "5",
        "--proofs",
        s(&missing),
        "--proven-only",
    ]);
    assert!(line.contains("no proofs file"), "{line}");
}

#[test]
fn parity_takes_its_largest_board_from_the_proofs_of_earlier_runs() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("misere-4x4.proofs");
    let openings = openings_keeping("4", true, &p);
    let proven = openings["proofs_saved"].as_u64().unwrap();
    assert!(proven > 0);
    let out = dir.path().join("out");
    let v = json(&[
        "hex",
        "parity",
        "--max-size",
        "4",
        "--json",
        "--proofs",
        s(&p),
        "--out",
        s(&out),
    ]);
    let sizes = v["sizes"].as_array().unwrap();
    // Only the largest board reads the file, and it reads all the openings run proved.
    assert_eq!(sizes[3]["proofs_loaded"].as_u64(), Some(proven));
    assert!(sizes[2].get("proofs_loaded").is_none());
    let winning: Vec<String> = table(&openings)
        .into_iter()
        .filter(|(_, wins)| *wins)
        .map(|(cell, _)| cell)
        .collect();
    assert_eq!(sizes[3]["winning_openings"], serde_json::json!(winning));
    assert_eq!(v["theorem_holds_on_every_size"], true);
    let md = std::fs::read_to_string(out.join("misere-parity.md")).unwrap();
    assert!(
        md.contains(&format!(
            "started from {proven} positions proven by earlier runs"
        )),
        "{md}"
    );

    // Proofs of normal Hex are refused with one line.
    let normal = dir.path().join("normal-4x4.proofs");
    json(&[
        "hex",
        "solve",
        "--size",
        "4",
        "--json",
        "--proofs",
        s(&normal),
    ]);
    let e = error(&["hex", "parity", "--max-size", "4", "--proofs", s(&normal)]);
    assert!(e.contains("not 4x4 misère Hex"), "{e}");
}
