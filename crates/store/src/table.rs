//! The binary table container, for tables too large for JSON (Grundy values, retrograde Hex
//! tables).
//!
//! Layout, all integers little-endian:
//!
//! ```text
//! offset      size  content
//! 0           8     magic "ZRMLTABL"
//! 8           4     format version (u32), currently 1
//! 12          4     header length H (u32)
//! 16          8     payload length P (u64)
//! 24          H     header: UTF-8 JSON object with the table's kind and parameters
//! 24+H        P     payload: the values, in a layout the header's kind documents
//! 24+H+P      4     CRC-32 (IEEE) of every preceding byte
//! ```
//!
//! A reader checks the magic, the version, that the file length is exactly 28 + H + P, and the
//! CRC, before it hands anything back.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

use crate::{atomic::atomic_write_with, StoreError};

/// The first eight bytes of every table file.
pub const MAGIC: &[u8; 8] = b"ZRMLTABL";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
const PREFIX: usize = 24;
const SUFFIX: usize = 4;

/// A table read back from disk: its header and its payload, checksum verified.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The JSON header: the table's kind and parameters.
    pub header: serde_json::Value,
    /// The raw payload.
    pub payload: Vec<u8>,
}

/// Writes a table atomically (see [`crate::atomic_write`]).
///
/// ```
/// use zermelo_store::table;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.zt");
/// let header = serde_json::json!({"kind": "example", "length": 3});
/// table::write(&path, &header, &[1, 2, 3]).unwrap();
/// let back = table::read(&path).unwrap();
/// assert_eq!(back.header["length"], 3);
/// assert_eq!(back.payload, vec![1, 2, 3]);
/// ```
pub fn write(path: &Path, header: &serde_json::Value, payload: &[u8]) -> Result<(), StoreError> {
    write_with(path, header, payload.len() as u64, |out| {
        out.write_all(payload)
    })
}

/// Writes a table atomically whose payload of `payload_len` bytes is written by `fill`, piece by
/// piece, so that a large table need not be laid out in memory a second time. A `fill` that
/// writes another number of bytes is an error, and nothing is written.
///
/// ```
/// use std::io::Write;
/// use zermelo_store::table;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.zt");
/// let values = [7u16, 300, 2];
/// let header = serde_json::json!({"kind": "example", "length": 3});
/// table::write_with(&path, &header, 6, |out| {
///     values.iter().try_for_each(|v| out.write_all(&v.to_le_bytes()))
/// })
/// .unwrap();
/// assert_eq!(table::read(&path).unwrap().payload, vec![7, 0, 44, 1, 2, 0]);
/// assert!(table::write_with(&path, &header, 5, |out| out.write_all(&[0; 6])).is_err());
/// ```
pub fn write_with(
    path: &Path,
    header: &serde_json::Value,
    payload_len: u64,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let header_bytes = serde_json::to_vec(header).expect("a JSON value always serialises");
    let header_len = u32::try_from(header_bytes.len())
        .map_err(|_| StoreError::io(path, std::io::Error::other("table header too large")))?;
    atomic_write_with(path, |file| {
        let mut out = Checksummed {
            out: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            written: 0,
        };
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&header_len.to_le_bytes())?;
        out.write_all(&payload_len.to_le_bytes())?;
        out.write_all(&header_bytes)?;
        let before = out.written;
        fill(&mut out)?;
        if out.written - before != payload_len {
            return Err(std::io::Error::other(format!(
                "the payload is {} bytes, not the {payload_len} announced",
                out.written - before
            )));
        }
        let sum = out.crc.finalize();
        out.out.write_all(&sum.to_le_bytes())?;
        out.out.flush()
    })
}

/// A writer that keeps the CRC and the count of the bytes going through it.
struct Checksummed<W: Write> {
    out: W,
    crc: crc32fast::Hasher,
    written: u64,
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        self.crc.update(&bytes[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Reads a table back, verifying its magic, version, length and checksum.
pub fn read(path: &Path) -> Result<Table, StoreError> {
    let (mut file, prefix, header_len, payload_len) = open_checked(path)?;
    let file_len = PREFIX as u64 + header_len + payload_len + SUFFIX as u64;
    // The length was checked against the real file size, so these allocations are bounded by it.
    let mut rest = vec![0u8; (file_len - PREFIX as u64) as usize];
    file.read_exact(&mut rest)
        .map_err(|e| StoreError::io(path, e))?;
    let (body, sum) = rest.split_at(rest.len() - SUFFIX);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&prefix);
    crc.update(body);
    let stored = u32::from_le_bytes(sum.try_into().unwrap());
    if crc.finalize() != stored {
        return Err(StoreError::corrupt(path, "checksum mismatch"));
    }
    let header = serde_json::from_slice(&body[..header_len as usize])
        .map_err(|e| StoreError::corrupt(path, format!("header is not JSON: {e}")))?;
    // The payload is moved to the front of the buffer rather than copied: a large table is held
    // once.
    let body_len = body.len();
    rest.truncate(body_len);
    rest.drain(..header_len as usize);
    Ok(Table {
        header,
        payload: rest,
    })
}

/// Opens a table file and checks its magic, version and length against its prefix; the file is
/// left positioned after the prefix. Gives the prefix, the header length and the payload length.
fn open_checked(path: &Path) -> Result<(File, [u8; PREFIX], u64, u64), StoreError> {
    let mut file = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let file_len = file.metadata().map_err(|e| StoreError::io(path, e))?.len();
    let mut prefix = [0u8; PREFIX];
    if file_len < (PREFIX + SUFFIX) as u64 {
        return Err(StoreError::corrupt(
            path,
            "file is shorter than a table header",
        ));
    }
    file.read_exact(&mut prefix)
        .map_err(|e| StoreError::io(path, e))?;
    if &prefix[..8] != MAGIC {
        return Err(StoreError::BadMagic {
            path: path.to_path_buf(),
            what: "table",
        });
    }
    let version = u32::from_le_bytes(prefix[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(StoreError::Version {
            path: path.to_path_buf(),
            found: version,
            supported: VERSION,
        });
    }
    let header_len = u64::from(u32::from_le_bytes(prefix[12..16].try_into().unwrap()));
    let payload_len = u64::from_le_bytes(prefix[16..24].try_into().unwrap());
    let expected = (PREFIX as u64 + SUFFIX as u64)
        .checked_add(header_len)
        .and_then(|n| n.checked_add(payload_len));
    if expected != Some(file_len) {
        return Err(StoreError::corrupt(
            path,
            format!(
                "file is {file_len} bytes, its header announces {}",
                expected.map_or("an impossible length".to_string(), |n| format!("{n}"))
            ),
        ));
    }
    Ok((file, prefix, header_len, payload_len))
}

/// A table opened for reading its payload piece by piece: a few bytes anywhere in it, without
/// reading (or checksumming) the rest, for a quick look-up in a table of gigabytes; or the whole
/// payload streamed through the checksum, without holding it twice.
///
/// ```
/// use zermelo_store::table;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.zt");
/// table::write(&path, &serde_json::json!({"kind": "example"}), &[5, 6, 7, 8]).unwrap();
/// let mut reader = table::open(&path).unwrap();
/// assert_eq!(reader.header()["kind"], "example");
/// let mut two = [0u8; 2];
/// reader.read_at(1, &mut two).unwrap();
/// assert_eq!(two, [6, 7]);
/// let mut all = Vec::new();
/// reader.read_payload(|piece| all.extend_from_slice(piece)).unwrap();
/// assert_eq!(all, vec![5, 6, 7, 8]);
/// ```
#[derive(Debug)]
pub struct Reader {
    path: std::path::PathBuf,
    file: File,
    prefix: [u8; PREFIX],
    header_bytes: Vec<u8>,
    header: serde_json::Value,
    payload_len: u64,
}

/// Opens a table, checking its magic, version, length and that its header is JSON, but not its
/// checksum, which only [`Reader::read_payload`] (reading everything) can check.
pub fn open(path: &Path) -> Result<Reader, StoreError> {
    let (mut file, prefix, header_len, payload_len) = open_checked(path)?;
    let mut header_bytes = vec![0u8; header_len as usize];
    file.read_exact(&mut header_bytes)
        .map_err(|e| StoreError::io(path, e))?;
    let header = serde_json::from_slice(&header_bytes)
        .map_err(|e| StoreError::corrupt(path, format!("header is not JSON: {e}")))?;
    Ok(Reader {
        path: path.to_path_buf(),
        file,
        prefix,
        header_bytes,
        header,
        payload_len,
    })
}

impl Reader {
    /// The JSON header.
    #[must_use]
    pub fn header(&self) -> &serde_json::Value {
        &self.header
    }

    /// The payload's length in bytes.
    #[must_use]
    pub fn payload_len(&self) -> u64 {
        self.payload_len
    }

    /// Reads `buf.len()` bytes of the payload from byte `offset` of the payload.
    pub fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), StoreError> {
        use std::io::{Seek, SeekFrom};
        if offset
            .checked_add(buf.len() as u64)
            .is_none_or(|end| end > self.payload_len)
        {
            return Err(StoreError::corrupt(
                &self.path,
                format!(
                    "no payload bytes at {offset} (the payload is {} bytes)",
                    self.payload_len
                ),
            ));
        }
        let start = (PREFIX + self.header_bytes.len()) as u64 + offset;
        self.file
            .seek(SeekFrom::Start(start))
            .and_then(|_| self.file.read_exact(buf))
            .map_err(|e| StoreError::io(&self.path, e))
    }

    /// Streams the whole payload through `sink`, in pieces of at most 1 MiB (every piece but the
    /// last a multiple of 8 bytes long), and checks the checksum at the end; gives the checksum.
    /// A sink that has seen a damaged payload is told so by the error: it must drop what it got.
    pub fn read_payload(&mut self, mut sink: impl FnMut(&[u8])) -> Result<u32, StoreError> {
        use std::io::{Seek, SeekFrom};
        let io = |e| StoreError::io(&self.path, e);
        self.file
            .seek(SeekFrom::Start((PREFIX + self.header_bytes.len()) as u64))
            .map_err(io)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&self.prefix);
        crc.update(&self.header_bytes);
        let mut piece = vec![0u8; 1 << 20];
        let mut left = self.payload_len;
        while left > 0 {
            let n = left.min(piece.len() as u64) as usize;
            self.file.read_exact(&mut piece[..n]).map_err(io)?;
            crc.update(&piece[..n]);
            sink(&piece[..n]);
            left -= n as u64;
        }
        let mut sum = [0u8; SUFFIX];
        self.file.read_exact(&mut sum).map_err(io)?;
        let stored = u32::from_le_bytes(sum);
        if crc.finalize() != stored {
            return Err(StoreError::corrupt(&self.path, "checksum mismatch"));
        }
        Ok(stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("t.zt");
        let payload: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        write(&path, &json!({"kind": "test", "n": 1000}), &payload).unwrap();
        path
    }

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let t = read(&path).unwrap();
        assert_eq!(t.header, json!({"kind": "test", "n": 1000}));
        assert_eq!(t.payload.len(), 1000);
        assert_eq!(t.payload[10], 70);
    }

    #[test]
    fn every_single_byte_flip_is_detected() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let good = std::fs::read(&path).unwrap();
        for i in (0..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(read(&path).is_err(), "flip at byte {i} went unnoticed");
        }
    }

    #[test]
    fn truncation_is_detected_at_every_length() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let good = std::fs::read(&path).unwrap();
        for len in (0..good.len()).step_by(13) {
            std::fs::write(&path, &good[..len]).unwrap();
            let err = read(&path).unwrap_err();
            assert!(
                matches!(err, StoreError::Corrupt { .. }),
                "length {len}: {err}"
            );
        }
    }

    #[test]
    fn a_streamed_read_detects_every_flip_and_a_peek_reads_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(dir.path());
        let mut reader = open(&path).unwrap();
        let mut byte = [0u8];
        reader.read_at(10, &mut byte).unwrap();
        assert_eq!(byte, [70]);
        assert!(reader.read_at(1000, &mut byte).is_err());
        let good = std::fs::read(&path).unwrap();
        for i in (0..good.len()).step_by(11) {
            let mut bad = good.clone();
            bad[i] ^= 0x04;
            std::fs::write(&path, &bad).unwrap();
            let streamed = open(&path).and_then(|mut r| r.read_payload(|_| {}));
            assert!(streamed.is_err(), "flip at byte {i} went unnoticed");
        }
    }

    #[test]
    fn other_files_are_refused_by_magic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, vec![b'{'; 64]).unwrap();
        assert!(matches!(read(&path), Err(StoreError::BadMagic { .. })));
    }
}
