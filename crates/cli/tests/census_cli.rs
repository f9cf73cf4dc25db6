//! `zermelo grundy census` end to end: the files and their JSON contract, resuming after a
//! kill, refusing another census's folder, the batch job; and the committed three-digit census
//! recomputed by the naive engine.

use std::path::Path;
use std::process::{Command, Stdio};

use rayon::prelude::*;
use serde_json::Value;
use zermelo_grundy::census::{self, RareStats};
use zermelo_grundy::period::{self, ProofRule};
use zermelo_grundy::{naive, OctalGame, SparseEngine};

mod common;
use common::{json, zermelo};

/// The fields of a census line, in the order the issue lists them.
const FIELDS: [&str; 11] = [
    "code",
    "status",
    "same_as",
    "preperiod",
    "period",
    "proven",
    "computed",
    "max_value",
    "rare_mask",
    "rare_count",
    "last_rare",
];

fn census(digits: &str, max: &str, dir: &Path) -> std::process::Output {
    zermelo(&[
        "grundy",
        "census",
        "--digits",
        digits,
        "--max",
        max,
        "--out",
        dir.to_str().unwrap(),
    ])
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn census_files_follow_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let out = census("1", "2^10", dir.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("games: 16"), "{stdout}");
    let rows = lines(&dir.path().join("census-1.jsonl"));
    let codes: Vec<&str> = rows.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        [
            "0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "4.0", "4.1", "4.2", "4.3",
            "4.4", "4.5", "4.6", "4.7"
        ]
    );
    for row in &rows {
        let keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        let mut want = FIELDS.to_vec();
        want.sort_unstable();
        assert_eq!(keys, want, "{row}");
        let status = row["status"].as_str().unwrap();
        assert!(["periodic", "equivalent", "unsolved"].contains(&status));
        assert_eq!(row["same_as"].is_null(), status != "equivalent", "{row}");
        // Equivalent games are proven periodic, or unsolved with the table of an unsolved game.
        assert_eq!(row["proven"] == true, !row["period"].is_null(), "{row}");
        assert!(status != "periodic" || row["proven"] == true, "{row}");
        assert!(status != "unsolved" || row["proven"] == false, "{row}");
    }
    // Officers is unsolved this far.
    assert_eq!(rows[6]["status"], "unsolved");
    assert_eq!(rows[6]["computed"], 1024);
    // Each finished game is a table file that `grundy show` reads.
    let kept = dir.path().join("census-1.games/0.7.zgt");
    let shown = json(&["grundy", "show", kept.to_str().unwrap(), "--json"]);
    assert_eq!(shown["proven"], true);
    assert_eq!(shown["period"], rows[7]["period"]);
    assert_eq!(shown["computed"], rows[7]["computed"]);
    let md = std::fs::read_to_string(dir.path().join("census-1.md")).unwrap();
    assert!(md.contains("| 0.6 | unsolved |"), "{md}");
    // The unsolved games are listed, and each "longest" list starts with the periodic game
    // (not an equivalent one) of the longest preperiod or period, the first in table order.
    let code = |r: &&Value| r["code"].as_str().unwrap().to_string();
    let unsolved: Vec<String> = rows
        .iter()
        .filter(|r| r["status"] == "unsolved")
        .map(|r| code(&r))
        .collect();
    let listed = format!("## Unsolved up to heap 1024\n\n{}\n", unsolved.join(", "));
    assert!(md.contains(&listed), "{md}");
    for (what, key) in [("preperiods", "preperiod"), ("periods", "period")] {
        let periodic = rows.iter().filter(|r| r["status"] == "periodic");
        let most = periodic
            .clone()
            .map(|r| r[key].as_u64().unwrap())
            .max()
            .unwrap();
        let first = periodic.clone().find(|r| r[key] == most).unwrap();
        let head = format!(
            "## The longest proven {what}\n\n| code | preperiod | period | largest value |\n\
             |---|--:|--:|--:|\n| {} | {} | {} | {} |\n",
            code(&first),
            first["preperiod"],
            first["period"],
            first["max_value"]
        );
        assert!(md.contains(&head), "{md}");
    }
}

#[test]
fn a_killed_census_resumes_to_the_straight_results() {
    let straight = tempfile::tempdir().unwrap();
    let out = census("2", "2^13", straight.path());
    assert!(out.status.success());
    let want = std::fs::read(straight.path().join("census-2.jsonl")).unwrap();
    // The summary names the first periodic game of the longest preperiod and period, not a
    // later game equivalent to it (0.47 repeats 0.45; 0.4 to 0.43 have the period of 0.07).
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows = lines(&straight.path().join("census-2.jsonl"));
    for key in ["preperiod", "period"] {
        let periodic = rows.iter().filter(|r| r["status"] == "periodic");
        let most = periodic.clone().filter_map(|r| r[key].as_u64()).max();
        let first = periodic.clone().find(|r| r[key].as_u64() == most).unwrap();
        let line = format!(
            "longest proven {key}: {} ({})",
            most.unwrap(),
            first["code"].as_str().unwrap()
        );
        assert!(stdout.contains(&line), "{line} in {stdout}");
    }

    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args([
            "grundy", "census", "--digits", "2", "--max", "2^13", "--out",
        ])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    // SIGKILL: no chance to clean up; the games finished are on disk, the others are not.
    let _ = child.kill();
    let _ = child.wait();
    assert!(census("2", "2^13", dir.path()).status.success());
    assert_eq!(
        std::fs::read(dir.path().join("census-2.jsonl")).unwrap(),
        want
    );

    // Games lost from the folder are computed again, to the same results.
    let games = dir.path().join("census-2.games");
    for code in ["0.07", "0.6", "4.37"] {
        std::fs::remove_file(games.join(format!("{code}.zgt"))).unwrap();
    }
    assert!(census("2", "2^13", dir.path()).status.success());
    assert_eq!(
        std::fs::read(dir.path().join("census-2.jsonl")).unwrap(),
        want
    );

    // A damaged game file is reported, not trusted.
    let file = games.join("0.77.zgt");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 6;
    bytes[last] ^= 1;
    std::fs::write(&file, bytes).unwrap();
    let out = census("2", "2^13", dir.path());
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("0.77.zgt"), "{err}");
}

#[test]
fn a_finished_census_extends_to_a_larger_bound() {
    let straight = tempfile::tempdir().unwrap();
    assert!(census("2", "2^13", straight.path()).status.success());
    let want = std::fs::read(straight.path().join("census-2.jsonl")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    assert!(census("2", "2^9", dir.path()).status.success());
    let rows = lines(&dir.path().join("census-2.jsonl"));
    let games = dir.path().join("census-2.games");
    let file = |code: &str| std::fs::read(games.join(format!("{code}.zgt"))).ok();
    let periodic: Vec<(String, Option<Vec<u8>>)> = rows
        .iter()
        .filter(|r| r["status"] == "periodic")
        .map(|r| r["code"].as_str().unwrap().to_string())
        .map(|code| (code.clone(), file(&code)))
        .collect();
    let unsolved = rows.iter().filter(|r| r["status"] == "unsolved").count();
    assert!(unsolved > 0 && !periodic.is_empty());
    let out = census("2", "2^13", dir.path());
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("extending the census"));
    assert_eq!(
        std::fs::read(dir.path().join("census-2.jsonl")).unwrap(),
        want
    );
    // The periodic games were kept as they were, not computed again.
    for (code, bytes) in periodic {
        assert_eq!(file(&code), bytes, "{code}");
    }
}

#[test]
fn bad_input_and_another_census_folder_get_one_line() {
    let dir = tempfile::tempdir().unwrap();
    assert!(census("1", "100", dir.path()).status.success());
    for (digits, max, expect) in [
        ("1", "50", "resume it with those"),
        ("0", "100", "1 to 4 digits"),
        ("5", "100", "1 to 4 digits"),
        ("1", "ten", "is not a size"),
    ] {
        let out = census(digits, max, dir.path());
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("zermelo: error: "), "{err}");
        assert!(err.contains(expect), "{err}");
    }
}

#[test]
fn a_census_job_runs_in_a_batch() {
    let tmp = tempfile::tempdir().unwrap();
    let jobs = tmp.path().join("jobs.toml");
    std::fs::write(
        &jobs,
        "[[job]]\nname = \"c1\"\nkind = \"grundy-census\"\ndigits = 1\nmax = \"2^10\"\n",
    )
    .unwrap();
    let dir = tmp.path().join("batch");
    let out = zermelo(&[
        "batch",
        "run",
        jobs.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("c1.json")).unwrap()).unwrap();
    assert_eq!(record["status"], "done", "{record}");
    assert_eq!(record["result"]["games"], 16);
    let straight = tempfile::tempdir().unwrap();
    assert!(census("1", "2^10", straight.path()).status.success());
    assert_eq!(
        std::fs::read(dir.join("c1.census/census-1.jsonl")).unwrap(),
        std::fs::read(straight.path().join("census-1.jsonl")).unwrap()
    );
}

/// The committed three-digit census against the naive engine (see [`committed_census`]).
#[test]
fn the_committed_census_agrees_with_the_naive_engine() {
    committed_census(3);
}

/// The committed four-digit census against the naive engine (see [`committed_census`]).
#[test]
fn the_committed_four_digit_census_agrees_with_the_naive_engine() {
    committed_census(4);
}

/// The committed census of `digits` digits, line by line, against naive tables to 2,000 heaps
/// (a few more for the shifts): each proven period predicts the naive values, each proof the
/// naive values reach is checked again, each equivalence holds over the heaps both tables
/// have (every heap for an unsolved game and its twin), each unsolved game shows no period,
/// and the statistics of entries computed no further agree. A proof that needs more heaps is
/// checked on the sparse engine's values.
fn committed_census(digits: usize) {
    const MAX: usize = 2000;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../results/grundy/census-{digits}.jsonl"));
    let rows = lines(&path);
    let games = census::games(digits).unwrap();
    let codes: Vec<String> = games.iter().map(ToString::to_string).collect();
    let listed: Vec<&str> = rows.iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(listed, codes);
    let tables: Vec<Vec<u16>> = games
        .par_iter()
        .map(|g| naive::values(g, MAX + census::MAX_SHIFT).unwrap())
        .collect();
    let max_of = |row: &Value| row["computed"].as_u64().unwrap() as usize;
    // A proof that needs more heaps than the naive tables hold is checked again on the sparse
    // engine's values (the same as the naive ones where both exist, as checked here too).
    rows.par_iter().enumerate().for_each(|(i, row)| {
        let computed = max_of(row);
        if row["proven"] != true || computed < tables[i].len() {
            return;
        }
        let game = &games[i];
        let mut engine = SparseEngine::new(game).unwrap();
        engine.extend_to(computed).unwrap();
        let values = &engine.values()[..=computed];
        assert_eq!(&values[..tables[i].len()], &tables[i][..], "{game}");
        let e = row["preperiod"].as_u64().unwrap() as usize;
        let p = row["period"].as_u64().unwrap() as usize;
        assert!(census::check_proof(game, values, e, p), "{game}: the proof");
    });
    for (i, row) in rows.iter().enumerate() {
        let game: &OctalGame = &games[i];
        let g = &tables[i];
        let computed = max_of(row);
        let status = row["status"].as_str().unwrap();
        assert!(
            ["periodic", "equivalent", "unsolved"].contains(&status),
            "{row}"
        );
        let proven = row["proven"] == true;
        assert_eq!(proven, !row["period"].is_null(), "{row}");
        if proven {
            assert!(status != "unsolved", "{row}");
            let e = row["preperiod"].as_u64().unwrap() as usize;
            let p = row["period"].as_u64().unwrap() as usize;
            assert!(
                (e..g.len().saturating_sub(p)).all(|n| g[n + p] == g[n]),
                "{game}: period"
            );
            if computed < g.len() {
                assert!(census::check_proof(game, &g[..=computed], e, p), "{game}");
            }
        } else {
            assert!(status != "periodic", "{row}");
            assert!(
                period::find(&g[..=MAX.min(computed)], ProofRule::for_octal(game)).is_none(),
                "{game}: the naive table proves a period"
            );
        }
        if status == "equivalent" {
            let other = codes
                .iter()
                .position(|c| row["same_as"] == c.as_str())
                .unwrap();
            assert!(other < i, "{row}");
            if proven {
                let m = census::MAX_SHIFT as isize;
                let agrees = (-m..=m).any(|s| {
                    (MAX / 2..=MAX).all(|n| g[n] == tables[other][(n as isize + s) as usize])
                });
                assert!(agrees, "{game} is not {} shifted", codes[other]);
            } else {
                // The same table as an unsolved twin, from the first heap on.
                assert_eq!(census::same_table_as(game).unwrap(), games[other], "{row}");
                assert_eq!(g, &tables[other], "{game} is not {}", codes[other]);
                assert_eq!(rows[other]["status"], "unsolved", "{row}");
                assert_eq!(rows[other]["computed"], row["computed"], "{row}");
            }
        }
        if computed <= MAX {
            let values = &g[..=computed];
            assert_eq!(row["max_value"], *values.iter().max().unwrap(), "{row}");
            let rare = RareStats::of(values);
            assert_eq!(row["rare_mask"], rare.mask, "{row}");
            assert_eq!(row["rare_count"], rare.count, "{row}");
            assert_eq!(
                row["last_rare"].as_u64().map(|n| n as usize),
                rare.last,
                "{row}"
            );
        }
    }
}
