//! Idle threads help the moves still being searched: [`Solver::helped_value`].
//!
//! The openings of a board (and the moves of `solve --all`) are searched in parallel, one per
//! thread, but they are far from equal (on 7x7 one opening takes a quarter of all the work),
//! so the last ones used to run alone while the other threads waited. Now the search of each
//! offers helper jobs to the thread pool. A helper only starts on a thread with nothing else to do (rayon's thieves take
//! the oldest jobs first: the openings not yet started), and it proves the opponent's replies
//! one by one, from the end of the search's move order, each with a search of its own on the
//! shared table. Every reply has to be refuted when the opening wins, so that work is never
//! wasted then; the main search finds the replies proven in the table when it gets to them.
//! When a helper finds a reply that wins for the opponent, the opening is lost: it stops the
//! main search, which starts again from the table and finds that reply at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::search::{Analysis, Node, Search};
use super::Solver;
use crate::Bitboard;

/// What the searches of one position share: its moves in the search's order, how many of
/// them the helpers have taken (from the end), and the two flags.
struct Shared {
    root: Node,
    /// The moves in the order the helpers take them: the search's order, reversed.
    replies: Vec<usize>,
    taken: AtomicUsize,
    /// The value is found: the helpers stop.
    done: AtomicBool,
    /// A helper has proven a move that wins for the side to move: the main search stops and
    /// looks at the table again.
    refuted: AtomicBool,
}

impl Shared {
    /// The helpers' state for the moves `moves` of `root`, none taken yet.
    fn new(search: &Search<'_>, root: Node, moves: Bitboard) -> Shared {
        let mut replies: Vec<usize> = search.ordered(moves).collect();
        replies.reverse();
        Shared {
            root,
            replies,
            taken: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            refuted: AtomicBool::new(false),
        }
    }
}

impl Solver {
    /// Whether the side to move wins `root` (whose game is not over), searched by the calling
    /// thread and by idle threads of the pool as helpers (module documentation). The nodes of
    /// all of them are added to `search.nodes`. `None` if the caller's stop flag was set first.
    pub(super) fn helped_value(&self, search: &Search<'_>, root: Node) -> Option<bool> {
        if self.threads() == 1 {
            return self.value(search, root);
        }
        let shared = match search.analyse(root) {
            Analysis::Decided(win, _, _) => return Some(win),
            Analysis::Moves(m) => Shared::new(search, root, m),
        };
        let mut wins = None;
        rayon::scope(|s| {
            for _ in 1..self.threads() {
                s.spawn(|_| self.help(search, &shared));
            }
            let main = self.search_like(search).stopping_on(&shared.refuted);
            let mut nodes = 0;
            wins = loop {
                if let Some(wins) = main.search_until(root, &mut nodes) {
                    break Some(wins);
                }
                if search.halted() {
                    break None;
                }
                shared.refuted.store(false, Ordering::Relaxed);
            };
            shared.done.store(true, Ordering::Relaxed);
            search.nodes.fetch_add(nodes, Ordering::Relaxed);
        });
        wins
    }

    /// One helper: proves the moves of the shared position one at a time, from the end of the
    /// order, until the value is found or a move wins.
    fn help(&self, search: &Search<'_>, shared: &Shared) {
        let help = self.search_like(search).stopping_on(&shared.done);
        let mut nodes = 0;
        while !shared.done.load(Ordering::Relaxed) {
            let k = shared.taken.fetch_add(1, Ordering::Relaxed);
            let Some(&reply) = shared.replies.get(k) else {
                break;
            };
            // The move leaves the opponent to move: if they lose there, the position is won.
            if help.search_until(shared.root.play(reply), &mut nodes) == Some(false) {
                shared.refuted.store(true, Ordering::Relaxed);
                break;
            }
        }
        search.nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::RetroTable;
    use crate::{Rules, SolverConfig};

    /// A search stopped by its flag returns no value, or the right one; a helper left to run
    /// alone flags a position exactly when one of its moves wins; and the main search then
    /// finds the right value from the table.
    #[test]
    fn a_helper_flags_exactly_the_won_positions() {
        let mut stopped = 0;
        for rules in [Rules::Normal, Rules::Misere] {
            let table = RetroTable::compute(4, rules == Rules::Misere).unwrap();
            for (node, wins) in super::super::in_play(&table, 4, 40) {
                let solver = || {
                    Solver::new(SolverConfig {
                        rules,
                        threads: 1,
                        tt_mb: 1,
                    })
                    .unwrap()
                };
                let mut nodes = 0;
                let stop = AtomicBool::new(true);
                let early = solver()
                    .search(4)
                    .stopping_on(&stop)
                    .search_until(node, &mut nodes);
                assert!(early.is_none() || early == Some(wins), "{rules:?} {node:?}");
                stopped += usize::from(early.is_none());

                let solver = solver();
                let search = solver.search(4);
                let Analysis::Moves(m) = search.analyse(node) else {
                    continue;
                };
                let shared = Shared::new(&search, node, m);
                solver.help(&search, &shared);
                assert_eq!(
                    shared.refuted.load(Ordering::Relaxed),
                    wins,
                    "{rules:?} {node:?}"
                );
                assert_eq!(search.search_until(node, &mut nodes), Some(wins));
            }
        }
        assert!(stopped > 0, "some searches are stopped before they end");
    }

    /// With helpers at work (two threads), every move of every 4x4 opening gets its value.
    #[test]
    fn helped_searches_agree_with_the_oracle() {
        for rules in [Rules::Normal, Rules::Misere] {
            let table = RetroTable::compute(4, rules == Rules::Misere).unwrap();
            let solver = Solver::new(SolverConfig {
                rules,
                threads: 2,
                tt_mb: 4,
            })
            .unwrap();
            for opening in ["a1", "b2"] {
                let p = crate::Position::from_moves(4, opening).unwrap();
                let got = solver.solve(&p, true).unwrap().winning_moves.unwrap();
                let node = Node {
                    black: p.black(),
                    white: p.white(),
                    black_to_move: false,
                };
                let want: Vec<_> = p
                    .empty()
                    .cells()
                    .filter(|&m| super::super::oracle_move_wins(&table, rules, node, m))
                    .map(|m| crate::Cell::from_index(m, 4))
                    .collect();
                assert_eq!(got, want, "{rules:?} {opening}");
                // The position itself is left proven in the table, with its value.
                let search = solver.search(4);
                let (kb, kw) = search.key(node);
                let (pn, dn) = search
                    .lookup(kb, kw)
                    .unwrap_or_else(|| panic!("{rules:?} {opening}: the position is in the table"));
                let won = !want.is_empty();
                assert_eq!((pn == 0, dn == 0), (won, !won), "{rules:?} {opening}");
            }
        }
    }
}
