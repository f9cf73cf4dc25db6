/// Why a batch, a long run or one of its files was refused or failed. Each variant's text is
/// one line; a command line shows it with the chain of its causes.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A job file, a shard or a scheduler's variables that are refused: what is wrong.
    #[error("{0}")]
    Invalid(String),
    /// A results folder that cannot be used as asked (another job file's, in use by another
    /// runner, not finished): what is wrong.
    #[error("{0}")]
    Folder(String),
    /// A file that is not what it should be (another kind, another board, corrupt, not
    /// matching its record): what is wrong.
    #[error("{0}")]
    File(String),
    /// A result that its second, independent check refused; it is not written as finished.
    #[error("{0}")]
    Unverified(String),
    /// The runner was stopped by a signal; the finished jobs and checkpoints are kept.
    #[error("interrupted{what}; {done} of {total} jobs done; run the same command again to go on")]
    Interrupted {
        /// What was stopped: ` before job NAME`, or `: job NAME checkpointed to PATH`.
        what: String,
        /// Jobs done (now or before).
        done: usize,
        /// Jobs of the run.
        total: usize,
    },
    /// An operating-system error, with what was being done.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// An error, with what was being done when it happened (a file's name, a step).
    #[error("{what}")]
    Context {
        /// What was being done.
        what: String,
        /// The error.
        #[source]
        source: Box<Error>,
    },
    /// A file that could not be written or read back.
    #[error(transparent)]
    Store(#[from] zermelo_store::StoreError),
    /// The Hex engine refused something (a board size, a proof).
    #[error(transparent)]
    Hex(#[from] zermelo_hex::HexError),
    /// The layered Hex engine refused something (a board size, a position, a layer).
    #[error(transparent)]
    Strong(#[from] zermelo_hex::strong::StrongError),
    /// The Grundy engine refused something (a game code, a table).
    #[error(transparent)]
    Grundy(#[from] zermelo_grundy::GrundyError),
}

impl Error {
    /// Wraps an error with what was being done.
    pub(crate) fn context(self, what: impl std::fmt::Display) -> Error {
        Error::Context {
            what: what.to_string(),
            source: Box::new(self),
        }
    }

    /// An operating-system error with what was being done.
    pub(crate) fn io(what: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> Error {
        let what = what.to_string();
        move |source| Error::Io { what, source }
    }
}
