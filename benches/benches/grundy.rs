//! Criterion benchmarks of zermelo-grundy: the sparse engine against the naive reference on the
//! same games, the period search, the retrograde and piece tables, and Green Hackenbush.

// criterion_group! generates a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use zermelo_grundy::hackenbush::Drawing;
use zermelo_grundy::multiheap::MultiHeapGame;
use zermelo_grundy::period::{self, ProofRule};
use zermelo_grundy::piece::PieceGame;
use zermelo_grundy::{naive, OctalGame, SparseEngine};

fn sparse(game: &OctalGame, max: usize) -> Vec<u16> {
    let mut engine = SparseEngine::new(game).unwrap();
    engine.extend_to(max).unwrap();
    engine.into_values()
}

fn engines(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal");
    group.sample_size(10);
    for code in ["0.6", "4!.0", "0.007", "0.77"] {
        let game: OctalGame = code.parse().unwrap();
        group.bench_function(format!("naive {code} to 2^13"), |b| {
            b.iter(|| naive::values(black_box(&game), 1 << 13).unwrap())
        });
        group.bench_function(format!("sparse {code} to 2^13"), |b| {
            b.iter(|| sparse(black_box(&game), 1 << 13))
        });
        group.bench_function(format!("sparse {code} to 2^16"), |b| {
            b.iter(|| sparse(black_box(&game), 1 << 16))
        });
    }
    group.finish();
}

fn periods(c: &mut Criterion) {
    let game: OctalGame = "0.16".parse().unwrap();
    let g = sparse(&game, 520_000);
    let rule = ProofRule::for_octal(&game);
    c.bench_function("period search 0.16 (520k values)", |b| {
        b.iter(|| period::find(black_box(&g), rule).unwrap())
    });
}

fn tables(c: &mut Criterion) {
    c.bench_function("Nim_2, 4 heaps of up to 7", |b| {
        b.iter(|| MultiHeapGame::new(4, 7, 2, false).unwrap().solve().unwrap())
    });
    c.bench_function("Wythoff 256 x 256", |b| {
        b.iter(|| PieceGame::wythoff().solve(black_box(256)).unwrap())
    });
}

/// A random drawing of `edges` edges on `edges / 2` vertices, all standing: a random tree on
/// the ground, then random edges (loops among them) closing cycles.
fn random_drawing(edges: usize, seed: u64) -> Drawing {
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let vertices = edges / 2;
    let mut list: Vec<(u64, u64)> = (1..vertices).map(|v| (next(v) as u64, v as u64)).collect();
    while list.len() < edges {
        list.push((next(vertices) as u64, next(vertices) as u64));
    }
    Drawing::new(&list).unwrap()
}

fn hackenbush(c: &mut Criterion) {
    let d = random_drawing(2000, 2026);
    c.bench_function("hackenbush value, 2000 random edges", |b| {
        b.iter(|| black_box(&d).value())
    });
    c.bench_function("hackenbush winning moves, 2000 random edges", |b| {
        b.iter(|| black_box(&d).analyse().winning_moves())
    });
}

criterion_group!(benches, engines, periods, tables, hackenbush);
criterion_main!(benches);
