use zermelo_hex::*;
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let threads: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let solver = Solver::new(SolverConfig { rules: Rules::Normal, threads, tt_mb: 1024 }).unwrap();
    let t = std::time::Instant::now();
    let ops = solver.openings(n, |o| eprintln!("{} {} {} {:.2}", o.cell, o.first_player_wins, o.nodes, o.seconds)).unwrap();
    let total: u64 = ops.iter().map(|o| o.nodes).sum();
    println!("n={n} wins={} nodes={total} {:.2}s", ops.iter().filter(|o| o.first_player_wins).count(), t.elapsed().as_secs_f64());
}
