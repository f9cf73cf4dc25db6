//! scratch timing
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game: zermelo_grundy::OctalGame = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let mut e = zermelo_grundy::SparseEngine::new(&game).unwrap();
    e.extend_to(n).unwrap();
    let max = e.values().iter().max().unwrap();
    println!(
        "{game} n={n} max={max} mask={} rare={} twist={} {:?}",
        e.mask(),
        e.rare_count(),
        e.twist(),
        t.elapsed()
    );
}
