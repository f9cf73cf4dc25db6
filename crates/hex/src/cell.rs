//! Cell names: a column letter and a row number, as on HexWiki and in Benzene (`a1`, `c2`, `k11`).

use std::fmt;

use crate::HexError;

/// A cell of an n x n board: column `x` (0 = a) and row `y` (0 = row 1).
///
/// ```
/// use zermelo_hex::Cell;
/// let c = Cell::parse("c2", 4).unwrap();
/// assert_eq!((c.x, c.y), (2, 1));
/// assert_eq!(c.index(4), 6);
/// assert_eq!(c.to_string(), "c2");
/// assert!(Cell::parse("e1", 4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The column, 0 for `a`.
    pub x: u8,
    /// The row, 0 for `1`.
    pub y: u8,
}

impl Cell {
    /// The cell at bit index `i` of an n x n board.
    #[must_use]
    pub const fn from_index(i: usize, n: usize) -> Cell {
        Cell {
            x: (i % n) as u8,
            y: (i / n) as u8,
        }
    }

    /// The bit index of the cell on an n x n board.
    #[must_use]
    pub const fn index(self, n: usize) -> usize {
        self.y as usize * n + self.x as usize
    }

    /// Parses a cell name for an n x n board; the letter may be upper or lower case.
    pub fn parse(text: &str, n: usize) -> Result<Cell, HexError> {
        let bad = || HexError::BadCell {
            text: text.to_string(),
            size: n,
        };
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(bad());
        }
        let row: usize = digits.parse().map_err(|_| bad())?;
        let col = (letter as u8 - b'a') as usize;
        if row == 0 || row > n || col >= n {
            return Err(bad());
        }
        Ok(Cell {
            x: col as u8,
            y: (row - 1) as u8,
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}
