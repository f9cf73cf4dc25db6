//! Several threads on one proof: [`Solver::shared_value`], the value of the position that
//! `hex solve` is given.
//!
//! Every thread of the pool runs the same depth-first proof-number search from the same root
//! on the shared table, as a worker of one proof, steering away from the nodes the other
//! workers are in (`paths.rs`): the workers spread over the most promising subtrees and each
//! finds the others' results in the table. The first to finish gives the value and stops the
//! others. The value is exact whatever the workers do, since each proves only from proven
//! children.
//!
//! Measured on 7x7 positions after one opening, two threads against one: after a3 (a win for
//! the side to move) 38.5 s against 62.1 s, where the helpers of `helpers.rs` took 57.5 s,
//! since they prove losing moves the proof never needs; after c2 (a loss) 12.2–13.2 s against
//! 19.6 s (helpers 14.0 s). The openings table and `solve --all` keep the helpers: there the
//! threads are busy with positions of their own until the last ones, and the whole 7x7 table
//! took 411–472 s with helpers against 463–478 s with shared proofs (see CHANGELOG.md, 2026-11-25).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::paths::Paths;
use super::search::{Node, Search};
use super::Solver;

impl Solver {
    /// Whether the side to move wins `root` (whose game is not over), searched by the calling
    /// thread and by every thread of the pool that is or becomes idle, as workers of one shared
    /// proof (module documentation). The nodes of all of them are added to `search.nodes`.
    /// `None` if the caller's stop flag was set first.
    pub(super) fn shared_value(&self, search: &Search<'_>, root: Node) -> Option<bool> {
        if self.threads() == 1 {
            return self.value(search, root);
        }
        let paths = Paths::new(self.threads());
        let done = AtomicBool::new(false);
        let value = Mutex::new(None);
        let work = |worker: usize| {
            if done.load(Ordering::Acquire) {
                return;
            }
            let mut nodes = 0;
            let found = self
                .search_like(search)
                .stopping_on(&done)
                .sharing(&paths, worker)
                .search_until(root, &mut nodes);
            if let Some(win) = found {
                *value.lock().expect("no worker panics holding it") = Some(win);
                done.store(true, Ordering::Release);
            }
            search.nodes.fetch_add(nodes, Ordering::Relaxed);
        };
        rayon::scope(|s| {
            for worker in 1..self.threads() {
                s.spawn(move |_| work(worker));
            }
            work(0);
        });
        // Workers stop only once one has found the value, or when the caller stops them all.
        value.into_inner().expect("no worker panics holding it")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::RetroTable;
    use crate::{Rules, SolverConfig};

    fn new_solver(rules: Rules, threads: usize) -> Solver {
        Solver::new(SolverConfig {
            rules,
            threads,
            tt_mb: 4,
        })
        .unwrap()
    }

    /// Two workers of one proof, each on a thread of its own and each run to the end, both get
    /// the oracle's value of every 3x3 position and of sampled 4x4 ones; so does the pool's
    /// shared search.
    #[test]
    fn workers_of_one_proof_agree_with_the_oracle() {
        for rules in [Rules::Normal, Rules::Misere] {
            for (n, step) in [(3, 1), (4, 97)] {
                let table = RetroTable::compute(n, rules == Rules::Misere).unwrap();
                for (node, wins) in super::super::in_play(&table, n, step) {
                    let solver = new_solver(rules, 2);
                    let paths = Paths::new(2);
                    let found: Vec<Option<bool>> = std::thread::scope(|s| {
                        let workers: Vec<_> = (0..2)
                            .map(|w| {
                                let (solver, paths) = (&solver, &paths);
                                s.spawn(move || {
                                    solver
                                        .search(n)
                                        .sharing(paths, w)
                                        .search_until(node, &mut 0)
                                })
                            })
                            .collect();
                        workers.into_iter().map(|w| w.join().unwrap()).collect()
                    });
                    assert_eq!(found, [Some(wins); 2], "{rules:?} {node:?}");
                    let solver = new_solver(rules, 2);
                    let search = solver.search(n);
                    let shared = solver.pool.install(|| solver.shared_value(&search, node));
                    assert_eq!(shared, Some(wins), "{rules:?} {node:?}");
                }
            }
        }
    }
}
