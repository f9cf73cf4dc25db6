//! Perfect-play lengths: how many plies the game lasts when the winner wins as fast as possible
//! and the loser delays as long as possible.
//!
//! The length of a won position is the least d such that the side to move can force a win
//! within d plies; of a lost position, the least d such that the opponent can. Each bound is
//! decided by a depth-limited search (iterative deepening over d), with a cache of the bounds
//! already known for each position: a fixed table (see [`BoundsCache`]), so memory stays bounded
//! however long the search runs. The exact solver prunes it: a player can only win quickly
//! a position it wins at all, so only value-keeping moves of the winner are followed. In normal
//! play a player also needs at least as many moves as the empty cells on their shortest path to
//! an edge-to-edge connection, which cuts most of the remaining lines.

use crate::solver::Rules;
use crate::{Bitboard, Geometry, HexError, Position};

/// Whether the side to move wins (black stones, white stones, Black to move).
pub(crate) type Value<'a> = &'a dyn Fn(Bitboard, Bitboard, bool) -> bool;

/// The largest board on which lengths are computed: beyond it the depth-limited searches are too
/// long for a solve (on 5x5 they already take minutes per opening).
pub const MAX_LENGTH_SIZE: usize = 5;

/// The largest board on which `hex openings` computes lengths unless asked to.
pub const DEFAULT_LENGTH_SIZE: usize = 4;

/// Slots of the bounds cache, a power of two by board size: 40 bytes each, so 2.5 MiB up to 4x4
/// and 160 MiB on 5x5, per length search (the openings run one per thread).
fn cache_slots(n: usize) -> usize {
    if n <= 4 {
        1 << 16
    } else {
        1 << 22
    }
}

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
    cache: BoundsCache,
}

/// The bounds known for positions, in a fixed table indexed by a hash of the position: a new
/// entry replaces the one in its slot. Each slot holds the whole position, so a lookup never
/// returns another position's bounds; a replaced entry only costs its search again.
struct BoundsCache {
    /// Black's stones (two words), White's (two words), and the bounds; all zero for a free
    /// slot (no real entry has `win_yes` 0), so the table starts as zeroed memory that the
    /// system hands over lazily.
    slots: Vec<[u64; 5]>,
    shift: u32,
}

impl BoundsCache {
    fn new(slots: usize) -> BoundsCache {
        debug_assert!(slots.is_power_of_two());
        BoundsCache {
            slots: vec![[0; 5]; slots],
            shift: 64 - slots.trailing_zeros(),
        }
    }

    fn slot(&self, key: (u128, u128)) -> usize {
        let fold = |x: u128| (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        let h = fold(key.0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ fold(key.1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h.wrapping_mul(0x2545_F491_4F6C_DD1D) >> self.shift) as usize
    }

    fn words(key: (u128, u128)) -> [u64; 4] {
        [
            key.0 as u64,
            (key.0 >> 64) as u64,
            key.1 as u64,
            (key.1 >> 64) as u64,
        ]
    }

    fn get(&self, key: (u128, u128)) -> Bounds {
        let slot = &self.slots[self.slot(key)];
        let b = slot[4].to_le_bytes();
        if b[1] == 0 || slot[..4] != Self::words(key) {
            return UNKNOWN;
        }
        Bounds {
            win_no: b[0],
            win_yes: b[1],
            lose_no: b[2],
            lose_yes: b[3],
        }
    }

    fn set(&mut self, key: (u128, u128), bounds: Bounds) {
        let i = self.slot(key);
        let w = Self::words(key);
        let packed = u64::from_le_bytes([
            bounds.win_no,
            bounds.win_yes,
            bounds.lose_no,
            bounds.lose_yes,
            0,
            0,
            0,
            0,
        ]);
        self.slots[i] = [w[0], w[1], w[2], w[3], packed];
    }
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
        cache: BoundsCache::new(cache_slots(n)),
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
        let known = self.cache.get(key);
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
        let known = self.cache.get(key);
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
        let mut bounds = self.cache.get(key);
        update(&mut bounds);
        self.cache.set(key, bounds);
    }
}

struct Sides {
    mine: Bitboard,
    theirs: Bitboard,
    my_edges: (Bitboard, Bitboard),
    their_edges: (Bitboard, Bitboard),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_cache_stays_its_size_and_never_answers_for_another_position() {
        let mut cache = BoundsCache::new(1 << 6);
        let bounds = |d: u8| Bounds {
            win_no: d,
            win_yes: d + 1,
            lose_no: 0,
            lose_yes: u8::MAX,
        };
        // Far more positions than slots: they collide and replace each other.
        for i in 0..10_000u128 {
            cache.set((i, i << 70), bounds((i % 200) as u8));
        }
        assert_eq!(cache.slots.len(), 1 << 6);
        let mut kept = 0;
        for i in 0..10_000u128 {
            let got = cache.get((i, i << 70));
            if got.win_yes == u8::MAX {
                continue;
            }
            kept += 1;
            assert_eq!(
                (got.win_no, got.win_yes),
                ((i % 200) as u8, (i % 200) as u8 + 1)
            );
        }
        assert!(kept > 0 && kept <= 1 << 6);
        // The empty board is a position like any other, not a free slot.
        cache.set((0, 0), bounds(3));
        assert_eq!(cache.get((0, 0)).win_no, 3);
    }
}
