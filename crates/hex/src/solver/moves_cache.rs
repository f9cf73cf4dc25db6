//! The cache shared by every thread of a solver of the moves the analysis leaves to search in
//! open positions.
//!
//! Proof-number search comes back to the same open position many times, and the analysis that
//! narrows its moves (an H-search, fill-in, inferior cells) costs far more than a visit.
//! The moves cache is a direct-mapped array of the latest results; an entry holds the whole
//! position, the board size, the rules and the side to move, so a hit is always the position
//! asked about (a collision only replaces an entry). An entry also says whether its analysis
//! pruned its moves or was an estimate's, which leaves the pruning out (see
//! `Search::analyse_cached`).
//!
//! It is shared by the threads, as the table is, and guarded the same way (`seqlock.rs`):
//! with a cache per thread, the workers of one proof analysed again the positions the others
//! had analysed. (The proof sets of proven positions, which once had a cache of this form,
//! are held in the transposition table's entries: see `tt.rs`.)

use std::sync::atomic::AtomicU64;

use crate::seqlock;
use crate::{Bitboard, TranspositionTable};

/// Entries per thread of the solver: a cache of t threads has up to 2^16 entries for each (64
/// bytes each, 4 MiB a thread), rounded up to a power of two, and at most a sixteenth of the
/// transposition table's entries (a solver made for small searches stays small), at least
/// 2^10.
const ENTRIES_PER_THREAD: usize = 1 << 16;
const MIN_ENTRIES: usize = 1 << 10;

/// One entry: the sequence number, the four position words, the tag, the two words held.
type Entry = [AtomicU64; 8];
const TAG: usize = 5;
const HELD: usize = 6;

// The size the entry counts above are reckoned with.
const _: () = assert!(std::mem::size_of::<Entry>() == 64);

/// The bit of a stored tag that marks a moves entry whose analysis pruned its moves.
const PRUNED: u64 = 1 << 63;

/// A direct-mapped array of 128-bit values by position (module documentation).
struct Cache {
    entries: Box<[Entry]>,
    /// 64 less the bits of an index: an index is the top bits of the hash, its best mixed.
    shift: u32,
}

impl Cache {
    fn new(entries: usize) -> Cache {
        Cache {
            // Zeroed pages, which the system hands over as they are first touched.
            entries: bytemuck::allocation::zeroed_slice_box(entries),
            shift: 64 - entries.trailing_zeros(),
        }
    }

    #[inline(always)]
    fn slot(&self, black: u128, white: u128, tag: u64) -> &Entry {
        let h = (black as u64
            ^ (black >> 64) as u64
            ^ (white as u64).rotate_left(29)
            ^ ((white >> 64) as u64).rotate_left(41)
            ^ tag)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.entries[(h >> self.shift) as usize]
    }

    /// The value held for the position, and the stored tag's [`PRUNED`] bit.
    #[inline]
    fn get(&self, black: Bitboard, white: Bitboard, tag: u64) -> Option<(u128, bool)> {
        let w = seqlock::read(self.slot(black.0, white.0, tag))?;
        let [b0, b1, w0, w1] = TranspositionTable::words(black, white);
        let found = w[1] == b0 && w[2] == b1 && w[3] == w0 && w[4] == w1 && w[TAG] & !PRUNED == tag;
        found.then(|| {
            (
                u128::from(w[HELD]) | u128::from(w[HELD + 1]) << 64,
                w[TAG] & PRUNED != 0,
            )
        })
    }

    #[inline]
    fn put(&self, black: Bitboard, white: Bitboard, tag: u64, held: u128) {
        let [b0, b1, w0, w1] = TranspositionTable::words(black, white);
        let entry = self.slot(black.0, white.0, tag & !PRUNED);
        seqlock::write(
            entry,
            &[0, b0, b1, w0, w1, tag, held as u64, (held >> 64) as u64],
        );
    }
}

/// The moves cache of one solver.
pub(crate) struct Caches {
    moves: Cache,
}

impl Caches {
    /// Caches sized for a solver of `threads` threads whose table has `table_entries`
    /// entries.
    pub(crate) fn new(threads: usize, table_entries: usize) -> Caches {
        let entries = (ENTRIES_PER_THREAD * threads.max(1))
            .next_power_of_two()
            .min((table_entries / 16).next_power_of_two())
            .max(MIN_ENTRIES);
        Caches {
            moves: Cache::new(entries),
        }
    }

    /// The cached moves of a position, and whether their analysis pruned them.
    #[inline]
    pub(crate) fn get(
        &self,
        black: Bitboard,
        white: Bitboard,
        tag: u64,
    ) -> Option<(Bitboard, bool)> {
        self.moves
            .get(black, white, tag)
            .map(|(moves, pruned)| (Bitboard(moves), pruned))
    }

    /// Remembers the moves of a position, and whether their analysis pruned them.
    #[inline]
    pub(crate) fn put(
        &self,
        black: Bitboard,
        white: Bitboard,
        tag: u64,
        moves: Bitboard,
        pruned: bool,
    ) {
        let tag = if pruned { tag | PRUNED } else { tag };
        self.moves.put(black, white, tag, moves.0);
    }
}

/// The tag of a position's entry: bit 0 marks it used; then the side to move, the rules and
/// the board size.
#[inline(always)]
pub(crate) fn tag(n: usize, misere: bool, black_to_move: bool) -> u64 {
    1 | u64::from(black_to_move) << 1 | u64::from(misere) << 2 | (n as u64) << 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_hold_their_own_position_only() {
        let caches = Caches::new(1, 1 << 16);
        let (b, w) = (Bitboard(0b101), Bitboard(0b010));
        let t = tag(3, false, true);
        assert_eq!(caches.get(b, w, t), None);
        caches.put(b, w, t, Bitboard(0b11000), true);
        assert_eq!(caches.get(b, w, t), Some((Bitboard(0b11000), true)));
        caches.put(b, w, t, Bitboard(0b01000), false);
        assert_eq!(caches.get(b, w, t), Some((Bitboard(0b01000), false)));
        // Another side to move, other rules, the colours swapped: other positions.
        assert_eq!(caches.get(b, w, tag(3, false, false)), None);
        assert_eq!(caches.get(b, w, tag(3, true, true)), None);
        assert_eq!(caches.get(w, b, t), None);
        caches.put(b, w, t, Bitboard(1 << 100), false);
        assert_eq!(caches.get(b, w, t), Some((Bitboard(1 << 100), false)));
    }
}
