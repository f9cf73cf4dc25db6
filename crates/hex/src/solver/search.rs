//! The search itself: a win/loss negamax over positions, with the transposition table, sound
//! pruning, and a parallel top (young-brothers-wait: the first child alone, then the others in
//! parallel) over rayon's work-stealing pool.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::tt::{TranspositionTable, TtData};
use crate::{Bitboard, Geometry};

use super::Rules;

/// A position inside the search: both stone sets and who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub black: Bitboard,
    pub white: Bitboard,
    pub black_to_move: bool,
}

impl Node {
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
    /// The value is known: `true` if the side to move wins, with a winning move when there is one.
    Decided(bool, Option<usize>),
    /// The moves that must be searched (all others are proven no better).
    Moves(Bitboard),
}

/// Shared, read-only state of one solve, plus the node counter.
pub(crate) struct Search<'a> {
    pub tt: &'a TranspositionTable,
    pub rules: Rules,
    pub g: &'static Geometry,
    /// Cells in the order moves are tried: centre first.
    pub order: Vec<u8>,
    /// Nodes at or above this many empty cells are split between threads.
    pub split_empties: u32,
    pub nodes: AtomicU64,
}

impl<'a> Search<'a> {
    pub fn new(tt: &'a TranspositionTable, rules: Rules, n: usize) -> Search<'a> {
        let g = Geometry::of(n);
        Search {
            tt,
            rules,
            g,
            order: centre_first(n),
            split_empties: (n * n).saturating_sub(4).max(1) as u32,
            nodes: AtomicU64::new(0),
        }
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
    /// Misère: a move that completes the mover's own connection loses at once, so it is never
    /// searched; a mover left with only such moves loses.
    ///
    /// In both, when the position is its own 180° rotation, a move and its rotated image lead to
    /// rotated positions of equal value, so only one of each pair is searched.
    #[inline]
    pub fn analyse(&self, node: Node) -> Analysis {
        let g = self.g;
        let empty = g.board.minus(node.black | node.white);
        let (mine, theirs) = if node.black_to_move {
            (node.black, node.white)
        } else {
            (node.white, node.black)
        };
        let (ma, mb, ta, tb) = self.edges(node.black_to_move);
        let own_connecting = g.winning_cells(mine, empty, ma, mb);
        let mut moves = match self.rules {
            Rules::Normal => {
                if let Some(i) = self.first_in_order(own_connecting) {
                    return Analysis::Decided(true, Some(i));
                }
                let threats = g.winning_cells(theirs, empty, ta, tb);
                match threats.count() {
                    0 => empty,
                    1 => threats,
                    _ => return Analysis::Decided(false, None),
                }
            }
            Rules::Misere => {
                let safe = empty.minus(own_connecting);
                if safe.is_empty() {
                    return Analysis::Decided(false, None);
                }
                safe
            }
        };
        if moves.count() > 1 && g.rotate(node.black) == node.black && g.rotate(node.white) == node.white {
            moves = moves & self.lower_half();
        }
        Analysis::Moves(moves)
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
        self.order
            .iter()
            .map(|&c| c as usize)
            .find(|&c| set.has(c))
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
    /// both share an entry. Returns whether it was rotated.
    #[inline(always)]
    fn key(&self, node: Node) -> (Bitboard, Bitboard) {
        let rb = self.g.rotate(node.black);
        let rw = self.g.rotate(node.white);
        if (rb, rw) < (node.black, node.white) {
            (rb, rw)
        } else {
            (node.black, node.white)
        }
    }

    /// Sequential search: whether the side to move wins `node` (whose game is not over).
    pub fn search(&self, node: Node, nodes: &mut u64) -> bool {
        *nodes += 1;
        let moves = match self.analyse(node) {
            Analysis::Decided(win, _) => return win,
            Analysis::Moves(m) => m,
        };
        let (kb, kw) = self.key(node);
        if let Some(d) = self.tt.probe(kb, kw) {
            return d.win;
        }
        let start = *nodes;
        for cell in self.ordered(moves) {
            if !self.search(node.play(cell), nodes) {
                self.remember(kb, kw, true, *nodes - start);
                return true;
            }
        }
        self.remember(kb, kw, false, *nodes - start);
        false
    }

    #[inline(always)]
    fn remember(&self, kb: Bitboard, kw: Bitboard, win: bool, work: u64) {
        self.tt.store(
            kb,
            kw,
            TtData {
                win,
                best: None,
                work: (64 - work.leading_zeros()) as u8,
            },
        );
    }

    /// Parallel search: near the root, the first child is searched alone and the others in
    /// parallel if it did not already win; below the split threshold it is [`Search::search`].
    pub fn par_search(&self, node: Node) -> bool {
        let empties = self.g.board.minus(node.black | node.white).count();
        if empties < self.split_empties || rayon::current_num_threads() == 1 {
            let mut nodes = 0;
            let win = self.search(node, &mut nodes);
            self.nodes.fetch_add(nodes, Ordering::Relaxed);
            return win;
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let moves = match self.analyse(node) {
            Analysis::Decided(win, _) => return win,
            Analysis::Moves(m) => m,
        };
        let (kb, kw) = self.key(node);
        if let Some(d) = self.tt.probe(kb, kw) {
            return d.win;
        }
        let before = self.nodes.load(Ordering::Relaxed);
        let moves: Vec<usize> = self.ordered(moves).collect();
        let win = !self.par_search(node.play(moves[0]))
            || moves[1..]
                .par_iter()
                .any(|&cell| !self.par_search(node.play(cell)));
        let work = self.nodes.load(Ordering::Relaxed).saturating_sub(before);
        self.remember(kb, kw, win, work);
        win
    }
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
