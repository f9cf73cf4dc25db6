//! scratch period
use zermelo_grundy::period::{PeriodWatch, ProofRule};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game: zermelo_grundy::OctalGame = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let mut e = zermelo_grundy::SparseEngine::new(&game).unwrap();
    let mut w = PeriodWatch::new(ProofRule::for_octal(&game));
    while e.values().len() <= n {
        e.step().unwrap();
        if let Some(p) = w.observe(e.values()) {
            println!("{game} {:?} at {} {:?}", p, e.values().len(), t.elapsed());
            return;
        }
    }
    println!("{game} none {:?}", t.elapsed());
}
