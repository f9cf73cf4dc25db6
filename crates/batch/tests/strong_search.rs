//! The search solver's analysis against the strong solution's database, on sampled 5x5
//! positions: the winner and every winning move. Ignored by default (the database is written by
//! `zermelo hex strong --size 5 --out DIR`, hours per rule); run with
//!
//! ```text
//! ZERMELO_STRONG_DB=DIR[:DIR…] cargo test --release -p zermelo-batch --test strong_search -- --ignored
//! ```
//!
//! Each folder says its board and rules; every layer it holds (a partial run's too) is sampled.

use zermelo_batch::strong::{layer_path, Database};
use zermelo_hex::strong::Ranking;
use zermelo_hex::{Bitboard, Cell, Position, Solver, SolverConfig};

/// Positions sampled from each layer found.
const SAMPLES_PER_LAYER: usize = 40;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
#[ignore = "needs a database: set ZERMELO_STRONG_DB to its folder(s)"]
fn the_search_agrees_with_the_database_on_sampled_positions() {
    let folders = std::env::var("ZERMELO_STRONG_DB")
        .expect("set ZERMELO_STRONG_DB to the folder(s) of zermelo hex strong");
    let mut checked = 0;
    for dir in folders.split(':').filter(|d| !d.is_empty()) {
        let dir = std::path::Path::new(dir);
        let mut db = Database::open(dir).unwrap();
        let n = db.size();
        let ranking = Ranking::new(n).unwrap();
        let solver = Solver::new(SolverConfig {
            rules: db.rules(),
            threads: 0,
            tt_mb: 256,
        })
        .unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15;
        // A winning move needs the layer above too.
        for stones in (0..ranking.cells())
            .filter(|&k| layer_path(dir, k).exists() && layer_path(dir, k + 1).exists())
        {
            let mut taken = 0;
            while taken < SAMPLES_PER_LAYER {
                let index = xorshift(&mut state) % ranking.layer_len(stones);
                let (black, white) = ranking.position(stones, index);
                let p = Position::from_stones(
                    n,
                    Bitboard(u128::from(black)),
                    Bitboard(u128::from(white)),
                )
                .unwrap();
                if p.connected().is_some() {
                    continue;
                }
                taken += 1;
                let stored = db.analyse(black, white).unwrap();
                let solved = solver.solve(&p, true).unwrap();
                assert_eq!(
                    solved.winner == p.to_move(),
                    stored.mover_wins,
                    "{} layer {stones} index {index}:\n{p}",
                    dir.display()
                );
                let expected: Vec<Cell> = stored
                    .winning_moves
                    .iter()
                    .map(|&i| Cell::from_index(i, n))
                    .collect();
                assert_eq!(
                    solved.winning_moves.as_deref(),
                    Some(&expected[..]),
                    "winning moves, {} layer {stones} index {index}:\n{p}",
                    dir.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no layer with the layer above it in {folders}");
}
