//! Perfect-play lengths: how many plies the game lasts when the winner wins as fast as possible
//! and the loser delays as long as possible.
//!
//! The length of a won position is the least d such that the side to move can force a win
//! within d plies; of a lost position, the least d such that the opponent can. Each bound is
//! decided by a depth-limited search (iterative deepening over d), with a cache of the bounds
//! already known for each position. The exact solver prunes it: a player can only win quickly
//! a position it wins at all, so only value-keeping moves of the winner are followed. In normal
//! play a player also needs at least as many moves as the empty cells on their shortest path to
//! an edge-to-edge connection, which cuts most of the remaining lines.

use std::collections::HashMap;

use crate::solver::Rules;
use crate::{Bitboard, Geometry, HexError, Position};

/// Whether the side to move wins (black stones, white stones, Black to move).
pub(crate) type Value<'a> = &'a dyn Fn(Bitboard, Bitboard, bool) -> bool;

/// The largest board on which lengths are computed: beyond it the depth-limited searches are too
/// long for a solve (on 5x5 they already take minutes per opening).
pub const MAX_LENGTH_SIZE: usize = 5;

/// The largest board on which `hex openings` computes lengths unless asked to.
pub const DEFAULT_LENGTH_SIZE: usize = 4;

/// Entries above which the cache is cleared (about 1.5 GB) to bound memory.
const CACHE_LIMIT: usize = 24_000_000;

/// Bounds known for one position: the side to move wins (resp. loses) within d plies for every
/// d ≥ `*_yes`, and does not for any d ≤ `*_no`.
#[derive(Clone, Copy)]
struct Bounds {
    win_no: u8,
    win_yes: u8,
    lose_no: u8,
    lose_yes: u8,
}

const UNKNOWN: Bounds = Bounds {
    win_no: 0,
    win_yes: u8::MAX,
    lose_no: 0,
    lose_yes: u8::MAX,
};

struct Lengths<'a> {
    g: &'static Geometry,
    value: Value<'a>,
    rules: Rules,
    /// Keyed by the stones alone: the cache lives for one call, in which the side to move
    /// follows from the root's side and the parity of the stones added since.
    cache: HashMap<(u128, u128), Bounds>,
}

/// The perfect-play length, in plies from `position`, whose value for the side to move is given
/// by `value` (the exact solver). Fails for boards larger than [`MAX_LENGTH_SIZE`] and for
/// finished games. Public through [`crate::Solver::perfect_play_length`].
pub(crate) fn perfect_play_length(
    position: &Position,
    rules: Rules,
    value: Value<'_>,
) -> Result<u32, HexError> {
    let n = position.size();
    if n > MAX_LENGTH_SIZE {
        return Err(HexError::BadTable(format!(
            "perfect-play lengths are computed up to {MAX_LENGTH_SIZE}x{MAX_LENGTH_SIZE}"
        )));
    }
    if let Some(p) = position.connected() {
        return Err(HexError::GameOver(p.name()));
    }
    let mut search = Lengths {
        g: position.geometry(),
        value,
        rules,
        cache: HashMap::new(),
    };
    let (black, white) = (position.black(), position.white());
    let black_to_move = position.to_move() == crate::Player::Black;
    let mover_wins = value(black, white, black_to_move);
    let empties = position.empty().count();
    // The game ends on a move of the winner in normal play and of the loser in misère, which
    // fixes the parity of the length.
    let ends_on_mover = mover_wins == (rules == Rules::Normal);
    let mut d = if ends_on_mover { 1 } else { 2 };
    while d <= empties {
        let found = if mover_wins {
            search.wins_within(black, white, black_to_move, d)
        } else {
            search.loses_within(black, white, black_to_move, d)
        };
        if found {
            return Ok(d);
        }
        d += 2;
    }
    Err(HexError::BadPosition(
        "no perfect-play length: the stated winner cannot force a win".into(),
    ))
}

impl Lengths<'_> {
    fn sides(&self, black: Bitboard, white: Bitboard, black_to_move: bool) -> Sides {
        let g = self.g;
        if black_to_move {
            Sides {
                mine: black,
                theirs: white,
                my_edges: (g.north, g.south),
                their_edges: (g.west, g.east),
            }
        } else {
            Sides {
                mine: white,
                theirs: black,
                my_edges: (g.west, g.east),
                their_edges: (g.north, g.south),
            }
        }
    }

    /// The fewest stones `stones` need to connect `a` to `b` through `empty` cells.
    fn distance(&self, stones: Bitboard, empty: Bitboard, a: Bitboard, b: Bitboard) -> u32 {
        let g = self.g;
        let usable = stones | empty;
        let mut reached = g.flood(a & stones, stones);
        let mut cost = 0;
        loop {
            if !(reached & b).is_empty() {
                return cost;
            }
            let step = ((g.neighbours(reached) | a) & empty).minus(reached);
            if step.is_empty() {
                return u32::MAX;
            }
            cost += 1;
            reached = g.flood(reached | step, (reached | step | stones) & usable);
        }
    }

    fn child(&self, black: Bitboard, white: Bitboard, btm: bool, i: usize) -> (Bitboard, Bitboard) {
        if btm {
            (black.with(i), white)
        } else {
            (black, white.with(i))
        }
    }

    /// Whether the side to move can force a win within `d` plies.
    fn wins_within(&mut self, black: Bitboard, white: Bitboard, btm: bool, d: u32) -> bool {
        let key = (black.0, white.0);
        let known = self.cache.get(&key).copied().unwrap_or(UNKNOWN);
        if d <= u32::from(known.win_no) {
            return false;
        }
        if d >= u32::from(known.win_yes) {
            return true;
        }
        let s = self.sides(black, white, btm);
        let empty = self.g.board.minus(black | white);
        let result = 'search: {
            if !(self.value)(black, white, btm) {
                break 'search false;
            }
            if self.rules == Rules::Normal
                && self.distance(s.mine, empty, s.my_edges.0, s.my_edges.1) > d.div_ceil(2)
            {
                break 'search false;
            }
            for i in empty.cells() {
                let connects = self.connects_with(s.mine, i, s.my_edges);
                if connects {
                    if self.rules == Rules::Normal {
                        break 'search true;
                    }
                    continue;
                }
                let (b, w) = self.child(black, white, btm, i);
                // A move after which the opponent wins cannot win quickly.
                if d >= 2 && !(self.value)(b, w, !btm) && self.loses_within(b, w, !btm, d - 1) {
                    break 'search true;
                }
            }
            false
        };
        self.record(key, |b| {
            if result {
                b.win_yes = b.win_yes.min(d as u8);
            } else {
                b.win_no = b.win_no.max(d as u8);
            }
        });
        result
    }

    /// Whether the opponent can force a win within `d` plies, the side to move to play first.
    fn loses_within(&mut self, black: Bitboard, white: Bitboard, btm: bool, d: u32) -> bool {
        let key = (black.0, white.0);
        let known = self.cache.get(&key).copied().unwrap_or(UNKNOWN);
        if d <= u32::from(known.lose_no) {
            return false;
        }
        if d >= u32::from(known.lose_yes) {
            return true;
        }
        let s = self.sides(black, white, btm);
        let empty = self.g.board.minus(black | white);
        let result = 'search: {
            if (self.value)(black, white, btm) {
                break 'search false;
            }
            if self.rules == Rules::Normal
                && self.distance(s.theirs, empty, s.their_edges.0, s.their_edges.1) > d / 2
            {
                break 'search false;
            }
            for i in empty.cells() {
                let connects = self.connects_with(s.mine, i, s.my_edges);
                if connects {
                    if self.rules == Rules::Normal {
                        break 'search false;
                    }
                    continue;
                }
                let (b, w) = self.child(black, white, btm, i);
                if d < 2 || !self.wins_within(b, w, !btm, d - 1) {
                    break 'search false;
                }
            }
            true
        };
        self.record(key, |b| {
            if result {
                b.lose_yes = b.lose_yes.min(d as u8);
            } else {
                b.lose_no = b.lose_no.max(d as u8);
            }
        });
        result
    }

    fn connects_with(&self, mine: Bitboard, i: usize, edges: (Bitboard, Bitboard)) -> bool {
        self.g.connects(mine.with(i), edges.0, edges.1)
    }

    fn record(&mut self, key: (u128, u128), update: impl FnOnce(&mut Bounds)) {
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        update(self.cache.entry(key).or_insert(UNKNOWN));
    }
}

struct Sides {
    mine: Bitboard,
    theirs: Bitboard,
    my_edges: (Bitboard, Bitboard),
    their_edges: (Bitboard, Bitboard),
}
