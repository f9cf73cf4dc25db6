use crate::MAX_SIZE;

/// What can be wrong with a board size, a position or a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// The board size is outside 1..=11.
    #[error("board size {0} is out of range (zermelo handles 1 to {MAX_SIZE})")]
    BadSize(usize),
    /// A cell name that is malformed or off the board.
    #[error("'{text}' is not a cell of a {size}x{size} board (cells are a column letter and a row number, like c2)")]
    BadCell {
        /// The text given.
        text: String,
        /// The board size.
        size: usize,
    },
    /// A move on a cell that already holds a stone.
    #[error("cell {0} is already occupied")]
    Occupied(String),
    /// A move after the game has ended.
    #[error("the game is already over: {0} has connected")]
    GameOver(&'static str),
    /// `undo` with no move left to take back.
    #[error("there is no move to undo")]
    NothingToUndo,
    /// A solve stopped by its caller before it found the value.
    #[error("the solve was stopped before it found the value")]
    Stopped,
    /// A table size that is out of range or does not fit in memory.
    #[error("{0}")]
    BadTable(String),
    /// A diagram or stone set that is not a position of the game.
    #[error("not a valid position: {0}")]
    BadPosition(String),
    /// Proof records that are not proofs of positions of the board, or that contradict each
    /// other or the solver they are given to.
    #[error("{0}")]
    BadProofs(String),
    /// A template list that is not in the format of `zermelo hex templates`.
    #[error("not a valid template list: {0}")]
    BadTemplates(String),
    /// An SGF file that cannot be read as a Hex position.
    #[error("not a valid Hex SGF file: {0}")]
    BadSgf(String),
}
