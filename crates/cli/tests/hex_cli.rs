//! The `zermelo hex` command line: the JSON contract, the files written, and one-line errors.

use serde_json::Value;

mod common;
use common::{json, with_log_lines, zermelo};

/// Runs a command that must fail and returns its single error line.
fn error(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "zermelo {args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn solve_json_contract() {
    let v = json(&[
        "hex", "solve", "--size", "4", "--moves", "a1", "--all", "--json", "--plies", "--tt-mb",
        "8",
    ]);
    assert_eq!(v["size"], 4);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["misere"], false);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(moves.contains(&Value::from(v["winning_move"].as_str().unwrap())));
    assert_eq!(v["plies"], 9);
}

/// `--considered` lists the winning moves among those the analysis keeps: a part of `--all`'s
/// list that holds a winning move whenever there is one. On 5x5 after c4 c3 the analysis prunes
/// one of White's winning moves, so the list is shorter; the two flags exclude each other.
#[test]
fn solve_lists_the_considered_winning_moves() {
    let solve = |flag| {
        json(&[
            "hex", "solve", "--size", "5", "--moves", "c4 c3", flag, "--json", "--tt-mb", "8",
        ])
    };
    let (all, considered) = (solve("--all"), solve("--considered"));
    assert_eq!(all["listed"], "all");
    assert_eq!(considered["listed"], "considered");
    assert_eq!(all["winner"], considered["winner"]);
    let list = |v: &Value| v["winning_moves"].as_array().unwrap().clone();
    let (every, kept) = (list(&all), list(&considered));
    assert!(
        !kept.is_empty() && kept.iter().all(|m| every.contains(m)),
        "{kept:?} {every:?}"
    );
    assert!(kept.len() < every.len(), "{kept:?} {every:?}");
    assert!(kept.contains(&considered["winning_move"]));
    let e = error(&["hex", "solve", "--size", "3", "--all", "--considered"]);
    assert!(e.contains("cannot be used with"), "{e}");
}

#[test]
fn solve_reads_a_diagram() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(&path, "   a b c\n 1  . . .\n  2  . B .\n   3  . . .\n").unwrap();
    let v = json(&[
        "hex",
        "solve",
        "--diagram",
        path.to_str().unwrap(),
        "--json",
        "--tt-mb",
        "8",
    ]);
    assert_eq!(v["size"], 3);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["winner"], "black");
    assert!(v.get("winning_moves").is_none());
}

#[test]
fn solve_takes_the_side_to_move_and_sgf_files() {
    // Black has played b2 and moves again: every cell wins on 3x3.
    let v = json(&[
        "hex",
        "solve",
        "--size",
        "3",
        "--moves",
        "b2",
        "--to-move",
        "black",
        "--all",
        "--json",
        "--tt-mb",
        "8",
    ]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["winner"], "black");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 8);
    // A HexGui file with setup stones and PL: two black stones against one white, White to
    // move, whose only winning move is b2.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.sgf");
    let sgf = "(;AP[HexGui:1.0.]FF[4]GM[11]SZ[3];AB[a2][b3]AW[a1]PL[W])";
    std::fs::write(&path, sgf).unwrap();
    let path = path.to_str().unwrap();
    let v = json(&[
        "hex", "solve", "--sgf", path, "--all", "--json", "--tt-mb", "8",
    ]);
    assert_eq!(v["size"], 3);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["winning_moves"], serde_json::json!(["b2"]));
    assert_eq!(v["sgf"], path);
    // The side to move given on the command line wins over the file's.
    let v = json(&[
        "hex",
        "solve",
        "--sgf",
        path,
        "--to-move",
        "black",
        "--json",
        "--tt-mb",
        "8",
    ]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["winner"], "black");
    // A diagram with unusual counts needs the side to move.
    let diagram = dir.path().join("p.txt");
    std::fs::write(&diagram, "   a b c\n 1  B . .\n  2  . B .\n   3  . . .\n").unwrap();
    let diagram = diagram.to_str().unwrap();
    assert!(error(&["hex", "solve", "--diagram", diagram]).contains("side to move"));
    let v = json(&[
        "hex",
        "solve",
        "--diagram",
        diagram,
        "--to-move",
        "white",
        "--json",
        "--tt-mb",
        "8",
    ]);
    assert_eq!(v["to_move"], "white");
}

#[test]
fn malformed_sgf_files_get_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    for (text, needle) in [
        ("(;GM[11]SZ[3];B[a1]", "')' is missing"),
        ("(;GM[11]SZ[3];B[a1", "not closed"),
        ("(;GM[1]SZ[3])", "not Hex"),
        ("(;GM[11]SZ[3];B[q9])", "not a cell"),
        (
            "(;GM[11]SZ[5];B[c3];W[swap-pieces])",
            "swap move is not supported",
        ),
        ("(;GM[11]SZ[3]AB[a1][a2][a3]PL[W])", "already over"),
        ("\u{0}\u{ff}garbage", "expected '('"),
    ] {
        let path = dir.path().join("bad.sgf");
        std::fs::write(&path, text).unwrap();
        let message = error(&["hex", "solve", "--sgf", path.to_str().unwrap()]);
        assert!(message.contains(needle), "{text:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{text:?}: {message}");
    }
    let message = error(&["hex", "solve", "--sgf", "/nonexistent/p.sgf"]);
    assert!(message.contains("cannot read"), "{message}");
}

#[test]
fn openings_json_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let v = json(&[
        "hex", "openings", "--size", "3", "--json", "--out", out, "--tt-mb", "8",
    ]);
    assert_eq!(v["size"], 3);
    let openings = v["openings"].as_array().unwrap();
    assert_eq!(openings.len(), 9);
    let b2 = openings.iter().find(|o| o["cell"] == "b2").unwrap();
    assert_eq!(b2["first_player_wins"], true);
    assert!(b2["plies"].as_u64().unwrap() >= 3);
    let written = zermelo_store::json::read(&dir.path().join("3x3-openings.json")).unwrap();
    assert_eq!(written["openings"], v["openings"]);
    let md = std::fs::read_to_string(dir.path().join("3x3-openings.md")).unwrap();
    assert!(md.contains("| b2 | wins |"), "{md}");
    // The board as a picture beside the Markdown, which shows it.
    assert!(md.contains("(3x3-openings.svg)"), "{md}");
    let svg = std::fs::read_to_string(dir.path().join("3x3-openings.svg")).unwrap();
    let wins = openings
        .iter()
        .filter(|o| o["first_player_wins"] == true)
        .count();
    assert_eq!(svg.matches("<polygon class=\"win\"").count(), wins);
    assert_eq!(svg.matches("<polygon class=\"lose\"").count(), 9 - wins);
    assert!(svg.ends_with("</svg>\n"));
}

#[test]
fn openings_over_a_range_of_sizes_print_one_object_each() {
    let out = zermelo(&["hex", "openings", "--size", "1-3", "--json", "--tt-mb", "8"]);
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["openings"][0]["first_player_wins"], true);
    assert_eq!(lines[2]["size"], 3);
}

#[test]
fn table_is_written_and_checksummed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t3.zt");
    let out = zermelo(&[
        "hex",
        "table",
        "--size",
        "3",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let t = zermelo_store::table::read(&path).unwrap();
    assert_eq!(t.header["kind"], "hex-retrograde");
    assert_eq!(t.header["size"], 3);
    assert_eq!(t.payload.len(), 3usize.pow(9).div_ceil(4));
}

#[test]
fn a_panic_in_a_worker_ends_the_run_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let proofs = dir.path().join("p.proofs");
    for extra in [vec![], vec!["--proofs", proofs.to_str().unwrap()]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
            .args([
                "hex",
                "openings",
                "--size",
                "5",
                "--threads",
                "2",
                "--no-plies",
            ])
            .args(&extra)
            .env("ZERMELO_FAULT", "worker-panic")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A hang is what this guards against: give it a minute, then fail.
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("{extra:?}: still running a minute after a worker panicked");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(101), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert!(err.starts_with("zermelo: internal error: "), "{err}");
    }
}

#[test]
fn diagram_and_sgf_paths_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"pos\xff.txt");
    let path = dir.path().join(name);
    std::fs::write(&path, "   a b\n 1 B .\n  2 . .\n").unwrap();
    let sgf = dir.path().join(OsStr::from_bytes(b"game\xfe.sgf"));
    std::fs::write(&sgf, "(;FF[4]GM[11]SZ[2];B[a1])").unwrap();
    for (option, file) in [("--diagram", &path), ("--sgf", &sgf)] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
            .args(["hex", "solve", "--json", option])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{option}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["to_move"], "white", "{option}");
    }
}

#[test]
fn bad_input_gets_one_clear_line() {
    for (args, needle) in [
        (vec!["hex", "solve", "--size", "12"], "out of range"),
        (vec!["hex", "solve", "--size", "0"], "out of range"),
        (
            vec!["hex", "solve", "--size", "4", "--moves", "e1"],
            "not a cell",
        ),
        (
            vec!["hex", "solve", "--size", "4", "--moves", "a1 a1"],
            "occupied",
        ),
        (
            vec!["hex", "solve", "--size", "4", "--moves", "a1 b1 zz"],
            "not a cell",
        ),
        (
            vec!["hex", "solve", "--size", "2", "--moves", "a1 b1 a2"],
            "already over",
        ),
        (vec!["hex", "solve", "--size", "6", "--plies"], "up to 5x5"),
        (
            vec!["hex", "solve", "--size", "3", "--threads", "0"],
            "between 1 and 1024",
        ),
        (
            vec!["hex", "openings", "--size", "3", "--threads", "0"],
            "between 1 and 1024",
        ),
        (
            vec!["hex", "solve", "--size", "3", "--tt-mb", "0"],
            "out of range",
        ),
        (
            vec!["hex", "solve", "--size", "3", "--tt-mb", "900000"],
            "memory",
        ),
        (
            vec!["hex", "solve", "--size", "3", "--tt-mb", "900000"],
            "fits",
        ),
        (
            vec!["hex", "table", "--size", "5", "--out", "/tmp/never"],
            "does not fit in memory",
        ),
        (vec!["hex", "openings", "--size", "5-3"], "empty size range"),
        (
            vec!["hex", "openings", "--size", "6", "--plies"],
            "up to 5x5",
        ),
        (
            vec!["hex", "openings", "--size", "4-6", "--plies"],
            "up to 5x5",
        ),
        (vec!["hex", "solve", "--size", "5", "--plies"], "empty 5x5"),
        (
            vec!["hex", "solve", "--size", "4", "--threads", "100000"],
            "between 1 and 1024",
        ),
        (
            vec!["hex", "parity", "--max-size", "3", "--threads", "5000"],
            "between 1 and 1024",
        ),
    ] {
        let message = error(&args);
        assert!(message.contains(needle), "{args:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    }
}

#[test]
fn misere_parity_up_to_3x3() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let v = json(&[
        "hex",
        "parity",
        "--max-size",
        "3",
        "--json",
        "--out",
        out,
        "--tt-mb",
        "8",
    ]);
    assert_eq!(v["misere"], true);
    assert_eq!(v["theorem_holds_on_every_size"], true);
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 3);
    // 2x2: the first player wins (Evans: the acute corner a1 wins) and the game fills the board.
    assert_eq!(sizes[1]["first_player_wins"], true);
    assert!(sizes[1]["winning_openings"]
        .as_array()
        .unwrap()
        .contains(&Value::from("a1")));
    assert_eq!(sizes[1]["plies"], 4);
    assert_eq!(sizes[2]["first_player_wins"], false);
    assert_eq!(sizes[2]["fills_the_board"], true);
    assert!(zermelo_store::json::read(&dir.path().join("misere-parity.json")).is_ok());
}

#[test]
fn misere_solve_json_says_so() {
    let v = json(&[
        "hex", "solve", "--size", "2", "--misere", "--all", "--json", "--tt-mb", "8",
    ]);
    assert_eq!(v["misere"], true);
    assert_eq!(v["winner"], "black");
    assert_eq!(v["winning_moves"], serde_json::json!(["a1", "b2"]));
}

#[test]
fn solve_reports_progress_in_plain_lines() {
    let out = with_log_lines(&["hex", "solve", "--size", "4", "--all", "--json"], "0.001");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains("hex solve: ") && last.contains(" nodes ("),
        "{stderr}"
    );
    assert!(last.ends_with("solved"), "{stderr}");
    // The log's last count is the run's, as stdout gives it (not a multiple of 1024 behind).
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(nodes > 0);
    assert!(
        last.contains(&format!("hex solve: {nodes} nodes (")),
        "{nodes}: {stderr}"
    );
}

#[test]
fn solve_counts_the_nodes_and_time_of_the_perfect_play_length() {
    let solve = |plies: bool| {
        let mut args = vec![
            "hex",
            "solve",
            "--size",
            "4",
            "--moves",
            "b2",
            "--threads",
            "1",
            "--json",
        ];
        if plies {
            args.push("--plies");
        }
        json(&args)
    };
    let (plain, with_plies) = (solve(false), solve(true));
    assert_eq!(plain["winner"], with_plies["winner"]);
    assert!(with_plies["plies"].as_u64().unwrap() > 0);
    assert!(
        with_plies["nodes"].as_u64() > plain["nodes"].as_u64(),
        "{plain} {with_plies}"
    );
    assert!(with_plies["seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn plies_asked_for_write_the_table_first_and_each_length_as_found() {
    let dir = tempfile::tempdir().unwrap();
    let out = zermelo(&[
        "hex",
        "openings",
        "--size",
        "3",
        "--plies",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let table = text.find("winning openings: c1 a2 b2 c2 a3").unwrap();
    let first_length = text.find("3x3 perfect-play length after ").unwrap();
    assert!(table < first_length, "{text}");
    assert_eq!(text.matches("3x3 perfect-play length after ").count(), 9);
    assert!(
        text.contains("3x3 perfect-play length after b2: 5 plies"),
        "{text}"
    );
    let md = std::fs::read_to_string(dir.path().join("3x3-openings.md")).unwrap();
    assert!(md.contains("| b2 | wins | 5 |"), "{md}");
    // Without lengths, the Markdown table has no empty column for them.
    let out = zermelo(&[
        "hex",
        "openings",
        "--size",
        "3",
        "--no-plies",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let md = std::fs::read_to_string(dir.path().join("3x3-openings.md")).unwrap();
    assert!(
        md.contains("| b2 | wins |\n") && !md.contains("plies |"),
        "{md}"
    );
}

#[test]
fn prose_spells_misere_with_its_accent_and_json_without() {
    let text =
        String::from_utf8_lossy(&zermelo(&["hex", "solve", "--size", "3", "--misere"]).stdout)
            .into_owned();
    assert!(text.contains("3x3 misère Hex"), "{text}");
    let text =
        String::from_utf8_lossy(&zermelo(&["hex", "openings", "--size", "2", "--misere"]).stdout)
            .into_owned();
    assert!(
        text.contains("2x2 misère Hex") && !text.contains("misere"),
        "{text}"
    );
    let v = json(&["hex", "solve", "--size", "3", "--misere", "--json"]);
    assert_eq!(v["rules"], "misere");
}

#[test]
fn lookup_answers_from_the_table_as_the_solver_does() {
    let dir = tempfile::tempdir().unwrap();
    for misere in [false, true] {
        let table = dir.path().join(format!("3x3-{misere}.zt"));
        let t = table.to_str().unwrap();
        let mut args = vec!["hex", "table", "--size", "3", "--out", t];
        if misere {
            args.push("--misere");
        }
        assert!(zermelo(&args).status.success());
        for moves in ["", "b2", "a1", "a1 c3", "b2 a3 c1", "a3 b2 c1 a2"] {
            let mut solve = vec![
                "hex", "solve", "--size", "3", "--moves", moves, "--all", "--json",
            ];
            if misere {
                solve.push("--misere");
            }
            let s = json(&solve);
            let l = json(&["hex", "lookup", "--table", t, "--moves", moves, "--json"]);
            for key in [
                "size",
                "rules",
                "misere",
                "moves",
                "to_move",
                "winner",
                "winning_moves",
            ] {
                assert_eq!(l[key], s[key], "{key} after {moves:?}, misère {misere}");
            }
        }
    }
    let t = dir.path().join("3x3-false.zt");
    let t = t.to_str().unwrap();
    let text =
        String::from_utf8_lossy(&zermelo(&["hex", "lookup", "--table", t]).stdout).into_owned();
    assert!(text.contains("black to move: black wins"), "{text}");
    // Each table kind names the command that reads it.
    let message = error(&["grundy", "show", t]);
    assert!(message.contains("zermelo hex lookup --table"), "{message}");
    let grundy = dir.path().join("k.zgt");
    let g = grundy.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.77", "--max", "100", "--out", g, "--json",
    ]);
    let message = error(&["hex", "lookup", "--table", g]);
    assert!(message.contains("zermelo grundy show"), "{message}");
    let message = error(&["hex", "lookup", "--table", t, "--moves", "d1"]);
    assert!(message.contains("3x3 table"), "{message}");
    let message = error(&["hex", "lookup", "--table", t, "--moves", "a1 b1 a2 b2 a3"]);
    assert!(message.contains("already over"), "{message}");
}

/// The folder of the committed Hex results.
fn results_hex() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/hex")
}

/// A committed JSON result.
fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every committed opening table (results/hex/NxN-openings.json and the misère ones) gives a
/// cell and its 180° rotation the same value, as the rotation preserves every result; the
/// openings of a board are searched one by one, so this checks the table against itself. The
/// misère tables agree with the theorems of misère Hex: on even boards the first player wins
/// (Lagarias and Sleator), by the acute corner a1 (Evans) and, from 4x4 on, by b1, its neighbour
/// along the first player's edge (Hayward, Toft and Henderson); on odd boards every opening
/// loses.
#[test]
fn committed_opening_tables_are_symmetric() {
    let dir = results_hex();
    let mut tables = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with("openings.json") {
            continue;
        }
        let v = read_json(&path);
        let n = v["size"].as_u64().unwrap() as usize;
        let openings = v["openings"].as_array().unwrap();
        assert_eq!(openings.len(), n * n, "{name}");
        let wins = |i: usize| openings[i]["first_player_wins"].as_bool().unwrap();
        for i in 0..n * n {
            assert_eq!(
                wins(i),
                wins(n * n - 1 - i),
                "{name}: cell {i} and its rotation"
            );
        }
        if v["misere"].as_bool().unwrap() {
            if n % 2 == 0 {
                assert!(wins(0), "{name}: the acute corner a1 loses");
                assert!(n < 4 || wins(1), "{name}: b1 loses");
            } else {
                assert!((0..n * n).all(|i| !wins(i)), "{name}: an opening wins");
            }
        }
        tables += 1;
    }
    assert!(tables >= 10, "{tables} tables read");
}

/// The committed parity check reaches 6x6, holds the theorem on every size, and lists as
/// winning exactly the openings the committed misère tables say win.
#[test]
fn committed_parity_check_agrees_with_the_misere_tables() {
    let read = |name: &str| read_json(&results_hex().join(name));
    let parity = read("misere-parity.json");
    assert_eq!(parity["theorem_holds_on_every_size"], true);
    let sizes = parity["sizes"].as_array().unwrap();
    assert!(
        sizes.len() >= 6,
        "the parity check stops at {}x{0}",
        sizes.len()
    );
    for size in sizes {
        let n = size["size"].as_u64().unwrap();
        assert_eq!(size["first_player_wins"], n % 2 == 0, "{n}x{n}");
        let table = read(&format!("{n}x{n}-misere-openings.json"));
        let winning: Vec<&Value> = table["openings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["first_player_wins"] == true)
            .map(|o| &o["cell"])
            .collect();
        let listed: Vec<&Value> = size["winning_openings"]
            .as_array()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(listed, winning, "{n}x{n}");
    }
}

/// `hex templates` regenerates the committed list byte for byte, saying what it leaves out
/// (single-stone templates and those with a second stone each by their own limit); lists the
/// larger template with a higher `--max-cells`; and refuses a row out of range.
#[test]
fn templates_regenerates_the_committed_list() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("edge-templates.txt");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["hex", "templates", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success());
    let committed = include_str!("../../hex/data/edge-templates.txt");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), committed);
    let said = String::from_utf8_lossy(&status.stderr);
    assert!(said.contains("row 4: 3 templates, 1 of more than 36 cells left out"));
    assert!(
        said.contains("row 5 with a second stone: 23 templates, 48 of more than 23 cells left out")
    );
    let larger = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["hex", "templates", "--max-row", "4", "--max-cells", "37"])
        .output()
        .unwrap();
    assert!(larger.status.success());
    let listed = String::from_utf8_lossy(&larger.stdout);
    assert!(listed.contains("# row 4: 4 templates") && listed.contains("carrier of 37 cells"));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["hex", "templates", "--max-row", "9"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--max-row 9 is out of range"));
}

/// The finished openings of the 8x8 run kept in results/hex/8x8-run (scripts/hex-8x8.sh): the
/// table read from the kept proofs gives each done job's opening the winner, the time and the
/// nodes of its record, and its 180° twin the same winner.
#[test]
fn the_kept_8x8_run_agrees_with_its_records() {
    let kept = results_hex().join("8x8-run");
    let proofs = kept.join("8x8-openings.proofs");
    let tmp = tempfile::tempdir().unwrap();
    let out = zermelo(&[
        "hex",
        "openings",
        "--size",
        "8",
        "--json",
        "--proofs",
        &proofs.to_string_lossy(),
        "--proven-only",
        "--batch",
        &kept.to_string_lossy(),
        "--out",
        &tmp.path().to_string_lossy(),
    ]);
    assert!(
        matches!(out.status.code(), Some(0 | 3)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table: Value = serde_json::from_slice(&out.stdout).unwrap();
    let openings = table["openings"].as_array().unwrap();
    let mut done = 0;
    for entry in std::fs::read_dir(&kept).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let record = read_json(&path);
        assert_eq!(record["status"], "done", "{}", path.display());
        let cell = record["job"]["moves"].as_str().unwrap();
        let i = openings.iter().position(|o| o["cell"] == cell).unwrap();
        let first_wins = record["result"]["winner"] == "black";
        for o in [&openings[i], &openings[63 - i]] {
            assert_eq!(o["first_player_wins"], first_wins, "{cell}: {o}");
        }
        let p = &record["provenance"];
        let total = |key: &str| p[format!("total_{key}")].clone();
        let (nodes, seconds) = match total("nodes") {
            Value::Null => (p["nodes"].clone(), p["wall_seconds"].clone()),
            nodes => (nodes, total("wall_seconds")),
        };
        assert_eq!(
            (&openings[i]["nodes"], &openings[i]["seconds"]),
            (&nodes, &seconds),
            "{cell}"
        );
        done += 1;
    }
    assert!(done >= 1, "no record kept in {}", kept.display());
}
