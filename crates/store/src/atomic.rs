use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

use crate::StoreError;

/// Writes `bytes` to `path` atomically: readers (and a later run after a crash) see either the
/// previous content of `path` or all of `bytes`, never a mix or a truncated file.
///
/// The bytes go to a temporary file in the same folder, which is flushed to disk (fsync) and then
/// renamed over `path`; the folder is synced too so that the rename itself survives a power cut.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("result.txt");
/// zermelo_store::atomic_write(&path, b"first player wins\n").unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), b"first player wins\n");
/// ```
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    atomic_write_with(path, |file| file.write_all(bytes))
}

/// Checks, before a long computation, that [`atomic_write`] will be able to write `path`: its
/// folder exists and takes a new file. The check creates and removes the temporary file that the
/// write would use, so it also fails on a read-only or full file system, and leaves nothing
/// behind. A file already at `path` is not touched.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// zermelo_store::ensure_writable(&dir.path().join("table.zgt")).unwrap();
/// assert!(zermelo_store::ensure_writable(&dir.path().join("no/such/folder/t.zgt")).is_err());
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
/// ```
pub fn ensure_writable(path: &Path) -> Result<(), StoreError> {
    let tmp = temporary(path)?;
    let result = File::create(&tmp).and_then(|mut file| {
        // One byte written and synced: a full disk refuses this where an empty file would pass.
        file.write_all(b"\0")?;
        file.sync_all()
    });
    let _ = fs::remove_file(&tmp);
    result.map_err(|e| StoreError::io(path, e))
}

/// The temporary file next to `path` that a write of `path` goes through: `.NAME.PID.tmp`, the
/// process id keeping two processes writing the same file from sharing one.
fn temporary(path: &Path) -> Result<std::path::PathBuf, StoreError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    let name = path
        .file_name()
        .ok_or_else(|| StoreError::io(path, std::io::Error::other("not a file name")))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    Ok(dir.join(tmp_name))
}

/// Like [`atomic_write`], but the content is produced by `fill`, which writes to the temporary
/// file; used for large tables that are streamed rather than built in memory first.
pub(crate) fn atomic_write_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), StoreError> {
    let tmp = temporary(path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    let result = (|| {
        let mut file = File::create(&tmp)?;
        fill(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        // Persist the rename: sync the folder entry. Not every platform can open a folder.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        StoreError::io(path, e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_existing_content_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        atomic_write(&path, b"old").unwrap();
        atomic_write(&path, b"new content").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new content");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn missing_folder_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/folder/a.json");
        let err = atomic_write(&path, b"x").unwrap_err();
        assert!(err.to_string().contains("a.json"), "{err}");
    }
}
