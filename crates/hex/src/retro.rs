//! The independent retrograde oracle: every position of a tiny Hex board, solved bottom-up.
//!
//! This module is deliberately separate from the search solver and shares no code with it: it
//! has its own cell indexing, its own neighbour lists built from coordinates, and its own
//! connection test (a depth-first walk over cells, never bitboard shifts). Tests use it as
//! ground truth for the search, so a mistake in one method is caught by the other.
//!
//! # Positions and their index
//!
//! A position gives each of the n² cells a digit: 0 empty, 1 black, 2 white. Cell (column x,
//! row y) is cell number i = y·n + x, as in zermelo's bitboards (a1 = 0, b1 = 1, a2 = n). The
//! position's index is Σ digitᵢ · 3ⁱ, so a 4x4 board has 3¹⁶ = 43,046,721 positions. Placing a
//! stone only raises the index, so a pass from the highest index down to 0 meets every position
//! after all the positions that follow it in play.
//!
//! Black is to move when both players have the same number of stones; positions where Black
//! does not have the same number of stones as White, or one more, are [`RetroValue::Illegal`].
//! So are positions where the side to move already has a connection (including both players
//! having one): they never arise in play. A position where the player who moved last has a
//! connection, and the side to move has none, is [`RetroValue::GameOver`]: in normal play the
//! side to move has lost, in misère play (the player who connects loses) it has won. Every other
//! position is [`RetroValue::Win`] or [`RetroValue::Loss`] for the side to move, by the usual
//! rule: it wins iff one of its moves leads to a position the opponent loses.
//!
//! # Payload layout
//!
//! [`RetroTable::payload`] is the documented on-disk payload of a retrograde table (zermelo-store
//! wraps it in its checksummed container, with the size and the misère flag in the header). It
//! holds 2 bits per position, four positions per byte, little-endian within the byte: position i
//! is at bits 2·(i mod 4) and 2·(i mod 4) + 1 of byte ⌊i/4⌋. The codes are
//!
//! ```text
//! 0  Illegal   never reached in play
//! 1  GameOver  the player who moved last has connected
//! 2  Win       the side to move wins with perfect play
//! 3  Loss      the side to move loses with perfect play
//! ```
//!
//! The payload is ⌈3^(n²) / 4⌉ bytes long; the unused high bits of the last byte are zero.
//!
//! ```
//! use zermelo_hex::retro::{RetroTable, RetroValue};
//! let table = RetroTable::compute(3, false)?;
//! // Black, to move on the empty 3x3 board, wins.
//! assert_eq!(table.value(0, 0)?, RetroValue::Win);
//! // After Black takes the centre b2 (bit 4), White, to move, loses.
//! assert_eq!(table.value(1 << 4, 0)?, RetroValue::Loss);
//! # Ok::<(), zermelo_hex::retro::RetroError>(())
//! ```

/// The largest board the oracle solves: a 5x5 table would have 3²⁵ positions.
pub const MAX_RETRO_SIZE: usize = 4;

/// The largest board zermelo knows of at all.
const MAX_BOARD_SIZE: usize = 11;

/// The most cells a board the oracle solves can have.
const MAX_CELLS: usize = MAX_RETRO_SIZE * MAX_RETRO_SIZE;

/// Marks a position with no play length in [`RetroLengths`]: an illegal one.
const NO_LENGTH: u8 = u8::MAX;

/// Why the oracle could not build a table or answer a question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RetroError {
    /// The board size is not one zermelo plays on (1 to 11).
    #[error("board size {0} is out of range: Hex boards go from 1x1 to 11x11")]
    SizeOutOfRange(usize),
    /// The board is a valid Hex board, but its table would not fit in memory.
    #[error(
        "a {size}x{size} retrograde table has 3^{cells} positions and does not fit in memory; \
         the retrograde oracle handles boards up to {max}x{max}",
        cells = size * size,
        max = MAX_RETRO_SIZE
    )]
    TooLarge {
        /// The board size asked for.
        size: usize,
    },
    /// A position has stones outside the board.
    #[error("position has stones outside the {size}x{size} board")]
    OffBoard {
        /// The board size.
        size: usize,
    },
    /// A position has a black and a white stone on the same cell.
    #[error("position has a black and a white stone on the same cell")]
    Overlap,
    /// A stored payload does not have the length a table of its size needs.
    #[error("a {size}x{size} retrograde payload is {expected} bytes, found {found}")]
    PayloadLength {
        /// The board size.
        size: usize,
        /// The length a payload of that size has.
        expected: usize,
        /// The length found.
        found: usize,
    },
    /// A stored payload has bits set past its last position.
    #[error("retrograde payload has nonzero padding bits after its last position")]
    PayloadPadding,
}

/// What a position is worth, for the side to move.
///
/// The discriminants are the 2-bit codes of the payload (see the [module docs](self)).
///
/// ```
/// use zermelo_hex::retro::RetroValue;
/// assert_eq!(RetroValue::from_code(2), RetroValue::Win);
/// assert_eq!(RetroValue::Loss as u8, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RetroValue {
    /// Never reached in play: wrong stone counts, or the side to move has already connected.
    Illegal = 0,
    /// The player who moved last has connected, and the side to move has not: the game is over.
    /// In normal play the side to move has lost; in misère play it has won.
    GameOver = 1,
    /// The game goes on, and the side to move wins with perfect play.
    Win = 2,
    /// The game goes on, and the side to move loses with perfect play.
    Loss = 3,
}

impl RetroValue {
    /// The value of a 2-bit payload code; only the low two bits of `code` are read.
    ///
    /// ```
    /// use zermelo_hex::retro::RetroValue;
    /// assert_eq!(RetroValue::from_code(1), RetroValue::GameOver);
    /// ```
    #[must_use]
    pub const fn from_code(code: u8) -> RetroValue {
        match code & 3 {
            0 => RetroValue::Illegal,
            1 => RetroValue::GameOver,
            2 => RetroValue::Win,
            _ => RetroValue::Loss,
        }
    }
}

/// How many positions of a table have each value.
///
/// ```
/// use zermelo_hex::retro::RetroTable;
/// let counts = RetroTable::compute(1, false)?.counts();
/// // 1x1: the empty board (Black wins), Black's stone (game over), White's stone (illegal).
/// assert_eq!((counts.win, counts.game_over, counts.illegal, counts.loss), (1, 1, 1, 0));
/// # Ok::<(), zermelo_hex::retro::RetroError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetroCounts {
    /// Positions never reached in play.
    pub illegal: u64,
    /// Positions where the game is over.
    pub game_over: u64,
    /// Positions the side to move wins.
    pub win: u64,
    /// Positions the side to move loses.
    pub loss: u64,
}

/// The value of every position of an n x n Hex board (n ≤ 4), normal or misère.
///
/// ```
/// use zermelo_hex::retro::{RetroTable, RetroValue};
/// let table = RetroTable::compute(2, false)?;
/// // On 2x2, Black's opening at a1 (bit 0) loses: White, to move, wins.
/// assert_eq!(table.value(1 << 0, 0)?, RetroValue::Win);
/// // Black at b1 and White at a2 share the short diagonal; Black, to move, wins.
/// assert_eq!(table.value(1 << 1, 1 << 2)?, RetroValue::Win);
/// # Ok::<(), zermelo_hex::retro::RetroError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetroTable {
    size: usize,
    misere: bool,
    packed: Vec<u8>,
}

/// Perfect-play lengths for every position, alongside the values (see [`RetroLengths::compute`]).
///
/// ```
/// use zermelo_hex::retro::RetroLengths;
/// let lengths = RetroLengths::compute(2, false)?;
/// // On 2x2, Black opens on the short diagonal and connects with his second stone: 3 plies.
/// assert_eq!(lengths.plies_to_end(0, 0)?, Some(3));
/// # Ok::<(), zermelo_hex::retro::RetroError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetroLengths {
    table: RetroTable,
    plies: Vec<u8>,
}

/// Checks that the oracle can solve `size` before anything is allocated.
fn check_size(size: usize) -> Result<(), RetroError> {
    if size == 0 || size > MAX_BOARD_SIZE {
        Err(RetroError::SizeOutOfRange(size))
    } else if size > MAX_RETRO_SIZE {
        Err(RetroError::TooLarge { size })
    } else {
        Ok(())
    }
}

/// 3^cells, for a board the oracle solves (at most 3¹⁶, well within `usize`).
fn position_count(size: usize) -> usize {
    3usize.pow((size * size) as u32)
}

/// Bytes of a 2-bit-per-position payload for `size`.
fn payload_len(size: usize) -> usize {
    position_count(size).div_ceil(4)
}

/// The oracle's own cell numbering: (column x, row y) is cell y·n + x.
fn cell(size: usize, x: usize, y: usize) -> usize {
    y * size + x
}

/// The board's geometry, as the connection test needs it.
struct Geometry {
    size: usize,
    /// For each cell, the cells next to it.
    neighbours: Vec<Vec<usize>>,
}

impl Geometry {
    fn new(size: usize) -> Geometry {
        let mut neighbours = vec![Vec::new(); size * size];
        // The six hexagonal directions, as offsets in (x, y).
        const DIRECTIONS: [(isize, isize); 6] =
            [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
        for y in 0..size {
            for x in 0..size {
                for (dx, dy) in DIRECTIONS {
                    let (nx, ny) = (x as isize + dx, y as isize + dy);
                    if (0..size as isize).contains(&nx) && (0..size as isize).contains(&ny) {
                        neighbours[cell(size, x, y)].push(cell(size, nx as usize, ny as usize));
                    }
                }
            }
        }
        Geometry { size, neighbours }
    }

    /// Whether `player` (1 black, 2 white) joins their two edges, given each cell's digit.
    ///
    /// Black walks from row 1 towards row n, White from column a towards the last column.
    fn connected(&self, digits: &[u8; MAX_CELLS], player: u8) -> bool {
        let n = self.size;
        let start = |k: usize| {
            if player == 1 {
                cell(n, k, 0)
            } else {
                cell(n, 0, k)
            }
        };
        let is_goal = |c: usize| {
            let (x, y) = (c % n, c / n);
            if player == 1 {
                y == n - 1
            } else {
                x == n - 1
            }
        };
        let mut seen = [false; MAX_CELLS];
        let mut stack = [0usize; MAX_CELLS];
        let mut top = 0;
        for k in 0..n {
            let c = start(k);
            if digits[c] == player {
                seen[c] = true;
                stack[top] = c;
                top += 1;
            }
        }
        while top > 0 {
            top -= 1;
            let c = stack[top];
            if is_goal(c) {
                return true;
            }
            for &d in &self.neighbours[c] {
                if !seen[d] && digits[d] == player {
                    seen[d] = true;
                    stack[top] = d;
                    top += 1;
                }
            }
        }
        false
    }
}

/// Reads the 2-bit code of position `index`.
fn code_at(packed: &[u8], index: usize) -> u8 {
    (packed[index / 4] >> (2 * (index % 4))) & 3
}

/// The bottom-up pass: every position's value and, if asked, its perfect-play length.
fn solve(size: usize, misere: bool, with_lengths: bool) -> (Vec<u8>, Option<Vec<u8>>) {
    let geometry = Geometry::new(size);
    let cells = size * size;
    let total = position_count(size);
    let pow3: Vec<usize> = (0..cells).map(|i| 3usize.pow(i as u32)).collect();
    let mut packed = vec![0u8; payload_len(size)];
    let mut plies = with_lengths.then(|| vec![NO_LENGTH; total]);

    // Start at the highest index (every cell white) and count down, keeping each cell's digit
    // and the stone counts up to date rather than decoding every index afresh.
    let mut digits = [2u8; MAX_CELLS];
    let mut black = 0usize;
    let mut white = cells;
    let mut index = total;
    while index > 0 {
        index -= 1;
        if index != total - 1 {
            for digit in digits.iter_mut().take(cells) {
                match *digit {
                    0 => {
                        *digit = 2;
                        white += 1;
                    }
                    1 => {
                        *digit = 0;
                        black -= 1;
                        break;
                    }
                    _ => {
                        *digit = 1;
                        white -= 1;
                        black += 1;
                        break;
                    }
                }
            }
        }

        if black != white && black != white + 1 {
            continue;
        }
        let mover: u8 = if black == white { 1 } else { 2 };
        if geometry.connected(&digits, mover) {
            continue;
        }
        let value = if geometry.connected(&digits, 3 - mover) {
            if let Some(plies) = plies.as_mut() {
                plies[index] = 0;
            }
            RetroValue::GameOver
        } else {
            evaluate(
                index,
                &digits[..cells],
                mover,
                &pow3,
                misere,
                &packed,
                plies.as_mut(),
            )
        };
        packed[index / 4] |= (value as u8) << (2 * (index % 4));
    }
    (packed, plies)
}

/// Values a position where the game goes on, from its children (already solved), and records its
/// length if lengths are kept.
///
/// The winner picks the quickest win, the loser the longest loss.
fn evaluate(
    index: usize,
    digits: &[u8],
    mover: u8,
    pow3: &[usize],
    misere: bool,
    packed: &[u8],
    plies: Option<&mut Vec<u8>>,
) -> RetroValue {
    let step = usize::from(mover);
    let mut fastest_win: Option<u8> = None;
    let mut slowest_loss = 0u8;
    for (i, &digit) in digits.iter().enumerate() {
        if digit != 0 {
            continue;
        }
        let child = index + step * pow3[i];
        // A child is never Illegal: the opponent had no connection here and gains no stone.
        let opponent_loses = match RetroValue::from_code(code_at(packed, child)) {
            RetroValue::GameOver => !misere,
            RetroValue::Loss => true,
            RetroValue::Win | RetroValue::Illegal => false,
        };
        let Some(plies) = plies.as_deref() else {
            if opponent_loses {
                return RetroValue::Win;
            }
            continue;
        };
        let length = plies[child] + 1;
        if opponent_loses {
            fastest_win = Some(fastest_win.map_or(length, |best| best.min(length)));
        } else {
            slowest_loss = slowest_loss.max(length);
        }
    }
    let (value, length) = match fastest_win {
        Some(length) => (RetroValue::Win, length),
        None => (RetroValue::Loss, slowest_loss),
    };
    if let Some(plies) = plies {
        plies[index] = length;
    }
    value
}

/// The index of a position given as bitboards, after checking it fits the board.
fn position_index(size: usize, black: u128, white: u128) -> Result<usize, RetroError> {
    let cells = size * size;
    let board = (1u128 << cells) - 1;
    if (black | white) & !board != 0 {
        return Err(RetroError::OffBoard { size });
    }
    if black & white != 0 {
        return Err(RetroError::Overlap);
    }
    let mut index = 0;
    for i in (0..cells).rev() {
        let digit = if black >> i & 1 == 1 {
            1
        } else if white >> i & 1 == 1 {
            2
        } else {
            0
        };
        index = 3 * index + digit;
    }
    Ok(index)
}

impl RetroTable {
    /// Solves every position of the `size` x `size` board by retrograde analysis.
    ///
    /// Sizes 5 to 11 are refused with [`RetroError::TooLarge`] before anything is allocated;
    /// sizes outside 1 to 11 with [`RetroError::SizeOutOfRange`].
    ///
    /// ```
    /// use zermelo_hex::retro::{RetroError, RetroTable, RetroValue};
    /// // Misère 1x1: Black must take the only cell and connect, so Black loses.
    /// assert_eq!(RetroTable::compute(1, true)?.value(0, 0)?, RetroValue::Loss);
    /// assert_eq!(RetroTable::compute(5, false), Err(RetroError::TooLarge { size: 5 }));
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn compute(size: usize, misere: bool) -> Result<RetroTable, RetroError> {
        check_size(size)?;
        let (packed, _) = solve(size, misere, false);
        Ok(RetroTable {
            size,
            misere,
            packed,
        })
    }

    /// Rebuilds a table from a payload written by [`RetroTable::payload`], checking its length
    /// and padding.
    ///
    /// ```
    /// use zermelo_hex::retro::RetroTable;
    /// let table = RetroTable::compute(2, true)?;
    /// let back = RetroTable::from_payload(2, true, table.payload().to_vec())?;
    /// assert_eq!(back, table);
    /// assert!(RetroTable::from_payload(2, true, vec![0; 3]).is_err());
    /// # Ok::<(), zermelo_hex::retro::RetroError>(())
    /// ```
    pub fn from_payload(
        size: usize,
        misere: bool,
        bytes: Vec<u8>,
    ) -> Result<RetroTable, RetroError> {
        check_size(size)?;
        let expected = payload_len(size);
        if bytes.len() != expected {
            return Err(RetroError::PayloadLength {
                size,
                expected,
                found: bytes.len(),
            });
        }
        let used = position_count(size) % 4;
        if used != 0 && bytes[expected - 1] >> (2 * used) != 0 {
            return Err(RetroError::PayloadPadding);
        }
        Ok(RetroTable {
            size,
            misere,
            packed: bytes,
        })
    }

    /// The value of the position with `black` and `white` stones (bit y·n + x for column x,
    /// row y), for the side to move as the stone counts say.
    ///
    /// Positions whose counts no game reaches are [`RetroValue::Illegal`]; stones off the board
    /// or on the same cell are errors.
    ///
    /// ```
    /// use zermelo_hex::retro::{RetroError, RetroTable, RetroValue};
    /// let table = RetroTable::compute(2, false)?;
    /// assert_eq!(table.value(0, 1)?, RetroValue::Illegal);
    /// assert_eq!(table.value(1, 1), Err(RetroError::Overlap));
    /// assert_eq!(table.value(1 << 4, 0), Err(RetroError::OffBoard { size: 2 }));
    /// # Ok::<(), RetroError>(())
    /// ```
    pub fn value(&self, black: u128, white: u128) -> Result<RetroValue, RetroError> {
        let index = position_index(self.size, black, white)?;
        Ok(RetroValue::from_code(code_at(&self.packed, index)))
    }

    /// The board size n.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the table is for misère play (the player who connects loses).
    #[must_use]
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// How many positions have each value.
    #[must_use]
    pub fn counts(&self) -> RetroCounts {
        let mut counts = RetroCounts::default();
        for index in 0..position_count(self.size) {
            match RetroValue::from_code(code_at(&self.packed, index)) {
                RetroValue::Illegal => counts.illegal += 1,
                RetroValue::GameOver => counts.game_over += 1,
                RetroValue::Win => counts.win += 1,
                RetroValue::Loss => counts.loss += 1,
            }
        }
        counts
    }

    /// The packed values, in the layout the [module docs](self) describe.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        &self.packed
    }
}

impl RetroLengths {
    /// Solves every position of the board as [`RetroTable::compute`] does, and also how many
    /// plies remain with perfect play: the winner wins as fast as possible, the loser holds out
    /// as long as possible.
    ///
    /// Costs one more byte per position (43 MB on 4x4) than the values alone.
    ///
    /// ```
    /// use zermelo_hex::retro::RetroLengths;
    /// // Misère 2x2: Black, moving first, wins; the board fills up.
    /// let lengths = RetroLengths::compute(2, true)?;
    /// assert_eq!(lengths.plies_to_end(0, 0)?, Some(4));
    /// # Ok::<(), zermelo_hex::retro::RetroError>(())
    /// ```
    pub fn compute(size: usize, misere: bool) -> Result<RetroLengths, RetroError> {
        check_size(size)?;
        let (packed, plies) = solve(size, misere, true);
        Ok(RetroLengths {
            table: RetroTable {
                size,
                misere,
                packed,
            },
            plies: plies.expect("solve keeps lengths when asked"),
        })
    }

    /// The values, exactly as [`RetroTable::compute`] gives them.
    #[must_use]
    pub fn table(&self) -> &RetroTable {
        &self.table
    }

    /// Plies left until the game ends with perfect play (0 when it is over), or `None` for an
    /// illegal position.
    ///
    /// ```
    /// use zermelo_hex::retro::RetroLengths;
    /// let lengths = RetroLengths::compute(2, false)?;
    /// // Black at b1 and a2: Black has connected, the game is over.
    /// assert_eq!(lengths.plies_to_end(0b0110, 0b0001)?, Some(0));
    /// assert_eq!(lengths.plies_to_end(0, 0b0001)?, None);
    /// # Ok::<(), zermelo_hex::retro::RetroError>(())
    /// ```
    pub fn plies_to_end(&self, black: u128, white: u128) -> Result<Option<u8>, RetroError> {
        let index = position_index(self.table.size, black, white)?;
        let plies = self.plies[index];
        Ok((plies != NO_LENGTH).then_some(plies))
    }
}
