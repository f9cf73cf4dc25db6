//! Where a search stood: the open entries of the transposition table, saved beside the proofs
//! so that a killed run goes on from them ([`Solver::table_snapshot`],
//! [`Solver::restore_table`]).
//!
//! Kept proofs ([`super::proofs`]) hold exact results only. What a killed run loses beyond them
//! is the state of the proofs it was still working on: the proof and disproof numbers that
//! steer df-pn to the most promising positions, built up over minutes of search, and the first
//! estimates of their children, each of which cost an analysis. A snapshot keeps every open
//! entry that took at least one expansion, with the first estimates of its children that the
//! table still holds (a child's first estimate is 1 for its proof number and its number of
//! candidate moves for its disproof number, so it takes two bytes; the few entries of no work
//! with a proof number of 1 and a larger disproof number are kept the same way), so that a resumed search
//! walks straight back to where it was without analysing those children again. Proof and
//! disproof numbers only steer the search, and a proven value comes only from proven children
//! (numbers of 0 are refused): a snapshot, right or wrong, can never change an answer.
//!
//! The payload is a sequence of entries, little-endian, each of [`SNAPSHOT_ENTRY_BYTES`] bytes
//! and then two bytes for each child estimate:
//!
//! ```text
//! offset  size  content
//! 0       16    Black's stones: bit y·n + x for cell (x, y), a u128
//! 16      16    White's stones, the same way
//! 32      1     flags: bit 0 Black to move; other bits 0
//! 33      4     proof number, 1 to MAX_PN
//! 37      4     disproof number, 1 to MAX_PN
//! 41      1     work: log2 of the nodes spent on the position, 1 to 63
//! 42      1     k, the number of child estimates that follow
//! 43      2k    for each: the move (its bit index, an empty cell), and the child's disproof
//!               number (1 to 255; its proof number is 1)
//! ```
//!
//! Positions are in the canonical orientation of the search (see [`super::proofs`]); a move is
//! given on that board.

use super::search::{key_bits, Node, Search};
use super::Solver;
use crate::{Bitboard, Geometry, HexError, TtData, MAX_PN, MAX_SIZE};

/// The length of the fixed part of an entry of a table snapshot, in bytes.
pub const SNAPSHOT_ENTRY_BYTES: usize = 43;

/// The counts of a snapshot: entries, and child estimates in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnapshotCounts {
    /// Open entries that took at least one expansion.
    pub entries: usize,
    /// First estimates of their children.
    pub estimates: usize,
}

impl Solver {
    /// The open entries of n x n positions that took at least one expansion, with their
    /// children's first estimates, as a payload (module documentation), in no particular
    /// order, and its counts. Safe to call while searches run: each entry is read
    /// consistently, and one being written is left out.
    #[must_use]
    pub fn table_snapshot(&self, n: usize) -> (Vec<u8>, SnapshotCounts) {
        let mut out = Vec::new();
        let mut counts = SnapshotCounts::default();
        let search = Search::new(self.table(), &self.caches, self.rules(), n);
        let board = Geometry::of(n).board;
        for (kb, kw, data) in self.table().entries() {
            let TtData::Open { pn, dn, work } = data else {
                continue;
            };
            let high = kb.0 & !board.0;
            let black_to_move = high == key_bits(n, true);
            if work == 0 || !(black_to_move || high == key_bits(n, false)) {
                continue;
            }
            let node = Node {
                black: Bitboard(kb.0 & board.0),
                white: kw,
                black_to_move,
            };
            out.extend_from_slice(&node.black.0.to_le_bytes());
            out.extend_from_slice(&node.white.0.to_le_bytes());
            out.push(u8::from(black_to_move));
            out.extend_from_slice(&pn.to_le_bytes());
            out.extend_from_slice(&dn.to_le_bytes());
            out.push(work);
            let k_at = out.len();
            out.push(0);
            for m in board.minus(node.black | node.white).cells() {
                let (cb, cw) = search.key(node.play(m));
                if let Some(TtData::Open {
                    pn: 1,
                    dn: cdn @ 1..=255,
                    work: 0,
                }) = self.table().probe(cb, cw)
                {
                    out.extend_from_slice(&[m as u8, cdn as u8]);
                    out[k_at] += 1;
                    counts.estimates += 1;
                }
            }
            counts.entries += 1;
        }
        (out, counts)
    }

    /// Puts back the entries of a [`Solver::table_snapshot`] of n x n positions and the child
    /// estimates with them; returns their counts. Every entry is checked first (stones on the
    /// board and on distinct cells, canonical orientation, numbers in range, moves on empty
    /// cells), and a payload with any bad entry is refused whole, so a damaged snapshot is
    /// reported, never half used.
    pub fn restore_table(&self, n: usize, bytes: &[u8]) -> Result<SnapshotCounts, HexError> {
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(HexError::BadSize(n));
        }
        let g = Geometry::of(n);
        let search = Search::new(self.table(), &self.caches, self.rules(), n);
        let mut restore = Vec::new();
        let mut counts = SnapshotCounts::default();
        let mut at = 0;
        while at < bytes.len() {
            let bad =
                |why: &str| HexError::BadProofs(format!("table entry {} {why}", counts.entries));
            let (node, pn, dn, work) =
                entry(g, bytes.get(at..at + SNAPSHOT_ENTRY_BYTES)).map_err(&bad)?;
            let k = bytes[at + SNAPSHOT_ENTRY_BYTES - 1] as usize;
            let estimates = bytes
                .get(at + SNAPSHOT_ENTRY_BYTES..at + SNAPSHOT_ENTRY_BYTES + 2 * k)
                .ok_or_else(|| bad("is cut short"))?;
            let (kb, kw) = search.key(node);
            restore.push((kb, kw, TtData::Open { pn, dn, work }));
            let empty = g.board.minus(node.black | node.white);
            for e in estimates.chunks_exact(2) {
                let (m, cdn) = (e[0] as usize, u32::from(e[1]));
                if m >= n * n || !empty.has(m) || cdn == 0 {
                    return Err(bad("has a child estimate out of range"));
                }
                let (cb, cw) = search.key(node.play(m));
                let first = TtData::Open {
                    pn: 1,
                    dn: cdn,
                    work: 0,
                };
                restore.push((cb, cw, first));
            }
            counts.entries += 1;
            counts.estimates += k;
            at += SNAPSHOT_ENTRY_BYTES + 2 * k;
        }
        for &(kb, kw, data) in &restore {
            self.table().restore(kb, kw, data);
        }
        Ok(counts)
    }
}

/// The fixed part of an entry as a position and its numbers, or why it is refused.
fn entry(g: &Geometry, r: Option<&[u8]>) -> Result<(Node, u32, u32, u8), &'static str> {
    let r = r.ok_or("is cut short")?;
    let word = |at: usize| u128::from_le_bytes(r[at..at + 16].try_into().expect("16 bytes"));
    let number = |at: usize| u32::from_le_bytes(r[at..at + 4].try_into().expect("4 bytes"));
    let (black, white) = (Bitboard(word(0)), Bitboard(word(16)));
    if !black.minus(g.board).is_empty() || !white.minus(g.board).is_empty() {
        return Err("has stones off the board");
    }
    if !(black & white).is_empty() {
        return Err("has a cell with two stones");
    }
    if (g.rotate(black), g.rotate(white)) < (black, white) {
        return Err("is not in canonical orientation");
    }
    let (flags, pn, dn, work) = (r[32], number(33), number(37), r[41]);
    let numbers = [pn, dn].iter().all(|x| (1..=MAX_PN).contains(x)) && (1..=63).contains(&work);
    if flags > 1 || !numbers {
        return Err("has numbers out of range");
    }
    let node = Node {
        black,
        white,
        black_to_move: flags == 1,
    };
    Ok((node, pn, dn, work))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Rules, SolverConfig};

    fn solver(rules: Rules) -> Solver {
        Solver::new(SolverConfig {
            rules,
            threads: 1,
            tt_mb: 4,
        })
        .unwrap()
    }

    /// Where each entry of a payload starts.
    fn starts(bytes: &[u8]) -> Vec<usize> {
        let mut at = 0;
        let mut list = Vec::new();
        while at < bytes.len() {
            list.push(at);
            at += SNAPSHOT_ENTRY_BYTES + 2 * bytes[at + SNAPSHOT_ENTRY_BYTES - 1] as usize;
        }
        list
    }

    /// The entries of a payload, sorted.
    fn sorted(bytes: &[u8]) -> Vec<&[u8]> {
        let mut s = starts(bytes);
        s.push(bytes.len());
        let mut list: Vec<&[u8]> = s.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
        list.sort_unstable();
        list
    }

    /// A snapshot taken after a search goes back into a fresh table entry for entry, and a
    /// search from it gives the answer of a fresh search, even with numbers that point it the
    /// wrong way.
    #[test]
    fn a_snapshot_round_trips_and_never_changes_an_answer() {
        let mut estimates = 0;
        // Normal play proves 5x5 after a1 leaving no open entry (the templates with a second
        // stone decide it early): 6x6 there.
        for (rules, n) in [(Rules::Normal, 6), (Rules::Misere, 5)] {
            let first = solver(rules);
            let p = Position::from_moves(n, "a1").unwrap();
            let want = first.solve(&p, true).unwrap();
            let (bytes, counts) = first.table_snapshot(n);
            assert!(counts.entries > 0, "{counts:?}");
            estimates += counts.estimates;
            assert_eq!(starts(&bytes).len(), counts.entries);
            assert_eq!(first.table_snapshot(4).1, SnapshotCounts::default());
            let second = solver(rules);
            assert_eq!(second.restore_table(n, &bytes).unwrap(), counts);
            let (mut again, _) = second.table_snapshot(n);
            assert_eq!(sorted(&bytes), sorted(&again));
            let got = second.solve(&p, true).unwrap();
            assert_eq!(
                (got.winner, &got.winning_moves),
                (want.winner, &want.winning_moves)
            );
            for at in starts(&again.clone()) {
                let (pn, dn) = (at + 33, at + 37);
                let swapped = [&again[dn..dn + 4], &again[pn..pn + 4]].concat();
                again[pn..pn + 8].copy_from_slice(&swapped);
                let k = again[at + SNAPSHOT_ENTRY_BYTES - 1] as usize;
                for e in 0..k {
                    again[at + SNAPSHOT_ENTRY_BYTES + 2 * e + 1] = 1 + e as u8 % 25;
                }
            }
            let third = solver(rules);
            third.restore_table(n, &again).unwrap();
            let got = third.solve(&p, true).unwrap();
            assert_eq!(
                (got.winner, &got.winning_moves),
                (want.winner, &want.winning_moves)
            );
        }
        assert!(estimates > 0, "the misère search leaves child estimates");
    }

    #[test]
    fn damaged_entries_are_refused_whole() {
        let s = solver(Rules::Misere);
        s.solve(&Position::from_moves(5, "a1 b2").unwrap(), false)
            .unwrap();
        let (good, _) = s.table_snapshot(5);
        // An entry after the first, with child estimates.
        let second = *starts(&good)[1..]
            .iter()
            .find(|&&at| good[at + SNAPSHOT_ENTRY_BYTES - 1] > 0)
            .expect("estimates to damage");
        let damage = |at: usize, byte: u8| {
            let mut bad = good.clone();
            bad[second + at] = byte;
            bad
        };
        let estimate = SNAPSHOT_ENTRY_BYTES;
        let bad = [
            damage(4, 0xff),                 // stones off the 5x5 board
            damage(32, 2),                   // unknown flags
            damage(41, 0),                   // work 0
            damage(41, 64),                  // work beyond 63
            damage(estimate, 25),            // a move off the board
            damage(estimate + 1, 0),         // a child estimate of 0
            good[..good.len() - 1].to_vec(), // cut short
        ];
        for (i, b) in bad.iter().enumerate() {
            let fresh = solver(Rules::Misere);
            assert!(fresh.restore_table(5, b).is_err(), "case {i}");
            assert!(
                fresh.table().entries().next().is_none(),
                "case {i} restored nothing"
            );
        }
        // A proof number of 0.
        let mut zero = good.clone();
        zero[33..37].copy_from_slice(&0u32.to_le_bytes());
        assert!(solver(Rules::Misere).restore_table(5, &zero).is_err());
        let mut both = good.clone();
        both[..16].copy_from_slice(&1u128.to_le_bytes());
        both[16..32].copy_from_slice(&1u128.to_le_bytes());
        assert!(solver(Rules::Misere).restore_table(5, &both).is_err());
        assert!(solver(Rules::Misere).restore_table(12, &good).is_err());
    }
}
