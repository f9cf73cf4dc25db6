//! Retrograde tables over several heaps: Nim and Moore's Nim_k (a move takes tokens from at
//! least one and at most k heaps), in normal or misère play. The whole product space of heap
//! sizes is solved by dynamic programming, so these tables check the closed forms (Bouton's XOR
//! rule, Moore's rule, the misère rule) rather than rely on them.

use crate::GrundyError;

/// The most positions a multi-heap table may have (two bytes each).
pub const MAX_POSITIONS: u128 = 1 << 30;

/// A multi-heap game: `heaps` heaps of at most `max_heap` tokens each, moves that reduce between
/// 1 and `k` heaps (k = 1 is Nim), normal or misère play.
///
/// ```
/// use zermelo_grundy::multiheap::MultiHeapGame;
/// let nim = MultiHeapGame::new(3, 7, 1, false).unwrap();
/// let table = nim.solve().unwrap();
/// assert_eq!(table.value(&[3, 5, 6]), 3 ^ 5 ^ 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultiHeapGame {
    heaps: usize,
    max_heap: usize,
    k: usize,
    misere: bool,
}

/// The solved table of a [`MultiHeapGame`]: for normal play the Grundy value of every
/// position, for misère play its misère value (0 exactly for P-positions).
#[derive(Debug, Clone)]
pub struct MultiHeapTable {
    game: MultiHeapGame,
    values: Vec<u16>,
}

impl MultiHeapGame {
    /// A game description; refuses zero heaps, k = 0 and tables beyond [`MAX_POSITIONS`].
    pub fn new(heaps: usize, max_heap: usize, k: usize, misere: bool) -> Result<Self, GrundyError> {
        if heaps == 0 {
            return Err(GrundyError::BadMultiHeap(
                "at least one heap is needed".into(),
            ));
        }
        if k == 0 {
            return Err(GrundyError::BadMultiHeap(
                "k must be at least 1 (a move changes at least one heap)".into(),
            ));
        }
        let positions = u32::try_from(heaps)
            .ok()
            .and_then(|h| (max_heap as u128 + 1).checked_pow(h));
        match positions {
            Some(p) if p <= MAX_POSITIONS => {}
            _ => {
                return Err(GrundyError::TooLarge {
                    what: format!("{heaps} heaps of up to {max_heap}"),
                    needed: positions.unwrap_or(u128::MAX).saturating_mul(2),
                    limit: MAX_POSITIONS * 2,
                })
            }
        }
        Ok(MultiHeapGame {
            heaps,
            max_heap,
            k,
            misere,
        })
    }

    /// Solves every position by increasing index (every move lowers the index).
    pub fn solve(&self) -> Result<MultiHeapTable, GrundyError> {
        let radix = self.max_heap + 1;
        let size = radix.pow(self.heaps as u32);
        let mut values = vec![0u16; size];
        let mut heaps = vec![0usize; self.heaps];
        let mut seen = Vec::new();
        for index in 0..size {
            let mut rest = index;
            for h in heaps.iter_mut() {
                *h = rest % radix;
                rest /= radix;
            }
            seen.clear();
            let mut any = false;
            self.for_each_option(&heaps, &mut |option| {
                any = true;
                let v = usize::from(values[option]);
                if seen.len() <= v {
                    seen.resize(v + 1, false);
                }
                seen[v] = true;
            });
            let v = if self.misere && !any {
                1
            } else {
                seen.iter().position(|&b| !b).unwrap_or(seen.len())
            };
            values[index] = u16::try_from(v).map_err(|_| GrundyError::ValueOverflow {
                at: format!("heaps {heaps:?}"),
            })?;
        }
        Ok(MultiHeapTable {
            game: *self,
            values,
        })
    }

    /// Calls `f` with the index of every option of `heaps`.
    fn for_each_option(&self, heaps: &[usize], f: &mut dyn FnMut(usize)) {
        let radix = self.max_heap + 1;
        let index: usize = heaps.iter().rev().fold(0, |acc, &h| acc * radix + h);
        let mut weights = Vec::with_capacity(heaps.len());
        let mut w = 1;
        for _ in heaps {
            weights.push(w);
            w *= radix;
        }
        // Chooses, heap by heap, how much to take (0 = leave it); `changed` counts the heaps
        // reduced so far.
        fn walk(
            i: usize,
            index: usize,
            changed: usize,
            heaps: &[usize],
            weights: &[usize],
            k: usize,
            f: &mut dyn FnMut(usize),
        ) {
            if i == heaps.len() {
                if changed > 0 {
                    f(index);
                }
                return;
            }
            walk(i + 1, index, changed, heaps, weights, k, f);
            if changed < k {
                for take in 1..=heaps[i] {
                    walk(
                        i + 1,
                        index - take * weights[i],
                        changed + 1,
                        heaps,
                        weights,
                        k,
                        f,
                    );
                }
            }
        }
        walk(0, index, 0, heaps, &weights, self.k, f);
    }
}

impl MultiHeapTable {
    /// The value of a position (heap sizes, each at most the table's `max_heap`).
    ///
    /// # Panics
    /// If the position has the wrong number of heaps or a heap beyond the table.
    #[must_use]
    pub fn value(&self, heaps: &[usize]) -> u16 {
        assert_eq!(heaps.len(), self.game.heaps, "wrong number of heaps");
        let radix = self.game.max_heap + 1;
        let index = heaps.iter().rev().fold(0, |acc, &h| {
            assert!(h < radix, "heap beyond the table");
            acc * radix + h
        });
        self.values[index]
    }

    /// Whether a position is a P-position (the player to move loses).
    #[must_use]
    pub fn is_p(&self, heaps: &[usize]) -> bool {
        self.value(heaps) == 0
    }
}

/// Moore's rule: a position of Nim_k is a normal-play P-position exactly when, in every binary
/// column, the number of heaps with that bit set is a multiple of k + 1. (k = 1: Bouton's rule.)
///
/// ```
/// use zermelo_grundy::multiheap::moore_p;
/// assert!(moore_p(&[1, 2, 3], 1));
/// assert!(moore_p(&[1, 1, 1], 2));
/// assert!(!moore_p(&[1, 1], 2));
/// ```
#[must_use]
pub fn moore_p(heaps: &[usize], k: usize) -> bool {
    (0..usize::BITS).all(|bit| heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() % (k + 1) == 0)
}

/// The misère rule for Nim_k: while some heap has two or more tokens, play as in normal play;
/// once every heap has at most one, the P-positions are those with a number of ones that is
/// 1 more than a multiple of k + 1.
///
/// ```
/// use zermelo_grundy::multiheap::moore_misere_p;
/// assert!(moore_misere_p(&[1], 1));
/// assert!(moore_misere_p(&[2, 2], 1));
/// assert!(!moore_misere_p(&[0, 0], 1));
/// ```
#[must_use]
pub fn moore_misere_p(heaps: &[usize], k: usize) -> bool {
    if heaps.iter().all(|&h| h <= 1) {
        heaps.iter().filter(|&&h| h == 1).count() % (k + 1) == 1
    } else {
        moore_p(heaps, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(heaps: usize, max: usize) -> Vec<Vec<usize>> {
        let mut out = vec![vec![]];
        for _ in 0..heaps {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..=max).map(move |h| {
                        let mut q = p.clone();
                        q.push(h);
                        q
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn nim_values_follow_bouton() {
        let table = MultiHeapGame::new(3, 9, 1, false).unwrap().solve().unwrap();
        for p in positions(3, 9) {
            assert_eq!(usize::from(table.value(&p)), p[0] ^ p[1] ^ p[2], "{p:?}");
        }
    }

    #[test]
    fn moore_p_positions_follow_moores_rule() {
        for (heaps, max, k) in [(3, 7, 2), (4, 5, 2), (4, 4, 3), (5, 3, 2), (3, 6, 1)] {
            let table = MultiHeapGame::new(heaps, max, k, false)
                .unwrap()
                .solve()
                .unwrap();
            for p in positions(heaps, max) {
                assert_eq!(table.is_p(&p), moore_p(&p, k), "{p:?} k={k}");
            }
        }
    }

    #[test]
    fn misere_p_positions_follow_the_misere_rule() {
        for (heaps, max, k) in [(3, 7, 1), (4, 5, 1), (3, 6, 2), (4, 4, 3)] {
            let table = MultiHeapGame::new(heaps, max, k, true)
                .unwrap()
                .solve()
                .unwrap();
            for p in positions(heaps, max) {
                assert_eq!(table.is_p(&p), moore_misere_p(&p, k), "{p:?} k={k}");
            }
        }
    }

    #[test]
    fn six_heaps_of_the_dp_slides() {
        // The dp[2][4][6][8][10][12] example: heaps up to 1, 3, 5, 7, 9, 11 (here all up to 5).
        let table = MultiHeapGame::new(6, 5, 1, false).unwrap().solve().unwrap();
        let p = [1, 3, 5, 4, 2, 5];
        assert_eq!(usize::from(table.value(&p)), p.iter().fold(0, |x, h| x ^ h));
    }

    #[test]
    fn absurd_sizes_are_refused_before_allocating() {
        assert!(matches!(
            MultiHeapGame::new(10, 1000, 1, false),
            Err(GrundyError::TooLarge { .. })
        ));
        assert!(MultiHeapGame::new(0, 3, 1, false).is_err());
        assert!(MultiHeapGame::new(2, 3, 0, false).is_err());
    }
}
