//! File input and atomic, write-if-changed output.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Reads a whole text file. Invalid UTF-8 is replaced (node descriptions
/// are free bytes on real fabrics), so it never fails for encoding.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// What [`write_if_changed`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteStatus {
    Written,
    Unchanged,
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so readers never see a partial file; leaves the file (and
/// its mtime) alone when it already holds exactly `bytes`.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<WriteStatus> {
    if let Ok(old) = fs::read(path)
        && old == bytes
    {
        return Ok(WriteStatus::Unchanged);
    }
    write_atomic(path, |w| w.write_all(bytes))?;
    Ok(WriteStatus::Written)
}

/// Writes `path` atomically with `fill` (temporary file + rename).
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
        fill(&mut w).map_err(|e| Error::io(path, e))?;
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_content_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        assert_eq!(write_if_changed(&p, b"abc").unwrap(), WriteStatus::Written);
        assert_eq!(write_if_changed(&p, b"abc").unwrap(), WriteStatus::Unchanged);
        assert_eq!(write_if_changed(&p, b"abd").unwrap(), WriteStatus::Written);
        assert_eq!(fs::read(&p).unwrap(), b"abd");
    }
}
