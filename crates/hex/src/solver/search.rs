//! The search itself: depth-first proof-number search over positions, with the transposition
//! table and sound pruning. One search runs on one thread; the solver runs several at once
//! (openings, or every move of a position), all sharing the table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::tt::{TranspositionTable, TtData, MAX_PN};
use crate::{Bitboard, Geometry};

use super::connections::{self, EdgeConnection, Proves};
use super::inferior::DeadCells;
use super::moves_cache::{self, Caches};
use super::paths::Paths;
use super::proofs::{Proof, ProofSet};
use super::resistance;
use super::Rules;

/// A position inside the search: both stone sets and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub black: Bitboard,
    pub white: Bitboard,
    pub black_to_move: bool,
}

impl Node {
    /// The stones of the side to move, then the opponent's.
    #[inline(always)]
    pub fn sides(self) -> (Bitboard, Bitboard) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The node after the side to move plays bit `i`.
    #[inline(always)]
    pub fn play(self, i: usize) -> Node {
        if self.black_to_move {
            Node {
                black: self.black.with(i),
                white: self.white,
                black_to_move: false,
            }
        } else {
            Node {
                black: self.black,
                white: self.white.with(i),
                black_to_move: true,
            }
        }
    }
}

/// What the cheap analysis of a node concludes before any move is tried.
pub(crate) enum Analysis {
    /// The value is known: `true` if the side to move wins, with a winning move when there is
    /// one, and a proof set of the win (see [`Search::loss_proof`]; in misère play every empty
    /// cell).
    Decided(bool, Option<usize>, Bitboard),
    /// The moves that must be searched (all others are proven no better).
    Moves(Bitboard),
}

/// A position after fill-in ([`Search::fill_in`]), the mover's side first.
pub(super) struct Filled {
    pub mine: Bitboard,
    pub theirs: Bitboard,
    pub empty: Bitboard,
    /// The cells given to the mover.
    pub fill_mine: Bitboard,
    /// The cells given to the opponent.
    pub fill_theirs: Bitboard,
    /// Of those, the permanently inferior cells (the rest are captured), the mover's first.
    pub permanent: [Bitboard; 2],
    /// The cells that a proof set of the mover's win must hold for the fill-in to stand
    /// (see [`Search::loss_proof`]): those given to the mover, and the empty neighbours of the
    /// mover's permanently inferior cells.
    needs_mine: Bitboard,
    /// The same for a win of the opponent's.
    needs_theirs: Bitboard,
}

/// How much of [`Search::analysis`] a call makes, in normal play (misère play makes all of
/// it each time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// A child's first estimate: neither the mover's own connection nor the pruning of
    /// reversible and dominated moves.
    Estimate,
    /// A position the search expands: the pruning, and the own connection only near the top
    /// of the tree (fewer than [`OWN_CONNECTION_BELOW`] stones).
    Expansion,
    /// Everything ([`Search::analyse`]).
    Whole,
}

impl Stage {
    /// Normal play: whether an analysis of `node` at this stage builds the mover's own
    /// connection between their edges (see [`Search::analysis`]): always for a position asked
    /// about, and for an expanded one with fewer than [`OWN_CONNECTION_BELOW`] stones.
    #[inline(always)]
    fn builds_own_connection(self, node: Node) -> bool {
        match self {
            Stage::Whole => true,
            Stage::Expansion => (node.black | node.white).count() < OWN_CONNECTION_BELOW,
            Stage::Estimate => false,
        }
    }
}

/// Shared, read-only state of one solve, plus the node counter.
pub(crate) struct Search<'a> {
    pub tt: &'a TranspositionTable,
    /// The moves cache, shared like the table.
    caches: &'a Caches,
    pub rules: Rules,
    pub g: &'static Geometry,
    /// Cells in the order moves are tried: centre first in normal play, last in misère play.
    pub order: Vec<u8>,
    pub nodes: AtomicU64,
    /// A running count shared with progress reports, added to every [`LIVE_STEP`] nodes.
    live: Option<&'a AtomicU64>,
    dead: DeadCells,
    /// Proofs of earlier runs, consulted when the table has nothing, and where this search's
    /// own proofs are recorded: only when they are for this board size.
    proofs: Option<&'a ProofLog>,
    /// When set, the search stops where it stands ([`Search::search_until`]).
    stop: Option<&'a AtomicBool>,
    /// The caller's stop flag ([`super::Solver::solve_until`]): like `stop`, but passed on to
    /// every search started for the same solve, where `stop` belongs to one of them.
    halt: Option<&'a AtomicBool>,
    /// When set, this search is one worker of a shared proof (its marks and its number), and
    /// steers away from the nodes the other workers are in.
    shared: Option<(&'a Paths, usize)>,
    /// The connections its analysis builds: every edge template, or those the template finder
    /// relies on ([`super::Solver::with_templates`]).
    connections: Proves,
}

/// Proven positions given to a solver, and those its searches have proven since.
pub(crate) struct ProofLog {
    /// Read-only during the searches.
    pub known: ProofSet,
    /// Proven by this solver and not yet taken by [`super::Solver::take_new_proofs`].
    pub found: Mutex<Found>,
}

/// The proofs found and not yet taken, and whether the log is sealed
/// ([`super::Solver::seal_proofs`]): a search that proves a position after that stops there.
#[derive(Default)]
pub(crate) struct Found {
    pub proofs: Vec<Proof>,
    pub sealed: bool,
}

/// How many nodes a search counts before it adds them to the running count: often enough for a
/// progress line, rarely enough that the shared counter costs nothing.
pub(crate) const LIVE_STEP: u64 = 1024;

impl<'a> Search<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        caches: &'a Caches,
        rules: Rules,
        n: usize,
    ) -> Search<'a> {
        let g = Geometry::of(n);
        Search {
            tt,
            caches,
            rules,
            g,
            // In misère play good moves do little for the mover's own connection, as cells
            // far from the centre do: they go first (measured: a sixth fewer nodes and a
            // fifth less time on twenty sampled 6x6 positions).
            order: match rules {
                Rules::Normal => centre_first(n),
                Rules::Misere => centre_first(n).into_iter().rev().collect(),
            },
            nodes: AtomicU64::new(0),
            live: None,
            dead: DeadCells::new(g),
            proofs: None,
            stop: None,
            halt: None,
            shared: None,
            connections: connections::ALL_TEMPLATES,
        }
    }

    /// The same search, its connections built with the edge templates `templates` names
    /// only.
    pub(crate) fn with_templates(mut self, templates: Proves) -> Search<'a> {
        self.connections = templates;
        self
    }

    /// The same search as worker `worker` of a shared proof whose workers mark their nodes in
    /// `paths`.
    pub fn sharing(mut self, paths: &'a Paths, worker: usize) -> Search<'a> {
        self.shared = Some((paths, worker));
        self
    }

    /// The same search, stopping where it stands once `stop` is set: see
    /// [`Search::search_until`].
    pub fn stopping_on(mut self, stop: &'a AtomicBool) -> Search<'a> {
        self.stop = Some(stop);
        self
    }

    /// The same search, stopping where it stands once the caller's `halt` is set (when given):
    /// see [`Search::search_until`].
    pub fn halting_on(mut self, halt: Option<&'a AtomicBool>) -> Search<'a> {
        self.halt = halt;
        self
    }

    /// The caller's stop flag, for the searches started to help this one.
    pub fn halt(&self) -> Option<&'a AtomicBool> {
        self.halt
    }

    /// Whether the caller has asked the solve to stop.
    pub fn halted(&self) -> bool {
        self.halt.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) || self.halted()
    }

    /// The same search, answering from `proofs` the positions it holds and recording there the
    /// positions it proves, when `proofs` is for this board size.
    pub fn with_proofs(mut self, proofs: Option<&'a ProofLog>) -> Search<'a> {
        self.proofs = proofs.filter(|p| p.known.size() == self.g.n);
        self
    }

    /// The table's entry for a key, or else the proof of an earlier run.
    #[inline(always)]
    fn probe(&self, kb: Bitboard, kw: Bitboard) -> Option<TtData> {
        self.probe_held(kb, kw).map(|(data, _)| data)
    }

    /// [`Search::probe`], with the set the table holds with the entry (in the key's
    /// orientation): a proven position's proof set, when one was kept; an earlier run's proof
    /// has none.
    #[inline(always)]
    fn probe_held(&self, kb: Bitboard, kw: Bitboard) -> Option<(TtData, Option<Bitboard>)> {
        self.tt.probe_held(kb, kw).or_else(|| {
            let best = self.proofs?.known.get(kb, kw)?;
            let data = TtData::Solved {
                win: best.is_some(),
                best,
                work: 0,
            };
            Some((data, None))
        })
    }

    /// The same search, adding its nodes to `live` as it goes (for progress reports).
    pub fn reporting_to(mut self, live: &'a AtomicU64) -> Search<'a> {
        self.live = Some(live);
        self
    }

    /// The two edges of the side to move, then the two of the opponent.
    #[inline(always)]
    fn edges(&self, black_to_move: bool) -> (Bitboard, Bitboard, Bitboard, Bitboard) {
        let g = self.g;
        if black_to_move {
            (g.north, g.south, g.west, g.east)
        } else {
            (g.west, g.east, g.north, g.south)
        }
    }

    /// The cheap analysis of a node whose game is not over.
    ///
    /// Normal play: a move that completes the mover's connection wins at once. Otherwise, if the
    /// opponent has two cells that would each complete their connection, one stone cannot stop
    /// both (a stone of the mover's removes none of the opponent's stones), so the mover loses;
    /// with one such cell, the mover must take it.
    ///
    /// Normal play, fill-in: the captured pairs of each player ([`DeadCells::captured`]) and
    /// their permanently inferior cells (the `permanent` module) are given to them, round after
    /// round; each round leaves the value unchanged, whoever is to move. The moves are then
    /// looked for in the filled position F, and a move m of the mover's that wins F wins the
    /// position P itself. *Proof*, round by round back from F: a round that gives cells to the
    /// opponent only adds opponent's stones, so m wins without them (an opponent's stone never
    /// helps the mover); a round that gives cells to the mover stays valid, all of its cells
    /// together, once the mover has m (a captured pair stays captured when a cell outside it is
    /// taken, and the permanently inferior cells of a player can still all be filled after
    /// their own move), so m is worth as much without them. The same holds for a cell given to
    /// the mover, played in P: it wins whenever F is won with the opponent to move, which is
    /// how the mover's filled cells stand for "any move" when F is already connected.
    ///
    /// Normal play, sealed sets: when the opponent's connections give a sealed set Z (the
    /// `sealed` module: a full connection's carrier walled in by the mover's stones), the
    /// moves are looked for outside Z. The position with Z given to the opponent has the same
    /// winner, and a move outside Z wins in one exactly when it wins in the other. The rules
    /// that prune dead, reversible and dominated moves, read in the position without Z, hold
    /// in the one with Z: a cell dead or captured stays so with more of the opponent's
    /// stones, and a dominator y of x outside Z is still at least as good (the positions
    /// after y and after x are each worth their Z-filled forms); so a winning move outside Z
    /// is kept. Z is left out only when a candidate is left, and not in a position that is its
    /// own rotation, whose search keeps one move of each rotated pair.
    ///
    /// Misère: a move that completes the mover's own connection loses at once, so it is never
    /// searched; a mover left with only such moves loses. And the parity of forbidden cells
    /// decides many positions: a player with a forbidden cell (one where their
    /// own stone would connect them) who would make the last move of a game played to the full
    /// board loses. The opponent can never connect while that cell is empty — both players
    /// cannot be connected at once, and the cell would connect the first player — so the
    /// opponent plays anywhere else until that cell is the last one left, which the first player
    /// must then fill, unless they were forced to connect earlier. So a mover with a forbidden
    /// cell and an odd number of empty cells loses, and a mover facing an opponent with one and
    /// an even number wins by any move that neither connects them nor fills an opponent's
    /// forbidden cell.
    ///
    /// Misère, pairing strategies: the connection engine, keeping to pairings
    /// ([`Proves::Pairings`]), finds connections between a player's edges made of disjoint
    /// pairs of empty cells such that the player, holding any one cell of each pair, connects;
    /// a semi one has a key as well, which the player needs too. The owner of a full pairing
    /// loses, whoever is to move: the opponent answers every move in a pair with the
    /// other cell of the pair; when a reply is needed elsewhere (at the start, or after a move
    /// outside the pairs), the opponent plays a cell outside the pairing if there is one, and
    /// otherwise one cell of an untouched pair, leaving its partner to the owner. At most one
    /// such partner is ever waiting, and only when the opponent does not make the last move of
    /// a game played to the full board, so whenever the opponent must move, the parity of the
    /// empty cells leaves one they may take: the opponent never fills a partner. On the full
    /// board the owner holds one cell of each pair and is connected. The owner of a semi
    /// pairing who makes the last move loses too: the opponent, never short of a cell outside
    /// the pairing at their turn (there is an odd number of them then), leaves the key for the
    /// owner's last move. The opponent's first move in both is a cell outside the pairing if
    /// there is one (it cannot connect them, as the owner ends up connected). And a move on
    /// the key of one of the mover's semi pairings loses: it leaves the mover a full one.
    ///
    /// Misère, colour symmetry: when a reflection that swaps the players' edges (in the long
    /// diagonal, alone or with the 180° rotation) maps the position onto itself with the
    /// colours swapped, the mover wins exactly when the number of empty cells is even. Both
    /// players then stand alike, so the side to move is worth the same whoever it is. With an
    /// odd count, a move off the axis is answered by its reflection, which gives such a
    /// position again with two fewer empty cells; a move m on the axis cannot win either: the
    /// opponent would then win the reflected position from the second seat, and steals that
    /// win here by pretending the mover's stone at m is theirs (an opponent's stone where one's
    /// own would be never hurts in misère Hex, see below). With an even count, were the mover
    /// to lose, the second player would win whoever starts; the mover then plays second with an
    /// imaginary opponent's stone on some empty cell (moved to another when the opponent fills
    /// it), and as the opponent makes the last move, the imaginary stone ends up real. So a
    /// symmetric position with an odd count is lost, a move that makes one with an even count
    /// wins, and a move that makes one with an odd count loses.
    ///
    /// Misère, fill-in: a pair of empty cells captured by a player (their stone on either makes
    /// the other dead) goes to that player without changing the value, and the count of empty
    /// cells keeps its parity. Whoever wins with the pair filled wins without: a move in the
    /// pair is answered on its other cell, after which the pair is worth the same as filled
    /// (one stone of the owner's, the other cell dead); and a player forced into the pair
    /// (nothing else left) opens it, and the other player must close it.
    ///
    /// Misère, dead cells: if the mover has a winning move m, a stone on a dead cell d wins too,
    /// so d is the only move searched. Misère Hex is decided by the full board (the loser is
    /// whoever is connected once every cell is filled: the first connection stays, and the
    /// other player cannot connect too), and d's colour changes no full board's winner. After
    /// playing d, the mover pretends their stone stands on m and d is still empty, and follows
    /// the winning strategy from m. If that strategy asks for d, the mover plays m, and the
    /// real and pretended boards become the same. If the opponent plays m, the mover pretends
    /// the opponent played d instead: the boards then differ only at d, whose colour does not
    /// matter, and at m, which is the opponent's in the real board and the mover's in the
    /// pretended one — and in misère play an opponent's stone where the mover's would be never
    /// hurts the mover, since a full board where the opponent is connected stays so when one
    /// more cell turns the opponent's colour. The same empty cells remain in both boards, so the
    /// pretended win carries over.
    ///
    /// In both, when the position is its own 180° rotation, a move and its rotated image lead to
    /// rotated positions of equal value, so only one of each pair is searched.
    #[inline]
    pub fn analyse(&self, node: Node) -> Analysis {
        self.analysis(node, Stage::Whole)
    }

    /// [`Search::analyse`], leaving out in normal play what `stage` says (see [`Stage`]): the
    /// search makes the mover's own connection between their edges only in expansions near the
    /// top of the tree, and leaves the pruning of reversible and dominated moves out of a
    /// child's estimate ([`Search::dfpn`]), to be done only if the child is expanded
    /// ([`Search::analyse_cached`]). The connection can only decide a win, and the pruning only
    /// removes moves, so leaving them out never changes a decided value; an estimate only
    /// decides fewer positions at once and counts more moves.
    ///
    /// The own connection is the half of the analysis that decides least: the parent's
    /// must-play region has already ruled out most moves that would leave the mover connected
    /// (8x8 after d5, one thread: it decided 623 of 25,001 expanded positions, all by a semi
    /// connection, where the connection engine, whose lists are capped, finds more after the
    /// parent's move than before). Without it such a position is won a step later, when the
    /// estimate of the move on the semi's key finds the mover's full connection, which took
    /// more nodes and less time: 8x8 after d5, one thread, 40,026 nodes against 35,227 and
    /// the same time; the empty 8x8 board 30,560 against 31,637 and 0.78 of the time; 8x8
    /// after c2 e6 75.0 s against 102.7; on two threads 8x8 after b1 36.7 s against 49.9 and
    /// the 49 7x7 openings 9.9 s against 11.4 (medians of 3 and 2 pairs). In a child's
    /// estimate, where most children are never expanded, it had already been measured on
    /// seven 7x7 openings (a2 b3 d2 d5 e2 f1 g2), one thread each: 333 s against 369 s with
    /// the connection in every estimate, with more nodes (g2: 775,000 against 541,000). The
    /// pruning was a tenth of the time, nine
    /// in ten of its calls in estimates; without it the estimates count moves that the
    /// expansion prunes, and the search took fewer nodes, not more (7x7 after a3, one thread:
    /// 71,012 against 86,174).
    ///
    /// The opponent's connection stays in the estimate, in full: it is what makes estimates
    /// worth their cost. Measured on one thread: with no connection at all in the estimate,
    /// 7x7 after a3 took 215,432 nodes instead of 15,074; with the connection read off the
    /// parent's own connections (the new stone joined to the edges through them, no new
    /// build), 8x8 after d5 took 150,593 instead of 35,227, since the child's fill-in makes
    /// the difference (that reading found a full connection 69 times in 200,000 estimates,
    /// a fresh build 9,503 times); with the semis a pair keeps cut to 14 in estimates, 43,707.
    fn analysis(&self, node: Node, stage: Stage) -> Analysis {
        let g = self.g;
        let empty = g.board.minus(node.black | node.white);
        let (mine, theirs) = node.sides();
        let (ma, mb, ta, tb) = self.edges(node.black_to_move);
        let own_connecting = g.winning_cells(mine, empty, ma, mb);
        // The trivial proof set, the only one kept in misère play.
        let all = empty;
        // The stones after fill-in, for the symmetry test.
        let filled;
        let mut moves = match self.rules {
            Rules::Normal => {
                if let Some(i) = self.first_in_order(own_connecting) {
                    return Analysis::Decided(true, Some(i), Bitboard::single(i));
                }
                let threats = g.winning_cells(theirs, empty, ta, tb);
                let mut moves = match threats.count() {
                    0 => empty,
                    1 => threats,
                    _ => {
                        let two = threats
                            .cells()
                            .take(2)
                            .fold(Bitboard::EMPTY, Bitboard::with);
                        return Analysis::Decided(false, None, two);
                    }
                };
                // Fill-in: captured pairs and permanently inferior cells go to their owner,
                // which leaves the value unchanged and makes the connections below stronger;
                // the moves found in the filled position win in this one (proof above).
                let f = self.fill_in(mine, theirs, empty, node.black_to_move);
                let (mine, theirs, empty) = (f.mine, f.theirs, f.empty);
                if g.connects(mine, ma, mb) {
                    // The filled position is won even with the opponent to move, so every
                    // move wins; one of the mover's pairs is as good as any.
                    let any = self.first_in_order(f.fill_mine);
                    return Analysis::Decided(true, any, f.needs_mine);
                }
                if g.connects(theirs, ta, tb) {
                    return Analysis::Decided(false, None, f.needs_theirs);
                }
                moves &= empty;
                filled = if node.black_to_move {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                if stage.builds_own_connection(node) {
                    if let Some(won) = self.connected_win(&f, node.black_to_move) {
                        return won;
                    }
                }
                let other =
                    connections::edge_connection(g, theirs, empty, ta, tb, self.connections);
                if let Some(carrier) = other.full {
                    return Analysis::Decided(false, None, carrier | f.needs_theirs);
                }
                moves &= other.must_play;
                if moves.is_empty() {
                    // Every cell left is answered: the threat, or the key of a semi
                    // connection that misses it.
                    let threat = threats.first();
                    let seed = match (threat, other.semi) {
                        (Some(t), _) => Bitboard::single(t),
                        (None, Some((_, carrier))) => carrier,
                        (None, None) => unreachable!("an empty must-play region has a semi"),
                    };
                    let proof = cover(&other, threat, seed, empty);
                    return Analysis::Decided(false, None, proof | f.needs_theirs);
                }
                moves = without_sealed(g, &other, filled, moves).0;
                // A stone on a dead cell is worth a pass, never more than another move.
                let (black, white) = filled;
                let alive = moves.minus(self.dead.find(black, white));
                let alive = match alive.is_empty() {
                    true => Bitboard::single(moves.first().expect("moves is not empty")),
                    false => alive,
                };
                match stage {
                    Stage::Estimate => alive,
                    Stage::Expansion | Stage::Whole => self.superior(&f, node.black_to_move, alive),
                }
            }
            Rules::Misere => {
                // Colour symmetry, as explained above, on the position as it stands.
                let (symmetric, mirror) = self.colour_mirror(mine, theirs);
                let mover_moves_last = empty.count() % 2 == 1;
                if symmetric && mover_moves_last {
                    return Analysis::Decided(false, None, all);
                }
                if let Some(m) = mirror.first().filter(|_| !mover_moves_last) {
                    return Analysis::Decided(true, Some(m), all);
                }
                // Fill-in: captured pairs go to their owner (proof above); the count of empty
                // cells keeps its parity.
                let raw_empty = empty;
                let f = self.fill_in(mine, theirs, empty, node.black_to_move);
                let (mine, theirs, empty, fill_mine) = (f.mine, f.theirs, f.empty, f.fill_mine);
                if g.connects(mine, ma, mb) {
                    return Analysis::Decided(false, None, all);
                }
                if g.connects(theirs, ta, tb) {
                    // Every move of the filled position wins, and so does one on a captured
                    // cell of the mover's (the other cell of its pair is then dead). Should the
                    // filled board be full of the opponent's pairs, the search finds the move.
                    match self.first_in_order(empty | fill_mine) {
                        Some(m) => return Analysis::Decided(true, Some(m), all),
                        None => return Analysis::Moves(raw_empty.minus(own_connecting)),
                    }
                }
                filled = if node.black_to_move {
                    (mine, theirs)
                } else {
                    (theirs, mine)
                };
                let own_connecting = g.winning_cells(mine, empty, ma, mb);
                let safe = empty.minus(own_connecting);
                if safe.is_empty() {
                    return Analysis::Decided(false, None, all);
                }
                // The parity of forbidden cells, as explained above.
                if mover_moves_last && !own_connecting.is_empty() {
                    return Analysis::Decided(false, None, all);
                }
                if !mover_moves_last {
                    let forbidden = g.winning_cells(theirs, empty, ta, tb);
                    if !forbidden.is_empty() {
                        if let Some(m) = self.first_in_order(safe.minus(forbidden)) {
                            return Analysis::Decided(true, Some(m), all);
                        }
                    }
                }
                // Pairing strategies, as explained above: a full pairing loses for its owner.
                let own = connections::edge_connection(g, mine, empty, ma, mb, Proves::Pairings);
                if own.full.is_some() || (own.semi.is_some() && mover_moves_last) {
                    return Analysis::Decided(false, None, all);
                }
                // The opponent's losing pairing: its cells, and whether the mover may open one
                // of its pairs when no cell is left outside (a full pairing) or not (a semi one).
                let other =
                    connections::edge_connection(g, theirs, empty, ta, tb, Proves::Pairings);
                let pairing = match (other.full, other.semi) {
                    (Some(carrier), _) => Some((carrier, true)),
                    (None, Some((_, carrier))) if !mover_moves_last => Some((carrier, false)),
                    _ => None,
                };
                if let Some((cells, inside_too)) = pairing {
                    let reply = self
                        .first_in_order(safe.minus(cells))
                        .or_else(|| self.first_in_order(safe).filter(|_| inside_too));
                    if let Some(m) = reply {
                        return Analysis::Decided(true, Some(m), all);
                    }
                }
                // Losing moves: the key of a semi pairing of the mover's makes it full, and a
                // move that makes the position colour-symmetric leaves the opponent a win.
                let losing = own.keys | mirror;
                let moves = safe.minus(losing);
                // A stone on a dead cell is as good as the best move (proof above), so if it
                // loses, every move loses.
                let (black, white) = filled;
                match self.first_in_order(safe & self.dead.find(black, white)) {
                    Some(d) if losing.has(d) => return Analysis::Decided(false, None, all),
                    Some(d) => Bitboard::single(d),
                    None if moves.is_empty() => return Analysis::Decided(false, None, all),
                    None => {
                        self.dead
                            .misere_superior(mine, theirs, empty, node.black_to_move, moves)
                    }
                }
            }
        };
        let (black, white) = filled;
        if moves.count() > 1 && g.rotate(black) == black && g.rotate(white) == white {
            moves &= self.lower_half();
        }
        Analysis::Moves(moves)
    }

    /// Normal play: the win that the mover's own connection between their edges gives, in a
    /// position after fill-in `f`: a full connection wins whatever the mover plays, a semi one
    /// by its key. Its proof set is the connection's carrier and what the mover's fill-in needs.
    fn connected_win(&self, f: &Filled, black_to_move: bool) -> Option<Analysis> {
        let (ma, mb, _, _) = self.edges(black_to_move);
        let own = connections::edge_connection(self.g, f.mine, f.empty, ma, mb, self.connections);
        if let Some(carrier) = own.full {
            // Connected whatever the opponent does: any move keeps it so.
            let any = self
                .first_in_order(carrier)
                .or(self.first_in_order(f.empty));
            return Some(Analysis::Decided(true, any, carrier | f.needs_mine));
        }
        own.semi
            .map(|(key, carrier)| Analysis::Decided(true, Some(key), carrier | f.needs_mine))
    }

    /// Normal play: the moves `alive` of a position after fill-in `f` (none of them dead)
    /// without the reversible and dominated ones ([`DeadCells::superior`]), unless the position
    /// is its own rotation: its search keeps one move of each rotated pair, which could be a
    /// pruned move's dominator.
    fn superior(&self, f: &Filled, black_to_move: bool, alive: Bitboard) -> Bitboard {
        let g = self.g;
        if g.rotate(f.mine) == f.mine && g.rotate(f.theirs) == f.theirs {
            return alive;
        }
        self.dead
            .superior(f.mine, f.theirs, f.empty, black_to_move, alive)
    }

    /// Normal play: a proof set of the opponent's win in `node`, whose mover loses, given the
    /// moves its analysis left (`moves`) and `seed`: the proof sets of some refuted moves and
    /// one refuted move, such that every move of `moves` is refuted by one of those sets or
    /// ruled out by one (see below).
    ///
    /// **Proof sets.** A proof set of a position won by player W against L is a set P of its
    /// empty cells such that W still wins, with the same side to move, once every empty cell
    /// outside P is given to L; write S|P for that position. Every empty cell is a (trivial)
    /// proof set, and a superset of a proof set is one.
    ///
    /// *Monotonicity.* Say S ≤ S′ for W when both have the same side to move and S′ comes from
    /// S by changing cells of L's to empty or W's, and empty cells to W's. *If W wins S, W wins
    /// S′.* By induction on the empty cells of S′. If W is connected in S, so in S′. Otherwise
    /// L is not connected in S (W wins it), nor in S′ (fewer stones of L's); if W is connected
    /// in S′ we are done, and otherwise S′ has an empty cell (a full board has a connection).
    /// W to move: a winning move z of S is empty or W's in S′; W plays z, or any empty cell if
    /// z is W's already, and the position reached is ≥ S + z. L to move: each move w of S′ is
    /// empty or L's in S; S + w ≤ S′ + w, and if w is L's in S, S + u ≤ S′ + w for any empty
    /// cell u of S (S is not full, as nobody is connected), which L's move u loses.
    ///
    /// *Sets of wins.* If W wins S by move m, and P′ is a proof set of S + m, then P′ ∪ {m} is
    /// one of S: S|P played at m is (S + m)|P′. A connection of W's between W's edges has its
    /// carrier (key included for a semi connection, W to move) as proof set; a cell where W's
    /// stone connects at once, W to move, has that cell; and when L is to move and W has two
    /// such cells, the two of them are one.
    ///
    /// *Refutation (the rule).* Let L be to move in S, let the move x lose, and let P be a proof
    /// set of W's win in S + x. Then every move y of L's outside P ∪ {x} loses too: S + y ≥
    /// (S + x)|P, as the two differ only at x (L's in the second, empty in the first), at y
    /// (L's in both) and outside P (L's in the second). L's stone on y is outside everything W
    /// needs, and L's stone on x only helped L. So a node's moves shrink to P ∪ {x} as each is
    /// refuted, and the unions of these sets over refuted moves are all that stays to search.
    ///
    /// *Sets of losses.* With L to move in S, let P hold the proof sets of some losing moves
    /// x, and one of those moves, and let every move of L's in P lose in S|P. Then P is a
    /// proof set (S|P has a move, and L is not connected there, as S|P + x is lost). A move
    /// x whose set P_x ⊆ P loses in S|P by monotonicity (S|P + x ≥ (S + x)|P_x), and a move
    /// ruled out by such an x as well (as in the rule); and W wins S|P with W to move too
    /// (S|P with W to move is ≥ S|P + x). The moves the analysis left out are the rest:
    /// - *Fill-in.* Let F be S after fill-in, and let P hold the cells given to W, and the
    ///   empty neighbours of W's permanently inferior cells. Then S|P and F|P have the same
    ///   value: replay the fill-in from S|P, step by step; each position differs from the
    ///   one of the original at the same step only by stones of L's on cells outside P. W's
    ///   captured pairs stay captured (they are in P, and a dead cell stays dead when more
    ///   cells are fixed), W's permanently inferior cells keep their three empty neighbours
    ///   (in P) and the rest of their pattern (stones, and more of L's only settle a side);
    ///   L's cells, if not L's already, stay fillable after more stones of L's (shown in
    ///   the inferior-cell modules for the player's own moves). So F|P is what remains.
    ///   And a move x of F|P that loses in S|P loses in F|P: add W's filled cells (more of
    ///   W's stones), then L's, step by step, each valid after the extra stones of L's on x
    ///   and outside P as just said. So only the moves of F|P need answers.
    /// - *Threat.* If W has one cell t that connects them, L's moves other than t lose in
    ///   S|P once t is in P.
    /// - *Must-play region.* A move y outside the region of W's semi connections (in F)
    ///   misses the carrier C of one of them, with its key; with C in P, W takes the key in
    ///   F|P + y and is connected ([`cover`] adds the smallest such C for each y in P).
    /// - *Sealed set* (the `sealed` module). When the analysis leaves out W's sealed set Z,
    ///   Z is in P whole. L's stones outside Z keep W's carrier and the seal, so F|P and F|P
    ///   with Z given to W have the same winner, and a move of L's outside Z wins in one
    ///   exactly when in the other: L loses F|P once every move outside Z loses, and the
    ///   moves of Z need no answer. (The rules below are read without Z and still hold: a
    ///   reversible cell of F|P is reversible with Z given to W, dead cells staying dead with
    ///   more of W's stones; so were a reversible move x to win F|P, it would win with Z
    ///   given to W, where the theorem gives a winning move that is not reversible there,
    ///   hence not in F|P, and outside Z.) Z is left out, here as in the analysis, unless it
    ///   holds every candidate or the position is its own rotation.
    /// - *Dead cells.* A dead cell of F is dead in F|P, so L's stone there is worth W's
    ///   stone there, which is ≥ F|P + x for a losing move x of P: no cell needed.
    /// - *Dominated and reversible cells* ([`DeadCells::superior`]). The theorem there holds
    ///   in F|P as long as its witnesses are there: a dominated cell needs its dominator,
    ///   which is a move of F|P (losing, by induction along the chain of dominators, which
    ///   ends at a kept or left-out move) or, outside P, L's stone, which leaves the
    ///   dominated cell dead or in a captured pair of L's: L's stone there is then worth no
    ///   more than a pass (the pair filled for L), and W wins F|P with W to move. A
    ///   reversible cell needs its answer and the opponent's captured pairs around it, all
    ///   within two steps of it, and every move of F|P that is not reversible loses, so it
    ///   does too. The empty cells within two steps of each such cell in P are added.
    /// - *Rotation.* A position that is its own 180° rotation searches half its moves: its
    ///   proof set is every empty cell.
    ///
    /// The additions bring new cells into P, so they repeat until nothing changes.
    ///
    /// *Misère play.* The order ≤ does not hold there: a stone of one's own can hurt, and a
    /// cell given to a player changes the parity of the cells left, which decides many
    /// misère positions. So misère proof sets are all the trivial one, and the rule never
    /// prunes a move there.
    fn loss_proof(&self, node: Node, moves: Bitboard, seed: Bitboard) -> Bitboard {
        let g = self.g;
        let all = g.board.minus(node.black | node.white);
        let (mine, theirs) = node.sides();
        let (_, _, ta, tb) = self.edges(node.black_to_move);
        // At most one: two decide the analysis.
        let threats = g.winning_cells(theirs, all, ta, tb);
        let threat = threats.first();
        let f = self.fill_in(mine, theirs, all, node.black_to_move);
        let (black, white) = match node.black_to_move {
            true => (f.mine, f.theirs),
            false => (f.theirs, f.mine),
        };
        if g.rotate(black) == black && g.rotate(white) == white {
            return all;
        }
        // The sealed set the analysis left out is kept whole (see `sealed`): its carrier and
        // seal must stand in the position with the cells outside the proof set given away.
        let (other, candidates, sealed) = self.candidates(&f, threats, node.black_to_move);
        let left_out = f.empty.minus(candidates).minus(sealed);
        let inferior = candidates.minus(moves).minus(self.dead.find(black, white));
        let near = |set: Bitboard| set | g.neighbours(set);
        let mut proof = seed | f.needs_theirs | sealed;
        loop {
            let before = proof;
            proof = cover(&other, threat, proof, left_out);
            for y in (proof & inferior).cells() {
                proof |= near(near(Bitboard::single(y))) & f.empty;
            }
            if proof == before {
                return proof;
            }
        }
    }

    /// Normal play: the opponent's connections in the position after fill-in `f` (Black to
    /// move if `black_to_move`), and the mover's candidate moves there as the analysis finds
    /// them before its inferior-cell rules: the opponent's one connecting cell if `threats`
    /// holds one, else every empty cell, within the must-play region and without the
    /// opponent's sealed set; and that set, whole, when the candidates leave some of it out
    /// (empty otherwise).
    fn candidates(
        &self,
        f: &Filled,
        threats: Bitboard,
        black_to_move: bool,
    ) -> (EdgeConnection, Bitboard, Bitboard) {
        let g = self.g;
        let (_, _, ta, tb) = self.edges(black_to_move);
        let other = connections::edge_connection(g, f.theirs, f.empty, ta, tb, self.connections);
        let candidates = match threats.is_empty() {
            true => f.empty,
            false => threats & f.empty,
        } & other.must_play;
        let filled = match black_to_move {
            true => (f.mine, f.theirs),
            false => (f.theirs, f.mine),
        };
        let (candidates, sealed) = without_sealed(g, &other, filled, candidates);
        (other, candidates, sealed)
    }

    /// Colour symmetry of a position, the mover's stones `mine` and the opponent's `theirs`:
    /// whether a reflection that swaps the players' edges (in the long diagonal, alone or
    /// followed by the 180° rotation) maps each player's stones onto the other's, and the
    /// mover's moves after which one does.
    fn colour_mirror(&self, mine: Bitboard, theirs: Bitboard) -> (bool, Bitboard) {
        let g = self.g;
        let (mut symmetric, mut mirror) = (false, Bitboard::EMPTY);
        let once = g.transpose(mine);
        for reflected in [once, g.rotate(once)] {
            symmetric |= reflected == theirs;
            // After the mover's stone on c, the reflection of the mover's stones is this one
            // plus c's image: the opponent's stones must hold exactly one cell more.
            let rest = theirs.minus(reflected);
            if reflected & theirs == reflected && rest.count() == 1 {
                let image = g.transpose(rest);
                let c = if reflected == once {
                    image
                } else {
                    g.rotate(image)
                };
                mirror |= c.minus(mine | theirs);
            }
        }
        (symmetric, mirror)
    }

    /// The dead-cell rules this search prunes with, for the inspection's display.
    pub(super) fn dead_cells(&self) -> &DeadCells {
        &self.dead
    }

    /// Fill-in (see [`Search::analyse`]): each player's captured pairs given to that player,
    /// and in normal play their permanently inferior cells too, round after round while the
    /// new stones make more.
    pub(super) fn fill_in(
        &self,
        mut mine: Bitboard,
        mut theirs: Bitboard,
        mut empty: Bitboard,
        black_to_move: bool,
    ) -> Filled {
        let before = empty;
        let (mut fill_mine, mut fill_theirs) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let (mut inferior_mine, mut inferior_theirs) = (Bitboard::EMPTY, Bitboard::EMPTY);
        loop {
            let fm = self.dead.captured(mine, theirs, empty, black_to_move);
            let ft = self
                .dead
                .captured(theirs, mine | fm, empty.minus(fm), !black_to_move);
            (mine, theirs, empty) = (mine | fm, theirs | ft, empty.minus(fm | ft));
            let (mut pm, mut pt) = (Bitboard::EMPTY, Bitboard::EMPTY);
            if self.rules == Rules::Normal {
                pm = self
                    .dead
                    .permanently_inferior(mine, theirs, empty, black_to_move);
                pt = self.dead.permanently_inferior(
                    theirs,
                    mine | pm,
                    empty.minus(pm),
                    !black_to_move,
                );
                (mine, theirs, empty) = (mine | pm, theirs | pt, empty.minus(pm | pt));
            }
            fill_mine |= fm | pm;
            fill_theirs |= ft | pt;
            (inferior_mine, inferior_theirs) = (inferior_mine | pm, inferior_theirs | pt);
            if (fm | ft | pm | pt).is_empty() {
                // A permanently inferior cell's pattern needs its three empty neighbours.
                let g = self.g;
                return Filled {
                    mine,
                    theirs,
                    empty,
                    fill_mine,
                    fill_theirs,
                    permanent: [inferior_mine, inferior_theirs],
                    needs_mine: fill_mine | (g.neighbours(inferior_mine) & before),
                    needs_theirs: fill_theirs | (g.neighbours(inferior_theirs) & before),
                };
            }
        }
    }

    /// The moves of an open position that [`Search::analyse`] keeps, with both moves of each
    /// pair it keeps one of because the position after fill-in is its own 180° rotation (the
    /// two lead to rotated positions of equal value); `None` when the analysis decides.
    pub fn kept_moves(&self, node: Node) -> Option<Bitboard> {
        let Analysis::Moves(moves) = self.analyse(node) else {
            return None;
        };
        let g = self.g;
        let empty = g.board.minus(node.black | node.white);
        let (mine, theirs) = node.sides();
        let Filled { mine, theirs, .. } = self.fill_in(mine, theirs, empty, node.black_to_move);
        let symmetric = g.rotate(mine) == mine && g.rotate(theirs) == theirs;
        Some(match symmetric {
            true => moves | g.rotate(moves),
            false => moves,
        })
    }

    /// [`Search::analysis`] of a child's estimate or of an expansion (`stage`), remembering the
    /// moves of open positions in the shared cache. An estimate's moves, when the position is
    /// expanded, need only the pruning the estimate left out.
    #[inline]
    fn analyse_cached(&self, node: Node, stage: Stage) -> Analysis {
        debug_assert!(
            stage != Stage::Whole,
            "the search's analyses leave the own connection out"
        );
        // Misère analyses leave nothing out.
        let pruned = stage == Stage::Expansion || self.rules == Rules::Misere;
        let tag = moves_cache::tag(self.g.n, self.rules == Rules::Misere, node.black_to_move);
        let analysis = match self.caches.get(node.black, node.white, tag) {
            Some((moves, done)) if done || !pruned => return Analysis::Moves(moves),
            Some((moves, _)) => {
                // An estimate's moves, pruned as the estimate left out.
                let (mine, theirs) = node.sides();
                let empty = self.g.board.minus(node.black | node.white);
                let f = self.fill_in(mine, theirs, empty, node.black_to_move);
                if stage.builds_own_connection(node) {
                    if let Some(won) = self.connected_win(&f, node.black_to_move) {
                        return won;
                    }
                }
                Analysis::Moves(self.superior(&f, node.black_to_move, moves))
            }
            None => self.analysis(node, stage),
        };
        if let Analysis::Moves(moves) = analysis {
            self.caches.put(node.black, node.white, tag, moves, pruned);
        }
        analysis
    }

    /// Cells i with i ≤ n² − 1 − i: one of each pair {i, rotation of i}.
    #[inline(always)]
    fn lower_half(&self) -> Bitboard {
        let cells = self.g.n * self.g.n;
        Bitboard((1u128 << cells.div_ceil(2)) - 1)
    }

    #[inline(always)]
    fn first_in_order(&self, set: Bitboard) -> Option<usize> {
        if set.is_empty() {
            return None;
        }
        self.order.iter().map(|&c| c as usize).find(|&c| set.has(c))
    }

    /// The moves of `set` in search order.
    #[inline]
    pub fn ordered(&self, set: Bitboard) -> impl Iterator<Item = usize> + '_ {
        self.order
            .iter()
            .map(|&c| c as usize)
            .filter(move |&c| set.has(c))
    }

    /// The key under which a node is stored: the lesser of the node and its 180° rotation, so
    /// both share an entry, with the board size in the bits above the last cell (bit 121 on),
    /// since one table serves several board sizes and a bit pattern means different positions
    /// on different boards, and the side to move above that, since set-up positions may have
    /// any stone counts and the same stones with the other side to move are another position.
    #[inline(always)]
    pub fn key(&self, node: Node) -> (Bitboard, Bitboard) {
        let rb = self.g.rotate(node.black);
        let rw = self.g.rotate(node.white);
        let (b, w) = if (rb, rw) < (node.black, node.white) {
            (rb, rw)
        } else {
            (node.black, node.white)
        };
        (Bitboard(b.0 | key_bits(self.g.n, node.black_to_move)), w)
    }

    /// Whether the side to move wins `node` (whose game is not over), if the table, the proofs
    /// or the analysis tell it without a search.
    pub fn known(&self, node: Node) -> Option<bool> {
        let (kb, kw) = self.key(node);
        match self.probe(kb, kw) {
            Some(TtData::Solved { win, .. }) => Some(win),
            _ => match self.analyse(node) {
                Analysis::Decided(win, _, _) => Some(win),
                Analysis::Moves(_) => None,
            },
        }
    }

    /// Sequential search: whether the side to move wins `node` (whose game is not over).
    pub fn search(&self, node: Node, nodes: &mut u64) -> bool {
        self.search_until(node, nodes)
            .expect("an unbounded proof-number search with no stop flag ends solved")
    }

    /// Like [`Search::search`], but `None` if a stop flag ([`Search::stopping_on`],
    /// [`Search::halting_on`]) was set before the value was found. The search then leaves its open estimates in the table, so
    /// that a search started again goes on from them.
    pub fn search_until(&self, node: Node, nodes: &mut u64) -> Option<bool> {
        let (kb, kw) = self.key(node);
        if let Some(TtData::Solved { win, .. }) = self.probe(kb, kw) {
            return Some(win);
        }
        let before = *nodes;
        let result = self.dfpn(node, INF, INF, nodes);
        // `expand` reports whole steps of LIVE_STEP as it goes; the rest is reported here, so
        // that the live count is exact once a search returns (a 500-node solve counts 500).
        // When `nodes` runs on from an earlier search (a helper's does), that search reported
        // its part of the step this one completes, so the rest may be below zero: the atomic
        // addition wraps, and a wrapped difference subtracts it.
        if let Some(live) = self.live {
            let steps = *nodes / LIVE_STEP - before / LIVE_STEP;
            let rest = (*nodes - before).wrapping_sub(steps * LIVE_STEP);
            live.fetch_add(rest, Ordering::Relaxed);
        }
        match result {
            (0, _, _) => Some(true),
            (_, 0, _) => Some(false),
            _ => None,
        }
    }

    /// A full search of `node` (whose game is not over): whether its side to move wins, and
    /// the proof set the search found for the win.
    #[cfg(test)]
    fn proven(&self, node: Node) -> (bool, Bitboard) {
        let (pn, _, proof) = self.dfpn(node, INF, INF, &mut 0);
        (pn == 0, proof)
    }

    /// The table's entry for a node, as (proof, disproof) numbers for its side to move:
    /// (0, ∞) a proven win, (∞, 0) a proven loss.
    #[inline(always)]
    pub fn lookup(&self, kb: Bitboard, kw: Bitboard) -> Option<(u64, u64)> {
        self.probe(kb, kw).map(numbers)
    }

    /// A child's numbers from the table, with the proof set kept for it when it is solved.
    #[inline(always)]
    fn seen(&self, child: Node) -> Option<(u64, u64, Bitboard)> {
        self.seen_at(child, self.key(child))
    }

    /// [`Search::seen`] for a child whose table key, `key`, is known.
    #[inline(always)]
    fn seen_at(&self, child: Node, key: (Bitboard, Bitboard)) -> Option<(u64, u64, Bitboard)> {
        let (data, held) = self.probe_held(key.0, key.1)?;
        let (pn, dn) = numbers(data);
        let proof = match data {
            TtData::Solved { .. } => self.own_set(child, key, held),
            TtData::Open { .. } => Bitboard::EMPTY,
        };
        Some((pn, dn, proof))
    }

    /// A child's numbers from the table or, when it is not there, from its estimate (the cheap
    /// analysis, see [`Search::analysis`]), stored in the table so that a re-expansion of the
    /// parent (df-pn comes back to a node many times) does not analyse it again.
    fn estimate(&self, child: Node) -> (u64, u64, Bitboard) {
        // Looked up again: another worker may have stored the child since the parent looked.
        let key = self.key(child);
        if let Some(numbers) = self.seen_at(child, key) {
            return numbers;
        }
        match self.analyse_cached(child, Stage::Estimate) {
            Analysis::Decided(win, best, proof) => {
                self.store_proven(child, key, decided(win, best), proof);
                if win {
                    (0, INF, proof)
                } else {
                    (INF, 0, proof)
                }
            }
            Analysis::Moves(m) => {
                let open = TtData::Open {
                    pn: 1,
                    dn: m.count(),
                    work: 0,
                };
                self.tt.store(key.0, key.1, open);
                (1, u64::from(m.count()), Bitboard::EMPTY)
            }
        }
    }

    /// The moves `moves` of `node` in the order its children are tried, and their count: in
    /// normal play by their [`resistance`] scores, highest first (ties in search order), which
    /// with the progressive widening of [`Search::expand`] took 7x7 after a3, a4 and b2 and
    /// 8x8 after d5 and the empty 8x8 board 27.9 s of CPU on one thread instead of 45.0 s
    /// (search order and every child estimated); in search order the widening went astray
    /// (7x7 after b2 with a window of a quarter: 80,286 nodes against 6,747); in misère play in
    /// search order.
    fn move_order(&self, node: Node, moves: Bitboard) -> ([u8; 128], usize) {
        let mut order = [0u8; 128];
        let mut count = 0;
        for c in self.ordered(moves) {
            order[count] = c as u8;
            count += 1;
        }
        if self.rules == Rules::Normal && count > 1 {
            let scores = resistance::scores(self.g, node.black, node.white);
            order[..count].sort_by(|&x, &y| scores[y as usize].total_cmp(&scores[x as usize]));
        }
        (order, count)
    }

    /// Depth-first proof-number search (df-pn) with the 1 + ε threshold trick.
    ///
    /// Returns the proof and disproof numbers of `node` for its side to move once one of them
    /// reaches its threshold; with infinite thresholds it returns only when the node is solved.
    /// Proven values come only from proven children, so they are exact whatever the numbers
    /// (which only steer the search). Positions of Hex never repeat, so the table is a cache of
    /// a directed acyclic graph and no cycle handling is needed. A solved node comes with a
    /// proof set of its win (see [`Search::loss_proof`]), and an open one with no cell.
    ///
    /// A child's first estimate comes from the cheap analysis: its side to move needs one move
    /// to win and must see all its candidate moves refuted to lose, so moves that leave the
    /// opponent few replies are tried first (among those in the window, see
    /// [`Search::expand`]).
    fn dfpn(&self, node: Node, th_pn: u64, th_dn: u64, nodes: &mut u64) -> (u64, u64, Bitboard) {
        let key = self.key(node);
        let Some((paths, worker)) = self.shared else {
            return self.expand(node, key, th_pn, th_dn, nodes);
        };
        let depth = (node.black | node.white).count() as usize;
        paths.enter(worker, depth, Paths::hash(key.0, key.1));
        let numbers = self.expand(node, key, th_pn, th_dn, nodes);
        paths.leave(worker, depth);
        numbers
    }

    /// The body of [`Search::dfpn`] for a node whose table key is `(kb, kw)`.
    ///
    /// Proof sets (normal play, see [`Search::loss_proof`]): once a move x is refuted with
    /// proof set P, every move outside P ∪ {x} is refuted too, and is not searched.
    ///
    /// Progressive widening (normal play): the children are taken in [`Search::move_order`],
    /// and only the first ones not yet refuted (the window, see [`WIDEN_BASE`]) are estimated and compete
    /// to be searched; the node's proof number is the least disproof number among them. The
    /// others keep a proof number of 1 in the node's disproof number, and enter the window as
    /// the children before them are refuted. The estimates were nine tenths of the time of a
    /// search that made them all (8x8 after d5, one thread: 124,359 estimates for 23,368
    /// nodes, most never searched); with the window, 72,225 for 35,227 nodes. The values stay
    /// exact: a node is won only by a child proven lost, and lost only when every child,
    /// estimated or not, is refuted.
    #[inline(always)]
    fn expand(
        &self,
        node: Node,
        (kb, kw): (Bitboard, Bitboard),
        th_pn: u64,
        th_dn: u64,
        nodes: &mut u64,
    ) -> (u64, u64, Bitboard) {
        *nodes += 1;
        if *nodes % LIVE_STEP == 0 {
            if let Some(live) = self.live {
                live.fetch_add(LIVE_STEP, Ordering::Relaxed);
            }
        }
        let moves = match self.analyse_cached(node, Stage::Expansion) {
            Analysis::Moves(m) => m,
            Analysis::Decided(win, best, proof) => {
                // Decided at its expansion (a root, or a child the table has lost): kept, so
                // that the next visit finds it without an analysis.
                self.store_proven(node, (kb, kw), decided(win, best), proof);
                return if win {
                    (0, INF, proof)
                } else {
                    (INF, 0, proof)
                };
            }
        };
        let start = *nodes;
        // Children: (cell, proof, disproof) for the child's side to move, and the proof set of
        // a solved child.
        let mut kids = [(0u8, 0u64, 0u64); 128];
        let mut proofs = [Bitboard::EMPTY; 128];
        let mut len = 0;
        // The moves no refuted sibling's proof set has ruled out: within P ∪ {x} for each
        // refuted move x with proof set P.
        let mut open = moves;
        // Every child's numbers as the table has them; a child not in the table is unseen
        // (proof number 1, no disproof number yet) until it enters the window below.
        let mut unseen = Bitboard::EMPTY;
        let (order, count) = self.move_order(node, moves);
        for &cell in &order[..count] {
            let cell = cell as usize;
            let (cpn, cdn, proof) = self.seen(node.play(cell)).unwrap_or_else(|| {
                unseen = unseen.with(cell);
                (1, INF, Bitboard::EMPTY)
            });
            if cdn == 0 {
                return self.won(node, (kb, kw), cell, proof, 1);
            }
            if cpn == 0 {
                open &= proof.with(cell);
            }
            kids[len] = (cell as u8, cpn, cdn);
            proofs[len] = proof;
            len += 1;
        }
        let kids = &mut kids[..len];
        let child_depth = (node.black | node.white).count() as usize + 1;
        loop {
            // Progressive widening: the node's proof number is the least disproof number of the
            // first WIDEN_BASE + 1/WIDEN_SHARE of its children not yet refuted, in move order,
            // and only those are estimated; the others wait, each counted as a proof number of
            // 1 in the node's disproof number, until enough siblings before them are refuted.
            let live = kids
                .iter()
                .filter(|k| k.1 != 0 && open.has(k.0 as usize))
                .count();
            // Misère play keeps every child in the window: there the widening, in search
            // order, took 6x6 after b2 356,727 nodes instead of 140,765 (43.2 s against 17.3 s).
            let mut window = match self.rules {
                Rules::Normal => WIDEN_BASE + live.div_ceil(WIDEN_SHARE),
                Rules::Misere => usize::MAX,
            };
            for i in 0..kids.len() {
                let (cell, cpn, _) = kids[i];
                if window == 0 {
                    break;
                }
                if cpn == 0 || !open.has(cell as usize) {
                    continue;
                }
                if unseen.has(cell as usize) {
                    unseen = unseen.minus(Bitboard::single(cell as usize));
                    let (cpn, cdn, proof) = self.estimate(node.play(cell as usize));
                    if cdn == 0 {
                        return self.won(node, (kb, kw), cell as usize, proof, 1);
                    }
                    kids[i] = (cell, cpn, cdn);
                    proofs[i] = proof;
                    if cpn == 0 {
                        open &= proof.with(cell as usize);
                        continue;
                    }
                }
                window -= 1;
            }
            // pn = min over the estimated children of their disproof; dn = sum of their proof
            // numbers. The child to search is the one with the least disproof number, where a
            // child another worker is in counts as harder (its virtual number): unless that
            // makes every child look past the threshold, when the worker follows the other into
            // the best child rather than leave a node it can still make progress in. A child a
            // sibling's proof set rules out counts as refuted.
            let (mut least, mut least_virtual, mut dn) = (Least::NONE, Least::NONE, 0u64);
            for (i, kid) in kids.iter_mut().enumerate() {
                if !open.has(kid.0 as usize) && kid.1 != 0 {
                    continue;
                }
                if unseen.has(kid.0 as usize) {
                    dn = (dn + kid.1).min(INF);
                    continue;
                }
                if let Some((paths, worker)) = self.shared {
                    // Another worker may have moved this child on since it was last read.
                    let child = node.play(kid.0 as usize);
                    let (cb, cw) = self.key(child);
                    if let Some((cpn, cdn, proof)) = self.seen_at(child, (cb, cw)) {
                        // A child refuted before keeps the set it was refuted with: the
                        // siblings that set ruled out need it in the node's loss proof (see
                        // `refutations`), and another worker proving the child again may have
                        // stored another set since.
                        if cpn == 0 && kid.1 != 0 {
                            proofs[i] = proof;
                            open &= proof.with(kid.0 as usize);
                        } else if cdn == 0 {
                            proofs[i] = proof;
                        }
                        (kid.1, kid.2) = (cpn, cdn);
                    }
                    let mut virtual_dn = kid.2;
                    if kid.2 != 0 && paths.busy(worker, child_depth, Paths::hash(cb, cw)) {
                        virtual_dn = busy_number(kid.2);
                    }
                    least_virtual.offer(virtual_dn, i);
                }
                least.offer(kid.2, i);
                dn = (dn + kid.1).min(INF);
            }
            let pn = least.value;
            if pn == 0 {
                let (cell, proof) = (kids[least.index].0 as usize, proofs[least.index]);
                return self.won(node, (kb, kw), cell, proof, *nodes - start);
            }
            if dn == 0 {
                let proof = self.lost(node, moves, kids, &proofs);
                self.store_solved(node, (kb, kw), None, *nodes - start, Some(proof));
                return (INF, 0, proof);
            }
            // Every child in the window refuted, children left that no estimate has reached:
            // another worker refuted the window's last open children after the window was
            // filled (the table read again above). The window moves on to those children
            // first; judged now, the node's proof number would be infinite without a proof,
            // and a root would come back unsolved from a search without a threshold.
            if pn == INF && !(unseen & open).is_empty() {
                continue;
            }
            if pn >= th_pn || dn >= th_dn || self.stopped() {
                self.tt.store(
                    kb,
                    kw,
                    TtData::Open {
                        pn: pn.min(u64::from(MAX_PN)) as u32,
                        dn: dn.min(u64::from(MAX_PN)) as u32,
                        work: work_log(*nodes - start),
                    },
                );
                return (pn, dn, Bitboard::EMPTY);
            }
            let chosen = if self.shared.is_some() && least_virtual.value < th_pn {
                least_virtual
            } else {
                least
            };
            let best = chosen.index;
            let second = chosen.second;
            let (cell, cpn, _) = kids[best];
            let child_th_pn = th_dn - (dn - cpn);
            let child_th_dn = th_pn.min(second.saturating_add(second / 4).saturating_add(1));
            let (npn, ndn, proof) =
                self.dfpn(node.play(cell as usize), child_th_pn, child_th_dn, nodes);
            kids[best].1 = npn;
            kids[best].2 = ndn;
            proofs[best] = proof;
            if npn == 0 {
                open &= proof.with(cell as usize);
            }
        }
    }

    /// A node won by `cell`, whose child has proof set `proof`: stored, and returned as the
    /// numbers of a win with the proof set of the win (the move and the child's set).
    fn won(
        &self,
        node: Node,
        key: (Bitboard, Bitboard),
        cell: usize,
        proof: Bitboard,
        work: u64,
    ) -> (u64, u64, Bitboard) {
        let proof = proof.with(cell);
        self.store_solved(node, key, Some(cell as u8), work, Some(proof));
        (0, INF, proof)
    }

    /// The proof set of a node lost once every child in `kids` is refuted, by search or by a
    /// sibling's proof set; `moves` are the moves its analysis left.
    fn lost(
        &self,
        node: Node,
        moves: Bitboard,
        kids: &[(u8, u64, u64)],
        proofs: &[Bitboard; 128],
    ) -> Bitboard {
        if self.rules == Rules::Misere {
            return self.g.board.minus(node.black | node.white);
        }
        // Read in place, neither copied nor allocated: a lost node is proven often.
        let refuted = kids
            .iter()
            .zip(proofs)
            .filter(|(kid, _)| kid.1 == 0)
            .map(|(kid, &proof)| (usize::from(kid.0), proof));
        self.loss_proof(node, moves, refutations(moves, refuted))
    }

    /// The proof set kept for a proven node, or every empty cell (the trivial one) when none
    /// is kept.
    #[inline]
    pub(super) fn kept_proof(&self, node: Node) -> Bitboard {
        let key = self.key(node);
        let held = self.probe_held(key.0, key.1).and_then(|(_, held)| held);
        self.own_set(node, key, held)
    }

    /// Whether `key`, the key of `node`, is the node's 180° rotation ([`Search::key`]).
    #[inline(always)]
    fn turned(&self, node: Node, (kb, kw): (Bitboard, Bitboard)) -> bool {
        kw != node.white || kb & self.g.board != node.black
    }

    /// A set of cells of `node` in the orientation of its key `key`, or one of the key's back
    /// in the node's (the 180° rotation is its own inverse).
    #[inline(always)]
    fn as_keyed(&self, node: Node, key: (Bitboard, Bitboard), set: Bitboard) -> Bitboard {
        match self.turned(node, key) {
            true => self.g.rotate(set),
            false => set,
        }
    }

    /// A set the table holds for `node` under its key `key` (in the key's orientation) in
    /// the node's own orientation; every empty cell (the trivial proof set) when there is none,
    /// and always in misère play, whose sets are all the trivial one (a table serves one set of
    /// rules, but its keys do not say which).
    #[inline(always)]
    fn own_set(&self, node: Node, key: (Bitboard, Bitboard), held: Option<Bitboard>) -> Bitboard {
        match held {
            Some(set) if self.rules == Rules::Normal => self.as_keyed(node, key, set),
            _ => self.g.board.minus(node.black | node.white),
        }
    }

    /// Stores a proven node under its key `key`, its data `data`, with its proof set `proof`
    /// (in normal play; misère proof sets are all the trivial one, so none is kept), turned
    /// to the key's orientation: the set then lasts as long as the table keeps the entry, for
    /// the next visit of its parent.
    #[inline(always)]
    fn store_proven(&self, node: Node, key: (Bitboard, Bitboard), data: TtData, proof: Bitboard) {
        if self.rules == Rules::Misere {
            self.tt.store(key.0, key.1, data);
            return;
        }
        let set = self.as_keyed(node, key, proof);
        self.tt.store_held(key.0, key.1, data, set);
    }

    /// Stores a node proven by search, `best` its winning move (`None`: a loss), with its
    /// proof set when there is one ([`Search::store_proven`]), and records it as a proof when
    /// proofs are kept, in the key's orientation.
    #[inline(always)]
    fn store_solved(
        &self,
        node: Node,
        (kb, kw): (Bitboard, Bitboard),
        best: Option<u8>,
        work: u64,
        proof: Option<Bitboard>,
    ) {
        let win = best.is_some();
        let data = TtData::Solved {
            win,
            best,
            work: work_log(work),
        };
        match proof {
            Some(proof) => self.store_proven(node, (kb, kw), data, proof),
            None => self.tt.store(kb, kw, data),
        }
        if let Some(log) = self.proofs {
            let black = Bitboard(kb.0 & self.g.board.0);
            let rotated = (black, kw) != (node.black, node.white);
            let last = (self.g.n * self.g.n - 1) as u8;
            let proof = Proof {
                black,
                white: kw,
                black_to_move: node.black_to_move,
                winning_move: best.map(|m| if rotated { last - m } else { m }),
            };
            let mut found = log.found.lock().expect("no search panics holding it");
            if found.sealed {
                // The run is saving its last proofs before it ends: this one could not be
                // saved, so the search stops here, holding it, until the process ends.
                drop(found);
                loop {
                    std::thread::park();
                }
            }
            found.proofs.push(proof);
        }
    }

    /// Stores a node that its analysis decides, as [`Search::store_solved`] stores one proven
    /// by search: the position a solve was given, so that a proofs file holds it even when no
    /// search was needed (kept proofs otherwise leave out the positions the analysis decides,
    /// and the analysis of its 180° rotation, whose capped connection lists are built in
    /// another order, may not decide it). A win with no move named is not stored.
    pub(crate) fn store_decided(&self, node: Node, win: bool, winning_move: Option<usize>) {
        match (win, winning_move) {
            (true, Some(m)) => self.store_solved(node, self.key(node), Some(m as u8), 0, None),
            (false, _) => self.store_solved(node, self.key(node), None, 0, None),
            (true, None) => {}
        }
    }

    /// The winning move that the table (or a kept proof) holds for a node just proven a win,
    /// checked against the entry for the position it leads to, or when there is none (kept
    /// proofs leave out the positions the analysis decides), against that position's analysis.
    /// An entry is shared with the 180° rotation of its position, so its move may be given for
    /// the rotated board: both readings are tried. `None` if the entries needed have been
    /// replaced.
    pub fn proven_move(&self, node: Node) -> Option<usize> {
        let (kb, kw) = self.key(node);
        let Some(TtData::Solved {
            win: true,
            best: Some(best),
            ..
        }) = self.probe(kb, kw)
        else {
            return None;
        };
        let empty = self.g.board.minus(node.black | node.white);
        let last = self.g.n * self.g.n - 1;
        [best as usize, last - best as usize]
            .into_iter()
            .filter(|&m| m <= last && empty.has(m))
            .find(|&m| {
                let child = node.play(m);
                let (cb, cw) = self.key(child);
                match self.probe(cb, cw) {
                    Some(TtData::Solved { win, .. }) => !win,
                    Some(TtData::Open { .. }) => false,
                    None => {
                        let g = self.g;
                        let over = g.connects(child.black, g.north, g.south)
                            || g.connects(child.white, g.west, g.east);
                        !over && matches!(self.analyse(child), Analysis::Decided(false, _, _))
                    }
                }
            })
    }
}

/// Normal play: `proof`, a set of cells for the opponent's win, grown until every cell of it
/// in `left_out` (empty after fill-in, outside the mover's candidates for the opponent's
/// threat `threat` or must-play region, `other`) is answered: by the threat (which goes in),
/// or by the smallest carrier of the opponent's semi connections that misses it, key
/// included (see [`Search::loss_proof`]).
fn cover(
    other: &EdgeConnection,
    threat: Option<usize>,
    mut proof: Bitboard,
    left_out: Bitboard,
) -> Bitboard {
    let missing = |y: usize| {
        other.semi_carriers[..other.semi_count]
            .iter()
            .filter(|c| !c.has(y))
            .min_by_key(|c| c.count())
            .copied()
            .expect("a cell outside the must-play region misses a semi connection's carrier")
    };
    if let Some(t) = threat {
        proof = proof.with(t);
        if left_out.has(t) {
            proof |= missing(t);
        }
        return proof;
    }
    let mut answered = Bitboard::EMPTY;
    while let Some(y) = (proof & left_out).minus(answered).first() {
        answered = answered.with(y);
        proof |= missing(y);
    }
    proof
}

/// Normal play: the mover's candidate moves `moves` (within the must-play region, after
/// fill-in) without the opponent's sealed set (see `sealed`), the opponent's connections being
/// `other` and the stones after fill-in `(black, white)`, and the set itself when it took a
/// candidate away (empty otherwise): the position with that set given to the opponent is
/// worth the same, and a move of the mover's outside it wins in one exactly when it wins in
/// the other. The moves are left as they are when the set holds every candidate (the
/// candidates then say nothing of the filled position's), or when the position is its own
/// 180° rotation (its search keeps one move of each rotated pair, and the set need not be
/// symmetric).
fn without_sealed(
    g: &Geometry,
    other: &EdgeConnection,
    (black, white): (Bitboard, Bitboard),
    moves: Bitboard,
) -> (Bitboard, Bitboard) {
    let symmetric = g.rotate(black) == black && g.rotate(white) == white;
    match other.sealed.map(|z| (moves.minus(z), z)) {
        Some((rest, z)) if !symmetric && rest != moves && !rest.is_empty() => (rest, z),
        _ => (moves, Bitboard::EMPTY),
    }
}

/// A table entry as (proof, disproof) numbers for its side to move ([`Search::lookup`]).
#[inline(always)]
fn numbers(data: TtData) -> (u64, u64) {
    match data {
        TtData::Solved { win: true, .. } => (0, INF),
        TtData::Solved { win: false, .. } => (INF, 0),
        TtData::Open { pn, dn, .. } => (u64::from(pn), u64::from(dn)),
    }
}

/// The table entry of a position its analysis decides.
#[inline(always)]
fn decided(win: bool, best: Option<usize>) -> TtData {
    TtData::Solved {
        win,
        best: best.map(|b| b as u8),
        work: 0,
    }
}

/// The least of some numbers offered one by one with their index, and the second least.
#[derive(Clone, Copy)]
struct Least {
    value: u64,
    second: u64,
    index: usize,
}

impl Least {
    /// Nothing offered yet.
    const NONE: Least = Least {
        value: INF,
        second: INF,
        index: usize::MAX,
    };

    #[inline(always)]
    fn offer(&mut self, v: u64, i: usize) {
        if v < self.value {
            self.second = self.value;
            self.value = v;
            self.index = i;
        } else if v < self.second {
            self.second = v;
        }
    }
}

/// The virtual disproof number of a child another worker is in (see `paths.rs`): enough
/// higher to send a worker to a sibling nearly as good, not enough to matter near the root,
/// where the numbers are large. (Measured on 7x7 after d2 and c2, two threads: adding 8 did a
/// little better than adding 1 or multiplying by 2 or 4, all within the noise.)
#[inline(always)]
fn busy_number(dn: u64) -> u64 {
    (dn + 8).min(INF)
}

/// Where the board size is kept in a table key: above the 121 cells of the largest board.
const SIZE_SHIFT: u32 = 122;

/// Where the side to move is kept in a table key: above the four bits of the board size.
const SIDE_SHIFT: u32 = SIZE_SHIFT + 4;

/// The bits that a table key adds above Black's stones: the board size and the side to move.
#[inline(always)]
pub(crate) const fn key_bits(n: usize, black_to_move: bool) -> u128 {
    (n as u128) << SIZE_SHIFT | (black_to_move as u128) << SIDE_SHIFT
}

/// The seed of a lost node's proof set ([`Search::loss_proof`]): the sets of some of its
/// refuted moves `refuted` (each with the proof set of the opponent's win after it), and one
/// of those moves, so that the position with the cells outside the set given to the mover
/// still has a move. Every move of `moves` in the seed must lose there: a chosen move does,
/// by its own set, and so does a move outside the set of a chosen one (the refutation rule);
/// so the moves in the intersection of the chosen sets must be chosen themselves. Each move of
/// `moves` is refuted or was ruled out by a refuted move's set, so the moves in that
/// intersection can always be covered: from the smallest set, each one left uncovered brings
/// in the set, among its own and those that rule it out, adding the fewest cells. (The union
/// of every refuted move's set is one such seed, and the fallback.)
fn refutations(
    moves: Bitboard,
    refuted: impl Iterator<Item = (usize, Bitboard)> + Clone,
) -> Bitboard {
    let everything = || {
        let first = refuted
            .clone()
            .next()
            .map_or(Bitboard::EMPTY, |(x, _)| Bitboard::single(x));
        refuted.clone().fold(first, |seed, (_, proof)| seed | proof)
    };
    let Some((first, proof)) = refuted.clone().min_by_key(|(_, proof)| proof.count()) else {
        return everything();
    };
    let (mut chosen, mut seed, mut common) = (Bitboard::single(first), proof.with(first), proof);
    while let Some(m) = (moves & common).minus(chosen).first() {
        let cover = refuted
            .clone()
            .filter(|&(x, proof)| x == m || !proof.has(m))
            .min_by_key(|(_, proof)| proof.minus(seed).count());
        let Some((x, proof)) = cover else {
            return everything();
        };
        chosen = chosen.with(x);
        seed |= proof;
        common &= proof;
    }
    seed
}

/// Infinity for proof numbers: far above any sum of stored (capped) numbers.
const INF: u64 = u64::MAX / 4;

/// The stone count below which an expanded position gets the mover's own connection between
/// their edges built ([`Search::analysis`]). Such a position, won by a semi connection whose
/// key is outside the progressive widening's window, is otherwise searched through the
/// window's children first, and near the top of the tree those subtrees are large while the
/// positions, and so the builds, are few. Measured on one thread against none: 7x7 after a3,
/// a4, b2, 8x8 after d5 and the empty 8x8 board 54,282 nodes against 57,645 (below 12 stones,
/// 53,469); 8x8 after c2 e4 64,529 against 179,798, after c2 e6 284,615 against 296,572
/// (below 12: 70,746 and 342,684), after c2 b8 88,277 against 98,455, after c2 e2 68,941
/// against 65,809, after b1 154,564 against 144,220. Two threads, `--considered`: henderson-66
/// 66.6 s against 92.6 s (below 10 stones: 72.4 s), henderson-91 71.4 s against 75.6 s
/// (below 10: 76.7 s). One thread, henderson-66 whole (`--considered`): 710,698 nodes and
/// 111.7 s below 8 stones, 1,054,581 and 160.1 s below 7, 1,058,548 and 165.8 s below 9.
const OWN_CONNECTION_BELOW: u32 = 8;

/// Progressive widening (see [`Search::expand`]): a node's window holds this many of its live
/// children, plus one in [`WIDEN_SHARE`]. Measured on one thread, 7x7 after a3, a4 and b2, 8x8
/// after d5 and the empty 8x8 board, in seconds of CPU: 27.9 in all with 1 and 3, 29.8 with 2
/// and 3, 32.0 with 1 and 2, 35.4 with 0 and 3, 36.8 with 1 and 4, 38.3 with 2 and 4; 45.0 with
/// every child in the window (and estimated). 8x8 after b1, which that set left out, agrees:
/// 223,865 nodes with 1 and 3, 284,616 with 1 and 2, 329,486 with 2 and 3, 507,348 with 1 and 4.
const WIDEN_BASE: usize = 1;
/// See [`WIDEN_BASE`].
const WIDEN_SHARE: usize = 3;

/// log2 of a node count, rounded up: the work measure kept in the table.
#[inline(always)]
fn work_log(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

/// The cells of an n x n board ordered by hexagonal distance from the centre, nearest first
/// (ties by index), the cheap distance measure used for move ordering.
fn centre_first(n: usize) -> Vec<u8> {
    // Doubled coordinates keep the centre integral on even boards.
    let c = n as i64 - 1;
    let dist = |i: usize| {
        let (x, y) = (2 * (i % n) as i64 - c, 2 * (i / n) as i64 - c);
        // Hex distance in axial coordinates (q = x, r = y): (|q| + |r| + |q + r|) / 2.
        (x.abs() + y.abs() + (x + y).abs(), i)
    };
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.sort_by_key(|&i| dist(i));
    cells.into_iter().map(|i| i as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::RetroTable;
    use crate::solver::{colourings, in_play, oracle_move_wins as move_wins};
    use crate::solver::{random_colouring, xorshift, Minimax};

    /// Colour symmetry (misère): in a position that a reflection swapping the players' edges
    /// maps onto itself with the colours swapped, the mover wins exactly when the number of
    /// empty cells is even, and so a move that makes such a position wins exactly when it
    /// leaves an odd number. Checked against the retrograde oracle on every position in play
    /// of 3x3 and 4x4.
    #[test]
    fn colour_symmetry_decides_misere() {
        let (mut symmetric, mut mirrors) = (0, 0);
        for n in [3, 4] {
            let table = RetroTable::compute(n, true).unwrap();
            let tt = TranspositionTable::with_megabytes(1).unwrap();
            let caches = Caches::new(1, tt.max_capacity());
            let search = Search::new(&tt, &caches, Rules::Misere, n);
            for (node, wins) in in_play(&table, n, 1) {
                let (black, white) = (node.black, node.white);
                let (mine, theirs) = node.sides();
                let empty = search.g.board.minus(black | white).count();
                let (is_symmetric, mirror) = search.colour_mirror(mine, theirs);
                if is_symmetric {
                    assert_eq!(wins, empty % 2 == 0, "{n}x{n} {black:?} {white:?}");
                    symmetric += 1;
                }
                for m in mirror.cells() {
                    let context = format!("{n}x{n} {black:?} {white:?} move {m}");
                    assert_eq!(
                        move_wins(&table, Rules::Misere, node, m),
                        empty % 2 == 0,
                        "{context}"
                    );
                    mirrors += 1;
                }
            }
        }
        assert!(
            symmetric > 100 && mirrors > 1_000,
            "{symmetric} symmetric positions, {mirrors} mirror moves"
        );
    }

    /// A proven node's proof set comes back from the table in the node's own orientation,
    /// for the node and for its 180° rotation, which share the entry (so the set is turned
    /// on the way in or out for one of them); a node proven with no set, or in misère play,
    /// comes back with the trivial one, every empty cell.
    #[test]
    fn a_proof_set_comes_back_as_kept_for_both_orientations() {
        let tt = TranspositionTable::with_megabytes(1).unwrap();
        let caches = Caches::new(1, tt.max_capacity());
        let normal = Search::new(&tt, &caches, Rules::Normal, 4);
        let misere = Search::new(&tt, &caches, Rules::Misere, 4);
        let g = normal.g;
        // Black on a1 and b1, White on d4: the rotation puts Black on d4 and c4, and one of
        // the two orientations is the key's turned one.
        let node = Node {
            black: Bitboard::single(0).with(1),
            white: Bitboard::single(15),
            black_to_move: false,
        };
        let turned = Node {
            black: g.rotate(node.black),
            white: g.rotate(node.white),
            black_to_move: false,
        };
        assert_ne!(
            normal.turned(node, normal.key(node)),
            normal.turned(turned, normal.key(turned))
        );
        let proof = Bitboard::single(2).with(4).with(5);
        let proven = decided(true, Some(4));
        for (first, other) in [(node, turned), (turned, node)] {
            normal.store_proven(first, normal.key(first), proven, proof);
            assert_eq!(normal.kept_proof(first), proof);
            assert_eq!(normal.kept_proof(other), g.rotate(proof));
            assert_eq!(normal.seen(other), Some((0, INF, g.rotate(proof))));
        }
        let empty = g.board.minus(node.black | node.white);
        normal.store_decided(node, true, Some(4));
        assert_eq!(normal.kept_proof(node), empty);
        misere.store_proven(node, misere.key(node), proven, proof);
        assert_eq!(misere.kept_proof(node), empty);
    }

    /// The position with these stones, Black to move and White to move.
    fn both_to_move(black: Bitboard, white: Bitboard) -> [Node; 2] {
        [true, false].map(|black_to_move| Node {
            black,
            white,
            black_to_move,
        })
    }

    /// Checks the search's proof sets on one position against exact values: its value is the
    /// true one, the winner still wins with every empty cell outside the set the loser's, and
    /// for each move x the opponent refutes with set P, every move outside P ∪ {x} loses.
    /// Returns whether the set is smaller than every empty cell, and how many moves the
    /// refutations ruled out.
    fn proof_set_check(search: &Search, m: &mut Minimax, node: Node) -> (usize, usize) {
        let g = search.g;
        let over =
            |v: Node| g.connects(v.black, g.north, g.south) || g.connects(v.white, g.west, g.east);
        if over(node) {
            return (0, 0);
        }
        let empty = g.board.minus(node.black | node.white);
        let context = format!("{}x{} {node:?}", g.n, g.n);
        let (win, proof) = search.proven(node);
        assert_eq!(
            win,
            m.wins(node.black, node.white, node.black_to_move),
            "{context}"
        );
        assert_eq!(proof.minus(empty), Bitboard::EMPTY, "{context}");
        let rest = empty.minus(proof);
        let (b, w) = match win != node.black_to_move {
            true => (node.black | rest, node.white),
            false => (node.black, node.white | rest),
        };
        let kept = m.wins(b, w, node.black_to_move);
        assert_eq!(kept, win, "{context}: proof set {proof:?}");
        let mut ruled_out = 0;
        for x in empty.cells() {
            let child = node.play(x);
            if over(child) {
                continue;
            }
            let (refuted, p) = search.proven(child);
            if !refuted {
                continue;
            }
            for y in empty.minus(p.with(x)).cells() {
                let other = node.play(y);
                let loses = m.wins(other.black, other.white, other.black_to_move);
                assert!(loses, "{context}: move {x} refuted with {p:?}, {y} wins");
                ruled_out += 1;
            }
        }
        (usize::from(rest != Bitboard::EMPTY), ruled_out)
    }

    /// Proof sets against exact values (memoised minimax, either side to move), normal play:
    /// the winner of a position still wins once every empty cell outside the proof set the
    /// search gives is the loser's, and for each move x the opponent refutes with proof set
    /// P, every move outside P ∪ {x} loses too, the rule by which the search skips them. On
    /// 4x4 colourings (one in 1999, either side to move) and random 5x5 positions with at most
    /// ten empty cells.
    #[test]
    fn proof_sets_hold_and_rule_out_only_losing_moves() {
        let (mut small, mut ruled_out) = (0, 0);
        let mut m4 = Minimax::new(4);
        let tt = TranspositionTable::with_megabytes(16).unwrap();
        let caches = Caches::new(1, tt.max_capacity());
        let search = Search::new(&tt, &caches, Rules::Normal, 4);
        for (black, white) in colourings(4, 1999) {
            for node in both_to_move(black, white) {
                let (a, b) = proof_set_check(&search, &mut m4, node);
                (small, ruled_out) = (small + a, ruled_out + b);
            }
        }
        let search = Search::new(&tt, &caches, Rules::Normal, 5);
        let mut next = xorshift(0x5EED_0005);
        let mut sampled = 0;
        while sampled < 150 {
            let (black, white) = random_colouring(5, 7, &mut next);
            if search.g.board.minus(black | white).count() > 10 {
                continue;
            }
            let node = Node {
                black,
                white,
                black_to_move: black.count() <= white.count(),
            };
            let (a, b) = proof_set_check(&search, &mut Minimax::new(5), node);
            (small, ruled_out, sampled) = (small + a, ruled_out + b, sampled + 1);
        }
        assert!(
            small > 1_000 && ruled_out > 10_000,
            "{small} sets smaller than every empty cell, {ruled_out} moves ruled out"
        );
    }

    /// The seed of a loss's proof set from some of its refutations, against what
    /// `loss_proof` needs of it, on random sets: it holds one refuted move and that move's
    /// set, and each move in it is refuted by a set inside it, its own or one it lies
    /// outside of (ruled out, in the refutation rule's terms). Each move is refuted or ruled
    /// out by one of the refuted moves' sets, as in the search. Most seeds are smaller than
    /// the union of every refuted move's set.
    #[test]
    fn a_losss_seed_covers_its_moves_with_sets_inside_it() {
        let mut next = xorshift(0x5EED_0F5E);
        let mut smaller = 0;
        for _ in 0..20_000 {
            let cells = 8 + next() % 40;
            let random_set = |next: &mut dyn FnMut() -> u64, share: u64| {
                (0..cells)
                    .filter(|_| next() % 100 < share)
                    .fold(Bitboard::EMPTY, |set, c| set.with(c as usize))
            };
            let moves_share = 10 + next() % 50;
            let moves = random_set(&mut next, moves_share).with(0);
            let share = 30 + next() % 70;
            let mut refuted: Vec<(usize, Bitboard)> = Vec::new();
            for x in moves.cells() {
                if x == 0 || next() % 3 == 0 {
                    let set = random_set(&mut next, share).minus(Bitboard::single(x));
                    refuted.push((x, set));
                }
            }
            for m in moves.cells() {
                let covered = refuted.iter().any(|&(x, p)| x == m || !p.has(m));
                if !covered {
                    let i = (next() % refuted.len() as u64) as usize;
                    refuted[i].1 = refuted[i].1.minus(Bitboard::single(m));
                }
            }
            let seed = refutations(moves, refuted.iter().copied());
            let inside = |&&(_, p): &&(usize, Bitboard)| p.minus(seed).is_empty();
            assert!(
                refuted.iter().filter(inside).any(|&(x, _)| seed.has(x)),
                "{moves:?} {refuted:?}: no refuted move in {seed:?}"
            );
            for m in (moves & seed).cells() {
                assert!(
                    refuted
                        .iter()
                        .filter(inside)
                        .any(|&(x, p)| x == m || !p.has(m)),
                    "{moves:?} {refuted:?}: {m} in {seed:?} is not refuted"
                );
            }
            let union = refuted.iter().fold(Bitboard::EMPTY, |u, &(_, p)| u | p);
            smaller += usize::from(seed.count() < union.with(refuted[0].0).count());
        }
        assert!(smaller > 5_000, "{smaller} seeds smaller than the union");
    }

    /// Positions whose analysis leaves out the opponent's sealed set (see `sealed`), against
    /// exact values (memoised minimax): the search's value is the true one, the proof set of
    /// the win holds (the winner still wins with every empty cell outside it the loser's), and
    /// every move that a refuted move's proof set rules out loses.
    /// On 4x4 colourings (one in 101, either side to move) and random 5x5 positions with at
    /// most eleven empty cells.
    #[test]
    fn sealed_sets_keep_the_value_and_the_proof_set() {
        // Whether the analysis of `node` leaves the opponent's sealed set out, as
        // `Search::analysis` decides it; if so, the position's proof sets are checked.
        fn check(search: &Search, m: &mut Minimax, node: Node) -> bool {
            let g = search.g;
            let (black, white) = (node.black, node.white);
            if g.connects(black, g.north, g.south) || g.connects(white, g.west, g.east) {
                return false;
            }
            let (mine, theirs) = node.sides();
            let empty = g.board.minus(black | white);
            let (_, _, ta, tb) = search.edges(node.black_to_move);
            let threats = g.winning_cells(theirs, empty, ta, tb);
            let f = search.fill_in(mine, theirs, empty, node.black_to_move);
            if threats.count() > 1 || g.connects(f.theirs, ta, tb) {
                return false;
            }
            let (other, _, sealed) = search.candidates(&f, threats, node.black_to_move);
            if other.full.is_some() || sealed.is_empty() {
                return false;
            }
            proof_set_check(search, m, node);
            true
        }
        let tt = TranspositionTable::with_megabytes(16).unwrap();
        let caches = Caches::new(1, tt.max_capacity());
        let mut hits = 0;
        let search = Search::new(&tt, &caches, Rules::Normal, 4);
        let mut m4 = Minimax::new(4);
        for (black, white) in colourings(4, 101) {
            for node in both_to_move(black, white) {
                hits += usize::from(check(&search, &mut m4, node));
            }
        }
        let search = Search::new(&tt, &caches, Rules::Normal, 5);
        let mut m5 = Minimax::new(5);
        let mut next = xorshift(0x5EA1_0DE5);
        let mut sampled = 0;
        while sampled < 300 {
            let (black, white) = random_colouring(5, 5, &mut next);
            if search.g.board.minus(black | white).count() > 11 {
                continue;
            }
            for node in both_to_move(black, white) {
                let hit = check(&search, &mut m5, node);
                (hits, sampled) = (hits + usize::from(hit), sampled + usize::from(hit));
            }
        }
        assert!(hits > 1_000, "{hits} positions leave a sealed set out");
    }

    /// A move on the key of one of the mover's semi pairings loses (misère): checked against
    /// the retrograde oracle on every position in play of 3x3, and of 4x4 one in 10.
    #[test]
    fn a_key_of_the_movers_semi_pairing_loses() {
        let mut checked = 0;
        for (n, step) in [(3, 1), (4, 10)] {
            let table = RetroTable::compute(n, true).unwrap();
            let g = Geometry::of(n);
            for (node, _) in in_play(&table, n, step) {
                let (black, white) = (node.black, node.white);
                let (mine, a, b) = match node.black_to_move {
                    true => (black, g.north, g.south),
                    false => (white, g.west, g.east),
                };
                let empty = g.board.minus(black | white);
                let own = connections::edge_connection(g, mine, empty, a, b, Proves::Pairings);
                for key in own.keys.cells() {
                    assert!(
                        !move_wins(&table, Rules::Misere, node, key),
                        "{n}x{n} black {black:?} white {white:?}: key {key} wins"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1_000, "{checked} keys checked");
    }

    /// A child's estimate ([`Search::analysis`] without the own connection and the pruning)
    /// keeps what the whole analysis concludes, unless the whole one decides a win or prunes
    /// moves (the estimate's moves then hold the whole one's); an expansion's analysis (the
    /// pruning, not the own connection) is the whole one unless that decides a win, and then
    /// holds no move the estimate does not; and the moves cache gives the same, an estimate's
    /// moves made an expansion's by the pruning. Every position in play of 3x3, and of 4x4 one
    /// in 20, checked against the whole analysis, which the test below checks against the
    /// oracle.
    #[test]
    fn an_estimate_is_the_whole_analysis_less_the_own_connection_and_pruning() {
        // A decided value, or the moves of an open position.
        let seen = |a: Analysis| match a {
            Analysis::Decided(win, _, _) => (Some(win), Bitboard::EMPTY),
            Analysis::Moves(moves) => (None, moves),
        };
        let (mut wins_left_out, mut pruned) = (0, 0);
        for (n, step) in [(3, 1), (4, 20)] {
            let table = RetroTable::compute(n, false).unwrap();
            let tt = TranspositionTable::with_megabytes(1).unwrap();
            let caches = Caches::new(1, tt.max_capacity());
            let search = Search::new(&tt, &caches, Rules::Normal, n);
            for (node, _) in in_play(&table, n, step) {
                let context = format!("{n}x{n} {node:?}");
                let whole = seen(search.analysis(node, Stage::Whole));
                let expansion = seen(search.analysis(node, Stage::Expansion));
                let estimate = seen(search.analysis(node, Stage::Estimate));
                if estimate != whole {
                    assert_eq!(estimate.0, None, "{context}");
                    if whole.0.is_some() {
                        assert_eq!(whole.0, Some(true), "{context}");
                        wins_left_out += 1;
                    } else {
                        assert!(whole.1 & estimate.1 == whole.1, "{context}");
                        pruned += 1;
                    }
                }
                if expansion != whole {
                    assert_eq!((whole.0, expansion.0), (Some(true), None), "{context}");
                    assert!(estimate.1 & expansion.1 == expansion.1, "{context}");
                }
                assert_eq!(
                    seen(search.analyse_cached(node, Stage::Estimate)),
                    estimate,
                    "{context}"
                );
                assert_eq!(
                    seen(search.analyse_cached(node, Stage::Expansion)),
                    expansion,
                    "{context}"
                );
            }
        }
        assert!(wins_left_out > 100, "{wins_left_out} wins left out");
        assert!(
            pruned > 20,
            "{pruned} estimates with moves the pruning leaves out"
        );
    }

    /// Every conclusion of the cheap analysis, checked against the retrograde oracle: a decided
    /// value is the true one and its move wins; a reduced move set still holds a winning move
    /// whenever there is one. Every position in play of 3x3, and of 4x4 one in 40.
    #[test]
    fn the_analysis_agrees_with_the_oracle() {
        for rules in [Rules::Normal, Rules::Misere] {
            let (mut decided, mut reduced) = (0, 0);
            for n in [3, 4] {
                let table = RetroTable::compute(n, rules == Rules::Misere).unwrap();
                let tt = TranspositionTable::with_megabytes(1).unwrap();
                let caches = Caches::new(1, tt.max_capacity());
                let search = Search::new(&tt, &caches, rules, n);
                let step = if n == 3 { 1 } else { 40 };
                for (node, wins) in in_play(&table, n, step) {
                    let (black, white) = (node.black.0, node.white.0);
                    let context = format!("{rules:?} {n}x{n} black {black:#x} white {white:#x}");
                    match search.analyse(node) {
                        Analysis::Decided(win, best, _) => {
                            decided += 1;
                            assert_eq!(win, wins, "decided value, {context}");
                            if let Some(m) = best {
                                assert!(move_wins(&table, rules, node, m), "move {m}, {context}");
                            }
                        }
                        Analysis::Moves(moves) => {
                            let empty = search.g.board.minus(node.black | node.white);
                            reduced += u32::from(moves != empty);
                            let best = moves.cells().any(|m| move_wins(&table, rules, node, m));
                            assert_eq!(best, wins, "moves {moves:?}, {context}");
                        }
                    }
                }
            }
            assert!(
                decided > 100 && reduced > 10,
                "{rules:?}: {decided} decided, {reduced} reduced"
            );
        }
    }

    /// The live count is exact after each search, also when the node counter runs on from an
    /// earlier search, as a helper's does: here the first node completes a step of
    /// [`LIVE_STEP`] that the earlier search had already reported in part.
    #[test]
    fn the_live_count_is_exact_when_the_node_counter_runs_on() {
        let tt = TranspositionTable::with_megabytes(1).unwrap();
        let caches = Caches::new(1, tt.max_capacity());
        let live = AtomicU64::new(0);
        let search = Search::new(&tt, &caches, Rules::Normal, 5).reporting_to(&live);
        let mut nodes = 0;
        for (i, start) in [(0, LIVE_STEP - 1), (12, 2 * LIVE_STEP - 2)] {
            nodes = nodes.max(start);
            let before = nodes;
            live.store(0, Ordering::Relaxed);
            let node = Node {
                black: Bitboard::single(i),
                white: Bitboard::EMPTY,
                black_to_move: false,
            };
            search.search(node, &mut nodes);
            assert_eq!(live.load(Ordering::Relaxed), nodes - before, "{node:?}");
        }
    }
}
