//! [`TranspositionTable`]: a lock-free table of solved positions shared by all search threads,
//! which grows as it fills.
//!
//! Each entry holds the whole position (both stone sets, four words) next to its result, so a hit
//! is only taken when the stored position equals the probed one bit for bit: a hash collision
//! can make two positions compete for a slot, never make one borrow the other's result. Entries
//! are guarded by a per-entry sequence number (a seqlock, see `seqlock.rs`), so a torn read
//! (half of one entry, half of another) is discarded and no thread ever waits.
//!
//! Slots come in pairs: the first keeps the entry that cost the most work to prove, the second
//! always takes the newest, so expensive proofs survive a flood of cheap ones.
//!
//! An entry may hold a set of cells with its result: the solver keeps there the proof set of a
//! proven position (`solver/search.rs`), which a parent needs each time it comes back to the
//! move, so the set lasts as long as the result and comes in the same read. Each entry is one
//! cache line of 64 bytes, aligned as one.
//!
//! The table starts at 64 MiB and doubles each time stores of new positions have pushed out a
//! sixteenth of its entries, up to the size asked for. A table larger than the search needs
//! costs time: each page of memory is zeroed by the system when it is first touched, and
//! entries land on random pages. On the 2-core virtual machines the project measures on, a
//! first touch costs several microseconds (touching 2 GiB took 3.1 s of system time), and on
//! 7x7 after a3 two threads took 9.70 s with a fixed 2048 MiB table against 7.96 s with
//! 256 MiB. Growing, a search touches about the memory it uses.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;

use crate::seqlock;

use crate::Bitboard;

/// Bytes per entry: sequence, four position words, data, the two words of the set held.
const ENTRY_BYTES: usize = WORDS * 8;

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

/// One entry: the sequence number, the four position words, the data, the set held (two
/// words, [`HELD_MARK`] set when there is one). Plain atomics, so that a table can be
/// allocated as zeroed memory, which the system hands over lazily as its pages are first
/// touched; each entry starts on a cache line ([`Slots`]), so that a probe reads one line an
/// entry.
type Entry = [AtomicU64; 8];
const KEY: usize = 1;
const DATA: usize = 5;
const HELD: usize = 6;
/// Words per entry.
const WORDS: usize = 8;
const _: () = assert!(std::mem::size_of::<Entry>() == ENTRY_BYTES);

/// The bit of a held set that says there is one (boards have at most 121 cells).
const HELD_MARK: u128 = 1 << 127;

/// The size a table starts at, in MiB (or its whole size, when that is smaller): enough for a
/// search of a minute or so (on 7x7 after a3, 86,174 nodes with these first slots and 84,839
/// with 2048 MiB, on one thread), and a tenth of a second of first touches on the machines the
/// project measures on.
const FIRST_MB: usize = 64;

/// A lock-free transposition table that grows as it fills (see the module documentation).
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
    /// The slots in use, replaced by slots twice as many as they fill up.
    slots: ArcSwap<Slots>,
    /// The most slot pairs the table may grow to (a power of two).
    max_pairs: usize,
    /// The entries of the current slots that a store of another position has pushed out: the
    /// pressure that decides when to grow (stores that race a growth may be missed; it only
    /// has to be about right).
    evicted: AtomicUsize,
    /// Held by the thread that grows the table, so that only one does.
    growing: Mutex<()>,
}

/// The largest table zermelo will allocate, in MiB (a guard against typos such as an extra 0).
pub const MAX_TT_MB: usize = 1 << 20;

impl TranspositionTable {
    /// A table of at most about `mb` MiB (rounded down to a power of two entries; at least 2
    /// pairs), which starts at 64 MiB and doubles whenever the search holds more positions
    /// than it keeps.
    ///
    /// Fails, without allocating, when `mb` is 0 or more than [`MAX_TT_MB`], and when the
    /// system refuses the first slots. A later growth the system refuses leaves the table at
    /// the size it has. Each growth keeps the old slots until it has copied them, so the last
    /// one needs memory for half as much again as `mb`.
    pub fn with_megabytes(mb: usize) -> Result<TranspositionTable, crate::HexError> {
        if mb == 0 || mb > MAX_TT_MB {
            return Err(crate::HexError::BadTable(format!(
                "transposition table size {mb} MiB is out of range (1 to {MAX_TT_MB})"
            )));
        }
        let max_pairs = pairs_in(mb);
        TranspositionTable::with_pairs(pairs_in(FIRST_MB).min(max_pairs), max_pairs).ok_or_else(
            || {
                crate::HexError::BadTable(format!(
                    "cannot allocate a {mb} MiB transposition table: not enough memory"
                ))
            },
        )
    }

    /// A table of `first` slot pairs that may grow to `max` pairs (both powers of two); `None`
    /// if the system refuses the first slots.
    fn with_pairs(first: usize, max: usize) -> Option<TranspositionTable> {
        Some(TranspositionTable {
            slots: ArcSwap::from_pointee(Slots::new(first)?),
            max_pairs: max,
            evicted: AtomicUsize::new(0),
            growing: Mutex::new(()),
        })
    }

    /// The number of entries the table has now.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.load().len
    }

    /// The number of entries the table may grow to.
    #[must_use]
    pub fn max_capacity(&self) -> usize {
        self.max_pairs * 2
    }

    /// The number of entries in use (a full scan; for statistics at the end of a run).
    #[must_use]
    pub fn used(&self) -> usize {
        let slots = self.slots.load();
        (0..slots.len)
            .filter(|&i| slots.entry(i)[DATA].load(Ordering::Relaxed) & 1 == 1)
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

    /// The stored result of exactly this position, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, black: Bitboard, white: Bitboard) -> Option<TtData> {
        self.probe_held(black, white).map(|(data, _)| data)
    }

    /// The stored result of exactly this position, if any, with the set of cells stored with
    /// it ([`TranspositionTable::store_held`]), if one was.
    ///
    /// ```
    /// use zermelo_hex::{Bitboard, TranspositionTable, TtData};
    /// let tt = TranspositionTable::with_megabytes(1).unwrap();
    /// let (b, w) = (Bitboard(0b01), Bitboard(0b10));
    /// let proven = TtData::Solved { win: true, best: Some(3), work: 5 };
    /// tt.store_held(b, w, proven, Bitboard(0b1100));
    /// assert_eq!(tt.probe_held(b, w), Some((proven, Some(Bitboard(0b1100)))));
    /// tt.store(b, w, proven);
    /// assert_eq!(tt.probe_held(b, w), Some((proven, None)));
    /// ```
    #[inline]
    #[must_use]
    pub fn probe_held(
        &self,
        black: Bitboard,
        white: Bitboard,
    ) -> Option<(TtData, Option<Bitboard>)> {
        let (data, held) = self.slots.load().probe(&Self::words(black, white))?;
        Some((
            data,
            (held & HELD_MARK != 0).then_some(Bitboard(held & !HELD_MARK)),
        ))
    }

    /// Stores a result. Keeps the costlier proof in the first slot of the pair; the newest goes
    /// to the second. Skips the store if another thread is writing the chosen slot.
    #[inline]
    pub fn store(&self, black: Bitboard, white: Bitboard, data: TtData) {
        self.store_words(black, white, data, 0);
    }

    /// Stores a result as [`TranspositionTable::store`] does, with a set of cells held with it
    /// for as long as the entry stays (`set` within the board's 121 cells).
    #[inline]
    pub fn store_held(&self, black: Bitboard, white: Bitboard, data: TtData, set: Bitboard) {
        debug_assert!(set.0 & HELD_MARK == 0);
        self.store_words(black, white, data, set.0 | HELD_MARK);
    }

    #[inline(always)]
    fn store_words(&self, black: Bitboard, white: Bitboard, data: TtData, held: u128) {
        let slots = self.slots.load();
        if slots.store(&Self::words(black, white), data, held) {
            self.evicted_one(slots.len);
        }
    }

    /// Every entry in use, each read consistently (one being written is skipped), for saving
    /// the table while searches run: those of the slots in use when it is called (an entry
    /// stored after a growth that follows may be missing). The sets held are left out.
    pub fn entries(&self) -> impl Iterator<Item = (Bitboard, Bitboard, TtData)> {
        let slots = self.slots.load_full();
        (0..slots.len).filter_map(move |i| {
            let (k, data, _) = read(slots.entry(i))?;
            let black = Bitboard(u128::from(k[0]) | u128::from(k[1]) << 64);
            let white = Bitboard(u128::from(k[2]) | u128::from(k[3]) << 64);
            Some((black, white, TtData::unpack(data)?))
        })
    }

    /// Stores an entry read back from a saved table: in a free slot of its pair when there is
    /// one, so that a table that may grow to the size it was saved from takes back every
    /// entry; otherwise as [`TranspositionTable::store`] does.
    pub fn restore(&self, black: Bitboard, white: Bitboard, data: TtData) {
        let slots = self.slots.load();
        if slots.restore(&Self::words(black, white), data, 0) {
            self.evicted_one(slots.len);
        }
    }

    /// Counts an entry pushed out of slots of `entries` entries, and grows the table when a
    /// sixteenth of them have been pushed out since the last growth: the search then holds
    /// more positions than the slots keep (a search that keeps coming back
    /// to the positions the table holds pushes nothing out, however long it runs).
    #[inline(always)]
    fn evicted_one(&self, entries: usize) {
        // At its largest the table never grows: no count, no write to a shared line.
        if entries >= self.max_capacity() {
            return;
        }
        let evicted = self.evicted.fetch_add(1, Ordering::Relaxed) + 1;
        if evicted * 16 >= entries {
            self.grow(entries);
        }
    }

    /// Replaces slots of `entries` entries, unless another thread has done so or is doing it,
    /// by slots twice as many holding every entry of theirs, which always find room: an entry
    /// goes to one of the two pairs that its pair splits into. Searches go on meanwhile, in the
    /// old slots: what they store there after its pair was copied is lost, as an entry pushed
    /// out of its pair would be, which costs the table nothing but time.
    #[cold]
    fn grow(&self, entries: usize) {
        let Ok(_only_me) = self.growing.try_lock() else {
            return;
        };
        let old = self.slots.load_full();
        if old.len != entries {
            return;
        }
        let Some(new) = Slots::new(entries) else {
            // The system has no memory to give now: the table goes on at this size, and tries
            // again once as many entries again have been pushed out.
            self.evicted.store(0, Ordering::Relaxed);
            return;
        };
        for i in 0..old.len {
            if let Some((k, data, held)) = read(old.entry(i)) {
                if let Some(d) = TtData::unpack(data) {
                    new.restore(&k, d, held);
                }
            }
        }
        self.evicted.store(0, Ordering::Relaxed);
        self.slots.store(Arc::new(new));
    }
}

/// The slot pairs of a table of about `mb` MiB: a power of two, at least 2.
fn pairs_in(mb: usize) -> usize {
    let pairs = (mb * (1 << 20) / ENTRY_BYTES / 2).max(2);
    1usize << (usize::BITS - 1 - pairs.leading_zeros())
}

/// Reads one entry consistently: its position words, data and held set; `None` if it is being
/// written or was changed meanwhile.
#[inline(always)]
fn read(entry: &Entry) -> Option<([u64; 4], u64, u128)> {
    let w = seqlock::read(entry)?;
    let held = u128::from(w[HELD]) | u128::from(w[HELD + 1]) << 64;
    Some(([w[KEY], w[KEY + 1], w[KEY + 2], w[KEY + 3]], w[DATA], held))
}

/// The slots of a table at one size: pairs of entries, a position's pair chosen by its hash.
/// The entries are words of a larger allocation, from its first word on a cache line (the
/// system's allocator aligns a large block to 16 bytes only, which would split every entry
/// over two lines).
struct Slots {
    words: Box<[AtomicU64]>,
    /// The word where entry 0 starts.
    first: usize,
    /// The number of entries.
    len: usize,
    /// Number of slot pairs minus one (a power of two minus one).
    mask: usize,
}

impl Slots {
    /// `pairs` empty pairs (a power of two); `None` if the system refuses the memory.
    fn new(pairs: usize) -> Option<Slots> {
        let len = pairs * 2;
        let words =
            bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(len * WORDS + WORDS - 1)
                .ok()?;
        let first = (WORDS - words.as_ptr().addr() / 8 % WORDS) % WORDS;
        Some(Slots {
            words,
            first,
            len,
            mask: pairs - 1,
        })
    }

    /// Entry `i`.
    #[inline(always)]
    fn entry(&self, i: usize) -> &Entry {
        let at = self.first + i * WORDS;
        self.words[at..at + WORDS]
            .try_into()
            .expect("an entry is WORDS words")
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

    /// The result and the held set (its raw words) of the entry of position `k`.
    #[inline(always)]
    fn probe(&self, k: &[u64; 4]) -> Option<(TtData, u128)> {
        let base = self.pair(k);
        for entry in [self.entry(base), self.entry(base + 1)] {
            if let Some((key, data, held)) = read(entry) {
                if key == *k {
                    if let Some(d) = TtData::unpack(data) {
                        return Some((d, held));
                    }
                }
            }
        }
        None
    }

    /// [`TranspositionTable::store`] with a held set (its raw words); whether it pushed out
    /// another position's entry.
    #[inline(always)]
    fn store(&self, k: &[u64; 4], data: TtData, held: u128) -> bool {
        let base = self.pair(k);
        let first = self.entry(base);
        let keeper = TtData::unpack(first[DATA].load(Ordering::Relaxed));
        let same_as_first = read(first).is_some_and(|(key, _, _)| key == *k);
        let (slot, evicts) = match keeper {
            None => (first, false),
            Some(_) if same_as_first => (first, false),
            Some(old) if data.work() >= old.work() => (first, true),
            Some(_) => {
                let second = self.entry(base + 1);
                let taken = read(second).is_some_and(|(key, d, _)| d & 1 == 1 && key != *k);
                (second, taken)
            }
        };
        write(slot, k, data.pack(), held);
        evicts
    }

    /// [`TranspositionTable::restore`] with a held set; whether it pushed out another
    /// position's entry.
    fn restore(&self, k: &[u64; 4], data: TtData, held: u128) -> bool {
        let base = self.pair(k);
        let free = [self.entry(base), self.entry(base + 1)]
            .into_iter()
            .find(|e| e[DATA].load(Ordering::Relaxed) & 1 == 0);
        match free {
            Some(slot) => {
                write(slot, k, data.pack(), held);
                false
            }
            None => self.store(k, data, held),
        }
    }
}

#[inline(always)]
fn write(entry: &Entry, key: &[u64; 4], data: u64, held: u128) {
    let words = [
        0,
        key[0],
        key[1],
        key[2],
        key[3],
        data,
        held as u64,
        (held >> 64) as u64,
    ];
    seqlock::write(entry, &words);
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
        let tiny = TranspositionTable::with_pairs(2, 2).unwrap();
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

    /// The set held with sample x's result: one for the solved ones, which vary in how far
    /// up the words they reach, none for the open ones.
    fn held(x: u64) -> Option<Bitboard> {
        (x % 3 != 0).then(|| Bitboard(u128::from(x) << (x % 57) | 1 << (64 + x % 57)))
    }

    /// Four threads storing and probing `tt` at once, `rounds` times each: every entry read
    /// back is the one stored for its position, with its held set. With `fresh`, each round
    /// also stores a new position (to make a growing table grow meanwhile).
    fn hammer(tt: &TranspositionTable, rounds: u64, fresh: bool) {
        // The result is a function of the position, so any accepted read can be checked.
        std::thread::scope(|s| {
            for t in 0..4u64 {
                s.spawn(move || {
                    for i in 0..rounds {
                        let x = (i * 7 + t) % 64;
                        let (b, w, data) = sample(x);
                        match held(x) {
                            Some(set) => tt.store_held(b, w, data, set),
                            None => tt.store(b, w, data),
                        }
                        if fresh {
                            let (b, w) = (Bitboard(u128::from(i * 4 + t) + 1), Bitboard(1 << 100));
                            tt.store(
                                b,
                                w,
                                TtData::Open {
                                    pn: 1,
                                    dn: 2,
                                    work: 0,
                                },
                            );
                        }
                        let x = (i * 13 + 5 * t) % 64;
                        let (b, w, want) = sample(x);
                        if let Some(d) = tt.probe_held(b, w) {
                            assert_eq!(d, (want, held(x)));
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn concurrent_writers_and_readers_never_see_torn_entries() {
        hammer(
            &TranspositionTable::with_pairs(4, 4).unwrap(),
            200_000,
            false,
        );
    }

    /// A table keeps every entry through each doubling (a pair's entries always find room in
    /// the two pairs it splits into), grows when new positions push entries out, not when
    /// the same ones come back, and stops at its largest size, where it goes on as a fixed
    /// table. Readers and writers on other threads meanwhile see only the entries
    /// stored.
    #[test]
    fn a_growing_table_keeps_its_entries_and_stops_at_its_size() {
        let position = |i: u64| {
            (
                Bitboard(u128::from(i) * 0x9E37_79B9 + 1),
                Bitboard(u128::from(i) << 64),
            )
        };
        let data = |i: u64| solved(i % 2 == 0, (i % 121) as u8, (i % 5) as u8);
        let sorted = |tt: &TranspositionTable| {
            let mut all: Vec<_> = tt.entries().map(|(b, w, d)| (b.0, w.0, d.pack())).collect();
            all.sort_unstable();
            all
        };
        // Doubling by hand, full or not: the same entries, in twice the slots.
        let tt = TranspositionTable::with_pairs(2, 1 << 10).unwrap();
        for round in 0..9u64 {
            for i in round * 40..round * 40 + 40 {
                let (b, w) = position(i);
                tt.slots
                    .load()
                    .store(&TranspositionTable::words(b, w), data(i), 0);
            }
            let (before, entries) = (sorted(&tt), tt.capacity());
            tt.grow(entries);
            assert_eq!(tt.capacity(), 2 * entries, "round {round}");
            assert_eq!(sorted(&tt), before, "round {round}");
        }
        // A held set moves with its entry.
        let tt = TranspositionTable::with_pairs(2, 1 << 4).unwrap();
        let set = |i: u64| Bitboard(u128::from(i) << 90 | 1);
        for i in 0..4u64 {
            let (b, w) = position(i);
            tt.store_held(b, w, data(i), set(i));
        }
        let held = |tt: &TranspositionTable| {
            let mut all: Vec<_> = (0..4u64)
                .filter_map(|i| {
                    let (b, w) = position(i);
                    tt.probe_held(b, w).map(|d| (i, d))
                })
                .collect();
            all.sort_unstable_by_key(|&(i, _)| i);
            all
        };
        let before = held(&tt);
        assert!(!before.is_empty());
        for (i, d) in &before {
            assert_eq!(*d, (data(*i), Some(set(*i))));
        }
        while tt.capacity() < tt.max_capacity() {
            tt.grow(tt.capacity());
            assert_eq!(held(&tt), before);
        }
        // Growing by itself: not while the same positions are stored again and again, however
        // often; under the pressure of new positions, up to the largest size and no further.
        let tt = TranspositionTable::with_pairs(64, 1 << 10).unwrap();
        for _ in 0..100 {
            for i in 0..20u64 {
                let (b, w) = position(i);
                tt.store(b, w, data(i));
            }
        }
        assert_eq!(tt.capacity(), 128);
        for i in 20..3000u64 {
            let (b, w) = position(i);
            tt.store(b, w, data(i));
            assert_eq!(tt.probe(b, w), Some(data(i)), "{i}");
        }
        assert_eq!((tt.capacity(), tt.max_capacity()), (1 << 11, 1 << 11));
        for (b, w, d) in tt.entries() {
            let i = (w.0 >> 64) as u64;
            assert_eq!((position(i), d), ((b, w), data(i)));
        }

        let shared = TranspositionTable::with_pairs(2, 1 << 12).unwrap();
        hammer(&shared, 20_000, true);
        assert_eq!(shared.capacity(), shared.max_capacity());
    }

    /// The first slots of a table are 64 MiB, or the whole table when it is smaller.
    #[test]
    fn a_table_starts_small() {
        let big = TranspositionTable::with_megabytes(4096).unwrap();
        assert_eq!(big.max_capacity(), 1 << 26);
        assert_eq!(big.capacity(), 1 << 20);
        let small = TranspositionTable::with_megabytes(1).unwrap();
        assert_eq!((small.capacity(), small.max_capacity()), (1 << 14, 1 << 14));
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(TranspositionTable::with_megabytes(0).is_err());
        assert!(TranspositionTable::with_megabytes(MAX_TT_MB + 1).is_err());
    }
}
