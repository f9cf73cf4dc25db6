//! The ranking of a layer's positions: the combinatorial number system, black set first.
//!
//! A set of k cells {s₀ < s₁ < … < s_{k−1}} among m cells has rank Σⱼ C(sⱼ, j + 1), a number
//! from 0 to C(m, k) − 1; as a bit mask the sets come in increasing numeric order (colex), so
//! the next set is the next larger mask with as many bits (Gosper's rule). A position of layer
//! `stones` has b = ⌈stones / 2⌉ black and w = ⌊stones / 2⌋ white stones; its index is
//!
//! ```text
//! index = rank(B among the n² cells) · C(n² − b, w) + rank(W among the n² − b cells not black)
//! ```
//!
//! where the cells not black are numbered 0, 1, … in increasing cell order (cell y·n + x for
//! column x, row y, so a1 = 0, b1 = 1, a2 = n). The positions of a layer are thus numbered 0 to
//! C(n², b) · C(n² − b, w) − 1 with no gaps.

use super::StrongError;

/// The largest board whose layers the ranking numbers: 36 cells fit a `u64` mask, and every
/// layer of a 6x6 board has fewer than 2⁶⁴ positions.
pub const MAX_STRONG_SIZE: usize = 6;

const MAX_CELLS: usize = MAX_STRONG_SIZE * MAX_STRONG_SIZE;

/// Room for the prefix sums of a set of up to 36 cells (one entry more than cells).
pub(crate) const SUMS: usize = MAX_CELLS + 1;

/// Binomial coefficients C(m, k) for m, k ≤ 37 (k beyond m gives 0).
#[derive(Debug, Clone)]
pub(crate) struct Binomials([[u64; MAX_CELLS + 2]; MAX_CELLS + 2]);

impl Binomials {
    fn new() -> Binomials {
        let mut c = [[0u64; MAX_CELLS + 2]; MAX_CELLS + 2];
        for m in 0..MAX_CELLS + 2 {
            c[m][0] = 1;
            for k in 1..=m {
                c[m][k] = c[m - 1][k - 1] + if k < m { c[m - 1][k] } else { 0 };
            }
        }
        Binomials(c)
    }

    /// C(m, k).
    #[inline]
    pub(crate) fn get(&self, m: usize, k: usize) -> u64 {
        self.0[m][k]
    }
}

/// The rank of a set of cells given as a bit mask, among sets of its size.
#[inline]
pub(crate) fn rank_set(binom: &Binomials, mut set: u64) -> u64 {
    let mut rank = 0;
    let mut j = 1;
    while set != 0 {
        rank += binom.get(set.trailing_zeros() as usize, j);
        j += 1;
        set &= set - 1;
    }
    rank
}

/// The set of `k` cells among `m` with rank `rank` (the inverse of [`rank_set`]).
fn unrank_set(binom: &Binomials, mut rank: u64, k: usize, m: usize) -> u64 {
    let mut set = 0;
    let mut top = m;
    for j in (1..=k).rev() {
        // The largest s below top with C(s, j) ≤ rank; C(j − 1, j) = 0 bounds the search.
        let mut s = top - 1;
        while binom.get(s, j) > rank {
            s -= 1;
        }
        set |= 1 << s;
        rank -= binom.get(s, j);
        top = s;
    }
    set
}

/// The next larger mask with as many bits as `set` (which must not be 0).
#[inline]
pub(crate) fn next_set(set: u64) -> u64 {
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    (((ripple ^ set) >> 2) >> low.trailing_zeros()) | ripple
}

/// The cells of `free` picked by `compact`: bit j of `compact` picks the j-th cell of `free`.
#[inline]
pub(crate) fn deposit(mut compact: u64, mut free: u64) -> u64 {
    let mut out = 0;
    while compact != 0 {
        let cell = free & free.wrapping_neg();
        if compact & 1 != 0 {
            out |= cell;
        }
        compact >>= 1;
        free ^= cell;
    }
    out
}

/// The inverse of [`deposit`]: `set` (a subset of `free`) renumbered by its place among `free`.
#[inline]
pub(crate) fn compact(set: u64, free: u64) -> u64 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        out |= 1 << (free & (cell - 1)).count_ones();
        rest ^= cell;
    }
    out
}

/// The numbering of every layer of an n x n board.
///
/// ```
/// use zermelo_hex::strong::Ranking;
/// let ranking = Ranking::new(2)?;
/// // One black and one white stone on 2x2: 4 places for Black, 3 left for White.
/// assert_eq!(ranking.layer_len(2), 12);
/// let (black, white) = ranking.position(2, 5);
/// assert_eq!(ranking.index(black, white)?, (2, 5));
/// # Ok::<(), zermelo_hex::strong::StrongError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Ranking {
    size: usize,
    binom: Binomials,
}

impl Ranking {
    /// The ranking of the `size` x `size` board (1 to [`MAX_STRONG_SIZE`]).
    pub fn new(size: usize) -> Result<Ranking, StrongError> {
        if size == 0 || size > MAX_STRONG_SIZE {
            return Err(StrongError::SizeOutOfRange(size));
        }
        Ok(Ranking {
            size,
            binom: Binomials::new(),
        })
    }

    /// The board size n.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of cells, n².
    #[must_use]
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// The binomial table.
    pub(crate) fn binom(&self) -> &Binomials {
        &self.binom
    }

    /// How many black and white stones a position of layer `stones` has: Black moves first.
    #[must_use]
    pub fn stone_counts(stones: usize) -> (usize, usize) {
        (stones.div_ceil(2), stones / 2)
    }

    /// The number of white sets for each black set of layer `stones`: C(n² − b, w).
    #[must_use]
    pub(crate) fn white_sets(&self, stones: usize) -> u64 {
        let (b, w) = Ranking::stone_counts(stones);
        self.binom.get(self.cells() - b, w)
    }

    /// The number of positions of layer `stones` (0 to n²).
    ///
    /// ```
    /// use zermelo_hex::strong::Ranking;
    /// let r = Ranking::new(5)?;
    /// let all: u64 = (0..=25).map(|k| r.layer_len(k)).sum();
    /// assert_eq!(all, 161_995_031_226);
    /// # Ok::<(), zermelo_hex::strong::StrongError>(())
    /// ```
    #[must_use]
    pub fn layer_len(&self, stones: usize) -> u64 {
        let (b, _) = Ranking::stone_counts(stones);
        self.binom.get(self.cells(), b) * self.white_sets(stones)
    }

    /// The layer and index of the position with `black` and `white` stones (bit y·n + x for
    /// column x, row y); errors for stones off the board, on one cell, or counts no game
    /// reaches (Black has as many stones as White or one more).
    pub fn index(&self, black: u64, white: u64) -> Result<(usize, u64), StrongError> {
        let cells = self.cells();
        let board = if cells == 64 {
            u64::MAX
        } else {
            (1 << cells) - 1
        };
        if (black | white) & !board != 0 {
            return Err(StrongError::OffBoard { size: self.size });
        }
        if black & white != 0 {
            return Err(StrongError::Overlap);
        }
        let (b, w) = (black.count_ones() as usize, white.count_ones() as usize);
        if b != w && b != w + 1 {
            return Err(StrongError::StoneCounts { black: b, white: w });
        }
        let stones = b + w;
        let free = board & !black;
        let index = rank_set(&self.binom, black) * self.white_sets(stones)
            + rank_set(&self.binom, compact(white, free));
        Ok((stones, index))
    }

    /// The black and white stones of position `index` of layer `stones` (the inverse of
    /// [`Ranking::index`]); `index` must be below [`Ranking::layer_len`].
    #[must_use]
    pub fn position(&self, stones: usize, index: u64) -> (u64, u64) {
        let (b, w) = Ranking::stone_counts(stones);
        let cells = self.cells();
        let white_sets = self.white_sets(stones);
        let black = unrank_set(&self.binom, index / white_sets, b, cells);
        let compact_white = unrank_set(&self.binom, index % white_sets, w, cells - b);
        let board = if cells == 64 {
            u64::MAX
        } else {
            (1 << cells) - 1
        };
        (black, deposit(compact_white, board & !black))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_in_mask_order() {
        let binom = Binomials::new();
        for (m, k) in [(6, 0), (6, 1), (6, 3), (9, 4), (10, 10)] {
            let mut set: u64 = (1 << k) - 1;
            for r in 0..binom.get(m, k) {
                assert_eq!(rank_set(&binom, set), r);
                assert_eq!(unrank_set(&binom, r, k, m), set);
                if k > 0 {
                    set = next_set(set);
                }
            }
            assert!(
                k == 0 || set >> m != 0,
                "m {m} k {k}: more sets than C(m, k)"
            );
        }
    }

    #[test]
    fn deposit_and_compact_are_inverse() {
        let free = 0b1011_0110_1101u64;
        for compact_set in 0..1u64 << free.count_ones() {
            let set = deposit(compact_set, free);
            assert_eq!(set & !free, 0);
            assert_eq!(compact(set, free), compact_set);
        }
    }

    #[test]
    fn every_3x3_position_has_one_index() {
        let r = Ranking::new(3).unwrap();
        for stones in 0..=9 {
            let mut seen = vec![false; r.layer_len(stones) as usize];
            for index in 0..r.layer_len(stones) {
                let (black, white) = r.position(stones, index);
                assert_eq!(r.index(black, white).unwrap(), (stones, index));
                assert!(!seen[index as usize]);
                seen[index as usize] = true;
            }
        }
    }

    #[test]
    fn bad_positions_are_errors() {
        let r = Ranking::new(2).unwrap();
        assert_eq!(r.index(1, 1), Err(StrongError::Overlap));
        assert_eq!(
            r.index(0, 1),
            Err(StrongError::StoneCounts { black: 0, white: 1 })
        );
        assert_eq!(r.index(1 << 4, 0), Err(StrongError::OffBoard { size: 2 }));
        assert!(Ranking::new(7).is_err());
        assert!(Ranking::new(0).is_err());
    }
}
