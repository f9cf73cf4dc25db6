//! `zermelo hackenbush` and the games of Nim in disguise in `zermelo nim`, end to end: the JSON
//! contract, files (tokens and DOT), the picture, one-line errors, and the worked examples of
//! the notes on impartial games (seeds/001) that have an answer.

use serde_json::Value;

mod common;
use common::{json, zermelo};

/// Asserts a failure with exactly one line on stderr, starting with the program's prefix.
fn fails(args: &[&str]) -> String {
    let out = zermelo(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("zermelo: "), "{args:?}: {err}");
    err
}

fn moves(v: &Value) -> Vec<String> {
    v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["to"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn hackenbush_json_contract() {
    let v = json(&["hackenbush", "0-1", "1-2", "2-0", "1-3", "--json"]);
    // A triangle on the ground (three loops: 1) carrying a stalk (1): 1 xor 1.
    assert_eq!(v["value"], 0);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let v = json(&["hackenbush", "0-1,1-2", "1-3", "7-8", "--json"]);
    assert_eq!(v["value"], 1);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["fallen"], serde_json::json!([4]));
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"edge": 1, "erase": "0-1"}])
    );
}

#[test]
fn hackenbush_text_says_what_falls() {
    let out = zermelo(&["hackenbush", "0-1", "5-6", "6-7"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "2 edges fall at once, no path joining them to the ground: 5-6 6-7; 1 stands"
        ),
        "{text}"
    );
    assert!(text.contains("winning move: erase 0-1 (edge 1)"), "{text}");
}

/// The house of the notes, as a DOT file (its figure did not survive in the text; drawn from its
/// description: two walls, a roof of four edges, a door of two posts and a lintel).
const HOUSE_DOT: &str = "// the house of the notes\n\
graph house {\n\
  node [shape=point];\n\
  0 -- 3; 0 -- 4;            /* walls */\n\
  3 -- 4 -- 6 -- 5 -- 3;     /* the roof */\n\
  0 -- 1 -- 2 -- 0 [color=brown];\n\
}\n";

#[test]
fn notes_house_from_dot_and_tokens_has_value_1() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("house.dot");
    std::fs::write(&dot, HOUSE_DOT).unwrap();
    let tokens = dir.path().join("house.txt");
    std::fs::write(
        &tokens,
        "# walls\n0-3 0-4\n3-4, 4-6, 6-5, 5-3\n0-1 1-2 2-0\n",
    )
    .unwrap();
    let a = json(&["hackenbush", "--file", dot.to_str().unwrap(), "--json"]);
    let b = json(&["hackenbush", "--file", tokens.to_str().unwrap(), "--json"]);
    assert_eq!(a["value"], 1);
    assert_eq!(a["outcome"], "N");
    assert_eq!(a["winning_moves"], b["winning_moves"]);
    let svg = dir.path().join("house.svg");
    let out = zermelo(&[
        "hackenbush",
        "--file",
        dot.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let doc = std::fs::read_to_string(&svg).unwrap();
    let winning = a["winning_moves"].as_array().unwrap().len();
    assert_eq!(doc.matches("class=\"winning\"").count(), winning);
    assert_eq!(doc.matches("<path ").count(), 9);
}

#[test]
fn hackenbush_bad_input_is_one_line() {
    for token in [
        "0-",
        "a-b",
        "1--2",
        "-1-2",
        "0-99999999999999999999",
        "0-4294967296",
    ] {
        let err = fails(&["hackenbush", "--", token]);
        assert!(err.contains("bad drawing"), "{token}: {err}");
    }
    fails(&["hackenbush"]);
    fails(&["hackenbush", "0-1", "--file", "x.txt"]);
    fails(&["hackenbush", "--file", "/nonexistent/drawing.txt"]);
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("sub.dot", "graph { subgraph { 0 -- 1 } }"),
        ("names.dot", "graph { ground -- a }"),
        ("open.dot", "graph { 0 -- 1 [color=red }"),
        ("bad.txt", "0-1 1-x"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let err = fails(&["hackenbush", "--file", path.to_str().unwrap()]);
        assert!(err.contains(name), "{err}");
    }
    // Huge vertex numbers are renumbered, not allocated.
    let v = json(&[
        "hackenbush",
        "0-4294967295",
        "4294967295-4294967294",
        "--json",
    ]);
    assert_eq!(v["value"], 2);
}

#[test]
fn hackenbush_a_large_random_drawing() {
    // 3000 edges on 1500 vertices: a random tree on the ground and random edges closing
    // cycles (the criterion bench times 2000).
    let mut state = 77u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut text = String::new();
    for v in 1..1500u64 {
        text.push_str(&format!("{}-{v}\n", next(v)));
    }
    for _ in 0..1501 {
        text.push_str(&format!("{}-{}\n", next(1500), next(1500)));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, text).unwrap();
    let v = json(&["hackenbush", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["edges"], 3000);
    assert!(v["winning_moves"].is_array());
    assert_eq!(
        v["outcome"] == "P",
        v["value"] == 0,
        "outcome and value agree"
    );
}

#[test]
fn nim_mixes_the_disguises_and_speaks_their_terms() {
    let v = json(&[
        "nim",
        "hackenbush:0-1,1-2,2-0",
        "staircase:2,1,4,5,1",
        "--json",
    ]);
    // The triangle is worth 1, the staircase 2 xor 4 xor 1 = 7.
    assert_eq!(v["component_values"], serde_json::json!([1, 7]));
    assert_eq!(v["value"], 6);
    let m = moves(&v);
    assert!(
        m.contains(&"staircase:2,3,2,5,1 (2 coins from step 3 to step 2)".to_string()),
        "{m:?}"
    );
    let v = json(&["nim", "turtles:THHTHT", "nimble:3", "--json"]);
    assert_eq!(v["value"], (2 ^ 3 ^ 5) ^ 3);
    for m in moves(&v) {
        assert!(
            m.contains("turn the coin") || m.contains("the coin on square"),
            "{m}"
        );
    }
    let v = json(&["nim", "northcott:8:1-6,3-4", "--json"]);
    assert_eq!(
        moves(&v),
        [
            "northcott:8:5-6,3-4 (white in column 1 from row 1 to row 5)",
            "northcott:8:1-2,3-4 (black in column 1 from row 6 to row 2)",
            "northcott:8:1-6,3-8 (black in column 2 from row 4 to row 8)",
        ]
    );
    let v = json(&["nim", "coins:.o..oo.o", "queen:1,2", "--json"]);
    assert_eq!(v["outcome"], "N");
    let v = json(&["nim", "hackenbush:0-1,1-2", "2", "--json"]);
    assert_eq!(v["outcome"], "P");
}

#[test]
fn nim_disguise_bad_positions_are_one_line() {
    for bad in [
        "staircase:1,x",
        "nimble:-1",
        "coins:o.x",
        "turtles:HTQ",
        "plainim:o.x",
        "plainim:oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo",
        "northcott:8:6-1",
        "northcott:8:1-9",
        "northcott:1-2",
        "queen:3",
        "hackenbush:0-1,1--2",
        "staircase:99999999999",
    ] {
        fails(&["nim", bad]);
    }
    // A value beyond the 16-bit tables is refused, not wrapped.
    let err = fails(&["nim", "nimble:70000"]);
    assert!(err.contains("65535"), "{err}");
}

// The notes' worked examples with an answer.

#[test]
fn notes_seventeen_beans_take_one_to_three() {
    // "as P-posições são 0, 4, 8, 12, 16"
    for n in 0..=17 {
        let v = json(&["nim", &format!("S(1,2,3):{n}"), "--json"]);
        assert_eq!(v["outcome"] == "P", n % 4 == 0, "{n} beans");
    }
    let v = json(&["nim", "S(1,2,3):17", "--json"]);
    assert_eq!(moves(&v), ["S(1,2,3):16 (take 1)"]);
}

#[test]
fn notes_subtraction_2_3_table() {
    // "0 1 2 3 4 5 6 7 8 9 / P P N N N P P N N N" and "g(x) 0 0 1 1 2 0 0 1 1 2"
    let outcomes = ["P", "P", "N", "N", "N", "P", "P", "N", "N", "N"];
    let values = [0, 0, 1, 1, 2, 0, 0, 1, 1, 2];
    for n in 0..10 {
        let v = json(&["nim", &format!("S(2,3):{n}"), "--json"]);
        assert_eq!(v["outcome"], outcomes[n], "{n}");
        assert_eq!(v["value"], values[n], "{n}");
    }
}

#[test]
fn notes_nim_3_5_7_9() {
    // "3 + 5 + 7 + 9 = 8 ... A única jogada vencedora é a que retira 8 feijões à coluna com 9"
    let v = json(&["nim", "3", "5", "7", "9", "--json"]);
    assert_eq!(v["value"], 8);
    assert_eq!(moves(&v), ["1"]);
    assert_eq!(v["winning_moves"][0]["component"], 4);
}

#[test]
fn notes_nim_3_5_7_plus_subtraction_2_3_heap_4() {
    // "corresponde o valor 1 + 2 = 3 ... Uma boa jogada consiste em retirar 2 feijões da pilha
    // correspondente ao jogo S{2,3}" -- and to the notes' question, whether it was the only
    // winning move: no, 3 -> 0 and 7 -> 4 in the Nim heaps win too (3 xor 3 = 0, 7 xor 3 = 4).
    let v = json(&["nim", "3", "5", "7", "S(2,3):4", "--json"]);
    assert_eq!(v["value"], 3);
    let m = moves(&v);
    assert!(m.contains(&"S(2,3):2 (take 2)".to_string()), "{m:?}");
    assert_eq!(m, ["0", "4", "S(2,3):2 (take 2)"]);
}

#[test]
fn the_user_guide_examples_are_what_zermelo_prints() {
    let page = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/src/impartial-games.md"
    );
    let text = std::fs::read_to_string(page).unwrap();
    let mut checked = 0;
    for block in text.split("```console\n").skip(1) {
        let block = &block[..block.find("```").expect("the block is closed")];
        let mut lines = block.lines();
        let command = lines.next().unwrap().strip_prefix("$ zermelo ").unwrap();
        let expected: Vec<&str> = lines.collect();
        if expected.is_empty() {
            continue;
        }
        // The examples quote with single quotes only, around whole words.
        let args: Vec<String> = command
            .split_whitespace()
            .map(|w| w.trim_matches('\'').to_string())
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = zermelo(&args);
        assert!(out.status.success(), "{command}");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert_eq!(printed.lines().collect::<Vec<_>>(), expected, "{command}");
        checked += 1;
    }
    assert_eq!(checked, 9);
}
