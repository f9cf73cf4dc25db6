//! Board geometry: the masks of each board size, computed at compile time, and the bit-parallel
//! neighbourhood and connection tests built on them.

use crate::Bitboard;

/// The largest board size zermelo handles (11x11 = 121 cells fit one `u128`).
pub const MAX_SIZE: usize = 11;

/// The masks of one board size. Obtain it with [`Geometry::of`].
///
/// Cell (x, y) is bit `y * n + x`; the six neighbours of (x, y) are (x±1, y), (x, y±1),
/// (x+1, y−1) and (x−1, y+1), so neighbourhoods are shifts by 1, n and n−1, with the first or
/// last column masked off where a shift would wrap around a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// The board size n.
    pub n: usize,
    /// All n² cells.
    pub board: Bitboard,
    /// Row 1 (y = 0), Black's first edge.
    pub north: Bitboard,
    /// Row n (y = n − 1), Black's second edge.
    pub south: Bitboard,
    /// Column a (x = 0), White's first edge.
    pub west: Bitboard,
    /// The last column (x = n − 1), White's second edge.
    pub east: Bitboard,
}

const fn build(n: usize) -> Geometry {
    let mut board = 0u128;
    let mut north = 0u128;
    let mut south = 0u128;
    let mut west = 0u128;
    let mut east = 0u128;
    let mut y = 0;
    while y < n {
        let mut x = 0;
        while x < n {
            let bit = 1u128 << (y * n + x);
            board |= bit;
            if y == 0 {
                north |= bit;
            }
            if y == n - 1 {
                south |= bit;
            }
            if x == 0 {
                west |= bit;
            }
            if x == n - 1 {
                east |= bit;
            }
            x += 1;
        }
        y += 1;
    }
    Geometry {
        n,
        board: Bitboard(board),
        north: Bitboard(north),
        south: Bitboard(south),
        west: Bitboard(west),
        east: Bitboard(east),
    }
}

const fn build_all() -> [Geometry; MAX_SIZE + 1] {
    let mut all = [build(1); MAX_SIZE + 1];
    let mut n = 1;
    while n <= MAX_SIZE {
        all[n] = build(n);
        n += 1;
    }
    all
}

/// The neighbours of each cell of an n x n board, by the definition (for lookups in loops).
const fn cell_neighbours_of(n: usize) -> [Bitboard; MAX_SIZE * MAX_SIZE] {
    let mut out = [Bitboard(0); MAX_SIZE * MAX_SIZE];
    let mut i = 0;
    while i < n * n {
        let (x, y) = ((i % n) as i64, (i / n) as i64);
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
        let mut k = 0;
        let mut set = 0u128;
        while k < 6 {
            let (nx, ny) = (x + steps[k].0, y + steps[k].1);
            if nx >= 0 && ny >= 0 && nx < n as i64 && ny < n as i64 {
                set |= 1u128 << (ny as usize * n + nx as usize);
            }
            k += 1;
        }
        out[i] = Bitboard(set);
        i += 1;
    }
    out
}

const fn all_cell_neighbours() -> [[Bitboard; MAX_SIZE * MAX_SIZE]; MAX_SIZE + 1] {
    let mut all = [[Bitboard(0); MAX_SIZE * MAX_SIZE]; MAX_SIZE + 1];
    let mut n = 1;
    while n <= MAX_SIZE {
        all[n] = cell_neighbours_of(n);
        n += 1;
    }
    all
}

static CELL_NEIGHBOURS: [[Bitboard; MAX_SIZE * MAX_SIZE]; MAX_SIZE + 1] = all_cell_neighbours();

/// Index 0 is a placeholder (a copy of size 1) so that `GEOMETRIES[n]` is size n.
static GEOMETRIES: [Geometry; MAX_SIZE + 1] = build_all();

impl Geometry {
    /// The geometry of an n x n board.
    ///
    /// # Panics
    /// If `n` is not in `1..=11`; callers validate sizes first (see [`crate::Position::new`]).
    #[inline(always)]
    #[must_use]
    pub fn of(n: usize) -> &'static Geometry {
        assert!((1..=MAX_SIZE).contains(&n), "board size {n} out of range");
        &GEOMETRIES[n]
    }

    /// The cells adjacent to some cell of `s` (not including `s` itself unless adjacent).
    ///
    /// ```
    /// use zermelo_hex::{Bitboard, Geometry};
    /// let g = Geometry::of(3);
    /// // b2 (x1, y1) = bit 4 is adjacent to every cell but a1 and c3.
    /// assert_eq!(g.neighbours(Bitboard::single(4)).count(), 6);
    /// // a1 (a corner with an acute angle) has two neighbours: b1 and a2.
    /// assert_eq!(g.neighbours(Bitboard::single(0)), Bitboard(0b1010));
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn neighbours(&self, s: Bitboard) -> Bitboard {
        let n = self.n;
        let s = s.0;
        let not_west = !self.west.0;
        let not_east = !self.east.0;
        let grown = ((s << 1) & not_west)
            | ((s >> 1) & not_east)
            | (s << n)
            | (s >> n)
            | ((s << (n - 1)) & not_east)
            | ((s >> (n - 1)) & not_west);
        Bitboard(grown & self.board.0)
    }

    /// The neighbours of cell index `i`, from a table computed at compile time.
    #[inline(always)]
    #[must_use]
    pub fn cell_neighbours(&self, i: usize) -> Bitboard {
        CELL_NEIGHBOURS[self.n][i]
    }

    /// The cells of `within` connected to `seed` through cells of `within` (flood fill by shifts).
    /// Cells of `seed` outside `within` are ignored.
    #[inline]
    #[must_use]
    pub fn flood(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut reached = seed & within;
        loop {
            let next = (reached | self.neighbours(reached)) & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }

    /// Whether `stones` connect the two edges `a` and `b`.
    #[inline]
    #[must_use]
    pub fn connects(&self, stones: Bitboard, a: Bitboard, b: Bitboard) -> bool {
        let mut reached = stones & a;
        loop {
            if !(reached & b).is_empty() {
                return true;
            }
            let next = (reached | self.neighbours(reached)) & stones;
            if next == reached {
                return false;
            }
            reached = next;
        }
    }

    /// The empty cells where one more stone would connect `stones` between edges `a` and `b`.
    ///
    /// A cell wins if, once filled, its group touches both edges: it must be on or next to the
    /// part of `stones` connected to `a`, and on or next to the part connected to `b`.
    #[inline]
    #[must_use]
    pub fn winning_cells(
        &self,
        stones: Bitboard,
        empty: Bitboard,
        a: Bitboard,
        b: Bitboard,
    ) -> Bitboard {
        let from_a = self.flood(a, stones);
        let from_b = self.flood(b, stones);
        let touch_a = self.neighbours(from_a) | a;
        let touch_b = self.neighbours(from_b) | b;
        touch_a & touch_b & empty
    }

    /// The 180° rotation of a set of cells: (x, y) → (n−1−x, n−1−y), which is bit i → n²−1−i.
    #[inline]
    #[must_use]
    pub fn rotate(&self, s: Bitboard) -> Bitboard {
        let cells = self.n * self.n;
        Bitboard(s.0.reverse_bits() >> (128 - cells))
    }

    /// The reflection in the long diagonal: (x, y) → (y, x). It swaps the players' edges, so a
    /// position transposed with its colours swapped has the same value for the side to move.
    #[must_use]
    pub fn transpose(&self, s: Bitboard) -> Bitboard {
        let n = self.n;
        let mut out = Bitboard::EMPTY;
        for i in s.cells() {
            let (x, y) = (i % n, i / n);
            out = out.with(x * n + y);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbours by the definition, one cell at a time, as a reference for the shifts.
    fn neighbours_by_definition(n: usize, i: usize) -> Bitboard {
        let (x, y) = ((i % n) as i64, (i / n) as i64);
        let mut out = Bitboard::EMPTY;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if (0..n as i64).contains(&nx) && (0..n as i64).contains(&ny) {
                out = out.with((ny * n as i64 + nx) as usize);
            }
        }
        out
    }

    #[test]
    fn shifted_neighbours_match_the_definition_on_every_size() {
        for n in 1..=MAX_SIZE {
            let g = Geometry::of(n);
            for i in 0..n * n {
                assert_eq!(
                    g.neighbours(Bitboard::single(i)),
                    neighbours_by_definition(n, i),
                    "size {n}, cell {i}"
                );
                assert_eq!(g.cell_neighbours(i), neighbours_by_definition(n, i));
            }
        }
    }

    #[test]
    fn rotation_and_transposition_are_involutions() {
        for n in 1..=MAX_SIZE {
            let g = Geometry::of(n);
            let s = Bitboard(0x1234_5678_9abc_def0_0fed_cba9_8765_4321) & g.board;
            assert_eq!(g.rotate(g.rotate(s)), s);
            assert_eq!(g.transpose(g.transpose(s)), s);
            assert_eq!(g.rotate(Bitboard::single(0)), Bitboard::single(n * n - 1));
        }
    }

    #[test]
    fn winning_cells_on_an_almost_connected_column() {
        // 3x3, Black on a1 and a3: a2 joins them; so does b1? No: b1 touches a1 only.
        let g = Geometry::of(3);
        let black = Bitboard::single(0).with(6);
        let empty = g.board.minus(black);
        let wins = g.winning_cells(black, empty, g.north, g.south);
        // a2 (bit 3) touches a1 and a3; b2 (bit 4) touches a3? b2's neighbours: a2, c2, b1, b3,
        // c1, a3, so b2 touches a3 but not a1: it reaches the south edge group and north? No.
        assert_eq!(wins, Bitboard::single(3));
    }
}
