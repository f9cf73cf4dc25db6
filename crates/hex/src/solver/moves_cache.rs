//! Per-thread caches: the moves the analysis leaves to search in open positions, and the
//! proof sets of proven ones.
//!
//! Proof-number search comes back to the same open position many times, and the analysis that
//! narrows its moves (two H-searches, fill-in, inferior cells) costs far more than a visit.
//! Each thread keeps a direct-mapped array of the latest results; an entry holds the whole
//! position, the board size, the rules and the side to move, so a hit is always the position
//! asked about (a collision only replaces an entry). An entry also says whether its analysis
//! was whole or an estimate's, which leaves out a check (see `Search::analyse_cached`).
//!
//! The transposition table keeps a proven position's value and move but has no room for its
//! proof set (up to 121 bits), which a parent needs each time it comes back to a refuted move
//! (see `Search::loss_proof`): the proof sets go in a second array of the same form, where a
//! miss only costs the pruning the set would have given.

use std::cell::RefCell;

use crate::Bitboard;

/// Entries per thread (a power of two): 2^16 entries of 64 bytes, 4 MiB.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    black: u128,
    white: u128,
    /// Board size, rules and side to move, with bit 0 set once used.
    tag: u64,
    moves: u128,
    /// Whether the analysis was whole, not an estimate's.
    whole: bool,
}

// The size the entry count above is reckoned with.
const _: () = assert!(std::mem::size_of::<Entry>() == 64);

/// An entry of the proof-set cache.
#[derive(Clone, Copy, Default)]
struct ProofEntry {
    black: u128,
    white: u128,
    /// As in [`Entry`].
    tag: u64,
    proof: u128,
}

const _: () = assert!(std::mem::size_of::<ProofEntry>() == 64);

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    static PROOFS: RefCell<Vec<ProofEntry>> = const { RefCell::new(Vec::new()) };
}

/// The tag of a position's entry: bit 0 marks it used; then the side to move, the rules and
/// the board size.
#[inline(always)]
pub(crate) fn tag(n: usize, misere: bool, black_to_move: bool) -> u64 {
    1 | u64::from(black_to_move) << 1 | u64::from(misere) << 2 | (n as u64) << 3
}

#[inline(always)]
fn slot(black: u128, white: u128, tag: u64) -> usize {
    let h = (black as u64
        ^ (black >> 64) as u64
        ^ (white as u64).rotate_left(29)
        ^ ((white >> 64) as u64).rotate_left(41)
        ^ tag)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 48) as usize & (ENTRIES - 1)
}

/// The cached moves of a position, and whether their analysis was whole, if this thread
/// analysed it last in its slot.
#[inline]
pub(crate) fn get(black: Bitboard, white: Bitboard, tag: u64) -> Option<(Bitboard, bool)> {
    CACHE.with_borrow(|c| {
        let e = c.get(slot(black.0, white.0, tag))?;
        (e.tag == tag && e.black == black.0 && e.white == white.0)
            .then_some((Bitboard(e.moves), e.whole))
    })
}

/// Remembers the moves of a position, and whether their analysis was whole.
#[inline]
pub(crate) fn put(black: Bitboard, white: Bitboard, tag: u64, moves: Bitboard, whole: bool) {
    CACHE.with_borrow_mut(|c| {
        if c.is_empty() {
            c.resize(ENTRIES, Entry::default());
        }
        c[slot(black.0, white.0, tag)] = Entry {
            black: black.0,
            white: white.0,
            tag,
            moves: moves.0,
            whole,
        };
    });
}

/// The proof set this thread last kept for a proven position in its slot, if any.
#[inline]
pub(crate) fn get_proof(black: Bitboard, white: Bitboard, tag: u64) -> Option<Bitboard> {
    PROOFS.with_borrow(|c| {
        let e = c.get(slot(black.0, white.0, tag))?;
        (e.tag == tag && e.black == black.0 && e.white == white.0).then_some(Bitboard(e.proof))
    })
}

/// Remembers the proof set of a proven position.
#[inline]
pub(crate) fn put_proof(black: Bitboard, white: Bitboard, tag: u64, proof: Bitboard) {
    PROOFS.with_borrow_mut(|c| {
        if c.is_empty() {
            c.resize(ENTRIES, ProofEntry::default());
        }
        c[slot(black.0, white.0, tag)] = ProofEntry {
            black: black.0,
            white: white.0,
            tag,
            proof: proof.0,
        };
    });
}
