//! Criterion benchmarks of the Hex solver: the connection test, every 4x4 and 5x5 opening, the
//! hardest 6x6 opening and the 7x7 centre opening. Each solve starts from an empty transposition table, so runs measure a
//! full solve rather than table look-ups.

// criterion_group! generates a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use zermelo_hex::{Bitboard, Geometry, Position, Rules, Solver, SolverConfig};

fn solver(threads: usize) -> Solver {
    Solver::new(SolverConfig {
        rules: Rules::Normal,
        threads,
        tt_mb: 256,
    })
    .expect("a 256 MiB table fits")
}

/// The bit-parallel connection test on a spread of boards, against a cell-by-cell search.
fn connection(c: &mut Criterion) {
    let g = Geometry::of(11);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let boards: Vec<Bitboard> = (0..256)
        .map(|_| {
            let mut b = 0u128;
            for _ in 0..2 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b = b << 64 | u128::from(state);
            }
            // About 60% of the cells: connected often enough to be interesting.
            Bitboard(b | b >> 3) & g.board
        })
        .collect();
    c.bench_function("hex/connects 11x11 x256 (bitboard flood)", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&s| g.connects(black_box(s), g.north, g.south))
                .count()
        })
    });
    c.bench_function("hex/connects 11x11 x256 (cell-by-cell baseline)", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&s| connects_by_cells(black_box(s), 11))
                .count()
        })
    });
}

/// A plain depth-first search over cells: the simple baseline for the flood fill.
fn connects_by_cells(stones: Bitboard, n: usize) -> bool {
    let mut seen = vec![false; n * n];
    let mut stack: Vec<usize> = (0..n).filter(|&x| stones.has(x)).collect();
    while let Some(i) = stack.pop() {
        if seen[i] {
            continue;
        }
        seen[i] = true;
        let (x, y) = ((i % n) as i64, (i / n) as i64);
        if y as usize == n - 1 {
            return true;
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            let (a, b) = (x + dx, y + dy);
            if (0..n as i64).contains(&a) && (0..n as i64).contains(&b) {
                let j = (b * n as i64 + a) as usize;
                if stones.has(j) && !seen[j] {
                    stack.push(j);
                }
            }
        }
    }
    false
}

fn openings(c: &mut Criterion) {
    let mut group = c.benchmark_group("hex/openings");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("4x4 all, {threads} threads"), |b| {
            b.iter(|| solver(threads).openings(4, |_| {}).unwrap())
        });
        group.bench_function(format!("5x5 all, {threads} threads"), |b| {
            b.iter(|| solver(threads).openings(5, |_| {}).unwrap())
        });
    }
    group.finish();
}

fn hard_openings(c: &mut Criterion) {
    let mut group = c.benchmark_group("hex/openings one by one");
    group.sample_size(10);
    // 6x6 a3: the opening whose proof takes the most nodes of all 36 (about half of them).
    // 7x7 d4: the centre, a winning opening whose proof must refute every White answer.
    for (n, cell) in [(6, "a3"), (7, "d4")] {
        let p = Position::from_moves(n, cell).unwrap();
        group.bench_function(format!("{n}x{n} {cell}, 1 thread"), |b| {
            b.iter(|| solver(1).solve(black_box(&p), false).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, connection, openings, hard_openings);
criterion_main!(benches);
