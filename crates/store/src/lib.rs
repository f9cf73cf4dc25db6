//! zermelo-store: how zermelo's results and tables live on disk.
//!
//! ```
//! use serde_json::json;
//! use zermelo_store::{json as results, table};
//!
//! let dir = tempfile::tempdir()?;
//! // A JSON result with its checksum, written atomically and verified when read back.
//! let path = dir.path().join("result.json");
//! results::write(&path, &json!({ "game": "0.77", "period": 12 }))?;
//! assert_eq!(results::read(&path)?["period"], 12);
//! // A table: a JSON header and a binary payload, with a CRC-32.
//! let path = dir.path().join("values.zgt");
//! table::write(&path, &json!({ "kind": "example" }), &[0, 1, 2, 3])?;
//! assert_eq!(table::read(&path)?.payload, vec![0, 1, 2, 3]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything is written atomically ([`atomic_write`]: a temporary file in the same folder,
//! fsync, rename, fsync of the folder), so a crash or a kill leaves either the old file or the new
//! one, never a half-written one. Every file carries a checksum, so a truncated or corrupted file
//! is detected when it is read back rather than silently used:
//!
//! - [`table`]: the binary table container (magic, format version, a JSON header with the
//!   parameters, the payload, a CRC-32), for large tables of values.
//! - [`json`]: JSON result documents with an embedded `checksum` field.
//!
//! This crate knows nothing of games: headers and payloads are whatever its callers serialise.

mod atomic;
mod error;
pub mod json;
pub mod table;

pub use atomic::{atomic_write, ensure_writable};
pub use error::StoreError;
