//! The search solver against the strong solution's database, on sampled 5x5 positions: the
//! winner and every winning move of a whole search, each rule of the analysis that narrows the
//! search, and the committed opening tables (results/hex). Ignored by default (the database is
//! written by `zermelo hex strong --size 5 --out DIR`, about an hour per rule); run with
//!
//! ```text
//! ZERMELO_STRONG_DB=DIR[:DIR…] cargo test --release -p zermelo-batch --test strong_search -- --ignored
//! ```
//!
//! Each folder says its board and rules; every layer it holds (a partial run's too) is sampled.

use std::path::{Path, PathBuf};

use zermelo_batch::strong::{layer_path, Database};
use zermelo_hex::strong::Ranking;
use zermelo_hex::{Bitboard, Cell, Position, Rules, Solver, SolverConfig};

/// Positions sampled from each layer found.
const SAMPLES_PER_LAYER: usize = 400;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The database folders named by ZERMELO_STRONG_DB (separated by ':').
fn folders() -> Vec<PathBuf> {
    let names = std::env::var("ZERMELO_STRONG_DB")
        .expect("set ZERMELO_STRONG_DB to the folder(s) of zermelo hex strong");
    names
        .split(':')
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Positions in play drawn at random from every layer of `dir` that has the layer above it
/// (a winning move needs both), `per_layer` from each, with the stored analysis of each.
fn sampled(
    dir: &Path,
    db: &mut Database,
    per_layer: usize,
) -> Vec<(usize, u64, Position, zermelo_batch::strong::Analysis)> {
    let n = db.size();
    let ranking = Ranking::new(n).unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let mut drawn = Vec::new();
    for stones in (0..ranking.cells())
        .filter(|&k| layer_path(dir, k).exists() && layer_path(dir, k + 1).exists())
    {
        let mut taken = 0;
        while taken < per_layer {
            let index = xorshift(&mut state) % ranking.layer_len(stones);
            let (black, white) = ranking.position(stones, index);
            let p =
                Position::from_stones(n, Bitboard(u128::from(black)), Bitboard(u128::from(white)))
                    .unwrap();
            if p.connected().is_some() {
                continue;
            }
            taken += 1;
            let stored = db.analyse(black, white).unwrap();
            drawn.push((stones, index, p, stored));
        }
    }
    drawn
}

#[test]
#[ignore = "needs a database: set ZERMELO_STRONG_DB to its folder(s)"]
fn the_search_agrees_with_the_database_on_sampled_positions() {
    let mut checked = 0;
    for dir in &folders() {
        let mut db = Database::open(dir).unwrap();
        let n = db.size();
        let solver = Solver::new(SolverConfig {
            rules: db.rules(),
            threads: 0,
            tt_mb: 256,
        })
        .unwrap();
        for (stones, index, p, stored) in sampled(dir, &mut db, SAMPLES_PER_LAYER) {
            let context = format!("{} layer {stones} index {index}:\n{p}", dir.display());
            let solved = solver.solve(&p, true).unwrap();
            assert_eq!(solved.winner == p.to_move(), stored.mover_wins, "{context}");
            let expected: Vec<Cell> = stored
                .winning_moves
                .iter()
                .map(|&i| Cell::from_index(i, n))
                .collect();
            assert_eq!(
                solved.winning_moves.as_deref(),
                Some(&expected[..]),
                "winning moves, {context}"
            );
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no layer with the layer above it in {:?}",
        folders()
    );
}

/// The rules by which the search decides positions and leaves moves out, each against the
/// database on sampled positions (`Solver::inspect`, no search): a position the analysis
/// decides has that value; when the mover wins, the moves the search would try hold a winning
/// move, and so does the must-play region in normal play.
///
/// The must-play region is that of the position after fill-in, which has the same value: a
/// move outside it loses there, but may win in the position as it stands, since the move can
/// undo what made a cell safe to fill in (on 5x5 after c5 e5, White's e3 is permanently
/// inferior and filled in, and White's semi connection with key c3 avoids d4; yet Black wins
/// by d4, which makes e3 Black's way north). A winning move of the filled position wins in the
/// position itself, as the filled one only has more of the opponent's stones, so the region
/// holds a winning move whenever the mover wins.
#[test]
#[ignore = "needs a database: set ZERMELO_STRONG_DB to its folder(s)"]
fn the_analysis_rules_agree_with_the_database() {
    let (mut decided, mut narrowed, mut outside) = (0, 0, 0);
    for dir in &folders() {
        let mut db = Database::open(dir).unwrap();
        let rules = db.rules();
        let solver = Solver::new(SolverConfig {
            rules,
            threads: 1,
            tt_mb: 16,
        })
        .unwrap();
        for (stones, index, p, stored) in sampled(dir, &mut db, 2000) {
            let context = format!("{} layer {stones} index {index}:\n{p}", dir.display());
            let seen = solver.inspect(&p).unwrap();
            let winning = stored
                .winning_moves
                .iter()
                .fold(Bitboard::EMPTY, |b, &i| b.with(i));
            if let Some(win) = seen.decided {
                assert_eq!(win, stored.mover_wins, "decided, {context}");
                decided += 1;
            }
            if let Some(considered) = seen.considered {
                assert_eq!(considered.minus(p.empty()), Bitboard::EMPTY, "{context}");
                if stored.mover_wins {
                    assert!(
                        !(considered & winning).is_empty(),
                        "the moves kept, {considered:?}, miss every winning move, {context}"
                    );
                }
                narrowed += p.empty().minus(considered).count();
            }
            if rules == Rules::Normal && seen.decided.is_none() && stored.mover_wins {
                assert!(
                    !(winning & seen.must_play).is_empty(),
                    "no winning move in the must-play region {:?}, {context}",
                    seen.must_play
                );
                outside += p.empty().minus(seen.must_play).count();
            }
        }
    }
    assert!(
        decided > 0 && narrowed > 0,
        "{decided} positions decided, {narrowed} moves left out"
    );
    println!("{decided} decided, {narrowed} moves left out, {outside} cells outside must-play");
}

/// The committed opening tables of results/hex against the database: the first player's
/// result on the empty board and after each opening.
#[test]
#[ignore = "needs a database: set ZERMELO_STRONG_DB to its folder(s)"]
fn the_committed_opening_tables_agree_with_the_database() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/hex");
    let mut checked = 0;
    for dir in &folders() {
        let mut db = Database::open(dir).unwrap();
        let n = db.size();
        let name = match db.rules() {
            Rules::Normal => format!("{n}x{n}-openings.json"),
            Rules::Misere => format!("{n}x{n}-misere-openings.json"),
        };
        let text = std::fs::read_to_string(results.join(&name)).unwrap();
        let table: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            table["first_player_wins"].as_bool(),
            Some(db.analyse(0, 0).unwrap().mover_wins),
            "{name}: the empty board"
        );
        let openings = table["openings"].as_array().unwrap();
        assert_eq!(openings.len(), n * n, "{name}");
        for opening in openings {
            let cell = Cell::parse(opening["cell"].as_str().unwrap(), n).unwrap();
            let black = 1u64 << cell.index(n);
            // After the opening, White moves: the first player wins when White loses.
            let stored = db.analyse(black, 0).unwrap();
            assert_eq!(
                opening["first_player_wins"].as_bool(),
                Some(!stored.mover_wins),
                "{name}: {}",
                opening["cell"]
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
}
