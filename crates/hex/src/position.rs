//! [`Position`]: the stones on an n x n board, the side to move, moves, and diagrams.

use std::fmt;

use crate::{Bitboard, Cell, Geometry, HexError, MAX_SIZE};

/// One of the two players. Black moves first and connects row 1 to row n (north–south); White
/// connects column a to the last column (west–east).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player, north–south.
    Black,
    /// The second player, west–east.
    White,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Black => Player::White,
            Player::White => Player::Black,
        }
    }

    /// "black" or "white", as in the JSON output.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Player::Black => "black",
            Player::White => "white",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position: the board size, each player's stones and the side to move.
///
/// In a game played from the empty board Black moves first, so Black is to move exactly when
/// both players have the same number of stones; that is the side [`Position::from_moves`],
/// [`Position::from_stones`] and [`Position::from_diagram`] give. Puzzles and setup positions
/// may have any number of stones of each colour and either side to move:
/// [`Position::from_setup`] and [`Position::with_to_move`] make those.
///
/// ```
/// use zermelo_hex::{Player, Position};
/// let p = Position::from_moves(4, "c2 b3").unwrap();
/// assert_eq!(p.to_move(), Player::Black);
/// assert_eq!(p.stones(), 2);
/// assert_eq!(p.with_to_move(Player::White).to_move(), Player::White);
/// print!("{p}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    size: u8,
    black: Bitboard,
    white: Bitboard,
    to_move: Player,
}

impl Position {
    /// The empty n x n board.
    pub fn new(n: usize) -> Result<Position, HexError> {
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(HexError::BadSize(n));
        }
        Ok(Position {
            size: n as u8,
            black: Bitboard::EMPTY,
            white: Bitboard::EMPTY,
            to_move: Player::Black,
        })
    }

    /// A position from its stone sets as reached in a game from the empty board, checked:
    /// stones on the board, no cell holding two stones, Black having as many stones as White or
    /// one more, and not both players connected. The side to move follows from the counts.
    ///
    /// ```
    /// use zermelo_hex::{Bitboard, Player, Position};
    /// let p = Position::from_stones(3, Bitboard(0b1), Bitboard::EMPTY).unwrap();
    /// assert_eq!(p.to_move(), Player::White);
    /// assert!(Position::from_stones(3, Bitboard(0b11), Bitboard::EMPTY).is_err());
    /// ```
    pub fn from_stones(n: usize, black: Bitboard, white: Bitboard) -> Result<Position, HexError> {
        let (b, w) = (black.count(), white.count());
        if b != w && b != w + 1 {
            return Err(HexError::BadPosition(format!(
                "Black has {b} stones and White {w}: Black moves first, so Black has as many \
                 stones as White or one more (give the side to move to set up other counts)"
            )));
        }
        let to_move = if b == w { Player::Black } else { Player::White };
        Position::from_setup(n, black, white, to_move)
    }

    /// A set-up position, as puzzles and game records bring them: any number of stones of each
    /// colour and an explicit side to move. Checked: stones on the board, no cell holding two
    /// stones, and not both players connected.
    ///
    /// ```
    /// use zermelo_hex::{Bitboard, Player, Position};
    /// // Three black stones, none white, White to move.
    /// let p = Position::from_setup(3, Bitboard(0b111), Bitboard::EMPTY, Player::White).unwrap();
    /// assert_eq!((p.stones(), p.to_move()), (3, Player::White));
    /// ```
    pub fn from_setup(
        n: usize,
        black: Bitboard,
        white: Bitboard,
        to_move: Player,
    ) -> Result<Position, HexError> {
        let empty = Position::new(n)?;
        let g = empty.geometry();
        if !(black | white).minus(g.board).is_empty() {
            return Err(HexError::BadPosition("a stone lies off the board".into()));
        }
        if !(black & white).is_empty() {
            return Err(HexError::BadPosition("a cell holds two stones".into()));
        }
        let p = Position {
            size: n as u8,
            black,
            white,
            to_move,
        };
        if p.has_connected(Player::Black) && p.has_connected(Player::White) {
            return Err(HexError::BadPosition("both players are connected".into()));
        }
        Ok(p)
    }

    /// The same stones with `to_move` to move.
    ///
    /// ```
    /// use zermelo_hex::{Cell, Player, Position};
    /// // White to play a second stone in a row.
    /// let p = Position::from_moves(4, "b2 c3").unwrap().with_to_move(Player::White);
    /// let q = p.play(Cell::parse("a1", 4).unwrap()).unwrap();
    /// assert_eq!((q.white().count(), q.to_move()), (2, Player::Black));
    /// ```
    #[must_use]
    pub const fn with_to_move(self, to_move: Player) -> Position {
        Position { to_move, ..self }
    }

    /// The position reached by a list of moves from the empty board, Black first, e.g.
    /// `"c2 b3 d1"` (cells separated by spaces or commas).
    pub fn from_moves(n: usize, moves: &str) -> Result<Position, HexError> {
        let mut p = Position::new(n)?;
        for text in moves
            .split([' ', ',', '\t', '\n'])
            .filter(|t| !t.is_empty())
        {
            let cell = Cell::parse(text, n)?;
            p = p.play(cell)?;
        }
        Ok(p)
    }

    /// Parses a rhombus diagram as printed by `Display`: each row line starts with its row
    /// number, followed by one of `.`, `B` (black) or `W` (white) per cell (lower case too);
    /// other lines (the column letters) are ignored. The stone counts must be those of a game
    /// from the empty board, which give the side to move ([`Position::from_stones`]).
    pub fn from_diagram(text: &str) -> Result<Position, HexError> {
        let (n, black, white) = Position::diagram_stones(text)?;
        Position::from_stones(n, black, white)
    }

    /// Parses a diagram as [`Position::from_diagram`] does, with any stone counts and `to_move`
    /// to move ([`Position::from_setup`]).
    ///
    /// ```
    /// use zermelo_hex::{Player, Position};
    /// let text = "   a b\n 1 B B\n  2 . .\n";
    /// assert!(Position::from_diagram(text).is_err());
    /// let p = Position::from_diagram_to_move(text, Player::White).unwrap();
    /// assert_eq!(p.black().count(), 2);
    /// ```
    pub fn from_diagram_to_move(text: &str, to_move: Player) -> Result<Position, HexError> {
        let (n, black, white) = Position::diagram_stones(text)?;
        Position::from_setup(n, black, white, to_move)
    }

    /// The board size and stone sets of a diagram.
    fn diagram_stones(text: &str) -> Result<(usize, Bitboard, Bitboard), HexError> {
        let mut rows: Vec<Vec<char>> = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim_start();
            let digits: String = trimmed.chars().take_while(char::is_ascii_digit).collect();
            if digits.is_empty() {
                continue;
            }
            let row: usize = digits
                .parse()
                .map_err(|_| HexError::BadPosition(format!("bad row number in '{line}'")))?;
            if row != rows.len() + 1 {
                return Err(HexError::BadPosition(format!(
                    "expected row {} but found row {row}",
                    rows.len() + 1
                )));
            }
            let cells: Vec<char> = trimmed[digits.len()..]
                .chars()
                .take_while(|c| !c.is_ascii_digit())
                .filter(|c| !c.is_whitespace())
                .collect();
            rows.push(cells);
        }
        let n = rows.len();
        if !(1..=MAX_SIZE).contains(&n) {
            return Err(HexError::BadPosition(format!(
                "a diagram needs 1 to {MAX_SIZE} numbered rows, found {n}"
            )));
        }
        // Rows all of one width that is not the number of rows: rows are missing or extra,
        // which is what to say (not that the first row is too long).
        let width = rows[0].len();
        if width != n && rows.iter().all(|r| r.len() == width) && (1..=MAX_SIZE).contains(&width) {
            return Err(HexError::BadPosition(if width > n {
                format!(
                    "the diagram has {n} rows of {width} cells: a {width}x{width} board needs \
                     {width} rows (row {} is missing)",
                    n + 1
                )
            } else {
                format!(
                    "the diagram has {n} rows of {width} cells: a board has as many cells in a \
                     row as rows"
                )
            }));
        }
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (y, row) in rows.iter().enumerate() {
            if row.len() != n {
                return Err(HexError::BadPosition(format!(
                    "row {} has {} cells, expected {n}",
                    y + 1,
                    row.len()
                )));
            }
            for (x, c) in row.iter().enumerate() {
                let i = y * n + x;
                match c.to_ascii_uppercase() {
                    '.' => {}
                    'B' => black = black.with(i),
                    'W' => white = white.with(i),
                    other => {
                        return Err(HexError::BadPosition(format!(
                            "unknown cell mark '{other}' in row {} (use . B W)",
                            y + 1
                        )))
                    }
                }
            }
        }
        Ok((n, black, white))
    }

    /// The board size n.
    #[must_use]
    pub const fn size(&self) -> usize {
        self.size as usize
    }

    /// The masks of this board size.
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.size as usize)
    }

    /// Black's stones.
    #[must_use]
    pub const fn black(&self) -> Bitboard {
        self.black
    }

    /// White's stones.
    #[must_use]
    pub const fn white(&self) -> Bitboard {
        self.white
    }

    /// The stones of `player`.
    #[must_use]
    pub const fn stones_of(&self, player: Player) -> Bitboard {
        match player {
            Player::Black => self.black,
            Player::White => self.white,
        }
    }

    /// The empty cells.
    #[must_use]
    pub fn empty(&self) -> Bitboard {
        self.geometry().board.minus(self.black | self.white)
    }

    /// The number of stones on the board.
    #[must_use]
    pub const fn stones(&self) -> u32 {
        self.black.count() + self.white.count()
    }

    /// The player to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Whether `player`'s stones connect their two edges.
    #[must_use]
    pub fn has_connected(&self, player: Player) -> bool {
        let g = self.geometry();
        match player {
            Player::Black => g.connects(self.black, g.north, g.south),
            Player::White => g.connects(self.white, g.west, g.east),
        }
    }

    /// The player who has connected their edges, if any (at most one can have).
    #[must_use]
    pub fn connected(&self) -> Option<Player> {
        [Player::Black, Player::White]
            .into_iter()
            .find(|&p| self.has_connected(p))
    }

    /// The position after the side to move places a stone on `cell`.
    pub fn play(&self, cell: Cell) -> Result<Position, HexError> {
        let n = self.size();
        if cell.x as usize >= n || cell.y as usize >= n {
            return Err(HexError::BadCell {
                text: cell.to_string(),
                size: n,
            });
        }
        if let Some(p) = self.connected() {
            return Err(HexError::GameOver(p.name()));
        }
        let i = cell.index(n);
        if (self.black | self.white).has(i) {
            return Err(HexError::Occupied(cell.to_string()));
        }
        let mut next = *self;
        match self.to_move {
            Player::Black => next.black = next.black.with(i),
            Player::White => next.white = next.white.with(i),
        }
        next.to_move = self.to_move.opponent();
        Ok(next)
    }

    /// The position rotated by 180°, which has the same value for the side to move.
    #[must_use]
    pub fn rotated(&self) -> Position {
        let g = self.geometry();
        Position {
            size: self.size,
            black: g.rotate(self.black),
            white: g.rotate(self.white),
            to_move: self.to_move,
        }
    }
}

impl fmt::Display for Position {
    /// The rhombus diagram: column letters, then one indented line per row.
    ///
    /// ```text
    ///    a b c
    ///  1  . . .
    ///   2  . B .
    ///    3  W . .
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        write!(f, "    ")?;
        for x in 0..n {
            write!(f, " {}", (b'a' + x as u8) as char)?;
        }
        writeln!(f)?;
        for y in 0..n {
            write!(f, "{:width$}{:>2} ", "", y + 1, width = y + 1)?;
            for x in 0..n {
                let i = y * n + x;
                let c = if self.black.has(i) {
                    'B'
                } else if self.white.has(i) {
                    'W'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_round_trip() {
        let p = Position::from_moves(5, "c3 b4 a5 e1").unwrap();
        let text = p.to_string();
        assert_eq!(Position::from_diagram(&text).unwrap(), p);
    }

    #[test]
    fn moves_alternate_and_errors_are_reported() {
        let p = Position::from_moves(3, "b2, a1").unwrap();
        assert!(p.black().has(4) && p.white().has(0));
        assert!(matches!(
            Position::from_moves(3, "b2 b2"),
            Err(HexError::Occupied(_))
        ));
        assert!(matches!(
            Position::from_moves(3, "d1"),
            Err(HexError::BadCell { .. })
        ));
        assert!(matches!(
            Position::from_moves(3, "b0"),
            Err(HexError::BadCell { .. })
        ));
        assert!(matches!(
            Position::from_moves(3, "2b"),
            Err(HexError::BadCell { .. })
        ));
        assert!(matches!(Position::new(12), Err(HexError::BadSize(12))));
        assert!(matches!(Position::new(0), Err(HexError::BadSize(0))));
        // Black a1 a2 a3 connects north to south; a further move is refused.
        assert!(matches!(
            Position::from_moves(3, "a1 b1 a2 b2 a3 c1"),
            Err(HexError::GameOver("black"))
        ));
    }

    #[test]
    fn diagrams_with_wrong_counts_are_refused() {
        let two_black = "   a b\n 1 B B\n  2 . .\n";
        assert!(Position::from_diagram(two_black).is_err());
        let ragged = "   a b\n 1 B .\n  2 .\n";
        assert!(Position::from_diagram(ragged).is_err());
        let strange = "   a b\n 1 B X\n  2 . .\n";
        assert!(Position::from_diagram(strange).is_err());
        // A diagram cut before its last row says so, not that its first row is too long.
        let cut = "     a b c d\n  1  . . . .\n   2  . . B .\n    3  . W . .\n";
        let err = Position::from_diagram(cut).unwrap_err().to_string();
        assert!(err.contains("row 4 is missing"), "{err}");
        let extra = "   a b\n 1 . .\n  2 . .\n   3 . .\n";
        let err = Position::from_diagram(extra).unwrap_err().to_string();
        assert!(err.contains("3 rows of 2 cells"), "{err}");
    }
}
