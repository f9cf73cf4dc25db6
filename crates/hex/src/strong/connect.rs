//! Connection tests on `u64` masks, by shifts: the engine's own, for boards up to 6x6.

/// The masks a connection test needs for one board size.
#[derive(Debug, Clone)]
pub(super) struct Edges {
    size: usize,
    board: u64,
    /// Cells not in column a, and not in the last column.
    not_first_column: u64,
    not_last_column: u64,
    first_row: u64,
    last_row: u64,
    first_column: u64,
    last_column: u64,
}

impl Edges {
    pub(super) fn new(size: usize) -> Edges {
        let cells = size * size;
        let board = (1u64 << cells) - 1;
        let mut first_column = 0;
        for y in 0..size {
            first_column |= 1 << (y * size);
        }
        let last_column = first_column << (size - 1);
        let first_row = (1u64 << size) - 1;
        Edges {
            size,
            board,
            not_first_column: board & !first_column,
            not_last_column: board & !last_column,
            first_row,
            last_row: first_row << (size * (size - 1)),
            first_column,
            last_column,
        }
    }

    /// The cells next to some cell of `set`: (x ± 1, y), (x, y ± 1), (x + 1, y − 1), (x − 1, y + 1).
    #[inline]
    fn neighbours(&self, set: u64) -> u64 {
        let n = self.size;
        (((set << 1) | (set >> (n - 1))) & self.not_first_column)
            | (((set >> 1) | (set << (n - 1))) & self.not_last_column)
            | ((set << n) & self.board)
            | (set >> n)
    }

    /// Whether `stones` join `from` to `to`.
    #[inline]
    fn joins(&self, stones: u64, from: u64, to: u64) -> bool {
        if stones & to == 0 || (stones.count_ones() as usize) < self.size {
            return false;
        }
        let mut reached = stones & from;
        while reached != 0 {
            if reached & to != 0 {
                return true;
            }
            let grown = (reached | self.neighbours(reached)) & stones;
            if grown == reached {
                return false;
            }
            reached = grown;
        }
        false
    }

    /// Whether Black's `stones` join row 1 to the last row.
    #[inline]
    pub(super) fn black_joins(&self, stones: u64) -> bool {
        self.joins(stones, self.first_row, self.last_row)
    }

    /// Whether White's `stones` join column a to the last column.
    #[inline]
    pub(super) fn white_joins(&self, stones: u64) -> bool {
        self.joins(stones, self.first_column, self.last_column)
    }
}
