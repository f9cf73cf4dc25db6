//! Criterion benchmarks of zermelo-grundy: the sparse engine against the naive reference on the
//! same games, the period search, and the retrograde and piece tables.

// criterion_group! generates a public function without a doc comment.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
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

criterion_group!(benches, engines, periods, tables);
criterion_main!(benches);
