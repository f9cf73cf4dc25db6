//! Proven positions kept from one run to the next: [`Proof`] and [`ProofSet`].
//!
//! A solver given a [`ProofSet`] ([`super::Solver::with_proofs`]) answers every position of the
//! set from it, before any search, and records each position its own search proves (a win with
//! its winning move, or a loss), so that a caller can save them as the run goes
//! ([`super::Solver::take_new_proofs`]). Only exact results are kept: a position whose proof
//! took at least one search node, never the open estimates of the transposition table.
//!
//! A proof holds the whole position (both stone sets and the side to move; the board size and
//! the rules belong to its set), so it is only ever used for that very position: there is no
//! hash in the key. Positions are stored in the canonical orientation of the search, the lesser
//! of the position and its 180° rotation, with the winning move given on that board.
//!
//! Records are [`RECORD_BYTES`] long, little-endian:
//!
//! ```text
//! offset  size  content
//! 0       16    Black's stones: bit y·n + x for cell (x, y), a u128
//! 16      16    White's stones, the same way
//! 32      1     flags: bit 0 Black to move, bit 1 the side to move wins; other bits 0
//! 33      1     the winning move (its bit index), or 255 for a loss
//! ```
//!
//! A set is written as its records in increasing byte order, each position once.

use std::collections::HashMap;

use super::search::key_bits;
use super::Rules;
use crate::{Bitboard, Cell, Geometry, HexError, MAX_SIZE};

/// The length of one record of a proof file's payload, in bytes.
pub const RECORD_BYTES: usize = 34;

/// The value of the move byte for a lost position.
const NO_MOVE: u8 = u8::MAX;

/// One proven position: who wins with the side to move, and how.
///
/// The position is in canonical orientation (not greater than its 180° rotation, comparing
/// Black's stones first), as the solver records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Proof {
    /// Black's stones.
    pub black: Bitboard,
    /// White's stones.
    pub white: Bitboard,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// A winning move of the side to move (a bit index) when it wins; `None` when it loses.
    pub winning_move: Option<u8>,
}

impl Proof {
    /// The record of this proof (layout in the module documentation).
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut r = [0u8; RECORD_BYTES];
        r[..16].copy_from_slice(&self.black.0.to_le_bytes());
        r[16..32].copy_from_slice(&self.white.0.to_le_bytes());
        r[32] = u8::from(self.black_to_move) | u8::from(self.winning_move.is_some()) << 1;
        r[33] = self.winning_move.unwrap_or(NO_MOVE);
        r
    }

    /// Reads a record for the n x n board, checking that it is a proof of a position in play:
    /// stones on the board and on distinct cells, canonical orientation, no connection yet, a
    /// winning move on an empty cell for a win and none for a loss. Any other record is refused,
    /// so a damaged record can never be taken for a proof of another position.
    pub fn from_bytes(n: usize, r: &[u8; RECORD_BYTES]) -> Result<Proof, HexError> {
        let g = geometry(n)?;
        let black = Bitboard(u128::from_le_bytes(r[..16].try_into().expect("16 bytes")));
        let white = Bitboard(u128::from_le_bytes(r[16..32].try_into().expect("16 bytes")));
        let bad = |why: &str| Err(HexError::BadProofs(format!("a record {why}")));
        if !black.minus(g.board).is_empty() || !white.minus(g.board).is_empty() {
            return bad(&format!("has stones off the {n}x{n} board"));
        }
        if !(black & white).is_empty() {
            return bad("has a cell with two stones");
        }
        if (g.rotate(black), g.rotate(white)) < (black, white) {
            return bad("is not in canonical orientation");
        }
        if g.connects(black, g.north, g.south) || g.connects(white, g.west, g.east) {
            return bad("is a finished game");
        }
        let (flags, m) = (r[32], r[33]);
        if flags > 3 {
            return bad("has unknown flags");
        }
        let winning_move = match (flags & 2 == 2, m) {
            (false, NO_MOVE) => None,
            (true, m) if (m as usize) < n * n && !(black | white).has(m as usize) => Some(m),
            _ => return bad("has a winning move that is not an empty cell, or a loss with one"),
        };
        Ok(Proof {
            black,
            white,
            black_to_move: flags & 1 == 1,
            winning_move,
        })
    }

    /// The winning move as a cell of the n x n board.
    #[must_use]
    pub fn winning_cell(&self, n: usize) -> Option<Cell> {
        self.winning_move.map(|m| Cell::from_index(m as usize, n))
    }
}

fn geometry(n: usize) -> Result<&'static Geometry, HexError> {
    if !(1..=MAX_SIZE).contains(&n) {
        return Err(HexError::BadSize(n));
    }
    Ok(Geometry::of(n))
}

/// The proven positions of one board size and one set of rules, each position once.
///
/// ```
/// use zermelo_hex::{Bitboard, Proof, ProofSet, Rules};
/// let mut set = ProofSet::new(3, Rules::Normal).unwrap();
/// // Black to move on the empty 3x3 board wins at b2 (bit 4).
/// let p = Proof { black: Bitboard(0), white: Bitboard(0), black_to_move: true, winning_move: Some(4) };
/// assert!(set.insert(p).unwrap());
/// let bytes = set.to_bytes();
/// let back = ProofSet::from_bytes(3, Rules::Normal, &bytes).unwrap();
/// assert_eq!(back.len(), 1);
/// // A record read for another board size is another position: refused or different.
/// assert!(ProofSet::from_bytes(2, Rules::Normal, &bytes).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct ProofSet {
    size: usize,
    rules: Rules,
    /// By the search's table key (stones, with the size and the side to move in Black's high
    /// bits): the winning move, or `None` for a loss.
    map: HashMap<(u128, u128), Option<u8>>,
}

impl ProofSet {
    /// An empty set for n x n boards.
    pub fn new(size: usize, rules: Rules) -> Result<ProofSet, HexError> {
        geometry(size)?;
        Ok(ProofSet {
            size,
            rules,
            map: HashMap::new(),
        })
    }

    /// Reads a payload of records (module documentation): each is checked
    /// ([`Proof::from_bytes`]), they must be in strictly increasing order, as
    /// [`ProofSet::to_bytes`] writes them, and no position may come twice.
    pub fn from_bytes(size: usize, rules: Rules, bytes: &[u8]) -> Result<ProofSet, HexError> {
        let mut set = ProofSet::new(size, rules)?;
        if bytes.len() % RECORD_BYTES != 0 {
            return Err(HexError::BadProofs(format!(
                "{} bytes of records is not a whole number of {RECORD_BYTES}-byte records",
                bytes.len()
            )));
        }
        let mut previous: Option<&[u8]> = None;
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            if previous.is_some_and(|p| p >= chunk) {
                return Err(HexError::BadProofs(format!(
                    "record {i} is out of order or repeated"
                )));
            }
            previous = Some(chunk);
            let proof = Proof::from_bytes(size, chunk.try_into().expect("a whole record"))
                .map_err(|e| HexError::BadProofs(format!("record {i}: {e}")))?;
            // Records of one position with other flags or moves differ as bytes.
            if !set.insert(proof)? {
                return Err(HexError::BadProofs(format!(
                    "record {i} repeats a position"
                )));
            }
        }
        Ok(set)
    }

    /// The records of every proof, in increasing order (module documentation).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut records: Vec<[u8; RECORD_BYTES]> = self.iter().map(|p| p.to_bytes()).collect();
        records.sort_unstable();
        records.concat()
    }

    /// Adds a proof; `Ok(false)` if the set holds that position already with the same value.
    /// A proof that contradicts the one held (one says the side to move wins, the other that
    /// it loses) is an error: one of them is wrong.
    pub fn insert(&mut self, proof: Proof) -> Result<bool, HexError> {
        let key = self.key(&proof);
        match self.map.get(&key) {
            None => {
                self.map.insert(key, proof.winning_move);
                Ok(true)
            }
            Some(held) if held.is_some() == proof.winning_move.is_some() => Ok(false),
            Some(_) => Err(HexError::BadProofs(format!(
                "two proofs of one position disagree: black {:#x}, white {:#x}",
                proof.black.0, proof.white.0
            ))),
        }
    }

    /// Adds every proof of `other`, a set of the same board and rules; returns how many
    /// positions were new.
    pub fn merge(&mut self, other: &ProofSet) -> Result<usize, HexError> {
        if (other.size, other.rules) != (self.size, self.rules) {
            return Err(HexError::BadProofs(format!(
                "cannot pool proofs of {} with proofs of {}",
                other.describe(),
                self.describe()
            )));
        }
        let mut added = 0;
        for p in other.iter() {
            added += usize::from(self.insert(p)?);
        }
        Ok(added)
    }

    /// Keeps only the positions with at most `stones` stones on the board, and returns how
    /// many were dropped. With 1, a long run's openings are kept without the millions of
    /// positions below them, small enough to travel with the results between machines.
    pub fn keep_at_most(&mut self, stones: u32) -> usize {
        let mask = Geometry::of(self.size).board.0;
        let before = self.map.len();
        self.map
            .retain(|&(b, w), _| (b & mask).count_ones() + w.count_ones() <= stones);
        before - self.map.len()
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every proof, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Proof> + '_ {
        let mask = Geometry::of(self.size).board.0;
        self.map.iter().map(move |(&(b, w), &winning_move)| Proof {
            black: Bitboard(b & mask),
            white: Bitboard(w),
            black_to_move: b & !mask != key_bits(self.size, false),
            winning_move,
        })
    }

    /// "6x6 normal Hex", for messages.
    fn describe(&self) -> String {
        let rules = match self.rules {
            Rules::Normal => "normal",
            Rules::Misere => "misère",
        };
        format!("{0}x{0} {rules} Hex", self.size)
    }

    fn key(&self, p: &Proof) -> (u128, u128) {
        (p.black.0 | key_bits(self.size, p.black_to_move), p.white.0)
    }

    /// The proof held for a position, given by its table key: `Some(Some(m))` a win by the
    /// move on bit m, `Some(None)` a loss.
    #[inline]
    pub(crate) fn get(&self, kb: Bitboard, kw: Bitboard) -> Option<Option<u8>> {
        if self.map.is_empty() {
            return None;
        }
        self.map.get(&(kb.0, kw.0)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proof(black: u128, white: u128, black_to_move: bool, m: Option<u8>) -> Proof {
        Proof {
            black: Bitboard(black),
            white: Bitboard(white),
            black_to_move,
            winning_move: m,
        }
    }

    #[test]
    fn records_round_trip_and_damaged_ones_are_refused() {
        let good = [
            proof(0, 0, true, Some(4)),
            proof(1 << 1, 1 << 4, true, Some(3)),
            proof(1 << 3, 0, false, None),
        ];
        let mut set = ProofSet::new(3, Rules::Normal).unwrap();
        for p in good {
            assert_eq!(Proof::from_bytes(3, &p.to_bytes()).unwrap(), p);
            assert!(set.insert(p).unwrap());
        }
        let back = ProofSet::from_bytes(3, Rules::Normal, &set.to_bytes()).unwrap();
        let mut listed: Vec<Proof> = back.iter().collect();
        listed.sort();
        let mut want = good.to_vec();
        want.sort();
        assert_eq!(listed, want);
        let bad = [
            proof(1 << 9, 0, true, Some(4)),      // off the 3x3 board
            proof(1 << 4, 1 << 4, true, Some(0)), // two stones on b2
            proof(1 << 8, 0, false, None),        // c3: the rotation of a1 is smaller
            proof(0b1001001, 0, false, None),     // a1 a2 a3: Black has connected
            proof(1 << 1, 0, false, Some(1)),     // the move is on a stone
            proof(1 << 1, 0, false, Some(9)),     // the move is off the board
        ];
        for (i, p) in bad.iter().enumerate() {
            assert!(Proof::from_bytes(3, &p.to_bytes()).is_err(), "record {i}");
        }
        let mut flags = proof(0, 0, true, None).to_bytes();
        flags[32] = 1 | 4;
        assert!(Proof::from_bytes(3, &flags).is_err());
        let mut loss_with_move = proof(0, 0, true, None).to_bytes();
        loss_with_move[33] = 2;
        assert!(Proof::from_bytes(3, &loss_with_move).is_err());
    }

    #[test]
    fn payloads_must_be_whole_ordered_and_of_one_board() {
        let mut set = ProofSet::new(3, Rules::Normal).unwrap();
        set.insert(proof(0, 0, true, Some(4))).unwrap();
        set.insert(proof(1 << 1, 0, false, Some(4))).unwrap();
        let bytes = set.to_bytes();
        assert!(ProofSet::from_bytes(3, Rules::Normal, &bytes[..bytes.len() - 1]).is_err());
        let mut swapped = bytes[RECORD_BYTES..].to_vec();
        swapped.extend_from_slice(&bytes[..RECORD_BYTES]);
        assert!(ProofSet::from_bytes(3, Rules::Normal, &swapped).is_err());
        let mut twice = bytes[..RECORD_BYTES].to_vec();
        twice.extend_from_slice(&bytes[..RECORD_BYTES]);
        assert!(ProofSet::from_bytes(3, Rules::Normal, &twice).is_err());
        // One position twice, with two winning moves: the records differ, the position not.
        let mut moves = bytes[..RECORD_BYTES].to_vec();
        moves.extend_from_slice(&bytes[..RECORD_BYTES]);
        moves[RECORD_BYTES + 33] += 1;
        assert!(ProofSet::from_bytes(3, Rules::Normal, &moves).is_err());
        let other = ProofSet::new(4, Rules::Normal).unwrap();
        assert!(other.clone().merge(&set).is_err());
        let misere = ProofSet::new(3, Rules::Misere).unwrap();
        assert!(misere.clone().merge(&set).is_err());
    }

    #[test]
    fn keeping_the_first_plies_drops_the_deeper_positions() {
        let mut set = ProofSet::new(3, Rules::Normal).unwrap();
        set.insert(proof(0, 0, true, Some(4))).unwrap();
        set.insert(proof(1 << 1, 0, false, Some(4))).unwrap();
        set.insert(proof(0, 1 << 1, true, Some(4))).unwrap();
        set.insert(proof(1 << 1, 1 << 4, true, Some(3))).unwrap();
        // Black's high key bits (size, side to move) must not count as stones.
        assert_eq!(set.keep_at_most(1), 1);
        assert_eq!(set.len(), 3);
        assert!(set.iter().all(|p| p.black.count() + p.white.count() <= 1));
        assert_eq!(set.keep_at_most(0), 2);
        let left: Vec<Proof> = set.iter().collect();
        assert_eq!(left, [proof(0, 0, true, Some(4))]);
    }

    #[test]
    fn contradicting_proofs_are_refused() {
        let mut set = ProofSet::new(3, Rules::Normal).unwrap();
        assert!(set.insert(proof(0, 0, true, Some(4))).unwrap());
        // The same value with another winning move is the same proven value.
        assert!(!set.insert(proof(0, 0, true, Some(0))).unwrap());
        assert!(set.insert(proof(0, 0, true, None)).is_err());
        // The other side to move is another position.
        assert!(set.insert(proof(0, 0, false, None)).unwrap());
        assert_eq!(set.len(), 2);
    }
}
