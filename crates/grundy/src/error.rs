//! The one error type of zermelo-grundy.

/// Why a game could not be parsed or a table could not be computed.
///
/// ```
/// use zermelo_grundy::{GrundyError, OctalGame};
/// let err = "0.9x".parse::<OctalGame>().unwrap_err();
/// assert!(matches!(err, GrundyError::BadCode { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrundyError {
    /// An octal or hexadecimal code that does not follow the notation.
    #[error("malformed game code {code:?}: {reason}")]
    BadCode {
        /// The code as given.
        code: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A subtraction set that is empty, contains zero or is otherwise unusable.
    #[error("bad subtraction set: {0}")]
    BadSubtraction(String),
    /// A move vector or board size for a piece game that cannot be used.
    #[error("bad piece game: {0}")]
    BadPiece(String),
    /// A multi-heap game description that cannot be used.
    #[error("bad multi-heap game: {0}")]
    BadMultiHeap(String),
    /// A Hackenbush drawing whose text does not follow the notation.
    #[error("bad drawing: {0}")]
    BadDrawing(String),
    /// A position of a game in disguise that does not follow its notation or its rules.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A Grundy value would not fit the 16-bit tables.
    #[error("the Grundy value at {at} exceeds 65535, the largest value a table can hold")]
    ValueOverflow {
        /// The position (heap size or cell) whose value overflowed.
        at: String,
    },
    /// A search that reached its bound on remembered positions before it finished.
    #[error("{what} needs more than {limit} positions, the most it was allowed to remember")]
    PositionLimit {
        /// The search.
        what: String,
        /// The bound that was reached.
        limit: usize,
    },
    /// A size whose table would not fit in memory (checked before allocating).
    #[error("a table of {what} needs {needed} bytes, more than the {limit} bytes allowed")]
    TooLarge {
        /// What was asked for.
        what: String,
        /// Bytes the table would need.
        needed: u128,
        /// Bytes allowed.
        limit: u128,
    },
    /// A position or table that was requested for a variant the engine cannot do.
    #[error("{0}")]
    Unsupported(String),
}
