//! [`TranspositionTable`]: a fixed-size, lock-free table of solved positions shared by all search
//! threads.
//!
//! Each entry holds the whole position (both stone sets, four words) next to its result, so a hit
//! is only taken when the stored position equals the probed one bit for bit: a hash collision
//! can make two positions compete for a slot, never make one borrow the other's result. Entries
//! are guarded by a per-entry sequence number (a seqlock, see `seqlock.rs`), so a torn read
//! (half of one entry, half of another) is discarded and no thread ever waits.
//!
//! Slots come in pairs: the first keeps the entry that cost the most work to prove, the second
//! always takes the newest, so expensive proofs survive a flood of cheap ones.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::seqlock;

use crate::Bitboard;

/// Bytes per entry: sequence, four position words, data.
const ENTRY_BYTES: usize = 6 * 8;

/// What the table remembers about a position, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtData {
    /// The value is proven.
    Solved {
        /// Whether the side to move wins.
        win: bool,
        /// A winning move (for a win), as a bit index.
        best: Option<u8>,
        /// The work spent proving it, as log2 of the node count (0..=63).
        work: u8,
    },
    /// Not yet proven: the proof and disproof numbers of a proof-number search (estimates of
    /// the work left to prove a win and a loss), each below [`MAX_PN`].
    Open {
        /// Proof number: the estimated work to prove the side to move wins.
        pn: u32,
        /// Disproof number: the estimated work to prove the side to move loses.
        dn: u32,
        /// The work spent so far, as log2 of the node count (0..=63).
        work: u8,
    },
}

/// The largest proof or disproof number an open entry stores; larger ones are capped.
pub const MAX_PN: u32 = (1 << 23) - 1;

impl TtData {
    /// The work recorded (log2 of nodes), which decides what the table keeps.
    #[must_use]
    pub fn work(self) -> u8 {
        match self {
            TtData::Solved { work, .. } | TtData::Open { work, .. } => work,
        }
    }

    fn pack(self) -> u64 {
        // Bit 0 marks the entry as used, so an all-zero slot never matches the empty board.
        match self {
            TtData::Solved { win, best, work } => {
                1 | u64::from(win) << 1
                    | u64::from(work & 63) << 2
                    | u64::from(best.unwrap_or(u8::MAX)) << 8
            }
            TtData::Open { pn, dn, work } => {
                1 | 1 << 16
                    | u64::from(work & 63) << 2
                    | u64::from(pn.min(MAX_PN)) << 17
                    | u64::from(dn.min(MAX_PN)) << 40
            }
        }
    }

    fn unpack(d: u64) -> Option<TtData> {
        if d & 1 == 0 {
            return None;
        }
        let work = (d >> 2 & 63) as u8;
        if d >> 16 & 1 == 1 {
            return Some(TtData::Open {
                pn: (d >> 17) as u32 & MAX_PN,
                dn: (d >> 40) as u32 & MAX_PN,
                work,
            });
        }
        let best = (d >> 8) as u8;
        Some(TtData::Solved {
            win: d >> 1 & 1 == 1,
            best: (best != u8::MAX).then_some(best),
            work,
        })
    }
}

/// One entry: the sequence number, the four position words, the data. A plain array of
/// atomics, so that a table can be allocated as zeroed memory, which the system hands over
/// lazily: a 2 GiB table costs nothing until its pages are touched.
type Entry = [AtomicU64; 6];
const KEY: usize = 1;
const DATA: usize = 5;

/// A fixed-size, lock-free transposition table (see the module documentation).
///
/// ```
/// use zermelo_hex::{Bitboard, TranspositionTable, TtData};
/// let tt = TranspositionTable::with_megabytes(1).unwrap();
/// let (b, w) = (Bitboard(0b01), Bitboard(0b10));
/// assert_eq!(tt.probe(b, w), None);
/// let proven = TtData::Solved { win: true, best: Some(3), work: 5 };
/// tt.store(b, w, proven);
/// assert_eq!(tt.probe(b, w), Some(proven));
/// assert_eq!(tt.probe(w, b), None);
/// ```
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    /// Number of slot pairs minus one (a power of two minus one).
    mask: usize,
}

/// The largest table zermelo will allocate, in MiB (a guard against typos such as an extra 0).
pub const MAX_TT_MB: usize = 1 << 20;

impl TranspositionTable {
    /// A table using about `mb` MiB (rounded down to a power of two entries; at least 2 pairs).
    ///
    /// Fails, without allocating, when `mb` is 0 or more than [`MAX_TT_MB`] or the allocation
    /// is refused by the system.
    pub fn with_megabytes(mb: usize) -> Result<TranspositionTable, crate::HexError> {
        if mb == 0 || mb > MAX_TT_MB {
            return Err(crate::HexError::BadTable(format!(
                "transposition table size {mb} MiB is out of range (1 to {MAX_TT_MB})"
            )));
        }
        let wanted = mb * (1 << 20) / ENTRY_BYTES;
        let pairs = (wanted / 2).max(2);
        let pairs = 1usize << (usize::BITS - 1 - pairs.leading_zeros());
        let entries =
            bytemuck::allocation::try_zeroed_slice_box::<Entry>(pairs * 2).map_err(|_| {
                crate::HexError::BadTable(format!(
                    "cannot allocate a {mb} MiB transposition table: not enough memory"
                ))
            })?;
        Ok(TranspositionTable {
            entries,
            mask: pairs - 1,
        })
    }

    /// The number of entries.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The number of entries in use (a full scan; for statistics at the end of a run).
    #[must_use]
    pub fn used(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e[DATA].load(Ordering::Relaxed) & 1 == 1)
            .count()
    }

    /// A position as the four words an entry stores (the analysis caches store it the same way).
    #[inline(always)]
    pub(crate) fn words(black: Bitboard, white: Bitboard) -> [u64; 4] {
        [
            black.0 as u64,
            (black.0 >> 64) as u64,
            white.0 as u64,
            (white.0 >> 64) as u64,
        ]
    }

    #[inline(always)]
    fn pair(&self, k: &[u64; 4]) -> usize {
        let mut h = k[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ k[1].rotate_left(17).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ k[2].wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(31)
            ^ k[3].rotate_left(47).wrapping_mul(0x85EB_CA77_C2B2_AE63);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        (h as usize & self.mask) * 2
    }

    /// Reads one entry consistently: its position words and data; `None` if it is being
    /// written or was changed meanwhile.
    #[inline(always)]
    fn read(entry: &Entry) -> Option<([u64; 4], u64)> {
        let w = seqlock::read(entry)?;
        Some(([w[KEY], w[KEY + 1], w[KEY + 2], w[KEY + 3]], w[DATA]))
    }

    /// The stored result of exactly this position, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, black: Bitboard, white: Bitboard) -> Option<TtData> {
        let k = Self::words(black, white);
        let base = self.pair(&k);
        for entry in &self.entries[base..base + 2] {
            if let Some((key, data)) = Self::read(entry) {
                if key == k {
                    if let Some(d) = TtData::unpack(data) {
                        return Some(d);
                    }
                }
            }
        }
        None
    }

    /// Stores a result. Keeps the costlier proof in the first slot of the pair; the newest goes
    /// to the second. Skips the store if another thread is writing the chosen slot.
    #[inline]
    pub fn store(&self, black: Bitboard, white: Bitboard, data: TtData) {
        let k = Self::words(black, white);
        let base = self.pair(&k);
        let first = &self.entries[base];
        let keeper = TtData::unpack(first[DATA].load(Ordering::Relaxed));
        let same_as_first = Self::read(first).is_some_and(|(key, _)| key == k);
        let slot = match keeper {
            None => first,
            Some(_) if same_as_first => first,
            Some(old) if data.work() >= old.work() => first,
            Some(_) => &self.entries[base + 1],
        };
        Self::write(slot, &k, data.pack());
    }

    /// Every entry in use, each read consistently (one being written is skipped), for saving
    /// the table while searches run.
    pub fn entries(&self) -> impl Iterator<Item = (Bitboard, Bitboard, TtData)> + '_ {
        self.entries.iter().filter_map(|e| {
            let (k, data) = Self::read(e)?;
            let black = Bitboard(u128::from(k[0]) | u128::from(k[1]) << 64);
            let white = Bitboard(u128::from(k[2]) | u128::from(k[3]) << 64);
            Some((black, white, TtData::unpack(data)?))
        })
    }

    /// Stores an entry read back from a saved table: in a free slot of its pair when there is
    /// one, so that a table of the size it was saved from takes back every entry; otherwise
    /// as [`TranspositionTable::store`] does.
    pub fn restore(&self, black: Bitboard, white: Bitboard, data: TtData) {
        let k = Self::words(black, white);
        let base = self.pair(&k);
        let free = self.entries[base..base + 2]
            .iter()
            .find(|e| e[DATA].load(Ordering::Relaxed) & 1 == 0);
        match free {
            Some(slot) => Self::write(slot, &k, data.pack()),
            None => self.store(black, white, data),
        }
    }

    #[inline(always)]
    fn write(entry: &Entry, key: &[u64; 4], data: u64) {
        seqlock::write(entry, &[0, key[0], key[1], key[2], key[3], data]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(win: bool, best: u8, work: u8) -> TtData {
        TtData::Solved {
            win,
            best: Some(best),
            work,
        }
    }

    #[test]
    fn colliding_positions_never_share_a_result() {
        // A tiny table: every position competes for the same few slots.
        let tt = TranspositionTable::with_megabytes(1).unwrap();
        let tiny = TranspositionTable {
            entries: bytemuck::allocation::zeroed_slice_box(4),
            mask: 1,
        };
        for t in [&tt, &tiny] {
            for i in 0..500u32 {
                let b = Bitboard(u128::from(i) * 0x1_0001);
                let w = Bitboard(u128::from(i) << 70);
                t.store(b, w, solved(i % 3 == 0, (i % 100) as u8, (i % 60) as u8));
                let got = t
                    .probe(b, w)
                    .expect("just stored: a slot was free to take it");
                assert_eq!(got, solved(i % 3 == 0, (i % 100) as u8, (i % 60) as u8));
            }
            for i in 0..500u32 {
                let b = Bitboard(u128::from(i) * 0x1_0001);
                let w = Bitboard(u128::from(i) << 70);
                if let Some(got) = t.probe(b, w) {
                    assert_eq!(got, solved(i % 3 == 0, (i % 100) as u8, (i % 60) as u8));
                }
            }
        }
    }

    /// Position number x (of 64) and the result stored for it: a function of the position, so
    /// any entry read back can be checked.
    fn sample(x: u64) -> (Bitboard, Bitboard, TtData) {
        let b = Bitboard(u128::from(x) | u128::from(x) << 80);
        let w = Bitboard(u128::from(x ^ 0x2a) << 3);
        let data = if x % 3 == 0 {
            TtData::Open {
                pn: x as u32 * 1000,
                dn: MAX_PN,
                work: 1,
            }
        } else {
            solved(x % 2 == 0, x as u8, (x % 7) as u8)
        };
        (b, w, data)
    }

    #[test]
    fn concurrent_writers_and_readers_never_see_torn_entries() {
        let tt = TranspositionTable {
            entries: bytemuck::allocation::zeroed_slice_box(8),
            mask: 3,
        };
        // The result is a function of the position, so any accepted read can be checked.
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let (b, w, data) = sample((i * 7 + t) % 64);
                        tt.store(b, w, data);
                        let (b, w, want) = sample((i * 13 + 5 * t) % 64);
                        if let Some(d) = tt.probe(b, w) {
                            assert_eq!(d, want);
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(TranspositionTable::with_megabytes(0).is_err());
        assert!(TranspositionTable::with_megabytes(MAX_TT_MB + 1).is_err());
    }
}
