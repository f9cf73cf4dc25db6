//! Every parser a user or a file can reach, fed hostile input: move lists, board diagrams, SGF
//! files, octal codes, components of sums (Nim in disguise among them), Hackenbush drawings
//! (edge tokens and DOT), engine protocol lines and sessions, counts, job files, Grundy tables, proof files, open entries and stream
//! folders. Each must answer (a value or an error), never panic, never hang,
//! and never allocate far beyond what its input holds: the whole test binary runs under an
//! allocator that refuses more than [`MEMORY_LIMIT`] bytes in all, so an input that makes a
//! parser reserve a size it read (rather than one it checked) ends the run.
//!
//! Cases per parser: [`DEFAULT_CASES`] in the test suite, or `ZERMELO_FUZZ_CASES` (a million
//! for a local run: `ZERMELO_FUZZ_CASES=1000000 cargo test --release -p zermelo-batch --test
//! fuzz`).

use std::path::{Path, PathBuf};

use cap::Cap;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};
use zermelo_grundy::sum::Component;
use zermelo_grundy::OctalGame;
use zermelo_hex::{Position, Rules, Sgf};

#[global_allocator]
static ALLOCATOR: Cap<std::alloc::System> = Cap::new(std::alloc::System, MEMORY_LIMIT);

/// The most memory the whole test binary may hold at once: far above what any of these small
/// inputs should need, far below what a size read from a file could ask for.
const MEMORY_LIMIT: usize = 1 << 30;

/// Cases per parser in the test suite.
const DEFAULT_CASES: u32 = 1000;

fn cases() -> u32 {
    std::env::var("ZERMELO_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// Runs `check` on `cases()` inputs drawn from `strategy` (no shrinking needed: any failure is
/// a panic, reported with its input).
fn fuzz<S: Strategy>(strategy: S, check: impl Fn(S::Value))
where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 0,
        ..Config::default()
    };
    TestRunner::new(config)
        .run(&strategy, |input| {
            check(input);
            Ok(())
        })
        .unwrap();
}

/// Text made of `tokens` (the pieces a parser looks for) and random characters between them.
fn soup(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(tokens).prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
        1 => "[0-9]{1,22}",
        1 => Just(" ".to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|parts| parts.concat())
}

/// Any text: arbitrary characters, or soup of the given tokens.
fn text(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), soup(tokens)]
}

const CELLS: &[&str] = &[
    "a1", "b2", "c3", "k11", "l12", "z99", "a0", "a", "1", ",", " ", "\t", "A1", "a-1", "aa1",
];

#[test]
fn move_lists() {
    fuzz((1usize..=12, text(CELLS)), |(n, moves)| {
        if let Ok(p) = Position::from_moves(n, &moves) {
            assert_eq!(p.size(), n);
        }
    });
}

const DIAGRAM: &[&str] = &[
    "\n",
    " ",
    "  ",
    ".",
    "B",
    "W",
    "b",
    "w",
    "X",
    "1",
    "2",
    "3",
    "4",
    "11",
    "12",
    "99999999999",
    "a b c",
    "   a b\n",
    " 1 ",
    "\n 2 ",
    "\n  3 ",
];

#[test]
fn board_diagrams() {
    fuzz(text(DIAGRAM), |diagram| {
        if let Ok(p) = Position::from_diagram(&diagram) {
            assert!((1..=zermelo_hex::MAX_SIZE).contains(&p.size()));
        }
        let _ = Position::from_diagram_to_move(&diagram, zermelo_hex::Player::White);
    });
}

const SGF: &[&str] = &[
    "(",
    ")",
    ";",
    "FF[4]",
    "GM[11]",
    "GM[1]",
    "SZ[",
    "SZ[4]",
    "SZ[11]",
    "SZ[99]",
    "SZ[4:5]",
    "]",
    "[",
    "\\]",
    "AB[",
    "AW[",
    "AE[",
    "B[",
    "W[",
    "PL[B]",
    "PL[W]",
    "aa",
    "bb",
    "a1",
    "swap-pieces",
    "resign",
    "C[",
    "AP[HexGui]",
    "ka",
    "zz",
];

#[test]
fn sgf_files() {
    fuzz(text(SGF), |sgf| {
        if let Ok(game) = Sgf::parse(&sgf) {
            let _ = game.position(None);
            let _ = game.position(Some(zermelo_hex::Player::Black));
        }
    });
}

const CODES: &[&str] = &[
    "0", ".", "4", "!", "7", "3", "f", "F", "8", "9", "0.", "4.", "4!.", "0.77", "0.07", "0.6",
    "0.137", "77777777", "x", "-", "^", "1000",
];

#[test]
fn octal_codes() {
    fuzz(text(CODES), |code| {
        if let Ok(game) = code.parse::<OctalGame>() {
            // A parsed code moves on small heaps without trouble.
            for n in 0..8 {
                let _ = game.moves(n);
            }
        }
    });
}

const COMPONENTS: &[&str] = &[
    "S(",
    "allbut(",
    "wythoff(",
    "knight(",
    "rook(",
    "(",
    ")",
    ",",
    ":",
    "0.77:",
    "1,3,4",
    "-",
    "4294967296",
    "16777216",
    "16777217",
    "2^",
    "0.6",
    "3",
];

#[test]
fn components_of_sums() {
    fuzz(text(COMPONENTS), |component| {
        if let Ok(c) = component.parse::<Component>() {
            // What parses prints back to a component that parses to the same.
            let again: Component = c.to_string().parse().expect("a printed component parses");
            assert_eq!(again.to_string(), c.to_string());
        }
    });
}

const DRAWINGS: &[&str] = &[
    "0-1",
    "1-2",
    "2-0",
    "1-1",
    "0-0",
    "3-4",
    "-",
    "--",
    "->",
    " ",
    "\n",
    ";",
    "graph",
    "digraph",
    "{",
    "}",
    "[",
    "]",
    "label=\"x\"",
    "//",
    "/*",
    "*/",
    "#",
    "a",
    "18446744073709551616",
    "4294967295",
    "subgraph",
];

#[test]
fn hackenbush_drawings() {
    fuzz(text(DRAWINGS), |drawing| {
        let parsed = [
            zermelo_grundy::hackenbush::Drawing::from_text(&drawing),
            zermelo_grundy::hackenbush::Drawing::from_dot(&drawing),
        ];
        for d in parsed.iter().flatten() {
            let analysis = d.analyse_with_budget(10_000);
            assert_eq!(analysis.value(), d.value());
            let _ = analysis.winning_moves();
        }
    });
}

const GTP: &[&str] = &[
    "1 ",
    "99999999999 ",
    "name",
    "version",
    "protocol_version",
    "known_command",
    "list_commands",
    "boardsize 3 3",
    "boardsize 4 4",
    "boardsize 12 12",
    "boardsize 3 4",
    "boardsize",
    "clear_board",
    "play b a1",
    "play w b2",
    "play black c3",
    "play white a1",
    "play b z9",
    "play",
    "undo",
    "swap-pieces",
    "showboard",
    "loadsgf /nonexistent.sgf",
    "loadsgf",
    "dfpn-solve-state b",
    "dfpn-solve-state white",
    "dfpn-solver-find-winning b",
    "dfpn-clear-tt",
    "param_dfpn",
    "param_dfpn threads 1",
    "param_dfpn threads 0",
    "param_dfpn timelimit 0.001",
    "param_dfpn timelimit -1",
    "param_dfpn tt_size 1",
    "param_game misere 1",
    "genmove b",
    "reg_genmove w",
    "hexgui-analyze_commands",
    "vc-get-mustplay b",
    "compute-fillin w",
    "compute-inferior b",
    "zermelo-edge-connections b",
    "vc-between-cells-full w a1 east",
    "vc-between-cells-semi b north b2",
    "gogui-interrupt",
    "all_legal_moves",
    "final_score",
    "#",
    "\t",
    "\u{7}",
    "quit",
];

#[test]
fn protocol_lines() {
    fuzz(text(GTP), |line| {
        let parsed = zermelo_hex::gtp::parse_line(&line);
        if let zermelo_hex::gtp::Line::Command(c) = parsed {
            assert!(!c.name.is_empty() && !c.name.contains(char::is_whitespace));
            let reply = zermelo_hex::gtp::format_reply(c.id, Ok(&line));
            assert!(reply.ends_with("\n\n"));
        }
    });
}

/// Sessions of hostile commands against the engine itself, each solve cut short by a time
/// limit of a millisecond (the commands' answers are the engine's tests' business; here only
/// that every line is answered or ignored without a panic). Its memory is the test's: the
/// transposition table stays at 1 MiB, as `tt_size` is not among the tokens beyond it.
#[test]
fn protocol_sessions() {
    let session = prop::collection::vec(text(GTP), 0..8);
    fuzz(session, |lines| {
        let mut engine = zermelo_hex::gtp::Engine::new(zermelo_hex::gtp::EngineConfig {
            threads: 1,
            tt_mb: 1,
            ..zermelo_hex::gtp::EngineConfig::default()
        });
        engine.execute("param_dfpn timelimit 0.001");
        for line in &lines {
            // A line that would raise the time limit or the table is left out.
            if line.contains("timelimit") || line.contains("tt_size") || line.contains("quit") {
                continue;
            }
            let _ = engine.execute(line);
        }
    });
}

#[test]
fn counts() {
    fuzz(
        text(&["2", "^", "10", "64", "99", " ", "-", "0"]),
        |count| {
            let _ = zermelo_grundy::parse_count(&count, "--max");
        },
    );
}

const JOBS: &[&str] = &[
    "[[job]]\n",
    "[defaults]\n",
    "name = \"a\"\n",
    "name = \"\"\n",
    "name = \"batch\"\n",
    "kind = \"hex-openings\"\n",
    "kind = \"hex-solve\"\n",
    "kind = \"hex-parity\"\n",
    "kind = \"grundy-octal\"\n",
    "kind = \"grundy-census\"\n",
    "size = 4\n",
    "size = 13\n",
    "size = -1\n",
    "size = 99999999999999999999\n",
    "moves = \"a1 b2\"\n",
    "moves = \"a1 a1\"\n",
    "max_size = 3\n",
    "game = \"0.77\"\n",
    "game = \"0.9Z\"\n",
    "max = \"2^20\"\n",
    "max = \"2^99\"\n",
    "max = 100\n",
    "max = 1.5\n",
    "digits = 2\n",
    "digits = 9\n",
    "threads = 2\n",
    "tt_mb = 16\n",
    "tt_mb = 99999999999\n",
    "time_limit = 0\n",
    "checkpoint_secs = 0\n",
    "stream = true\n",
    "misere = true\n",
    "stop_when_proven = true\n",
    "= \"",
    "[",
    "]",
    "\"",
    "#",
];

#[test]
fn job_files() {
    fuzz(text(JOBS), |file| {
        if let Ok(jobs) = zermelo_batch::jobs::parse(&file) {
            // A job file that parses has jobs whose command lines can be built.
            for job in &jobs {
                let _ = job.command_line(Path::new("out"), false);
                let _ = job.cost();
            }
        }
    });
}

/// A folder on a memory file system where possible (each case writes a file).
fn scratch() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = tempfile::tempdir_in(shm) {
            return dir;
        }
    }
    tempfile::tempdir().unwrap()
}

/// JSON values of the kinds a header holds, hostile ones among them.
fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..70).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        text(CODES).prop_map(Value::from),
        proptest::sample::select(
            &[
                "zermelo-grundy-table",
                "zermelo-grundy-piece",
                "zermelo-grundy-stream",
                "zermelo-hex-proofs",
                "zermelo-hex-open",
                "hex-retrograde",
                "u16le",
                "normal",
                "misere",
                "0.77",
                "4!.0",
            ][..]
        )
        .prop_map(Value::from),
    ]
}

/// A header: an object with some of the fields the readers look for.
fn header() -> impl Strategy<Value = Value> {
    const FIELDS: &[&str] = &[
        "kind",
        "game",
        "length",
        "target",
        "complete",
        "encoding",
        "preperiod",
        "period",
        "proven",
        "last_needed",
        "size",
        "rules",
        "count",
        "record_bytes",
        "entries",
        "estimates",
        "entry_bytes",
        "piece",
        "first",
    ];
    prop::collection::vec((proptest::sample::select(FIELDS), json_value()), 0..12).prop_map(
        |fields| {
            let mut h = serde_json::Map::new();
            for (k, v) in fields {
                h.insert(k.to_string(), v);
            }
            Value::Object(h)
        },
    )
}

/// The container's bytes: a well-formed one (checksum right) with a hostile header and
/// payload, or one with a few bytes changed, or bytes that are no container at all.
fn container(path: &Path, header: &Value, payload: &[u8], damage: &[(usize, u8)], raw: bool) {
    if raw {
        std::fs::write(path, payload).unwrap();
        return;
    }
    zermelo_store::table::write(path, header, payload).unwrap();
    if !damage.is_empty() {
        let mut bytes = std::fs::read(path).unwrap();
        for &(at, value) in damage {
            let len = bytes.len();
            bytes[at % len] = value;
        }
        std::fs::write(path, bytes).unwrap();
    }
}

fn file_case() -> impl Strategy<Value = (Value, Vec<u8>, Vec<(usize, u8)>, bool)> {
    (
        header(),
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec((any::<usize>(), any::<u8>()), 0..3),
        prop::bool::weighted(0.1),
    )
}

#[test]
fn grundy_tables() {
    let dir = scratch();
    let path = dir.path().join("t.zgt");
    fuzz(file_case(), |(header, payload, damage, raw)| {
        container(&path, &header, &payload, &damage, raw);
        if let Ok(t) = zermelo_batch::table::read(&path) {
            assert!(t.values.len() * 2 <= payload.len());
        }
    });
}

#[test]
fn proof_files_and_open_entries() {
    let dir = scratch();
    let path = dir.path().join("p.proofs");
    let open = zermelo_batch::proofs::open_path(&path);
    fuzz(
        (file_case(), file_case(), 1usize..=12),
        |((header, payload, damage, raw), (oh, op, od, oraw), n)| {
            container(&path, &header, &payload, &damage, raw);
            container(&open, &oh, &op, &od, oraw);
            let _ = zermelo_batch::proofs::read(&path);
            for rules in [Rules::Normal, Rules::Misere] {
                let _ = zermelo_batch::proofs::load(&path, n, rules);
            }
            let _ = zermelo_batch::proofs::read_open(&path);
        },
    );
}

#[test]
fn stream_folders() {
    let dir = scratch();
    let folder: PathBuf = dir.path().join("s.stream");
    std::fs::create_dir_all(&folder).unwrap();
    let manifest = folder.join("stream.json");
    fuzz(
        (header(), prop::collection::vec(file_case(), 0..3)),
        |(m, pieces)| {
            zermelo_store::json::write(&manifest, &m).unwrap();
            for entry in std::fs::read_dir(&folder).unwrap() {
                let entry = entry.unwrap();
                if entry.file_name() != "stream.json" {
                    std::fs::remove_file(entry.path()).unwrap();
                }
            }
            for (k, (header, payload, damage, raw)) in pieces.iter().enumerate() {
                let piece = folder.join(format!("piece-{k:06}.zgt"));
                container(&piece, header, payload, damage, *raw);
            }
            let _ = zermelo_batch::stream::read(&folder);
            let _ = zermelo_batch::stream::recorded(&folder);
            if let Ok(game) = "0.77".parse::<OctalGame>() {
                let _ = zermelo_batch::stream::Stream::open(&folder, &game, None);
            }
        },
    );
}

/// A strong-solution folder for the 2x2 board: layer files whose headers are right but for the
/// fields drawn (or wholly drawn), with payloads of the right length or not, then read as
/// `hex strong` resumes them and as `hex lookup --db` answers from them.
#[test]
fn strong_solution_layers() {
    use zermelo_batch::strong::{layer_path, lowest_finished, read_layer, Database};
    use zermelo_hex::strong::Engine;
    let dir = scratch();
    let layers = (
        prop::collection::vec(
            (
                0usize..=4,
                header(),
                any::<bool>(),
                prop::collection::vec(any::<u8>(), 0..16),
                any::<bool>(),
            ),
            0..5,
        ),
        any::<bool>(),
        (0u64..16, 0u64..16),
    );
    fuzz(layers, |(files, misere, (black, white))| {
        let rules = if misere { Rules::Misere } else { Rules::Normal };
        let engine = Engine::new(2, rules).unwrap();
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
        for (stones, drawn, keep_right, payload, right_length) in &files {
            let mut h = json!({
                "kind": "hex-strong-layer", "size": 2,
                "rules": if misere { "misere" } else { "normal" },
                "stones": stones, "positions": engine.ranking().layer_len(*stones),
                "terminal": 0, "mover_wins": 0, "ones": 0,
            });
            for (k, v) in drawn.as_object().unwrap() {
                if !keep_right || !h.as_object().unwrap().contains_key(k) {
                    h[k] = v.clone();
                }
            }
            let mut bytes = payload.clone();
            if *right_length {
                bytes.resize(engine.layer_bytes(*stones) as usize, 0xa5);
            }
            zermelo_store::table::write(&layer_path(dir.path(), *stones), &h, &bytes).unwrap();
        }
        let _ = lowest_finished(dir.path(), &engine);
        for stones in 0..=4 {
            let _ = read_layer(dir.path(), &engine, stones);
        }
        if let Ok(mut db) = Database::open(dir.path()) {
            let _ = db.analyse(black & !white, white & !black);
        }
    });
}
