//! The exact solver: who wins a position with perfect play, and with which moves.
//!
//! [`Solver`] owns a [`TranspositionTable`] and a rayon thread pool; several solves on one
//! solver (the openings of a board, say) share the table, whose entries are exact results and
//! stay valid from one solve to the next.

pub(crate) mod connections;
mod helpers;
mod inferior;
mod moves_cache;
mod paths;
mod permanent;
mod proofs;
mod report;
mod resistance;
mod sealed;
mod search;
mod shared;
mod snapshot;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;

use crate::tt::TranspositionTable;
use crate::{Bitboard, Cell, HexError, Player, Position};
pub use connections::Between;
use moves_cache::Caches;
pub use proofs::{Proof, ProofSet, RECORD_BYTES as PROOF_RECORD_BYTES};
pub use report::{EdgeLink, Inspection};
use search::{Analysis, Found, Node, ProofLog, Search};
pub use snapshot::{SnapshotCounts, SNAPSHOT_ENTRY_BYTES};

/// Which game is played: normal Hex (connecting wins) or misère Hex (connecting loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// The player who connects their edges wins.
    #[default]
    Normal,
    /// Misère Hex, also called Reverse Hex or Rex: the player who connects their edges loses.
    Misere,
}

/// Which winning moves [`Solver::solve_until`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveList {
    /// One winning move when the side to move wins (as [`Solver::solve`] without `all`).
    One,
    /// Every winning move (as [`Solver::solve`] with `all`).
    All,
    /// The winning moves among those the analysis keeps (the must-play region less the
    /// inferior cells), or among every empty cell when the analysis decides the position
    /// outright: the list Hex engines give for "find the winning moves", which leaves out
    /// winning moves proven no better than one kept.
    Considered,
}

/// How a [`Solver`] is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Normal or misère play.
    pub rules: Rules,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mb: usize,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            rules: Rules::Normal,
            threads: 0,
            tt_mb: 256,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The player to move in the position solved.
    pub to_move: Player,
    /// The player who wins with perfect play.
    pub winner: Player,
    /// A winning move for the side to move, when it wins: the one its proof found (the proof
    /// runs on one thread, so on a fresh solver the same from run to run, whatever the thread
    /// count). `winning_moves` lists them all.
    pub winning_move: Option<Cell>,
    /// Every winning move of the side to move (empty if it loses), in cell order (a1, b1, ...,
    /// a2, ...), when asked for.
    pub winning_moves: Option<Vec<Cell>>,
    /// Search nodes visited (varies with the thread count and the table's contents).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The value of one first move on the empty board.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Black's first stone.
    pub cell: Cell,
    /// Whether Black, having opened there, wins with perfect play.
    pub first_player_wins: bool,
    /// Search nodes visited.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The exact solver: a transposition table and a thread pool (see the module documentation).
///
/// ```
/// use zermelo_hex::{Player, Position, Rules, Solver, SolverConfig};
/// let solver = Solver::new(SolverConfig { tt_mb: 16, ..SolverConfig::default() }).unwrap();
/// let s = solver.solve(&Position::new(3).unwrap(), true).unwrap();
/// assert_eq!(s.winner, Player::Black);
/// // On 3x3 the centre and the two ends of the short diagonal win... and more: ask the solver.
/// assert!(s.winning_moves.unwrap().iter().any(|c| c.to_string() == "b2"));
/// ```
pub struct Solver {
    tt: TranspositionTable,
    /// The moves cache of its searches (`moves_cache.rs`).
    caches: Caches,
    rules: Rules,
    pool: rayon::ThreadPool,
    /// Nodes searched so far by every search of this solver, for progress reports.
    live: AtomicU64,
    /// Proofs given by the caller and proofs found since, when kept.
    proofs: Option<ProofLog>,
    /// The edge templates its searches use.
    templates: connections::Proves,
}

impl Solver {
    /// A solver with its table allocated and its threads started.
    pub fn new(config: SolverConfig) -> Result<Solver, HexError> {
        let tt = TranspositionTable::with_megabytes(config.tt_mb)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| HexError::BadTable(format!("cannot start the worker threads: {e}")))?;
        Ok(Solver {
            caches: Caches::new(pool.current_num_threads(), tt.max_capacity()),
            tt,
            rules: config.rules,
            pool,
            live: AtomicU64::new(0),
            proofs: None,
            templates: connections::ALL_TEMPLATES,
        })
    }

    /// The same solver, using only the edge templates `templates` names: the template finder
    /// proves the templates of a row with it, so that no template is taken as known while its
    /// own row is being proven.
    pub(crate) fn with_templates(mut self, templates: connections::Proves) -> Solver {
        self.templates = templates;
        self
    }

    /// The same solver, answering from `known` every position it holds (of its board size)
    /// without searching, and recording every position of that board size that its searches
    /// prove, for [`Solver::take_new_proofs`]. Fails if `known` is for other rules.
    ///
    /// ```
    /// use zermelo_hex::{Position, ProofSet, Rules, Solver, SolverConfig};
    /// let config = SolverConfig { tt_mb: 16, ..SolverConfig::default() };
    /// let first = Solver::new(config).unwrap().with_proofs(ProofSet::new(4, Rules::Normal).unwrap()).unwrap();
    /// let p = Position::from_moves(4, "a1").unwrap();
    /// let fresh = first.solve(&p, false).unwrap();
    /// let mut proofs = ProofSet::new(4, Rules::Normal).unwrap();
    /// for proof in first.take_new_proofs() {
    ///     proofs.insert(proof).unwrap();
    /// }
    /// // A new solver (a new run) starts from them: the same answer, no search.
    /// let again = Solver::new(config).unwrap().with_proofs(proofs).unwrap();
    /// let resumed = again.solve(&p, false).unwrap();
    /// assert_eq!((resumed.winner, resumed.nodes), (fresh.winner, 0));
    /// ```
    pub fn with_proofs(mut self, known: ProofSet) -> Result<Solver, HexError> {
        if known.rules() != self.rules {
            return Err(HexError::BadProofs(format!(
                "the proofs are for {:?} play, the solver plays {:?}",
                known.rules(),
                self.rules
            )));
        }
        self.proofs = Some(ProofLog {
            known,
            found: Mutex::new(Found::default()),
        });
        Ok(self)
    }

    /// The proofs given to [`Solver::with_proofs`].
    #[must_use]
    pub fn known_proofs(&self) -> Option<&ProofSet> {
        self.proofs.as_ref().map(|p| &p.known)
    }

    /// The positions proven by this solver's searches since the last call (safe to call from
    /// another thread while they run); empty when proofs are not kept. A position proven twice
    /// (by two threads) may be listed twice.
    #[must_use]
    pub fn take_new_proofs(&self) -> Vec<Proof> {
        self.proofs.as_ref().map_or_else(Vec::new, |p| {
            std::mem::take(&mut p.found.lock().expect("no search panics holding it").proofs)
        })
    }

    /// Like [`Solver::take_new_proofs`], and every search stops at the next position it proves
    /// from then on: its thread waits there for the process to end. For a run about to end on
    /// a signal, which saves what this returns: no proof is found that is not saved, and none
    /// is lost between the last save and the end. The solver is of no further use after it.
    #[must_use]
    pub fn seal_proofs(&self) -> Vec<Proof> {
        self.proofs.as_ref().map_or_else(Vec::new, |p| {
            let mut found = p.found.lock().expect("no search panics holding it");
            found.sealed = true;
            std::mem::take(&mut found.proofs)
        })
    }

    /// A search of n x n positions on this solver's table, reporting its nodes and using the
    /// proofs kept.
    fn search(&self, n: usize) -> Search<'_> {
        Search::new(&self.tt, &self.caches, self.rules, n)
            .with_templates(self.templates)
            .reporting_to(&self.live)
            .with_proofs(self.proofs.as_ref())
    }

    /// The nodes searched so far by this solver, all its calls and threads together, for
    /// progress reports while a solve runs (readable from another thread). A running search
    /// adds its count in steps of 1024 nodes, so the figure runs slightly behind until it
    /// returns, and is exact once every search has.
    #[must_use]
    pub fn nodes_searched(&self) -> u64 {
        self.live.load(Ordering::Relaxed)
    }

    /// The rules this solver plays.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The number of worker threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The transposition table (for its statistics).
    #[must_use]
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// A search for the same board and the same caller's stop flag as `search`, to help it.
    fn search_like<'s>(&'s self, search: &Search<'s>) -> Search<'s> {
        self.search(search.g.n).halting_on(search.halt())
    }

    /// Whether the side to move in `node` wins, `node` being a position whose game is not over:
    /// one proof-number search on the calling thread. (Splitting one proof between threads by
    /// its moves, the first child alone and then the others in parallel, was measured to cost
    /// far more than it gained, since it must finish proofs that proof-number search would
    /// leave: the empty 6x6 board took 27.8 s on 2 threads split over the top four levels,
    /// 0.46 s on one thread. Threads share a proof as workers of one search instead: see
    /// `shared.rs`.) `None` if the caller's stop flag was set first.
    fn value(&self, search: &Search<'_>, node: Node) -> Option<bool> {
        let mut nodes = 0;
        let win = search.search_until(node, &mut nodes);
        search.nodes.fetch_add(nodes, Ordering::Relaxed);
        win
    }

    /// The value for the side to move of the move on bit `cell`: whether it wins. Idle threads
    /// of the pool help its search. `None` if the caller's stop flag was set first.
    fn move_wins(&self, search: &Search<'_>, node: Node, cell: usize) -> Option<bool> {
        let child = node.play(cell);
        let g = search.g;
        let connects = if node.black_to_move {
            g.connects(child.black, g.north, g.south)
        } else {
            g.connects(child.white, g.west, g.east)
        };
        if connects {
            return Some(self.rules == Rules::Normal);
        }
        self.helped_value(search, child).map(|wins| !wins)
    }

    /// The winning moves among `cells` of `node` (a position whose game is not over), in the
    /// search's order. The moves are searched one per thread, taken in order, idle threads
    /// helping the last ones (`helpers.rs`); in normal play a move refuted with proof set P (of
    /// the opponent's win after it, see [`Search::loss_proof`]) refutes every move outside P
    /// with it, which is then not searched: with every empty cell outside P given to the
    /// mover, the positions after the two moves are the same one, still the opponent's win.
    /// Against every move searched on its own, two threads: 7x7 after a3 (won for White) and
    /// 8x8 after d5 (lost for White) 7.8 and 6.3 s instead of 9.4 and 7.4 s.
    ///
    /// In misère play, which has no proof sets, the position's value comes first, by every
    /// thread: when it is lost, so is every move, with no search of its own. In normal play
    /// the moves are searched straight away: at a won position every losing move needs its
    /// own refutation anyway, and at a lost one the refutations and their sets are the value
    /// search's own work. The value first took henderson-91 of Benzene's puzzles (won for
    /// White) 144.0 s on two threads, 98.3 s of them for the value, against 99.6 and 88.5 s
    /// without; 8x8 after d5 (lost for White) 0.898 of the time.
    fn winning_moves(
        &self,
        search: &Search<'_>,
        node: Node,
        cells: Bitboard,
    ) -> Result<Vec<usize>, HexError> {
        // Whether the side to move may win: false once the position is known lost.
        let may_win = match search.analyse(node) {
            Analysis::Decided(win, _, _) => win,
            Analysis::Moves(_) if self.rules == Rules::Normal => true,
            Analysis::Moves(_) => self.shared_value(search, node).ok_or(HexError::Stopped)?,
        };
        if !may_win {
            // Stored as at the end: a loss the analysis decides is stored by no search (one
            // the value search found is stored again, as it was).
            search.store_decided(node, false, None);
            return Ok(Vec::new());
        }
        let order: Vec<usize> = search.ordered(cells).collect();
        let next = AtomicUsize::new(0);
        // The moves not yet ruled out, the winning moves found, and whether a search stopped.
        let open = Mutex::new(cells);
        let won = Mutex::new(Bitboard::EMPTY);
        let stopped = AtomicBool::new(false);
        let lock = |set: &Mutex<Bitboard>| *set.lock().expect("no worker panics holding it");
        let work = || {
            while let Some(&c) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                if !lock(&open).has(c) {
                    continue;
                }
                let still_open = match self.move_wins(search, node, c) {
                    None => {
                        stopped.store(true, Ordering::Relaxed);
                        break;
                    }
                    Some(true) => {
                        *won.lock().expect("no worker panics holding it") |= Bitboard::single(c);
                        continue;
                    }
                    // Misère play keeps no proof sets: nothing else is ruled out.
                    Some(false) if self.rules == Rules::Misere => continue,
                    Some(false) => search.kept_proof(node.play(c)).with(c),
                };
                *open.lock().expect("no worker panics holding it") &= still_open;
            }
        };
        rayon::scope(|s| {
            for _ in 1..self.threads() {
                s.spawn(|_| work());
            }
            work();
        });
        if stopped.into_inner() {
            return Err(HexError::Stopped);
        }
        let won = lock(&won);
        let wins: Vec<usize> = order.into_iter().filter(|&c| won.has(c)).collect();
        // The position is proven with its moves: won by the first winning move, or lost (the
        // cells asked about hold a winning move whenever one exists). Stored as a value search
        // would have, so that the table and a proofs file hold the position given.
        search.store_decided(node, !wins.is_empty(), wins.first().copied());
        Ok(wins)
    }

    /// Solves a position: the winner, a winning move, and with `all` every winning move.
    ///
    /// Fails if the game is already over in `position`.
    pub fn solve(&self, position: &Position, all: bool) -> Result<Solution, HexError> {
        let list = if all { MoveList::All } else { MoveList::One };
        self.solve_until(position, list, None)
    }

    /// Solves a position as [`Solver::solve`] does, listing the winning moves that `list` asks
    /// for, and stopping with [`HexError::Stopped`] once `stop` (when given) is set: the
    /// searches then leave what they found in the table, so that the same solve started again
    /// goes on from there.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use zermelo_hex::{HexError, MoveList, Player, Position, Solver, SolverConfig};
    /// let solver = Solver::new(SolverConfig { tt_mb: 16, ..SolverConfig::default() }).unwrap();
    /// // Stopped before it starts, the empty 8x8 board is not solved.
    /// let stop = AtomicBool::new(true);
    /// let stopped = solver.solve_until(&Position::new(8).unwrap(), MoveList::One, Some(&stop));
    /// assert!(matches!(stopped, Err(HexError::Stopped)));
    /// // The winning moves of a 4x4 position among those the analysis keeps.
    /// let p = Position::new(4).unwrap();
    /// let s = solver.solve_until(&p, MoveList::Considered, None).unwrap();
    /// assert_eq!(s.winner, Player::Black);
    /// let all = solver.solve(&p, true).unwrap().winning_moves.unwrap();
    /// assert!(s.winning_moves.unwrap().iter().all(|m| all.contains(m)));
    /// ```
    pub fn solve_until(
        &self,
        position: &Position,
        list: MoveList,
        stop: Option<&AtomicBool>,
    ) -> Result<Solution, HexError> {
        if let Some(p) = position.connected() {
            return Err(HexError::GameOver(p.name()));
        }
        let start = Instant::now();
        let n = position.size();
        let search = self.search(n).halting_on(stop);
        let node = Node {
            black: position.black(),
            white: position.white(),
            black_to_move: position.to_move() == Player::Black,
        };
        let listed = match list {
            MoveList::One => None,
            MoveList::All => Some(position.empty()),
            MoveList::Considered => Some(search.kept_moves(node).unwrap_or(position.empty())),
        };
        let (winning_move, winning_moves) = self.pool.install(|| {
            if let Some(cells) = listed {
                let wins = self.winning_moves(&search, node, cells)?;
                let mut list: Vec<Cell> = wins.iter().map(|&c| Cell::from_index(c, n)).collect();
                list.sort_by_key(|c| c.index(n));
                Ok((wins.first().copied(), Some(list)))
            } else {
                let first = match search.analyse(node) {
                    Analysis::Decided(win, m, _) => {
                        search.store_decided(node, win, m);
                        m.filter(|_| win)
                    }
                    // The value first: proof-number search spreads its effort over the moves,
                    // where trying them one by one would prove every losing move tried first.
                    Analysis::Moves(moves) => match self.shared_value(&search, node) {
                        None => return Err(HexError::Stopped),
                        Some(false) => None,
                        Some(true) => match search.proven_move(node) {
                            Some(m) => Some(m),
                            None => {
                                let mut found = None;
                                for c in search.ordered(moves) {
                                    if self.move_wins(&search, node, c).ok_or(HexError::Stopped)? {
                                        found = Some(c);
                                        break;
                                    }
                                }
                                found
                            }
                        },
                    },
                };
                Ok((first, None))
            }
        })?;
        let to_move = position.to_move();
        Ok(Solution {
            to_move,
            winner: if winning_move.is_some() {
                to_move
            } else {
                to_move.opponent()
            },
            winning_move: winning_move.map(|c| Cell::from_index(c, n)),
            winning_moves,
            nodes: search.nodes.load(Ordering::Relaxed),
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// The move the search rates best in a position whose game is not over, when it could not
    /// prove a win there (the search being stopped, or the position lost): among the moves its
    /// analysis keeps, the one whose position the table holds as closest to a win, that is
    /// with the least proof number for the side to move (a proven win first, then the fewest
    /// positions left to prove, then the most left to disprove); the first in the search's
    /// order when the table knows none of them.
    ///
    /// ```
    /// use zermelo_hex::{Position, Solver, SolverConfig};
    /// let solver = Solver::new(SolverConfig { tt_mb: 16, ..SolverConfig::default() }).unwrap();
    /// let p = Position::from_moves(3, "").unwrap();
    /// assert!(solver.best_move(&p).is_ok());
    /// ```
    pub fn best_move(&self, position: &Position) -> Result<Cell, HexError> {
        if let Some(p) = position.connected() {
            return Err(HexError::GameOver(p.name()));
        }
        let n = position.size();
        let search = self.search(n);
        let node = Node {
            black: position.black(),
            white: position.white(),
            black_to_move: position.to_move() == Player::Black,
        };
        let moves = match search.analyse(node) {
            Analysis::Decided(true, Some(m), _) => return Ok(Cell::from_index(m, n)),
            Analysis::Decided(..) => position.empty(),
            Analysis::Moves(m) => m,
        };
        // A child's numbers are for the opponent: its disproof number is the mover's proof.
        let rank = |c: usize| {
            let (kb, kw) = search.key(node.play(c));
            search
                .lookup(kb, kw)
                .map_or((u64::MAX, 0), |(pn, dn)| (dn, u64::MAX - pn))
        };
        let best = search
            .ordered(moves)
            .min_by_key(|&c| rank(c))
            .or_else(|| position.empty().first())
            .ok_or_else(|| HexError::BadPosition("the board is full".into()))?;
        Ok(Cell::from_index(best, n))
    }

    /// The perfect-play length of `position` in plies: the winner wins as fast as possible, the
    /// loser delays as long as possible. Boards up to [`crate::MAX_LENGTH_SIZE`].
    ///
    /// ```
    /// use zermelo_hex::{Position, Solver, SolverConfig};
    /// let solver = Solver::new(SolverConfig { tt_mb: 16, ..SolverConfig::default() }).unwrap();
    /// // On 4x4, after Black opens c2, Black wins with his 5th stone: 8 more plies.
    /// let p = Position::from_moves(4, "c2").unwrap();
    /// assert_eq!(solver.perfect_play_length(&p).unwrap(), 8);
    /// ```
    pub fn perfect_play_length(&self, position: &Position) -> Result<u32, HexError> {
        let search = self.search(position.size());
        // The length search asks only about games in play: it stops at connecting moves.
        let value = |black, white, black_to_move: bool| {
            let node = Node {
                black,
                white,
                black_to_move,
            };
            let mut nodes = 0;
            search.search(node, &mut nodes)
        };
        self.pool
            .install(|| crate::length::perfect_play_length(position, self.rules, &value))
    }

    /// The value of every opening of an n x n board as far as it is known without a search:
    /// from the table or the proofs this solver was given, or decided by the analysis of the
    /// position after it. Whether the first player wins each opening, `None` for one still
    /// open, in cell order.
    pub fn known_openings(&self, n: usize) -> Result<Vec<(Cell, Option<bool>)>, HexError> {
        let empty = Position::new(n)?;
        let node = Node {
            black: empty.black(),
            white: empty.white(),
            black_to_move: true,
        };
        let search = self.search(n);
        let g = search.g;
        Ok((0..n * n)
            .map(|c| {
                let child = node.play(c);
                let value = if g.connects(child.black, g.north, g.south) {
                    Some(self.rules == Rules::Normal)
                } else {
                    search.known(child).map(|win| !win)
                };
                (Cell::from_index(c, n), value)
            })
            .collect())
    }

    /// Solves every first move on the empty n x n board, in parallel. `on_done` is called (from
    /// any thread) as each opening is settled. The list is in cell order (a1, b1, ...).
    ///
    /// A cell and its 180° rotation have the same value; the second is answered from the first's
    /// table entries, so each pair costs one search. Each opening is a job of its own, and a
    /// thread with none left helps the openings still searched (see `helpers.rs`).
    pub fn openings(
        &self,
        n: usize,
        on_done: impl Fn(&Opening) + Sync,
    ) -> Result<Vec<Opening>, HexError> {
        let empty = Position::new(n)?;
        let node = Node {
            black: empty.black(),
            white: empty.white(),
            black_to_move: true,
        };
        let solve = |&c: &usize| {
            let start = Instant::now();
            let search = self.search(n);
            let wins = self
                .move_wins(&search, node, c)
                .expect("a search with no stop flag ends solved");
            let opening = Opening {
                cell: Cell::from_index(c, n),
                first_player_wins: wins,
                nodes: search.nodes.load(Ordering::Relaxed),
                seconds: start.elapsed().as_secs_f64(),
            };
            on_done(&opening);
            opening
        };
        // One cell of each rotated pair first, then the others, which the table then answers:
        // solving both at once on two threads would do the same proof twice.
        let last = n * n - 1;
        let (first, second): (Vec<usize>, Vec<usize>) = (0..n * n).partition(|&c| c <= last - c);
        let mut list: Vec<Opening> = self.pool.install(|| {
            let mut list: Vec<Opening> = first.par_iter().with_max_len(1).map(solve).collect();
            list.extend(second.par_iter().map(solve).collect::<Vec<_>>());
            list
        });
        list.sort_by_key(|o| o.cell.index(n));
        Ok(list)
    }
}

/// The positions in play among the [`colourings`] of an n x n board (one in `step`), by the
/// retrograde oracle `table`: each as a node (Black to move when the stone counts are equal),
/// with whether its side to move wins.
#[cfg(test)]
pub(crate) fn in_play(
    table: &crate::retro::RetroTable,
    n: usize,
    step: usize,
) -> impl Iterator<Item = (Node, bool)> + '_ {
    use crate::retro::RetroValue;
    colourings(n, step).filter_map(|(black, white)| {
        let wins = match table.value(black.0, white.0).unwrap() {
            RetroValue::Win => true,
            RetroValue::Loss => false,
            RetroValue::GameOver | RetroValue::Illegal => return None,
        };
        let black_to_move = black.count() == white.count();
        Some((
            Node {
                black,
                white,
                black_to_move,
            },
            wins,
        ))
    })
}

/// Whether the side to move of `node` (in play) wins by `cell`, by the retrograde oracle: a
/// move that ends the game wins in normal play and loses in misère play.
#[cfg(test)]
pub(crate) fn oracle_move_wins(
    table: &crate::retro::RetroTable,
    rules: Rules,
    node: Node,
    cell: usize,
) -> bool {
    use crate::retro::RetroValue;
    let child = node.play(cell);
    match table.value(child.black.0, child.white.0).unwrap() {
        RetroValue::Loss => true,
        RetroValue::Win => false,
        RetroValue::GameOver => rules == Rules::Normal,
        RetroValue::Illegal => unreachable!("a move from a position in play is legal"),
    }
}

/// Every colouring of an n x n board, one in `step` in the order of their base-3 codes (digit i
/// for cell i: 0 empty, 1 Black, 2 White), as (black, white): the positions the solver's unit
/// tests sample, any stone counts included. A step that is a multiple of 3 would leave the
/// first cell always empty; steps prime to 3 give every cell every colour.
#[cfg(test)]
pub(crate) fn colourings(
    n: usize,
    step: usize,
) -> impl Iterator<Item = (crate::Bitboard, crate::Bitboard)> {
    (0..3u64.pow((n * n) as u32))
        .step_by(step)
        .map(move |code| colouring(0..n * n, code))
}

/// The colouring of `cells` whose base-3 code is `code`, digit k for the k-th cell (0 empty,
/// 1 Black, 2 White), as (black, white).
#[cfg(test)]
pub(crate) fn colouring(
    cells: impl IntoIterator<Item = usize>,
    mut code: u64,
) -> (crate::Bitboard, crate::Bitboard) {
    use crate::Bitboard;
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for i in cells {
        match code % 3 {
            1 => black = black.with(i),
            2 => white = white.with(i),
            _ => {}
        }
        code /= 3;
    }
    (black, white)
}

/// A xorshift generator for the random positions and completions of the unit tests.
#[cfg(test)]
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A random partial colouring of an n x n board: each cell drawn among `parts` equal chances,
/// the first (parts - 1) / 2 black, the next as many white, the rest empty.
#[cfg(test)]
pub(crate) fn random_colouring(
    n: usize,
    parts: u64,
    next: &mut impl FnMut() -> u64,
) -> (crate::Bitboard, crate::Bitboard) {
    use crate::Bitboard;
    let half = (parts - 1) / 2;
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for i in 0..n * n {
        match next() % parts {
            r if r < half => black = black.with(i),
            r if r < 2 * half => white = white.with(i),
            _ => {}
        }
    }
    (black, white)
}

/// Runs `check` on positions whose exact values a [`Minimax`] finds quickly, with the dead-cell
/// engine of their board: 4x4 ones (one colouring in `step`, see [`colourings`]) on one memo,
/// then `tries` random 5x5 ones (12 parts, see [`random_colouring`], drawn from `seed`) with at
/// most ten empty cells that `keep` accepts, each on a memo of its own. A position already won
/// counts as tried and is not checked. Returns what `check` counted on 4x4 and on 5x5.
#[cfg(test)]
pub(crate) fn on_exact_positions(
    step: usize,
    (seed, tries): (u64, usize),
    keep: impl Fn(&inferior::DeadCells, crate::Bitboard, crate::Bitboard) -> bool,
    mut check: impl FnMut(&mut Minimax, &inferior::DeadCells, crate::Bitboard, crate::Bitboard) -> usize,
) -> (usize, usize) {
    let over = |g: &crate::Geometry, black: crate::Bitboard, white: crate::Bitboard| {
        g.connects(black, g.north, g.south) || g.connects(white, g.west, g.east)
    };
    let (mut small, dead4) = (
        Minimax::new(4),
        inferior::DeadCells::new(crate::Geometry::of(4)),
    );
    let on_small = colourings(4, step)
        .filter(|&(b, w)| !over(small.g, b, w))
        .map(|(b, w)| check(&mut small, &dead4, b, w))
        .sum();
    let (g, dead5) = (
        crate::Geometry::of(5),
        inferior::DeadCells::new(crate::Geometry::of(5)),
    );
    let mut next = xorshift(seed);
    let (mut tried, mut on_large) = (0, 0);
    while tried < tries {
        let (black, white) = random_colouring(5, 12, &mut next);
        if g.board.minus(black | white).count() > 10 || !keep(&dead5, black, white) {
            continue;
        }
        tried += 1;
        if !over(g, black, white) {
            on_large += check(&mut Minimax::new(5), &dead5, black, white);
        }
    }
    (on_small, on_large)
}

/// Exact values of positions with either side to move, by memoised minimax: every
/// position of a 4x4 board in a table indexed by base-3 codes (digit i: 0 empty, 1 Black,
/// 2 White), larger boards in a map.
#[cfg(test)]
pub(crate) struct Minimax {
    /// The board.
    pub g: &'static crate::Geometry,
    powers: Vec<u64>,
    table: Vec<u8>,
    map: std::collections::HashMap<(u128, u128, bool), bool>,
}

#[cfg(test)]
impl Minimax {
    /// An empty memo for the n x n board.
    pub fn new(n: usize) -> Minimax {
        let powers: Vec<u64> = (0..n * n).map(|i| 3u64.pow(i as u32)).collect();
        let table = match n <= 4 {
            true => vec![0; 2 * 3usize.pow((n * n) as u32)],
            false => Vec::new(),
        };
        Minimax {
            g: crate::Geometry::of(n),
            powers,
            table,
            map: std::collections::HashMap::new(),
        }
    }

    /// Whether the side to move (Black if `black_to_move`) wins.
    pub fn wins(
        &mut self,
        black: crate::Bitboard,
        white: crate::Bitboard,
        black_to_move: bool,
    ) -> bool {
        let g = self.g;
        if g.connects(black, g.north, g.south) {
            return black_to_move;
        }
        if g.connects(white, g.west, g.east) {
            return !black_to_move;
        }
        let code: u64 = black.cells().map(|i| self.powers[i]).sum::<u64>()
            + white.cells().map(|i| 2 * self.powers[i]).sum::<u64>();
        let at = 2 * code as usize + usize::from(black_to_move);
        let known = match self.table.is_empty() {
            true => self.map.get(&(black.0, white.0, black_to_move)).copied(),
            false => [None, Some(true), Some(false)][usize::from(self.table[at])],
        };
        if let Some(win) = known {
            return win;
        }
        let mut win = false;
        for i in self.g.board.minus(black | white).cells() {
            let reply = match black_to_move {
                true => self.wins(black.with(i), white, false),
                false => self.wins(black, white.with(i), true),
            };
            if !reply {
                win = true;
                break;
            }
        }
        match self.table.is_empty() {
            true => {
                self.map.insert((black.0, white.0, black_to_move), win);
            }
            false => self.table[at] = if win { 1 } else { 2 },
        }
        win
    }
}
