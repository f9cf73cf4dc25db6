//! The `zermelo grundy` and `zermelo nim` commands end to end: the JSON contract, the table
//! files (write, show, resume, corruption) and the one-line errors.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::{head, json, with_log_lines, zermelo};

/// Asserts a failure with exactly one line on stderr, starting with the program's prefix.
fn fails(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("zermelo: error: "), "{args:?}: {err}");
    err
}

fn values(v: &Value) -> Vec<u64> {
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn octal_json_contract() {
    let v = json(&[
        "grundy", "octal", "0.77", "--max", "400", "--json", "--values",
    ]);
    assert_eq!(v["game"], "0.77");
    assert_eq!(v["computed"], 400);
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["period"], 12);
    assert_eq!(v["proven"], true);
    let g = values(&v);
    assert_eq!(g.len(), 401);
    assert_eq!(v["max_value"], *g.iter().max().unwrap());
}

#[test]
fn stop_when_proven_ends_at_the_proof() {
    let v = json(&[
        "grundy",
        "octal",
        "0.07",
        "--max",
        "2^20",
        "--stop-when-proven",
        "--json",
    ]);
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(53), Some(34))
    );
    assert_eq!(v["computed"], 2 * 53 + 2 * 34 + 2 - 1);
    assert_eq!(v["proven"], true);
}

#[test]
fn unperiodic_runs_report_null() {
    let v = json(&["grundy", "octal", "4!.0", "--max", "2000", "--json"]);
    assert!(v["period"].is_null() && v["preperiod"].is_null());
    assert_eq!(v["proven"], false);
}

#[test]
fn engines_agree() {
    let sparse = json(&[
        "grundy", "octal", "0.6", "--max", "3000", "--json", "--values",
    ]);
    let naive = json(&[
        "grundy", "octal", "0.6", "--max", "3000", "--json", "--values", "--engine", "naive",
    ]);
    assert_eq!(values(&sparse), values(&naive));
}

#[test]
fn thread_counts_agree() {
    let one = json(&[
        "grundy", "octal", "4!.0", "--max", "90000", "--json", "--values",
    ]);
    let two = json(&[
        "grundy",
        "octal",
        "4!.0",
        "--max",
        "90000",
        "--json",
        "--values",
        "--threads",
        "2",
    ]);
    assert_eq!(values(&one), values(&two));
    fails(&["grundy", "octal", "0.6", "--max", "10", "--threads", "0"]);
}

#[test]
fn subtraction_and_piece_json() {
    let v = json(&[
        "grundy",
        "subtraction",
        "2,3",
        "--max",
        "30",
        "--json",
        "--values",
    ]);
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(0), Some(5))
    );
    assert_eq!(v["proven"], true);
    assert_eq!(&values(&v)[..5], &[0, 0, 1, 1, 2]);
    let m = json(&[
        "grundy",
        "subtraction",
        "1,2,3,4",
        "--misere",
        "--max",
        "29",
        "--json",
        "--values",
    ]);
    let zeros: Vec<usize> = values(&m)
        .iter()
        .enumerate()
        .filter(|(_, &x)| x == 0)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(zeros, vec![1, 6, 11, 16, 21, 26]);
    let p = json(&[
        "grundy", "piece", "rook", "--size", "16", "--json", "--values",
    ]);
    assert_eq!(p["computed"], 15);
    assert_eq!(p["values"][5][3], 3 ^ 5);
    assert!(p["period"].is_null());
}

#[test]
fn out_show_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("dawson.zgt");
    let f = file.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.07", "--max", "120", "--out", f, "--json",
    ]);
    let resumed = json(&[
        "grundy", "octal", "0.07", "--max", "900", "--resume", f, "--json", "--values",
    ]);
    assert_eq!(resumed["resumed_from"], 121);
    let straight = json(&[
        "grundy", "octal", "0.07", "--max", "900", "--json", "--values",
    ]);
    assert_eq!(values(&resumed), values(&straight));
    let shown = json(&[
        "grundy", "show", f, "--json", "--values", "--from", "0", "--to", "900",
    ]);
    assert_eq!(values(&shown), values(&straight));
    assert_eq!(shown["period"], 34);
    // Proven period: values beyond the table come from it.
    let far = json(&[
        "grundy", "show", f, "--json", "--values", "--from", "5000", "--to", "5033",
    ]);
    let period: Vec<u64> = values(&straight)[900 - 33..=900].to_vec();
    let mut far_sorted = values(&far);
    let mut period_sorted = period.clone();
    far_sorted.sort_unstable();
    period_sorted.sort_unstable();
    assert_eq!(far_sorted, period_sorted);
    let csv = zermelo(&["grundy", "show", f, "--csv", "--to", "3"]);
    let text = String::from_utf8(csv.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("n,value"));
    assert_eq!(text.lines().count(), 5);
    // Another game's table is refused.
    let err = fails(&["grundy", "octal", "0.77", "--max", "1000", "--resume", f]);
    assert!(err.contains("0.07"), "{err}");
}

fn corrupt(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let i = bytes.len() - 10;
    bytes[i] ^= 0x55;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn corrupt_and_truncated_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.zgt");
    let f = file.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.77", "--max", "500", "--out", f, "--json",
    ]);
    let good = std::fs::read(&file).unwrap();
    corrupt(&file);
    let err = fails(&["grundy", "show", f]);
    assert!(err.contains("corrupt"), "{err}");
    fails(&["grundy", "octal", "0.77", "--max", "900", "--resume", f]);
    std::fs::write(&file, &good[..good.len() - 7]).unwrap();
    let err = fails(&["grundy", "show", f]);
    assert!(err.contains("truncated"), "{err}");
}

#[test]
fn a_table_at_out_is_not_replaced_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.zgt");
    let f = file.to_str().unwrap();
    json(&[
        "grundy", "octal", "4!.0", "--max", "300", "--out", f, "--json",
    ]);
    let grundy_game = std::fs::read(&file).unwrap();
    let err = fails(&["grundy", "octal", "0.77", "--max", "100", "--out", f]);
    assert!(err.contains("holds a table of 4!.0 to G(300)"), "{err}");
    assert!(err.contains("--resume") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), grundy_game);
    let v = json(&[
        "grundy", "octal", "0.77", "--max", "100", "--out", f, "--force", "--json",
    ]);
    assert_eq!(v["game"], "0.77");
    let shown = json(&["grundy", "show", f, "--json"]);
    assert_eq!(shown["game"], "0.77");
    // --from and --to take the 2^N form --max takes.
    let shown = json(&[
        "grundy", "show", f, "--json", "--values", "--from", "2^3", "--to", "2^6",
    ]);
    assert_eq!(shown["values"].as_array().unwrap().len(), 64 - 8 + 1);
}

#[test]
fn the_misere_search_bound_is_named_and_can_be_raised() {
    let err = fails(&[
        "nim",
        "--misere",
        "0.77:12",
        "0.77:13",
        "--positions",
        "100",
    ]);
    assert!(
        err.contains("more than 100 positions") && err.contains("--positions"),
        "{err}"
    );
    let err = fails(&[
        "nim",
        "--misere",
        "0.77:3",
        "--positions",
        "100000000000000000",
    ]);
    assert!(err.contains("--positions") && err.contains("fits"), "{err}");
    let v = json(&[
        "nim",
        "--misere",
        "0.77:12",
        "0.77:13",
        "--positions",
        "3000000",
        "--json",
    ]);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn a_knight_component_names_its_board() {
    let on = |c: &str| json(&["nim", c, "--json"])["value"].as_u64().unwrap();
    let table = |side: &str| {
        let v = json(&[
            "grundy", "piece", "knight", "--size", side, "--json", "--values",
        ]);
        v["values"][7][7].as_u64()
    };
    assert_eq!(Some(on("knight(7,7,12)")), table("12"));
    assert_eq!(Some(on("knight(7,7)")), table("8"));
    let text = zermelo(&["nim", "knight(7,7)"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("knight(7,7,8)"));
}

#[test]
fn bad_input_gets_one_line() {
    for args in [
        &["grundy", "octal", "0.9x", "--max", "10"][..],
        &["grundy", "octal", "77", "--max", "10"],
        &["grundy", "octal", "0.77", "--max", "-5"],
        &["grundy", "octal", "0.77", "--max", "ten"],
        &["grundy", "octal", "0.77", "--max", "2^60"],
        &["grundy", "octal", "0.77", "--max", "2^33"],
        &[
            "grundy",
            "census",
            "--digits",
            "1",
            "--out",
            "/tmp/x",
            "--threads",
            "0",
        ],
        &[
            "grundy", "octal", "0.8", "--max", "10", "--engine", "sparse",
        ],
        &["grundy", "subtraction", "", "--max", "10"],
        &["grundy", "subtraction", "0,2", "--max", "10"],
        &["grundy", "subtraction", "1,2", "--max", "-1"],
        &["grundy", "piece", "bishop", "--size", "8"],
        &["grundy", "piece", "--jumps", "1,-1", "--size", "8"],
        &["grundy", "piece", "rook", "--size", "0"],
        &["grundy", "show", "/nonexistent/table.zgt"],
        &["nim", "3", "x"],
        &["nim", "-3"],
        &["nim", "0.77:3", "4", "--misere"],
        &["nim", "3", "0.77:4", "--k", "2"],
    ] {
        fails(args);
    }
}

#[test]
fn nim_reproduces_the_worked_examples() {
    let v = json(&["nim", "3", "6", "8", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["value"], 13);
    assert_eq!(v["winning_moves"][0]["to"], "5");
    let m = json(&["nim", "3", "5", "8", "--misere", "--json"]);
    assert_eq!(m["winning_moves"][0]["to"], "3 5 6");
    let s = json(&["nim", "S(1,2,3):15", "--json"]);
    assert_eq!(s["winning_moves"][0]["to"], "S(1,2,3):12 (take 3)");
    let sm = json(&["nim", "S(1,2,3,4):29", "--misere", "--json"]);
    assert_eq!(sm["winning_moves"][0]["to"], "S(1,2,3,4):26 (take 3)");
    let p = json(&["nim", "1", "2", "3", "--json"]);
    assert_eq!(p["outcome"], "P");
    assert_eq!(p["winning_moves"].as_array().unwrap().len(), 0);
    let moore = json(&["nim", "1", "1", "1", "--k", "2", "--json"]);
    assert_eq!(moore["outcome"], "P");
}

#[test]
fn sigterm_writes_a_checkpoint_that_resumes_to_the_straight_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("officers.zgt");
    let f = file.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args(["grundy", "octal", "0.6", "--max", "2^24", "--out", f])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("checkpoint written"), "{err}");
    let shown = json(&["grundy", "show", f, "--json"]);
    assert_eq!(shown["complete"], false);
    let reached = shown["computed"].as_u64().unwrap();
    assert!(reached > 0);
    let target = (reached + 5000).to_string();
    let resumed = json(&[
        "grundy", "octal", "0.6", "--max", &target, "--resume", f, "--json", "--values",
    ]);
    let straight = json(&[
        "grundy", "octal", "0.6", "--max", &target, "--json", "--values",
    ]);
    assert_eq!(values(&resumed), values(&straight));
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.zgt");
    let t = table.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.6", "--max", "2^16", "--out", t, "--json",
    ]);
    for (args, lines) in [
        (&["grundy", "show", t, "--csv"][..], 1),
        (&["grundy", "show", t, "--to", "65536"], 10),
        (&["grundy", "octal", "0.6", "--max", "2^16", "--values"], 2),
        (
            &["grundy", "piece", "wythoff", "--size", "300", "--values"],
            10,
        ),
    ] {
        let (status, stderr) = head(args, lines);
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn os_errors_are_said_once() {
    for args in [
        &[
            "grundy",
            "octal",
            "0.6",
            "--max",
            "10",
            "--out",
            "/nonexistent/dir/x.zgt",
        ][..],
        &[
            "grundy",
            "octal",
            "0.6",
            "--max",
            "10",
            "--resume",
            "/nonexistent/x.zgt",
        ],
        &[
            "hex",
            "table",
            "--size",
            "2",
            "--out",
            "/nonexistent/dir/x.zt",
        ],
    ] {
        let err = fails(args);
        assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    }
}

#[test]
fn usage_errors_name_what_is_wrong() {
    let out = zermelo(&["nim"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("<COMPONENTS>"), "{err}");
    let out = zermelo(&[
        "grundy",
        "octal",
        "0.77",
        "--max",
        "9",
        "--checkpoint-secs",
        "0",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("--checkpoint-secs"), "{err}");
    let err = fails(&["grundy", "piece", "--size", "10"]);
    assert!(!err.contains("not both"), "{err}");
    assert!(err.contains("name a piece"), "{err}");
    let err = fails(&["grundy", "piece", "rook", "--jumps", "1,2", "--size", "10"]);
    assert!(err.contains("not both"), "{err}");
    let err = fails(&["nim", "--misere", "0.77:5", "0.07:3"]);
    assert!(
        err.contains("one game") && err.contains("0.77:5 + 0.07:3"),
        "{err}"
    );
    let err = fails(&["nim", "--k", "2", "0.77:5"]);
    assert!(
        err.contains("Moore's Nim_2") && !err.contains("misère"),
        "{err}"
    );
}

#[test]
fn progress_ends_where_the_run_ended() {
    let out = with_log_lines(
        &[
            "grundy",
            "octal",
            "0.77",
            "--max",
            "2^16",
            "--stop-when-proven",
            "--json",
        ],
        "1000",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Kayles' period is proven at G(167): the run stops at 168 values of the 65537 asked for.
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.contains(": 168/168 values"), "{stderr}");
    assert!(last.contains("period proven"), "{stderr}");
    // The last heap computed, as G(0..=1000) is written: n=1000, not the count 1001.
    let out = with_log_lines(
        &["grundy", "octal", "0.77", "--max", "1000", "--json"],
        "1000",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.contains("1001/1001 values") && last.contains(" n=1000 "),
        "{stderr}"
    );
}

#[test]
fn piece_runs_report_progress() {
    let out = with_log_lines(
        &["grundy", "piece", "wythoff", "--size", "40", "--json"],
        "1000",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Each of the 40 x 40 cells has x + y + min(x, y) moves.
    let moves: usize = (0..40)
        .flat_map(|x| (0..40).map(move |y| x + y + x.min(y)))
        .sum();
    assert!(
        stderr.contains(&format!("piece wythoff 40x40: {moves}/{moves} moves")),
        "{stderr}"
    );
}

#[test]
fn nim_numbers_components_alike_in_json_and_text() {
    // 1 + 2: the only winning move takes heap 2 (the second component) down to 1.
    let v = json(&["nim", "1", "2", "--json"]);
    assert_eq!(v["winning_moves"][0]["component"], 2);
    let text = String::from_utf8_lossy(&zermelo(&["nim", "1", "2"]).stdout).into_owned();
    assert!(text.contains("winning move in component 2 "), "{text}");
}

#[test]
fn show_plots_a_table_as_svg() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("k.zgt");
    let t = table.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.77", "--max", "500", "--out", t, "--json",
    ]);
    let plot = dir.path().join("k.svg");
    let p = plot.to_str().unwrap();
    let out = zermelo(&["grundy", "show", t, "--plot", p]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = std::fs::read_to_string(&plot).unwrap();
    assert!(doc.starts_with("<svg ") && doc.ends_with("</svg>\n"));
    assert!(
        doc.contains("G(n) of 0.77, n = 0 to 500; period 12 from 71, proven"),
        "{doc}"
    );
    assert!(doc.contains("periodic from here"));
    // Beyond the table, from the proven period, as --to allows elsewhere.
    let out = zermelo(&[
        "grundy", "show", t, "--plot", p, "--from", "1000", "--to", "3000",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = fails(&["grundy", "show", t, "--plot", "/nonexistent/dir/k.svg"]);
    assert!(err.contains("k.svg"), "{err}");
}

/// The values of the pieces of a `--stream` folder, in order, read with the store's reader.
fn stream_values(dir: &Path) -> Vec<u64> {
    let mut values = Vec::new();
    for k in 0.. {
        let path = dir.join(format!("piece-{k:06}.zgt"));
        if !path.exists() {
            break;
        }
        let piece = zermelo_store::table::read(&path).unwrap();
        assert_eq!(piece.header["first"], values.len());
        values.extend(
            piece
                .payload
                .chunks_exact(2)
                .map(|b| u64::from(u16::from_le_bytes([b[0], b[1]]))),
        );
    }
    values
}

#[test]
fn streamed_pieces_read_back_as_the_engines_values() {
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("officers");
    let s = stream.to_str().unwrap();
    let first = json(&[
        "grundy", "octal", "0.6", "--max", "5000", "--stream", s, "--piece", "2^10", "--json",
    ]);
    assert_eq!(first["out"], s);
    // Five full pieces and one partial.
    assert_eq!(stream_values(&stream).len(), 5001);
    assert!(stream.join("piece-000004.zgt").exists() && !stream.join("piece-000005.zgt").exists());
    // Temporary files that killed writes left behind go when the stream is resumed.
    let stale = [".piece-000005.zgt.4242.tmp", ".stream.json.4242.tmp"];
    for name in stale {
        std::fs::write(stream.join(name), b"partial").unwrap();
    }
    let resumed = json(&[
        "grundy", "octal", "0.6", "--max", "12000", "--stream", s, "--json", "--values",
    ]);
    assert_eq!(resumed["resumed_from"], 5001);
    assert!(stale.iter().all(|name| !stream.join(name).exists()));
    let game: zermelo_grundy::OctalGame = "0.6".parse().unwrap();
    let mut engine = zermelo_grundy::SparseEngine::new(&game).unwrap();
    engine.extend_to(12_000).unwrap();
    let in_memory: Vec<u64> = engine.values().iter().map(|&v| u64::from(v)).collect();
    assert_eq!(stream_values(&stream), in_memory);
    assert_eq!(values(&resumed), in_memory);
    let naive = zermelo_grundy::naive::values(&game, 12_000).unwrap();
    assert!(in_memory
        .iter()
        .zip(&naive)
        .all(|(&a, &b)| a == u64::from(b)));
    let manifest = zermelo_store::json::read(&stream.join("stream.json")).unwrap();
    assert_eq!(
        (manifest["length"].as_u64(), manifest["complete"].as_bool()),
        (Some(12001), Some(true))
    );
    // Asking for less than the stream holds, another game, or other pieces is refused.
    fails(&["grundy", "octal", "0.6", "--max", "9000", "--stream", s]);
    let err = fails(&["grundy", "octal", "0.77", "--max", "20000", "--stream", s]);
    assert!(err.contains("0.6"), "{err}");
    fails(&[
        "grundy", "octal", "0.6", "--max", "20000", "--stream", s, "--piece", "2^11",
    ]);
    // A damaged piece, or a missing one, is refused with one line.
    let piece = stream.join("piece-000003.zgt");
    let good = std::fs::read(&piece).unwrap();
    corrupt(&piece);
    let err = fails(&["grundy", "octal", "0.6", "--max", "20000", "--stream", s]);
    assert!(err.contains("piece-000003"), "{err}");
    std::fs::remove_file(&piece).unwrap();
    let err = fails(&["grundy", "octal", "0.6", "--max", "20000", "--stream", s]);
    assert!(err.contains("missing"), "{err}");
    std::fs::write(&piece, good).unwrap();
    json(&[
        "grundy", "octal", "0.6", "--max", "12000", "--stream", s, "--json",
    ]);
    // A piece of no values is refused before the folder is made.
    let none = dir.path().join("none");
    let n = none.to_str().unwrap();
    let err = fails(&[
        "grundy", "octal", "0.6", "--max", "100", "--stream", n, "--piece", "0",
    ]);
    assert!(err.contains("--piece"), "{err}");
    assert!(!none.exists());
}

#[test]
fn a_streamed_run_that_stops_on_a_proof_is_cut_there() {
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("dawson");
    let s = stream.to_str().unwrap();
    json(&[
        "grundy", "octal", "0.07", "--max", "900", "--stream", s, "--piece", "64", "--json",
    ]);
    assert_eq!(stream_values(&stream).len(), 901);
    let proven = json(&[
        "grundy",
        "octal",
        "0.07",
        "--max",
        "900",
        "--stream",
        s,
        "--stop-when-proven",
        "--json",
        "--values",
    ]);
    assert_eq!(
        (proven["computed"].as_u64(), proven["period"].as_u64()),
        (Some(175), Some(34))
    );
    assert_eq!(stream_values(&stream), values(&proven));
    assert!(!stream.join("piece-000003.zgt").exists());
    // `grundy show` reads the folder as a table, its period from the manifest.
    let shown = json(&["grundy", "show", s, "--json", "--values", "--to", "175"]);
    assert_eq!(
        (shown["period"].as_u64(), shown["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    assert_eq!(
        (shown["proven"].as_bool(), shown["complete"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(values(&shown), values(&proven));
}

#[test]
fn sigterm_checkpoints_a_stream_that_resumes_to_the_straight_table() {
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("officers");
    let s = stream.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
        .args([
            "grundy", "octal", "0.6", "--max", "2^24", "--stream", s, "--piece", "10000",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("checkpoint written"), "{err}");
    let manifest = zermelo_store::json::read(&stream.join("stream.json")).unwrap();
    assert_eq!(manifest["complete"], false);
    let reached = stream_values(&stream).len() as u64;
    assert_eq!(manifest["length"].as_u64(), Some(reached));
    assert!(reached > 1);
    let target = (reached + 5000).to_string();
    let resumed = json(&[
        "grundy", "octal", "0.6", "--max", &target, "--stream", s, "--json", "--values",
    ]);
    assert_eq!(resumed["resumed_from"].as_u64(), Some(reached));
    let straight = json(&[
        "grundy", "octal", "0.6", "--max", &target, "--json", "--values",
    ]);
    assert_eq!(values(&resumed), values(&straight));
    assert_eq!(stream_values(&stream), values(&straight));
}
