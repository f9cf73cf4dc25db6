//! `zermelo gtp` driven through pipes, as HexGui and GoGui's regress tool drive it.
//!
//! The scripts in tests/gtp/ are in the regress tool's format: a command (numbered), then
//! `#? [REGEX]`, the whole reply it must give; `#? [REGEX]*` marks a command expected to fail,
//! whose error message must match (the regress tool counts those as expected failures). They
//! run here from that folder (their SGF paths are relative to it), and also unchanged under
//! the regress tool itself (`java -jar gtpregress.jar "zermelo gtp" protocol.tst`).
//!
//! The solving answers are checked again against the retrograde tables of every position of
//! 2x2 to 4x4 with up to two stones (normal play) and one stone (misère), an independent
//! computation.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use regex::Regex;
use zermelo_hex::retro::{RetroTable, RetroValue};
use zermelo_hex::{Bitboard, Cell};

/// The folder of the scripts.
fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp")
}

/// A running `zermelo gtp`.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// One reply: whether it was a success, and its text (trimmed, as the regress tool reads it).
struct Reply {
    ok: bool,
    text: String,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_zermelo"))
            .arg("gtp")
            .args(args)
            .current_dir(scripts())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends raw bytes (ending with a line end) and reads the reply.
    fn send_bytes(&mut self, bytes: &[u8]) -> Reply {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
        self.read_reply()
    }

    fn send(&mut self, line: &str) -> Reply {
        self.send_bytes(format!("{line}\n").as_bytes())
    }

    /// Reads one reply: `=` or `?`, the id, the text, up to the blank line that ends it.
    fn read_reply(&mut self) -> Reply {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "the engine stopped answering after {lines:?}");
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                break;
            }
            lines.push(line.to_string());
        }
        let first = lines.first().expect("a reply has a first line").clone();
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("a reply starts with = or ?: {first:?}"),
        };
        let head = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        lines[0] = head.strip_prefix(' ').unwrap_or(head).to_string();
        Reply {
            ok,
            text: lines.join("\n").trim().to_string(),
        }
    }

    /// Sends `quit` and checks that the engine exits cleanly.
    fn quit(mut self) {
        let reply = self.send("quit");
        assert!(reply.ok);
        assert!(self.child.wait().unwrap().success());
    }
}

/// Runs a script and checks every `#?` line against the reply to the command before it;
/// returns the number of checks.
fn regress(engine: &mut Engine, script: &str) -> usize {
    let text = std::fs::read_to_string(scripts().join(script)).unwrap();
    let mut last: Option<(String, Reply)> = None;
    let mut checks = 0;
    for line in text.lines() {
        if let Some(expected) = line.strip_prefix("#?") {
            let expected = expected.trim();
            let (pattern, must_fail) = match expected.strip_suffix('*') {
                Some(p) => (p, true),
                None => (expected, false),
            };
            let pattern = pattern
                .strip_prefix('[')
                .and_then(|p| p.strip_suffix(']'))
                .unwrap_or_else(|| panic!("{script}: #? [...] expected, not {line}"));
            let re = Regex::new(&format!("^(?s:{pattern})$")).unwrap();
            let (command, reply) = last.take().expect("#? follows a command");
            assert_eq!(
                reply.ok,
                !must_fail,
                "{script}: {command}: {} {:?}",
                if reply.ok { "succeeded" } else { "failed" },
                reply.text
            );
            assert!(
                re.is_match(&reply.text),
                "{script}: {command}: {:?} does not match [{pattern}]",
                reply.text
            );
            checks += 1;
        } else if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
            last = Some((line.to_string(), engine.send(line)));
        }
    }
    checks
}

/// Runs one script on a fresh engine, which must still answer and quit cleanly afterwards.
fn run_script(script: &str, expected_checks: usize) {
    let mut engine = Engine::start(&["--threads", "1", "--tt-mb", "16"]);
    assert_eq!(regress(&mut engine, script), expected_checks, "{script}");
    assert_eq!(engine.send("name").text, "zermelo");
    engine.quit();
}

#[test]
fn protocol_commands() {
    run_script("protocol.tst", 9);
}

#[test]
fn board_commands() {
    run_script("board.tst", 35);
}

#[test]
fn solving_commands() {
    run_script("solve.tst", 46);
}

#[test]
fn analysis_commands() {
    run_script("analysis.tst", 25);
}

/// The fifty hostile commands of the script, then lines no script can hold: each is answered
/// with an error and the engine goes on.
#[test]
fn hostile_lines_get_errors_and_the_engine_goes_on() {
    let mut engine = Engine::start(&["--threads", "1", "--tt-mb", "16"]);
    assert_eq!(regress(&mut engine, "hostile.tst"), 53);
    let long = format!("name {}\n", "x".repeat(1 << 20));
    let raw: Vec<Vec<u8>> = vec![
        b"\xff\xfe\x00\x01 play b a1\n".to_vec(),
        b"12 \xc3\x28 genmove b\n".to_vec(),
        b"99999999999999999999999 name\n".to_vec(),
        b"4294967296 name\n".to_vec(),
        b"17\n".to_vec(),
        b"\x1b[31mname\n".to_vec(),
        long.into_bytes(),
        b"play b a1\r\n".to_vec(),
        b"play b a1\n".to_vec(),
    ];
    for (k, line) in raw.iter().enumerate() {
        let reply = engine.send_bytes(line);
        assert!(!reply.ok, "line {k}: {:?}", reply.text);
    }
    assert_eq!(engine.send("name").text, "zermelo");
    engine.quit();
}

/// The end of input ends the engine cleanly, as `quit` does.
#[test]
fn end_of_input_ends_the_engine() {
    let mut engine = Engine::start(&["--tt-mb", "16"]);
    assert!(engine.send("boardsize 5").ok);
    drop(engine.stdin);
    assert!(engine.child.wait().unwrap().success());
}

/// An interrupt (GoGui's `# interrupt` line) stops a solve that cannot end soon: the winner
/// is then unknown (`empty`), and the engine goes on.
#[test]
fn an_interrupt_stops_a_solve() {
    let mut engine = Engine::start(&["--threads", "2", "--tt-mb", "64"]);
    assert!(engine.send("boardsize 11").ok);
    engine
        .stdin
        .write_all(b"1 dfpn-solve-state b\n# interrupt\n")
        .unwrap();
    engine.stdin.flush().unwrap();
    let reply = engine.read_reply();
    assert!(reply.ok && reply.text == "empty", "{:?}", reply.text);
    assert!(engine.send("boardsize 2").ok);
    assert_eq!(engine.send("dfpn-solve-state b").text, "black");
    engine.quit();
}

/// The value of a position by the retrograde table, `None` when the table does not hold it
/// (stone counts not of a game from the empty board).
fn oracle(table: &RetroTable, black: Bitboard, white: Bitboard) -> Option<RetroValue> {
    table
        .value(black.0, white.0)
        .ok()
        .filter(|v| *v != RetroValue::Illegal)
}

/// Every 2x2, 3x3 and 4x4 position with up to `max_stones` stones (normal play: two; misère:
/// one), the side to move given by the counts: `dfpn-solve-state` names the winner of the retrograde
/// table, `dfpn-solver-find-winning` lists only winning moves and some exactly when the side
/// to move wins, and `genmove` plays a winning move when there is one.
#[test]
fn solving_answers_agree_with_the_retrograde_tables() {
    for (n, misere, max_stones) in [2, 3, 4]
        .into_iter()
        .flat_map(|n| [(n, false, 2), (n, true, 1)])
    {
        let table = RetroTable::compute(n, misere).unwrap();
        let args = ["--threads", "2", "--tt-mb", "16"];
        let mut args = args.to_vec();
        if misere {
            args.push("--misere");
        }
        let mut engine = Engine::start(&args);
        let mut positions: Vec<Vec<usize>> = vec![vec![]];
        positions.extend((0..n * n).map(|a| vec![a]));
        if max_stones == 2 {
            positions.extend(
                (0..n * n)
                    .flat_map(|a| (0..n * n).filter(move |&b| b != a).map(move |b| vec![a, b])),
            );
        }
        for moves in positions {
            let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
            assert!(engine.send(&format!("boardsize {n}")).ok);
            for (k, &m) in moves.iter().enumerate() {
                let (colour, stones) = if k % 2 == 0 {
                    ("b", &mut black)
                } else {
                    ("w", &mut white)
                };
                *stones = stones.with(m);
                assert!(
                    engine
                        .send(&format!("play {colour} {}", Cell::from_index(m, n)))
                        .ok
                );
            }
            let Some(value) = oracle(&table, black, white) else {
                continue;
            };
            if value == RetroValue::GameOver {
                continue;
            }
            let (mover, other) = if moves.len() % 2 == 0 {
                ("black", "white")
            } else {
                ("white", "black")
            };
            let wins = value == RetroValue::Win;
            let context = format!("misère {misere}, moves {moves:?}");
            let winner = engine.send(&format!("dfpn-solve-state {mover}")).text;
            assert_eq!(winner, if wins { mover } else { other }, "{context}");
            let child_won = |cell: &str| {
                let c = Cell::parse(cell, n).unwrap().index(n);
                let (b, w) = if mover == "black" {
                    (black.with(c), white)
                } else {
                    (black, white.with(c))
                };
                match oracle(&table, b, w)
                    .unwrap_or_else(|| panic!("{context}: {cell} {b:?} {w:?}"))
                {
                    RetroValue::Loss => true,
                    RetroValue::GameOver => !misere,
                    _ => false,
                }
            };
            let list = engine
                .send(&format!("dfpn-solver-find-winning {mover}"))
                .text;
            let listed: Vec<&str> = list.split_whitespace().collect();
            assert_eq!(!listed.is_empty(), wins, "{context}: {list}");
            assert!(listed.iter().all(|c| child_won(c)), "{context}: {list}");
            let genmove = engine.send(&format!("reg_genmove {mover}")).text;
            if wins {
                assert!(child_won(&genmove), "{context}: {genmove}");
            }
        }
        engine.quit();
    }
}
