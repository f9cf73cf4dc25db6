//! [`Bitboard`]: a set of cells of a board up to 11x11, one bit per cell.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells, one bit per cell: cell (x, y) of an n x n board is bit `y * n + x`.
///
/// ```
/// use zermelo_hex::Bitboard;
/// let a = Bitboard(0b0110);
/// let b = Bitboard(0b0011);
/// assert_eq!(a & b, Bitboard(0b0010));
/// assert_eq!((a | b).count(), 3);
/// assert_eq!(a.cells().collect::<Vec<_>>(), vec![1, 2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u128);

macro_rules! bit_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only cell index `i`.
    #[inline(always)]
    #[must_use]
    pub const fn single(i: usize) -> Bitboard {
        Bitboard(1u128 << i)
    }

    /// Whether the set is empty.
    #[inline(always)]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cells in the set.
    #[inline(always)]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether cell index `i` is in the set.
    #[inline(always)]
    #[must_use]
    pub const fn has(self, i: usize) -> bool {
        self.0 >> i & 1 != 0
    }

    /// The set with cell index `i` added.
    #[inline(always)]
    #[must_use]
    pub const fn with(self, i: usize) -> Bitboard {
        Bitboard(self.0 | 1u128 << i)
    }

    /// The cells of `self` that are not in `other`.
    #[inline(always)]
    #[must_use]
    pub const fn minus(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The lowest cell index in the set, if any.
    #[inline(always)]
    #[must_use]
    pub const fn first(self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// The cell indices in increasing order.
    #[must_use]
    pub fn cells(self) -> Cells {
        Cells(self.0)
    }
}

/// Iterator over the cell indices of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Cells(u128);

impl Iterator for Cells {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}
