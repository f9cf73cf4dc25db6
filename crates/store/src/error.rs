use std::path::PathBuf;

/// Why a file could not be written or read back.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An operating-system error, with the file it concerned. The system's message is part of
    /// this error's own text and deliberately not its `source`: a report that prints the chain
    /// of causes (anyhow's `{:#}`) would otherwise repeat it.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The file does not start with the expected magic bytes: it is not a zermelo file of that
    /// kind.
    #[error("{path}: not a zermelo {what} file")]
    BadMagic {
        /// The file.
        path: PathBuf,
        /// What kind of file was expected.
        what: &'static str,
    },
    /// The file was written by a format version this build cannot read.
    #[error(
        "{path}: format version {found} is not supported (this build reads version {supported})"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version found in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file is shorter or longer than its header says, or its checksum does not match: it
    /// was truncated or corrupted after it was written.
    #[error("{path}: corrupt or truncated ({detail})")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What did not match.
        detail: String,
    },
}

impl StoreError {
    pub(crate) fn io(path: &std::path::Path, error: std::io::Error) -> Self {
        StoreError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    pub(crate) fn corrupt(path: &std::path::Path, detail: impl Into<String>) -> Self {
        StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: detail.into(),
        }
    }
}
