//! Where the workers of one shared proof stand, so that each steers away from the others.
//!
//! Several threads run the same depth-first proof-number search from one root on the shared
//! table ([`super::Solver::shared_value`]). Left alone they would all follow the same most-proving
//! path. Each worker therefore marks, for every depth (the number of stones on the board), the
//! node it is searching at that depth; a worker choosing among the children of a node treats a
//! child that another worker is in as harder than its numbers say (a *virtual* proof number),
//! and so takes another child when one is nearly as good. The marks only steer: values come
//! from proven children alone, whatever the marks say, and a stale or colliding mark costs time,
//! never exactness.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::Bitboard;

/// The marks of the workers of one shared proof: `marks[worker * DEPTHS + depth]` holds the
/// hash of the node that worker is in at that depth, or 0.
pub(crate) struct Paths {
    marks: Vec<AtomicU64>,
    workers: usize,
}

/// Depths a mark is kept for: every stone count of the largest board, 11x11.
const DEPTHS: usize = 122;

impl Paths {
    /// Marks for `workers` workers, none in any node yet.
    pub fn new(workers: usize) -> Paths {
        Paths {
            marks: (0..workers * DEPTHS).map(|_| AtomicU64::new(0)).collect(),
            workers,
        }
    }

    /// The mark of a table key: a hash that is never 0. Two keys may share it (the marks only
    /// steer).
    #[inline(always)]
    pub fn hash(kb: Bitboard, kw: Bitboard) -> u64 {
        let fold = |x: u128| (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        (fold(kb.0) ^ fold(kw.0).rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }

    /// `worker` is now searching the node with mark `hash` at `depth`.
    #[inline(always)]
    pub fn enter(&self, worker: usize, depth: usize, hash: u64) {
        self.marks[worker * DEPTHS + depth].store(hash, Ordering::Relaxed);
    }

    /// `worker` has left its node at `depth`.
    #[inline(always)]
    pub fn leave(&self, worker: usize, depth: usize) {
        self.marks[worker * DEPTHS + depth].store(0, Ordering::Relaxed);
    }

    /// Whether a worker other than `worker` is in the node with mark `hash` at `depth`.
    #[inline(always)]
    pub fn busy(&self, worker: usize, depth: usize, hash: u64) -> bool {
        (0..self.workers)
            .any(|w| w != worker && self.marks[w * DEPTHS + depth].load(Ordering::Relaxed) == hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node is busy for every worker but the one in it, at its own depth only, until that
    /// worker leaves it; a mark is never 0 (the empty mark).
    #[test]
    fn a_node_is_busy_for_the_others_while_a_worker_is_in_it() {
        let paths = Paths::new(3);
        let (a, b) = (
            Paths::hash(Bitboard(1), Bitboard(0)),
            Paths::hash(Bitboard(0), Bitboard(1)),
        );
        assert!(a != 0 && b != 0 && a != b);
        assert_eq!(Paths::hash(Bitboard(0), Bitboard(0)) & 1, 1);
        paths.enter(1, 5, a);
        assert!(paths.busy(0, 5, a) && paths.busy(2, 5, a));
        assert!(
            !paths.busy(1, 5, a),
            "a worker is not kept out of its own node"
        );
        assert!(!paths.busy(0, 4, a) && !paths.busy(0, 5, b));
        paths.enter(2, 5, b);
        assert!(paths.busy(0, 5, a) && paths.busy(0, 5, b) && paths.busy(1, 5, b));
        paths.leave(1, 5);
        assert!(!paths.busy(0, 5, a) && paths.busy(0, 5, b));
    }
}
