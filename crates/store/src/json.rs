//! JSON result documents with an embedded checksum.
//!
//! A document is a JSON object; [`write()`] adds a `"checksum"` field, `"crc32:"` followed by eight
//! hex digits: the CRC-32 of the compact serialisation of the object without that field (keys in
//! sorted order, as `serde_json` prints them). [`read`] recomputes it, so a truncated or edited
//! result file is reported rather than trusted. The file itself is pretty-printed for people.

use std::path::Path;

use serde_json::Value;

use crate::{atomic_write, StoreError};

/// The name of the field that holds the checksum.
pub const CHECKSUM_FIELD: &str = "checksum";

/// The checksum of a JSON object, ignoring any existing `checksum` field.
///
/// ```
/// let v = serde_json::json!({"size": 4, "winner": "black"});
/// let sum = zermelo_store::json::checksum(&v);
/// assert!(sum.starts_with("crc32:"));
/// assert_eq!(sum.len(), 14);
/// ```
#[must_use]
pub fn checksum(value: &Value) -> String {
    let mut v = value.clone();
    if let Value::Object(map) = &mut v {
        map.remove(CHECKSUM_FIELD);
    }
    let bytes = serde_json::to_vec(&v).expect("a JSON value always serialises");
    format!("crc32:{:08x}", crc32fast::hash(&bytes))
}

/// Returns `value` (an object) with its `checksum` field set.
#[must_use]
pub fn with_checksum(mut value: Value) -> Value {
    let sum = checksum(&value);
    if let Value::Object(map) = &mut value {
        map.insert(CHECKSUM_FIELD.to_string(), Value::String(sum));
    }
    value
}

/// Writes a JSON object atomically, with its checksum, pretty-printed.
pub fn write(path: &Path, value: &Value) -> Result<(), StoreError> {
    let mut text =
        serde_json::to_string_pretty(&with_checksum(value.clone())).expect("JSON serialises");
    text.push('\n');
    atomic_write(path, text.as_bytes())
}

/// Reads a JSON object written by [`write()`] and verifies its checksum.
pub fn read(path: &Path) -> Result<Value, StoreError> {
    let text = std::fs::read(path).map_err(|e| StoreError::io(path, e))?;
    let value: Value = serde_json::from_slice(&text)
        .map_err(|e| StoreError::corrupt(path, format!("not valid JSON: {e}")))?;
    verify(path, &value)?;
    Ok(value)
}

/// Checks the checksum of a document already parsed.
pub fn verify(path: &Path, value: &Value) -> Result<(), StoreError> {
    let stored = value
        .get(CHECKSUM_FIELD)
        .and_then(Value::as_str)
        .ok_or_else(|| StoreError::corrupt(path, "no checksum field"))?;
    if stored != checksum(value) {
        return Err(StoreError::corrupt(path, "checksum mismatch"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_and_tamper_detection() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let doc = json!({"size": 5, "wall_seconds": 0.123_456_7, "openings": [{"cell": "c3"}]});
        write(&path, &doc).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back["size"], 5);
        assert_eq!(back["wall_seconds"], 0.123_456_7);

        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("\"c3\"", "\"c4\"")).unwrap();
        assert!(matches!(read(&path), Err(StoreError::Corrupt { .. })));

        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        assert!(matches!(read(&path), Err(StoreError::Corrupt { .. })));
    }

    #[test]
    fn a_document_without_checksum_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        std::fs::write(&path, "{\"size\": 3}").unwrap();
        assert!(read(&path).is_err());
    }
}
